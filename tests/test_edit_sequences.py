"""Several edits of one file in one call (issue 24): the file is decoded once, edited as
one string while its lines end with LF, and line numbers are counted from the last
edit's place. What it must give is what the edits give one by one:

- a sequence of replacements, each of a text that occurs exactly once in the file
  as the previous ones left it, in any order (forward, backward), gives `str.replace`
  applied in turn, the file's line breaks (LF or CRLF) kept, and each placement's line
  is the line where its old text started in the file as it was then;
- the policies on the final newline, line endings and BOM apply as they do one edit
  at a time;
- a replacement found only by a tolerant tier between exact ones, and an insertion,
  leave the file as the same edits applied in separate calls;
- a failing edit after successful ones leaves the file byte for byte unchanged.
"""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, ContextNotFoundError, PatchError
from apply_patch.edits import Edit, Insert, StrReplace, apply_edits

from _support import PROPERTY

LINES = st.lists(st.sampled_from(["a", "b", "ab", "", "  a", "ba b"]), min_size=1, max_size=30)


def _pick(text: str, data: st.DataObject) -> str | None:
    """A substring of `text` that occurs exactly once in it (None if the draw has none),
    and not one of several lines that ends before the trailing whitespace of a line, or
    begins or ends in the middle of a word (those are refused: an old text of several
    lines stands for whole lines, docs/edit-formats.md)."""
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, min(len(text), start + 12)))
    old = text[start:end]
    tail = text[end:].split("\n", 1)[0]
    if "\n" in old.rstrip("\n"):
        if tail and not tail.strip(" "):
            return None
        if (start > 0 and _word(old[0]) and _word(text[start - 1])) or (end < len(text) and _word(old[-1]) and _word(text[end])):
            return None
    # Once, even counting overlapping occurrences (`str.count` does not): in "ab\nb\nb" the
    # engine refuses "b\nb" inside "ab" and takes the other, `str.replace` the first.
    return old if text.find(old, text.find(old) + 1) < 0 else None


def _word(character: str) -> bool:
    return character.isalnum() or character == "_"


@PROPERTY
@given(LINES, st.booleans(), st.sampled_from(["\n", "\r\n"]), st.data())
def test_edits_in_one_call_are_the_text_replacements_in_turn(
    lines: list[str], final: bool, ending: str, data: st.DataObject
) -> None:
    text = "\n".join(lines) + ("\n" if final else "")
    if "\n" not in text:
        return  # a file without a line break has no ending of its own to keep
    edits: list[Edit] = []
    expected_lines = []
    for _ in range(data.draw(st.integers(1, 6))):
        if not text:
            break
        old = _pick(text, data)
        new = data.draw(st.text("abx\n", max_size=6))
        if old is None or old == new or "\n" not in text.replace(old, new):
            continue  # (a file left without a line break would lose its ending)
        expected_lines.append(text.count("\n", 0, text.find(old)) + 1)
        edits.append(StrReplace("f.txt", old, new))
        text = text.replace(old, new)
    if not edits:
        return
    with tempfile.TemporaryDirectory() as folder:
        original = ("\n".join(lines) + ("\n" if final else "")).replace("\n", ending)
        Path(folder, "f.txt").write_bytes(original.encode())
        result = apply_edits(edits, folder)
        assert Path(folder, "f.txt").read_bytes().decode() == text.replace("\n", ending)
        assert [p.file_line for p in result.operations[0].placements] == expected_lines


@PROPERTY
@given(LINES, st.data(), st.sampled_from(["keep", "add"]), st.sampled_from(["keep", "lf", "crlf"]),
       st.sampled_from(["keep", "strip"]), st.booleans())
def test_policies_apply_as_one_edit_at_a_time(
    lines: list[str], data: st.DataObject, final_newline: str, line_endings: str, bom: str, with_bom: bool
) -> None:
    text = "\n".join(lines)
    edits: list[Edit] = []
    for _ in range(data.draw(st.integers(1, 4))):
        if not text:
            break
        old = _pick(text, data)
        new = data.draw(st.text("ab\n", max_size=4))
        if old is None or old == new:
            continue
        edits.append(StrReplace("f.txt", old, new))
        text = text.replace(old, new)
    if not edits:
        return
    options = DEFAULT.with_options(final_newline=final_newline, line_endings=line_endings, bom=bom)
    original = ("\ufeff" if with_bom else "") + "\n".join(lines)
    with tempfile.TemporaryDirectory() as together, tempfile.TemporaryDirectory() as apart:
        for folder in (together, apart):
            Path(folder, "f.txt").write_bytes(original.encode())
        apply_edits(edits, together, policy=options)
        for edit in edits:
            apply_edits([edit], apart, policy=options)
        assert Path(together, "f.txt").read_bytes() == Path(apart, "f.txt").read_bytes()


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_a_tolerant_match_and_an_insertion_between_exact_ones(ending: str) -> None:
    lines = [f"line {i}" + ("   " if i == 5 else "") for i in range(10)]
    original = ending.join(lines) + ending
    edits: list[Edit] = [
        StrReplace("f.txt", "line 2\n", "line two\n"),
        StrReplace("f.txt", "line 4\nline 5\nline 6\n", "line 4\nline five\nline 6\n"),  # file: "line 5   "
        Insert("f.txt", 8, "inserted"),
        StrReplace("f.txt", "line 9", "line nine"),
        StrReplace("f.txt", "line 0", "line zero"),
    ]
    with tempfile.TemporaryDirectory() as together, tempfile.TemporaryDirectory() as apart:
        for folder in (together, apart):
            Path(folder, "f.txt").write_bytes(original.encode())
        result = apply_edits(edits, together)
        for edit in edits:
            apply_edits([edit], apart)
        data = Path(together, "f.txt").read_bytes()
        assert data == Path(apart, "f.txt").read_bytes()
        assert data.decode().split(ending)[:6] == ["line zero", "line 1", "line two", "line 3", "line 4", "line five"]
        assert [p.file_line for p in result.operations[0].placements] == [3, 5, 9, 11, 1]
        assert [w.kind for w in result.warnings] == ["fuzzy"]


