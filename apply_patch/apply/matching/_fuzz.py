"""A unified diff's hunk placed with its outer context lines fuzzed, as GNU `patch` does (pure).

A hunk carries line numbers. When its lines match nowhere, up to `FUZZ` context
lines at each of its edges may differ from the file (a word changed since the
diff was made, a blank line the model dropped): the rest of the hunk, its core,
must match exactly, at exactly one place after the hunk before it, and that
place must be within `REACH` lines of where the numbers say. The file's version
of the fuzzed lines is kept (they are context: nothing of theirs is written).

Where `patch` takes the first place of the core nearest the numbers, this never
guesses:

- a core that fits more than one place is refused as ambiguous, naming the places;
- the context line next to each change is never fuzzed (`patch`'s default fuzz
  of two with git's three lines of context does the same): a line the model
  dropped right beside a removed line may have been one it meant to remove;
- a core that starts (ends) with blank context lines leading to a change, where the
  file's line above (below) it is blank too and the fuzzed lines there differ from
  the file's, is not taken: the model's copy of that run of blank lines may be one
  short or one long, and added lines could go on either side of the line it lacks,
  or that line be one it meant to remove.

The Codex envelope and the text formats (str_replace, SEARCH/REPLACE) have no
line numbers: nothing tells a stale line from the wrong place, so they get no fuzz.
"""

from __future__ import annotations

from ...format import constants as C
from ._seek import TIERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ...format import Chunk
    from ._names import FileName
    from ._seek import LineIndex

FUZZ: Final = 2  # context lines at each edge that may differ (GNU patch's default fuzz factor)
REACH: Final = 100  # lines between the fuzzed place and the one the numbers name, at most
_MAX_PLACES: Final = 10  # places of a core searched (and listed in a refusal)


def fuzzed(
    index: LineIndex, lines: list[str], chunk: Chunk, start: int, target: int, where: FileName
) -> tuple[tuple[str, ...], int] | None:
    """The hunk `chunk` placed at or after 0-based `start` with up to `FUZZ` of its outer
    context lines at each edge taken as the file has them, near 0-based `target` (where
    its numbers say): the hunk's lines with those context lines replaced by the file's,
    and where they start. None if no fuzz places it (see the module's docstring);
    AmbiguousChunkError if the smallest fuzz that finds its core finds it at several places.
    """
    changed = [i for i, line in enumerate(chunk.lines) if line[0] != C.CONTEXT]
    if not changed:
        return None
    lead, trail = changed[0], len(chunk.lines) - 1 - changed[-1]  # context lines before, after
    size = sum(1 for line in chunk.lines if line[0] != C.ADDED)
    tried: set[tuple[int, int]] = set()
    for fuzz in range(1, FUZZ + 1):
        # One context line beside the changes is always compared.
        top, bottom = max(min(fuzz, lead - 1), 0), max(min(fuzz, trail - 1), 0)
        if top + bottom == 0 or (top, bottom) in tried:
            continue
        tried.add((top, bottom))
        core = chunk.lines[top : len(chunk.lines) - bottom]
        pattern = [line[1:] for line in core if line[0] != C.ADDED]
        places = _places(index, lines, pattern, start, top, size, chunk.is_end_of_file)
        if len(places) > 1:
            from ._diagnose import ambiguity_error  # failures only: start-up time

            raise ambiguity_error(chunk, tuple(at + 1 for at in places), where)
        if not places:
            continue
        at = places[0]
        end = at + top + len(pattern)
        kept = tuple(C.CONTEXT + line for line in lines[at : at + top])
        after = tuple(C.CONTEXT + line for line in lines[end : end + bottom])
        above = kept != chunk.lines[:top] and at + top > 0 and not lines[at + top - 1].strip()
        below = after != chunk.lines[len(core) + top :] and end < len(lines) and not lines[end].strip()
        if (above and _slides(core)) or (below and _slides(core[::-1])):
            continue
        if abs(at - target) > REACH:
            return None
        return (*kept, *core, *after), at
    return None


def _places(
    index: LineIndex, lines: list[str], pattern: list[str], start: int, top: int, size: int, eof: bool
) -> list[int]:
    """Where the hunk (`size` expected lines) starts, for each place at or after `start` + `top`
    where its core's expected lines `pattern` are exactly, the whole hunk inside the file
    (and ending it, if `eof`); at most `_MAX_PLACES`."""
    places: list[int] = []
    if not pattern:
        return places
    match = index.seek(pattern, start + top, tiers=(TIERS[0],))
    while match is not None and len(places) < _MAX_PLACES:
        at = match.index - top
        end = at + size
        if end <= len(lines) and (not eof or end == len(lines)):
            places.append(at)
        match = index.seek(pattern, match.index + 1, tiers=(TIERS[0],))
    return places


def _slides(core: tuple[str, ...]) -> bool:
    """Whether the blank context lines the `core` starts with lead to a change (an added or
    a removed line): then which of the file's run of blank lines (longer or shorter than the
    model's, the caller found) are the core's, and so where added lines go or whether a
    blank line the model dropped was one it removes, nothing says. (Before a non-blank
    context line, that line anchors the core.)"""
    k = 0
    while k < len(core) and core[k][0] == C.CONTEXT and not core[k][1:].strip():
        k += 1
    return 0 < k < len(core) and core[k][0] != C.CONTEXT
