"""Patch text → `Patch`: unwrap, parse with the LALR grammar, name errors as the reference does.

The parser runs the tables Lark built from the grammar (`_grammar.tables`)
with our driver (`_lalr`), which calls the `_ToModel` methods as it reduces,
the way a Lark transformer is called; tokens are `(terminal, text, line)`.
A plain patch (`_quick`) is read line by line into the same model instead.
"""

from __future__ import annotations

from . import _constants as C
from ._grammar import tables
from ._lalr import ParseError, Parser
from ._model import AddFile, Chunk, DeleteFile, Patch, UpdateFile
from ._quick import parsed
from ._constants import LAST_LINE_ERROR
from .._errors import BareSyntaxError
from ._unwrap import Unwrapped, unwrap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._lalr import Token

INVALID_HEADER: Final = (
    "'{}' is not a valid hunk header. Valid hunk headers: "
    "'*** Add File: {{path}}', '*** Delete File: {{path}}', '*** Update File: {{path}}'"
)
UNEXPECTED_LINE: Final = (
    "Unexpected line found in update hunk: '{}'. Every line should start with "
    "' ' (context line), '+' (added line), or '-' (removed line)"
)
EXPECTED_CHUNK_HEADER: Final = "Expected update hunk to start with a @@ context marker, got: '{}'"
EMPTY_CHUNK: Final = "Update hunk does not contain any lines"
EMPTY_UPDATE: Final = "Update file hunk for path '{}' is empty"
REPEATED_ENVIRONMENT: Final = "apply_patch environment_id cannot be specified more than once"


def parse_patch(text: str, *, decode: bool = False) -> Patch:
    """Parse patch text (lenient surface, see `_unwrap`) into the typed model.

    Raises PatchSyntaxError with the reference's message and the patch line,
    the offending line when the message does not quote it, and hints. With
    `decode` (as `apply_patch()` does), a patch sent as JSON or as a shell
    command is taken out of it (see `_unwrap`); the shell's `cd` folder is
    `Patch.workdir` and what was decoded `Patch.notes`.
    """
    origin = text
    try:
        source = unwrap(text, decode=decode)
        origin = source.origin
        try:  # a plain patch is read line by line (the same model); any other by the driver
            patch = parsed(source.text) or parser_from().parse(source.text)
        except ParseError as exc:
            raise _syntax_error(exc, source) from None
        if source.text_after_end:
            raise BareSyntaxError(LAST_LINE_ERROR)
    except BareSyntaxError as bare:  # built once, with its facts, from the text its lines are counted in
        from ._syntax_hints import with_facts  # failures only: start-up time

        raise with_facts(origin, bare) from None
    assert isinstance(patch, Patch)
    if source.workdir is None and not source.notes:
        return patch
    return Patch(patch.operations, patch.environment_id, workdir=source.workdir, notes=source.notes)


_PARSERS: dict[str, Parser] = {}


def parser_from(start: str = "patch") -> Parser:
    """The parser from start rule `start`, built on first use (it compiles the terminals' expressions)."""
    parser = _PARSERS.get(start)
    if parser is None:
        parser = _PARSERS[start] = Parser(tables(), _ToModel(), start)
    return parser


class _EnvironmentId(str):
    """The value of `*** Environment ID:` on its way up to `start`."""


class _EndOfFile:
    """Marks `*** End of File` on its way up to its chunk."""


def _text(token: Token, prefix: str) -> str:
    return token[1][len(prefix) :].removesuffix("\n")


class _ToModel:
    """Builds the model as the LALR parser reduces; docstrings quote the rules."""

    def patch(self, children: list[object]) -> Patch:
        """patch: BEGIN_PATCH environment? hunk* END_PATCH"""
        environment = next((c for c in children if isinstance(c, _EnvironmentId)), None)
        operations = tuple(
            c for c in children if isinstance(c, (AddFile, DeleteFile, UpdateFile))
        )
        return Patch(operations, None if environment is None else str(environment))

    start = patch  # start: the same with hunk+ (the tool grammar; the parser reads `patch`)

    def environment(self, children: list[Token]) -> _EnvironmentId:
        """environment: ENVIRONMENT_ID (an empty id was refused by `unwrap`)"""
        return _EnvironmentId(_text(children[0], C.ENVIRONMENT_ID).strip(C.WHITESPACE))

    def add_file(self, children: list[Token]) -> AddFile:
        """add_file: ADD_FILE _added_lines"""
        header, *tokens = children
        texts, endings = _added_lines(tokens)
        return AddFile(_text(header, C.ADD_FILE), texts, line=_line(header), endings=endings)

    def create_diff(self, children: list[Token]) -> AddFile:
        """create_diff: _added_lines (the path is the operation's: set by the caller)"""
        texts, endings = _added_lines(children)
        return AddFile("", texts, line=1, endings=endings)

    def delete_file(self, children: list[Token]) -> DeleteFile:
        """delete_file: DELETE_FILE"""
        return DeleteFile(_text(children[0], C.DELETE_FILE), line=_line(children[0]))

    def update_file(self, children: list[object]) -> UpdateFile:
        """update_file: UPDATE_FILE MOVE_TO? _chunks"""
        header: Token = children[0]  # type: ignore[assignment]
        path = _text(header, C.UPDATE_FILE)
        move_to = next(
            (_text(c, C.MOVE_TO) for c in children if isinstance(c, tuple) and c[0] == "MOVE_TO"),
            None,
        )
        chunks = tuple(c for c in children if isinstance(c, Chunk))
        if move_to is None and not chunks:
            raise BareSyntaxError(
                EMPTY_UPDATE.format(path), line=_line(header), text=header[1].removesuffix("\n")
            )
        return UpdateFile(path, move_to, chunks, line=_line(header))

    def update_diff(self, children: list[object]) -> UpdateFile:
        """update_diff: _chunks (path and move are the operation's: set by the caller)"""
        return UpdateFile("", None, tuple(c for c in children if isinstance(c, Chunk)), line=1)

    def first_chunk(self, children: list[object]) -> Chunk:
        """first_chunk: _change_lines end_of_file?"""
        return _chunk(children)

    def chunk(self, children: list[object]) -> Chunk:
        """chunk: CHUNK_HEADER+ _change_lines end_of_file?"""
        return _chunk(children)

    def end_of_file(self, children: list[Token]) -> _EndOfFile:
        """end_of_file: END_OF_FILE BLANK*"""
        return _EndOfFile()


