"""The common canonical patch → model, line by line, without the LALR driver (same model).

`_parse` reads every patch with the tables built from the grammar (`_lalr`): a
few dozen instructions of Python for each token, reduction and callback, the
largest cost of a patch that updates many small files. Most patches are plain:
Add, Delete and Update files whose lines are `+`, `-`, ` ` or blank, `@@`
lines, `*** Move to:` and `*** End of File`. `parsed` reads exactly those, as
the grammar does, into the objects the driver's callbacks would make (same
fields, same patch line numbers); for anything else (an environment id, the
`\\` ending lines, and every text that does not follow the grammar: the errors
are the driver's to name) it returns None, and the driver reads the text.
`tests/format/test_quick.py` compares both on thousands of patches.
"""

from __future__ import annotations

from . import _constants as C
from ._model import AddFile, Chunk, DeleteFile, Patch, UpdateFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._model import Operation

# The first character of a change line (_change_line: CONTEXT_LINE | ADD_LINE | DELETE_LINE | BLANK).
_CHANGE_FIRST: Final = frozenset({C.CONTEXT, C.ADDED, C.REMOVED, ""})
_HEADERS: Final = (C.ADD_FILE, C.DELETE_FILE, C.UPDATE_FILE)


class _NotPlain(Exception):
    """The text is not one `parsed` reads: the driver reads it (and names any error)."""


def parsed(text: str) -> Patch | None:
    """The patch of canonical `text` (`_unwrap`), or None when it is not a plain one."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the LF of the last line
    if len(lines) < 2 or lines[0] != C.BEGIN_PATCH or lines[-1] != C.END_PATCH:
        return None
    try:
        return Patch(tuple(_Reader(lines).operations()), None)
    except _NotPlain:
        return None


class _Reader:
    """The lines between `*** Begin Patch` (line 1) and `*** End Patch` (the last), read once."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at = 1  # the index of the next line; its patch line is `at + 1`
        self.end = len(lines) - 1  # the index of `*** End Patch`

    def operations(self) -> list[Operation]:
        """patch: BEGIN_PATCH hunk* END_PATCH (an environment id: not plain)"""
        found: list[Operation] = []
        while self.at < self.end:
            line = self.lines[self.at]
            if not line.startswith(_HEADERS):
                raise _NotPlain
            number = self.at + 1
            self.at += 1
            if line.startswith(C.ADD_FILE):
                found.append(AddFile(_path(line, C.ADD_FILE), self._added_lines(), line=number))
            elif line.startswith(C.DELETE_FILE):
                found.append(DeleteFile(_path(line, C.DELETE_FILE), line=number))
            else:
                found.append(self._update(_path(line, C.UPDATE_FILE), number))
        return found

    def _added_lines(self) -> tuple[str, ...]:
        """_added_lines: (BLANK* ADD_LINE)* (a blank line not followed by a `+` line: not plain)"""
        texts: list[str] = []
        blanks = 0
        while self.at < self.end:
            line = self.lines[self.at]
            if line.startswith(C.ADDED):
                texts += [""] * blanks
                texts.append(line[1:])
                blanks = 0
            elif line == "":
                blanks += 1
            else:
                break
            self.at += 1
        if blanks:
            raise _NotPlain
        return tuple(texts)

    def _update(self, path: str, number: int) -> UpdateFile:
        """update_file: UPDATE_FILE MOVE_TO? _chunks, with _chunks: END_OF_FILE* first_chunk? chunk*,
        first_chunk: _change_lines end_of_file?, chunk: CHUNK_HEADER+ _change_lines end_of_file?,
        end_of_file: END_OF_FILE BLANK*"""
        lines, at, end = self.lines, self.at, self.end
        move_to = None
        if at < end and lines[at].startswith(C.MOVE_TO):
            move_to = _path(lines[at], C.MOVE_TO)
            at += 1
        while at < end and lines[at] == C.END_OF_FILE:
            at += 1
        chunks: list[Chunk] = []
        while at < end:
            first = at  # the chunk's first line: its first @@ line, or (first_chunk) its first change
            while at < end and (lines[at] == C.CHUNK_HEADER or lines[at].startswith(C.CHUNK_HEADER_WITH_CONTEXT)):
                at += 1
            if at == first and chunks:
                break  # no @@ line: the Update is over (a later chunk needs one)
            start = at
            while at < end and lines[at][:1] in _CHANGE_FIRST:
                at += 1
            if at == start:
                if first < start:
                    raise _NotPlain  # @@ lines and no change line: an error
                break
            stop = at
            end_of_file = at < end and lines[at] == C.END_OF_FILE
            if end_of_file:
                at += 1
                while at < end and lines[at] == "":
                    at += 1
            contexts = [header[3:] for header in lines[first:start]]  # (after "@@ ")
            chunks.append(Chunk(
                tuple(context for context in contexts if context.strip(C.WHITESPACE)),
                tuple([line or C.CONTEXT for line in lines[start:stop]]),  # a blank line: empty context
                end_of_file,
                line=first + 1,
            ))  # fmt: skip
        self.at = at
        if at < end and not lines[at].startswith(_HEADERS):
            raise _NotPlain  # a line no rule takes here: an error
        if move_to is None and not chunks:
            raise _NotPlain  # an empty Update: the driver's error
        return UpdateFile(path, move_to, tuple(chunks), line=number)


def _path(line: str, header: str) -> str:
    """The path after `header` (PATH: at least one character)."""
    if len(line) == len(header):
        raise _NotPlain
    return line[len(header) :]

