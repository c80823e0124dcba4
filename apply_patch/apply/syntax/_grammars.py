"""The door to the tree-sitter grammars: a language's grammar loaded once, and a parse
kept within a deadline.

Start-up time: the packages' `__init__` modules import `typing` (`tree_sitter`) and
`importlib.resources` (each grammar), 10 to 30 ms together, for names the check never
uses. Their compiled `_binding` modules are all it needs, so they are loaded straight
from their files (and registered in `sys.modules` under their own names, so that a later
`import tree_sitter` uses the same one); if that fails, the packages are imported as usual.
"""

from __future__ import annotations

import sys
import time

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final

    from tree_sitter import Language, Tree


# The languages' rows, by the names `_languages` gives files.
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


DEADLINE_MS: Final = 200
# Then so much per MB: tree-sitter parses a MB of ordinary code in 0.1 to 0.8 s on this
# project's 2-core machine under load.
MS_PER_MB: Final = 2000

_LOADED: dict[str, Language | str] = {}


def grammar_of(language: str) -> Language | str:
    """The grammar of `language` (a key of `GRAMMARS`), loaded once; a note saying why
    not if it cannot be (not installed, or a version this tree-sitter cannot load)."""
    found = _LOADED.get(language)
    if found is None:
        found = _LOADED[language] = _load(language)
    return found


def _load(language: str) -> Language | str:
    row = GRAMMARS[language]
    try:
        binding = _binding("tree_sitter")
        module = _binding(row.package)
        return binding.Language(getattr(module, row.function)())  # type: ignore[no-any-return]
    except ImportError:
        return f"no {row.name} grammar (pip install {row.package.replace('_', '-')})"
    except (ValueError, AttributeError, TypeError) as exc:
        return f"the {row.name} grammar does not load ({exc})"


def _binding(package: str) -> ModuleType:
    """`package._binding`, the compiled module, without running `package/__init__.py`."""
    name = f"{package}._binding"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    import importlib.machinery as machinery
    import os

    spec = machinery.PathFinder.find_spec(package)
    folders = [] if spec is None else list(spec.submodule_search_locations or ())
    for folder in folders:
        for suffix in machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_binding" + suffix)
            if os.path.isfile(path):
                loader = machinery.ExtensionFileLoader(name, path)
                module = loader.create_module(machinery.ModuleSpec(name, loader, origin=path))
                sys.modules[name] = module
                loader.exec_module(module)
                return module
    import importlib  # not laid out as expected: the usual way

    return importlib.import_module(name)


def parse(language: Language, body: bytes, deadline: float | None = None) -> Tree | None:
    """`body` parsed with `language`, or None if that took longer than `deadline_ms(body)`
    or went past `deadline` (a `time.monotonic()` value: the whole call's, when given)."""
    own = time.monotonic() + deadline_ms(body) / 1000
    deadline = own if deadline is None else min(own, deadline)
    step = 1 << 16

    def read(offset: int, _: object) -> bytes:
        return body[offset : offset + step]

    def late(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > deadline

    try:
        parser = _binding("tree_sitter").Parser(language)
        return parser.parse(read, progress_callback=late)  # type: ignore[no-any-return]
    except ValueError:  # tree-sitter's "Parsing failed": cancelled by `late`
        return None


def deadline_ms(body: bytes) -> int:
    """How long a parse of `body` may take."""
    return DEADLINE_MS + MS_PER_MB * len(body) // 1_000_000
