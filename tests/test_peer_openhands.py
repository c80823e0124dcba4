"""The OpenHands editor's own tests (openhands-aci), rewritten for this engine.

OpenHands' `str_replace_editor` (openhands_aci.editor, `OHEditor` and
`file_editor`) runs the text-editor commands `view`, `create`, `str_replace`,
`insert` and `undo_edit` on absolute paths. Its tests (All-Hands-AI/openhands-aci
at 9d22d0d: tests/integration/test_oh_editor.py and tests/integration/editor/
test_basic_operations.py, test_error_handling.py, test_file_validation.py,
test_non_utf8_operations.py; read for behaviour: no code is copied) are
rewritten as calls of `TextEditor(root).run(...)` with the same absolute
paths, inside the root. Answers are in this tool's words (`1: text` where
OpenHands shows `cat -n`'s `     1\ttext`): a case checks the file afterwards
and the lines and numbers an answer shows. Not ported: linting (no linter
here), memory use, audio and PDF/image conversion.

The same result, or the difference docs/edit-formats.md states ("What the
peers do, and what we do"):

- the commands are `text_editor_20250728`'s: there is no `undo_edit` (the
  file history is the caller's: git, or the dry run that comes first);
- a path may be relative to the root (OpenHands asks for an absolute one);
- an insertion of no text is refused (OpenHands inserts an empty line);
- a file's lines are its text's lines: a final line break ends the last line
  and starts no other, an empty file has none (OpenHands shows one more,
  empty, numbered line);
- a listing counts the hidden entries it leaves out at both levels (OpenHands
  counts those of the folder itself);
- what `view` shows is bounded by the tool definition's `max_characters`
  (50,000 characters by default), not by a size limit of the editor's own;
- a file that is not UTF-8 is not decoded by a guess (OpenHands guesses its
  encoding and writes it back in the guess: a wrong guess would rewrite every
  byte of the file); its ASCII lines are edited, anything else asks for its
  encoding (`non_utf8="ascii"`).
"""

from pathlib import Path
from typing import Any

import pytest

from _support import snapshot
from apply_patch.anthropic import TextEditor

BASIC = "This is a test file.\nThis file is for testing purposes."


def _editor(tmp_path: Path, text: str = BASIC) -> tuple[TextEditor, str]:
    """The `editor` fixture: test.txt holding `text`; the editor and the file's absolute path."""
    (tmp_path / "test.txt").write_text(text)
    return TextEditor(tmp_path), str(tmp_path / "test.txt")


def _ok(editor: TextEditor, **tool_input: Any) -> str:
    answer = editor.run(tool_input)
    assert answer["is_error"] is False, answer["content"]
    return str(answer["content"])


def _error(editor: TextEditor, root: Path, **tool_input: Any) -> str:
    """The answer to `tool_input`, an error; the tree byte for byte as it was."""
    before = snapshot(root)
    answer = editor.run(tool_input)
    assert answer["is_error"] is True, answer["content"]
    assert snapshot(root) == before
    return str(answer["content"])


# ------------------------------------------------------------ test_oh_editor.py: view