def _added_lines(tokens: list[Token]) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """_added_lines: the texts of the `+` lines (a blank line is an empty one), and their endings."""
    start = len(C.ADDED)
    texts = [
        "" if kind == "BLANK" else text[start:].removesuffix("\n")
        for kind, text, _ in tokens
        if kind not in _ENDING_MARKERS
    ]
    endings = _explicit_endings(tokens) if len(texts) < len(tokens) else ()
    return tuple(texts), endings


def _chunk(children: list[object]) -> Chunk:
    """The children of `chunk` or `first_chunk`: `@@` lines, change lines, maybe the end mark."""
    end_of_file = isinstance(children[-1], _EndOfFile)
    tokens: list[Token] = children[:-1] if end_of_file else children  # type: ignore[assignment]
    headers = 0
    while tokens[headers][0] == "CHUNK_HEADER":
        headers += 1
    contexts = []
    for _, text, _ in tokens[:headers]:
        context = text[len(C.CHUNK_HEADER_WITH_CONTEXT) :].removesuffix("\n")
        if context.strip(C.WHITESPACE):
            contexts.append(context)
    changes = tokens[headers:]
    lines = [  # a blank line is an empty context line
        C.CONTEXT if kind == "BLANK" else text.removesuffix("\n")
        for kind, text, _ in changes
        if kind not in _ENDING_MARKERS
    ]
    endings = _explicit_endings(changes) if len(lines) < len(changes) else ()
    # A line without ending ends the file: the chunk is pinned there.
    end_of_file = end_of_file or any(ending == "" for _, ending in endings)
    return Chunk(tuple(contexts), tuple(lines), end_of_file, line=_line(tokens[0]), endings=endings)


# `\ Line ending: CRLF` / `\ No newline at end of file` after a `+` line.
_ENDING_MARKERS: Final = ("LINE_ENDING", "NO_NEWLINE")
_ENDINGS_BY_NAME: Final = {name: ending for ending, name in C.ENDING_NAMES.items()}


def _explicit_endings(tokens: list[Token]) -> tuple[tuple[int, str], ...]:
    """(index of the line among the non-marker tokens, ending) for each marker token."""
    endings: list[tuple[int, str]] = []
    index = -1
    for kind, text, _ in tokens:
        if kind == "NO_NEWLINE":
            endings.append((index, ""))
        elif kind == "LINE_ENDING":
            name = text.removesuffix("\n")[len(C.LINE_ENDING) :]
            endings.append((index, _ENDINGS_BY_NAME[name]))
        else:
            index += 1
    return tuple(endings)


def _line(token: Token) -> int:
    return token[2]


def _syntax_error(exc: ParseError, source: Unwrapped) -> BareSyntaxError:
    """Name a grammar error the way the reference does, from the parser's state.

    The set of terminals the parser expected tells where it stood: inside an
    Update (change lines expected), inside an Add after blank lines (only
    `+` lines expected), or between hunks.
    """
    expected, found, number = set(exc.expected), exc.found, exc.line
    raw = source.raw_lines[number - 1]
    canonical = source.text.split("\n")
    if "CONTEXT_LINE" in expected or "CHUNK_HEADER" in expected:
        return _update_error(number, raw, expected, found, canonical)
    if "ADD_LINE" in expected and "ADD_FILE" not in expected:
        first_blank = number
        while canonical[first_blank - 2] == "":
            first_blank -= 1
        return BareSyntaxError(INVALID_HEADER.format(""), line=first_blank, text="")
    if found == "ENVIRONMENT_ID" and canonical[number - 2].startswith(C.ENVIRONMENT_ID):
        return BareSyntaxError(REPEATED_ENVIRONMENT)
    return BareSyntaxError(INVALID_HEADER.format(raw.strip(C.WHITESPACE)), line=number, text=raw)


def _update_error(
    number: int, raw: str, expected: set[str], found: str | None, canonical: list[str]
) -> BareSyntaxError:
    in_empty_chunk = "CONTEXT_LINE" in expected and "ADD_FILE" not in expected
    if in_empty_chunk and found in ("END_PATCH", "END_OF_FILE"):
        return BareSyntaxError(EMPTY_CHUNK, line=number, text=raw)
    if in_empty_chunk or ("CONTEXT_LINE" in expected and not _chunk_since_header(canonical, number)):
        return BareSyntaxError(UNEXPECTED_LINE.format(raw), line=number, text=raw)
    return BareSyntaxError(EXPECTED_CHUNK_HEADER.format(raw), line=number, text=raw)


def _chunk_since_header(canonical: list[str], number: int) -> bool:
    """Whether a chunk began between the Update header and patch line `number`."""
    for line in reversed(canonical[: number - 1]):
        if line.startswith(C.UPDATE_FILE):
            return False
        if not line.startswith((C.MOVE_TO, C.END_OF_FILE)):
            return True
    return False
