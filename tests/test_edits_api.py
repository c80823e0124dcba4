"""`apply_patch.edits` beyond the fixtures: the SEARCH/REPLACE reader's rules, `--format auto`'s
detection, edits in memory of many shapes, and what the public API refuses."""

import json
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, run_cli, snapshot
from apply_patch import CODEX, ContextNotFoundError, FilePolicyError, PatchError, extract_patches
from apply_patch.cli._formats import detect
from apply_patch.edits import (
    CreateFile,
    EditError,
    Insert,
    ReplacementCountError,
    SearchReplaceError,
    StrReplace,
    apply_edits,
    parse_search_replace,
)

BLOCK = "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize(
    ("reply", "paths"),
    [
        (f"a.py\n{BLOCK}", ["a.py"]),
        (f"`src/a.py`\n\n```python\n{BLOCK}```\n", ["src/a.py"]),
        (f"**src/a.py**:\n```\n{BLOCK}```\n", ["src/a.py"]),
        (f"# src/a.py\n{BLOCK}", ["src/a.py"]),
        (f"```python src/a.py\n{BLOCK}{BLOCK}```\n", ["src/a.py", "src/a.py"]),
        (f"```src/b.py\n{BLOCK}```\n", ["src/b.py"]),
        (f"a.py\n{BLOCK}\nThen:\n\nb.py\n{BLOCK}", ["a.py", "b.py"]),
        (f"a.py\r\n{BLOCK}".replace("\n", "\r\n"), ["a.py"]),
        (f"a.py\n<<<<<<<<< SEARCH\nold\n=========\nnew\n>>>>>>>>> REPLACE\n", ["a.py"]),
    ],
)
def test_the_path_of_each_block(reply: str, paths: list[str]) -> None:
    edits = parse_search_replace(reply)
    assert [e.path for e in edits] == paths
    assert all(e == StrReplace(e.path, "old\n", "new\n") for e in edits)


def test_blocks_keep_their_lines_exactly() -> None:
    reply = "a.py\n<<<<<<< SEARCH\n  x = 1  \n\n=======\n>>>>>>> REPLACE\nb.py\n<<<<<<< SEARCH\n=======\n\n>>>>>>> REPLACE\n"
    assert parse_search_replace(reply) == [StrReplace("a.py", "  x = 1  \n\n", ""), CreateFile("b.py", "\n")]


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("Just prose, no block.\n", "Invalid SEARCH/REPLACE block: the text holds no block"),
        (f"a.py\n {BLOCK}", "Invalid SEARCH/REPLACE block: the text holds no block"),
        ("a.py\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", "Invalid SEARCH/REPLACE block on line 2: the block that starts here has no '=======' line"),
        (f"a.py\n<<<<<<< SEARCH\nx\n{BLOCK}", "Invalid SEARCH/REPLACE block on line 2: the block that starts here has no '=======' line"),
        (f"Here it is:\n{BLOCK}", "Invalid SEARCH/REPLACE block on line 2: no file path before it"),
    ],
)
def test_broken_replies(reply: str, message: str) -> None:
    with pytest.raises(SearchReplaceError) as caught:
        parse_search_replace(reply)
    assert str(caught.value).startswith(message)
    assert caught.value.kind == "syntax"


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("*** Begin Patch\n*** Delete File: a\n*** End Patch\n", "codex"),
        (f"Sure!\n\na.py\n{BLOCK}", "search-replace"),
        ("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "unified-diff"),
        ("--- x.orig\n+++ x\n@@ -1 +1 @@\n-a\n+b\n", "unified-diff"),
        (f"a.py\n{BLOCK}\n*** Begin Patch\n", "search-replace"),
        ("nothing known\n", "codex"),
    ],
)
def test_auto_chooses_by_the_first_marker(text: str, chosen: str) -> None:
    assert detect(text) == chosen


def test_auto_says_which_format_it_read_even_when_the_input_is_broken(tmp_path: Path) -> None:
    result = run_cli(["--format", "auto", "--json"], tmp_path, stdin=f"Here:\n{BLOCK}".encode())
    document = json.loads(result.stdout)
    assert (result.returncode, document["ok"], document["format"]) == (1, False, "search-replace")
    assert document["error"]["kind"] == "syntax"
    assert document["error"]["patch_line"] == 2


