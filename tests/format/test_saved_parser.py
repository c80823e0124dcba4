"""The parser Lark builds from the grammar: saved into the wheel, loaded when it is of this
grammar and this Lark, built again from the grammar otherwise (never from a shared folder)."""

import io
import shutil
from pathlib import Path

import pytest

from apply_patch.format import _grammar, parse_patch

PATCH = "*** Begin Patch\n*** Update File: a\n@@ x\n a\n-b\n+c\n*** End Patch\n"


def test_the_installed_package_ships_the_saved_parser_and_loads_it() -> None:
    saved = Path(_grammar._PACKAGE) / _grammar.PARSER_RESOURCE
    assert saved.read_bytes().startswith(_grammar.header(_grammar.grammar_text()))
    assert _grammar._saved_parser(_grammar.grammar_text()) is not None


@pytest.mark.parametrize("saved", ["missing", "another grammar", "another lark", "not a parser"])
def test_a_parser_that_does_not_fit_is_built_again_from_the_grammar(
    saved: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    grammar = _grammar.grammar_text()
    (tmp_path / "grammar").mkdir()
    shutil.copy(Path(_grammar._PACKAGE) / _grammar.GRAMMAR_RESOURCE, tmp_path / _grammar.GRAMMAR_RESOURCE)
    buffer = io.BytesIO()
    _grammar.save_parser(grammar, buffer)
    data = buffer.getvalue()
    header = _grammar.header(grammar)
    contents = {
        "missing": None,
        "another grammar": _grammar.header(grammar + "\n") + data[len(header) :],
        "another lark": header.replace(b" lark ", b" lark 0.") + data[len(header) :],
        "not a parser": header + b"\x80\x05not a pickle of a parser",
    }[saved]
    if contents is not None:
        (tmp_path / _grammar.PARSER_RESOURCE).write_bytes(contents)
    monkeypatch.setattr(_grammar, "_PACKAGE", str(tmp_path))
    monkeypatch.setattr(_grammar, "_parser", None)
    assert _grammar._saved_parser(grammar) is None
    assert str(parse_patch(PATCH)) == PATCH  # built from the grammar


def test_a_saved_parser_loads_and_parses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "grammar").mkdir()
    with open(tmp_path / _grammar.PARSER_RESOURCE, "wb") as file:
        _grammar.save_parser(_grammar.grammar_text(), file)
    monkeypatch.setattr(_grammar, "_PACKAGE", str(tmp_path))
    monkeypatch.setattr(_grammar, "_parser", None)
    assert _grammar._saved_parser(_grammar.grammar_text()) is not None
    assert str(parse_patch(PATCH)) == PATCH
