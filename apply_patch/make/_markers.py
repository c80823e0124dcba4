"""Placed drafts → chunks whose lines end exactly as in the new file (default policy).

Under the default policy the applier keeps the ending of every context line,
gives each `+` line the old file's first ending, and keeps the old file's
state of the final newline. Where that is not what the new file has, the `+`
line gets an explicit ending (`\\ Line ending: CRLF`, `\\ No newline at end of
file`). A context line cannot: when the new file's last line is a context
line that would lose its ending (the old file had no final newline), it is
removed and added again, as git does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..format import constants as C, Line, Chunk
from ._drafts import Draft


@dataclass(frozen=True, slots=True)
class OldEndings:
    """What the applier takes from the old file: its first ending, its final newline."""

    preferred: str
    has_final_newline: bool


def settle(drafts: list[Draft], old: OldEndings) -> tuple[Chunk, ...]:
    """The chunks of `drafts`, with explicit endings wherever the default would differ."""
    return tuple(_chunk(_fix_last_line(draft, old), old) for draft in drafts)


def _last_new(draft: Draft) -> int | None:
    """The index of the draft's last line of the new file, if it has one."""
    return next((i for i in range(len(draft.lines) - 1, -1, -1) if draft.lines[i].is_new), None)


def _fix_last_line(draft: Draft, old: OldEndings) -> Draft:
    """Remove and add again a last context line that would otherwise lose its ending."""
    last = _last_new(draft)
    if not draft.is_end_of_file or last is None or old.has_final_newline:
        return draft
    line = draft.lines[last]
    if line.prefix != C.CONTEXT or not line.ending:
        return draft
    removed = Line(C.REMOVED, line.text, line.ending)
    added = Line(C.ADDED, line.text, line.ending)
    lines = (*draft.lines[:last], removed, *draft.lines[last + 1 :], added)
    return replace(draft, lines=lines)


def _chunk(draft: Draft, old: OldEndings) -> Chunk:
    last = _last_new(draft) if draft.is_end_of_file else None
    endings = []
    for i, line in enumerate(draft.lines):
        if line.prefix != C.ADDED:
            continue
        default = old.preferred
        if i == last and not old.has_final_newline:
            default = ""
        if line.ending != default:
            endings.append((i, line.ending))
    return draft.to_chunk(tuple(endings))
