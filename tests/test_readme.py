"""Every Python example in README.md and docs/*.md runs, and prints what the page says.

Each ```python block runs alone, in a fresh namespace and its own empty folder, as a
reader pasting it into an empty folder would run it (names it uses are imported in it,
files it reads are made in it); a block followed directly by a ```text block must print
exactly that text. There is one test per block.
"""

import contextlib
import io
import re
from pathlib import Path

import pytest

from _support import REPO, mcp_server, run_cli

BLOCK = re.compile(r"```(\w+)\n(.*?)```\n", re.S)
PAGES = ["README.md", *sorted(str(path.relative_to(REPO)) for path in (REPO / "docs").glob("*.md"))]
# Examples the pages held when the manual left the README; a page may gain more, never lose one.
AT_LEAST = {
    "README.md": 3, "docs/agents.md": 6, "docs/extraction.md": 2, "docs/making-patches.md": 1,
    "docs/native-tool.md": 5, "docs/edit-formats.md": 6,
}


def _examples(page: str) -> list[tuple[str, str | None]]:
    """The page's python blocks, each with the text block right after it (what it prints), if any."""
    text = (REPO / page).read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    examples = []
    for block, following in zip(blocks, [*blocks[1:], None]):
        if block.group(1) != "python":
            continue
        adjacent = following is not None and text[block.end() : following.start()].strip() == ""
        printed = following.group(2) if adjacent and following and following.group(1) == "text" else None
        examples.append((block.group(2), printed))
    return examples


CASES = [(page, number) for page in PAGES for number in range(1, len(_examples(page)) + 1)]


@pytest.mark.parametrize("page", sorted(AT_LEAST))
def test_pages_keep_their_examples(page: str) -> None:
    assert len(_examples(page)) >= AT_LEAST[page]


@pytest.mark.parametrize(("page", "number"), CASES, ids=[f"{page}:{number}" for page, number in CASES])
def test_python_example_prints_what_the_page_shows(
    page: str, number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # A server an example starts with the MCP SDK gets HOME and little else of the
    # environment (not the suite's state folder): its receipts go to this home, not the
    # real one.
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    code, printed = _examples(page)[number - 1]
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, f"{page} python example {number}", "exec"), {"__name__": "__main__"})
    if printed is not None:
        assert output.getvalue() == printed, f"{page} python example {number}"
    if "stdio_client(" in code:  # the server committed: in the home it was given
        assert list((home / ".local" / "state" / "apply_patch").rglob("*.json"))


def test_readme_says_where_its_first_example_runs() -> None:
    """Its first example writes files: run in the repository it would meet README.md."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    before = text[: text.index("```python")]
    paragraph = before.rstrip().rsplit("\n\n", 1)[-1]
    assert "In an empty folder" in paragraph, paragraph


# The diagnostics example of docs/format.md, made again: the file, then the patch.
GREET = '"""Greetings."""\n\n\ndef greet(name):\n    return "Hello, " + name\n\n\nprint(greet("world"))\n'
GREET_PATCH = (
    "*** Begin Patch\n*** Add File: README.md\n+# demo\n*** Update File: src/greet.py\n@@\n"
    ' def greet(name):\n-    return "Hi, " + name\n+    return f"Hi, {name}!"\n*** End Patch\n'
)


def test_the_diagnostics_example_is_what_the_executable_prints(tmp_path: Path) -> None:
    """docs/format.md shows a failure as the default prints it (paths relative to the root)."""
    text = (REPO / "docs/format.md").read_text(encoding="utf-8")
    section = text[text.index("## Diagnostics") :]
    shown = section[section.index("```\n") + 4 : section.index("\n```", section.index("```\n") + 4)]
    (tmp_path / "src").mkdir()
    (tmp_path / "src/greet.py").write_text(GREET)
    result = run_cli([], tmp_path, stdin=GREET_PATCH.encode())
    assert result.returncode == 1
    printed = [line.rstrip() for line in result.stderr.decode().splitlines()]
    assert printed == [line.rstrip() for line in shown.splitlines()]
    assert (tmp_path / "src/greet.py").read_text() == GREET and not (tmp_path / "README.md").exists()



def test_the_replay_example_is_what_the_executable_prints() -> None:
    """docs/extraction.md shows the stderr of fixtures/extract_apply/011 (run by the
    extraction tests), word for word: paths relative to the root, as the default prints them."""
    text = (REPO / "docs/extraction.md").read_text(encoding="utf-8")
    start = text.index("```\n# patch 2 of 3") + 4
    shown = text[start : text.index("```", start)]
    printed = (REPO / "fixtures/extract_apply/011_stops_at_the_first_failure/stderr.txt").read_text()
    assert shown == printed


def test_the_mcp_configurations_start_the_server(tmp_path: Path) -> None:
    """Each client configuration of docs/agents.md, with its placeholders made real (the
    clone's .venv is the one running these tests), starts a server that answers."""
    import asyncio
    import json
    import sys

    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    text = (REPO / "docs/agents.md").read_text(encoding="utf-8")
    configurations = [b.group(2) for b in BLOCK.finditer(text) if b.group(1) == "json" and "mcpServers" in b.group(2)]
    assert len(configurations) == 2
    venv = str(Path(sys.executable).parent.parent)

    async def tools(command: str, args: list[str]) -> list[str]:
        server = mcp_server(args, command)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return [tool.name for tool in (await session.list_tools()).tools]

    for configuration in configurations:
        real = configuration.replace("/path/to/apply_patch/.venv", venv).replace("/path/to/project", str(tmp_path))
        (entry,) = json.loads(real)["mcpServers"].values()
        assert Path(entry["command"]).is_absolute()
        assert "apply_patch" in asyncio.run(tools(entry["command"], entry["args"])), configuration
