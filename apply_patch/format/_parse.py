"""Patch text → `Patch`: unwrap, parse with Lark's LALR parser of the grammar, name errors as the reference does.

The parser is the one Lark builds from `grammar/apply_patch.lark` (`_grammar.parser`);
`_ToModel`, a Lark transformer, turns its tree into the model.
"""

from __future__ import annotations

import re
from typing import Final

from lark import Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedToken, VisitError

from . import _constants as C
from ._constants import (
    EMPTY_CHUNK,
    EMPTY_UPDATE,
    EXPECTED_CHUNK_HEADER,
    INVALID_HEADER,
    LAST_LINE_ERROR,
    REPEATED_ENVIRONMENT,
    UNEXPECTED_LINE,
)
from ._grammar import parser
from ._model import AddFile, Chunk, DeleteFile, Patch, UpdateFile
from .._errors import BareSyntaxError
from ._syntax_hints import with_facts
from ._unwrap import Unwrapped, unwrap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from ._reference import Addition


def parse_patch(text: str, *, decode: bool = False, reference: bool = False) -> Patch:
    """Parse patch text (lenient surface, see `_unwrap`) into the typed model.

    Raises PatchSyntaxError with the reference's message and the patch line,
    the offending line when the message does not quote it, and hints. With
    `decode` (as `apply_patch()` does), a patch sent as JSON or as a shell
    command is taken out of it (see `_unwrap`); the shell's `cd` folder is
    `Patch.workdir` and what was decoded `Patch.notes`. With `reference`
    (`slips="refuse"`, `--codex`), only what the reference reads is read: this
    project's additions (docs/format.md) are refused with the reference's error,
    where the reference would stop on them first (`_reference`); `decode` is then
    ignored.
    """
    origin = text
    try:
        source = unwrap(text, decode=decode and not reference, reference=reference)
        origin = source.origin
        try:
            patch = parse_canonical(source.text)
        except ParseError as exc:
            error = _syntax_error(exc, source)
            addition = _first_addition(source) if reference else None
            raise error if addition is None or addition.found >= exc.line else addition.error from None
        if reference and (addition := _first_addition(source)) is not None:
            raise addition.error
        if source.text_after_end:
            raise BareSyntaxError(LAST_LINE_ERROR)
    except BareSyntaxError as bare:  # built once, with its facts, from the text its lines are counted in
        raise with_facts(origin, bare) from None
    assert isinstance(patch, Patch)
    if source.workdir is None and not source.notes:
        return patch
    return Patch(patch.operations, patch.environment_id, workdir=source.workdir, notes=source.notes)


def _first_addition(source: Unwrapped) -> Addition | None:
    """The first addition to the envelope in `source` that the reference stops on."""
    from ._reference import first_addition  # with --codex only

    return first_addition(source.text, lambda number: source.raw_lines[number - 1])


class ParseError(Exception):
    """Canonical text that the grammar does not take.

    `line` is where the parser stopped; `expected` the terminals it could accept
    there; `found` the terminal it found instead ("$END" at the end of the text),
    or None when no terminal matches the text there.
    """

    def __init__(self, line: int, expected: frozenset[str], found: str | None) -> None:
        super().__init__(f"line {line}: expected one of {sorted(expected)}, found {found}")
        self.line = line
        self.expected = expected
        self.found = found


def parse_canonical(text: str, start: str = "patch") -> object:
    """Canonical `text` read from the grammar's rule `start` into the model (`_ToModel`).

    Raises ParseError where the grammar refuses the text, BareSyntaxError where
    the model does (an Update with neither chunk nor move).
    """
    try:
        return _TO_MODEL.transform(parser().parse(text, start=start))
    except UnexpectedToken as exc:  # at the end of the text, "$END" on the last token's line
        raise ParseError(exc.token.line or 1, frozenset(exc.expected), exc.token.type) from None
    except UnexpectedCharacters as exc:  # no terminal at all matches there
        raise ParseError(exc.line, frozenset(exc.allowed), None) from None
    except VisitError as exc:  # a transformer method refused the text
        raise exc.orig_exc from None


class _EnvironmentId(str):
    """The value of `*** Environment ID:` on its way up to `start`."""


def _text(token: Token, prefix: str) -> str:
    return token[len(prefix) :].removesuffix("\n")


