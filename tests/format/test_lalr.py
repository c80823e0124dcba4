"""The parser runs Lark's tables with our own driver: the tables must be up to date, and
the driver must parse exactly as Lark does (same trees, same errors), for our grammar and
for other grammars (a grammar change only needs `make tables`).

Lark is imported here, as the reference the driver is compared with.
"""

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from apply_patch import grammar_text, parse_patch
from apply_patch.format import _tables
from apply_patch.format._lalr import ParseError, Parser
from apply_patch.format._tablegen import UnsupportedGrammar, build, render

if TYPE_CHECKING:
    from apply_patch.format._lalr import Tables

REPO = Path(__file__).resolve().parents[2]

Outcome = tuple[str, object]


def test_shipped_tables_are_built_from_the_shipped_grammar() -> None:
    assert _tables.TABLES == build(grammar_text())


def test_committed_tables_are_up_to_date() -> None:
    grammar = (REPO / "grammar" / "apply_patch.lark").read_text(encoding="utf-8")
    committed = (REPO / "apply_patch" / "format" / "_tables.py").read_text(encoding="utf-8")
    assert committed == render(build(grammar)), "grammar changed: run `make tables`"


_RENDER = (
    "import sys\n"
    "from apply_patch import grammar_text\n"
    "from apply_patch.format._tablegen import build, render\n"
    "sys.stdout.write(render(build(grammar_text())))\n"
)


