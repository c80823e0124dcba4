"""A unified diff's hunks placed by their line numbers in a file's UTF-8 bytes, never split into lines (pure).

Nearly every diff is applied to the file it was made from: each hunk's
expected lines are where its header says, shifted by how many lines the
hunks before it added or removed. This module checks exactly that, comparing
only the hunk's own lines with the bytes at that place, and splices the new
lines in, so that a large file costs a few passes of C over its bytes: no
string per line, no index, no decoding, one copy (the new bytes).

It works on the UTF-8 bytes of the file's text as one LF string (`_text.LfText`,
CRLF files aside) and is one of the strategies `_place.place` tries. UTF-8 is
self-synchronising: the encoded lines of a hunk are at the start of a line of the
bytes exactly where its text is at the start of that line of the text (bytes a
file read with `non_utf8="preserve"` cannot decode never match a hunk's lines, as
their lone surrogates never match in the text).

It answers only where the locator (`_locate`) would give the same result
without a doubt; it returns None otherwise, and the file goes to the
locator: a file with a CR, a byte-order mark, no final newline, or no
lines; the policy `line_endings="crlf"` or `ambiguous="first"` (whose
warnings name the other places of a hunk: the locator's index finds them);
a chunk that is not a plain hunk (`@@` lines, explicit endings, pinned to the
end of the file, added lines only); a hunk adding a line indented with tabs to a
file with a line indented with spaces, or the reverse (the locator checks its
unit, `_indent.in_file_unit`); a hunk whose lines are not at its
numbered place, or not after the hunk before it; lines that no UTF-8 holds
(lone surrogates: the locator says so). Where it answers, the locator places
every hunk at the same line (`_locate._at_numbers`), by the exact tier,
pinned by its numbers (no other place weighed), and writes the same bytes:
context lines are the file's own (equal to the hunk's, LF after each),
added lines end with LF as the file's lines do.
"""

from __future__ import annotations

from ...format import constants as C
from ._placement import EXACT, Placement

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...format import Chunk
    from ..._policy import Policy

_BOM: Final = b"\xef\xbb\xbf"
_FIND_LIMIT: Final = 16  # lines below which `find` line by line beats counting a stretch
_SAMPLE: Final = 1 << 16  # bytes read for the average length of a line


class Numbered:
    """Where each hunk goes in the file: `spans` of (start offset, end offset, new bytes) in
    order, not overlapping, offsets in the file's bytes; `placements` as the locator
    reports them."""

    __slots__ = ("spans", "placements")

    def __init__(self, spans: list[tuple[int, int, bytes]], placements: tuple[Placement, ...]) -> None:
        self.spans = spans
        self.placements = placements


def placed_by_numbers(data: bytes, chunks: tuple[Chunk, ...], policy: Policy) -> Numbered | None:
    """Every chunk of `chunks` (a unified diff's hunks, in order) at the place its numbers
    name in `data`, the UTF-8 bytes of a file's text (BOM aside, every line ending with
    LF); None when one is not, or the file or policy is one the locator must decide (see
    the module's docstring)."""
    if not data or not data.endswith(b"\n") or data.startswith(_BOM) or b"\r" in data:
        return None
    if policy.line_endings == "crlf" or policy.ambiguous == "first":
        return None
    head = min(len(data), _SAMPLE)  # bytes a line, on average, at the top (to jump over many lines)
    width = head / max(data.count(b"\n", 0, head), 1)
    spans: list[tuple[int, int, bytes]] = []
    placements: list[Placement] = []
    line, offset, free = 0, 0, 0  # `line` starts at `offset`; hunks go from line `free`
    indented: dict[str, bool] = {}  # whether a line of the file starts with a tab, a space
    for chunk in chunks:
        if chunk.near is None or chunk.contexts or chunk.endings or chunk.is_end_of_file:
            return None
        if _other_unit(chunk, data, indented):
            return None  # added lines maybe in another unit than the file's: the locator warns
        lines = chunk.lines
        old = [s[1:] for s in lines if s[0] != C.ADDED]
        new = [s[1:] for s in lines if s[0] != C.REMOVED]
        target = chunk.near  # the hunks before it are at theirs: no shift
        if not old or target < free:
            return None
        try:  # the expected lines with the LF before the first: found only at a line's start
            needle = ("\n" + "\n".join(old) + "\n").encode()
            added = ("\n".join(new) + "\n").encode() if new else b""
        except UnicodeEncodeError:
            return None  # a lone surrogate: the locator says so
        start = _line_of(data, offset, target - line, needle, width)
        if start < 0:
            return None
        line, offset = target, start
        spans.append((start, start + len(needle) - 1, added))
        placements.append(Placement(chunk.line, target + 1, EXACT, len(lines) - len(old), len(lines) - len(new)))
        free = target + len(old)
    return Numbered(spans, tuple(placements))


