"""Patch text still being streamed → the operations seen so far (progress only).

Read by the grammar's own LALR parser (`_grammar.parser()`, Lark's interactive
parser): each complete line is given its terminal by the grammar's terminal
patterns and fed as it arrives, so each line costs O(line), never a re-parse of
the text so far. One piece is ours, because Lark's lexer cannot do it on an
unfinished text: the grammar reads a run of `+`/`-`/context lines as ONE terminal
(`ADDED_LINES`, `CHANGE_LINES`), and a lexer only knows where a run ends once the
line after it arrives. So the lines of a run are kept and counted as they come
(a file line starts with ` `, `+` or `-`, or is blank), and the run is fed to the
parser as its terminal when the next marker arrives, after its text is checked
against that terminal's own pattern (taken from the parser). The marker lines
are told by the grammar's marker terminals, also taken from the parser.

Only complete lines are read, so what is reported never shrinks as text
arrives: operations are only appended, a Move target is only set once, line
counts only grow. Text before `*** Begin Patch` (a heredoc or fence line, prose)
is skipped, and nothing after `*** End Patch` is read. Markers may carry the
whitespace `parse_patch` forgives (any around them outside an Update, trailing
inside one). A line or run the grammar does not take where it stands is passed
over, its lines still counted, and an operation header or `*** End Patch` the
parser refuses after it starts the reading again from there (as a patch just
begun): the report is progress, never a verdict. The
result must never be used to apply anything; parse the finished text with
`parse_patch`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lark import Token

from . import _constants as C
from ._grammar import parser

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal

    from lark.parsers.lalr_interactive_parser import InteractiveParser

_OPERATIONS: Final[dict[str, Literal["add", "delete", "update"]]] = {
    "ADD_FILE": "add",
    "DELETE_FILE": "delete",
    "UPDATE_FILE": "update",
}
# The grammar's marker terminals (one line each, read in their forgiven spelling).
_MARKERS: Final = ("END_PATCH", "ENVIRONMENT_ID", "ADD_FILE", "DELETE_FILE", "UPDATE_FILE",
                   "MOVE_TO", "END_OF_FILE", "CHUNK_HEADER")  # fmt: skip
# The terminals a run is fed as, in the order they are tried where both could stand.
_RUNS: Final = ("ADDED_LINES", "CHANGE_LINES")
# The markers that begin or end an operation whatever came before: where the parser
# refuses one (after lines it did not take), reading starts again from it.
_ENDS_OPERATION: Final = frozenset({"ADD_FILE", "DELETE_FILE", "UPDATE_FILE", "END_PATCH"})
# The lines of a run that are lines of a file (context, added, removed; blank: empty
# context), counted as they arrive. Any other line joins the run too, and the run's
# terminal pattern decides at its end whether the parser takes it.
_COUNTED: Final = (C.CONTEXT, C.ADDED, C.REMOVED)


@dataclass(frozen=True, slots=True)
class PartialOperation:
    """An operation seen so far: its kind, path, Move target, and lines seen."""

    kind: Literal["add", "delete", "update"]
    path: str
    move_to: str | None = None
    lines: int = 0


@dataclass(frozen=True, slots=True)
class PartialPatch:
    """What a partial patch text holds so far."""

    operations: tuple[PartialOperation, ...]
    started: bool
    finished: bool


@dataclass(frozen=True, slots=True)
class _Terminals:
    """The grammar's marker terminals as one pattern, and the patterns of the run
    terminals (all taken from the parser, never written here)."""

    markers: re.Pattern[str]
    runs: dict[str, re.Pattern[str]]


_terminals: _Terminals | None = None


def _grammar_terminals() -> _Terminals:
    global _terminals
    if _terminals is None:
        lark = parser()

        def one_of(names: tuple[str, ...]) -> re.Pattern[str]:
            return re.compile("|".join(f"(?P<{n}>{lark.get_terminal(n).pattern.to_regexp()})" for n in names))

        runs = {n: re.compile(lark.get_terminal(n).pattern.to_regexp()) for n in _RUNS}
        _terminals = _Terminals(one_of(_MARKERS), runs)
    return _terminals


def _terminal(pattern: re.Pattern[str], line: str) -> str | None:
    """The name of the terminal of `pattern` that takes the whole of `line`, if any."""
    match = pattern.fullmatch(line)
    return None if match is None else match.lastgroup


class PartialReader:
    """Reads a patch as it streams in: `feed` it text in pieces of any size, ask `partial`.

    Each complete line costs O(its length) (the parser's state is kept, not rebuilt).
    """

    def __init__(self) -> None:
        self._rest = ""  # the last line, not complete yet
        self._parser: InteractiveParser | None = None  # set by `*** Begin Patch`
        self._finished = False
        self._operations: list[PartialOperation] = []
        self._run: list[str] = []  # the lines of the run being read, fed when it ends

    def feed(self, text: str) -> None:
        """Read the lines `text` completes; a partial last line waits for the rest."""
        if self._finished or not text:
            return
        lines = (self._rest + text).split("\n")
        self._rest = lines.pop()
        for line in lines:
            if not self._line(line.removesuffix("\r")):  # `*** End Patch`: nothing after it is read
                self._rest = ""
                return

    @property
    def partial(self) -> PartialPatch:
        """What the lines read so far hold."""
        return PartialPatch(tuple(self._operations), self._parser is not None, self._finished)

    def _line(self, line: str) -> bool:
        """Read one complete line; False once `*** End Patch` is read."""
        if self._parser is None:
            if line.strip(C.WHITESPACE) == C.BEGIN_PATCH:
                self._start()
            return True
        terminals = _grammar_terminals()
        in_update = bool(self._operations) and self._operations[-1].kind == "update"
        marker = line.rstrip(C.WHITESPACE) if in_update else line.strip(C.WHITESPACE)
        kind = _terminal(terminals.markers, marker + "\n")
        if kind is None:
            self._run_line(line)
            return True
        self._end_run()
        taken = self._feed(kind, marker + "\n")
        if not taken and kind in _ENDS_OPERATION:  # after what the grammar refused: start again here
            self._start()
            taken = self._feed(kind, marker + "\n")
        if kind == "END_PATCH":
            self._finished = True
        elif taken:
            self._note(kind, marker)
        return not self._finished

    def _start(self) -> None:
        """A parser that has read `*** Begin Patch`."""
        self._parser = parser().parse_interactive(start="patch")
        self._feed("BEGIN_PATCH", C.BEGIN_PATCH + "\n")

    def _run_line(self, line: str) -> None:
        if line == "" and not self._run and self._feed("BLANK", "\n"):
            return  # a blank line after `*** End of File`: a terminal of its own
        self._run.append(line + "\n")
        if (line == "" or line.startswith(_COUNTED)) and self._operations:
            self._operations[-1] = replace(self._operations[-1], lines=self._operations[-1].lines + 1)

    def _end_run(self) -> None:
        """Feed the run read so far as the run terminal that may stand here and takes it."""
        if not self._run:
            return
        assert self._parser is not None
        run, self._run = "".join(self._run), []
        choices = self._choices()
        for name, pattern in _grammar_terminals().runs.items():
            if name in choices and pattern.fullmatch(run):
                self._feed(name, run)
                return

    def _choices(self) -> dict[str, object]:
        """The terminals (and rules) the parser may take next: its LALR table row, O(1)."""
        assert self._parser is not None
        choices: dict[str, object] = self._parser.choices()  # type: ignore[no-untyped-call]  # unannotated in Lark
        return choices

    def _feed(self, kind: str, text: str) -> bool:
        """Give the parser one token; False (and the parser unchanged) where it cannot stand."""
        assert self._parser is not None
        if kind not in self._choices():
            return False
        self._parser.feed_token(Token(kind, text))
        return True

    def _note(self, kind: str, marker: str) -> None:
        """Record what a marker the parser took tells about the operations."""
        if kind in _OPERATIONS:
            header = {"ADD_FILE": C.ADD_FILE, "DELETE_FILE": C.DELETE_FILE, "UPDATE_FILE": C.UPDATE_FILE}[kind]
            self._operations.append(PartialOperation(_OPERATIONS[kind], marker[len(header) :]))
        elif kind == "MOVE_TO":
            self._operations[-1] = replace(self._operations[-1], move_to=marker[len(C.MOVE_TO) :])


def parse_partial(text: str) -> PartialPatch:
    """The operations in the complete lines of `text` (which may end mid-line).

    For a text that grows, keep one `PartialReader` and feed it what arrives: this
    function reads `text` whole each time.
    """
    reader = PartialReader()
    reader.feed(text)
    return reader.partial
