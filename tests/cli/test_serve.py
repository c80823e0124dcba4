"""`apply_patch serve`, end to end with the MCP SDK's own client over stdio."""

import asyncio
import json
from importlib import metadata
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from _support import NOTHING_CHANGED, executable, run_cli, snapshot
from apply_patch._tools import DESCRIPTION, INSTRUCTIONS

ADD = "*** Begin Patch\n*** Add File: notes/hello.md\n+# Hello\n*** End Patch\n"

Outcome = tuple[bool, str, Any]  # is_error, the text, structuredContent


async def _session(root: Path, calls: list[tuple[str, dict[str, Any]]], seen: dict[str, Any]) -> list[Outcome]:
    server = StdioServerParameters(command=executable(), args=["serve", "--root", str(root)])
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


def _run(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Outcome], dict[str, Any]]:
    seen: dict[str, Any] = {}
    return asyncio.run(_session(root, calls, seen)), seen


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
    assert applied[2] == {**dry_json, "dry_run": False, "diff": None}
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
    assert set(tools) == {"apply_patch", "apply_patch_dry_run", "apply_patch_operations"}
    for tool in tools.values():
        assert INSTRUCTIONS not in tool.description  # taught once, in the instructions
        assert "title" not in json.dumps(tool.input_schema)  # no internal names (applyArguments)
        assert tool.input_schema["additionalProperties"] is False
    assert tools["apply_patch"].description.startswith(DESCRIPTION)
    assert tools["apply_patch"].input_schema["required"] == ["patch"]
    assert tools["apply_patch_operations"].input_schema["required"] == ["operations"]
    hints = {name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.idempotent_hint,
                    t.annotations.open_world_hint) for name, t in tools.items()}
    assert hints == {
        "apply_patch": (False, True, False, False),
        "apply_patch_dry_run": (True, False, True, False),
        "apply_patch_operations": (False, True, False, False),
    }


def test_a_wrong_argument_gets_one_line_a_model_can_act_on(tmp_path: Path) -> None:
    results, _ = _run(tmp_path, [
        ("apply_patch", {"diff": ADD}),
        ("apply_patch", {}),
        ("apply_patch_dry_run", {"patch": 3}),
        ("apply_patch_operations", {"patch": ADD}),
        ("apply_patch_operations", {"operations": []}),
        ("apply_patch_nope", {"patch": ADD}),
    ])
    assert [(e, text) for e, text, _ in results] == [
        (True, "apply_patch takes one argument, 'patch' (the patch text); unknown argument: 'diff'."),
        (True, "apply_patch takes one argument, 'patch' (the patch text); it is missing."),
        (True, "apply_patch_dry_run: 'patch' must be a string (the patch text), not int."),
        (True, "apply_patch_operations takes one argument, 'operations' (a list of operations); unknown argument: 'patch'."),
        (True, "apply_patch_operations: 'operations' must be a non-empty list of {type, path, diff} objects."),
        (True, "Unknown tool 'apply_patch_nope': the tools are apply_patch, apply_patch_dry_run, apply_patch_operations."),
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
