"""A unified diff's hunk placed with context lines that differ from the file (pure).

A hunk carries line numbers. When its lines match nowhere, two kinds of fuzz may
place it, each only near where its numbers say (within `REACH` lines) and only where
that place is the only one; the file's version of the context lines that differ is
kept (they are context: nothing of theirs is written), and the caller warns naming them.

- A stale line: at most `STALE` context line anywhere in the hunk (between its
  changes, beside one, at an edge) is a look-alike of the file's line in its place
  (`look_alike`: the same indentation, the rest a difflib ratio of at least
  `LOOK_ALIKE`), and every other line of the hunk, each removed line above all, is
  exactly the file's, at least `_EVIDENCE` of them with text. Compared in place, line
  for line, so a dropped or added line is never taken for a stale one. Tried first: it
  is the closest fit. Two places near that fit so are refused as ambiguous, and so is
  one the edge fuzz below places elsewhere.
- The edges, as GNU `patch` does: up to `FUZZ` context lines at each edge may differ
  in any way (a word changed since the diff was made, a blank line the model
  dropped); the rest of the hunk, its core, must match exactly, at exactly one place
  after the hunk before it. Where `patch` takes the first place of the core nearest
  the numbers, this never guesses:

  - a core that fits more than one place is refused as ambiguous, naming the places;
  - the context line next to each change is never fuzzed here (`patch`'s default fuzz
    of two with git's three lines of context does the same): a line the model dropped
    right beside a removed line may have been one it meant to remove;
  - a core that starts (ends) with blank context lines leading to a change, where the
    file's line above (below) it is blank too and the fuzzed lines there differ from
    the file's, is not taken: the model's copy of that run of blank lines may be one
    short or one long, and added lines could go on either side of the line it lacks,
    or that line be one it meant to remove.

The Codex envelope and the text formats (str_replace, SEARCH/REPLACE) have no
line numbers: nothing tells a stale line from the wrong place, so they get no fuzz.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

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
STALE: Final = 1  # context lines that may be stale look-alikes: a second one is a hunk made
# against another version of the file, whose new lines may rest on what changed
LOOK_ALIKE: Final = 0.8  # difflib ratio of a stale line's text to the file's, at least: one
# word of a line changed (a plural, a renamed name, an argument), not a line rewritten
_LONGEST: Final = 1000  # characters of a line compared for a look-alike, at most: the
# comparison costs up to their product, and a line that long is data, not a line of code
_EVIDENCE: Final = 2  # lines with text, exactly as the file has them, beside a stale line:
# one line alone is the look-alike elsewhere that the text formats refuse


@dataclass(frozen=True, slots=True)
class _EdgeFit:
    """Where the edge fuzz fits a hunk: its 0-based `places` (several: ambiguous) and, for
    one, the hunk's lines holding the file's version of its fuzzed edges (`used`)."""

    places: tuple[int, ...]
    used: tuple[str, ...]


def fuzzed(
    index: LineIndex, lines: list[str], chunk: Chunk, start: int, target: int, where: FileName
) -> tuple[tuple[str, ...], int] | None:
    """The hunk `chunk` placed at or after 0-based `start`, near 0-based `target` (where its
    numbers say), with a stale context line or up to `FUZZ` of its outer context lines at
    each edge taken as the file has them: the hunk's lines with those context lines
    replaced by the file's, and where they start. None if no fuzz places it (see the
    module's docstring); AmbiguousChunkError if a fuzz finds it at several places.
    """
    if all(line[0] == C.CONTEXT for line in chunk.lines):
        return None
    stale = _stale_places(lines, chunk, start, target)
    edge = _edge(index, lines, chunk, start, target)
    if len(stale) == 1 and (edge is None or stale[0] in edge.places):
        return _as_the_file_has(chunk, lines, stale[0]), stale[0]
    if stale or (edge is not None and len(edge.places) > 1):
        from ._diagnose import ambiguity_error  # failures only: start-up time

        places = sorted({*stale, *(edge.places if edge is not None else ())})
        raise ambiguity_error(chunk, tuple(at + 1 for at in places), where)
    return None if edge is None else (edge.used, edge.places[0])


def look_alike(sent: str, held: str) -> bool:
    """Whether the hunk's context line `sent` is plainly the file's line `held` slightly
    changed: both with text, the same leading whitespace, and the rest of one at least a
    `LOOK_ALIKE` difflib ratio of the other's (the indentation left out: a deep one would
    make any two lines look alike), neither longer than `_LONGEST` characters."""
    text, kept = sent.lstrip(), held.lstrip()
    if not text.strip() or not kept.strip() or sent[: len(sent) - len(text)] != held[: len(held) - len(kept)]:
        return False
    if max(len(text), len(kept)) > _LONGEST:
        return False
    matcher = SequenceMatcher(None, text, kept, autojunk=False)
    # The cheap upper bounds first: most lines compared are not alike at all.
    return all(ratio() >= LOOK_ALIKE for ratio in (matcher.real_quick_ratio, matcher.quick_ratio, matcher.ratio))


def _stale_places(lines: list[str], chunk: Chunk, start: int, target: int) -> list[int]:
    """The 0-based places at or after `start`, within `REACH` of `target`, where the hunk's
    expected lines are the file's line for line but at most `STALE` context lines, each a
    look-alike of the file's (`look_alike`), with at least `_EVIDENCE` exact lines with
    text (and the hunk ending the file, if it says so); at most `_MAX_PLACES` + 1."""
    expected = [line for line in chunk.lines if line[0] != C.ADDED]
    size = len(expected)
    first, last = max(start, target - REACH), min(len(lines) - size, target + REACH)
    if chunk.is_end_of_file:
        first = last = len(lines) - size if first <= len(lines) - size <= last else -1
    places: list[int] = []
    for at in range(max(first, 0), last + 1):
        if _fits_stale(expected, lines, at):
            places.append(at)
            if len(places) > _MAX_PLACES:
                break
    return places


def _fits_stale(expected: list[str], lines: list[str], at: int) -> bool:
    """Whether the hunk's `expected` lines (tagged: context, removed) fit the file at `at`
    with at most `STALE` stale look-alike context lines and `_EVIDENCE` exact ones."""
    stale = exact = 0
    for k, line in enumerate(expected):
        held = lines[at + k]
        if line[1:] == held:
            exact += 1 if held.strip() else 0
            continue
        stale += 1
        if line[0] != C.CONTEXT or stale > STALE or not look_alike(line[1:], held):
            return False
    return exact >= _EVIDENCE


def _as_the_file_has(chunk: Chunk, lines: list[str], at: int) -> tuple[str, ...]:
    """The hunk's lines with each context line as the file has it at the place `at`."""
    used: list[str] = []
    k = at
    for line in chunk.lines:
        if line[0] == C.ADDED:
            used.append(line)
            continue
        used.append(C.CONTEXT + lines[k] if line[0] == C.CONTEXT else line)
        k += 1
    return tuple(used)


def _edge(index: LineIndex, lines: list[str], chunk: Chunk, start: int, target: int) -> _EdgeFit | None:
    """Where the hunk fits with up to `FUZZ` of its outer context lines at each edge taken as
    the file has them, by the smallest fuzz that finds its core (several places: all of
    them); None if none does, or only away from `target` (the module's docstring)."""
    changed = [i for i, line in enumerate(chunk.lines) if line[0] != C.CONTEXT]
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
            return _EdgeFit(tuple(places), ())
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
        return _EdgeFit((at,), (*kept, *core, *after))
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