class _ToModel(Transformer[Token, object]):
    """Builds the model from the parser's tree; docstrings quote the rules."""


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
        """add_file: ADD_FILE ADDED_LINES?"""
        header = children[0]
        texts, endings = _added_lines(children[1] if len(children) > 1 else "")
        return AddFile(_text(header, C.ADD_FILE), texts, line=_line(header), endings=endings)

    def create_diff(self, children: list[Token]) -> AddFile:
        """create_diff: ADDED_LINES? (the path is the operation's: set by the caller)"""
        texts, endings = _added_lines(children[0] if children else "")
        return AddFile("", texts, line=1, endings=endings)

    def delete_file(self, children: list[Token]) -> DeleteFile:
        """delete_file: DELETE_FILE"""
        return DeleteFile(_text(children[0], C.DELETE_FILE), line=_line(children[0]))

    def update_file(self, children: list[Token]) -> UpdateFile:
        """update_file: UPDATE_FILE MOVE_TO? _chunks"""
        header = children[0]
        path = _text(header, C.UPDATE_FILE)
        moved = len(children) > 1 and children[1].type == "MOVE_TO"
        move_to = _text(children[1], C.MOVE_TO) if moved else None
        chunks = _chunks(children[2 if moved else 1 :])
        if move_to is None and not chunks:
            raise BareSyntaxError(
                EMPTY_UPDATE.format(path), line=_line(header), text=header.removesuffix("\n")
            )
        return UpdateFile(path, move_to, chunks, line=_line(header))

    def update_diff(self, children: list[Token]) -> UpdateFile:
        """update_diff: _chunks (path and move are the operation's: set by the caller)"""
        return UpdateFile("", None, _chunks(children), line=1)


_TO_MODEL: Final = _ToModel(visit_tokens=False)  # no method is named after a terminal


def _added_lines(run: str) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """ADDED_LINES: the texts of the `+` lines (a blank line is an empty one), and their endings."""
    lines = run.split("\n")[:-1]
    start = len(C.ADDED)
    texts = [line[start:] for line in lines if not line.startswith("\\")]
    endings = _explicit_endings(lines) if len(texts) < len(lines) else ()
    return tuple(texts), endings


def _chunks(tokens: list[Token]) -> tuple[Chunk, ...]:
    """The chunks of the tokens of `_chunks` (the grammar's: `END_OF_FILE* _first_chunk?
    _chunk*`, taken by the parser): a chunk's tokens end with its CHANGE_LINES token, or a
    CHUNKS token holds chunks one after the other; an END_OF_FILE right after a chunk pins
    it to the end of the file (one before the first chunk ends nothing, and the BLANK
    lines after one are nothing)."""
    runs: list[tuple[str, int]] = []  # each chunk's text and patch line
    pinned: set[int] = set()  # the runs an END_OF_FILE follows
    headers: list[Token] = []
    for token in tokens:
        kind = token.type
        if kind == "CHUNK_HEADER":
            headers.append(token)
        elif kind == "CHANGE_LINES":
            runs.append(("".join([*headers, token]), _line(headers[0] if headers else token)))
            headers = []
        elif kind == "CHUNKS":
            runs += _each_chunk(token)
        elif kind == "END_OF_FILE" and runs:
            pinned.add(len(runs) - 1)
    return tuple(chunk_of(text, line, number in pinned) for number, (text, line) in enumerate(runs))


def _each_chunk(run: Token) -> Iterator[tuple[str, int]]:
    """The chunks of a CHUNKS token, each its text and patch line: a chunk starts at each
    `@@` line that does not follow another (no change line starts so)."""
    heads = [match.start() + 1 for match in re.finditer(_HEADER_LINE, run)]
    starts = [0, *(at for before, at in zip([0, *heads], heads) if run.rfind("\n", 0, at - 1) + 1 != before)]
    line = _line(run)
    for start, end in zip(starts, [*starts[1:], len(run)]):
        text = run[start:end]
        yield text, line
        line += text.count("\n")


# A literal, searched at C speed; compiled by `re` when a CHUNKS token is first cut.
_HEADER_LINE: Final = re.escape("\n" + C.CHUNK_HEADER)


