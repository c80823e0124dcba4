"""The tests of Anthropic's reference text-editor tool (anthropic-quickstarts), rewritten for this engine.

Anthropic's computer-use demo ships the reference implementation of the
text-editor tool (computer-use-demo/computer_use_demo/tools/edit.py) and its
tests (computer-use-demo/tests/tools/edit_test.py; anthropics/anthropic-quickstarts
at 44c2b5c; read for behaviour: no code is copied). Its tests mock the file
system and call the tool with absolute paths (`/test/file.txt`); here each
call is `TextEditor(root).run(...)` on a real file at that path under a
temporary root. Answers are in this tool's words (the reference prints
`cat -n` output, here `1: text`); a case checks the file afterwards, whether
the call is an error, and the lines an answer shows. Not ported: the checks of
the tool's private undo history (`_file_history`) after str_replace and insert.

The same result, or the difference docs/edit-formats.md states ("What the
peers do, and what we do"):

- the commands are `text_editor_20250728`'s, which has no `undo_edit` (the
  reference's older tool versions do);
- a path may be relative to the root (the reference refuses one);
- and, from edit.py rather than its tests: a file's tabs are kept (the
  reference writes the whole file back with its tabs expanded to spaces on
  every str_replace and insert), and a final line break starts no line
  (the reference's view shows one more, empty, numbered line).
"""

from pathlib import Path
from typing import Any

import pytest

from _support import snapshot
from apply_patch.anthropic import TextEditor