def test_tables_do_not_depend_on_lark_numbering() -> None:
    """Lark numbers states and terminals in the order of sets, which the string hash
    seed changes: two processes with different PYTHONHASHSEED must render the same."""
    rendered = [
        subprocess.run(
            [sys.executable, "-c", _RENDER], capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout  # fmt: skip
        for seed in ("1", "2")
    ]
    assert rendered[0] == rendered[1] == render(build(grammar_text()))


class _TreeCallbacks:
    """Callbacks that build Lark's tree, as nested tuples."""

    def __getattr__(self, name: str) -> object:
        return lambda children: (name, children)


def _ours(parser: Parser, text: str) -> Outcome:
    try:
        return "tree", parser.parse(text)
    except ParseError as error:
        return "error", (error.line, set(error.expected), error.found)


def _lark_tree(node: object) -> object:
    if isinstance(node, Tree):
        return (str(node.data), [_lark_tree(child) for child in node.children])
    if isinstance(node, Token):
        return (node.type, str(node), node.line)
    return node


def _lark(parser: Lark, text: str, start: str) -> Outcome:
    try:
        return "tree", _lark_tree(parser.parse(text, start=start))
    except UnexpectedToken as error:
        return "error", (error.line, set(error.expected), error.token.type)
    except UnexpectedCharacters as error:
        return "error", (error.line, set(error.allowed), None)


def _compare(grammar: str, texts: list[str], start: str = "start") -> int:
    """Parse every text with Lark and with the driver: one parser learning as it goes, and a new one."""
    tables = build(grammar)  # Lark builds one table for all the start rules, as here
    lark = Lark(grammar, parser="lalr", lexer="contextual", start=list(tables["starts"]))
    ours = Parser(tables, _TreeCallbacks(), start)
    errors = 0
    for text in texts:
        expected = _lark(lark, text, start)
        assert _ours(ours, text) == expected, text
        assert _ours(Parser(tables, _TreeCallbacks(), start), text) == expected, text
        errors += expected[0] == "error"
    return errors


# Lines of every kind the grammar knows, and some it does not.
_PATCH_LINES = [
    "*** Begin Patch", "*** End Patch", "*** Environment ID: e1", "*** Environment ID: ",
    "*** Add File: a.txt", "*** Delete File: b.txt", "*** Update File: c.txt",
    "*** Move to: d.txt", "@@", "@@ def f():", "@@ ", " context", " ", "+added", "+",
    "-removed", "-", "", "*** End of File", "garbage", "*** Frobnicate File: x", "@@@",
    "*** Add File: ", "\\ No newline at end of file", "*** End Patchx",
]


def _random_patches(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        body = [rng.choice(_PATCH_LINES) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.8:
            body = ["*** Begin Patch", *body]
        if rng.random() < 0.8:
            body.append("*** End Patch")
        text = "\n".join(body) + rng.choice(["\n", "", "\n\n"])
        texts.append(text)
    return texts


def _valid_patches(seed: int, count: int) -> list[str]:
    """Patches that follow the grammar, so that trees (not only errors) are compared."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        lines = ["*** Begin Patch"]
        if rng.random() < 0.2:
            lines.append("*** Environment ID: env")
        for _ in range(rng.randint(0, 4)):
            kind = rng.choice(["add", "delete", "update"])
            if kind == "add":
                lines.append("*** Add File: new.txt")
                for _ in range(rng.randint(0, 5)):
                    lines += [""] * rng.randint(0, 2) + ["+line"]
            elif kind == "delete":
                lines.append("*** Delete File: old.txt")
            else:
                lines.append("*** Update File: f.txt")
                if rng.random() < 0.3:
                    lines.append("*** Move to: g.txt")
                for number in range(rng.randint(0, 4)):
                    if number or rng.random() < 0.5:
                        lines += ["@@ ctx" if rng.random() < 0.5 else "@@"] * rng.randint(1, 2)
                    lines += [rng.choice([" c", "-r", "+a", ""]) for _ in range(rng.randint(1, 6))]
                    if rng.random() < 0.2:
                        lines += ["*** End of File"] + [""] * rng.randint(0, 2)
        lines.append("*** End Patch")
        texts.append("\n".join(lines) + "\n")
    return texts


@pytest.mark.parametrize("start", ["start", "patch"])
def test_driver_parses_our_grammar_as_lark_does(start: str) -> None:
    texts = _valid_patches(1, 400) + _random_patches(2, 3000)
    errors = _compare(grammar_text(), texts, start)
    assert 0 < errors < len(texts)  # both trees and errors were compared


def _bodies(texts: list[str], header: str) -> list[str]:
    """What follows the first `header` line of each text that has one (a diff of one operation)."""
    return [text.split(header, 1)[1].split("\n", 1)[-1] for text in texts if header in text]


@pytest.mark.parametrize(
    ("start", "header"),
    [("update_diff", "*** Update File: "), ("create_diff", "*** Add File: ")],
)
def test_driver_parses_the_operation_diffs_as_lark_does(start: str, header: str) -> None:
    texts = _bodies(_valid_patches(3, 400) + _random_patches(4, 3000), header)
    texts = [text.replace("*** End Patch\n", "") for text in texts] + texts
    errors = _compare(grammar_text(), texts, start)
    assert 0 < errors < len(texts)


def test_the_tool_grammar_needs_an_operation_and_the_parser_does_not() -> None:
    empty = "*** Begin Patch\n*** End Patch\n"
    lark = Lark(grammar_text(), parser="lalr", lexer="contextual", start=["start", "patch"])
    with pytest.raises(UnexpectedToken):
        lark.parse(empty, start="start")
    assert parse_patch(empty).operations == ()


# Grammars that use what ours does not: `[item]` placeholders, aliases, `!rule`
# (tokens kept), anonymous tokens (filtered), `?rule` with several children,
# nested `_rules` (lists of lists, spliced), priorities, keywords, and terminals
# that share prefixes.
_OTHER_GRAMMARS = [
    r"""
    start: _stmts
    _stmts: (stmt ";")*
    ?stmt: NAME "=" expr -> assign
         | "print" [expr] -> show
         | "{" _stmts "}"
    ?expr: expr "+" term | term
    ?term: term "*" atom | atom
    !atom: NUMBER | NAME | "(" expr ")" | "-" atom
    NAME: /[a-z]+/
    NUMBER.2: /[0-9]+/
    """,
    r"""
    start: line*
    line: KEY (":" VALUE)? NL | NL
    KEY: /[A-Za-z]+/
    VALUE: /[^\n]+/
    NL: "\n"
    """,
    r"""
    start: HEAD _items END
    _items: _item* (_item | B LAST)
    _item: A | B C? | NL
    HEAD: "h"
    A: "a"
    B: "b"
    C: "c"
    LAST: "!"
    NL: "\n"
    END: ";"
    """,
]

_ALPHABETS = ["ab=+*;(){}-0123 print", "Ab:x \n", "habc!\n;"]


@pytest.mark.parametrize("number", range(len(_OTHER_GRAMMARS)))
def test_driver_parses_other_grammars_as_lark_does(number: int) -> None:
    rng = random.Random(number)
    alphabet = _ALPHABETS[number]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(3000)]
    texts += [
        ["x=1;", "print;", "print 2*(a+b);", "{y=-3;print y;};", "a=1+2*3+4;"],
        ["A:x\nB\n\nC: y\n", "\n\n"],
        ["ha;", "habcab\nbcaaa;", "hab!;", "h" + "abc" * 50 + ";"],
    ][number]
    errors = _compare(_OTHER_GRAMMARS[number], texts)
    assert 0 < errors < len(texts)


def test_unsupported_grammar_features_are_refused() -> None:
    with pytest.raises(UnsupportedGrammar):
        build("start: WORD+\nWORD: /[a-z]+/\n%ignore \" \"\n")


def test_a_missing_callback_is_named() -> None:
    tables: Tables = build("start: WORD WORD\nWORD: /[a-z]+/\n")
    with pytest.raises(ValueError, match="'start'"):
        Parser(tables, object())


def test_a_big_patch_parses() -> None:
    body = "".join(f"@@ f{n}\n a\n-b{n}\n+c{n}\n" for n in range(5000))
    patch = parse_patch(f"*** Begin Patch\n*** Update File: x\n{body}*** End Patch\n")
    update = patch.operations[0]
    assert len(update.chunks) == 5000  # type: ignore[union-attr]
    assert update.chunks[4999].lines == (" a", "-b4999", "+c4999")  # type: ignore[union-attr]
    assert update.chunks[4999].line == 3 + 4 * 4999  # type: ignore[union-attr]
