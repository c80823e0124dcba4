"""The globs of `.editorconfig` sections and `.gitattributes` patterns, matched in time linear in the name (pure).

A repository's convention files are input written by someone else, matched while the
root's lock is held: a backtracking matcher takes exponential time on a glob such as
`*a*a*a*a*a*a*a*a*b`, and expanding braces (`{1..9999}{1..9999}`) takes memory without
bound. So a glob is compiled once into a small automaton whose every state is followed
at once over the name (at most one step per state and character: linear in the name,
whatever the glob); only a glob that cannot backtrack far (no braces, at most one `*`,
besides one leading `**/`) is left to a regular expression, which is faster in C.

The syntax: `*` (any characters but `/`), `**` (any characters), `**/` (any folders,
none too), `?` (one character but `/`), `[seq]`, `[!seq]` or `[^seq]` (one character
but `/`, of the set or not; `a-z` ranges), `\\x` (the character x); with `braces`
(EditorConfig; git's patterns have none) `{a,b}` (either glob) and `{1..9}` (an integer
in the range, written as Python writes it). A glob past the bounds (`MAX_GLOB`
characters, braces nested deeper than `MAX_NESTING`, a number of more than
`MAX_DIGITS` digits) is not compiled: `compiled` says why, and the caller ignores it.
"""

from __future__ import annotations

import re

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, TypeAlias

MAX_GLOB: Final = 1024  # characters of one glob (a real one is a few dozen)
MAX_NESTING: Final = 8  # braces within braces
MAX_DIGITS: Final = 18  # of a number of `{1..9}` (a name holds no longer one that matters)

# The states of the automaton: (kind, argument, the states after it).
_CHAR, _ONE, _SET, _ANY, _NUMBER, _SPLIT, _ACCEPT = range(7)
State: TypeAlias = "tuple[int, object, tuple[int, ...]]"
# A parsed glob: its tokens, in order. ("char", c), ("one",), ("set", (negate, chars,
# ranges)), ("star",) `*`, ("any",) `**`, ("dirs",) `**/`, ("alt", (tokens, ...)),
# ("number", (low, high)).
Token: TypeAlias = "tuple[str, object]"


class _PastBound(Exception):
    """A glob past a bound (its message says which)."""


@dataclass(frozen=True, slots=True)
class Automaton:
    """A compiled glob: `states` (`State`), the first at 0. `matches` runs it."""

    states: tuple[State, ...]

    def matches(self, name: str) -> bool:
        """Whether the glob matches all of `name`: each state followed once a character."""
        states = self.states
        closures: dict[int, frozenset[int]] = {}
        current = self._closure(0, closures)
        pending: dict[int, set[int]] = {}  # a number's end → the states after it
        for at, char in enumerate(name):
            if at in pending:
                current = current.union(*(self._closure(s, closures) for s in pending.pop(at)))
            following: set[int] = set()
            for index in current:
                kind, argument, after = states[index]
                if kind == _CHAR:
                    if char == argument:
                        following.update(self._closure(after[0], closures))
                elif kind == _ANY or (kind == _ONE and char != "/"):
                    following.update(self._closure(after[0], closures))
                elif kind == _SET:
                    assert isinstance(argument, tuple)
                    if char != "/" and _in_set(char, argument) != argument[0]:
                        following.update(self._closure(after[0], closures))
                elif kind == _NUMBER:
                    assert isinstance(argument, tuple)
                    for end in _numbers_at(name, at, argument[0], argument[1]):
                        pending.setdefault(end, set()).add(after[0])
            current = frozenset(following)
            if not current and not pending:
                return False
        if len(name) in pending:
            current = current.union(*(self._closure(s, closures) for s in pending.pop(len(name))))
        return any(states[index][0] == _ACCEPT for index in current)

    def _closure(self, start: int, closures: dict[int, frozenset[int]]) -> frozenset[int]:
        """The states reached from `start` without reading a character (kept in `closures`)."""
        known = closures.get(start)
        if known is not None:
            return known
        seen = {start}
        stack = [start]
        while stack:
            kind, _, after = self.states[stack.pop()]
            if kind == _SPLIT:
                for index in after:
                    if index not in seen:
                        seen.add(index)
                        stack.append(index)
        found = closures[start] = frozenset(i for i in seen if self.states[i][0] != _SPLIT)
        return found