def test_codex_format_json_has_no_format_key(tmp_path: Path) -> None:
    result = run_cli(["--json", "*** Begin Patch\n*** Add File: a\n+a\n*** End Patch"], tmp_path)
    assert "format" not in json.loads(result.stdout)


def test_not_found_error_object_is_the_patch_one(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    result = run_cli(["--format", "search-replace", "--json"], tmp_path, stdin=b"a.py\n<<<<<<< SEARCH\nx = 1\ny = 3\n=======\n>>>>>>> REPLACE\n")
    error = json.loads(result.stdout)["error"]
    assert error["kind"] == "context_not_found"
    assert (error["path"], error["patch_line"], error["expected"]) == ("a.py", 2, ["x = 1", "y = 3"])
    assert error["closest"] == {"start_line": 1, "lines": ["x = 1", "y = 2"], "first_difference_line": 2}
    assert error["nothing_changed"] is True


def test_count_error_object_lists_the_places(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\nx = 1\n")
    before = snapshot(tmp_path)
    with pytest.raises(ReplacementCountError) as caught:
        apply_edits([StrReplace("a.py", "x = 1", "x = 2", expected=3)], tmp_path)
    assert caught.value.to_dict() | {"message": ""} == {
        "kind": "count", "path": "a.py", "patch_line": 1, "message": "", "hints": list(caught.value.hints),
        "found": 2, "wanted": 3, "candidates": [1, 2], "tier": "exact", "nothing_changed": True,
    }  # fmt: skip
    assert snapshot(tmp_path) == before


def test_edits_see_the_previous_edits_of_their_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    result = apply_edits(
        [
            StrReplace("a.txt", "one", "two"),
            StrReplace("a.txt", "two", "three"),
            Insert("a.txt", 1, "four"),
            CreateFile("b.txt", "b"),
            StrReplace("b.txt", "b", "bee"),
        ],
        tmp_path,
    )
    assert (tmp_path / "a.txt").read_text() == "three\nfour\n"
    assert (tmp_path / "b.txt").read_text() == "bee"
    assert result.summary == "Success. Updated the following files:\nA b.txt\nM a.txt\n"
    assert [f.path for f in result.files] == ["a.txt", "b.txt"]


def test_dry_run_writes_nothing_and_gives_the_diff(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    before = snapshot(tmp_path)
    result = apply_edits([StrReplace("a.txt", "one", "two")], tmp_path, dry_run=True)
    assert snapshot(tmp_path) == before
    assert result.diff == "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"


def test_policies_apply_to_edits(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\r\ntwo")
    apply_edits([StrReplace("a.txt", "two", "2")], tmp_path, policy=CODEX, line_endings="lf")
    assert (tmp_path / "a.txt").read_bytes() == b"one\n2\n"  # forced LF; CODEX adds the final newline
    with pytest.raises(FilePolicyError):
        apply_edits([CreateFile("a.txt", "x")], tmp_path)
    apply_edits([CreateFile("a.txt", "x")], tmp_path, policy=CODEX)
    assert (tmp_path / "a.txt").read_bytes() == b"x"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (StrReplace("", "a", "b"), "Edit 1 has no path"),
        (StrReplace("a.txt", "a", "b", expected=0), "Edit 1 expects 0 replacements: at least 1"),
        ("not an edit", "Edit 1 is a str, not a StrReplace, CreateFile, Insert or NotebookEdit"),
    ],
)
def test_what_is_not_an_edit(edit: object, message: str, tmp_path: Path) -> None:
    with pytest.raises(EditError) as caught:
        apply_edits([edit], tmp_path)  # type: ignore[list-item]
    assert str(caught.value) == message


def test_binary_and_missing_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"a\0b")
    with pytest.raises(FilePolicyError, match="it looks binary"):
        apply_edits([StrReplace("bin", "a", "b")], tmp_path)
    with pytest.raises(PatchError, match="No such file or directory"):
        apply_edits([StrReplace("missing", "a", "b")], tmp_path)
    with pytest.raises(ContextNotFoundError):
        apply_edits([StrReplace("bin", "zzz", "b")], tmp_path, binary="allow")


def test_the_executable_reports_a_broken_diff_without_a_traceback(tmp_path: Path) -> None:
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=b"just text\n")
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "Invalid unified diff: the text holds no file diff ('--- old' and '+++ new' lines, then '@@' hunks)\n"
        + NOTHING_CHANGED
    )


