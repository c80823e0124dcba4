"""Every input checked at the boundary, on every entry and surface (issue #22, items 5-7).

A lone surrogate (JSON's `\\ud800`: valid JSON, not valid Unicode), a control
character or a line break in a path, a path too long for any file system,
data nested too deep: each is one line of PatchError from the library
(`InputError`, exit 2 from the executable, `is_error` over MCP), and the tree
is byte for byte as it was. Nothing reaches a terminal raw.
"""

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from _support import NOTHING_CHANGED, executable, run_cli, snapshot
from apply_patch import InputError, PatchError, UnifiedDiffError, apply_patch, apply_to_mapping
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, Insert, StrReplace, apply_edits, apply_search_replace, apply_unified_diff
from apply_patch.format import parse_unified_diff
from apply_patch.openai_agents import Editor
from apply_patch.responses import apply_calls

SURROGATE = "\ud800"


class _Operation:
    """An operation of the openai-agents SDK, by attribute."""

    def __init__(self, path: str, diff: str) -> None:
        self.type, self.path, self.diff, self.move_to = "create_file", path, diff, None


def _patch(path: str, text: str) -> str:
    return f"*** Begin Patch\n*** Add File: {path}\n+{text}\n*** End Patch"


def _quoted(path: str) -> str:
    return '"' + path.encode("utf-8", "surrogatepass").decode("latin-1").encode("unicode_escape").decode() + '"'


# Each library entry, given a path and a text: (raises a PatchError, or answers an error).
ENTRIES: dict[str, Callable[[Path, str, str], object]] = {
    "apply_patch": lambda root, path, text: apply_patch(_patch(path, text), root),
    "apply_edits create": lambda root, path, text: apply_edits([CreateFile(path, text)], root),
    "apply_edits replace": lambda root, path, text: apply_edits([StrReplace(path, "a", text)], root),
    "apply_edits insert": lambda root, path, text: apply_edits([Insert(path, 1, text)], root),
    "search_replace": lambda root, path, text: apply_search_replace(
        f"{path}\n<<<<<<< SEARCH\n=======\n{text}\n>>>>>>> REPLACE\n", root
    ),
    "unified_diff": lambda root, path, text: apply_unified_diff(
        f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{text}\n", root
    ),
    "unified_diff quoted": lambda root, path, text: apply_unified_diff(
        f"--- /dev/null\n+++ {_quoted('b/' + path)}\n@@ -0,0 +1 @@\n+{text}\n", root
    ),
    "apply_calls": lambda root, path, text: apply_calls(
        [{"type": "apply_patch_call", "call_id": "c",
          "operation": {"type": "create_file", "path": path, "diff": f"+{text}\n"}}], root,
    ),
    "openai_agents.Editor": lambda root, path, text: Editor(root).apply(_Operation(path, f"+{text}\n")),
    "TextEditor create": lambda root, path, text: TextEditor(root).run(
        {"command": "create", "path": path, "file_text": text}
    ),
    "TextEditor str_replace": lambda root, path, text: TextEditor(root).run(
        {"command": "str_replace", "path": path, "old_str": "a", "new_str": text}
    ),
    "TextEditor insert": lambda root, path, text: TextEditor(root).run(
        {"command": "insert", "path": path, "insert_line": 1, "new_str": text}
    ),
    "TextEditor view": lambda root, path, text: TextEditor(root).run({"command": "view", "path": path}),
    "apply_to_mapping": lambda root, path, text: apply_to_mapping(_patch(path, text), {"a.txt": "a\n"}),
}
BAD = {
    "surrogate in a path": (f"x{SURROGATE}.txt", "x"),
    "surrogate in the text": ("a.txt", f"x{SURROGATE}"),
    "line break in a path": ("a\nb.txt", "x"),
    "ESC in a path": ("a\x1b[31mb.txt", "x"),
    "CSI in a path": ("a\x9bb.txt", "x"),
    "line separator in a path": ("a\u2028b.txt", "x"),
    "a path too long": ("a/" * 3000 + "b.txt", "x"),
    "a name too long": ("a" * 300, "x"),
}


def _answer(entry: str, root: Path, path: str, text: str) -> str:
    """The error text an entry gives (its PatchError, or its error answer)."""
    try:
        result = ENTRIES[entry](root, path, text)
    except PatchError as error:
        return str(error)
    if isinstance(result, dict):  # TextEditor
        assert result["is_error"], result
        return str(result["content"])
    if isinstance(result, list):  # apply_calls
        assert result[0]["status"] == "failed", result
        return str(result[0]["output"]).split("\n")[0]
    assert getattr(result, "status", None) == "failed", result
    return str(getattr(result, "output")).split("\n")[0]


