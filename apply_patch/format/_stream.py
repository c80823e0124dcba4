"""Patch text still being streamed → the operations and chunks seen so far.

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

Two reports. `partial` is the summary: only complete lines are read, so what it
reports never shrinks as text arrives: operations are only appended, a Move
target is only set once, line counts only grow. `read` gives, for each complete
line, what the grammar made of it (`LineRead`): the operation its header began,
the chunk of an Update it is a line of (with the chunk's patch line, and its old
text for a context, removed or blank line), and the chunk it completed, built
from the very tokens the parser took (`_parse.chunk_of`, as `parse_patch` builds
it). `StreamingPlan` judges chunks from these and reads no marker itself.

Text before `*** Begin Patch` (a heredoc or fence line, prose) is skipped (its
lines counted), and nothing after `*** End Patch` is read. Markers may carry the
whitespace `parse_patch` forgives (any around them outside an Update, trailing
inside one). A line or run the grammar does not take where it stands is passed
over, its lines still counted (a chunk it is part of is never completed), and an
operation header or `*** End Patch` the parser refuses after it starts the
reading again from there (as a patch just begun): the report is progress, never
a verdict. The result must never be used to apply anything; parse the finished
text with `parse_patch`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lark import Token
from lark.exceptions import UnexpectedInput

from . import _constants as C
from ._grammar import parser
from ._parse import chunk_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Literal

    from lark.parsers.lalr_interactive_parser import InteractiveParser

    from ._model import Chunk

_OPERATIONS: Final[dict[str, Literal["add", "delete", "update"]]] = {
    "ADD_FILE": "add",
    "DELETE_FILE": "delete",
    "UPDATE_FILE": "update",
}
# The grammar's marker terminals (one line each, read in their forgiven spelling).
_MARKERS: Final = ("END_PATCH", "ENVIRONMENT_ID", "ADD_FILE", "DELETE_FILE", "UPDATE_FILE",
                   "MOVE_TO", "END_OF_FILE", "CHUNK_HEADER")  # fmt: skip
# The markers of one Update's diff (the grammar's `update_diff`, and `*** End Patch`, where
# the native tool's reader stops): any other line is a run's.
_DIFF_MARKERS: Final = frozenset({"END_OF_FILE", "CHUNK_HEADER", "END_PATCH"})
# The terminals a run is fed as, in the order they are tried where both could stand.
_RUNS: Final = ("ADDED_LINES", "CHANGE_LINES")
# The markers that begin or end an operation whatever came before: where the parser
# refuses one (after lines it did not take), reading starts again from it.
_ENDS_OPERATION: Final = frozenset({"ADD_FILE", "DELETE_FILE", "UPDATE_FILE", "END_PATCH"})
# The lines of a run that are lines of a file (context, added, removed; blank: empty
# context), counted as they arrive. Any other line joins the run too, and the run's
# terminal pattern decides at its end whether the parser takes it.
_COUNTED: Final = (C.CONTEXT, C.ADDED, C.REMOVED)
# Of those, the lines the file holds before the change (blank: an empty context line).
_OLD: Final = (C.CONTEXT, C.REMOVED)


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


@dataclass(frozen=True, slots=True)
class LineRead:
    """One complete line as the grammar read it (`PartialReader.read` gives one a line).

    `number`: its patch line (1-based in the text fed, lines before the patch counted).
    `operation`: the operation its header began. `finished`: it is `*** End Patch`.
    `complete`: the chunk of an Update (or of a diff) this line completed: its `@@` lines,
    change lines and `*** End of File` all taken by the parser, now followed by another
    chunk's `@@`, a header or `*** End Patch` (or the end of the text, `end`); its patch
    line is its first `@@` line, else its first line. It comes before what the line begins.
    `chunk_line`: the patch line of the chunk of an Update this line is in (0: none).
    `old`: for a context, removed or blank line of that chunk, its text in the file (no
    prefix); None for any other line.
    """

    number: int
    operation: PartialOperation | None = None
    finished: bool = False
    complete: Chunk | None = None
    chunk_line: int = 0
    old: str | None = None


class PartialReader:
    """Reads a patch as it streams in: `feed` (or `read`) it text in pieces of any size,
    ask `partial`.

    Each complete line costs O(its length) (the parser's state is kept, not rebuilt).
    `diff_of`: the text is not a patch but the diff of one Update of that path (the
    native tool's `update_file` operation): read from the grammar's `update_diff` rule,
    from its first line, its only markers `@@` and `*** End of File`, and nothing read
    after an `*** End Patch` line (which may end such a diff).
    """

    def __init__(self, diff_of: str | None = None) -> None:
        self._rest = ""  # the last line, not complete yet
        self._parser: InteractiveParser | None = None  # set by `*** Begin Patch`
        self._finished = False
        self._closed = False  # `end` was called: nothing more is read
        self._number = 0  # the lines read
        self._operations: list[PartialOperation] = []  # the last one's `lines` kept in `_counted`
        self._counted = 0  # the file lines of the last operation so far
        self._updating = False  # the last operation is an Update
        self._run: list[str] = []  # the lines of the run being read, fed when it ends
        self._run_from = 0  # the patch line of its first line
        self._markers: frozenset[str] | None = None  # None: all the grammar's
        # The chunk being read: its patch line, the tokens the parser took for it, whether
        # `*** End of File` followed them, and whether the parser refused any of its lines.
        self._chunk_line = 0
        self._chunk: list[Token] = []
        self._chunk_at_end = False
        self._chunk_refused = False
        self._chunks = True  # completed chunks are built (`read`), not only counted (`feed`)
        if diff_of is not None:
            self._parser = parser().parse_interactive(start="update_diff")
            self._operations.append(PartialOperation("update", diff_of))
            self._updating = True
            self._markers = _DIFF_MARKERS

    def feed(self, text: str) -> None:
        """Read the lines `text` completes; a partial last line waits for the rest. (Only
        `partial` is wanted: the chunks completed are not built.)"""
        self._lines(text, chunks=False)

    def read(self, text: str) -> list[LineRead]:
        """`feed`, giving what each line `text` completes was (nothing after `*** End Patch`)."""
        return self._lines(text, chunks=True)

    def _lines(self, text: str, *, chunks: bool) -> list[LineRead]:
        if self._finished or self._closed or not text:
            return []
        self._chunks = chunks
        lines = (self._rest + text).split("\n")
        self._rest = lines.pop()
        found: list[LineRead] = []
        for line in lines:
            self._number += 1
            read = self._line(line.removesuffix("\r"))
            found.append(read)
            if read.finished:  # `*** End Patch`: nothing after it is read
                self._rest = ""
                break
        return found

    def end(self) -> list[LineRead]:
        """The text ended: its last line is read even without its line end, and the chunk
        being read is complete. Nothing is read after this."""
        if self._closed:
            return []
        found = self._lines("\n", chunks=True) if self._rest else []
        self._chunks = True
        self._closed = True
        if self._finished or self._parser is None:
            return found
        self._end_run()
        chunk = self._completed()
        return found if chunk is None else [*found, LineRead(self._number, complete=chunk)]

    @property
    def partial(self) -> PartialPatch:
        """What the lines read so far hold."""
        operations = tuple(self._operations)
        if operations:
            operations = (*operations[:-1], replace(operations[-1], lines=self._counted))
        return PartialPatch(operations, self._parser is not None, self._finished)

    def _line(self, line: str) -> LineRead:
        """Read one complete line."""
        if self._parser is None:
            if line.strip(C.WHITESPACE) == C.BEGIN_PATCH:
                self._start()
            return LineRead(self._number)
        terminals = _grammar_terminals()
        marker = line.rstrip(C.WHITESPACE) if self._updating else line.strip(C.WHITESPACE)
        kind = _terminal(terminals.markers, marker + "\n")
        if kind is None or (self._markers is not None and kind not in self._markers):
            return self._run_line(line)
        self._end_run()
        complete = None
        if kind in _ENDS_OPERATION or (kind == "CHUNK_HEADER" and (self._chunk_refused or self._has_lines())):
            complete = self._completed()
        token = self._feed(kind, marker + "\n")
        if token is None and kind in _ENDS_OPERATION and self._markers is None:
            self._start()  # after what the grammar refused: start again here
            token = self._feed(kind, marker + "\n")
        operation = None
        if kind == "END_PATCH":
            self._finished = True
        elif token is None:
            self._chunk_refused = self._chunk_refused or self._chunk_line > 0
        else:
            operation = self._note(kind, marker, token)
        return LineRead(self._number, operation, self._finished, complete, self._chunk_line)

    def _start(self) -> None:
        """A parser that has read `*** Begin Patch`."""
        self._parser = parser().parse_interactive(start="patch")
        self._feed("BEGIN_PATCH", C.BEGIN_PATCH + "\n")

    def _run_line(self, line: str) -> LineRead:
        in_update = self._updating
        if line == "" and not self._run and self._feed("BLANK", "\n"):  # after `*** End of File`
            return LineRead(self._number, chunk_line=self._chunk_line, old="" if in_update else None)
        if not self._run:
            self._run_from = self._number
        self._run.append(line + "\n")
        counted = line == "" or line.startswith(_COUNTED)
        self._counted += counted  # (a bool)
        if not (counted and in_update):
            return LineRead(self._number, chunk_line=self._chunk_line)
        if not self._chunk_line:  # a first chunk without `@@`
            self._chunk_line = self._number
        old = line[1:] if line.startswith(_OLD) else "" if line == "" else None
        return LineRead(self._number, chunk_line=self._chunk_line, old=old)

    def _end_run(self) -> None:
        """Feed the run read so far as the run terminal that may stand here and takes it."""
        if not self._run:
            return
        assert self._parser is not None
        run, self._run = "".join(self._run), []
        choices = self._choices()
        for name, pattern in _grammar_terminals().runs.items():
            if name in choices and pattern.fullmatch(run):
                token = self._feed(name, run, self._run_from)
                if token is not None and name == "CHANGE_LINES":
                    self._chunk.append(token)
                return
        self._chunk_refused = self._chunk_refused or self._chunk_line > 0

    def _has_lines(self) -> bool:
        return any(token.type == "CHANGE_LINES" for token in self._chunk)

    def _completed(self) -> Chunk | None:
        """The chunk being read, now complete (None if the parser refused any of it, or it
        has no lines); the next starts afresh."""
        tokens, at_end, refused = self._chunk, self._chunk_at_end, self._chunk_refused
        self._chunk, self._chunk_at_end, self._chunk_refused, self._chunk_line = [], False, False, 0
        if refused or not self._chunks or not any(token.type == "CHANGE_LINES" for token in tokens):
            return None
        return chunk_of("".join(tokens), tokens[0].line or 1, at_end)

    def _choices(self) -> dict[str, object]:
        """The terminals (and rules) the parser may take next: its LALR table row, O(1)."""
        assert self._parser is not None
        choices: dict[str, object] = self._parser.choices()  # type: ignore[no-untyped-call]  # unannotated in Lark
        return choices

    def _feed(self, kind: str, text: str, line: int = 0) -> Token | None:
        """Give the parser one token (of patch line `line`, else the line being read); None
        (and the parser unchanged) where it cannot stand."""
        assert self._parser is not None
        if kind not in self._choices():
            return None
        token = Token(kind, text, line=line or self._number)
        state = self._parser.parser_state
        # The stacks stay a few entries deep (the grammar's repetitions are reduced as they go).
        saved = state.state_stack[:], state.value_stack[:]
        try:
            self._parser.feed_token(token)
        except UnexpectedInput:
            # The table's row allowed it, but only to reduce first and refuse after (LALR
            # merges the rows of `patch` and `update_diff`: a diff's `*** End Patch` does
            # this): the reductions are undone, the parser left as it was.
            state.state_stack[:], state.value_stack[:] = saved
            return None
        return token

    def _note(self, kind: str, marker: str, token: Token) -> PartialOperation | None:
        """Record what a marker the parser took tells; the operation its header began."""
        if kind in _OPERATIONS:
            header = {"ADD_FILE": C.ADD_FILE, "DELETE_FILE": C.DELETE_FILE, "UPDATE_FILE": C.UPDATE_FILE}[kind]
            operation = PartialOperation(_OPERATIONS[kind], marker[len(header) :])
            if self._operations:
                self._operations[-1] = replace(self._operations[-1], lines=self._counted)
            self._operations.append(operation)
            self._counted, self._updating = 0, kind == "UPDATE_FILE"
            return operation
        if kind == "MOVE_TO":
            self._operations[-1] = replace(self._operations[-1], move_to=marker[len(C.MOVE_TO) :])
        elif kind == "CHUNK_HEADER":
            self._chunk_line = self._chunk_line or self._number
            self._chunk.append(token)
        elif kind == "END_OF_FILE" and self._has_lines():  # before the first chunk it ends nothing
            self._chunk_at_end = True
        return None


def parse_partial(text: str) -> PartialPatch:
    """The operations in the complete lines of `text` (which may end mid-line).

    For a text that grows, keep one `PartialReader` and feed it what arrives: this
    function reads `text` whole each time.
    """
    reader = PartialReader()
    reader.feed(text)
    return reader.partial
