"""A file whose every line break is CRLF is edited as one LF string and written with CRLF
again (`_text.decode`, issue 24): what it gives must be exactly what editing its lines,
each with its CRLF ending, gives (`_text.as_lines`, the way such a file was edited before).
Compared here: the file's bytes, each placement, the warnings, and on a failure the error,
with the policies on line endings, the final newline and the BOM.

The file's line break is decided once, when it is decoded (issue 35): a CRLF file that
loses its last line break to one edit of a call gets CRLF on the new lines of a later
one, as one string and as lines alike (as lines, it used to have no ending left to
prefer, and got LF).
"""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, PatchError
from apply_patch.apply import matching
from apply_patch.apply.matching import _text
from apply_patch.edits import Edit, Insert, StrReplace, apply_edits

from _support import PROPERTY

LINES = st.lists(st.sampled_from(["a", "b", "ab", "", "  a", "ba b", "b  ", "\t'x'"]), min_size=1, max_size=20)


def _as_lines(decoded: bytes | str, utf8: bytes | None = None) -> _text.Decoded:
    """The way before: a text with a CR edited as its lines, each with its own ending."""
    text = _text.decode(decoded, utf8)
    return _text.as_lines(text) if text.crlf else text  # (a CR not in every break: lines already)


def _outcome(edits: list[Edit], original: bytes, options: object) -> tuple[object, ...]:
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        try:
            result = apply_edits(edits, folder, policy=options)  # type: ignore[arg-type]
        except PatchError as error:
            assert Path(folder, "f.txt").read_bytes() == original
            return ("error", error.kind, str(error))
        placements = [(p.file_line, p.tier, p.added, p.removed) for p in result.operations[0].placements]
        return (Path(folder, "f.txt").read_bytes(), placements, [str(w) for w in result.warnings])


def _edit(text: str, data: st.DataObject) -> tuple[Edit, str]:
    """An edit of `text` (LF) and the text after it, as far as it can be told: a
    replacement of a piece of it, maybe with its spaces changed (a tolerant match), or an
    insertion."""
    if data.draw(st.integers(0, 5)) == 0:
        after = data.draw(st.integers(0, text.count("\n") + 1))
        return Insert("f.txt", after, data.draw(st.sampled_from(["i", "i\nj"]))), text + "\n"
    start = data.draw(st.integers(0, len(text) - 1))
    piece = old = text[start : data.draw(st.integers(start + 1, min(len(text), start + 12)))]
    if data.draw(st.booleans()):
        old = old.replace("  ", " ").replace("\t", "    ")
    new = data.draw(st.sampled_from(["", "N\n", "  n", old.upper(), old + "\nmore"]))
    new = new if new != old else old + "!"
    return StrReplace("f.txt", old, new), text.replace(piece, new) if text.count(piece) == 1 else text


@PROPERTY
@given(LINES, st.booleans(), st.booleans(), st.sampled_from(["keep", "lf", "crlf"]),
       st.sampled_from(["keep", "add"]), st.sampled_from(["keep", "strip"]), st.data())  # fmt: skip
def test_a_crlf_file_edited_as_lf_text_gives_what_its_lines_give(
    lines: list[str], final: bool, bom: bool, line_endings: str, final_newline: str, keep_bom: str,
    data: st.DataObject,
) -> None:
    text = "\n".join(lines) + ("\n" if final else "")
    if "\n" not in text:
        return
    edits: list[Edit] = []
    now = text
    for _ in range(data.draw(st.integers(1, 4))):
        edit, now = _edit(now, data)
        edits.append(edit)
    if not edits:
        return
    original = (("\ufeff" if bom else "") + text.replace("\n", "\r\n")).encode()
    options = DEFAULT.with_options(line_endings=line_endings, final_newline=final_newline, bom=keep_bom)
    mp = pytest.MonkeyPatch()
    try:
        # Where the planner takes it from: the part (its first-use loader has it by now).
        mp.setattr(matching, "decode", _as_lines)
        before = _outcome(edits, original, options)
    finally:
        mp.undo()
    assert _outcome(edits, original, options) == before