def _applicable(entry: str, bad: str) -> bool:
    """Whether `entry` can be given the unusable input `bad` at all."""
    if "text" in bad and entry == "TextEditor view":
        return False  # view takes no text
    # A path of these formats is one line of the text: a line break ends it.
    return not (bad == "line break in a path" and entry in ("search_replace", "unified_diff"))


@pytest.mark.parametrize(
    ("entry", "bad"), [(entry, bad) for entry in ENTRIES for bad in BAD if _applicable(entry, bad)]
)
def test_every_entry_refuses_unusable_input_in_one_line(tmp_path: Path, entry: str, bad: str) -> None:
    path, text = BAD[bad]
    (tmp_path / "a.txt").write_text("a\n")
    before = snapshot(tmp_path)
    message = _answer(entry, tmp_path, path, text)
    first = message.removeprefix("Error: ")
    assert "\n" not in first.split("\nThis call was not applied")[0], message
    assert "\x1b" not in message and "\x9b" not in message and "\u2028" not in message
    message.encode("utf-8")  # no lone surrogate in an answer
    assert snapshot(tmp_path) == before


def test_a_lone_surrogate_is_an_input_error_with_its_place(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        apply_edits([CreateFile("a.txt", "one\ntwo" + SURROGATE)], tmp_path)
    assert str(caught.value) == (
        "The text of edit 1 is not valid Unicode text: U+D800 (its line 2) is a lone surrogate"
    )
    assert caught.value.kind == "input"
    assert os.listdir(tmp_path) == []


def test_a_control_character_in_a_path_is_named_escaped(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        apply_patch(_patch("a\x1b[2Jb", "x"), tmp_path)
    assert str(caught.value) == "A path cannot hold a control character (U+001B): 'a\\x1b[2Jb'"
    assert caught.value.path == "a\\x1b[2Jb"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        ([], _patch("a\x1bb", "x")),
        (["--format", "unified-diff"], '--- /dev/null\n+++ "b/a\\nb"\n@@ -0,0 +1 @@\n+x\n'),
        (["--format", "unified-diff"], '--- /dev/null\n+++ "b/a\\033[31mb"\n@@ -0,0 +1 @@\n+x\n'),
        # A name line holds only a file name's characters: the path with ESC is a fence's.
        (["--format", "search-replace"], "```python a\x1bb.txt\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n"),
    ],
    ids=["codex", "unified-line-break", "unified-esc", "search-replace"],
)
def test_the_executable_exits_2_for_unusable_input(tmp_path: Path, args: list[str], stdin: str) -> None:
    before = snapshot(tmp_path)
    result = run_cli(args, tmp_path, stdin=stdin.encode())
    assert result.returncode == 2, result.stderr
    assert b"\x1b" not in result.stderr and result.stderr.count(b"\n") == 2
    assert result.stderr.decode().endswith(NOTHING_CHANGED)
    assert snapshot(tmp_path) == before


