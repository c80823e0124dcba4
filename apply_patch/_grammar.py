"""Loads the Lark grammar shipped with the package and builds the LALR parser once."""

import functools
from importlib import resources
from pathlib import Path

from lark import Lark, Transformer

GRAMMAR_RESOURCE = "grammar/apply_patch.lark"


def grammar_text() -> str:
    """The text of `grammar/apply_patch.lark`, the single source of truth for the format.

    Installed, it is package data (`apply_patch/grammar/`); in a source checkout
    that was not installed, it is read from the repository's `grammar/` folder.
    """
    shipped = resources.files("apply_patch").joinpath(GRAMMAR_RESOURCE)
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parent.parent / GRAMMAR_RESOURCE).read_text(encoding="utf-8")


@functools.cache
def build_parser(transformer: Transformer[object, object]) -> Lark:
    """The LALR parser for the grammar, running `transformer` as it reduces."""
    return Lark(grammar_text(), parser="lalr", lexer="contextual", transformer=transformer)
