"""`apply_patch serve`, end to end with the MCP SDK's own client over stdio."""

import asyncio
import json
import os
import signal
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from mcp import ClientSession
from mcp.client.stdio import stdio_client

from _support import NOTHING_CHANGED, executable, mcp_server, run_cli, snapshot
from apply_patch.tools import DESCRIPTION, INSTRUCTIONS

ADD = "*** Begin Patch\n*** Add File: notes/hello.md\n+# Hello\n*** End Patch\n"

Outcome = tuple[bool, str, Any]  # is_error, the text, structuredContent


async def _session(
    root: Path, calls: list[tuple[str, dict[str, Any]]], seen: dict[str, Any], options: list[str]
) -> list[Outcome]:
    server = mcp_server(["serve", "--root", str(root), *options])
    results = []
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        initialized = await session.initialize()
        seen["server"] = initialized.server_info
        seen["instructions"] = initialized.instructions
        seen["tools"] = {tool.name: tool for tool in (await session.list_tools()).tools}
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            (content,) = result.content
            assert content.type == "text"
            results.append((result.is_error, content.text, result.structured_content))
    return results


def _run(
    root: Path, calls: list[tuple[str, dict[str, Any]]], *options: str
) -> tuple[list[Outcome], dict[str, Any]]:
    seen: dict[str, Any] = {}
    return asyncio.run(_session(root, calls, seen, list(options))), seen


def _json(root: Path, patch: str, *options: str) -> Any:
    """What `apply_patch --json` prints for `patch` (on a copy: the tree stays as it is)."""
    done = run_cli(["--json", "-C", str(root), "--dry-run", *options, patch], root)
    return json.loads(done.stdout)


def test_tools_apply_check_and_refuse(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    outside = "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n"
    broken = "*** Begin Patch\n*** Update File: app.py\n-x = 2\n+x = 3\n*** End Patch\n"
    dry_json, broken_json = _json(root, ADD, "--diff"), _json(root, broken)
    results, _ = _run(root, [
        ("apply_patch_dry_run", {"patch": ADD}),
        ("apply_patch", {"patch": ADD}),
        ("apply_patch", {"patch": broken}),
        ("apply_patch", {"patch": outside}),
        ("apply_patch_dry_run", {"patch": broken}),
    ])
    dry, applied, not_found, escaped, dry_not_found = results
    assert dry[:2] == (False, (
        "Dry run, nothing was written. The patch applies and would update:\nA notes/hello.md\n"
        "--- /dev/null\n+++ b/notes/hello.md\n@@ -0,0 +1 @@\n+# Hello\n"
    ))
    assert dry[2] == dry_json
    assert applied[:2] == (False, "Success. Updated the following files:\nA notes/hello.md\n")
    assert applied[2] == {**dry_json, "dry_run": False, "diff": None, "receipt": applied[2]["receipt"]}
    assert applied[2]["receipt"]  # the id the undo tool takes
    assert not_found[0] and not_found[1].startswith("Failed to find expected lines in app.py:")
    assert not_found[1].endswith(NOTHING_CHANGED.rstrip("\n"))
    assert not_found[2] == {**broken_json, "dry_run": False, "error": {**broken_json["error"], "operation": 0}}
    assert escaped[:2] == (True, (
        "Path '../escape.txt' is outside the root folder: paths must be relative and "
        f"stay inside it\n{NOTHING_CHANGED.rstrip()}"
    ))
    assert escaped[2]["ok"] is False and escaped[2]["error"]["kind"] == "policy"
    # A dry run that fails was never going to write: it does not say "not applied".
    assert dry_not_found[0] and dry_not_found[1].endswith(
        "Dry run: the patch does not apply; nothing was written."
    )
    assert sorted(snapshot(tmp_path)) == ["root", "root/app.py", "root/notes", "root/notes/hello.md"]
    assert (root / "notes" / "hello.md").read_text() == "# Hello\n"
    assert (root / "app.py").read_text() == "x = 1\n"


def test_what_the_server_tells_a_model(tmp_path: Path) -> None:
    _, seen = _run(tmp_path, [])
    assert seen["server"].name == "apply_patch"
    assert seen["server"].version == metadata.version("apply-patch")
    assert seen["instructions"] == INSTRUCTIONS
    tools = seen["tools"]
    assert set(tools) == {
        "apply_patch", "apply_patch_dry_run", "apply_patch_operations", "str_replace_based_edit_tool",
        "hashline_edit", "undo",
    }
    for tool in tools.values():
        assert INSTRUCTIONS not in tool.description  # taught once, in the instructions
        assert "title" not in json.dumps(tool.input_schema)  # no internal names (applyArguments)
        assert tool.input_schema["additionalProperties"] is False
    assert tools["apply_patch"].description.startswith(DESCRIPTION)
    assert tools["apply_patch"].input_schema["required"] == ["patch"]
    assert tools["apply_patch_operations"].input_schema["required"] == ["operations"]
    assert tools["apply_patch"].input_schema["properties"]["format"]["enum"] == [
        "codex", "search-replace", "unified-diff", "hashline", "auto"
    ]
    editor = tools["str_replace_based_edit_tool"].input_schema
    assert editor["required"] == ["command", "path"]
    assert editor["properties"]["command"]["enum"] == ["view", "create", "str_replace", "insert"]
    hints = {name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.idempotent_hint,
                    t.annotations.open_world_hint) for name, t in tools.items()}
    assert hints == {
        "apply_patch": (False, True, False, False),
        "apply_patch_dry_run": (True, False, True, False),
        "apply_patch_operations": (False, True, False, False),
        "str_replace_based_edit_tool": (False, True, False, False),
        "hashline_edit": (False, True, False, False),
        "undo": (False, True, False, False),
    }


