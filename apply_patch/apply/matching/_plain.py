"""The plain strategy: chunks found exactly as written, each holding a line the file has
once (pure, nothing on disk).

Most chunks a model writes are plain: no `@@` line, no line numbers, not pinned to
the end, no explicit ending. Each is found at the first place after the chunk before
it where the file holds its lines as written, and it holds a line the file has once,
so it can be nowhere else: the general search (`_locate.searched`) would answer the
same, with no tier, order or policy to weigh. `plain` is that answer without the
search's index, matches and doubts, which a plain update does not import; it declines
(None) for anything else.
"""

from __future__ import annotations

from collections import Counter

from ._placement import EXACT, Placement
from ._splice import Replacement, chunk_replacements, context_chunks, in_file_units, written
from ._text import Decoded, Edited, LfText
from ._textfile import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ...format import Chunk, UpdateFile
    from ._names import FileName
    from ._splice import Found
    from ..._policy import Policy


def plain_update(
    text: Decoded, update: UpdateFile, policy: Policy, where: FileName, lines: Callable[[], Decoded]
) -> Edited | None:
    """`_locate.update_lines`'s answer when every chunk of `update` is plain (`plain`), by a shorter
    way; else None. Whether every chunk may be plain is told before the file is split into
    lines (most chunks with `@@` lines decline here, for the strategies after it); `lines`
    splits it (`_text.as_lines`, once for this strategy and the search after it).

    A text held as one string (`LfText`) stays one: the chunks' lines are spliced into it
    (`_spliced`), not into lists of lines and endings joined again. Plain chunks carry no
    explicit ending and are not pinned to the end, so the only ending to decide is the
    last line's, as `_splice.splice` does: without one only where the file had none and the
    policy keeps that (`final_newline="keep"`)."""
    chunks = context_chunks(update)
    if not all(map(may_be_plain, chunks)):
        return None
    body = text.body
    if not isinstance(body, LfText):
        return written(text, update, plain, policy, where)
    string = body.body
    split = lines().body  # (split as `_text.as_lines` does: then no strategy after this one splits again)
    assert isinstance(split, TextFile)
    file_lines, ended = split.lines, split.has_final_newline
    located = plain(file_lines, chunks)
    if located is None:
        return None
    replacements, placements, warnings = located
    replacements, unit_warnings = in_file_units(file_lines, replacements, policy, where, placements, string)
    new = _spliced(string if ended else string + "\n", file_lines, replacements)
    if new and not ended and policy.final_newline == "keep":
        new = new[:-1]  # the last line, old or new, without an ending, as the file's was
    return Edited(text.with_body(LfText(new, body.bom)), tuple(placements), (*warnings, *unit_warnings))


def _spliced(string: str, lines: list[str], replacements: list[Replacement]) -> str:
    """`string` (`lines`, each ending with LF) with each replacement's lines in place of the
    lines it replaces, each new line ending with LF; the lines kept are copied once."""
    pieces: list[str] = []
    line, offset = 0, 0  # `string[offset:]` holds `lines[line:]`, not copied yet
    for replacement in sorted(replacements, key=lambda r: r.start):
        start = offset + sum(map(len, lines[line : replacement.start])) + replacement.start - line
        pieces.append(string[offset:start])
        if replacement.new_lines:
            pieces.append("\n".join(replacement.new_lines) + "\n")
        line = replacement.start + replacement.old_len
        offset = start + sum(map(len, lines[replacement.start : line])) + replacement.old_len
    pieces.append(string[offset:])
    return "".join(pieces)