def chunk_of(text: str, line: int, end_of_file: bool) -> Chunk:
    """The chunk of the text the parser took for it, from patch line `line`: its `@@` lines
    (CHUNK_HEADER) and its change lines (CHANGE_LINES), as one chunk of a CHUNKS run or
    apart; `end_of_file` when `*** End of File` followed. (The streaming reader builds its
    chunks here too.)"""
    lines = text.split("\n")[:-1]
    headers = 0
    while lines[headers].startswith(C.CHUNK_HEADER):  # no change line starts so
        headers += 1
    contexts = []
    for header in lines[:headers]:
        context = header[len(C.CHUNK_HEADER_WITH_CONTEXT) :]
        if context.strip(C.WHITESPACE):
            contexts.append(context)
    changes = lines[headers:]
    texts: list[str] = changes
    endings: tuple[tuple[int, str], ...] = ()
    if "\n\\" in text:  # `\\` lines: an added line's ending
        texts = [line for line in changes if not line.startswith("\\")]
        endings = _explicit_endings(changes)
    if "" in texts:  # a blank line is an empty context line
        texts = [line or C.CONTEXT for line in texts]
    # A line without ending ends the file: the chunk is pinned there.
    end_of_file = end_of_file or any(ending == "" for _, ending in endings)
    return Chunk(tuple(contexts), tuple(texts), end_of_file, line=line, endings=endings)


# A `\` line after a `+` line: `\ Line ending: CRLF` or `\ No newline at end of file`.
_ENDINGS_BY_NAME: Final = {name: ending for ending, name in C.ENDING_NAMES.items()}


def _explicit_endings(lines: list[str]) -> tuple[tuple[int, str], ...]:
    """(index of the line among the lines that are not `\\` lines, ending) for each `\\` line."""
    endings: list[tuple[int, str]] = []
    index = -1
    for line in lines:
        if line == C.NO_NEWLINE:
            endings.append((index, ""))
        elif line.startswith(C.LINE_ENDING):
            endings.append((index, _ENDINGS_BY_NAME[line[len(C.LINE_ENDING) :]]))
        else:
            index += 1
    return tuple(endings)


def _line(token: Token) -> int:
    return token.line or 1


def _syntax_error(exc: ParseError, source: Unwrapped) -> BareSyntaxError:
    """Name a grammar error the way the reference does, from the parser's state.

    The set of terminals the parser expected tells where it stood: inside an
    Update (change lines or `@@` expected), at blank lines that end an Add
    (blank lines belong to an Add only when more `+` lines follow), or between
    hunks.
    """
    expected, found, number = set(exc.expected), exc.found, exc.line
    raw = source.raw_lines[number - 1]
    canonical = source.text.split("\n")
    if "CHANGE_LINES" in expected or "CHUNK_HEADER" in expected:
        return _update_error(number, raw, expected, found, canonical)
    if found == "BLANK" and _ends_added_lines(canonical[number - 2]):
        return BareSyntaxError(INVALID_HEADER.format(""), line=number, text="")
    if found == "ENVIRONMENT_ID" and canonical[number - 2].startswith(C.ENVIRONMENT_ID):
        return BareSyntaxError(REPEATED_ENVIRONMENT)
    return BareSyntaxError(INVALID_HEADER.format(raw.strip(C.WHITESPACE)), line=number, text=raw)


def _update_error(
    number: int, raw: str, expected: set[str], found: str | None, canonical: list[str]
) -> BareSyntaxError:
    in_empty_chunk = "CHANGE_LINES" in expected and "ADD_FILE" not in expected
    if in_empty_chunk and found in ("END_PATCH", "END_OF_FILE"):
        return BareSyntaxError(EMPTY_CHUNK, line=number, text=raw)
    if in_empty_chunk or ("CHANGE_LINES" in expected and not _chunk_since_header(canonical, number)):
        return BareSyntaxError(UNEXPECTED_LINE.format(raw), line=number, text=raw)
    return BareSyntaxError(EXPECTED_CHUNK_HEADER.format(raw), line=number, text=raw)


def _ends_added_lines(line: str) -> bool:
    """Whether `line` is an Add's header, or a line of its that more lines may follow."""
    return line.startswith((C.ADD_FILE, C.ADDED, C.LINE_ENDING))


def _chunk_since_header(canonical: list[str], number: int) -> bool:
    """Whether a chunk began between the Update header and patch line `number`."""
    for line in reversed(canonical[: number - 1]):
        if line.startswith(C.UPDATE_FILE):
            return False
        if not line.startswith((C.MOVE_TO, C.END_OF_FILE)):
            return True
    return False
