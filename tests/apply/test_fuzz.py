"""A unified diff's hunk whose edge context lines differ from the file (GNU `patch`'s fuzz):
placed near its line numbers where that place is the only one, the file's version of
those lines kept, a `fuzzy` warning naming them (contract §3; docs/edit-formats.md,
the decision table). Every refusal leaves the tree byte for byte unchanged."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TypeVar

import pytest

from apply_patch import CODEX, AmbiguousChunkError, ContextNotFoundError, PatchError, apply_patch
from apply_patch.edits import apply_search_replace, apply_unified_diff

E = TypeVar("E", bound=PatchError)

LINES = [f"line {n}" for n in range(1, 41)]


def _tree(tmp_path: Path, lines: list[str]) -> bytes:
    data = "".join(line + "\n" for line in lines).encode()
    (tmp_path / "f.txt").write_bytes(data)
    return data


def _diff(*hunks: str) -> str:
    return "--- a/f.txt\n+++ b/f.txt\n" + "".join(hunks)


def _refused(tmp_path: Path, before: bytes, diff: str, error: type[E]) -> E:
    with pytest.raises(error) as caught:
        apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]
    return caught.value


def test_a_stale_first_context_line_is_fuzzed_and_the_file_keeps_its_own(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    # Lines 18-24 of the file; the model's copy of line 18 has a stale word.
    diff = _diff("@@ -18,7 +18,7 @@\n lines 18\n line 19\n line 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    result = apply_unified_diff(diff, tmp_path)
    expected = [*LINES[:20], "twenty-one", *LINES[21:]]
    assert (tmp_path / "f.txt").read_text().splitlines() == expected
    fuzzy = [w for w in result.warnings if w.kind == "fuzzy"]
    assert len(fuzzy) == 1 and fuzzy[0].tier == "fuzz" and fuzzy[0].file_line == 18
    assert "line 18" in fuzzy[0].message and "kept as the file has" in fuzzy[0].message


def test_two_stale_lines_at_each_edge_are_fuzzed(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    diff = _diff("@@ -18,7 +18,7 @@\n lines 18\n lines 19\n line 20\n-line 21\n+twenty-one\n line 22\n lines 23\n lines 24\n")
    result = apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [*LINES[:20], "twenty-one", *LINES[21:]]
    (fuzzy,) = [w for w in result.warnings if w.kind == "fuzzy"]
    assert "18, 19, 23, 24" in fuzzy.message


def test_a_hunk_fuzzed_a_few_lines_off_its_numbers(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    diff = _diff("@@ -14,7 +14,7 @@\n lines 18\n line 19\n line 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [*LINES[:20], "twenty-one", *LINES[21:]]


def test_a_blank_line_dropped_from_the_outer_context_is_fuzzed(tmp_path: Path) -> None:
    lines = ["import os", "", "import re", "x = 1", "y = 2", "z = 3", "w = 4"]
    _tree(tmp_path, lines)
    # The model's copy lacks the blank line between its first two context lines, and
    # its last context line is stale: no slip but the fuzz explains both.
    diff = _diff("@@ -1,5 +1,5 @@\n import os\n import re\n-x = 1\n+x = 10\n y = 2\n z = 30\n")
    result = apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == ["import os", "", "import re", "x = 10", "y = 2", "z = 3", "w = 4"]
    assert [w.tier for w in result.warnings if w.kind == "fuzzy"] == ["fuzz"]


def test_a_blank_line_dropped_beside_added_lines_is_refused(tmp_path: Path) -> None:
    # Two blank lines in the file, one in the model's copy, right above its added line:
    # the new line goes after both blank lines or between them; nothing says which.
    lines = ["import os", "", "", "def f():", "    return 1", "", "print(f())"]
    before = _tree(tmp_path, lines)
    diff = _diff("@@ -1,4 +1,5 @@\n import os\n \n+import sys\n def f():\n     return 1\n")
    _refused(tmp_path, before, diff, AmbiguousChunkError)  # naming lines 2-3 (test_mistakes)


def test_a_blank_line_doubt_where_the_hunks_numbers_point_is_named_though_its_lines_fit_twice(tmp_path: Path) -> None:
    # The lines with text fit twice; the header's numbers name the second place, where one
    # blank line the file has two of lies beside the added line: ambiguous there, named.
    lines = ["import os", "def f():", "    return 1", "", "import os", "", "", "def f():", "    return 1"]
    before = _tree(tmp_path, lines)
    diff = _diff("@@ -5,3 +5,4 @@\n import os\n \n+import sys\n def f():\n")
    error = _refused(tmp_path, before, diff, AmbiguousChunkError)
    assert error.candidates == (5,) and "lines 6-7: 2 blank lines in the file, 1 in the hunk" in error.message


def test_a_removed_blank_line_dropped_next_to_the_change_is_refused(tmp_path: Path) -> None:
    # The file's blank line above `x = 1` may have been one the model meant to remove.
    lines = ["a = 0", "", "x = 1", "y = 2", "z = 3"]
    before = _tree(tmp_path, lines)
    diff = _diff("@@ -1,3 +1,3 @@\n a = 0\n-x = 1\n+x = 10\n y = 2\n")
    _refused(tmp_path, before, diff, AmbiguousChunkError)


def test_a_later_hunk_follows_a_fuzzed_one(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    diff = _diff(
        "@@ -5,5 +5,6 @@\n lines 5\n line 6\n+six and a half\n line 7\n line 8\n",
        "@@ -30,3 +31,3 @@\n line 30\n-line 31\n+thirty-one\n line 32\n",
    )
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [
        *LINES[:6], "six and a half", *LINES[6:30], "thirty-one", *LINES[31:]
    ]


def test_a_changed_line_next_to_the_change_is_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    # The third context line from the top touches the change: no edge fuzz reaches it, and
    # `other` is no look-alike of the file's line 20 (a stale look-alike: the tests below).
    diff = _diff("@@ -18,7 +18,7 @@\n line 18\n line 19\n other\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


def test_three_stale_lines_at_one_edge_are_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    diff = _diff("@@ -18,7 +18,7 @@\n lines 18\n lines 19\n lines 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


# The same hunk with a stale line at its edge (edge fuzz) or in its middle (a look-alike).
TWICE = {
    "edge": (["a", "b", "c", "d", "e"], "@@ -8,5 +8,5 @@\n stale\n b\n-c\n+C\n d\n e\n"),
    "middle": (
        ["alpha", "beta", "gamma", "delta", "epsilon"],
        "@@ -8,5 +8,5 @@\n alpha\n-beta\n+BETA\n gammas\n-delta\n+DELTA\n epsilon\n",
    ),
}
FAR = {
    "edge": "@@ -10,5 +10,5 @@\n lines 1500\n line 1501\n-line 1502\n+changed\n line 1503\n line 1504\n",
    "middle": "@@ -10,5 +10,5 @@\n line 1500\n-line 1501\n+changed\n lines 1502\n line 1503\n",
}
NEAR = {
    "edge": "@@ -18,7 +18,7 @@\n lines 18\n line 19\n line 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n",
    "middle": "@@ -18,6 +18,6 @@\n line 18\n-line 19\n+nineteen\n lines 20\n-line 21\n+twenty-one\n line 22\n line 23\n",
}


@pytest.mark.parametrize("stale", list(TWICE))
def test_a_fuzzed_hunk_that_fits_twice_is_refused_naming_both_places(tmp_path: Path, stale: str) -> None:
    block, hunk = TWICE[stale]
    before = _tree(tmp_path, ["top", *block, "middle", *block, "bottom"])
    # Its numbers point at the second copy, but with its stale line fuzzed it fits both.
    error = _refused(tmp_path, before, _diff(hunk), AmbiguousChunkError)
    assert error.candidates == (2, 8)


@pytest.mark.parametrize("stale", list(FAR))
def test_a_fuzzed_place_far_from_the_numbers_is_refused(tmp_path: Path, stale: str) -> None:
    before = _tree(tmp_path, [f"line {n}" for n in range(1, 2001)])
    _refused(tmp_path, before, _diff(FAR[stale]), ContextNotFoundError)


def test_a_hunk_whose_unfuzzed_lines_are_only_added_lines_is_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    diff = _diff("@@ -18,4 +18,5 @@\n lines 18\n lines 19\n+new\n lines 20\n lines 21\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


@pytest.mark.parametrize("stale", list(NEAR))
@pytest.mark.parametrize("options", [{"policy": CODEX}, {"slips": "refuse"}])
def test_no_fuzz_under_codex_or_slips_refuse(tmp_path: Path, options: dict[str, object], stale: str) -> None:
    before = _tree(tmp_path, LINES)
    with pytest.raises(ContextNotFoundError):
        apply_unified_diff(_diff(NEAR[stale]), tmp_path, **options)  # type: ignore[arg-type]
    assert (tmp_path / "f.txt").read_bytes() == before


def test_a_codex_chunk_has_no_numbers_and_gets_no_fuzz(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    patch = (
        "*** Begin Patch\n*** Update File: f.txt\n@@\n"
        " lines 18\n line 19\n line 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n*** End Patch\n"
    )
    with pytest.raises(ContextNotFoundError):
        apply_patch(patch, root=tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == before


def test_a_removed_blank_line_dropped_before_the_outer_context_is_refused(tmp_path: Path) -> None:
    # The file has two blank lines after `b = 2`; the model removes `b = 2` and shows one
    # blank line after it: the first of the file's may be one it meant to remove too.
    lines = ["a = 1", "b = 2", "", "", "def f():", "    pass", "x = 0"]
    before = _tree(tmp_path, lines)
    diff = _diff("@@ -1,5 +1,4 @@\n a = 1\n-b = 2\n \n def g():\n     pass\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


def test_blank_lines_of_the_outer_context_before_a_non_blank_one_are_fuzzed(tmp_path: Path) -> None:
    # One blank line dropped below `c = 3`, which anchors the rest: nothing is ambiguous.
    lines = ["a = 1", "b = 2", "c = 3", "", "", "def f():", "    pass"]
    _tree(tmp_path, lines)
    diff = _diff("@@ -1,6 +1,6 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n \n def f():\n     pass\n")
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == ["a = 1", "b = 20", "c = 3", "", "", "def f():", "    pass"]


# A stale context line inside the hunk, between or beside its changes (issue 34): placed
# where the numbers say when every other line is exact there, the stale one is plainly
# the same line slightly changed, and no other place near fits so; the file's version of
# that line is kept and a `fuzzy` warning names it.


def test_a_stale_line_between_two_changes_is_kept_as_the_file_has_it(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    diff = _diff("@@ -18,6 +18,6 @@\n line 18\n-line 19\n+nineteen\n lines 20\n-line 21\n+twenty-one\n line 22\n line 23\n")
    result = apply_unified_diff(diff, tmp_path)
    expected = [*LINES[:18], "nineteen", "line 20", "twenty-one", *LINES[21:]]
    assert (tmp_path / "f.txt").read_text().splitlines() == expected
    (fuzzy,) = [w for w in result.warnings if w.kind == "fuzzy"]
    assert fuzzy.tier == "fuzz" and fuzzy.file_line == 18
    assert "context line 20 kept as the file has it" in fuzzy.message


def test_a_stale_line_next_to_the_change_is_kept_as_the_file_has_it(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    diff = _diff("@@ -18,7 +18,7 @@\n line 18\n line 19\n lines 20\n-line 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    result = apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [*LINES[:20], "twenty-one", *LINES[21:]]
    assert [w.tier for w in result.warnings if w.kind == "fuzzy"] == ["fuzz"]


def test_a_stale_middle_line_is_placed_by_numbers_offset_as_the_hunk_before(tmp_path: Path) -> None:
    _tree(tmp_path, LINES)
    # The first hunk lands 3 lines after its numbers; the second's numbers are as far off.
    diff = _diff(
        "@@ -2,3 +2,4 @@\n line 5\n+five and a half\n line 6\n line 7\n",
        "@@ -27,5 +28,5 @@\n line 30\n-line 31\n+thirty-one\n lines 32\n-line 33\n+thirty-three\n line 34\n",
    )
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [
        *LINES[:5], "five and a half", *LINES[5:30], "thirty-one", "line 32", "thirty-three", *LINES[33:]
    ]


def test_a_stale_line_whose_hunk_without_its_edges_fits_many_places(tmp_path: Path) -> None:
    # Without its two outer lines at each edge, the hunk's rest (two blank lines) fits
    # before every function (edge fuzz: ambiguous); the whole hunk, but for one look-alike
    # line, fits at its numbers only.
    lines = ["import os", "", "", "def a():", "    return os.sep", "", "", "def b():", "    return 2",
             "", "", "def c():", "    return 3"]  # fmt: skip
    _tree(tmp_path, lines)
    diff = _diff(
        "@@ -8,6 +8,10 @@\n def b():\n     return 22\n \n+def b2():\n+    return 4\n+\n+\n \n def c():\n     return 3\n"
    )
    result = apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_text().splitlines() == [*lines[:10], "def b2():", "    return 4", "", "", *lines[10:]]
    (fuzzy,) = [w for w in result.warnings if w.kind == "fuzzy"]
    assert "context line 9 kept" in fuzzy.message


def test_two_stale_middle_lines_are_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    diff = _diff("@@ -18,7 +18,7 @@\n line 18\n-line 19\n+nineteen\n lines 20\n lines 21\n-line 22\n+twenty-two\n line 23\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


def test_a_stale_removed_line_is_refused(tmp_path: Path) -> None:
    # A removed line is the edit itself: the model's copy must be the file's.
    before = _tree(tmp_path, LINES)
    diff = _diff("@@ -18,7 +18,7 @@\n line 18\n line 19\n line 20\n-lines 21\n+twenty-one\n line 22\n line 23\n line 24\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


@pytest.mark.parametrize(
    "stale",
    [
        "the model's own line",  # not the file's line slightly changed
        "    lines 20",  # another indentation
        "",  # a blank line for a line with text
        "lane 99",  # too much changed for a line this short
    ],
)
def test_a_middle_line_that_is_no_look_alike_is_refused(tmp_path: Path, stale: str) -> None:
    before = _tree(tmp_path, LINES)
    diff = _diff(f"@@ -18,6 +18,6 @@\n line 18\n-line 19\n+nineteen\n {stale}\n-line 21\n+twenty-one\n line 22\n line 23\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


def test_a_stale_line_with_a_single_exact_line_beside_it_is_refused(tmp_path: Path) -> None:
    # One exact line is no evidence of the place (any line may occur near the numbers).
    before = _tree(tmp_path, LINES)
    diff = _diff("@@ -18,2 +18,3 @@\n lines 18\n+new\n line 19\n")
    _refused(tmp_path, before, diff, ContextNotFoundError)


def test_a_stale_middle_line_in_formats_without_numbers_is_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, LINES)
    envelope = (
        "*** Begin Patch\n*** Update File: f.txt\n@@\n"
        " line 18\n-line 19\n+nineteen\n lines 20\n-line 21\n+twenty-one\n line 22\n*** End Patch\n"
    )
    with pytest.raises(ContextNotFoundError):
        apply_patch(envelope, root=tmp_path)
    blocks = "f.txt\n<<<<<<< SEARCH\nline 18\nline 19\nlines 20\nline 21\n=======\nline 18\nnineteen\nlines 20\ntwenty-one\n>>>>>>> REPLACE\n"
    with pytest.raises(PatchError):
        apply_search_replace(blocks, tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_long_lines_are_no_look_alikes_and_cost_no_quadratic_time(tmp_path: Path) -> None:
    # A line of 200,000 characters, one of them stale in the hunk: difflib would compare
    # them in time quadratic in their length; a line that long is data, never a look-alike.
    long = "x" * 200_000
    lines = [*LINES[:19], long + "0", *LINES[20:]]
    before = _tree(tmp_path, lines)
    diff = _diff(f"@@ -18,6 +18,6 @@\n line 18\n-line 19\n+nineteen\n {long}1\n-line 21\n+twenty-one\n line 22\n line 23\n")
    started = time.monotonic()
    _refused(tmp_path, before, diff, ContextNotFoundError)
    assert time.monotonic() - started < 10
