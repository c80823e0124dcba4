"""The grammar shipped with the package, and the LALR tables Lark built from it.

The parser runs tables that Lark built from `grammar/apply_patch.lark` at
development time (`_tables.py`, `make tables`), so parsing never imports lark.
If the grammar no longer matches them (edited without `make tables`), the
tables are built again with Lark when first needed: slower, still exact.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._lalr import Tables

GRAMMAR_RESOURCE = "grammar/apply_patch.lark"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # apply_patch/

_tables: Tables | None = None


def grammar_text() -> str:
    """The text of `grammar/apply_patch.lark`, the single source of truth for the format.

    Installed, it is package data (`apply_patch/grammar/`); in a source checkout
    that was not installed, it is read from the repository's `grammar/` folder.
    """
    for folder in (_PACKAGE, os.path.dirname(_PACKAGE)):
        path = os.path.join(folder, GRAMMAR_RESOURCE)
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as file:
                return file.read()
    from importlib import resources  # a package inside a zip file

    return resources.files("apply_patch").joinpath(GRAMMAR_RESOURCE).read_text(encoding="utf-8")


def tables() -> Tables:
    """The LALR tables of the grammar: the shipped ones if up to date, else built now."""
    global _tables
    if _tables is None:
        from ._tables import TABLES

        grammar = grammar_text()
        if TABLES["grammar"] == grammar:
            _tables = TABLES
        else:
            from ._tablegen import build

            _tables = build(grammar)
    return _tables