def test_extract_lists_edits_as_search_replace_blocks(tmp_path: Path) -> None:
    record = {"type": "tool_use", "name": "Edit", "input": {"file_path": "a.py", "old_string": "x", "new_string": "y", "replace_all": True}}
    found = extract_patches(json.dumps(record))
    assert [(f.source, f.patch) for f in found] == [
        ("log", "# every place\na.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")
    ]
    assert parse_search_replace(found[0].patch) == [StrReplace("a.py", "x\n", "y\n")]


def test_a_reply_explaining_the_format_is_no_edit() -> None:
    prose = "Write blocks like this:\n\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
    assert extract_patches(json.dumps({"type": "text", "text": prose})) == ()
    assert extract_patches(prose) == ()


def test_a_hunk_tie_is_settled_by_its_line_numbers_or_refused(tmp_path: Path) -> None:
    """Issue 20: a hunk whose lines fit twice goes where its header's numbers say, if
    they name one of its places; numbers naming none of them are refused (no guess)."""
    (tmp_path / "a.cfg").write_text("[x]\nport = 1\n[y]\nport = 1\n")
    before = snapshot(tmp_path)
    wrong = b"--- a/a.cfg\n+++ b/a.cfg\n@@ -3 +3 @@\n-port = 1\n+port = 2\n"
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=wrong)
    assert (result.returncode, result.stderr.decode()) == (1, (
        "The hunk at line 3 matches 2 places in a.cfg (lines 2, 4); "
        "add more context lines so that it matches one place only\n" + NOTHING_CHANGED
    ))  # fmt: skip
    assert snapshot(tmp_path) == before
    right = wrong.replace(b"@@ -3 +3 @@", b"@@ -4 +4 @@")
    assert run_cli(["--format", "unified-diff", "--unique"], tmp_path, stdin=right).returncode == 0
    assert (tmp_path / "a.cfg").read_text() == "[x]\nport = 1\n[y]\nport = 2\n"


def test_text_editor_views_empty_and_binary_files(tmp_path: Path) -> None:
    from apply_patch.anthropic import TextEditor

    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "data.bin").write_bytes(b"ab\0cd")
    editor = TextEditor(tmp_path)
    assert editor.run({"command": "view", "path": "empty.txt"}) == {"content": "(the file is empty)", "is_error": False}
    assert editor.run({"command": "view", "path": "data.bin"}) == {
        "content": "Error: data.bin cannot be shown as text: it looks binary (a NUL byte at offset 2)",
        "is_error": True,
    }


def test_blocks_only_from_the_model_not_from_a_tool_result_or_the_user() -> None:
    blocks = f"a.py\n{BLOCK}"
    log = [
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": blocks}]}]}},
        {"role": "user", "content": blocks},
        {"role": "assistant", "content": f"Here you go:\n\n{blocks}"},
    ]  # fmt: skip
    found = extract_patches("".join(json.dumps(record) + "\n" for record in log))
    assert [(f.line, f.source, getattr(f, "kind", None)) for f in found] == [(3, "log", "search-replace")]


def test_a_chat_message_with_blocks_and_a_tool_call_gives_both_in_order() -> None:
    patch = "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch"
    message = {
        "role": "assistant",
        "content": f"First the blocks:\n\na.py\n{BLOCK}",
        "tool_calls": [{"type": "function", "function": {"name": "apply_patch", "arguments": json.dumps({"patch": patch})}}],
    }
    found = extract_patches(json.dumps([{"role": "user", "content": "go"}, message]))
    assert [type(f).__name__ for f in found] == ["FoundEdits", "FoundPatch"]
    assert found[1].patch == patch
