"""Property tests (hypothesis) of the other edit formats against `make_patch` and difflib.

- StrReplace edits derived from the chunks of `make_patch(OLD, NEW)` (each
  chunk's old lines → its new lines), applied in order to OLD, give NEW; the
  edits derived from `make_patch(NEW, OLD)` turn NEW back into OLD. Lines are
  distinct and none is the end of another, so each chunk's text is at one place;
- the unified diff of OLD and NEW (difflib, with 0 to 3 context lines, lines
  repeated on purpose so that hunks match several places), applied by
  content to OLD, gives NEW; the inverse diff gives OLD back.

Bounded and deterministic: a fixed number of examples, derandomized, no
example database, no deadline.
"""

import difflib
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import Chunk, UpdateFile, make_patch
from apply_patch import PatchError
from apply_patch.edits import Edit, EditError, StrReplace, apply_edits, apply_unified_diff

from _support import PROPERTY

DISTINCT = st.lists(st.integers(0, 60), min_size=1, max_size=25, unique=True)
REPEATED = st.lists(st.sampled_from(["a", "b", "c", "", "    a", "def f():"]), min_size=1, max_size=25)


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _edits(old: str, new: str) -> list[Edit]:
    """One StrReplace per chunk of the patch from `old` to `new`, in order."""
    patch = make_patch(old, new, path="f.txt")
    edits: list[Edit] = []
    for operation in patch.operations:
        assert isinstance(operation, UpdateFile)
        for chunk in operation.chunks:
            assert isinstance(chunk, Chunk) and chunk.old_lines, "with context, every chunk has old lines"
            edits.append(StrReplace("f.txt", _text(chunk.old_lines), _text(chunk.new_lines)))
    return edits


def _applied(edits: list[Edit] | str, old: str) -> str:
    """The file `old` after `edits` (a list, or a unified diff's text), in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_text(old)
        if isinstance(edits, str):
            if edits:
                apply_unified_diff(edits, folder)
        elif edits:
            apply_edits(edits, folder)
        return Path(folder, "f.txt").read_text()


@PROPERTY
@given(DISTINCT, DISTINCT)
def test_str_replace_edits_from_make_patch_give_new(old_keys: list[int], new_keys: list[int]) -> None:
    old = _text([f"line {k}" for k in old_keys])
    new = _text([f"line {k}" for k in new_keys])
    assert _applied(_edits(old, new), old) == new
    assert _applied(_edits(new, old), new) == old


def _diff(old: str, new: str, context: int) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), "a/f.txt", "b/f.txt", n=context
    )
    return "".join(lines)


@PROPERTY
@given(REPEATED, REPEATED, st.integers(0, 3))
def test_unified_diff_applied_by_content_gives_new(old_lines: list[str], new_lines: list[str], context: int) -> None:
    old, new = _text(old_lines), _text(new_lines)
    assert _applied(_diff(old, new, context), old) == new
    assert _applied(_diff(new, old, context), new) == old


@PROPERTY
@given(
    st.text("ab\n", min_size=1, max_size=30),
    st.data(),
    st.text("abx\n", max_size=8),
    st.sampled_from(["\n", "\r\n"]),
)
def test_a_replacement_is_the_text_replacement_endings_kept(
    text: str, data: st.DataObject, new: str, ending: str
) -> None:
    """Any substring that occurs once, replaced in a file with LF or CRLF endings (it has
    one line break at least, so that its ending is known): the result is `str.replace`
    on the text seen with LF, every line break the file's. But an old text of several lines
    that begins or ends inside a word of the file (a stale first or last line) is refused,
    the file unchanged."""
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    old = text[start:end]
    if "\n" not in text or text.find(old, text.find(old) + 1) >= 0:
        return  # the rule is exactly one place: only such cases say what a replacement is
    expected = text.replace(old, new).replace("\n", ending)
    inside = (start > 0 and old[0] != "\n" and text[start - 1] != "\n") or (
        end < len(text) and old[-1] != "\n" and text[end] != "\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(text.replace("\n", ending).encode())
        if "\n" in old.rstrip("\n") and inside and old != new:
            with pytest.raises(PatchError, match="middle of a word"):
                apply_edits([StrReplace("f.txt", old, new)], folder)
            expected = text.replace("\n", ending)
        elif old == new:  # it would change nothing: refused, nothing written
            with pytest.raises(EditError, match="identical"):
                apply_edits([StrReplace("f.txt", old, new)], folder)
            expected = text.replace("\n", ending)
        else:
            apply_edits([StrReplace("f.txt", old, new)], folder)
        assert Path(folder, "f.txt").read_bytes().decode() == expected
