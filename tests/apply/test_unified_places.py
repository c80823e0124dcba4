"""Where a unified diff's hunk goes when its lines fit at many places: the place its
header's line number names (docs/edit-formats.md, "Unified diffs"), however many
places come before it."""

from __future__ import annotations

from pathlib import Path

import pytest

from apply_patch import PatchError
from apply_patch.edits import apply_unified_diff


def _applied(tmp_path: Path, lines: list[str], diff: str, ambiguous: str = "error") -> list[str]:
    (tmp_path / "f.txt").write_text("".join(line + "\n" for line in lines))
    apply_unified_diff(diff, tmp_path, ambiguous=ambiguous)
    return (tmp_path / "f.txt").read_text().splitlines()


@pytest.mark.parametrize("ambiguous", ["first", "error"])
def test_hunk_goes_where_its_numbers_say_past_a_thousand_other_places(tmp_path: Path, ambiguous: str) -> None:
    lines = ["x"] * 1500
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1201 +1201 @@\n-x\n+y\n"
    result = _applied(tmp_path, lines, diff, ambiguous=ambiguous)
    assert [n for n, line in enumerate(result, 1) if line == "y"] == [1201]


@pytest.mark.parametrize("ambiguous", ["first", "error"])
def test_a_tolerant_hunk_goes_where_its_numbers_say_past_a_thousand_other_places(
    tmp_path: Path, ambiguous: str
) -> None:
    # The file's lines hold trailing spaces the hunk lacks: found only at a tolerant tier,
    # where the places were counted from the first up to a cap of 1,000. A place past the
    # cap was never compared with the numbers, and the hunk was refused as ambiguous.
    lines = ["x  "] * 1500
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1201 +1201 @@\n-x\n+y\n"
    result = _applied(tmp_path, lines, diff, ambiguous=ambiguous)
    assert [n for n, line in enumerate(result, 1) if line == "y"] == [1201]
    assert result.count("x  ") == 1499


def test_hunk_at_its_numbers_then_the_next_after_it(tmp_path: Path) -> None:
    lines = [f"line {n}" for n in range(1, 41)]
    diff = (
        "--- a/f.txt\n+++ b/f.txt\n"
        "@@ -9,3 +9,3 @@\n line 9\n-line 10\n+ten\n line 11\n"
        "@@ -30,2 +30,3 @@\n line 30\n+thirty and a half\n line 31\n"
    )
    result = _applied(tmp_path, lines, diff)
    assert result[9] == "ten" and result[30] == "thirty and a half" and len(result) == 41


def test_hunk_whose_numbers_are_off_is_still_found_by_content(tmp_path: Path) -> None:
    lines = [f"line {n}" for n in range(1, 41)]
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -3,3 +3,3 @@\n line 19\n-line 20\n+twenty\n line 21\n"
    assert _applied(tmp_path, lines, diff)[19] == "twenty"


def test_hunk_matching_nowhere_is_refused(tmp_path: Path) -> None:
    lines = [f"line {n}" for n in range(1, 41)]
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -3,3 +3,3 @@\n line 2\n-line 30\n+thirty\n line 4\n"
    with pytest.raises(PatchError):
        _applied(tmp_path, lines, diff)
    assert (tmp_path / "f.txt").read_text().splitlines() == lines
