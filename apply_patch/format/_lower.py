"""The other formats' calls → the one model (pure): `as_patch`.

`StrReplace`, `Insert`, `CreateFile` and `NotebookEdit` (`_edits`) are what
the formats say, each naming its file; the planner runs a `Patch`. Here each
call becomes an operation of the model, and the edits in place of one file
that follow each other become one `UpdateFile` holding them in order:

- `StrReplace` and `Insert` → themselves, the edits of an update of their path;
  a `StrReplace` with an empty old text → an `AddFile` that may fill an empty file
  (`existing="empty"`); `NotebookEdit` → itself, in an update of its own;
- `CreateFile` → an `AddFile` of its exact text (every line ending explicit),
  `existing="overwrite"` when it may replace a file;
- the Codex operations (a unified diff's updates and deletions) as they are.
"""

from __future__ import annotations

from ._edits import CreateFile, HashlineEdits, Insert, NotebookEdit, StrReplace
from ._model import AddFile, Chunk, Patch, UpdateFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from ._edits import EditOperation
    from ._model import Operation


Change = Chunk | StrReplace | Insert | NotebookEdit | HashlineEdits
"""The closed set of edits an update holds (`UpdateFile.chunks`)."""


def as_patch(operations: Iterable[Operation | EditOperation]) -> Patch:
    """The `Patch` (`per_file`) that does what `operations` say, in order."""
    lowered: list[Operation] = []
    run: list[Change] = []  # the edits in place of the update lowered last, while it grows
    for call in operations:
        operation = lowered_call(call)
        last = lowered[-1] if lowered else None
        update = _in_place(operation)
        if run and update is not None and isinstance(last, UpdateFile) and last.path == update.path:
            run += update.chunks
            continue
        _close(lowered, run)
        lowered.append(operation)
        run = list(update.chunks) if update is not None else []
    _close(lowered, run)
    return Patch(tuple(lowered), per_file=True)


def lowered_call(call: Operation | EditOperation) -> Operation:
    """The operation of the model that does what `call` says."""
    if isinstance(call, StrReplace) and not call.old:
        return _added(call.path, call.new, call.line, call.label or "the old text", "empty")
    if isinstance(call, (StrReplace, Insert, NotebookEdit)):
        return UpdateFile(call.path, None, (call,), call.line)
    if isinstance(call, CreateFile):
        existing = "overwrite" if call.overwrite else "policy"
        return _added(call.path, call.text, call.line, call.label or "CreateFile", existing)
    return call


def _in_place(operation: Operation) -> UpdateFile | None:
    """`operation` if it is an update of replacements and insertions only (the edits that
    join the next ones of the same file into one update), else None."""
    if not isinstance(operation, UpdateFile) or operation.move_to is not None:
        return None
    in_place = all(isinstance(c, (StrReplace, Insert)) for c in operation.chunks)
    return operation if in_place else None


def _close(lowered: list[Operation], run: list[Change]) -> None:
    """The last update of `lowered` given every edit of its `run` (the ones joined to it)."""
    last = lowered[-1] if lowered else None
    if isinstance(last, UpdateFile) and len(run) > len(last.chunks):
        lowered[-1] = UpdateFile(last.path, None, tuple(run), last.line)


def _added(path: str, text: str, line: int, label: str, existing: str) -> AddFile:
    """An `AddFile` of exactly `text`: a line's ending written out where it is not "\n"
    ("" for a last line without one)."""
    if "\r" not in text:  # the common case, at C speed
        lines = text.split("\n")
        last = lines.pop()
        endings: list[tuple[int, str]] = []
        if last:
            lines.append(last)
            endings.append((len(lines) - 1, ""))
        return AddFile(path, tuple(lines), line, tuple(endings), existing, label)
    lines, endings, start = [], [], 0
    while start < len(text):
        cut = _next_break(text, start)
        ending = "" if cut < 0 else "\r\n" if text.startswith("\r\n", cut) else text[cut]
        lines.append(text[start:] if cut < 0 else text[start:cut])
        if ending != "\n":
            endings.append((len(lines) - 1, ending))
        start = len(text) if cut < 0 else cut + len(ending)
    return AddFile(path, tuple(lines), line, tuple(endings), existing, label)


def _next_break(text: str, start: int) -> int:
    """Where the next line break ("\\n", "\\r\\n" or "\\r") from `start` begins; -1: none."""
    lf, cr = text.find("\n", start), text.find("\r", start)
    if cr < 0 or (0 <= lf < cr):
        return lf
    return cr
