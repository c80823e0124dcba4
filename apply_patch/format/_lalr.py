"""Runs the LALR tables Lark built from the grammar (`_tables.py`), without importing lark.

The parse is the one `Lark(grammar, parser="lalr", lexer="contextual",
transformer=callbacks)` makes, step for step, so that results and errors are
the same:

- the lexer is contextual: at each position it tries, in Lark's order, only
  the terminals the current parser state accepts, and takes the first that
  matches;
- the parser shifts and reduces by the tables; on each reduction the rule's
  children are shaped as Lark's tree builder shapes them (tokens filtered,
  `_rule` children spliced into the parent, `?rule` with one child replaced
  by it), then `callbacks.<rule name>(children)` is called;
- on an error, `ParseError` carries what Lark's exception would: the line,
  the terminals acceptable there, and the terminal found (if any).

Tokens are `(terminal, text, line)` tuples, `line` counting from 1.

How it is fast, in pure Python (each way gives the same result as the plain
algorithm, `Parser._feed`, which they fall back to):

- One compiled expression holds every terminal, in Lark's order. When each
  state's lexer tries a subset of the terminals in that same order (as in our
  grammar: `root_decides` in the tables), the first match of the whole
  expression is the state's token whenever the state accepts it. Otherwise
  the state's own lexer decides (around an error, or for every token in a
  grammar with keywords).
- What feeding a terminal does (reductions, then the shift) depends on the
  terminal and on the few states on top of the stack, and most tokens are fed
  exactly as one before them. So each `(terminal, top states)` is worked out
  once (`_learn`) and then replayed: a new top of the stack and the value
  operations, callbacks included.
- When a token only adds the previous one to a list (the lines of a chunk),
  the following ones are chained without touching the stacks (`_run`).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypedDict

    Token = tuple[str, str, int]
    """(terminal name, matched text, line where it starts)."""

    Rule = tuple[str, str, int, bool, tuple[tuple[int, bool, int], ...], int]
    """(origin, callback name, length, expand single child, kept children, trailing Nones).

    Kept children are `(index in the expansion, spliced, Nones before it)`.
    """

    Lexer = tuple[tuple[str, ...], tuple[str, ...], dict[str, dict[str, str]]]
    """(terminals tried in order, terminals reported when none matches, keywords).

    Keywords: `{regex terminal: {text: string terminal}}`, a match of the
    regex terminal equal to the text becomes the string terminal.
    """

    class Tables(TypedDict):
        """The LALR tables of a grammar, as `_tablegen.build` writes them.

        `states[n]` is `(lexer, expected, actions)`: `lexers[lexer]` is the
        state's lexer; `expected` the terminals (and `$END`) the parser
        reports on an unexpected token; `actions[symbol]` is a state to shift
        (or go) to when >= 0, else `~rule`. `root_lexer` tries every terminal;
        `root_decides`: its first match is each state's token whenever the
        state accepts it. `starts[rule]` is `(start state, end state)` of
        each start rule.
        """

        grammar: str
        terminals: dict[str, str]
        newline_terminals: tuple[str, ...]
        root_lexer: Lexer
        lexers: tuple[Lexer, ...]
        root_decides: bool
        states: tuple[tuple[int, tuple[str, ...], dict[str, int]], ...]
        rules: tuple[Rule, ...]
        starts: dict[str, tuple[int, int]]

    Build = Callable[[list[object]], object]
    Reduction = tuple[int, str, int, Build | None]
    """(shortcut, origin, length, builder): how to reduce by one rule."""

    Operation = tuple[int, Build | None] | None
    """On the values: None appends the top to the list below; else (length, builder)."""

    Step = tuple[list[int], int | tuple[Operation, ...], bool]
    """(new top states, operations, whether a run of tokens may follow): see `_learn`.

    Operations are 0 (none), 1 (one append) or a tuple of them.
    """

    Move = tuple[int, dict[str, "Move | tuple[()]"]]
    """In a run: (next top state, its moves); `()` stops the run."""


END = "$END"

# How a reduction builds its value; the first three are shortcuts of the last.
_SAME = 0  # `?rule: x`: the only child is the value
_APPEND = 1  # `_list: _list x`: append to the list being spliced
_SLICE = 2  # `_list: x y`: the children, as a new list to splice
_EXTEND = 3  # `_list: _list _item`: extend the list being spliced
_BUILD = 4  # anything else: shape the children, then call back
_EXTEND_OPERATION: Operation = (-1, None)

# The states a step is learnt for: a few on top (most tokens), else more.
_SHALLOW = 3
_DEEP = 6
_NEVER: tuple[()] = ()  # a step that cannot be learnt: fed one reduction at a time
_DEEPER = False  # a step that reads below the top states: learnt with more of them
_STOP: tuple[()] = ()  # in a run: this token does not just grow the list


class ParseError(Exception):
    """The text does not follow the grammar.

    `line` is where the parser stopped; `expected` the terminals it could
    accept there; `found` the terminal it found instead, or None when no
    terminal matches the text there.
    """

    def __init__(self, line: int, expected: frozenset[str], found: str | None) -> None:
        super().__init__(f"line {line}: expected one of {sorted(expected)}, found {found}")
        self.line = line
        self.expected = expected
        self.found = found


class _Deeper(Exception):
    """Learning a step read below the states it was given."""


class Parser:
    """A parser for one grammar's tables, calling `callbacks.<rule>(children)` as it reduces.

    It parses from the start rule `start` (one of `tables["starts"]`).
    """

    def __init__(self, tables: Tables, callbacks: object, start: str = "start") -> None:
        self._terminals = tables["terminals"]
        self._compiled: dict[tuple[str, ...], re.Pattern[str]] = {}
        self._root_keywords = tables["root_lexer"][2]
        self._root = self._expression(tables["root_lexer"][0])
        # What the fast paths lex with: nothing unless the root decides.
        self._scanner = self._root if tables["root_decides"] else self._expression(())
        self._newline = frozenset(tables["newline_terminals"])
        self._count_all = self._newline == frozenset(self._terminals)
        self._start, self._end = tables["starts"][start]
        self._actions = [actions for _, _, actions in tables["states"]]
        self._expected = [frozenset(expected) for _, expected, _ in tables["states"]]
        self._lexers = [tables["lexers"][lexer] for lexer, _, _ in tables["states"]]
        self._rules = [_reduction(rule, callbacks) for rule in tables["rules"]]
        # Learnt steps, by (terminal, top state, the one below, ...); _NEVER,
        # _DEEPER: not learnable with these states.
        self._steps: dict[tuple[object, ...], Step | tuple[()] | bool] = {}
        self._runs: dict[tuple[int, int], dict[int, dict[str, Move | tuple[()]]]] = {}

    def parse(self, text: str) -> object:
        """The value of the start rule for `text`; ParseError if it does not follow the grammar.

        Exceptions raised by the callbacks propagate unchanged.
        """
        match, steps, newline, count_all = self._scanner.match, self._steps, self._newline, self._count_all
        bottom = len(self._actions)  # below the start state: never a real state
        states: list[int] = [bottom] * (_DEEP - 1) + [self._start]
        values: list[object] = []
        position, line, token_line, size = 0, 1, 1, len(text)
        while position < size:
            found = match(text, position)
            kind = found.lastgroup if found else None
            key: tuple[object, ...] = (kind, states[-1], states[-2], states[-3])
            step = steps.get(key)
            if step is None:
                step = steps[key] = self._learn(key)
            if step is _DEEPER:
                key = (kind, *states[: -_DEEP - 1 : -1])
                step = steps.get(key)
                if step is None:
                    step = steps[key] = self._learn(key)
            if not step:  # fed one reduction at a time
                position, line, token_line = self._feed(text, position, line, states, values)
                continue
            end = found.end()  # type: ignore[union-attr]
            value = text[position:end]
            token_line = line
            if count_all or kind in newline:
                line += value.count("\n")
            position = end
            top, operations, grows = step  # type: ignore[misc]
            if operations == 1:  # one append: a line added to a list
                item = values.pop()
                values[-1].append(item)  # type: ignore[attr-defined]
            elif operations:
                _replay(operations, values)  # type: ignore[arg-type]
            states[-len(key) + 1 :] = top
            values.append((kind, value, token_line))
            if grows:
                start = position
                position, line, token_line = self._run(text, position, line, states, values)
                if position == start:  # no run follows this step: do not try again
                    steps[key] = top, operations, False
        return self._finish(states, values, token_line)

    def _feed(
        self, text: str, position: int, line: int, states: list[int], values: list[object]
    ) -> tuple[int, int, int]:
        """Lex one token in the top state and feed it, one reduction at a time (Lark's loop).

        Returns the position after the token, the line there, and the token's line.
        """
        actions, rules, state = self._actions, self._rules, states[-1]
        found = self._scanner.match(text, position)
        action = actions[state].get(found.lastgroup) if found else None  # type: ignore[arg-type]
        if found is not None and action is not None:
            kind: str = found.lastgroup  # type: ignore[assignment]
            end = found.end()
        else:
            kind, end = self._lex_in_state(text, position, line, state)
            action = actions[state][kind]
        value = text[position:end]
        token_line = line
        if kind in self._newline:
            line += value.count("\n")
        while action < 0:  # `_reduce`, inlined: this loop runs for every token
            shortcut, origin, length, build = rules[~action]
            if shortcut == _SAME:
                states[-1] = actions[states[-2]][origin]
            elif shortcut == _APPEND:
                item = values.pop()
                values[-1].append(item)  # type: ignore[attr-defined]
                del states[-1]
                states[-1] = actions[states[-2]][origin]
            else:
                _pop_children(length, build, values)
                del states[len(states) - length :]
                states.append(actions[states[-1]][origin])
            next_action = actions[states[-1]].get(kind)
            if next_action is None:
                raise ParseError(token_line, self._expected[states[-1]], kind)
            action = next_action
        states.append(action)
        values.append((kind, value, token_line))
        return end, line, token_line

    def _finish(self, states: list[int], values: list[object], line: int) -> object:
        """Feed the end of the text (on the last token's line): reduce until the start rule is done."""
        actions, rules = self._actions, self._rules
        while True:
            action = actions[states[-1]].get(END)
            if action is None:
                raise ParseError(line, self._expected[states[-1]], END)
            if action >= 0:
                raise AssertionError("the tables shift the end of the text")
            self._reduce(rules[~action], states, values)
            if states[-1] == self._end:
                return values[-1]

    def _reduce(self, rule: Reduction, states: list[int], values: list[object]) -> None:
        """Reduce by `rule`: pop its children, build its value, go to the state after it."""
        actions = self._actions
        shortcut, origin, length, build = rule
        if shortcut == _SAME:
            states[-1] = actions[states[-2]][origin]
        elif shortcut == _APPEND:
            item = values.pop()
            values[-1].append(item)  # type: ignore[attr-defined]
            del states[-1]
            states[-1] = actions[states[-2]][origin]
        else:
            _pop_children(length, build, values)
            del states[len(states) - length :]
            states.append(actions[states[-1]][origin])

    def _learn(self, key: tuple[object, ...]) -> Step | tuple[()] | bool:
        """What feeding terminal `key[0]` does when `key[1:]` are the top states (top first).

        Feeding runs the reductions and the shift on a copy of those states,
        noting the operations on the values. The result replaces the top
        states and replays the operations: exactly what `_feed` would do. It
        is _NEVER when the text decides (the state does not accept the
        terminal: its own lexer chooses), or on an error (`_feed` raises it);
        _DEEPER when the reductions read below the given states.
        """
        kind, actions = key[0], self._actions
        window: list[int] = list(key[1:])  # type: ignore[arg-type]
        if not isinstance(kind, str) or kind not in actions[window[0]]:
            return _NEVER
        top = window[::-1]
        action = actions[top[-1]][kind]
        operations: list[Operation] = []
        try:
            while action < 0:
                shortcut, origin, length, build = self._rules[~action]
                if shortcut == _SAME:
                    top[-1] = _goto(actions, top, 2, origin)
                elif shortcut == _APPEND:
                    operations.append(None)
                    del top[-1]
                    top[-1] = _goto(actions, top, 2, origin)
                else:
                    operations.append(_EXTEND_OPERATION if shortcut == _EXTEND else (length, build))
                    top[len(top) - length :] = [_goto(actions, top, length + 1, origin)]
                if kind not in actions[top[-1]]:
                    return _NEVER
                action = actions[top[-1]][kind]
        except _Deeper:
            return _DEEPER if len(window) == _SHALLOW else _NEVER
        top.append(action)
        operations = _appends(operations)
        if not operations:
            return top, 0, False
        # The token follows a list that was just made or grown: more may follow (`_run`).
        grows = operations[-1] is None or operations[-1][1] is None
        if operations == [None]:
            return top, 1, grows
        return top, tuple(operations), grows

    def _run(
        self, text: str, position: int, line: int, states: list[int], values: list[object]
    ) -> tuple[int, int, int]:
        """Feed the tokens that follow while each adds the one before it to the same list.

        This is the body of a chunk or of an added file: the list of lines
        grows, the top state changes, the states below it do not. Such steps
        were learnt (`_learn`); here they are chained without touching the
        stacks, the tokens kept aside and handed to the list at the end.
        Returns the position, the line, and the line of the last token.
        """
        match, newline, count_all = self._scanner.match, self._newline, self._count_all
        base = (states[-3], states[-2])
        moves = self._runs.get(base)
        if moves is None:
            moves = self._runs[base] = {}
        top = states[-1]
        here = moves.get(top)
        if here is None:
            here = moves[top] = {}
        run: list[Token] = [values[-1]]  # type: ignore[list-item]
        append, token_line = run.append, run[0][2]
        while True:  # the end of the text does not match (no terminal is empty)
            found = match(text, position)
            if found is None:
                break
            kind: str = found.lastgroup  # type: ignore[assignment]
            move = here.get(kind)
            if move is None:
                move = here[kind] = self._run_move(kind, top, base, moves)
            if not move:
                break
            top, here = move
            value = found.group()
            token_line = line
            if count_all or kind in newline:
                line += value.count("\n")
            position += len(value)
            append((kind, value, token_line))
        states[-1] = top
        values[-1] = run.pop()
        values[-2].extend(run)  # type: ignore[attr-defined]
        return position, line, token_line

    def _run_move(
        self, kind: str, top: int, base: tuple[int, int], moves: dict[int, dict[str, Move | tuple[()]]]
    ) -> Move | tuple[()]:
        """The next top state (and its moves) if feeding `kind` just grows the list; else a stop."""
        key = (kind, top, base[1], base[0])
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = self._learn(key)
        if not step or step[1] != 1:  # type: ignore[index]
            return _STOP
        new_top: list[int] = step[0]  # type: ignore[index]
        if len(new_top) != _SHALLOW or (new_top[0], new_top[1]) != base:
            return _STOP
        here = moves.get(new_top[2])
        if here is None:
            here = moves[new_top[2]] = {}
        return new_top[2], here

    def _lex_in_state(self, text: str, position: int, line: int, state: int) -> tuple[str, int]:
        """The token `state`'s own lexer takes at `position` (terminal, end), or ParseError.

        When none of the state's terminals match, Lark tries all terminals to
        name what was found: the error then carries that terminal.
        """
        tried, allowed, keywords = self._lexers[state]
        found = self._expression(tried).match(text, position)
        if found is not None:
            return _keyword(found, keywords), found.end()
        anything = self._root.match(text, position)
        name = None if anything is None else _keyword(anything, self._root_keywords)
        raise ParseError(line, frozenset(allowed), name)

    def _expression(self, names: tuple[str, ...]) -> re.Pattern[str]:
        """One expression trying the terminals `names` in order (never matching if none)."""
        pattern = self._compiled.get(names)
        if pattern is None:
            source = "|".join(f"(?P<{name}>{self._terminals[name]})" for name in names)
            pattern = self._compiled[names] = re.compile(source or "(?!)")
        return pattern


def _keyword(found: re.Match[str], keywords: dict[str, dict[str, str]]) -> str:
    """The terminal of a match, a keyword if its text is one (Lark's "unless" rule)."""
    name: str = found.lastgroup  # type: ignore[assignment]
    if name in keywords:
        return keywords[name].get(found.group(), name)
    return name


def _goto(actions: list[dict[str, int]], top: list[int], depth: int, origin: str) -> int:
    """The state after reducing to `origin` from the state `depth` down in `top` (_Deeper if none)."""
    if depth > len(top):
        raise _Deeper
    state = top[-depth]
    if state >= len(actions):  # the bottom of the stack
        raise _Deeper
    return actions[state][origin]


def _reduction(rule: Rule, callbacks: object) -> Reduction:
    """How to reduce by `rule`: a shortcut, or a builder that shapes the children and calls back."""
    origin, name, length, expand1, kept, trailing = rule
    inlined = origin.startswith("_")
    plain = all(not spliced and not nones for _, spliced, nones in kept) and not trailing
    if expand1 and plain and len(kept) == 1 and length == 1:
        return _SAME, origin, length, None
    if inlined and kept == ((0, True, 0), (1, False, 0)) and length == 2 and not trailing:
        return _APPEND, origin, length, None
    if inlined and plain and [index for index, _, _ in kept] == list(range(length)):
        return _SLICE, origin, length, None
    if inlined and kept == ((0, True, 0), (1, True, 0)) and length == 2 and not trailing:
        return _EXTEND, origin, length, _extend
    finish: Build
    if inlined:
        finish = _as_list
    else:
        callback = getattr(callbacks, name, None)
        if callback is None:
            raise ValueError(f"no callback for the grammar rule {name!r}")
        finish = callback

    def build(children: list[object]) -> object:
        shaped: list[object] = []
        for index, spliced, nones in kept:
            if nones:
                shaped += [None] * nones
            if spliced:
                if shaped:
                    shaped += children[index]  # type: ignore[arg-type]
                else:  # reuse the list: left recursion stays linear (Lark does the same)
                    shaped = children[index]  # type: ignore[assignment]
            else:
                shaped.append(children[index])
        if trailing:
            shaped += [None] * trailing
        if expand1 and len(shaped) == 1:
            return shaped[0]
        return finish(shaped)

    return _BUILD, origin, length, build


def _as_list(children: list[object]) -> object:
    return children


def _extend(children: list[object]) -> object:
    extended: list[object] = children[0]  # type: ignore[assignment]
    extended += children[1]  # type: ignore[arg-type]
    return extended


def _appends(operations: list[Operation]) -> list[Operation]:
    """`operations` with each one-item list that extends the list below as one append.

    (`_item: x` then `_list: _list _item`: the shape of `_list: _list x`.)
    """
    simpler: list[Operation] = []
    for operation in operations:
        if operation is _EXTEND_OPERATION and simpler and simpler[-1] == (1, None):
            simpler[-1] = None
        else:
            simpler.append(operation)
    return simpler


def _replay(operations: tuple[Operation, ...], values: list[object]) -> None:
    """The value operations of a learnt step, in order."""
    for operation in operations:
        if operation is None:
            item = values.pop()
            values[-1].append(item)  # type: ignore[attr-defined]
            continue
        length, build = operation
        if length < 0:  # _EXTEND_OPERATION
            item = values.pop()
            values[-1] += item  # type: ignore[operator]
            continue
        if length:
            children = values[-length:]
            del values[-length:]
        else:
            children = []
        values.append(children if build is None else build(children))


def _pop_children(length: int, build: Build | None, values: list[object]) -> None:
    """Replace the `length` values on top by the value `build` makes of them (a list if None)."""
    if length:
        children = values[-length:]
        del values[-length:]
    else:
        children = []
    values.append(children if build is None else build(children))
