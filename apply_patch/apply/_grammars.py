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

from ._languages import GRAMMARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Final

    from tree_sitter import Language, Tree

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


def parse(language: Language, body: bytes) -> Tree | None:
    """`body` parsed with `language`, or None if that took longer than `deadline_ms(body)`."""
    deadline = time.monotonic() + deadline_ms(body) / 1000
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
