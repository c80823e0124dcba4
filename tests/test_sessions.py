"""Editor sessions (issue #26): no edit on a stale view, `undo_edit`, the MCP `undo` tool.

Each editor remembers what the model last viewed or wrote of each file; an edit to a
file changed since by anyone else is refused with one line, and nothing changes.
"""

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from _support import mcp_server, snapshot
from apply_patch import PolicyValueError
from apply_patch.anthropic import TOOL_TYPES, TextEditor
from apply_patch.openai_agents import Editor

STALE = "was changed on disk since you last viewed it: view it again, then redo the edit on what it holds now"


def test_an_edit_after_an_outside_change_is_refused_until_viewed_again(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\ny = 2\n")
    editor = TextEditor(tmp_path)
    assert not editor.run({"command": "view", "path": "a.py", "view_range": [1, 1]})["is_error"]
    (tmp_path / "a.py").write_text("x = 1\ny = 20\n")  # someone else
    before = snapshot(tmp_path)
    answer = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 5"})
    assert answer == {"content": f"Error: a.py {STALE}", "is_error": True}
    assert snapshot(tmp_path) == before
    editor.run({"command": "view", "path": "a.py"})
    answer = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 5"})
    assert not answer["is_error"], answer
    assert (tmp_path / "a.py").read_text() == "x = 5\ny = 20\n"


def test_the_editor_s_own_edits_and_unviewed_files_are_not_stale(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "b.py").write_text("b = 1\n")
    editor = TextEditor(tmp_path)
    editor.run({"command": "view", "path": "a.py"})
    for new in ("x = 2", "x = 3"):
        answer = editor.run({"command": "str_replace", "path": "a.py", "old_str": new[:-1] + str(int(new[-1]) - 1), "new_str": new})
        assert not answer["is_error"], answer
    assert not editor.run({"command": "insert", "path": "b.py", "insert_line": 1, "new_str": "c = 2\n"})["is_error"]
    (tmp_path / "a.py").write_text("changed\n")
    assert editor.run({"command": "insert", "path": "a.py", "insert_line": 0, "new_str": "# top\n"})["content"] == f"Error: a.py {STALE}"


def test_the_stale_check_can_be_turned_off(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    editor = TextEditor(tmp_path, stale_check=False)
    editor.run({"command": "view", "path": "a.py"})
    (tmp_path / "a.py").write_text("x = 1\nz = 0\n")
    assert not editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 2"})["is_error"]


class _Op:
    def __init__(self, type: str, path: str, diff: str = "") -> None:
        self.type, self.path, self.diff = type, path, diff


def test_the_agents_editor_refuses_an_edit_to_a_file_changed_since_it_wrote_it(tmp_path: Path) -> None:
    editor = Editor(tmp_path)
    assert editor.apply(_Op("create_file", "n.txt", "+one\n")).status == "completed"
    assert editor.apply(_Op("update_file", "n.txt", "@@\n-one\n+two\n")).status == "completed"
    (tmp_path / "n.txt").write_text("two\nthree\n")
    before = snapshot(tmp_path)
    refused = editor.apply(_Op("update_file", "n.txt", "@@\n-two\n+TWO\n"))
    assert refused.status == "failed" and f"n.txt {STALE}" in str(refused.output)
    assert snapshot(tmp_path) == before
    assert Editor(tmp_path, stale_check=False).apply(_Op("update_file", "n.txt", "@@\n-two\n+TWO\n")).status == "completed"


@pytest.mark.parametrize("tool_type", [t for t, (_, undo, _) in TOOL_TYPES.items() if undo])
def test_undo_edit_of_the_older_tool_versions(tmp_path: Path, tool_type: str) -> None:
    (tmp_path / "f.txt").write_bytes(b"Original content\r\n")
    first = snapshot(tmp_path)
    editor = TextEditor(tmp_path, tool_type=tool_type)
    assert editor.definition == {"type": tool_type, "name": "str_replace_editor"}
    assert "No edit history found for f.txt." in editor.run({"command": "undo_edit", "path": "f.txt"})["content"]
    editor.run({"command": "str_replace", "path": "f.txt", "old_str": "Original", "new_str": "New"})
    second = snapshot(tmp_path)
    editor.run({"command": "insert", "path": "f.txt", "insert_line": 1, "new_str": "Line 2"})
    answer = editor.run({"command": "undo_edit", "path": "f.txt"})
    assert answer["content"].startswith("Last edit to f.txt undone successfully.\n"), answer
    assert snapshot(tmp_path) == second
    editor.run({"command": "undo_edit", "path": "f.txt"})
    assert snapshot(tmp_path) == first
    editor.run({"command": "str_replace", "path": "f.txt", "old_str": "Original", "new_str": "Again"})
    (tmp_path / "f.txt").write_text("by hand\n")
    changed = snapshot(tmp_path)
    refused = editor.run({"command": "undo_edit", "path": "f.txt"})
    assert refused["is_error"] and "changed since it was applied: f.txt" in refused["content"]
    assert snapshot(tmp_path) == changed


def test_the_current_tool_versions_have_no_undo_edit(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x\n")
    for tool_type in ("text_editor_20250728", "text_editor_20250429"):
        answer = TextEditor(tmp_path, tool_type=tool_type).run({"command": "undo_edit", "path": "f.txt"})
        assert answer["content"].startswith("Error: Unknown command 'undo_edit'"), answer
    with pytest.raises(PolicyValueError, match="Unknown tool_type"):
        TextEditor(tmp_path, tool_type="text_editor_2099")


async def _mcp(root: Path, calls: list[tuple[str, dict[str, Any]]], *options: str) -> list[tuple[bool, str, Any]]:
    server = mcp_server(["serve", "--root", str(root), *options])
    results = []
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for name, arguments in calls:
            if name == "touch":  # someone else writes between two calls
                (root / arguments["path"]).write_text(arguments["text"])
                continue
            result = await session.call_tool(name, arguments)
            (content,) = result.content
            assert content.type == "text"
            results.append((bool(result.is_error), content.text, result.structured_content))
    return results


def test_the_mcp_server_is_a_session_with_undo(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")
    first = snapshot(tmp_path)
    patch = "*** Begin Patch\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"
    view = ("str_replace_based_edit_tool", {"command": "view", "path": "app.py"})
    edit = ("str_replace_based_edit_tool", {"command": "str_replace", "path": "app.py", "old_str": "x = 2", "new_str": "x = 3"})
    outcomes = asyncio.run(_mcp(tmp_path, [
        view,
        ("apply_patch", {"patch": patch}),
        edit,  # after the session's own patch: not stale
        ("touch", {"path": "app.py", "text": "x = 3\n# by hand\n"}),
        ("str_replace_based_edit_tool", {"command": "str_replace", "path": "app.py", "old_str": "x = 3", "new_str": "x = 4"}),
        ("undo", {}),  # the edit: app.py changed since
        ("touch", {"path": "app.py", "text": "x = 3\n"}),
        ("undo", {}),
        ("undo", {}),
        ("undo", {"receipt": 7}),
    ]))
    assert [o[0] for o in outcomes] == [False, False, False, True, True, False, False, True]
    receipt = outcomes[1][2]["receipt"]
    assert outcomes[3][1] == f"Error: app.py {STALE}"
    assert "changed since it was applied: app.py" in outcomes[4][1]
    assert outcomes[5][1].startswith("Undid ") and outcomes[6][1].startswith(f"Undid {receipt}.")
    assert outcomes[7][1] == "undo takes one optional argument, 'receipt' (a receipt id string)."
    assert snapshot(tmp_path) == first


def test_the_mcp_stale_check_can_be_turned_off(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")
    outcomes = asyncio.run(_mcp(tmp_path, [
        ("str_replace_based_edit_tool", {"command": "view", "path": "app.py"}),
        ("touch", {"path": "app.py", "text": "x = 1\ny = 2\n"}),
        ("str_replace_based_edit_tool", {"command": "str_replace", "path": "app.py", "old_str": "x = 1", "new_str": "x = 0"}),
    ], "--no-stale-check"))
    assert [o[0] for o in outcomes] == [False, False]
    assert (tmp_path / "app.py").read_text() == "x = 0\ny = 2\n"