def test_a_wrong_argument_gets_one_line_a_model_can_act_on(tmp_path: Path) -> None:
    results, _ = _run(tmp_path, [
        ("apply_patch", {"diff": ADD}),
        ("apply_patch", {}),
        ("apply_patch_dry_run", {"patch": 3}),
        ("apply_patch", {"patch": ADD, "format": "xml"}),
        ("apply_patch_operations", {"patch": ADD}),
        ("apply_patch_operations", {"operations": []}),
        ("apply_patch_nope", {"patch": ADD}),
        ("str_replace_based_edit_tool", {"command": "delete", "path": "a.txt"}),
        ("str_replace_based_edit_tool", {"command": "view"}),
    ])
    assert [(e, text) for e, text, _ in results] == [
        (True, "apply_patch takes 'patch' (the patch text) and, optionally, 'format'; unknown argument: 'diff'."),
        (True, "apply_patch takes 'patch' (the patch text) and, optionally, 'format'; 'patch' is missing."),
        (True, "apply_patch_dry_run: 'patch' must be a string (the patch text), not int."),
        (True, "apply_patch: 'format' must be one of codex, search-replace, unified-diff, hashline, auto; not 'xml'."),
        (True, "apply_patch_operations takes one argument, 'operations' (a list of operations); unknown argument: 'patch'."),
        (True, "apply_patch_operations: 'operations' must be a non-empty list of {type, path, diff} objects."),
        (True, "Unknown tool 'apply_patch_nope': the tools are apply_patch, apply_patch_dry_run, "
               "apply_patch_operations, str_replace_based_edit_tool, hashline_edit, undo."),
        (True, "Error: Unknown command 'delete': the commands of text_editor_20250728 are view, create, "
               "str_replace, insert"),
        (True, "Error: path is missing (a string is required)"),
    ]
    assert snapshot(tmp_path) == {}


