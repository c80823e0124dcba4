"""A file's outline: its definitions (classes, functions, methods; for data formats, keys)
with their line ranges, from the grammar the syntax check uses (pure).

What `view` shows of a file too big for one answer, so that the model asks for the
lines it needs instead of reading a cut-off beginning. The parse and the walk share one
deadline (`SECONDS`); the walk keeps its own stack (a deeply nested file meets no
recursion limit) and reads a bounded start of each definition.
"""

from __future__ import annotations

import time

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
SECONDS: Final = 2.0  # the parse and the walk of one outline, at most (then none)
_CHECK_EVERY: Final = 1024  # nodes walked between two looks at the clock


def outline(path: str, data: bytes, deadline: float | None = None) -> list[str] | None:
    """One line per definition of `data` (the file at `path`), `start-end: first line`,
    indented by nesting; None when the language is not known, its grammar not
    installed, the file over `OUTLINE_BYTES`, its parse and walk past `deadline` (a
    `time.monotonic()` value; default `SECONDS` from now), or nothing is defined."""
    if deadline is None:
        deadline = time.monotonic() + SECONDS
    body = data.removeprefix(b"\xef\xbb\xbf")
    language = language_of(path, body[: body.find(b"\n")] if b"\n" in body else body)
    if language is None or len(data) > OUTLINE_BYTES or b"\0" in body[:8192]:
        return None
    loaded = grammar_of(language)
    if isinstance(loaded, str):
        return None
    if time.monotonic() > deadline:
        return None
    tree = parse(loaded, body, deadline)
    if tree is None:
        return None
    return _walk(tree.root_node, GRAMMARS[language], body, deadline) or None


def _walk(root: Node, row: Grammar, body: bytes, deadline: float) -> list[str] | None:
    """The entries under `root` in document order (depth first, with a stack of its own);
    None past `deadline`."""
    entries: list[str] = []
    stack = [(child, 0) for child in reversed(root.named_children)]
    walked = 0
    while stack and len(entries) < MOST:
        walked += 1
        if walked % _CHECK_EVERY == 0 and time.monotonic() > deadline:
            return None
        node, depth = stack.pop()
        if _listed(node, depth, row):
            entries.append(_entry(node, depth, body))
            if depth + 1 < DEPTH:
                stack.extend((child, depth + 1) for child in reversed(node.named_children))
        elif node.named_child_count:
            stack.extend((child, depth) for child in reversed(node.named_children))
    return entries


def _listed(node: Node, depth: int, row: Grammar) -> bool:
    kind = node.type
    if kind not in row.outline or (depth and kind in row.top_only):
        return False
    return kind not in row.with_body or node.child_by_field_name("body") is not None


def _entry(node: Node, depth: int, body: bytes) -> str:
    from ..._errors import escaped

    start_byte = node.start_byte  # its first line's start only: a definition may be the whole file
    first = body[start_byte : min(node.end_byte, start_byte + 4 * _HEAD + 4)]
    head = first.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    if len(head) > _HEAD:
        head = head[: _HEAD - 3] + "..."
    wrapper = node.parent  # Python's decorators wrap their definition: its lines start with them
    top = wrapper if wrapper is not None and wrapper.type == "decorated_definition" else node
    start, end = top.start_point.row + 1, node.end_point.row + 1
    if node.end_point.column == 0 and end > start:
        end -= 1  # a node ending with its line break ends on the line before
    lines = str(start) if start == end else f"{start}-{end}"
    return f"{'  ' * depth}{lines}: {escaped(head, keep=chr(9))}"