def test_a_file_of_mixed_line_breaks_keeps_each_one() -> None:
    """Not every break CRLF: edited as lines, each untouched line keeps its own ending."""
    original = b"one\r\ntwo\nthree\r\nfour\n"
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        apply_edits([StrReplace("f.txt", "three\n", "THREE\n")], folder)
        assert Path(folder, "f.txt").read_bytes() == b"one\r\ntwo\nTHREE\r\nfour\n"


def test_a_crlf_file_stays_crlf_after_edits_of_every_kind() -> None:
    original = b"a\r\nb\r\n  c  \r\nd\r\n"
    edits: list[Edit] = [
        StrReplace("f.txt", "a\nb\n", "A\nB\nB2\n"),  # exact, a line added
        StrReplace("f.txt", "  c\nd\n", "  C\nd\n"),  # trailing whitespace lost: a tolerant tier
        Insert("f.txt", 0, "top"),
    ]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        apply_edits(edits, folder)
        assert Path(folder, "f.txt").read_bytes() == b"top\r\nA\r\nB\r\nB2\r\n  C\r\nd\r\n"


def test_a_crlf_file_left_without_a_line_break_gets_crlf_lines_later_in_the_call() -> None:
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(b"a\r\nb\r\nc")
        apply_edits([StrReplace("f.txt", "a\nb\n", ""), Insert("f.txt", 0, "top")], folder)
        assert Path(folder, "f.txt").read_bytes() == b"top\r\nc"


def _by_lines(decoded: str, edits: list[StrReplace], options: object) -> bytes:
    """`edits` made on the file's lines, each with its own ending (`_text.as_lines`), and
    encoded as the planner encodes (`_text.encode`)."""
    text = _text.as_lines(_text.decode(decoded))
    assert isinstance(text.body, matching.TextFile)
    for edit in edits:  # by the general search alone (no strategy)
        text = matching.place(text, edit, options, matching.FileName("f.txt", "f.txt"), ()).text  # type: ignore[arg-type]
    encoded = _text.encode(text, options)  # type: ignore[arg-type]
    assert isinstance(encoded, str)  # (lines: a string to encode)
    return encoded.encode()


@pytest.mark.parametrize(("final_newline", "expected"), [("keep", b"z\r\n"), ("add", b"z\r\n\r\n")])
def test_a_crlf_file_that_loses_its_last_break_gets_crlf_by_string_and_by_lines_alike(
    final_newline: str, expected: bytes
) -> None:
    """Issue 35's disagreement: on "a\\r\\n", "\\n"→"" then "a"→"z\\n" gave "z\\r\\n" as one
    string and "z\\n" as lines (the lines forgot the file was CRLF once its last CRLF was
    gone). The break is decided once, at decode. (With `final_newline="add"` the first
    edit's file gets its final newline back, as one call at a time would.)"""
    edits = [StrReplace("f.txt", "\n", ""), StrReplace("f.txt", "a", "z\n")]
    options = DEFAULT.with_options(final_newline=final_newline)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(b"a\r\n")
        apply_edits(list(edits), folder, policy=options)
        by_library = Path(folder, "f.txt").read_bytes()
    assert by_library == expected
    assert _by_lines("a\r\n", edits, options) == by_library


def test_a_mixed_file_keeps_the_break_it_was_read_with_for_new_lines() -> None:
    """A file of mixed breaks (edited as lines) whose first line's CRLF is replaced by an
    edit: a later edit's new lines still take CRLF, the break found at decode."""
    edits: list[Edit] = [StrReplace("f.txt", "one\n", "one"), StrReplace("f.txt", "four", "four\nfive")]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(b"one\r\ntwo\nthree\r\nfour")
        apply_edits(edits, folder)
        assert Path(folder, "f.txt").read_bytes() == b"onetwo\nthree\r\nfour\r\nfive"