def test_operations_apply_as_one_patch(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\nbeta\n")
    (tmp_path / "b.txt").write_text("keep\n")
    good = [
        {"type": "create_file", "path": "new.txt", "diff": "+fresh\n"},
        {"type": "update_file", "path": "a.txt", "diff": " alpha\n-beta\n+BETA\n"},
    ]
    bad = [
        {"type": "delete_file", "path": "b.txt"},
        {"type": "update_file", "path": "a.txt", "diff": " alpha\n-gamma\n+GAMMA\n"},
    ]
    malformed = [{"type": "create_file", "path": "c.txt", "diff": "no plus\n"}]
    before = snapshot(tmp_path)
    results, _ = _run(tmp_path, [
        ("apply_patch_operations", {"operations": bad}),
        ("apply_patch_operations", {"operations": malformed}),
    ])
    (failed, failed_text, failed_json), (broken, broken_text, broken_json) = results
    assert failed and failed_text.startswith("Failed to find expected lines")
    assert failed_json["ok"] is False and failed_json["error"]["operation"] == 1
    assert broken and broken_text == (
        "Invalid create_file operation for c.txt, diff line 1: Every line of a create_file diff is a "
        f"line of the new file, starting with '+'; got: 'no plus'\n{NOTHING_CHANGED.rstrip()}"
    )
    assert broken_json["error"]["kind"] == "syntax"
    assert snapshot(tmp_path) == before
    results, _ = _run(tmp_path, [("apply_patch_operations", {"operations": good})])
    ((error, text, document),) = results
    assert (error, text) == (False, "Success. Updated the following files:\nA new.txt\nM a.txt\n")
    assert [op["op"] for op in document["operations"]] == ["add", "update"]
    assert (tmp_path / "a.txt").read_text() == "alpha\nBETA\n" and (tmp_path / "new.txt").read_text() == "fresh\n"


def test_serve_refuses_to_leave_its_root(tmp_path: Path) -> None:
    result = run_cli(["serve", "--outside-root", "allow"], tmp_path)
    assert result.returncode == 2
    assert result.stderr == b"apply_patch serve: the server never writes outside its root folder\n"
    missing = run_cli(["serve", "--root", "nowhere"], tmp_path)
    assert (missing.returncode, missing.stderr) == (
        2, b"apply_patch serve: the root folder nowhere does not exist\n"
    )


SEARCH_REPLACE = "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
UNIFIED = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 2\n+x = 3\n"


def test_the_patch_tools_read_the_other_formats(tmp_path: Path) -> None:
    """`format`, as the executable's --format: SEARCH/REPLACE blocks, a unified diff, or auto."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    dry_json = _json(root, SEARCH_REPLACE, "--format", "search-replace", "--diff")
    missing = SEARCH_REPLACE.replace("x = 1", "y = 1")
    missing_json = _json(root, missing, "--format", "search-replace")
    results, _ = _run(root, [
        ("apply_patch_dry_run", {"patch": SEARCH_REPLACE, "format": "search-replace"}),
        ("apply_patch", {"patch": missing, "format": "search-replace"}),
        ("apply_patch", {"patch": SEARCH_REPLACE, "format": "search-replace"}),
        ("apply_patch", {"patch": UNIFIED, "format": "auto"}),
        ("apply_patch", {"patch": ADD, "format": "codex"}),
    ])
    dry, not_found, replaced, diffed, codex = results
    assert dry[:2] == (False, (
        "Dry run, nothing was written. The patch applies and would update:\nM app.py\n"
        "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    ))
    assert dry[2] == dry_json and dry[2]["format"] == "search-replace"
    assert not_found[0] and not_found[1].startswith("Failed to find the SEARCH block at line 2 in app.py:\ny = 1\n")
    assert not_found[1].endswith(NOTHING_CHANGED.rstrip("\n"))
    # (the edit formats' errors name the block by its line; "operation" is a Codex patch's)
    assert not_found[2] == {**missing_json, "dry_run": False, "error": {**missing_json["error"], "operation": None}}
    assert replaced[:2] == (False, "Success. Updated the following files:\nM app.py\n")
    assert diffed[:2] == (False, "Success. Updated the following files:\nM app.py\n")
    assert diffed[2]["format"] == "unified-diff"
    assert codex[:2] == (False, "Success. Updated the following files:\nA notes/hello.md\n")
    assert "format" not in codex[2]
    assert (root / "app.py").read_text() == "x = 3\n"


def test_the_text_editor_tool(tmp_path: Path) -> None:
    """Claude's text-editor commands, run by `apply_patch.anthropic.TextEditor` under the root."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("a = 1\nb = 2\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    tool = "str_replace_based_edit_tool"
    before = snapshot(tmp_path)
    refused, _ = _run(root, [
        (tool, {"command": "str_replace", "path": "app.py", "old_str": "c = 3", "new_str": "c = 4"}),
        (tool, {"command": "create", "path": "app.py", "file_text": "clobbered\n"}),
        (tool, {"command": "view", "path": "../secret.txt"}),
        (tool, {"command": "create", "path": "../escape.txt", "file_text": "x\n"}),
    ])
    assert [is_error for is_error, _, _ in refused] == [True] * 4
    assert refused[0][1].startswith("Error: No match found for replacement. Please check your text and try again.")
    assert refused[1][1].startswith("Error: Failed to add file app.py: it already exists")
    assert "outside the root folder" in refused[2][1] and "outside the root folder" in refused[3][1]
    assert snapshot(tmp_path) == before
    results, _ = _run(root, [
        (tool, {"command": "view", "path": "app.py"}),
        (tool, {"command": "str_replace", "path": "app.py", "old_str": "b = 2", "new_str": "b = 20"}),
        (tool, {"command": "insert", "path": "app.py", "insert_line": 0, "new_str": "# top\n"}),
        (tool, {"command": "create", "path": "pkg/new.py", "file_text": "n = 0\n"}),
        (tool, {"command": "view", "path": "app.py", "view_range": [2, -1]}),
    ])
    assert [(is_error, text) for is_error, text, _ in results] == [
        (False, "1: a = 1\n2: b = 2"),
        # Each edit answers with the lines it left, numbered as view numbers them.
        (False, "Successfully replaced text at exactly one location.\nLines 1-2 of app.py now:\n1: a = 1\n2: b = 20"),
        (False, "Successfully inserted text at the top.\nLines 1-3 of app.py now:\n1: # top\n2: a = 1\n3: b = 20"),
        (False, "File created successfully at: pkg/new.py\nLine 1 of pkg/new.py now:\n1: n = 0"),
        (False, "2: a = 1\n3: b = 20"),
    ]
    assert (root / "app.py").read_text() == "# top\na = 1\nb = 20\n"
    assert (root / "pkg" / "new.py").read_text() == "n = 0\n"


def test_view_range_that_no_file_can_have_is_refused_in_one_line(tmp_path: Path) -> None:
    """Issue 34: `[1, 10**30]`, `1e30`, `"3"`, `true` are invalid input, not a range to clamp."""
    (tmp_path / "app.py").write_text("a = 1\nb = 2\n")
    tool = "str_replace_based_edit_tool"
    before = snapshot(tmp_path)
    ranges: list[Any] = [[1, 10**30], [1, 1e30], ["3", 5], [True, 2]]
    results, _ = _run(tmp_path, [(tool, {"command": "view", "path": "app.py", "view_range": r}) for r in ranges])
    for is_error, text, _ in results:
        assert is_error and "\n" not in text.strip() and "view_range" in text, text
    assert snapshot(tmp_path) == before
    clamped, _ = _run(tmp_path, [(tool, {"command": "view", "path": "app.py", "view_range": [2, 9]})])
    assert clamped[0][:2] == (False, "Note: the file has 2 lines; lines 2-2 are shown.\n2: b = 2")


def test_every_answer_keeps_to_the_budget(tmp_path: Path) -> None:
    """--max-characters: view shows the lines that fit, with its note; a dry run's diff is cut."""
    (tmp_path / "long.txt").write_text("".join(f"line {n}\n" for n in range(1, 1001)))
    tool = "str_replace_based_edit_tool"
    patch = "*** Begin Patch\n*** Update File: long.txt\n@@ line 1\n+new\n*** End Patch\n"
    results, _ = _run(tmp_path, [
        (tool, {"command": "view", "path": "long.txt"}),
        ("apply_patch_dry_run", {"patch": patch, "format": "codex"}),
    ], "--max-characters", "40")
    (_, view, _), (_, dry_run, document) = results
    assert view == (
        "1: line 1\n2: line 2\n3: line 3\n4: line 4\n"
        "[Truncated at 40 characters: 996 more lines; view them with view_range.]"
    )
    assert dry_run.startswith("Dry run") and dry_run.endswith(" more lines.]") and len(dry_run) < 200
    assert document["diff"].endswith(" more lines.]")
    assert run_cli(["serve", "--max-characters", "0"], tmp_path).returncode == 2


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_an_idle_server_stops_on_a_signal(tmp_path: Path, name: str) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP) ends a server waiting for its client: its read of stdin
    does not hold it (it used to ignore Ctrl-C)."""
    number = getattr(signal, name)
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    with subprocess.Popen(
        [executable(), "serve", "--root", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # Unblocked, and at its default action whatever the suite inherited (under `nohup`
        # SIGHUP is ignored, and a server rightly leaves an ignored signal ignored).
        preexec_fn=lambda: (signal.pthread_sigmask(signal.SIG_SETMASK, []), signal.signal(number, signal.SIG_DFL)) and None,
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}).encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 0  # serving, and idle from here
        server.send_signal(number)
        assert server.wait(timeout=20) == -number
        assert server.stderr is not None and server.stderr.read() == b""


def test_a_server_the_suite_starts_keeps_its_receipts_in_the_suites_state_folder(tmp_path: Path) -> None:
    """The MCP SDK starts a server with only a few variables of the environment (HOME,
    PATH...): the suite's servers are given its state folder (`_support.mcp_server`), so
    their commits' receipts never go to the home's (they did: the real home's, on every run
    of the suite)."""
    home, root = tmp_path / "home", tmp_path / "root"
    home.mkdir()
    root.mkdir()

    async def add() -> bool:
        server = mcp_server(["serve", "--root", str(root)], home=home)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return (await session.call_tool("apply_patch", {"patch": ADD})).is_error

    assert asyncio.run(add()) is False
    assert (root / "notes" / "hello.md").read_text() == "# Hello\n"
    assert not list(home.rglob("*")), sorted(map(str, home.rglob("*")))[:3]
    assert list(Path(os.environ["XDG_STATE_HOME"]).rglob("*.json"))  # the receipt, where the suite keeps them