def _file(root: Path, text: str, name: str = "test/file.txt") -> str:
    """`text` written at `name` under `root`; its absolute path, as the reference's tests give it."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def _ok(root: Path, **tool_input: Any) -> str:
    answer = TextEditor(root).run(tool_input)
    assert answer["is_error"] is False, answer["content"]
    return str(answer["content"])


def _error(root: Path, **tool_input: Any) -> str:
    before = snapshot(root)
    answer = TextEditor(root).run(tool_input)
    assert answer["is_error"] is True, answer["content"]
    assert snapshot(root) == before
    return str(answer["content"])


# ------------------------------------------------------------ test_view_command


def test_view_command_file(tmp_path: Path) -> None:
    assert _ok(tmp_path, command="view", path=_file(tmp_path, "File content")) == "1: File content"


def test_view_command_directory(tmp_path: Path) -> None:
    _file(tmp_path, "1", "test/dir/file1.txt")
    _file(tmp_path, "2", "test/dir/file2.txt")
    shown = _ok(tmp_path, command="view", path=str(tmp_path / "test/dir"))
    assert shown.splitlines()[1:] == ["file1.txt", "file2.txt"]


def test_view_command_range(tmp_path: Path) -> None:
    path = _file(tmp_path, "Line 1\nLine 2\nLine 3\nLine 4")
    assert _ok(tmp_path, command="view", path=path, view_range=[2, 3]) == "2: Line 2\n3: Line 3"


@pytest.mark.parametrize(
    ("name", "tool_input", "said"),
    [
        ("an invalid range", {"path": "test/file.txt", "view_range": [3, 2]}, "Invalid view_range [3, 2]"),
        ("a non-existent file", {"path": "nonexistent/file.txt"}, "File not found"),
        ("a directory with a view_range", {"path": "test", "view_range": [1, 2]}, "view_range applies to files only"),
    ],
)  # fmt: skip
def test_view_command_errors(tmp_path: Path, name: str, tool_input: dict[str, Any], said: str) -> None:
    _file(tmp_path, "Line 1\nLine 2\nLine 3\nLine 4")
    tool_input = {**tool_input, "path": str(tmp_path / tool_input["path"])}
    assert said in _error(tmp_path, command="view", **tool_input), name


# ------------------------------------------------------------ test_create_command


def test_create_command(tmp_path: Path) -> None:
    path = str(tmp_path / "test/newfile.txt")
    assert _ok(tmp_path, command="create", path=path, file_text="New file content").startswith("File created successfully at:")
    assert Path(path).read_text() == "New file content"


def test_create_command_without_file_text(tmp_path: Path) -> None:
    assert "file_text is missing" in _error(tmp_path, command="create", path=str(tmp_path / "test/newfile.txt"))


def test_create_command_on_an_existing_file(tmp_path: Path) -> None:
    path = _file(tmp_path, "Content", "test/existingfile.txt")
    assert "already exists" in _error(tmp_path, command="create", path=path, file_text="Content")


# ------------------------------------------------------------ test_str_replace_command


def test_str_replace_command(tmp_path: Path) -> None:
    path = _file(tmp_path, "Original content")
    shown = _ok(tmp_path, command="str_replace", path=path, old_str="Original", new_str="New")
    assert shown.splitlines()[-1] == "1: New content"
    assert Path(path).read_text() == "New content"


def test_str_replace_command_not_found(tmp_path: Path) -> None:
    path = _file(tmp_path, "Original content")
    assert _error(tmp_path, command="str_replace", path=path, old_str="Nonexistent", new_str="New").startswith(
        "Error: No match found for replacement."
    )


def test_str_replace_command_multiple_occurrences(tmp_path: Path) -> None:
    path = _file(tmp_path, "Test test test")
    shown = _error(tmp_path, command="str_replace", path=path, old_str="test", new_str="example")
    assert shown.startswith("Error: Found 2 matches for replacement text.")


# ------------------------------------------------------------ test_insert_command


@pytest.mark.parametrize(
    ("name", "text", "line", "new", "after"),
    [
        ("at a valid line number", "Line 1\nLine 2\nLine 3", 2, "New Line", "Line 1\nLine 2\nNew Line\nLine 3"),
        ("at the beginning of the file", "Line 1\nLine 2", 0, "New First Line", "New First Line\nLine 1\nLine 2"),
        ("at the end of the file", "Line 1\nLine 2", 2, "New Last Line", "Line 1\nLine 2\nNew Last Line"),
    ],
)  # fmt: skip
def test_insert_command(tmp_path: Path, name: str, text: str, line: int, new: str, after: str) -> None:
    path = _file(tmp_path, text)
    shown = _ok(tmp_path, command="insert", path=path, insert_line=line, new_str=new)
    assert f"{line + 1}: {new}" in shown.splitlines(), name
    assert Path(path).read_text() == after, name


def test_insert_command_at_an_invalid_line_number(tmp_path: Path) -> None:
    path = _file(tmp_path, "Line 1\nLine 2")
    assert "but the file has 2 lines" in _error(tmp_path, command="insert", path=path, insert_line=5, new_str="Invalid Line")


# ------------------------------------------------------------ test_undo_edit_command


@pytest.mark.parametrize("name", ["undoing a str_replace", "undoing an insert", "no history"])
def test_undo_edit_command(tmp_path: Path, name: str) -> None:
    """text_editor_20250728 has no undo_edit (the reference's 20241022 and 20250124 tools do)."""
    path = _file(tmp_path, "Original content")
    if name == "undoing a str_replace":
        _ok(tmp_path, command="str_replace", path=path, old_str="Original", new_str="New")
    elif name == "undoing an insert":
        _ok(tmp_path, command="insert", path=path, insert_line=1, new_str="New Line")
    assert "Unknown command 'undo_edit'" in _error(tmp_path, command="undo_edit", path=path), name


# ------------------------------------------------------------ test_validate_path


def test_validate_path(tmp_path: Path) -> None:
    """An absolute path inside the root, a folder for view: accepted; a missing file for view,
    an existing one for create, a folder for str_replace: refused."""
    path = _file(tmp_path, "x", "valid/path.txt")
    assert _ok(tmp_path, command="view", path=path) == "1: x"
    assert "File not found" in _error(tmp_path, command="view", path=str(tmp_path / "nonexistent/file.txt"))
    assert "already exists" in _error(tmp_path, command="create", path=path, file_text="y")
    folder = str(tmp_path / "valid")
    assert "is not a file" in _error(tmp_path, command="str_replace", path=folder, old_str="a", new_str="b")
    assert _ok(tmp_path, command="view", path=folder).splitlines()[1:] == ["path.txt"]


def test_validate_path_relative(tmp_path: Path) -> None:
    """The reference refuses `relative/path.txt` ("not an absolute path"); here it is taken from the root."""
    _file(tmp_path, "x", "relative/path.txt")
    assert _ok(tmp_path, command="view", path="relative/path.txt") == "1: x"


# ------------------------------------------------------------ edit.py


def test_tabs_are_kept(tmp_path: Path) -> None:
    """The reference's str_replace and insert expand every tab of the file to spaces; here the
    file keeps its bytes, only the replaced text changes."""
    path = _file(tmp_path, "def f():\n\treturn 1\n\n\ndef g():\n\treturn 2\n")
    _ok(tmp_path, command="str_replace", path=path, old_str="\treturn 2", new_str="\treturn 3")
    _ok(tmp_path, command="insert", path=path, insert_line=0, new_str="import os")
    assert Path(path).read_text() == "import os\ndef f():\n\treturn 1\n\n\ndef g():\n\treturn 3\n"


def test_a_final_line_break_starts_no_line(tmp_path: Path) -> None:
    """The reference numbers `a\\nb\\n` as three lines, the last empty; here as two."""
    assert _ok(tmp_path, command="view", path=_file(tmp_path, "a\nb\n")) == "1: a\n2: b"
