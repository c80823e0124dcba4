"""Grammar → LALR tables, built by Lark, written out as plain data for `_lalr` to run.

Lark builds the parser from `grammar/apply_patch.lark` exactly as it would
for `Lark(grammar, parser="lalr", lexer="contextual")`; this module reads
what Lark computed (the parse table, the terminals and their order in each
state's lexer, how each rule shapes its children) and writes it as the Python
literals of `_tables.py`. Nothing of Lark's code is copied: `_lalr` is our own
driver for these tables.

    python -m apply_patch.format._tablegen GRAMMAR OUTPUT     # `make tables`

Only this module imports lark, and only when the tables are (re)built: by
`make tables`, by the test that checks `_tables.py` is up to date, and at run
time if the grammar was edited without regenerating (slower, still correct).

States and rules are numbered canonically (breadth first from the start
state, symbols in name order), so the same grammar always gives the same file
whatever Lark's internal numbering.
"""

from __future__ import annotations

import pprint
import re
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lark import Lark
    from lark.grammar import Rule

    from ._lalr import Lexer, Tables, Rule as Rule_

START = "start"
# Other rules of our grammar the parser may start from (each is used when the
# grammar defines it): `patch` (what `parse_patch` reads) and the two diffs of
# the Responses API's operations.
EXTRA_STARTS = ("patch", "update_diff", "create_diff")
HEADER = '''"""LALR tables of `grammar/apply_patch.lark`, built by Lark: generated, do not edit.

Regenerate with `make tables` (`python -m apply_patch.format._tablegen`) after changing the
grammar; `tests/format/test_lalr.py` fails while this file is out of date. The format is
described in `_lalr.Tables`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._lalr import Tables

TABLES: Tables = '''


class UnsupportedGrammar(Exception):
    """The grammar uses a Lark feature that `_lalr` does not run."""


def build(grammar: str) -> Tables:
    """The tables of `grammar` as plain data.

    Its start rules are `start`, and those of EXTRA_STARTS that it defines.
    """
    from lark import Lark

    defined = set(re.findall(r"^[?!]?(\w+)\s*:", grammar, re.M))
    starts = [START, *(name for name in EXTRA_STARTS if name in defined)]
    lark = Lark(grammar, parser="lalr", lexer="contextual", start=starts)
    _check_supported(lark)
    table = lark.parser.parser._parse_table
    order = _canonical_states(table.states, [table.start_states[name] for name in starts])
    number = {state: n for n, state in enumerate(order)}
    rules = sorted({action[1] for state in order for action in table.states[state].values()
                    if action[0].name == "Reduce"}, key=_rule_key)
    rule_number = {rule: n for n, rule in enumerate(rules)}
    contextual = lark.parser.lexer
    root = _lexer(contextual.root_lexer)
    lexers: list[Lexer] = []
    states = []
    for state in order:
        actions = {}
        for symbol, (kind, arg) in sorted(table.states[state].items()):
            actions[str(symbol)] = number[arg] if kind.name == "Shift" else ~rule_number[arg]
        lexer = _lexer(contextual.lexers[state])
        if lexer not in lexers:
            lexers.append(lexer)
        expected = tuple(sorted(s for s in actions if s.isupper()))
        states.append((lexers.index(lexer), expected, actions))
    return {
        "grammar": grammar,
        "terminals": {str(t.name): str(t.pattern.to_regexp()) for t in lark.terminals},
        "newline_terminals": tuple(sorted(map(str, contextual.root_lexer.newline_types))),
        "root_lexer": root,
        "lexers": tuple(lexers),
        "root_decides": all(_follows(lexer, root) for lexer in lexers),
        "states": tuple(states),
        "rules": tuple(_rule(rule, lark.options.maybe_placeholders) for rule in rules),
        "starts": {
            name: (number[table.start_states[name]], number[table.end_states[name]])
            for name in starts
        },
    }


