"""Operations of the Responses API's native `apply_patch` tool → operations of our model.

The native tool sends one operation per call, without the `*** Begin Patch`
envelope: `{"type": "create_file", "path", "diff"}` (the diff is the `+`
lines of an Add File), `{"type": "update_file", "path", "diff"}` (the diff is
one file's chunks, the "V4A diff": `@@ ctx`, ` `, `-`, `+` lines, maybe
`*** End of File`; `move_to`, which the openai-agents SDK may add, is a move)
or `{"type": "delete_file", "path"}`. The diffs are parsed by the grammar's
start rules `create_diff` and `update_diff`, so an operation is the same model
node an envelope would give, and goes through the same plan and commit.

A diff is read as leniently as an Update's chunks in an envelope: CRLF line
breaks, a first chunk without `@@`, blank lines as empty context lines,
trailing whitespace after markers (`@@ ctx`, `*** End of File`). Also: a
final line break is optional, and a last `*** End Patch` line is ignored (the
openai-agents SDK's own parser stops there too). A CRLF line break is a line
break, never content: a `create_file` diff written with CRLF gives the same
file as with LF (as an Add File in a CRLF patch does: LF lines, unless the
`line_endings` policy says `crlf`). Blank lines at the end of a `create_file`
diff are line breaks, not lines: an empty diff, or one of only line breaks
(`"\r\n"`), gives an empty file (0 bytes); a blank line between `+` lines is
an empty line of the file, as in an Add File.

Line numbers in errors and in the model count the lines of the diff (1 is its
first line); an error about the operation as a whole has no line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from . import _constants as C
from .._errors import OperationSyntaxError, PatchSyntaxError, escaped
from ._format import Format
from ._model import AddFile, Chunk, DeleteFile, Operation, UpdateFile
from ._constants import EMPTY_CHUNK, EMPTY_UPDATE, UNEXPECTED_LINE
from ._syntax_hints import quoted, syntax_hints
from ._unwrap import check_unicode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ._parse import ParseError

OPERATION_TYPES: Final = ("create_file", "update_file", "delete_file")
NOT_ADDED_LINE: Final = (
    "Every line of a create_file diff is a line of the new file, starting with '+'; got: {}"
)
UNIFIED_DIFF: Final = "this is a unified diff (@@ -1,3 +1,4 @@), not a V4A diff"
# What follows `@@ ` in a unified diff's hunk header.
_UNIFIED_HEADER: Final = re.compile(r"-\d+(,\d+)? \+\d+(,\d+)? @@")
# Its calls are JSON items of the Responses API (`responses.apply_calls`): no --format choice.
FORMAT: Final = Format("native-operations", "native tool operations", "native tool operations", choice=False)
_MARKERS: Final = (C.CHUNK_HEADER_WITH_CONTEXT,)
_EXACT_MARKERS: Final = (C.CHUNK_HEADER, C.END_OF_FILE)


def to_operation(kind: object, path: object, diff: object = None, move_to: object = None) -> Operation:
    """The model's operation for one native tool operation; OperationSyntaxError if it is not one."""
    label = _checked(kind, path, move_to)
    assert isinstance(path, str) and (move_to is None or isinstance(move_to, str))
    if kind == "delete_file":
        return DeleteFile(path)
    if diff is None:
        diff = ""
    if not isinstance(diff, str):
        raise OperationSyntaxError("the diff must be text", operation=label, path=path)
    parsed = _parse_diff(diff, label, path)
    if isinstance(parsed, AddFile):
        return AddFile(path, parsed.lines, line=0, endings=parsed.endings)
    assert isinstance(parsed, UpdateFile)
    _refuse_unified(parsed, diff, label, path)
    if not parsed.chunks and move_to is None:
        raise OperationSyntaxError(EMPTY_UPDATE.format(path), operation=label, path=path)
    return UpdateFile(path, move_to, parsed.chunks)


def _checked(kind: object, path: object, move_to: object) -> str:
    """The operation's type, once its type, path and move_to are known to be usable."""
    shown = printable(path) if isinstance(path, str) else None
    if kind not in OPERATION_TYPES:
        raise OperationSyntaxError(
            f"unknown operation type {kind!r}: use one of {', '.join(OPERATION_TYPES)}",
            operation="", path=shown,
        )
    label = str(kind)
    if not isinstance(path, str) or not path.strip(C.WHITESPACE):
        raise OperationSyntaxError("the operation needs a path", operation=label, path=None)
    if "\n" in path or "\r" in path:
        raise OperationSyntaxError("a path cannot hold a line break", operation=label, path=shown)
    if move_to is not None and (kind != "update_file" or not isinstance(move_to, str) or not move_to):
        raise OperationSyntaxError(
            "move_to is a non-empty path, and only update_file takes it", operation=label, path=shown
        )
    for name in (path, move_to):
        try:
            check_unicode(name or "", "A path")
        except PatchSyntaxError as invalid:
            raise OperationSyntaxError(invalid.message, operation=label, path=shown) from None
    return label