def test_view_file(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    assert _ok(editor, command="view", path=path) == "1: This is a test file.\n2: This file is for testing purposes."


def test_view_directory(tmp_path: Path) -> None:
    editor, _ = _editor(tmp_path)
    shown = _ok(editor, command="view", path=str(tmp_path))
    assert shown.splitlines()[1:] == ["test.txt"]


def test_view_with_a_specific_range(tmp_path: Path) -> None:
    """test.txt emptied by str_replace, then 200 lines inserted one by one; lines 50-100 viewed."""
    editor, path = _editor(tmp_path)
    _ok(editor, command="str_replace", path=path, old_str=BASIC, new_str="")
    for i in range(200):
        _ok(editor, command="insert", path=path, insert_line=i, new_str=f"Line {i + 1}")
    shown = _ok(editor, command="view", path=path, view_range=[50, 100]).splitlines()
    assert shown[0] == "50: Line 50" and shown[-1] == "100: Line 100" and len(shown) == 51


def test_view_directory_with_hidden_files(tmp_path: Path) -> None:
    folder = tmp_path / "test_dir"
    (folder / ".hidden_dir").mkdir(parents=True)
    (folder / "visible_dir").mkdir()
    for name in ("visible.txt", ".hidden1", ".hidden2", ".hidden_dir/file.txt"):
        (folder / name).write_text("content")
    shown = _ok(TextEditor(tmp_path), command="view", path=str(folder))
    assert shown.splitlines()[1:] == ["visible.txt", "visible_dir/"]
    assert "3 hidden ones left out" in shown.splitlines()[0]


def test_view_symlinked_directory(tmp_path: Path) -> None:
    source = tmp_path / "source_dir"
    (source / "subdir").mkdir(parents=True)
    for name in ("file1.txt", "file2.txt", "subdir/file3.txt"):
        (source / name).write_text("content")
    (tmp_path / "symlink_dir").symlink_to(source)
    shown = _ok(TextEditor(tmp_path), command="view", path=str(tmp_path / "symlink_dir"))
    assert shown.splitlines()[1:] == ["file1.txt", "file2.txt", "subdir/", "subdir/file3.txt"]


def test_view_directory_on_hidden_path(tmp_path: Path) -> None:
    """Hidden entries left out at both levels; OpenHands counts 2 (those of the folder itself), here 3."""
    folder = tmp_path / ".hidden_test_dir"
    (folder / "visible_dir").mkdir(parents=True)
    (folder / ".hidden_dir").mkdir()
    for name in ("visible1.txt", ".hidden1", "visible_dir/visible2.txt", "visible_dir/.hidden2",
                 ".hidden_dir/visible3.txt", ".hidden_dir/.hidden3"):  # fmt: skip
        (folder / name).write_text("content")
    shown = _ok(TextEditor(tmp_path), command="view", path=str(folder))
    assert shown.splitlines()[1:] == ["visible1.txt", "visible_dir/", "visible_dir/visible2.txt"]
    assert "3 hidden ones left out" in shown.splitlines()[0]


@pytest.mark.parametrize("what", ["test_view_large_directory_with_truncation", "test_view_large_file_with_truncation"])
def test_a_large_view_is_cut_at_max_characters(tmp_path: Path, what: str) -> None:
    """OpenHands cuts a listing of 1,000 files and a file of 16,000 lines; here what `view` shows is
    cut at the tool definition's max_characters (50,000 by default), with a note saying how to
    see the rest."""
    if what == "test_view_large_directory_with_truncation":
        (tmp_path / "large_dir").mkdir()
        for i in range(1000):
            (tmp_path / "large_dir" / f"file_{i}.txt").write_text("content")
        path = str(tmp_path / "large_dir")
    else:
        (tmp_path / "large_test.txt").write_text("Line 1\n" * 16000)
        path = str(tmp_path / "large_test.txt")
    whole = _ok(TextEditor(tmp_path, max_characters=None), command="view", path=path)
    assert "Truncated" not in whole
    default = _ok(TextEditor(tmp_path), command="view", path=path)  # a budget of 50,000 by default
    assert len(default) <= 50_100 and ("Truncated" in default) == (len(whole) > 50_000)
    cut = _ok(TextEditor(tmp_path, max_characters=10_000), command="view", path=path)
    assert len(cut) < 10_200 and "[Truncated at 10000 characters:" in cut.splitlines()[-1]


def test_validate_path_suggests_absolute_path(tmp_path: Path) -> None:
    """OpenHands refuses a relative path; here it is taken from the root."""
    editor, _ = _editor(tmp_path)
    assert _ok(editor, command="view", path="test.txt").startswith("1: This is a test file.")


# ------------------------------------------------------------ test_oh_editor.py: create


def test_create_file(tmp_path: Path) -> None:
    editor, _ = _editor(tmp_path)
    shown = _ok(editor, command="create", path=str(tmp_path / "new_file.txt"), file_text="New file content")
    assert shown.startswith("File created successfully")
    assert (tmp_path / "new_file.txt").read_text() == "New file content"


def test_create_with_empty_string(tmp_path: Path) -> None:
    """Created empty; OpenHands' view then shows an empty line 1, here the file has no line."""
    editor, _ = _editor(tmp_path)
    path = str(tmp_path / "empty_content.txt")
    assert _ok(editor, command="create", path=path, file_text="").startswith("File created successfully")
    assert (tmp_path / "empty_content.txt").read_bytes() == b""
    assert _ok(editor, command="view", path=path) == "(the file is empty)"


def test_create_with_none_file_text(tmp_path: Path) -> None:
    editor, _ = _editor(tmp_path)
    assert "file_text" in _error(editor, tmp_path, command="create", path=str(tmp_path / "none.txt"), file_text=None)


def test_create_existing_file_error(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    assert "already exists" in _error(editor, tmp_path, command="create", path=path, file_text="New content")


# ------------------------------------------------------------ test_oh_editor.py: str_replace


@pytest.mark.parametrize(
    ("name", "text", "old", "new", "lines"),
    [
        ("test_str_replace_no_linting", BASIC, "test file", "sample file",
         ["1: This is a sample file.", "2: This file is for testing purposes."]),
        ("test_str_replace_multi_line_no_linting", BASIC, BASIC, BASIC.replace("test file", "sample file"),
         ["1: This is a sample file.", "2: This file is for testing purposes."]),
        ("test_str_replace_multi_line_with_tabs_no_linting", 'def test():\n\tprint("Hello, World!")',
         'def test():\n\tprint("Hello, World!")', 'def test():\n\tprint("Hello, Universe!")',
         ["1: def test():", '2: \tprint("Hello, Universe!")']),
    ],
)  # fmt: skip
def test_str_replace_answers_with_the_edited_lines(tmp_path: Path, name: str, text: str, old: str, new: str, lines: list[str]) -> None:
    editor, path = _editor(tmp_path, text)
    shown = _ok(editor, command="str_replace", path=path, old_str=old, new_str=new).splitlines()
    assert shown[0] == "Successfully replaced text at exactly one location."
    assert shown[2:] == lines, name
    assert (tmp_path / "test.txt").read_text() == text.replace(old, new)


def test_str_replace_error_multiple_occurrences(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    assert "at lines 1, 2." in _error(editor, tmp_path, command="str_replace", path=path, old_str="test", new_str="sample")


def test_str_replace_error_multiple_multiline_occurrences(tmp_path: Path) -> None:
    block = 'def example():\n    print("Hello")\n    return True'
    editor, path = _editor(tmp_path, f"{block}\n\nprint('separator')\n\n{block}")
    shown = _error(editor, tmp_path, command="str_replace", path=path, old_str=block, new_str='def new():\n    print("World")')
    assert shown.startswith("Error: Found 2 matches") and "at lines 1, 7." in shown


def test_str_replace_nonexistent_string(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    shown = _error(editor, tmp_path, command="str_replace", path=path, old_str="Non-existent Line", new_str="New Line")
    assert shown.startswith("Error: No match found for replacement.")


def test_str_replace_with_empty_new_str(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path, "Line 1\nLine to remove\nLine 3")
    _ok(editor, command="str_replace", path=path, old_str="Line to remove\n", new_str="")
    assert (tmp_path / "test.txt").read_text() == "Line 1\nLine 3"


@pytest.mark.parametrize(
    ("name", "tool_input", "said"),
    [
        ("test_str_replace_with_empty_old_str", {"old_str": "", "new_str": "New string"}, "old_str is empty"),
        ("test_str_replace_with_none_old_str", {"old_str": None, "new_str": "new content"}, "old_str is missing"),
        ("test_str_replace_missing_old_str", {"new_str": "sample"}, "old_str is missing"),
        ("test_str_replace_new_str_and_old_str_same", {"old_str": "test file", "new_str": "test file"},
         "new_str is identical to old_str"),
    ],
)  # fmt: skip
def test_str_replace_refuses_what_cannot_be_an_edit(tmp_path: Path, name: str, tool_input: dict[str, Any], said: str) -> None:
    editor, path = _editor(tmp_path, "Line 1\nLine 2\nLine 3" if "empty" in name else BASIC)
    assert said in _error(editor, tmp_path, command="str_replace", path=path, **tool_input), name


# ------------------------------------------------------------ test_oh_editor.py: insert


def test_insert_no_linting(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    shown = _ok(editor, command="insert", path=path, insert_line=1, new_str="Inserted line").splitlines()
    assert shown[2:] == ["1: This is a test file.", "2: Inserted line", "3: This file is for testing purposes."]
    assert (tmp_path / "test.txt").read_text() == "This is a test file.\nInserted line\nThis file is for testing purposes."


def test_insert_chinese_text_into_english_file(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    shown = _ok(editor, command="insert", path=path, insert_line=0, new_str="中文文本").splitlines()
    assert shown[2:] == ["1: 中文文本", "2: This is a test file.", "3: This file is for testing purposes."]


@pytest.mark.parametrize(
    ("name", "tool_input", "said"),
    [
        ("test_insert_invalid_line", {"insert_line": 10, "new_str": "Invalid Insert"}, "but the file has 2 lines"),
        ("test_insert_with_none_new_str", {"insert_line": 1, "new_str": None}, "new_str must be a string"),
        ("test_insert_missing_line_param", {"new_str": "Missing insert line"}, "insert_line must be an integer"),
    ],
)  # fmt: skip
def test_insert_refuses_what_cannot_be_an_insertion(tmp_path: Path, name: str, tool_input: dict[str, Any], said: str) -> None:
    editor, path = _editor(tmp_path)
    assert said in _error(editor, tmp_path, command="insert", path=path, **tool_input), name


def test_insert_with_empty_string(tmp_path: Path) -> None:
    """OpenHands inserts an empty line; an insertion of no text is refused here (it would change nothing)."""
    editor, path = _editor(tmp_path)
    assert "has no text" in _error(editor, tmp_path, command="insert", path=path, insert_line=1, new_str="")


def test_str_replace_and_insert_snippet_output_on_a_large_file(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    _ok(editor, command="str_replace", path=path, old_str=BASIC, new_str="")
    for i in range(700):
        _ok(editor, command="insert", path=path, insert_line=i, new_str=f"Line {i + 1}")
    shown = _ok(editor, command="view", path=path)
    assert "1: Line 1\n" in shown and "\n500: Line 500\n" in shown
    assert "500: 500 new" in _ok(editor, command="str_replace", path=path, old_str="Line 500", new_str="500 new").splitlines()
    deleted = _ok(editor, command="str_replace", path=path, old_str="500 new\n", new_str="").splitlines()
    assert "499: Line 499" in deleted and "500: Line 501" in deleted
    inserted = _ok(editor, command="insert", path=path, insert_line=499, new_str="Inserted line at 500").splitlines()
    assert "500: Inserted line at 500" in inserted


# ------------------------------------------------------------ test_oh_editor.py: paths, undo


def test_validate_path_invalid(tmp_path: Path) -> None:
    editor, _ = _editor(tmp_path)
    assert _error(editor, tmp_path, command="view", path=str(tmp_path / "nonexistent.txt")).startswith("Error: File not found")


@pytest.mark.parametrize("name", ["test_undo_edit", "test_multiple_undo_edits", "test_undo_edit_no_history_error"])
def test_undo_edit_is_not_a_command(tmp_path: Path, name: str) -> None:
    """text_editor_20250728 has no undo_edit: an edit is undone by the caller (git), not by the tool."""
    editor, path = _editor(tmp_path)
    if name != "test_undo_edit_no_history_error":
        _ok(editor, command="str_replace", path=path, old_str="test file", new_str="sample file v1")
    shown = _error(editor, tmp_path, command="undo_edit", path=path)
    assert "Unknown command 'undo_edit'" in shown, name


# ------------------------------------------------------------ editor/test_basic_operations.py


def test_file_editor_happy_path(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path)
    shown = _ok(editor, command="str_replace", path=path, old_str="test file", new_str="sample file")
    assert shown.splitlines()[2:] == ["1: This is a sample file.", "2: This file is for testing purposes."]
    assert (tmp_path / "test.txt").read_text() == "This is a sample file.\nThis file is for testing purposes."


def test_file_editor_with_xml_tag_parsing(tmp_path: Path) -> None:
    """7 lines ending with a line break: OpenHands shows an 8th, empty, line; here 7."""
    text = "This is a file with XML tags parsing logic...\nmatch = re.search(\n    r'<oh_aci_output_[0-9a-f]{32}>(.*?)</oh_aci_output_[0-9a-f]{32}>',\n    result,\n    re.DOTALL,\n)\n...More text here.\n"
    editor, path = _editor(tmp_path, text)
    shown = _ok(editor, command="view", path=path).splitlines()
    assert shown == [f"{n}: {line}" for n, line in enumerate(text.splitlines(), 1)]


def test_successful_operations(tmp_path: Path) -> None:
    """view, str_replace, insert as OpenHands; its undo_edit at the end is not a command here."""
    editor, path = _editor(tmp_path, "line 1\nline 2\nline 3\n")
    assert "1: line 1" in _ok(editor, command="view", path=path)
    assert "2: replaced line" in _ok(editor, command="str_replace", path=path, old_str="line 2", new_str="replaced line")
    assert "2: inserted line" in _ok(editor, command="insert", path=path, insert_line=1, new_str="inserted line")
    assert "Unknown command" in _error(editor, tmp_path, command="undo_edit", path=path)
    assert (tmp_path / "test.txt").read_text() == "line 1\ninserted line\nreplaced line\nline 3\n"


def test_tab_expansion(tmp_path: Path) -> None:
    """Tabs are kept in the file and in what is shown."""
    editor, path = _editor(tmp_path, "no tabs\n\tindented\nline\twith\ttabs\n")
    shown = _ok(editor, command="view", path=path)
    assert "2: \tindented" in shown and "3: line\twith\ttabs" in shown
    assert "replaced line" in _ok(editor, command="str_replace", path=path, old_str="line\twith\ttabs", new_str="replaced line")
    shown = _ok(editor, command="str_replace", path=path, old_str="replaced line", new_str="new\tline\twith\ttabs")
    assert "new\tline\twith\ttabs" in shown
    assert "\tindented\tline" in _ok(editor, command="insert", path=path, insert_line=1, new_str="\tindented\tline")


# ------------------------------------------------------------ editor/test_error_handling.py


def test_validation_error_formatting(tmp_path: Path) -> None:
    editor, _ = _editor(tmp_path)
    assert "File not found" in _error(editor, tmp_path, command="view", path=str(tmp_path / "nonexistent/file.txt"))
    (tmp_path / "folder").mkdir()
    shown = _error(editor, tmp_path, command="str_replace", path=str(tmp_path / "folder"), old_str="something", new_str="new")
    assert "is not a file" in shown


def test_str_replace_error_handling(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path, "line 1\nline 2\nline 3\n")
    assert "No match found" in _error(editor, tmp_path, command="str_replace", path=path, old_str="nonexistent", new_str="x")
    (tmp_path / "test.txt").write_text("line\nline\nother")
    assert "at lines 1, 2." in _error(editor, tmp_path, command="str_replace", path=path, old_str="line", new_str="new_line")


def test_view_range_validation(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path, "line 1\nline 2\nline 3\n")
    assert "view_range must be two line numbers" in _error(editor, tmp_path, command="view", path=path, view_range=[1])
    clamped = _ok(editor, command="view", path=path, view_range=[1, 10])
    assert clamped.splitlines() == ["Note: the file has 3 lines; lines 1-3 are shown.", "1: line 1", "2: line 2", "3: line 3"]
    assert "Invalid view_range [3, 1]" in _error(editor, tmp_path, command="view", path=path, view_range=[3, 1])


def test_insert_validation(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path, "line 1\nline 2\nline 3\n")
    for line in (-1, 10):
        assert _error(editor, tmp_path, command="insert", path=path, insert_line=line, new_str="new line").startswith("Error:")


def test_undo_validation(tmp_path: Path) -> None:
    editor, path = _editor(tmp_path, "line 1\nline 2\nline 3\n")
    assert "Unknown command 'undo_edit'" in _error(editor, tmp_path, command="undo_edit", path=path)


# ------------------------------------------------------------ editor/test_file_validation.py


def test_file_validation(tmp_path: Path) -> None:
    """A binary file is refused, as OpenHands refuses it; an 11 MB file is shown (OpenHands: "too
    large", over 10 MB), cut at max_characters when the tool definition sets it; SQL is text."""
    editor = TextEditor(tmp_path, max_characters=100_000)
    path = tmp_path / "test.sql"
    path.write_bytes(b"Some text\x00with binary\x00content")
    assert "binary" in _error(editor, tmp_path, command="view", path=str(path))
    path.write_text("x" * (11 * 1024 * 1024))
    assert "Truncated" in _ok(editor, command="view", path=str(path))
    path.write_text("\n    SELECT *\n    FROM users\n    WHERE id = 1;\n    ")
    assert "SELECT *" in _ok(editor, command="view", path=str(path))


# ------------------------------------------------------------ editor/test_non_utf8_operations.py

CP1251 = (
    "# -*- coding: cp1251 -*-\n\n# Тестовый файл с кириллицей\ntext = \"Привет, мир!\"\n"
    "numbers = [1, 2, 3, 4, 5]\nmessage = \"Это тестовая строка\"\n"
)


@pytest.mark.parametrize(
    ("name", "tool_input"),
    [
        ("test_view_non_utf8_file", {"command": "view"}),
        ("test_view_range_non_utf8_file", {"command": "view", "view_range": [3, 5]}),
        ("test_str_replace_non_utf8_file", {"command": "str_replace", "old_str": "Привет, мир!", "new_str": "Здравствуй, мир!"}),
        ("test_insert_non_utf8_file", {"command": "insert", "insert_line": 4, "new_str": 'new_var = "Новая переменная"'}),
        ("test_undo_edit_non_utf8_file", {"command": "str_replace", "old_str": "Привет, мир!", "new_str": "Здравствуй, мир!"}),
        ("test_complex_workflow_non_utf8_file", {"command": "view"}),
    ],
)  # fmt: skip
def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path, name: str, tool_input: dict[str, Any]) -> None:
    """OpenHands guesses cp1251 and edits in it; here the file is not read as text, and not changed."""
    (tmp_path / "ru.py").write_bytes(CP1251.encode("cp1251"))
    shown = _error(TextEditor(tmp_path), tmp_path, path=str(tmp_path / "ru.py"), **tool_input)
    assert "not UTF-8" in shown, name


def test_create_non_utf8_file(tmp_path: Path) -> None:
    """Cyrillic text is written as UTF-8, which is what reading it back finds."""
    text = "# -*- coding: cp1251 -*-\n\n# Новый файл с кириллицей\ngreeting = \"Привет из нового файла!\"\n"
    _ok(TextEditor(tmp_path), command="create", path=str(tmp_path / "new.py"), file_text=text)
    assert (tmp_path / "new.py").read_bytes().decode("utf-8") == text


def test_mixed_encoding_workflow(tmp_path: Path) -> None:
    """The UTF-8 file is viewed and edited; the cp1251 one is refused and left as it was."""
    (tmp_path / "one.py").write_bytes('# -*- coding: cp1251 -*-\ntext_cp1251 = "Текст в кодировке CP1251"\n'.encode("cp1251"))
    (tmp_path / "two.py").write_text('# -*- coding: utf-8 -*-\ntext_utf8 = "Текст в кодировке UTF-8"\n', encoding="utf-8")
    editor = TextEditor(tmp_path)
    assert "not UTF-8" in _error(editor, tmp_path, command="view", path=str(tmp_path / "one.py"))
    assert "Текст в кодировке UTF-8" in _ok(editor, command="view", path=str(tmp_path / "two.py"))
    edit = {"old_str": "Текст в кодировке CP1251", "new_str": "Измененный текст в CP1251"}
    assert "not UTF-8" in _error(editor, tmp_path, command="str_replace", path=str(tmp_path / "one.py"), **edit)
    _ok(editor, command="str_replace", path=str(tmp_path / "two.py"), old_str="Текст в кодировке UTF-8", new_str="Измененный текст в UTF-8")
    assert "Измененный текст в UTF-8" in (tmp_path / "two.py").read_bytes().decode("utf-8")
