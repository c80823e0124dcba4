"""The first of this project's additions to the Codex envelope that a canonical patch uses,
as the error the reference gives for it (read under `slips="refuse"`: `--codex`).

The additions (docs/format.md, "Also accepted") that the grammar takes and the
reference does not: consecutive `@@` lines, a Move with no chunk, an empty line
between the `+` lines of an Add File, and `\\` lines (a line's ending). The wrappers
the reference does not read (a fence, a heredoc other than its `<<EOF`, JSON, a shell
command) are `_unwrap`'s. Each is found with a few searches of the whole text (the
`--codex` path reads large patches too), never line by line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import _constants as C
from ._constants import EMPTY_UPDATE, EXPECTED_CHUNK_HEADER, INVALID_HEADER, UNEXPECTED_LINE
from .._errors import BareSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

ONE_HEADER_HINT: Final = (
    "The reference reads one `@@` line per chunk: keep only the one nearest the change "
    "(a line of the file above it), and add context lines if the chunk then fits more than one place."
)
MOVE_HINT: Final = (
    "The reference moves a file only with a chunk: add one (`@@`, then a context line of the "
    "file), or delete the file and add it again at its new path."
)
ADD_LINE_HINT: Final = "Every line of an added file starts with `+`, an empty one too: write `+` alone."
ENDING_HINT: Final = "The reference reads no `\\` lines (a line's ending): remove the line."

_HEADER_PAIR: Final = "\n" + re.escape(C.CHUNK_HEADER) + "[^\n]*\n" + re.escape(C.CHUNK_HEADER)
_NEXT_OPERATION: Final = (*C.FILE_HEADERS, C.END_PATCH)


@dataclass(frozen=True, slots=True)
class Addition:
    """An addition the reference refuses: `found` is the patch line where the reference,
    reading in order, stops on it (a Move's Update is found empty at the next header);
    `error` what it says then."""

    found: int
    error: BareSyntaxError


def first_addition(text: str, raw_line: Callable[[int], str]) -> Addition | None:
    """The addition of canonical `text` the reference stops on first, or None.

    `raw_line(n)` is patch line `n` as sent (the reference quotes some as sent)."""
    found = [
        addition
        for addition in (
            _consecutive_headers(text, raw_line),
            _chunkless_move(text),
            _empty_added_line(text),
            _ending_line(text, raw_line),
        )
        if addition is not None
    ]
    return min(found, key=lambda addition: addition.found, default=None)


def _line_at(text: str, offset: int) -> int:
    """The patch line of the line that starts at `offset`."""
    return text.count("\n", 0, offset) + 1


def _consecutive_headers(text: str, raw_line: Callable[[int], str]) -> Addition | None:
    """The second of two `@@` lines in a row: to the reference a line no chunk may hold."""
    pair = re.search(_HEADER_PAIR, text)
    if pair is None:
        return None
    line = _line_at(text, pair.end() - len(C.CHUNK_HEADER))
    raw = raw_line(line)
    error = BareSyntaxError(UNEXPECTED_LINE.format(raw), line=line, text=raw, hints=(ONE_HEADER_HINT,))
    return Addition(line, error)


def _chunkless_move(text: str) -> Addition | None:
    """An Update with a Move and no chunk (`*** End of File` lines at most): empty to the
    reference, which finds it so at the next operation's header (or `*** End Patch`)."""
    move = text.find("\n" + C.MOVE_TO)
    while move >= 0:
        after = text.index("\n", move + 1) + 1  # the line after the Move (`*** End Patch` at least)
        while text.startswith(C.END_OF_FILE + "\n", after):
            after += len(C.END_OF_FILE) + 1
        if text.startswith(_NEXT_OPERATION, after):
            header_start = text.rindex("\n", 0, move) + 1  # the Update's header: the line before
            header = text[header_start:move]
            error = BareSyntaxError(
                EMPTY_UPDATE.format(header[len(C.UPDATE_FILE) :]),
                line=_line_at(text, header_start),
                text=header,
                hints=(MOVE_HINT,),
            )
            return Addition(_line_at(text, after), error)
        move = text.find("\n" + C.MOVE_TO, after - 1)
    return None


def _empty_added_line(text: str) -> Addition | None:
    """An empty line amid an Add File's `+` lines: to the reference, a bad header."""
    add = text.find("\n" + C.ADD_FILE)
    while add >= 0:
        header_end = text.index("\n", add + 1)
        end = text.find("\n*** ", header_end)  # the next marker line (`*** End Patch` at least)
        empty = text.find("\n\n", header_end, end)
        if empty >= 0:
            line = _line_at(text, empty + 1)
            return Addition(line, BareSyntaxError(INVALID_HEADER.format(""), line=line, text="", hints=(ADD_LINE_HINT,)))
        add = text.find("\n" + C.ADD_FILE, end)
    return None


def _ending_line(text: str, raw_line: Callable[[int], str]) -> Addition | None:
    """A `\\` line: a bad header after an Add's lines, and where a chunk's `@@` should be
    after an Update's."""
    at = text.find("\n\\")
    if at < 0:
        return None
    line = _line_at(text, at + 1)
    raw = raw_line(line)
    marker = text.rfind("\n*** ", 0, at) + 1  # the Add's header, or a marker of the Update
    if text.startswith(C.ADD_FILE, marker):
        message = INVALID_HEADER.format(raw.strip(C.WHITESPACE))
    else:
        message = EXPECTED_CHUNK_HEADER.format(raw)
    return Addition(line, BareSyntaxError(message, line=line, text=raw, hints=(ENDING_HINT,)))
