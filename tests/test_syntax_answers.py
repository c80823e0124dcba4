"""A syntax error an edit brings in is in every answer a model reads: the executable's
summary and `--json`, the library's result, the Claude text editor, the openai-agents
Editor, the Responses call outputs and the MCP server; with `refuse`, each refuses and
the tree is unchanged."""

import asyncio
import json
from pathlib import Path
from typing import Any

from agents.editor import ApplyPatchOperation
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from _support import mcp_server, run_cli, snapshot
from apply_patch import apply_patch
from apply_patch.anthropic import TextEditor
from apply_patch.openai_agents import Editor
from apply_patch.responses import apply_calls

APP = "def greet(name):\n    return 'Hi ' + name\n\n\ndef main():\n    greet('you')\n    return 0\n"
BREAK = "*** Begin Patch\n*** Update File: app.py\n@@\n-    greet('you')\n+    greet('you'\n*** End Patch\n"
HEAD = "app.py:6: the file no longer parses as Python: "
SNIPPET = "  5 | def main():\n> 6 |     greet('you'\n  7 |     return 0"


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "notes.md").write_text("# notes\n")
    return root


def test_the_executable_prints_the_lines_on_stderr_and_in_json(tmp_path: Path) -> None:
    root = _root(tmp_path)
    done = run_cli([], root, BREAK.encode())
    assert done.returncode == 0
    assert done.stdout == b"Success. Updated the following files:\nM app.py\n"
    stderr = done.stderr.decode()
    assert stderr.startswith(f"warning: {HEAD}")
    assert stderr.endswith(SNIPPET + "\n")
    (root / "app.py").write_text(APP)
    document = json.loads(run_cli(["--json"], root, BREAK.encode()).stdout)
    (warning,) = document["warnings"]
    assert (warning["kind"], warning["path"], warning["file_line"]) == ("code_syntax", "app.py", 6)
    assert warning["message"].endswith(SNIPPET)


def test_the_library_result_and_its_report(tmp_path: Path) -> None:
    result = apply_patch(BREAK, _root(tmp_path))
    assert [(w.kind, w.file_line) for w in result.warnings] == [("code_syntax", 6)]
    assert result.report().endswith(SNIPPET + "\n")


def test_the_claude_text_editor(tmp_path: Path) -> None:
    root = _root(tmp_path)
    answer = TextEditor(root).run(
        {"command": "str_replace", "path": "app.py", "old_str": "greet('you')", "new_str": "greet('you'"}
    )
    assert answer["is_error"] is False
    assert f"Warning: {HEAD}" in answer["content"]
    assert SNIPPET in answer["content"]
    refused = TextEditor(root, check_syntax="refuse").run(
        {"command": "insert", "path": "app.py", "insert_line": 1, "new_str": "    if name ==\n"}
    )
    assert refused["is_error"] is True
    assert "app.py:2: the file no longer parses as Python" in refused["content"]
    assert (root / "app.py").read_text() == APP.replace("greet('you')", "greet('you'")


V4A = "@@\n def main():\n-    greet('you')\n+    greet('you'\n     return 0\n"


def test_the_openai_agents_editor(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    refused = Editor(root, check_syntax="refuse").update_file(ApplyPatchOperation(type="update_file", path="app.py", diff=V4A))
    assert refused.status == "failed"
    assert refused.output is not None and "app.py:6:" in refused.output
    assert snapshot(root) == before
    done = Editor(root).update_file(ApplyPatchOperation(type="update_file", path="app.py", diff=V4A))
    assert done.status == "completed"
    assert done.output is not None and f"warning: {HEAD}" in done.output


def test_responses_outputs_put_the_warning_on_the_call_that_wrote_the_file(tmp_path: Path) -> None:
    root = _root(tmp_path)
    calls = [
        {"type": "apply_patch_call", "call_id": "c1", "status": "completed",
         "operation": {"type": "update_file", "path": "app.py", "diff": V4A}},
        {"type": "apply_patch_call", "call_id": "c2", "status": "completed",
         "operation": {"type": "update_file", "path": "notes.md", "diff": "@@\n-# notes\n+# Notes\n"}},
    ]  # fmt: skip
    outputs = apply_calls(calls, root)
    assert [o["status"] for o in outputs] == ["completed", "completed"]
    assert f"warning: {HEAD}" in outputs[0]["output"]
    assert "warning" not in outputs[1]["output"]


async def _mcp(root: Path, options: list[str], patch: str) -> tuple[bool, str, Any]:
    server = mcp_server(["serve", "--root", str(root), *options])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("apply_patch", {"patch": patch})
        (content,) = result.content
        assert content.type == "text"
        return bool(result.is_error), content.text, result.structured_content


def test_the_mcp_server(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    is_error, text, document = asyncio.run(_mcp(root, ["--check-syntax", "refuse"], BREAK))
    assert is_error
    assert text.startswith("The patch applies but leaves syntax errors in app.py (Python); it was not applied.")
    assert document["error"]["kind"] == "code_syntax"
    assert snapshot(root) == before
    is_error, text, document = asyncio.run(_mcp(root, [], BREAK))
    assert not is_error
    assert f"warning: {HEAD}" in text and SNIPPET in text
    assert [w["kind"] for w in document["warnings"]] == ["code_syntax"]
