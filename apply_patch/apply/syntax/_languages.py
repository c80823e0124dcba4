"""The languages the syntax check and the outlines know, by a file's name: data.

A file's language comes from its extension, else (a script without one) from the
interpreter its `#!` line names. Each language's grammar (`_grammars.GRAMMARS`, one
row each) is a package of its own (README, "Dependencies"), imported only when a file
of its language is touched; the rows live there, not here, because every plan asks a
changed file's language and only a known one needs them (start-up time).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


# `.h` is C++'s: C++ parses nearly all C, C parses no class or template.
EXTENSIONS: Final = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "cpp", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
    ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".h++": "cpp",
    ".sh": "bash", ".bash": "bash",
    ".json": "json",
    ".yaml": "yaml", ".yml": "yaml",
    ".toml": "toml",
    ".html": "html", ".htm": "html",
    ".css": "css",
}  # fmt: skip

# Interpreters of a `#!` line, version digits removed (`python3.12` → `python`).
INTERPRETERS: Final = {
    "python": "python",
    "bash": "bash", "sh": "bash", "dash": "bash",
    "node": "javascript", "nodejs": "javascript",
    "ts-node": "typescript", "deno": "typescript",
}  # fmt: skip


def language_of(path: str, first_line: bytes) -> str | None:
    """The language of the file at `path` whose first line is `first_line`, or None.

    The extension decides; a file without a known one is a script of the
    interpreter its `#!` line names (`#!/usr/bin/env python3`), if known.
    """
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot > 0:
        known = EXTENSIONS.get(name[dot:].lower())
        if known is not None:
            return known
    if not first_line.startswith(b"#!"):
        return None
    words = first_line[2:].decode("utf-8", "replace").split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words = [word for word in words[1:] if not word.startswith("-") and "=" not in word]
    if not words:
        return None
    return INTERPRETERS.get(words[0].rsplit("/", 1)[-1].rstrip("0123456789."))


def language_of_content(path: str, content: bytes) -> str | None:
    """`language_of` the file at `path` holding `content` (a UTF-8 byte-order mark left out)."""
    if not content.startswith((b"#!", b"\xef\xbb\xbf#!")):
        return language_of(path, b"")  # by its name alone (no copy of its first line)
    body = content.removeprefix(b"\xef\xbb\xbf")
    end = body.find(b"\n")
    return language_of(path, body if end < 0 else body[:end])
