"""A unified diff's hunks placed by their numbers in the file's unsplit UTF-8 bytes (`_numbered`):
the same new bytes and placements as the locator, or no answer; `line_below` against the lines;
the peak memory of a large file's diff."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apply_patch import DEFAULT, FilePolicyError, Policy
from apply_patch._errors import EncodingError
from apply_patch.apply import Location, matching, split_text
from apply_patch.apply.matching._numbered import line_below, placed_by_numbers, spliced_bytes
from apply_patch.edits import apply_unified_diff
from apply_patch.format import Chunk, UpdateFile, unified_operations

WHERE = Location.of("f.txt", "f.txt", "f.txt", "f.txt", "f.txt")
# Few distinct lines: hunks whose lines occur at several places, empty lines, non-ASCII.
LINE = st.sampled_from(["a", "b", "", "  c = 1", "é", "a b", "x" * 90])


@st.composite
def diffs(draw: st.DrawFn) -> tuple[list[str], str]:
    """A file and a diff of it (`diff -u` style, any number of context lines), hunks in order."""
    lines = draw(st.lists(LINE, min_size=1, max_size=60))
    body, at, shift = ["--- a/f.txt", "+++ b/f.txt"], 0, 0
    for _ in range(draw(st.integers(1, 5))):
        if at >= len(lines):
            break
        start = draw(st.integers(at, len(lines) - 1))
        size = draw(st.integers(1, min(6, len(lines) - start)))
        removed = sorted(draw(st.sets(st.integers(start, start + size - 1), max_size=size)))
        added = draw(st.lists(LINE, max_size=3))
        hunk: list[str] = []
        for n in range(start, start + size):
            hunk.append(("-" if n in removed else " ") + lines[n])
            if n == (removed[-1] if removed else start):
                hunk += ["+" + line for line in added]
        new_count = size - len(removed) + len(added)
        body.append(f"@@ -{start + 1},{size} +{start + 1 + shift},{new_count} @@")
        body += hunk
        shift += new_count - size
        at = start + size
    return lines, "\n".join(body) + "\n"


def _by_locator(text: str, update: UpdateFile, policy: Policy) -> tuple[bytes, list[tuple[int, int, str, int, int]]]:
    located = matching.place(matching.decode(split_text(text)), update, policy, WHERE)
    placements = [(p.patch_line, p.file_line, p.tier, p.added, p.removed) for p in located.placements]
    encoded = matching.encode(located.text, policy)
    assert isinstance(encoded, str)  # (the file's lines)
    return encoded.encode(), placements


@settings(max_examples=300, deadline=None)
@given(diffs())
def test_same_text_and_placements_as_the_locator(case: tuple[list[str], str]) -> None:
    lines, diff = case
    text = "".join(line + "\n" for line in lines)
    (update,) = unified_operations(diff)
    assert isinstance(update, UpdateFile)
    hunks = _hunks(update)
    numbered = placed_by_numbers(text.encode(), hunks, DEFAULT)
    if numbered is None:  # added lines only, or no hunk at all: the locator's
        assert all(not chunk.old_lines for chunk in hunks) or not hunks
        return
    expected_text, expected_placements = _by_locator(text, update, DEFAULT)
    assert spliced_bytes(text.encode(), numbered.spans) == expected_text
    placements = [(p.patch_line, p.file_line, p.tier, p.added, p.removed) for p in numbered.placements]
    assert placements == expected_placements


def _hunks(update: UpdateFile) -> tuple[Chunk, ...]:
    """A unified diff's update holds context chunks only (its hunks)."""
    hunks = tuple(chunk for chunk in update.chunks if isinstance(chunk, Chunk))
    assert len(hunks) == len(update.chunks)
    return hunks


DIFF = "--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n"


def test_files_and_policies_it_leaves_to_the_locator() -> None:
    (update,) = unified_operations(DIFF)
    assert isinstance(update, UpdateFile)
    hunks = _hunks(update)
    assert placed_by_numbers(b"a\nb\nc\nd\n", hunks, DEFAULT) is not None
    for text in ("a\r\nb\r\nc\r\nd\r\n", "a\nb\nc\nd", "\ufeffa\nb\nc\nd\n", "", "a\nb\nX\nd\n", "b\nc\nd\n"):
        assert placed_by_numbers(text.encode(), hunks, DEFAULT) is None, text
    for options in ({"ambiguous": "first"}, {"line_endings": "crlf"}):
        assert placed_by_numbers(b"a\nb\nc\nd\n", hunks, DEFAULT.with_options(**options)) is None


def test_files_it_leaves_to_the_locator_are_still_applied(tmp_path: Path) -> None:
    for content in (b"a\r\nb\r\nc\r\nd\r\n", b"a\nb\nc\nd", b"\xef\xbb\xbfa\nb\nc\nd\n", b"x\na\nb\nc\nd\n"):
        (tmp_path / "f.txt").write_bytes(content)
        apply_unified_diff(DIFF, tmp_path)
        assert (tmp_path / "f.txt").read_bytes() == content.replace(b"c", b"C")