def _lexer(basic: object) -> Lexer:
    """(terminals in the order tried, terminals reported as allowed, keywords) of one of Lark's lexers.

    Keywords: a string terminal that a regex terminal of the same lexer also
    matches is not tried on its own; a match of the regex terminal equal to the
    string becomes that terminal (Lark's "unless" rule).
    """
    scanner = basic.scanner  # type: ignore[attr-defined]
    tried = tuple(str(t.name) for t in scanner.terminals)
    allowed = scanner.allowed_types - basic.ignore_types  # type: ignore[attr-defined]
    keywords = {}
    for name, callback in sorted(basic.callback.items()):  # type: ignore[attr-defined]
        keywords[str(name)] = {str(t.pattern.value): str(t.name) for t in callback.scanner.terminals}
    return tried, tuple(sorted(map(str, allowed))) or ("<END-OF-FILE>",), keywords


def _follows(lexer: Lexer, root: Lexer) -> bool:
    """Whether the root lexer's first match is this lexer's token whenever the lexer accepts it.

    True when the lexer tries a subset of the root's terminals in the root's
    order, and neither has keywords (`_lalr` then lexes with one expression).
    """
    tried = set(lexer[0])
    return lexer[0] == tuple(n for n in root[0] if n in tried) and not lexer[2] and not root[2]


def _check_supported(lark: Lark) -> None:
    options = lark.options
    if lark.ignore_tokens:
        raise UnsupportedGrammar(f"%ignore is not supported: {lark.ignore_tokens}")
    if options.postlex is not None or options.lexer_callbacks:
        raise UnsupportedGrammar("postlex and lexer callbacks are not supported")
    if options.g_regex_flags or options.use_bytes:
        raise UnsupportedGrammar("global regex flags and bytes input are not supported")
    for terminal in lark.terminals:
        if terminal.pattern.flags:
            raise UnsupportedGrammar(f"terminal {terminal.name} has regex flags")


def _canonical_states(
    states: dict[int, dict[str, tuple[object, object]]], starts: list[int]
) -> list[int]:
    """Lark's states, breadth first from the `starts`, following shifts and gotos in symbol order."""
    order, seen = list(starts), set(starts)
    for state in order:
        for _, (kind, arg) in sorted(states[state].items()):
            if getattr(kind, "name", "") == "Shift" and arg not in seen:
                seen.add(arg)  # type: ignore[arg-type]
                order.append(arg)  # type: ignore[arg-type]
    if len(order) != len(states):
        raise UnsupportedGrammar("some LALR states cannot be reached from the start states")
    return order


def _rule_key(rule: Rule) -> tuple[str, tuple[str, ...]]:
    return rule.origin.name, tuple(symbol.name for symbol in rule.expansion)


def _rule(rule: Rule, placeholders: bool) -> Rule_:
    """(origin, callback name, length, expand single child, kept children, trailing Nones).

    Kept children are `(index, inline, Nones before it)`, as Lark's tree
    builder shapes them: tokens filtered out unless kept, children of a rule
    whose name starts with `_` spliced into the parent, and with
    `maybe_placeholders` a None for each `[item]` that matched nothing.
    """
    options = rule.options
    empty = list(options.empty_indices) if placeholders and options.empty_indices else []
    if empty:
        runs = "".join(str(int(b)) for b in empty).split("0")
        nones = [len(run) for run in runs]
    else:
        nones = [0] * (len(rule.expansion) + 1)
    kept = []
    pending = 0
    for index, symbol in enumerate(rule.expansion):
        pending += nones[index]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):  # type: ignore[attr-defined]
            kept.append((index, not symbol.is_term and symbol.name.startswith("_"), pending))
            pending = 0
    pending += nones[len(rule.expansion)]
    origin = str(rule.origin.name)
    name = str(rule.alias or options.template_source or origin)
    expand1 = bool(options.expand1) and not rule.alias
    if expand1 and origin.startswith("_"):
        raise UnsupportedGrammar(f"rule {origin} is both inlined (_) and expanded (?)")
    return origin, name, len(rule.expansion), expand1, tuple(kept), pending


def render(tables: Tables) -> str:
    """The text of the tables module."""
    return HEADER + pprint.pformat(tables, width=100, sort_dicts=False) + "\n"


def main(argv: list[str]) -> int:
    """`python -m apply_patch.format._tablegen GRAMMAR OUTPUT`: write the tables of GRAMMAR to OUTPUT."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    grammar, output = argv
    with open(grammar, encoding="utf-8") as source:
        text = render(build(source.read()))
    with open(output, "w", encoding="utf-8") as target:
        target.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