def _in_set(char: str, argument: tuple[object, ...]) -> bool:
    _, chars, ranges = argument
    assert isinstance(chars, frozenset) and isinstance(ranges, tuple)
    return char in chars or any(low <= char <= high for low, high in ranges)


def _numbers_at(name: str, at: int, low: int, high: int) -> list[int]:
    """The ends of the integers written at `name[at:]` (as Python writes them: no leading
    zero, `-` for a negative) that lie in [low, high]: each prefix of the digits is one."""
    digits_from = at + 1 if name.startswith("-", at) else at
    ends = []
    end = digits_from
    while end < len(name) and end - digits_from < MAX_DIGITS and "0" <= name[end] <= "9":
        end += 1
        written = name[at:end]
        if str(int(written)) == written and low <= int(written) <= high:
            ends.append(end)
    return ends


def compiled(glob: str, *, braces: bool) -> Callable[[str], bool] | str:
    """The matcher of `glob` (over a whole `/`-separated name), or, for a glob past a bound,
    the sentence saying which. A glob whose set is no valid range matches nothing."""
    if len(glob) > MAX_GLOB:
        return f"it is longer than {MAX_GLOB} characters"
    try:
        tokens = _tokens(glob, braces, 0)
    except _PastBound as bound:
        return str(bound)
    if _cannot_backtrack_far(tokens):
        expression = re.compile("".join(map(_regex, tokens)), re.DOTALL)
        return lambda name: expression.fullmatch(name) is not None
    return Automaton(_states(tokens)).matches


def _cannot_backtrack_far(tokens: list[Token]) -> bool:
    """No braces, at most one `*` and no `**` but one leading `**/`: a regular expression
    tries each `/` for the `**/` and each place of the segment after it for the `*`."""
    kinds = [kind for kind, _ in tokens]
    if kinds[:1] == ["dirs"]:
        kinds = kinds[1:]
    return "alt" not in kinds and "number" not in kinds and "any" not in kinds and "dirs" not in kinds and kinds.count("star") <= 1


_REGEX: Final = {"star": "[^/]*", "any": ".*", "dirs": "(?:.*/)?", "one": "[^/]"}


def _regex(token: Token) -> str:
    kind, argument = token
    if kind == "char":
        assert isinstance(argument, str)
        return re.escape(argument)
    if kind == "set":
        assert isinstance(argument, tuple)
        negate, chars, ranges = argument
        assert isinstance(chars, frozenset) and isinstance(ranges, tuple)
        body = "".join(map(re.escape, sorted(chars))) + "".join(f"{re.escape(a)}-{re.escape(b)}" for a, b in ranges)
        return f"[^/{body}]" if negate else f"(?!/)[{body}]" if body else "(?!)"
    return _REGEX[kind]


def _tokens(glob: str, braces: bool, depth: int) -> list[Token]:
    """`glob` parsed (`Token`); _PastBound past a bound."""
    out: list[Token] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append(("dirs", None))
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(("any", None))
            i += 2
            continue
        i += 1
        if c == "\\" and i < len(glob):
            out.append(("char", glob[i]))
            i += 1
        elif c == "*":
            out.append(("star", None))
        elif c == "?":
            out.append(("one", None))
        elif c == "[" and "]" in glob[i:]:
            end = glob.index("]", i)
            out.append(("set", _set(glob[i:end])))
            i = end + 1
        elif braces and c == "{" and "}" in glob[i:]:
            end = _closing_brace(glob, i)
            out.append(_brace(glob[i:end], depth))
            i = end + 1
        else:
            out.append(("char", c))
    return out


