"""OpenCode's own edit-tool tests and its replacers, rewritten for this engine.

OpenCode's `edit` tool takes `filePath`, `oldString`, `newString`,
`replaceAll`. Its tests (anomalyco/opencode, formerly sst/opencode:
packages/opencode/test/tool/edit.test.ts, as stored at 0a8a0ed) and the
replacers of packages/opencode/src/tool/edit.ts (as stored at 00937b9; read
for behaviour: no code is copied) say what a call does; each case is
rewritten as `apply_edits([StrReplace(path, oldString, newString,
replace_all=replaceAll)])` in a temporary tree. Tests of the tool's event
bus ("emits add event for new files", "emits change event for existing
files") check OpenCode's plumbing, not an edit: not ported.

The same result, or the difference docs/edit-formats.md states ("What the
peers do, and what we do"):

- an empty `oldString` creates the file, and is refused when the file exists
  and is not empty (OpenCode writes `newString` over it, BOM kept): that would
  erase the file unseen;
- the replacers: OpenCode tries nine ways to find `oldString`, one after the
  other, and writes `newString` as sent over what the first found. Here only
  the tiers of the one locator apply (exact; whole lines ignoring trailing,
  then surrounding whitespace, then typographic punctuation), each reported,
  and new lines are re-indented as the file's; a block whose middle differs
  (BlockAnchor, ContextAware), a line whose inner spacing differs
  (WhitespaceNormalized), an escaped `\\n` (EscapeNormalized) and a fragment
  of one line with spaces around it (TrimmedBoundary) are refused.
"""

import threading
from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import ContextNotFoundError, FilePolicyError, PatchError, PatchIOError
from apply_patch.edits import EditError, ReplacementCountError, StrReplace, apply_edits

BOM = "\ufeff"


def _edit(root: Path, path: str, old: str, new: str, replace_all: bool = False) -> list[str]:
    """The edit tool's call, applied: the warnings."""
    result = apply_edits([StrReplace(path, old, new, replace_all)], root)
    return [w.message for w in result.warnings]


def _refused(root: Path, path: str, old: str, new: str) -> PatchError:
    before = snapshot(root)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace(path, old, new)], root)
    assert snapshot(root) == before
    return caught.value


# ------------------------------------------------------------ creating new files


def test_creates_new_file_when_old_string_is_empty(tmp_path: Path) -> None:
    _edit(tmp_path, "newfile.txt", "", "new content")
    assert (tmp_path / "newfile.txt").read_text() == "new content"


def test_creates_new_file_with_nested_directories(tmp_path: Path) -> None:
    _edit(tmp_path, "nested/dir/file.txt", "", "nested file")
    assert (tmp_path / "nested/dir/file.txt").read_text() == "nested file"


def test_preserves_bom_when_old_string_is_empty_on_existing_files(tmp_path: Path) -> None:
    """OpenCode writes over the file (keeping its BOM); an empty old text here creates only."""
    (tmp_path / "existing.cs").write_text(f"{BOM}using System;\n")
    error = _refused(tmp_path, "existing.cs", "", "using Up;\n")
    assert isinstance(error, FilePolicyError) and "already exists" in error.message


# ------------------------------------------------------------ editing existing files


def test_replaces_text_in_existing_file(tmp_path: Path) -> None:
    (tmp_path / "existing.txt").write_text("old content here")
    assert _edit(tmp_path, "existing.txt", "old content", "new content") == []
    assert (tmp_path / "existing.txt").read_text() == "new content here"


def test_replaces_the_first_visible_line_in_bom_files(tmp_path: Path) -> None:
    (tmp_path / "existing.cs").write_text(f"{BOM}using System;\nclass Test {{}}\n")
    result = apply_edits([StrReplace("existing.cs", "using System;", "using Up;")], tmp_path)
    assert "-using System;" in result.diff and "+using Up;" in result.diff and BOM not in result.diff
    assert (tmp_path / "existing.cs").read_text() == f"{BOM}using Up;\nclass Test {{}}\n"


def test_throws_error_when_file_does_not_exist(tmp_path: Path) -> None:
    error = _refused(tmp_path, "nonexistent.txt", "old", "new")
    assert isinstance(error, PatchIOError) and "No such file" in error.message