def test_file_content_quoted_in_a_message_reaches_the_terminal_escaped(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("title\x1b]0;pwned\x07\n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n-title\n+x\n*** End Patch"
    result = run_cli([patch], tmp_path)
    assert result.returncode == 1
    assert b"\x1b" not in result.stderr and b"\x07" not in result.stderr
    assert b"title\\x1b]0;pwned\\x07" in result.stderr


def test_a_diff_keeps_exact_bytes_into_a_pipe(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("color \x1b[31m\n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n+x\n*** End Patch"
    result = run_cli(["--dry-run", "--diff", patch], tmp_path)
    assert b" color \x1b[31m\n+x\n" in result.stdout  # a pipe: the diff applies as printed


@pytest.mark.parametrize("surface", ["TextEditor", "apply_patch", "apply_calls"])
def test_a_path_ending_with_a_slash_is_never_a_file(tmp_path: Path, surface: str) -> None:
    if surface == "TextEditor":
        answer = TextEditor(tmp_path).run({"command": "create", "path": "newdir/", "file_text": "x"})
        assert answer == {
            "content": "Error: Path 'newdir/' ends with '/': it names a folder, and a file is needed",
            "is_error": True,
        }
    elif surface == "apply_patch":
        with pytest.raises(PatchError):
            apply_patch(_patch("newdir/", "x"), tmp_path)
    else:
        [output] = apply_calls([{"type": "apply_patch_call", "call_id": "c", "operation": {
            "type": "create_file", "path": "newdir/", "diff": "+x\n"}}], tmp_path)
        assert output["status"] == "failed"
    assert os.listdir(tmp_path) == []


# 6. Linear parsers, bounded nesting.


def test_calls_nested_200000_deep_is_a_one_line_usage_error(tmp_path: Path) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    result = run_cli(["calls", "-C", str(tmp_path)], tmp_path, stdin=deep.encode())
    assert result.returncode == 2
    assert result.stderr == (
        b"apply_patch calls: the input is nested too deep: more than 1000 arrays or objects "
        b"one inside the other\n"
    )


def test_a_hundred_kilobyte_header_path_is_refused_before_it_is_resolved(tmp_path: Path) -> None:
    diff = "--- " + "a/" * 50_000 + "x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=diff.encode())
    assert result.returncode == 2
    assert b"A path is too long" in result.stderr and result.stderr.count(b"\n") == 2


def test_a_hunk_header_with_a_huge_number_is_a_diff_error(tmp_path: Path) -> None:
    diff = "--- a/x\n+++ b/x\n@@ -" + "1" * 200_000 + " +1 @@\n-a\n+b\n"
    with pytest.raises(UnifiedDiffError) as caught:  # int() refuses 4300 digits: a ValueError before
        parse_unified_diff(diff)
    assert str(caught.value) == "Invalid unified diff on line 3: a hunk header must read '@@ -a,b +c,d @@'"
    (tmp_path / "x").write_text("a\n")
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=diff.encode())
    assert result.returncode == 0, result.stderr  # applied by content: the numbers only break ties
    assert (tmp_path / "x").read_text() == "b\n"


# The MCP server: every request answered.

MCP_LINES: dict[str, tuple[bytes, dict[str, Any]]] = {
    "not JSON": (b'{"jsonrpc": "2.0", "id": 5, "method": ', {"id": None, "code": -32700}),
    "not a message": (b'{"id": 6}', {"id": 6, "code": -32600}),
    "an array": (b"[1, 2]", {"id": None, "code": -32600}),
    "nested too deep": (b"[" * 100_000 + b"]" * 100_000, {"id": None, "code": -32700}),
    "a lone surrogate in a path": (
        b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"str_replace_based_edit_tool",'
        b'"arguments":{"command":"create","path":"x\\ud800","file_text":"t"}}}',
        {"id": 8, "is_error": "params.arguments.path"},
    ),
    "a lone surrogate in a patch": (
        b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"apply_patch",'
        b'"arguments":{"patch":"*** Begin Patch\\n*** Add File: a\\n+\\ud800\\n*** End Patch"}}}',
        {"id": 9, "is_error": "params.arguments.patch"},
    ),
    "a lone surrogate in a method": (
        b'{"jsonrpc":"2.0","id":10,"method":"tools/\\ud800"}', {"id": 10, "code": -32602},
    ),
}


def test_the_mcp_server_answers_every_request(tmp_path: Path) -> None:
    with subprocess.Popen(
        [executable(), "serve", "--root", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    ) as server:
        _answers(server)
    assert os.listdir(tmp_path) == []


def _answers(server: "subprocess.Popen[bytes]") -> None:
    """Each line of MCP_LINES gets its answer, and the server goes on."""
    assert server.stdin is not None and server.stdout is not None
    try:
        _send(server, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        for name, (line, expected) in MCP_LINES.items():
            server.stdin.write(line + b"\n")
            server.stdin.flush()
            answer = json.loads(server.stdout.readline())
            assert answer["id"] == expected["id"], name
            if "code" in expected:
                assert answer["error"]["code"] == expected["code"], (name, answer)
            else:
                [content] = answer["result"]["content"]
                assert answer["result"]["isError"] is True
                assert content["text"] == (
                    f"The request is not valid Unicode text: {expected['is_error']} holds a lone "
                    "surrogate; nothing was done"
                )
        assert _send(server, {"jsonrpc": "2.0", "id": 99, "method": "ping"}) == {
            "jsonrpc": "2.0", "id": 99, "result": {},
        }
    finally:
        server.kill()


def _send(server: "subprocess.Popen[bytes]", message: dict[str, Any]) -> Any:
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


def test_view_of_a_file_named_as_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    assert TextEditor(tmp_path).run({"command": "view", "path": "a.txt/"}) == {
        "content": "Error: a.txt/ names a folder, and a.txt is a file", "is_error": True,
    }
