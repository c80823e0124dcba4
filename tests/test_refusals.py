"""Edits that would change nothing, or write a placeholder for code (issue 23, item 2).

Refused before anything is planned, each with one line telling the model what
to send instead, through every front end: `apply_edits`, SEARCH/REPLACE
(library and executable), the text-editor tool, and an agent log replayed by
`extract --apply`. Every refusal leaves the tree byte for byte as it was.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from _support import NOTHING_CHANGED, Entry, run_cli, snapshot
from apply_patch import PatchError
from apply_patch.anthropic import TOOL_NAME, TextEditor
from apply_patch.edits import CreateFile, EditError, Insert, StrReplace, apply_edits, apply_search_replace

SOURCE = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


def _tree(root: Path, files: dict[str, str] | None = None) -> dict[str, Entry]:
    for name, text in (files or {"app.py": SOURCE}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return snapshot(root)


def _refused(root: Path, edits: list[Any]) -> str:
    before = snapshot(root)
    with pytest.raises(EditError) as caught:
        apply_edits(edits, root)
    assert snapshot(root) == before
    assert "\n" not in caught.value.message
    return caught.value.message


# ------------------------------------------------------------ identical old and new text


def test_identical_old_and_new_text_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    message = _refused(tmp_path, [StrReplace("app.py", "return 1", "return 1")])
    assert message == (
        "The new text of edit 1 is identical to its old text: nothing would change. "
        "Send the text the file should have there instead (or no edit if it already has it)."
    )


def test_identical_with_replace_all_or_other_line_endings_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    _refused(tmp_path, [StrReplace("app.py", "return", "return", replace_all=True)])
    _refused(tmp_path, [StrReplace("app.py", "return 1\r\n", "return 1\n")])


def test_identical_in_a_later_edit_refuses_the_whole_call(tmp_path: Path) -> None:
    _tree(tmp_path)
    message = _refused(tmp_path, [StrReplace("app.py", "return 1", "return 3"), StrReplace("app.py", "b", "b")])
    assert message.startswith("The new text of edit 2 is identical")


def test_identical_search_replace_pair_is_refused_by_the_executable(tmp_path: Path) -> None:
    before = _tree(tmp_path)
    reply = "app.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 1\n>>>>>>> REPLACE\n"
    result = run_cli(["--format", "search-replace"], tmp_path, stdin=reply.encode())
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "The REPLACE part of the SEARCH block at line 2 is identical to its SEARCH part: nothing would "
        "change. Send the text the file should have there instead (or no edit if it already has it).\n"
        + NOTHING_CHANGED
    )
    assert snapshot(tmp_path) == before


def test_identical_str_replace_of_the_text_editor_is_an_error(tmp_path: Path) -> None:
    before = _tree(tmp_path)
    answer = TextEditor(tmp_path).run(
        {"command": "str_replace", "path": "app.py", "old_str": "return 1", "new_str": "return 1"}
    )
    assert answer == {
        "content": "Error: new_str is identical to old_str: nothing would change. Send the text the file "
        "should have there instead (or no edit if it already has it).",
        "is_error": True,
    }
    assert snapshot(tmp_path) == before


def test_an_empty_old_text_with_an_empty_new_text_is_refused_too(tmp_path: Path) -> None:
    """Over an existing empty file it would change nothing and say it changed it (OpenCode refuses
    it as identical too); an empty file is made by creating it with no text."""
    _tree(tmp_path)
    (tmp_path / "empty.txt").write_bytes(b"")
    for path in ("empty.txt", "new.txt"):
        message = _refused(tmp_path, [StrReplace(path, "", "")])
        assert message == (
            "The new text of edit 1 is identical to its old text, both empty: nothing would change. "
            "Send the text to write (an empty file is made by creating it with no text)."
        )
    apply_edits([CreateFile("new.txt", "")], tmp_path)
    assert (tmp_path / "new.txt").read_bytes() == b""


# ------------------------------------------------------------ empty insertions


def test_an_empty_insertion_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    message = _refused(tmp_path, [Insert("app.py", 1, "")])
    assert message == "The insertion of edit 1 has no text: nothing would be inserted. Send the lines to insert."
    answer = TextEditor(tmp_path).run({"command": "insert", "path": "app.py", "insert_line": 0, "new_str": ""})
    assert answer["is_error"] and answer["content"] == (
        "Error: The insert command has no text: nothing would be inserted. Send the lines to insert in new_str."
    )
    assert (tmp_path / "app.py").read_text() == SOURCE


def test_a_blank_line_is_an_insertion(tmp_path: Path) -> None:
    _tree(tmp_path)
    apply_edits([Insert("app.py", 0, "\n")], tmp_path)
    assert (tmp_path / "app.py").read_text() == "\n" + SOURCE


# ------------------------------------------------------------ omission placeholders

PLACEHOLDERS = [
    "    (rest of methods ...)",
    "    # ... [original content here] ...",
    "    // ... existing code ...",
    "    # rest of the code unchanged",
]


@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
def test_a_placeholder_in_new_text_is_refused(tmp_path: Path, placeholder: str) -> None:
    _tree(tmp_path)
    new = f"def a():\n    return 10\n{placeholder}\n"
    message = _refused(tmp_path, [StrReplace("app.py", SOURCE, new)])
    assert message == (
        f"The new text of edit 1 holds an omission placeholder ({placeholder.strip()!r}) that its old text "
        "does not: written as is, the file would lose the code it stands for. Send the complete text, "
        "every line written out."
    )


def test_a_placeholder_already_in_the_old_text_is_kept(tmp_path: Path) -> None:
    _tree(tmp_path, {"notes.md": "Write `// ... existing code ...` nowhere.\n// ... existing code ...\n"})
    apply_edits([StrReplace("notes.md", "// ... existing code ...\n", "// ... existing code ...\nmore\n")], tmp_path)
    assert (tmp_path / "notes.md").read_text().endswith("// ... existing code ...\nmore\n")


@pytest.mark.parametrize(
    "line",
    ['    message = "loading..."', "    return value  # rest of methods ...", "    ...", "    # ...", "    # other options ..."],
)
def test_text_that_is_no_placeholder_is_written(tmp_path: Path, line: str) -> None:
    _tree(tmp_path)
    apply_edits([StrReplace("app.py", "    return 1\n", f"    return 1\n{line}\n")], tmp_path)
    assert line in (tmp_path / "app.py").read_text()


def test_a_placeholder_in_a_replace_part_is_refused_by_the_executable(tmp_path: Path) -> None:
    before = _tree(tmp_path)
    reply = "app.py\n<<<<<<< SEARCH\ndef b():\n    return 2\n=======\ndef b():\n    # ... existing code ...\n    return 3\n>>>>>>> REPLACE\n"
    result = run_cli(["--format", "search-replace", "--json"], tmp_path, stdin=reply.encode())
    document = json.loads(result.stdout)
    assert result.returncode == 1 and document["error"]["kind"] == "edit"
    assert document["error"]["message"] == (
        "The REPLACE part of the SEARCH block at line 2 holds an omission placeholder ('# ... existing code ...') "
        "that its SEARCH part does not: written as is, the file would lose the code it stands for. Send the "
        "complete text, every line written out."
    )
    assert snapshot(tmp_path) == before


def test_a_placeholder_in_new_str_or_an_insert_of_the_text_editor_is_an_error(tmp_path: Path) -> None:
    before = _tree(tmp_path)
    editor = TextEditor(tmp_path)
    answer = editor.run({"command": "str_replace", "path": "app.py", "old_str": "    return 2\n", "new_str": "    # rest of the code unchanged\n"})
    assert answer["is_error"] and answer["content"].startswith(
        "Error: new_str holds an omission placeholder ('# rest of the code unchanged') that old_str does not"
    )
    answer = editor.run({"command": "insert", "path": "app.py", "insert_line": 2, "new_str": "    (rest of methods ...)\n"})
    assert answer["is_error"] and answer["content"].startswith(
        "Error: The text of the insert command holds an omission placeholder ('(rest of methods ...)')"
    )
    assert snapshot(tmp_path) == before


def test_a_whole_file_write_with_a_placeholder_the_file_lacks_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    text = "def a():\n    return 1\n\n# ... [original content here] ...\n"
    message = _refused(tmp_path, [CreateFile("app.py", text, overwrite=True)])
    assert message == (
        "The new file of edit 1 holds an omission placeholder ('# ... [original content here] ...') that "
        "app.py does not: written as is, the file would lose the code it stands for. Send the whole "
        "file, every line written out."
    )
    _refused(tmp_path, [CreateFile("new.py", text)])  # a new file holds no code to stand for
    _refused(tmp_path, [StrReplace("new.py", "", text)])  # an empty old text creates the file


def test_a_whole_file_write_keeping_the_files_own_placeholder_is_written(tmp_path: Path) -> None:
    _tree(tmp_path, {"doc.md": "Never write:\n\n// ... existing code ...\n"})
    apply_edits([CreateFile("doc.md", "Never write this:\n\n// ... existing code ...\n", overwrite=True)], tmp_path)
    assert (tmp_path / "doc.md").read_text().startswith("Never write this:")


def test_create_of_the_text_editor_with_a_placeholder_is_an_error(tmp_path: Path) -> None:
    answer = TextEditor(tmp_path).run({"command": "create", "path": "a.py", "file_text": "import os\n\n# ... rest of the file unchanged ...\n"})
    assert answer["is_error"] and "omission placeholder" in answer["content"]
    assert snapshot(tmp_path) == {}


def _claude_log(cwd: Path, *uses: dict[str, Any]) -> str:
    records = [{"type": "user", "cwd": str(cwd), "message": {"role": "user", "content": "go"}}]
    records += [
        {"type": "assistant", "cwd": str(cwd), "message": {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{n}", **use}]}}
        for n, use in enumerate(uses, 1)
    ]
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_logged_write_with_a_placeholder_stops_the_replay(tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _tree(root)
    write = {"name": "Write", "input": {"file_path": "/home/u/repo/app.py", "content": "def a():\n    return 1\n\n# rest of the code unchanged\n"}}
    log = tmp_path / "session.jsonl"
    log.write_text(_claude_log(Path("/home/u/repo"), write))
    for dry_run in ([], ["--dry-run"]):
        result = run_cli(["extract", "--apply", *dry_run, str(log)], root)
        assert result.returncode == 1
        assert "holds an omission placeholder ('# rest of the code unchanged') that app.py does not" in result.stderr.decode()
        assert snapshot(root) == before


def test_a_logged_write_is_compared_with_the_file_the_replay_left(tmp_path: Path) -> None:
    """In a dry run too: the patches before the write are laid over the files."""
    root = tmp_path / "root"
    before = _tree(root)
    patch = "*** Begin Patch\n*** Update File: app.py\n@@\n def b():\n+    # ... existing code ...\n     return 2\n*** End Patch"
    bash = {"name": "Bash", "input": {"command": f"apply_patch <<'EOF'\n{patch}\nEOF"}}
    write = {"name": "Write", "input": {"file_path": "/home/u/repo/app.py", "content": "def b():\n    # ... existing code ...\n    return 3\n"}}
    log = tmp_path / "session.jsonl"
    log.write_text(_claude_log(Path("/home/u/repo"), bash, write))
    result = run_cli(["extract", "--apply", "--dry-run", str(log)], root)
    assert result.returncode == 0, result.stderr
    assert snapshot(root) == before
    edit = {"name": "Edit", "input": {"file_path": "/home/u/repo/app.py", "old_string": "    return 2\n", "new_string": "    # ... existing code ...\n    return 2\n"}}
    log.write_text(_claude_log(Path("/home/u/repo"), edit))
    result = run_cli(["extract", "--apply", str(log)], root)
    assert result.returncode == 1
    assert "new_string of the Edit at line 2 holds an omission placeholder" in result.stderr.decode()
    assert snapshot(root) == before


def test_refusals_never_raise_anything_but_patch_errors(tmp_path: Path) -> None:
    _tree(tmp_path)
    for edits in ([StrReplace("app.py", "x", "x")], [Insert("app.py", 0, "")], [CreateFile("z.py", "# rest of the code unchanged\n")]):
        with pytest.raises(PatchError):
            apply_edits(edits, tmp_path)
    with pytest.raises(PatchError):
        apply_search_replace("app.py\n<<<<<<< SEARCH\nx\n=======\nx\n>>>>>>> REPLACE\n", tmp_path)


def test_an_edit_log_tool_use_with_identical_strings_is_refused_on_replay(tmp_path: Path) -> None:
    root = tmp_path / "root"
    before = _tree(root)
    log = tmp_path / "session.jsonl"
    use = {"name": TOOL_NAME, "input": {"command": "str_replace", "path": "app.py", "old_str": "return 1", "new_str": "return 1"}}
    log.write_text(_claude_log(Path("/home/u/repo"), use))
    result = run_cli(["extract", "--apply", str(log)], root)
    assert result.returncode == 1
    assert "new_str of the str_replace at line 2 is identical to old_str" in result.stderr.decode()
    assert snapshot(root) == before