def _refuse_unified(parsed: UpdateFile, diff: str, kind: str, path: str) -> None:
    """A unified diff's `@@ -1,3 +1,4 @@` parses as chunks whose context matches nothing: say so."""
    for chunk in parsed.chunks:
        if isinstance(chunk, Chunk) and any(_UNIFIED_HEADER.match(context) for context in chunk.contexts):
            raise OperationSyntaxError(
                UNIFIED_DIFF, operation=kind, path=path, line=chunk.line,
                text=C.CHUNK_HEADER_WITH_CONTEXT + chunk.contexts[0],
                hints=syntax_hints(diff, chunk.line),
            )


def printable(text: str) -> str:
    """`text` in one line any output can hold: lone surrogates (which no file name or
    encoder takes) and control characters as escapes (`\\udc80`, `\\n`, `\\x1b`)."""
    return escaped(text)


def _parse_diff(diff: str, kind: str, path: str) -> AddFile | UpdateFile:
    """The diff parsed from its start rule: an AddFile or UpdateFile without path."""
    try:
        check_unicode(diff)
    except PatchSyntaxError as error:
        raise OperationSyntaxError(error.message, operation=kind, path=path, line=error.line) from None
    lines = canonical_lines(diff)
    start = "update_diff"
    if kind == "create_file":
        start = "create_diff"
        while lines and not lines[-1]:  # line breaks after the content, not lines of the file
            lines.pop()
    from ._parse import ParseError, parse_canonical  # Lark: loaded when a diff is read (start-up time)

    try:
        parsed = parse_canonical("".join(line + "\n" for line in lines), start)
    except ParseError as exc:
        raise _diff_error(exc, lines, kind, path, syntax_hints(diff, exc.line)) from None
    assert isinstance(parsed, (AddFile, UpdateFile))
    return parsed


def canonical_lines(diff: str) -> list[str]:
    """The diff's lines, markers in their canonical spelling (see the module's docstring)."""
    lines = diff.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":  # the final line break (or the empty diff)
        lines.pop()
    if lines and lines[-1].strip(C.WHITESPACE) == C.END_PATCH:
        lines.pop()
    for number, line in enumerate(lines):
        if line.startswith(("@", "*")):
            marker = line.rstrip(C.WHITESPACE)
            if marker.startswith(_MARKERS) or marker in _EXACT_MARKERS:
                lines[number] = marker
    return lines


def _diff_error(
    exc: ParseError, lines: list[str], kind: str, path: str, hints: tuple[str, ...]
) -> OperationSyntaxError:
    number = exc.line
    if kind == "create_file" and exc.found == "BLANK":  # blank lines are `+` lines only before one
        while number <= len(lines) and lines[number - 1] == "":
            number += 1
    raw = lines[number - 1] if number <= len(lines) else ""
    if kind == "create_file":
        return OperationSyntaxError(
            NOT_ADDED_LINE.format(quoted(raw)), operation=kind, path=path, line=number, text=raw,
            hints=hints,
        )
    if exc.found == "$END" or (exc.found == "END_OF_FILE" and "CHANGE_LINES" in exc.expected):
        return OperationSyntaxError(EMPTY_CHUNK, operation=kind, path=path, line=number, text=raw, hints=hints)
    return OperationSyntaxError(
        UNEXPECTED_LINE.format(raw), operation=kind, path=path, line=number, text=raw, hints=hints
    )


def item_field(holder: object, name: str) -> Any:
    """`holder[name]` of a mapping, `holder.name` of an object; None when absent."""
    if isinstance(holder, Mapping):
        return holder.get(name)
    return getattr(holder, name, None)


def read_operation(item: object) -> Operation:
    """The model's operation for a native one (dict or object); PatchSyntaxError if malformed."""
    return to_operation(
        item_field(item, "type"), item_field(item, "path"), item_field(item, "diff"), item_field(item, "move_to")
    )
