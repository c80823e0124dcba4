"""Patch text still being streamed → the operations seen so far (progress only).

Only complete lines are read, so what is reported never shrinks as text
arrives: operations are only appended, a Move target is only set once, line
counts only grow. The result must never be used to apply anything; parse the
finished text with `parse_patch`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import _constants as C

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final, Literal

_HEADERS: Final[tuple[tuple[str, Literal["add", "delete", "update"]], ...]] = (
    (C.ADD_FILE, "add"),
    (C.DELETE_FILE, "delete"),
    (C.UPDATE_FILE, "update"),
)
_CHANGE_PREFIXES: Final = (C.CONTEXT, C.ADDED, C.REMOVED)


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


def parse_partial(text: str) -> PartialPatch:
    """The operations in the complete lines of `text` (which may end mid-line).

    Text before `*** Begin Patch` (a heredoc or fence line, prose) is skipped,
    and nothing after `*** End Patch` is read.
    """
    operations: list[PartialOperation] = []
    started = finished = False
    for raw in text.split("\n")[:-1]:
        line = raw.removesuffix("\r")
        if not started:
            started = line.strip(C.WHITESPACE) == C.BEGIN_PATCH
            continue
        in_update = bool(operations) and operations[-1].kind == "update"
        marker = line.rstrip(C.WHITESPACE) if in_update else line.strip(C.WHITESPACE)
        if marker == C.END_PATCH:
            finished = True
            break
        header = next((h for h in _HEADERS if marker.startswith(h[0])), None)
        if header is not None:
            operations.append(PartialOperation(header[1], marker[len(header[0]) :]))
        elif operations:
            operations[-1] = _extend(operations[-1], line, marker)
    return PartialPatch(tuple(operations), started, finished)


def _extend(operation: PartialOperation, line: str, marker: str) -> PartialOperation:
    if (
        operation.kind == "update"
        and marker.startswith(C.MOVE_TO)
        and operation.move_to is None
        and operation.lines == 0
    ):
        return replace(operation, move_to=marker[len(C.MOVE_TO) :])
    if line == "" or line.startswith(_CHANGE_PREFIXES):
        return replace(operation, lines=operation.lines + 1)
    return operation
