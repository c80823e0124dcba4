"""Small texts, one rule each, through the library's `extract_patches`.

Data: `fixtures/extract_forms/cases.json`. Each row gives a text and what is
found in it, in order: `[line, workdir, source, what]`, where `what` is the
path of the patch's first operation, or `error: ` and the parse error.
"""

import json
from typing import Any

import pytest

from _support import FIXTURES
from apply_patch import BrokenPatch, Extracted, FoundEdits, extract_patches

DATA = json.loads((FIXTURES / "extract_forms" / "cases.json").read_text(encoding="utf-8"))
ROWS: list[dict[str, Any]] = DATA["rows"]


def _expand(text: str) -> str:
    """`<P:name>` → a patch adding the file `name` (four lines)."""
    while "<P:" in text:
        start = text.index("<P:")
        end = text.index(">", start)
        name = text[start + 3 : end]
        patch = f"*** Begin Patch\n*** Add File: {name}\n+x\n*** End Patch"
        text = text[:start] + patch + text[end + 1 :]
    return text


def _what(item: Extracted) -> str:
    if isinstance(item, BrokenPatch):
        return f"error: {item.error.headline}"
    if isinstance(item, FoundEdits):
        return item.edits[0].path
    return item.parsed.operations[0].path


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_form(row: dict[str, Any]) -> None:
    found = extract_patches(_expand(row["text"]))
    assert [[f.line, f.workdir, f.source, _what(f)] for f in found] == row["found"]
    if "patch" in row:
        assert found[0].patch == row["patch"]
