"""A file's outline: its definitions (classes, functions, methods; for data formats, keys)
with their line ranges, from the grammar the syntax check uses (pure).

What `view` shows of a file too big for one answer, so that the model asks for the
lines it needs instead of reading a cut-off beginning.
"""

from __future__ import annotations

from ._grammars import GRAMMARS, grammar_of, parse
from ._languages import language_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node

    from ._grammars import Grammar

OUTLINE_BYTES: Final = 1_000_000  # as the syntax check: a bigger file gets no outline
DEPTH: Final = 2  # definitions inside definitions: classes and their methods, not deeper
MOST: Final = 2000  # entries at most (the answer's budget cuts long before)
_HEAD: Final = 100  # characters of a definition's first line shown


def outline(path: str, data: bytes) -> list[str] | None:
    """One line per definition of `data` (the file at `path`), `start-end: first line`,
    indented by nesting; None when the language is not known, its grammar not
    installed, the file over `OUTLINE_BYTES`, its parse too slow, or nothing is defined."""
    body = data.removeprefix(b"\xef\xbb\xbf")
    language = language_of(path, body[: body.find(b"\n")] if b"\n" in body else body)
    if language is None or len(data) > OUTLINE_BYTES or b"\0" in body[:8192]:
        return None
    loaded = grammar_of(language)
    if isinstance(loaded, str):
        return None
    tree = parse(loaded, body)
    if tree is None:
        return None
    row = GRAMMARS[language]
    entries: list[str] = []
    _walk(tree.root_node, 0, row, entries)
    return entries or None


def _walk(node: Node, depth: int, row: Grammar, entries: list[str]) -> None:
    for child in node.named_children:
        if len(entries) >= MOST:
            return
        if _listed(child, depth, row):
            entries.append(_entry(child, depth))
            if depth + 1 < DEPTH:
                _walk(child, depth + 1, row, entries)
        elif child.named_child_count:
            _walk(child, depth, row, entries)


def _listed(node: Node, depth: int, row: Grammar) -> bool:
    kind = node.type
    if kind not in row.outline or (depth and kind in row.top_only):
        return False
    return kind not in row.with_body or node.child_by_field_name("body") is not None


def _entry(node: Node, depth: int) -> str:
    from .._errors import escaped

    head = (node.text or b"").split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    if len(head) > _HEAD:
        head = head[: _HEAD - 3] + "..."
    wrapper = node.parent  # Python's decorators wrap their definition: its lines start with them
    top = wrapper if wrapper is not None and wrapper.type == "decorated_definition" else node
    start, end = top.start_point.row + 1, node.end_point.row + 1
    if node.end_point.column == 0 and end > start:
        end -= 1  # a node ending with its line break ends on the line before
    lines = str(start) if start == end else f"{start}-{end}"
    return f"{'  ' * depth}{lines}: {escaped(head, keep=chr(9))}"
