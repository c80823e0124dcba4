"""A chunk being made: its lines with their endings, where it starts in the old file.

Both patch makers (`_make` from two texts, `_convert` from a unified diff)
first describe each change as a Draft, then place it (`_place`: `@@` hints,
`*** End of File`, more context where the place is not certain) and settle
its endings (`_markers`) before it becomes a model `Chunk`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..format import constants as C, Line, Chunk
from ..apply import BOM, TextFile


@dataclass(frozen=True, slots=True)
class Draft:
    """A chunk to be: `lines` replacing the old lines from index `start`.

    For a pure insertion (no old line), `start` is where the lines go.
    """

    start: int
    lines: tuple[Line, ...]
    contexts: tuple[str, ...] = ()
    is_end_of_file: bool = False

    @property
    def old_texts(self) -> list[str]:
        """The lines the chunk expects in the old file."""
        return [line.text for line in self.lines if line.is_old]

    @property
    def end(self) -> int:
        """The index in the old file just after the chunk."""
        return self.start + sum(1 for line in self.lines if line.is_old)

    def with_context_above(self, old: TextFile) -> "Draft":
        """The draft with one more context line above it, taken from `old`."""
        at = self.start - 1
        above = Line(C.CONTEXT, old.lines[at], old.endings[at])
        return replace(self, start=at, lines=(above, *self.lines))

    def with_context_below(self, old: TextFile) -> "Draft":
        """The draft with one more context line below it, taken from `old`."""
        at = self.end
        below = Line(C.CONTEXT, old.lines[at], old.endings[at])
        return replace(self, lines=(*self.lines, below))

    def to_chunk(self, endings: tuple[tuple[int, str], ...] = ()) -> Chunk:
        """The model chunk, with explicit endings `(index in lines, ending)`."""
        lines = tuple(line.prefix + line.text for line in self.lines)
        return Chunk(self.contexts, lines, self.is_end_of_file, endings=endings)


def with_bom_as_text(new: TextFile) -> TextFile:
    """`new` with its byte-order mark moved into the text of its first line.

    For an old file without a BOM: the BOM is then an ordinary change of the
    first line (an Update cannot add an invisible BOM otherwise).
    """
    if not new.bom:
        return new
    if not new.lines:
        return TextFile([BOM], [""])
    return TextFile([BOM + new.lines[0], *new.lines[1:]], list(new.endings))