def test_non_ascii_file_and_added_lines(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("é\nb\nc\nd\n", encoding="utf-8")
    apply_unified_diff(DIFF.replace("+C", "+ç"), tmp_path)
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == "é\nb\nç\nd\n"


@given(st.lists(st.integers(0, 300), min_size=1, max_size=200), st.data())
def test_line_below_is_the_offset_of_that_line(widths: list[int], data: st.DataObject) -> None:
    text = "".join("x" * width + "\n" for width in widths).encode()
    starts = [0]
    for width in widths[:-1]:
        starts.append(starts[-1] + width + 1)
    first = data.draw(st.integers(0, len(widths) - 1))
    count = data.draw(st.integers(0, len(widths) - 1 - first))
    guess = data.draw(st.sampled_from([1.0, len(text) / len(widths), 50.0]))
    assert line_below(text, starts[first], count, guess) == starts[first + count]
    assert line_below(text, starts[first], len(widths) - first, guess) == len(text)
    assert line_below(text, starts[first], len(widths) - first + 1 + count, guess) == -1


def test_line_below_over_a_long_line_then_short_ones() -> None:
    # A stretch that holds no LF at one length and too many at twice that length: the
    # search once went back and forth between the two for ever.
    text = b"x" * 300 + b"\n" + b"\n" * 100
    assert line_below(text, 0, 20, 16.6) == 301 + 19
    assert line_below(text, 0, 101, 16.6) == len(text)
    assert line_below(text, 0, 102, 16.6) == -1


def test_a_file_with_a_nul_byte_is_refused_as_before(tmp_path: Path) -> None:
    # A NUL byte is refused when the file is read, before any hunk is placed,
    # with the message of the file read as text (and its declared encoding, if any).
    (tmp_path / "f.txt").write_bytes(b"a\nb\0\nc\nd\n")
    diff = DIFF.replace(" b\n", " b\0\n")
    with pytest.raises(FilePolicyError, match=r"it looks binary \(a NUL byte at offset 3\)\n"):
        apply_unified_diff(diff, tmp_path)
    (tmp_path / ".editorconfig").write_text("root = true\n[*]\ncharset = utf-8\n")
    with pytest.raises(EncodingError, match=r"offset 3\) \(its encoding is utf-8 \(charset in \.editorconfig:3\)\)\n"):
        apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\0\nc\nd\n"
    apply_unified_diff(diff, tmp_path, binary="allow")
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\0\nC\nd\n"


def test_undecodable_bytes_kept(tmp_path: Path) -> None:
    # `non_utf8="preserve"`: the file is not UTF-8; the bytes it cannot decode are kept
    # (its bytes spliced: a hunk's lines, UTF-8, match where the decoded text does).
    (tmp_path / "f.txt").write_bytes(b"\xff\nb\nc\nd\n")
    apply_unified_diff(DIFF, tmp_path, non_utf8="preserve")
    assert (tmp_path / "f.txt").read_bytes() == b"\xff\nb\nC\nd\n"


def test_lines_that_also_occur_before_their_place() -> None:
    # The hunk's lines are first found above the line its numbers name: that line is then
    # counted down to, and compared.
    text = b"x\nb\nc\nd\n" * 3
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -10,3 +10,3 @@\n b\n-c\n+C\n d\n"
    (update,) = unified_operations(diff)
    assert isinstance(update, UpdateFile)
    numbered = placed_by_numbers(text, _hunks(update), DEFAULT)
    assert numbered is not None
    assert spliced_bytes(text, numbered.spans) == b"x\nb\nc\nd\n" * 2 + b"x\nb\nC\nd\n"
    assert [p.file_line for p in numbered.placements] == [10]
    moved = diff.replace("-10,3 +10,3", "-9,3 +9,3")  # one line too high: not there
    (update,) = unified_operations(moved)
    assert isinstance(update, UpdateFile)
    assert placed_by_numbers(text, _hunks(update), DEFAULT) is None


def _peak_of_diff(tmp_path: Path, content: str) -> tuple[int, bytes]:
    """The traced peak of applying a diff of one hunk every 1,000 lines to a file of `content`
    (lines `n`), above what was allocated before; and the expected new bytes."""
    lines = content.split("\n")[:-1]
    body, expected = ["--- a/f.txt", "+++ b/f.txt"], list(lines)
    for shift, at in enumerate(range(500, len(lines) - 3, 1000)):
        body += [f"@@ -{at},3 +{at + shift},4 @@", " " + lines[at - 1], "-" + lines[at], "+" + lines[at] + "!", "+added", " " + lines[at + 1]]
        expected[at + shift : at + shift + 1] = [lines[at] + "!", "added"]
    diff = "\n".join(body) + "\n"
    (tmp_path / "f.txt").write_text(content, encoding="utf-8")
    gc.collect()
    tracemalloc.start()
    try:
        apply_unified_diff(diff, tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, "".join(line + "\n" for line in expected).encode()


def test_an_ascii_file_is_spliced_in_its_bytes_never_decoded(tmp_path: Path) -> None:
    # Issue 35 (bench row "peak memory, unified diff"): the hunks were spliced in the decoded
    # str, in pieces copied before the join: the file's bytes, its str, the pieces and the
    # new str at once (4.5x the file). Now its bytes and the new bytes (2x), and a little.
    content = "".join(f"    line {n} of a file that is long enough to weigh\n" for n in range(100_000))
    peak, expected = _peak_of_diff(tmp_path, content)
    assert (tmp_path / "f.txt").read_bytes() == expected
    assert peak < 2.5 * len(expected), peak / len(expected)


def test_a_non_ascii_file_is_spliced_in_its_bytes(tmp_path: Path) -> None:
    # A non-ASCII file is decoded when read (that checks its UTF-8): a str of 2 bytes a
    # character here (6.9x the file in all before). The hunks are spliced in the file's
    # bytes kept beside it, not in pieces of that str, nor in its bytes encoded again.
    content = "".join(f"    line {n} of a file that is long enough to weigh: — (a dash)\n" for n in range(100_000))
    peak, expected = _peak_of_diff(tmp_path, content)
    assert (tmp_path / "f.txt").read_bytes() == expected
    assert peak < 4.5 * len(expected), peak / len(expected)
