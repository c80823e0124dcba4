"""The only door to tree-sitter-bash: shell text → syntax tree, and the values of its nodes.

`tree_sitter` is imported on the first call to `parse`, never at import time,
so applying a plain patch does not load it (only extraction does).

Helpers here are static: they give what the shell itself would see for a
node (quotes removed, escapes decoded, a heredoc's lines), or None when the
value depends on an expansion (`$VAR`, `$(...)`, globs are kept literally).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

    from tree_sitter import Node, Parser

# Nodes whose text is a literal value once quotes and escapes are handled.
_LITERAL_LEAVES: Final = frozenset({"word", "number", "raw_string", "string", "ansi_c_string"})
# In double quotes a backslash only escapes these (and a newline, which it removes).
_DOUBLE_QUOTED_ESCAPE: Final = re.compile(r"\\([$`\"\\\n])")
_UNQUOTED_ESCAPE: Final = re.compile(r"\\(.)", re.DOTALL)
_ANSI_C_ESCAPE: Final = re.compile(
    r"\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)", re.DOTALL
)
_ANSI_C_SIMPLE: Final = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
    "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip


@functools.cache
def _parser() -> Parser:
    # Imported here, not at the top: only extraction pays for tree-sitter.
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse(text: str) -> Node:
    """The root (`program`) node of `text` parsed as bash; never raises.

    Invalid regions show up as ERROR or MISSING nodes (`has_error`).
    """
    return _parser().parse(text.encode("utf-8", "surrogatepass")).root_node


def text_of(node: Node) -> str:
    """The node's source text."""
    return decode(node.text or b"")


def decode(source: bytes) -> str:
    """Source bytes (as given to `parse`) → text."""
    return source.decode("utf-8", "surrogatepass")


def literal(node: Node) -> str | None:
    """The value the shell gives a word, or None if it depends on an expansion.

    `'a b'` → `a b`; `"a \\"b\\""` → `a "b"`; `a\\ b` → `a b`; `$'a\\nb'` → a,
    newline, b; `'a'"b"c` → `abc`; `$HOME`, `"$x"`, `$(cmd)` → None.
    """
    if node.type == "concatenation":
        parts = [literal(child) for child in node.named_children]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if node.type not in _LITERAL_LEAVES:
        return None
    if node.type == "string" and any(c.type != "string_content" for c in node.named_children):
        return None
    return _decode_quoted(node.type, text_of(node))


def _decode_quoted(kind: str, text: str) -> str:
    """The value of the literal `text` of a node of type `kind` (see `literal`)."""
    if kind == "raw_string":
        return text[1:-1]
    if kind == "string":
        return decode_double_quoted(text[1:-1])
    if kind == "ansi_c_string":
        return _ANSI_C_ESCAPE.sub(_ansi_c, text[2:-1])
    return _UNQUOTED_ESCAPE.sub(_escaped, text)


def decode_double_quoted(text: str) -> str:
    r"""Text between double quotes → its value: `\$`, `\``, `\"`, `\\` lose the backslash;
    a backslash before a newline goes with it."""
    return _DOUBLE_QUOTED_ESCAPE.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    return "" if match.group(1) == "\n" else match.group(1)


def _ansi_c(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "xuU":
        value = int(code[1:], 16)
        return chr(value) if value <= 0x10FFFF else match.group(0)
    if code[0].isdigit():
        return chr(int(code, 8))
    if code[0] == "c":
        return chr(ord(code[1].upper()) ^ 0x40)
    return _ANSI_C_SIMPLE.get(code, "\\" + code)


def heredoc_text(redirect: Node, lines: Sequence[str]) -> str:
    """The text a `heredoc_redirect` feeds to its command, as the shell would.

    `lines` are the lines of the parsed text. The body is taken by whole
    lines (tree-sitter shifts `<<-` bodies by one tab); with `<<-` leading tabs
    are stripped. Expansions in an unquoted body are kept as written.
    """
    body = next((c for c in redirect.named_children if c.type == "heredoc_body"), None)
    end = next((c for c in redirect.named_children if c.type == "heredoc_end"), None)
    if end is None:
        return ""
    first = body.start_point.row if body is not None else end.start_point.row
    taken = lines[first : end.start_point.row]
    if any(child.type == "<<-" for child in redirect.children):
        taken = [line.lstrip("\t") for line in taken]
    return "".join(line + "\n" for line in taken)


def literal_rows(node: Node) -> Iterator[int]:
    """Rows inside heredoc bodies and multi-line quoted strings (they are data, not commands)."""
    yield from heredoc_rows(node)
    yield from _string_rows(node)


def heredoc_rows(node: Node) -> Iterator[int]:
    """Rows inside heredoc bodies."""
    for found in _nodes_of(node, ("heredoc_body",)):
        yield from range(found.start_point.row, found.end_point.row)


def _nodes_of(node: Node, types: tuple[str, ...]) -> Iterator[Node]:
    """The outermost nodes of `types` under `node`, in order (a loop: nesting may be deep)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in types:
            yield current
        else:
            stack.extend(reversed(current.children))


def _string_rows(node: Node) -> Iterator[int]:
    for found in _nodes_of(node, ("raw_string", "string", "ansi_c_string")):
        yield from range(found.start_point.row + 1, found.end_point.row + 1)
