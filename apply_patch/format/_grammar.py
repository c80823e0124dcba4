"""The grammar shipped with the package, and the Lark parser built from it.

`grammar/apply_patch.lark` is the one source of the format. When the package is
built, Lark builds its LALR parser from it and the build saves it with
`Lark.save` beside the grammar (`apply_patch/grammar/apply_patch.lalr`, made by
`hatch_build.py`), headed by the grammar's SHA-256 and the Lark version that
built it. At run time the parser is loaded from there with `Lark.load`; when
the file is missing (a source checkout), was built from another grammar text or
by another Lark, or the installed Lark cannot load it, it is built again from
the grammar in memory: slower, still exact. Nothing is ever read from or
written to a shared folder (Lark's `cache=True` would load a pickle from the
temporary folder without checking who wrote it).
"""

from __future__ import annotations

import hashlib
import os
from typing import BinaryIO, Final

from lark import Lark

GRAMMAR_RESOURCE: Final = "grammar/apply_patch.lark"
PARSER_RESOURCE: Final = "grammar/apply_patch.lalr"
# The grammar's start rules: `start` is the tool's; `patch` what `parse_patch` reads;
# `update_diff` and `create_diff` the native tool's operations (`_operations`).
START_RULES: Final = ("start", "patch", "update_diff", "create_diff")
_HEADER: Final = b"apply_patch LALR parser"
_PACKAGE: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # apply_patch/

_parser: Lark | None = None


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


def build_parser(grammar: str) -> Lark:
    """Lark's LALR parser of `grammar`, with its contextual lexer and every start rule."""
    return Lark(grammar, parser="lalr", lexer="contextual", start=list(START_RULES))


def header(grammar: str) -> bytes:
    """The first line of a saved parser: what it was built from and by."""
    import lark

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()
    return b"%s %s lark %s\n" % (_HEADER, digest.encode(), lark.__version__.encode())


def save_parser(grammar: str, file: BinaryIO) -> None:
    """Write the parser of `grammar` to `file` (the package build does, once)."""
    file.write(header(grammar))
    build_parser(grammar).save(file)


def parser() -> Lark:
    """The parser of the shipped grammar: the saved one if it is of this grammar and this
    Lark and loads, else built now (once per process)."""
    global _parser
    if _parser is None:
        grammar = grammar_text()
        _parser = _saved_parser(grammar) or build_parser(grammar)
    return _parser


def _saved_parser(grammar: str) -> Lark | None:
    """The parser saved in the package, or None when there is none of this grammar and Lark."""
    path = os.path.join(_PACKAGE, PARSER_RESOURCE)
    try:
        with open(path, "rb") as file:
            if file.readline() != header(grammar):
                return None
            return Lark.load(file)
    except Exception:  # missing, or saved by a Lark whose format this one no longer reads
        return None
