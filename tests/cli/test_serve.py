"""`apply_patch serve`, end to end with the MCP SDK's own client over stdio."""

import asyncio
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from _support import NOTHING_CHANGED, executable, run_cli, snapshot

ADD = "*** Begin Patch\n*** Add File: notes/hello.md\n+# Hello\n*** End Patch\n"


async def _session(root: Path, calls: list[tuple[str, str]]) -> list[tuple[bool, str]]:
    server = StdioServerParameters(command=executable(), args=["serve", "--root", str(root)])
    results = []
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        assert set(tools) == {"apply_patch", "apply_patch_dry_run"}
        assert tools["apply_patch"].input_schema["required"] == ["patch"]
        for name, patch in calls:
            result = await session.call_tool(name, {"patch": patch})
            (content,) = result.content
            assert content.type == "text"
            results.append((result.is_error, content.text))
    return results


def test_tools_apply_check_and_refuse(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    outside = "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch\n"
    broken = "*** Begin Patch\n*** Update File: app.py\n-x = 2\n+x = 3\n*** End Patch\n"
    results = asyncio.run(_session(root, [
        ("apply_patch_dry_run", ADD),
        ("apply_patch", ADD),
        ("apply_patch", broken),
        ("apply_patch", outside),
    ]))
    dry, applied, not_found, escaped = results
    assert dry == (False, (
        "Dry run, nothing was written. The patch applies and would update:\nA notes/hello.md\n"
        "--- /dev/null\n+++ b/notes/hello.md\n@@ -0,0 +1 @@\n+# Hello\n"
    ))
    assert applied == (False, "Success. Updated the following files:\nA notes/hello.md\n")
    sdk = "Error executing tool apply_patch: "  # the SDK's prefix for a tool error
    assert not_found[0] and not_found[1].startswith(f"{sdk}Failed to find expected lines in {root}/app.py:")
    assert not_found[1].endswith(NOTHING_CHANGED.rstrip("\n"))
    assert escaped == (True, (
        f"{sdk}Path '../escape.txt' is outside the root folder {root}: paths must be relative and "
        f"stay inside it\n{NOTHING_CHANGED.rstrip()}"
    ))
    assert sorted(snapshot(tmp_path)) == ["root", "root/app.py", "root/notes", "root/notes/hello.md"]
    assert (root / "notes" / "hello.md").read_text() == "# Hello\n"
    assert (root / "app.py").read_text() == "x = 1\n"


def test_serve_refuses_to_leave_its_root(tmp_path: Path) -> None:
    result = run_cli(["serve", "--outside-root", "allow"], tmp_path)
    assert result.returncode == 2
    assert result.stderr == b"apply_patch serve: the server never writes outside its root folder\n"
    missing = run_cli(["serve", "--root", "nowhere"], tmp_path)
    assert (missing.returncode, missing.stderr) == (
        2, b"apply_patch serve: the root folder nowhere does not exist\n"
    )
