"""A unified diff's hunks placed by their line numbers in a file's text, never split into lines (pure).

Nearly every diff is applied to the file it was made from: each hunk's
expected lines are where its header says, shifted by how many lines the
hunks before it added or removed. This module checks exactly that, comparing
only the hunk's own lines with the text at that place (`str.startswith`),
and splices the new lines in, so that a large file costs a few passes of C
over its text: no string per line, no index, no search.

It answers only where the locator (`_locate`) would give the same result
without a doubt; it returns None otherwise, and the file goes to the
locator: a file with a CR, a byte-order mark, no final newline, or no
lines; the policy `line_endings="crlf"` or `ambiguous="first"` (whose
warnings name the other places of a hunk: the locator's index finds them);
a chunk that is not a plain hunk (`@@` lines, explicit endings, pinned to the
end of the file, added lines only); a hunk whose lines are not at its
numbered place, or not after the hunk before it. Where it answers, the
locator places every hunk at the same line (`_locate._at_numbers`), by the
exact tier, pinned by its numbers (no other place weighed), and writes the
same bytes: context lines are the file's own (equal to the hunk's, LF
after each), added lines end with LF as the file's lines do.
"""

from __future__ import annotations

from ..format import constants as C
from ._locate import Placement
from ._seek import TIERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..format import Chunk
    from .._policy import Policy

_EXACT: Final = TIERS[0].name
_FIND_LIMIT: Final = 16  # lines below which `str.find` line by line beats counting a stretch
_SAMPLE: Final = 1 << 16  # characters read for the average length of a line


class Numbered:
    """Where each hunk goes in the text: `spans` of (start offset, end offset, new text) in
    order, not overlapping; `placements` as the locator reports them."""

    __slots__ = ("spans", "placements")

    def __init__(self, spans: list[tuple[int, int, str]], placements: tuple[Placement, ...]) -> None:
        self.spans = spans
        self.placements = placements


def placed_by_numbers(text: str, chunks: tuple[Chunk, ...], policy: Policy) -> Numbered | None:
    """Every chunk of `chunks` (a unified diff's hunks, in order) at the place its numbers
    name in `text`, a file's decoded text; None when one is not, or the file or policy is
    one the locator must decide (see the module's docstring)."""
    if not text or not text.endswith("\n") or text.startswith("\ufeff") or "\r" in text:
        return None
    if policy.line_endings == "crlf" or policy.ambiguous == "first":
        return None
    head = min(len(text), _SAMPLE)  # characters a line, on average, at the top (to jump over many lines)
    width = head / max(text.count("\n", 0, head), 1)
    spans: list[tuple[int, int, str]] = []
    placements: list[Placement] = []
    line, offset, free, drift = 0, 0, 0, 0  # `line` starts at `offset`; hunks go from line `free`
    for chunk in chunks:
        if chunk.near is None or chunk.contexts or chunk.endings or chunk.is_end_of_file:
            return None
        old = [s[1:] for s in chunk.lines if s[0] != C.ADDED]
        target = chunk.near + drift
        if not old or target < free:
            return None
        offset = line_below(text, offset, target - line, width)
        line = target
        needle = "\n".join(old) + "\n"
        if offset < 0 or not text.startswith(needle, offset):  # (past the end: no match either)
            return None
        new = [s[1:] for s in chunk.lines if s[0] != C.REMOVED]
        spans.append((offset, offset + len(needle), "\n".join(new) + "\n" if new else ""))
        added = len(chunk.lines) - len(old)
        placements.append(Placement(chunk.line, target + 1, _EXACT, added, len(chunk.lines) - len(new)))
        free, drift = target + len(old), target - chunk.near
    return Numbered(spans, tuple(placements))


def line_below(text: str, offset: int, count: int, width: float) -> int:
    """The offset of the line `count` (>= 0) lines below the line starting at `offset` in
    `text` (every line ends with LF): `len(text)` just past its last line, -1 further.

    Long distances are jumped by counting the LFs of stretches of about `width`
    characters a line (`str.count`, C speed, each character read once); the last
    few lines are found one by one.
    """
    while count > _FIND_LIMIT:
        stop = min(offset + int(count * width * 0.75) + 1, len(text))
        seen = text.count("\n", offset, stop)
        while seen > count:  # shorter lines here than on average: half the stretch
            stop = offset + (stop - offset) // 2
            seen = text.count("\n", offset, stop)
        if seen == 0:  # a line longer than the stretch: over it alone
            found = text.find("\n", offset)
            if found < 0:
                return -1
            offset, count = found + 1, count - 1
            continue
        offset = text.rfind("\n", offset, stop) + 1  # just past the stretch's last LF
        count -= seen
    for _ in range(count):
        found = text.find("\n", offset)
        if found < 0:
            return -1
        offset = found + 1
    return offset


def spliced_text(text: str, spans: list[tuple[int, int, str]]) -> str:
    """`text` with each span's characters replaced by its new text."""
    pieces: list[str] = []
    kept = 0
    for start, end, new in spans:
        pieces += (text[kept:start], new)
        kept = end
    pieces.append(text[kept:])
    return "".join(pieces)


def spliced_bytes(data: bytes, spans: list[tuple[int, int, str]]) -> bytes:
    """`data`, the bytes of an ASCII text, with each span's bytes (its offsets: the text's)
    replaced by its new text, which is ASCII too: the file's other bytes are not copied
    but once, into the result."""
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    kept = 0
    for start, end, new in spans:
        pieces += (view[kept:start], new.encode("ascii"))
        kept = end
    pieces.append(view[kept:])
    return b"".join(pieces)