def _set(inside: str) -> tuple[bool, frozenset[str], tuple[tuple[str, str], ...]]:
    """`[inside]`: (negated, its characters, its ranges); a range backwards holds nothing."""
    negate = inside[:1] in ("!", "^")
    body = inside[1:] if negate else inside
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            if body[i] <= body[i + 2]:
                ranges.append((body[i], body[i + 2]))
            i += 3
        else:
            chars.add(body[i])
            i += 1
    return negate, frozenset(chars), tuple(ranges)


_RANGE: Final = re.compile(r"(-?\d+)\.\.(-?\d+)")


def _brace(inside: str, depth: int) -> Token:
    """`{inside}`: a range of integers, alternatives, or (neither) the characters themselves."""
    numbers = _RANGE.fullmatch(inside)
    if numbers:
        if max(len(n.lstrip("-")) for n in numbers.groups()) > MAX_DIGITS:
            raise _PastBound(f"a number of its braces has more than {MAX_DIGITS} digits")
        low, high = sorted(map(int, numbers.groups()))
        return ("number", (low, high))
    if "," in inside:
        if depth >= MAX_NESTING:
            raise _PastBound(f"its braces are nested more than {MAX_NESTING} deep")
        return ("alt", tuple(tuple(_tokens(part, True, depth + 1)) for part in _split_commas(inside)))
    return ("alt", (tuple(("char", c) for c in "{" + inside + "}"),))


def _closing_brace(glob: str, start: int) -> int:
    """The index of the `}` closing the `{` before `start` (nested braces counted)."""
    depth = 1
    for at in range(start, len(glob)):
        if glob[at] == "{":
            depth += 1
        elif glob[at] == "}":
            depth -= 1
            if depth == 0:
                return at
    return glob.rindex("}")


def _split_commas(text: str) -> list[str]:
    """`a,{b,c},d` → ["a", "{b,c}", "d"]: the commas outside braces."""
    parts, depth, last = [], 0, 0
    for at, c in enumerate(text):
        depth += (c == "{") - (c == "}")
        if c == "," and depth == 0:
            parts.append(text[last:at])
            last = at + 1
    parts.append(text[last:])
    return parts


def _states(tokens: list[Token]) -> tuple[State, ...]:
    """The automaton of `tokens`, built from the end back: state 0 first."""
    states: list[State] = [(_ACCEPT, None, ())]

    def add(state: State) -> int:
        states.append(state)
        return len(states) - 1

    def build(sequence: tuple[Token, ...] | list[Token], after: int) -> int:
        for kind, argument in reversed(sequence):
            if kind == "char":
                after = add((_CHAR, argument, (after,)))
            elif kind == "one":
                after = add((_ONE, None, (after,)))
            elif kind == "set":
                after = add((_SET, argument, (after,)))
            elif kind == "number":
                after = add((_NUMBER, argument, (after,)))
            elif kind in ("star", "any"):  # a loop: the state reads one and comes back
                loop = add((_SPLIT, None, ()))
                one = add((_ONE if kind == "star" else _ANY, None, (loop,)))
                states[loop] = (_SPLIT, None, (one, after))
                after = loop
            elif kind == "dirs":  # (?:.*/)?: none, or any characters up to a `/`
                loop = add((_SPLIT, None, ()))
                one = add((_ANY, None, (loop,)))
                slash = add((_CHAR, "/", (after,)))
                states[loop] = (_SPLIT, None, (one, slash))
                after = add((_SPLIT, None, (after, loop)))
            else:  # alternatives
                assert isinstance(argument, tuple)
                after = add((_SPLIT, None, tuple(build(part, after) for part in argument)))
        return after

    first = build(tokens, 0)
    order = [first, *(i for i in range(len(states)) if i != first)]  # the first state at 0
    renumber = {old: new for new, old in enumerate(order)}
    return tuple((kind, argument, tuple(renumber[a] for a in after)) for kind, argument, after in (states[i] for i in order))