@pytest.mark.parametrize(("old", "new"), [("same", "same"), ("", "")], ids=["editing", "edge cases: both empty"])
def test_throws_error_when_old_string_equals_new_string(tmp_path: Path, old: str, new: str) -> None:
    """Refused before the file is read, both empty too (an empty old text would otherwise write
    an empty text over an empty file, or make one, and say it changed it)."""
    (tmp_path / "file.txt").write_text("content")
    error = _refused(tmp_path, "file.txt", old, new)
    assert isinstance(error, EditError) and "identical" in error.message
    (tmp_path / "empty.txt").write_text("")
    assert "identical" in _refused(tmp_path, "empty.txt", old, new).message
    assert "identical" in _refused(tmp_path, "missing.txt", old, new).message


def test_throws_error_when_old_string_not_found_in_file(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("actual content")
    assert isinstance(_refused(tmp_path, "file.txt", "not in file", "replacement"), ContextNotFoundError)


def test_replaces_all_occurrences_with_replace_all_option(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("foo bar foo baz foo")
    _edit(tmp_path, "file.txt", "foo", "qux", replace_all=True)
    assert (tmp_path / "file.txt").read_text() == "qux bar qux baz qux"


# ------------------------------------------------------------ edge cases


def test_handles_multiline_replacements(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("line1\nline2\nline3")
    _edit(tmp_path, "file.txt", "line2", "new line 2\nextra line")
    assert (tmp_path / "file.txt").read_text() == "line1\nnew line 2\nextra line\nline3"


def test_handles_crlf_line_endings(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_bytes(b"line1\r\nold\r\nline3")
    _edit(tmp_path, "file.txt", "old", "new")
    assert (tmp_path / "file.txt").read_bytes() == b"line1\r\nnew\r\nline3"


def test_throws_error_when_path_is_directory(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    error = _refused(tmp_path, "adir", "old", "new")
    assert isinstance(error, PatchIOError) and "is not a file" in error.message


def test_tracks_file_diff_statistics(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("line1\nline2\nline3")
    result = apply_edits([StrReplace("file.txt", "line2", "new line a\nnew line b")], tmp_path)
    assert [(f.path, f.added, f.removed) for f in result.files] == [("file.txt", 2, 1)]


# ------------------------------------------------------------ line endings

OLD, NEXT, ALT = "alpha\nbeta\ngamma", "alpha\nbeta-updated\ngamma", "alpha\nbeta\nomega"


def _ended(text: str, ending: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", ending)


LINE_ENDINGS = [
    ("preserves LF with LF multi-line strings", "\n", _ended(OLD, "\n"), _ended(NEXT, "\n"), NEXT),
    ("preserves CRLF with CRLF multi-line strings", "\r\n", _ended(OLD, "\r\n"), _ended(NEXT, "\r\n"), NEXT),
    ("preserves LF when old/new use CRLF", "\n", _ended(OLD, "\r\n"), _ended(NEXT, "\r\n"), NEXT),
    ("preserves CRLF when old/new use LF", "\r\n", _ended(OLD, "\n"), _ended(NEXT, "\n"), NEXT),
    ("preserves LF when newString uses CRLF", "\n", _ended(OLD, "\n"), _ended(NEXT, "\r\n"), NEXT),
    ("preserves CRLF when newString uses LF", "\r\n", _ended(OLD, "\r\n"), _ended(NEXT, "\n"), NEXT),
    ("preserves LF with mixed old/new line endings", "\n", "alpha\nbeta\r\ngamma", "alpha\r\nbeta\nomega", ALT),
    ("preserves CRLF with mixed old/new line endings", "\r\n", "alpha\r\nbeta\ngamma", "alpha\nbeta\r\nomega", ALT),
]  # fmt: skip


@pytest.mark.parametrize(("name", "ending", "old", "new", "after"), LINE_ENDINGS, ids=[c[0] for c in LINE_ENDINGS])
def test_line_endings(tmp_path: Path, name: str, ending: str, old: str, new: str, after: str) -> None:
    """The file keeps its line endings, whatever endings old and new text use."""
    (tmp_path / "test.txt").write_bytes(_ended(OLD + "\n", ending).encode())
    _edit(tmp_path, "test.txt", old, new)
    assert (tmp_path / "test.txt").read_bytes() == _ended(after + "\n", ending).encode()


@pytest.mark.parametrize("ending", ["\n", "\r\n"], ids=["replaceAll preserves LF", "replaceAll preserves CRLF"])
def test_replace_all_preserves_line_endings_for_multi_line_blocks(tmp_path: Path, ending: str) -> None:
    block, new = "alpha\nbeta", "alpha\nbeta-updated"
    (tmp_path / "test.txt").write_bytes(_ended(f"{block}\n{block}\n", ending).encode())
    _edit(tmp_path, "test.txt", _ended(block, ending), _ended(new, ending), replace_all=True)
    assert (tmp_path / "test.txt").read_bytes() == _ended(f"{new}\n{new}\n", ending).encode()


# ------------------------------------------------------------ concurrent editing


def test_preserves_concurrent_edits_to_different_sections_of_the_same_file(tmp_path: Path) -> None:
    """Two edits of one file at once: each is planned and committed under the root's lock, so
    the second sees the first's result and both land."""
    (tmp_path / "file.txt").write_text("top = 0\nmiddle = keep\nbottom = 0\n")
    errors: list[BaseException] = []

    def edit(old: str, new: str) -> None:
        try:
            apply_edits([StrReplace("file.txt", old, new)], tmp_path)
        except BaseException as error:  # reported below: a thread's exception is otherwise lost
            errors.append(error)

    threads = [threading.Thread(target=edit, args=pair) for pair in (("top = 0", "top = 1"), ("bottom = 0", "bottom = 2"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert (tmp_path / "file.txt").read_text() == "top = 1\nmiddle = keep\nbottom = 2\n"


# ------------------------------------------------------------ the replacers of edit.ts


def test_simple_replacer(tmp_path: Path) -> None:
    """The text as it is, found once: replaced."""
    (tmp_path / "f.txt").write_text("a = 1\nb = 2\n")
    assert _edit(tmp_path, "f.txt", "b = 2", "b = 3") == []
    assert (tmp_path / "f.txt").read_text() == "a = 1\nb = 3\n"


@pytest.mark.parametrize(
    ("name", "whole", "old", "new", "opencode", "here"),
    [
        ("LineTrimmedReplacer", "  a = 1  \n  b = 2\n", "a = 1\nb = 2", "A = 1\nB = 2",
         "A = 1\nB = 2\n", "  A = 1\n  B = 2\n"),
        ("IndentationFlexibleReplacer", "    if x:\n        y()\n", "if x:\n    y()", "if x:\n    z()",
         "if x:\n    z()\n", "    if x:\n        z()\n"),
    ],
)  # fmt: skip
def test_lines_found_ignoring_indentation_get_the_files_indentation(
    tmp_path: Path, name: str, whole: str, old: str, new: str, opencode: str, here: str
) -> None:
    """Found as OpenCode finds them; OpenCode writes newString as sent over the lines (their
    indentation lost), the new lines take the file's indentation here, with a warning."""
    (tmp_path / "f.txt").write_text(whole)
    warnings = _edit(tmp_path, "f.txt", old, new)
    assert (tmp_path / "f.txt").read_text() == here != opencode, name
    assert len(warnings) == 1 and "whitespace" in warnings[0], name


@pytest.mark.parametrize(
    ("name", "whole", "old"),
    [
        # The first and last lines as anchors, the middle anything (one candidate: no threshold).
        ("BlockAnchorReplacer", "function f() {\n  const a = 1;\n  return a;\n}\n",
         "function f() {\n  const a = 2;\n  return a;\n}"),
        # The anchors, and half of the middle lines equal.
        ("ContextAwareReplacer", "start\n  one\n  two\n  three\nend\n", "start\n  one\n  TWO\n  three\nend"),
        # Runs of whitespace inside a line seen as one space.
        ("WhitespaceNormalizedReplacer", "const  x =   1;\n", "const x = 1;"),
        # `\n`, `\t`, `\"` written as escapes in oldString.
        ("EscapeNormalizedReplacer", "line\nnext\n", "line\\nnext"),
        # A fragment of one line, spaces around it dropped.
        ("TrimmedBoundaryReplacer", "value\n", " value "),
    ],
)  # fmt: skip
def test_what_only_a_looser_replacer_finds_is_refused(tmp_path: Path, name: str, whole: str, old: str) -> None:
    """OpenCode replaces what this replacer finds; no tier here finds it: refused, the closest region shown."""
    (tmp_path / "f.txt").write_text(whole)
    error = _refused(tmp_path, "f.txt", old, "changed")
    assert isinstance(error, ContextNotFoundError), name


def test_multi_occurrence_replacer(tmp_path: Path) -> None:
    """Every exact occurrence with replaceAll; several without it: "Found multiple matches", here a count error."""
    (tmp_path / "f.txt").write_text("foo bar\nfoo baz\n")
    error = _refused(tmp_path, "f.txt", "foo", "qux")
    assert isinstance(error, ReplacementCountError) and error.candidates == (1, 2)
    _edit(tmp_path, "f.txt", "foo", "qux", replace_all=True)
    assert (tmp_path / "f.txt").read_text() == "qux bar\nqux baz\n"