def _other_unit(chunk: Chunk, data: bytes, indented: dict[str, bool]) -> bool:
    """Whether an added line of `chunk` starts with a tab (or a space) while some line of the
    file starts with the other: its indentation may not be the file's (`_indent.in_file_unit`
    decides, in the locator). `indented` keeps what was learnt of the file (one `find` each)."""
    for line in chunk.lines:
        if line[0] == C.ADDED and line[1:2] in ("\t", " "):
            other = " " if line[1] == "\t" else "\t"
            if other not in indented:
                indented[other] = data.startswith(other.encode()) or ("\n" + other).encode() in data
            if indented[other]:
                return True
    return False


def _line_of(data: bytes, offset: int, count: int, needle: bytes, width: float) -> int:
    """The offset of the line `count` lines below the line starting at `offset`, if it
    starts with `needle[1:]` (`needle` is the expected lines with an LF before them);
    else -1.

    The first place after `offset` where `needle` is (`find`, C speed) is nearly always
    that line: one count of the LFs before it says so. A place past it means the line
    holds something else; a place before it (the same lines earlier too), that the
    line is counted down to (`line_below`, `width` bytes a line on average) and compared.
    """
    if count == 0:  # only the first hunk, on the first line
        return offset if data.startswith(needle[1:], offset) else -1
    found = data.find(needle, offset)  # its LF at `offset` or after: a line after `offset`
    if found < 0:
        return -1
    seen = data.count(b"\n", offset, found + 1)
    if seen == count:
        return found + 1
    if seen > count:
        return -1
    start = line_below(data, found + 1, count - seen, width)
    return start if start > 0 and data.startswith(needle, start - 1) else -1


def line_below(data: bytes, offset: int, count: int, width: float) -> int:
    """The offset of the line `count` (>= 0) lines below the line starting at `offset` in
    `data` (every line ends with LF): `len(data)` just past its last line, -1 further.

    Long distances are jumped by counting the LFs of stretches of about `width`
    bytes a line (`bytes.count`, C speed, each byte read once); the last few lines
    are found one by one.
    """
    while count > _FIND_LIMIT:
        stop = min(offset + int(count * width * 0.75) + 1, len(data))
        seen = data.count(b"\n", offset, stop)
        while seen > count:  # shorter lines here than on average: half the stretch
            stop = offset + (stop - offset) // 2
            seen = data.count(b"\n", offset, stop)
        if seen == 0:  # a line longer than the stretch: over it alone
            found = data.find(b"\n", offset)
            if found < 0:
                return -1
            offset, count = found + 1, count - 1
            continue
        offset = data.rfind(b"\n", offset, stop) + 1  # just past the stretch's last LF
        count -= seen
    for _ in range(count):
        found = data.find(b"\n", offset)
        if found < 0:
            return -1
        offset = found + 1
    return offset


def spliced_bytes(data: bytes, spans: list[tuple[int, int, bytes]]) -> bytes:
    """`data` with each span's bytes replaced by its new bytes: the file's other bytes
    are copied once, into the result (views of them, not slices, are joined)."""
    view = memoryview(data)
    pieces: list[bytes | memoryview] = []
    kept = 0
    for start, end, new in spans:
        pieces += (view[kept:start], new)
        kept = end
    pieces.append(view[kept:])
    return b"".join(pieces)