def test_a_failing_edit_after_others_changes_nothing() -> None:
    original = b"".join(b"line %d\n" % i for i in range(100))
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        edits = [StrReplace("f.txt", f"line {i}\n", f"edited {i}\n") for i in range(0, 100, 7)]
        edits.append(StrReplace("f.txt", "line 7\n", "again\n"))  # gone: edit 2 replaced it
        with pytest.raises(ContextNotFoundError, match="edit 16"):
            apply_edits(edits, folder)
        assert Path(folder, "f.txt").read_bytes() == original


def test_an_occurrence_passed_over_is_not_the_one_replaced() -> None:
    """`a\\nb` at the top ends where the file's line goes on with trailing spaces: not a
    place (the rule on whole lines); the one further down is, and only it changes."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(b"a\nb  \nx\na\nb\ny\n")
        result = apply_edits([StrReplace("f.txt", "a\nb", "A\nB")], folder)
        assert Path(folder, "f.txt").read_bytes() == b"a\nb  \nx\nA\nB\ny\n"
        assert [p.file_line for p in result.operations[0].placements] == [4]


TOLERANT_LINES = st.lists(st.sampled_from(["a", "a  ", "  a", "\ta", "b", "b ", "\u201cq\u201d", '"q"', "", "  }"]),
                          min_size=1, max_size=40)


@PROPERTY
@given(TOLERANT_LINES, st.data(), st.sampled_from(["keep", "add"]))
def test_a_tolerant_match_in_an_lf_file_is_the_one_in_its_crlf_copy(
    lines: list[str], data: st.DataObject, final_newline: str
) -> None:
    """An LF file is searched by the tolerant tiers as one string (issue 24), a CRLF file
    line by line: the same edit gives the same lines, placements, warnings or error."""
    start = data.draw(st.integers(0, len(lines) - 1))
    stop = data.draw(st.integers(start + 1, min(len(lines), start + 4)))
    old = "\n".join(line.strip() + data.draw(st.sampled_from(["", " ", "\t"])) for line in lines[start:stop])
    old += data.draw(st.sampled_from(["", "\n"]))
    new = data.draw(st.sampled_from(["x\n", "  x\n", "", "a\nx\n"])) + old.replace("a", "A", 1)
    edit = StrReplace("f.txt", old + "\n", new, replace_all=data.draw(st.booleans()))
    text = "\n".join(lines) + data.draw(st.sampled_from(["", "\n"]))
    answers: list[object] = []
    for ending in ("\n", "\r\n"):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "f.txt").write_bytes(text.replace("\n", ending).encode())
            try:
                result = apply_edits([edit], folder, final_newline=final_newline)
            except PatchError as error:
                answers.append((type(error).__name__, str(error)))
                continue
            content = Path(folder, "f.txt").read_bytes().decode().replace(ending, "\n")
            placed = [(p.file_line, p.tier, p.added, p.removed) for p in result.operations[0].placements]
            answers.append((content, placed, [w.message for w in result.warnings]))
    assert answers[0] == answers[1]


def test_a_tolerant_match_far_from_the_ends_of_a_large_file() -> None:
    """The tolerant match of an LF file splits only the lines around its places (those
    the re-indentation reads): the file and the line numbers as in its CRLF copy."""
    lines = [f"    line {i}" + ("  " if i % 3 else "") for i in range(2000)]
    edit = StrReplace("f.txt", "line 1000\nline 1001\nline 1002\n", "line 1000\nadded\nline 1002\n")
    outcomes = []
    for ending in ("\n", "\r\n"):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "f.txt").write_bytes((ending.join(lines) + ending).encode())
            result = apply_edits([edit], folder)
            content = Path(folder, "f.txt").read_bytes().decode().replace(ending, "\n")
            outcomes.append((content, [p.file_line for p in result.operations[0].placements],
                             [w.message for w in result.warnings]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1] == [1001] and "matched line 1001 only" in outcomes[0][2][0]
    assert "\n    added\n" in outcomes[0][0]  # re-indented as the file's lines there