def plain(
    lines: list[str], chunks: tuple[Chunk, ...]
) -> Found | None:
    """What `_locate.locate` finds for `chunks` when every one is plain, by a shorter way; else None.

    Plain: no `@@` line, no line numbers, not pinned to the end, no explicit ending
    (`may_be_plain`, which `plain_update` asks before the file is split), some line to find; found exactly as written after the chunk before it (the first
    place, as the exact tier takes it); and holding a line that occurs once in the file,
    so that it can be nowhere else (`doubts` then looks no further, `_sure` pins it,
    and no tier, order or policy has anything to weigh: no warning). Most chunks a model
    writes are plain; this is their answer without the index, matches and spots.
    """
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    start = 0
    if not all(map(may_be_plain, chunks)):
        return None
    # Each `count` reads the whole file: a few, then the file's lines counted once for all
    # (many chunks in a large file: O(file + chunks), not a read of it per chunk); counted
    # at once when there are more chunks than counts allowed (each takes one at least).
    counts = _PLAIN_READS + _PLAIN_LINES // (len(lines) + 1)
    patterns = [chunk.old_lines for chunk in chunks]
    counted = _counted(lines, patterns) if len(chunks) > counts else None
    for chunk, pattern in zip(chunks, patterns):
        if not pattern:
            return None
        if counted is None:
            at = _first_place(lines, pattern, start)
            if at is None:
                return None  # not there as written: the whole search (tiers, retries, slips)
            for line in pattern:
                counts -= 1
                if counts < 0 and counted is None:
                    counted = _counted(lines, patterns)
                if (lines.count(line) if counted is None else counted[line]) == 1:
                    break
            else:
                return None  # every line occurs elsewhere too: the chunk may also fit there
        else:  # (many chunks: each found by a line the file holds once)
            at = _only_place(lines, pattern, start, counted)
            if at is None:
                return None
        made = chunk_replacements(chunk.lines, at)
        replacements += made
        removed = sum(r.old_len for r in made)  # (and added: the lines not in `pattern`)
        placements.append(Placement(chunk.line, at + 1, EXACT, len(chunk.lines) - len(pattern), removed))
        start = at + len(pattern)
    return replacements, placements, []


def may_be_plain(chunk: Chunk) -> bool:
    """Whether `chunk` has what `plain` answers for, by its own text: no `@@` line, no line
    numbers, not pinned to the end, no explicit ending."""
    return not (chunk.contexts or chunk.near is not None or chunk.is_end_of_file or chunk.endings)


def _counted(lines: list[str], patterns: list[list[str]]) -> Counter[str]:
    """How often each line of `patterns` (the lines chunks expect) occurs in `lines` (the
    others are not counted: hashing every line once is the cost, not a count of each)."""
    wanted = {line for pattern in patterns for line in pattern}
    return Counter(filter(wanted.__contains__, lines))


def _only_place(lines: list[str], pattern: list[str], start: int, counted: Counter[str]) -> int | None:
    """The index at or after `start` where `lines` hold `pattern`, found by its first line
    that the file holds once (`counted`): its only place. None when no line of it is
    alone in the file, or it is not there as written after `start`."""
    for offset, line in enumerate(pattern):
        if counted[line] == 1:
            break
    else:
        return None
    try:
        at = lines.index(line, start + offset) - offset
    except ValueError:  # (only before `start`: the search will say why)
        return None
    return at if lines[at : at + len(pattern)] == pattern else None


def _first_place(lines: list[str], pattern: list[str], start: int) -> int | None:
    """The first index at or after `start` where `lines` hold `pattern` (not empty); None
    also when its first line is at more than _PLAIN_TRIES places that do not hold it."""
    first, size = pattern[0], len(pattern)
    last = len(lines) - size
    for _ in range(_PLAIN_TRIES):
        if start > last:
            return None
        try:
            at = lines.index(first, start, last + 1)
        except ValueError:  # (not found: the search will say why)
            return None
        if lines[at : at + size] == pattern:
            return at
        start = at + 1
    return None


_PLAIN_READS = 4  # whole-file counts `plain` makes before it counts the file's lines once, at least

_PLAIN_LINES = 100_000  # and as many more as a file's lines go into this

_PLAIN_TRIES = 32  # places of a chunk's first line compared (`_first_place`)
