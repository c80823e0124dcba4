"""The languages the syntax check and the outlines know: data, one row per grammar.

A file's language comes from its extension, else (a script without one) from the
interpreter its `#!` line names. Each grammar is a package of its own (README,
"Dependencies"), imported only when a file of its language is touched.
"""

from __future__ import annotations

from .._dataclass import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


@dataclass(frozen=True, slots=True)
class Grammar:
    """One language: its name in messages, the package and function giving its grammar,
    and the node types an outline lists (definitions; for data formats, keys), some of
    them only at the top level (a `const` inside a function is no definition to list),
    some only with a body (C's `struct ring *r` names a struct, `struct ring {...}` defines it)."""

    name: str
    package: str
    function: str
    outline: tuple[str, ...]
    top_only: tuple[str, ...] = ()  # of `outline`, the types listed only at the top level
    with_body: tuple[str, ...] = ()  # of `outline`, the types listed only with a body


_C_DEFINITIONS: Final = ("function_definition", "struct_specifier", "enum_specifier", "union_specifier")

GRAMMARS: Final = {
    "python": Grammar(
        "Python", "tree_sitter_python", "language", ("class_definition", "function_definition")
    ),
    "javascript": Grammar(
        "JavaScript", "tree_sitter_javascript", "language",
        ("class_declaration", "function_declaration", "method_definition",
         "generator_function_declaration", "lexical_declaration"),
        ("lexical_declaration",),
    ),  # fmt: skip
    "typescript": Grammar(
        "TypeScript", "tree_sitter_typescript", "language_typescript",
        ("class_declaration", "abstract_class_declaration", "function_declaration",
         "method_definition", "interface_declaration", "type_alias_declaration",
         "enum_declaration", "lexical_declaration", "module"),
        ("lexical_declaration",),
    ),  # fmt: skip
    "tsx": Grammar(
        "TSX", "tree_sitter_typescript", "language_tsx",
        ("class_declaration", "abstract_class_declaration", "function_declaration",
         "method_definition", "interface_declaration", "type_alias_declaration",
         "enum_declaration", "lexical_declaration", "module"),
        ("lexical_declaration",),
    ),  # fmt: skip
    "go": Grammar(
        "Go", "tree_sitter_go", "language",
        ("function_declaration", "method_declaration", "type_declaration"),
    ),  # fmt: skip
    "rust": Grammar(
        "Rust", "tree_sitter_rust", "language",
        ("function_item", "struct_item", "enum_item", "trait_item", "impl_item", "mod_item",
         "macro_definition"),
    ),  # fmt: skip
    "java": Grammar(
        "Java", "tree_sitter_java", "language",
        ("class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
         "method_declaration", "constructor_declaration"),
    ),  # fmt: skip
    "c": Grammar("C", "tree_sitter_c", "language", _C_DEFINITIONS, (), _C_DEFINITIONS[1:]),
    "cpp": Grammar(
        "C++", "tree_sitter_cpp", "language",
        (*_C_DEFINITIONS, "class_specifier", "namespace_definition"),
        (), (*_C_DEFINITIONS[1:], "class_specifier"),
    ),  # fmt: skip
    "bash": Grammar("Bash", "tree_sitter_bash", "language", ("function_definition",)),
    "json": Grammar("JSON", "tree_sitter_json", "language", ("pair",)),
    "yaml": Grammar("YAML", "tree_sitter_yaml", "language", ("block_mapping_pair",)),
    "toml": Grammar("TOML", "tree_sitter_toml", "language", ("table", "table_array_element")),
    "html": Grammar("HTML", "tree_sitter_html", "language", ("element",)),
    "css": Grammar("CSS", "tree_sitter_css", "language", ("rule_set", "media_statement")),
}

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
    body = content.removeprefix(b"\xef\xbb\xbf")
    end = body.find(b"\n")
    return language_of(path, body if end < 0 else body[:end])
