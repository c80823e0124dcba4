"""`view` without a range of a file over the answer's budget: its outline (definitions and
their lines, from the syntax check's grammars) and how to ask for lines; a file of no
known language (or too big to parse) gets its first lines and how many are left."""

import asyncio
import shutil
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from _support import FIXTURES, mcp_server
from apply_patch.anthropic import TextEditor

SYNTAX = FIXTURES / "syntax"

INVENTORY = """\
inventory.py has 48 lines, more than one answer holds (500 characters): here is its outline, \
each definition with its lines. View the lines you need with view_range, e.g. [12, 20].
12-20: class Item:
  19-20: def needs_reorder(self) -> bool:
23-44: class Inventory:
  24-25: def __init__(self, items: Iterable[Item] = ()) -> None:
  27-30: def add(self, item: Item) -> None:
  32-38: def take(self, sku: str, count: int) -> int:
  40-44: def to_reorder(self) -> list[Item]:
47-48: def load(rows: Iterable[dict[str, str]]) -> Inventory:"""


def _view(root: Path, path: str, budget: int, **more: object) -> str:
    answer = TextEditor(root, max_characters=budget).run({"command": "view", "path": path, **more})
    assert answer["is_error"] is False
    content = answer["content"]
    assert isinstance(content, str)
    return content


def test_a_big_file_is_shown_as_its_outline(tmp_path: Path) -> None:
    shutil.copy(SYNTAX / "inventory.py", tmp_path)
    assert _view(tmp_path, "inventory.py", 500) == INVENTORY
    # The range the outline suggests shows those lines, as any range does.
    assert _view(tmp_path, "inventory.py", 500, view_range=[12, 20]).splitlines()[0] == "12: @dataclasses.dataclass"
    # Within the budget, the file itself.
    assert _view(tmp_path, "inventory.py", 50_000).startswith('1: """A small inventory service')


OUTLINES = {
    "server.go": ["10-13: type Store struct {", "15-17: func NewStore() *Store {"],
    "parser.rs": ["5-9: pub enum Value {", "11-22: impl fmt::Display for Value {",
                  "  12-21: fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {"],
    "Account.java": ["7-41: public class Account {", "  12-14: public Account(String owner) {"],
    "ring.c": ["6-11: struct ring {", "13-26: struct ring *ring_new(size_t capacity)"],
    "cart.js": ["3: const TAX_RATE = 0.2;", "5-29: class Cart {", "  6-9: constructor(customer) {"],
    "client.ts": ["3-8: interface RequestOptions {"],
    "deploy.sh": ["7-9: log() {", "11-14: build() {"],
    "package.json": ['2: "name": "storefront"', '3: "version": "2.4.1"', '4: "private": true', '5-9: "scripts": {'],
    "config.toml": ["3-7: [server]", "8-12: [database]"],
    "site.css": ["1-4: :root {", "6-10: body {"],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(OUTLINES))
def test_outlines_of_other_languages(name: str, tmp_path: Path) -> None:
    shutil.copy(SYNTAX / name, tmp_path)
    lines = _view(tmp_path, name, min(400, (SYNTAX / name).stat().st_size)).splitlines()
    assert lines[0].startswith(f"{name} has ")
    assert lines[1 : 1 + len(OUTLINES[name])] == OUTLINES[name]


def test_a_file_of_no_known_language_shows_its_first_lines(tmp_path: Path) -> None:
    (tmp_path / "app.rb").write_text("".join(f"def m{n}\n  {n}\nend\n" for n in range(100)))
    assert _view(tmp_path, "app.rb", 40) == (
        "1: def m0\n2:   0\n3: end\n4: def m1\n5:   1\n"
        "[Truncated at 40 characters: 295 more lines; view them with view_range.]"
    )


def test_a_file_too_big_to_parse_shows_its_first_lines(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("def f():\n    pass\n" * 60_000)  # 1.1 MB
    assert _view(tmp_path, "big.py", 30) == (
        "1: def f():\n2:     pass\n"
        "[Truncated at 30 characters: 119998 more lines; view them with view_range.]"
    )


async def _mcp_view(root: Path, path: str = "inventory.py") -> str:
    server = mcp_server(["serve", "--root", str(root), "--max-characters", "500"])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("str_replace_based_edit_tool", {"command": "view", "path": path})
        (content,) = result.content
        assert content.type == "text" and not result.is_error
        return content.text


def test_the_mcp_servers_view_answers_with_the_outline(tmp_path: Path) -> None:
    shutil.copy(SYNTAX / "inventory.py", tmp_path)
    assert asyncio.run(_mcp_view(tmp_path)) == INVENTORY


def test_the_mcp_servers_view_of_a_deeply_nested_file_answers(tmp_path: Path) -> None:
    # Issue 33: the outline's recursion raised RecursionError, a traceback in the server.
    depth = 20_000
    (tmp_path / "deep.json").write_bytes(b'{"a": ' * depth + b"1" + b"}" * depth + b"\n")
    assert asyncio.run(_mcp_view(tmp_path, "deep.json")).startswith("deep.json has 1 lines")
