"""`apply_patch serve` without `--root`: the roots the MCP client offers (asked at the first
call, again after `roots/list_changed`), else the current folder; `/` and the home folder
refused unless named with `--root`; the root named in each answer. End to end, with the
`mcp` SDK's own client over stdio (a scripted client: no network, no model)."""

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPDeprecationWarning

import mcp_types as types
from _support import executable, snapshot

pytestmark = pytest.mark.filterwarnings(f"ignore::{MCPDeprecationWarning.__module__}.{MCPDeprecationWarning.__name__}")


def _add(name: str) -> dict[str, Any]:
    return {"patch": f"*** Begin Patch\n*** Add File: {name}\n+hello\n*** End Patch\n"}


Outcome = tuple[bool, str, Any]


async def _session(
    cwd: Path,
    roots: list[list[Path]] | None,
    calls: list[tuple[str, dict[str, Any]]],
    args: tuple[str, ...] = (),
    home: Path | None = None,
) -> list[Outcome]:
    """Run `calls` against a server started in `cwd`; the client offers `roots[0]`, and
    before each later call whose index has a list in `roots`, says they changed to it."""
    env = {**os.environ, **({"HOME": str(home)} if home is not None else {})}
    server = StdioServerParameters(command=executable(), args=["serve", *args], cwd=str(cwd), env=env)
    offered = [list(roots[0])] if roots else []

    async def list_roots(context: Any) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root.model_validate({"uri": folder.as_uri()}) for folder in offered[0]])

    callback = list_roots if roots is not None else None
    results: list[Outcome] = []
    async with stdio_client(server) as (read, write), ClientSession(read, write, list_roots_callback=callback) as session:
        await session.initialize()
        for index, (name, arguments) in enumerate(calls):
            if roots is not None and 0 < index < len(roots) and roots[index] != offered[0]:
                offered[0] = list(roots[index])
                await session.send_roots_list_changed()
            result = await session.call_tool(name, arguments)
            (content,) = result.content
            assert content.type == "text"
            results.append((bool(result.is_error), content.text, result.structured_content))
    return results


def _run(*args: Any, **kwargs: Any) -> list[Outcome]:
    return asyncio.run(_session(*args, **kwargs))


def _folders(tmp_path: Path, *names: str) -> list[Path]:
    folders = [tmp_path / name for name in names]
    for folder in folders:
        folder.mkdir()
    return folders


def test_the_clients_root_is_used_and_named(tmp_path: Path) -> None:
    project, other, elsewhere = _folders(tmp_path, "project", "other", "elsewhere")
    [added] = _run(elsewhere, [[project, other]], [("apply_patch", _add("a.txt"))])
    assert added[0] is False
    assert added[1] == (
        "Success. Updated the following files:\nA a.txt\n"
        f"Root folder: {project} (the first root the client offers)."
    )
    assert added[2]["root"] == str(project) and added[2]["ok"] is True
    assert (project / "a.txt").read_text() == "hello\n"
    assert snapshot(elsewhere) == {} and snapshot(other) == {}


def test_the_roots_are_asked_again_when_they_change(tmp_path: Path) -> None:
    first, second, elsewhere = _folders(tmp_path, "first", "second", "elsewhere")
    results = _run(elsewhere, [[first], [first], [second]], [
        ("apply_patch", _add("one.txt")), ("apply_patch", _add("two.txt")), ("apply_patch", _add("three.txt")),
    ])  # fmt: skip
    assert [error for error, _, _ in results] == [False, False, False]
    assert sorted(snapshot(first)) == ["one.txt", "two.txt"] and sorted(snapshot(second)) == ["three.txt"]
    assert results[2][2]["root"] == str(second)


def test_a_path_outside_every_root_is_refused(tmp_path: Path) -> None:
    project, other, elsewhere = _folders(tmp_path, "project", "other", "elsewhere")
    before = snapshot(tmp_path)
    for patch in (_add("../other/x.txt"), _add(str(other / "x.txt")), _add("../elsewhere/x.txt")):
        [refused] = _run(elsewhere, [[project, other]], [("apply_patch", patch)])
        assert refused[0] is True and "outside the root folder" in refused[1], refused[1]
        assert refused[1].endswith(f"Root folder: {project} (the first root the client offers).")
    assert snapshot(tmp_path) == before


def test_without_roots_the_current_folder_is_used_and_named(tmp_path: Path) -> None:
    [here] = _folders(tmp_path, "here")
    [added] = _run(here, None, [("apply_patch", _add("a.txt"))])
    assert added[0] is False and added[1].endswith(
        f"Root folder: {here} (the server's current folder; the client offers no root)."
    )
    assert (here / "a.txt").exists()


@pytest.mark.parametrize("where", ["home", "disk"])
def test_the_home_folder_and_the_disk_are_refused_unless_named(where: str, tmp_path: Path) -> None:
    [home] = _folders(tmp_path, "home")
    cwd = home if where == "home" else Path("/")
    before = snapshot(tmp_path)
    [refused] = _run(cwd, None, [("apply_patch_dry_run", _add("a.txt"))], home=home)
    assert refused[0] is True and "Start the server with --root DIR" in refused[1]
    [offered] = _run(tmp_path, [[cwd]], [("apply_patch_dry_run", _add("a.txt"))], home=home)
    assert offered[0] is True and "--root DIR" in offered[1]
    assert snapshot(tmp_path) == before
    if where == "home":  # named: allowed, and not named again in the answer
        [named] = _run(tmp_path, None, [("apply_patch", _add("a.txt"))], ("--root", str(home)), home=home)
        assert named[:2] == (False, "Success. Updated the following files:\nA a.txt\n")
        assert "root" not in named[2]
        assert (home / "a.txt").exists()
