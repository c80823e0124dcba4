"""Where lines that match nowhere most likely belong: a bounded search (pure).

Each expected line votes for the place where the chunk would start if that
line were right (whole lines, equal once surrounding whitespace is removed).
When the chunk's first line is in the file, only the places it votes for
are candidates: a region is aligned on the line the model started from. When
no expected line is in the file there is no region (the caller says so);
`similar_lines` then finds lines by their words. Lines and words that occur
often carry little weight, and past a cap none: the cost stays linear in
the file size, tens of milliseconds for 200,000 lines. Both look lines and
words up in the file's lines joined with LF (`str.find`, in C), the search's
own joined lines where the caller passes its `LineIndex`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

    from ._seek import LineIndex

_WORD: Final = re.compile(r"\b\w{3,40}\b")  # longer "words" are data, not names
_CAP: Final = 1000  # a line or word in more places than this says nothing about where
_MAX_WORDS: Final = 40
# Expected lines looked up one by one in the joined lines, at most: each lookup reads the
# whole text (in C, about a tenth of the cost of stripping every line in Python), so past
# this many the lines are stripped once for all of them.
_FIND_LINES: Final = 8


@dataclass(frozen=True, slots=True)
class Region:
    """A stretch of the file: `start` (0-based), its `lines`, and the index into
    `lines` of the first line that differs from what was expected (None if none).

    `lines[k]` stands where expected line `skip + k` would be (`skip` > 0 when
    the expected lines would begin above the top of the file).
    """

    start: int
    lines: tuple[str, ...]
    first_difference: int | None
    skip: int = 0


def closest_region(lines: Sequence[str], expected: Sequence[str], index: LineIndex | None = None) -> Region | None:
    """The stretch of `lines` most like `expected`, or None if no expected line is in the file
    (`index`: the search's over `lines`, where the caller has one: its joined lines are read)."""
    hits, wanted = _line_hits(lines, expected, index)
    votes = _tally(hits, wanted)
    if not votes:
        return None
    first = next((k for k, line in enumerate(expected) if line.strip()), 0)
    key = expected[first].strip()
    # The offsets the first line votes for, among all: those where the file has that line
    # (its hits stop past the cap, so the file's line at each offset is compared instead).
    anchored = [o for o in votes if 0 <= o + first < len(lines) and lines[o + first].strip() == key]
    offset = max(anchored or votes, key=lambda o: (votes[o], -o))
    first, last = max(0, offset), min(len(lines), offset + len(expected))
    if first >= last:
        return None
    shown = tuple(lines[first:last])
    skip = first - offset
    differs = next((k for k, line in enumerate(shown) if line != expected[skip + k]), None)
    return Region(first, shown, differs, skip)


def similar_lines(lines: Sequence[str], text: str, limit: int = 3, *, index: LineIndex | None = None) -> list[int]:
    """Indices of up to `limit` lines most like `text`, most alike first (`index`: the
    search's over `lines`, where the caller has one: its joined lines are read).

    Candidates are the lines sharing the most (rare) words with `text`; they
    are ranked by how alike their characters are.
    """
    import difflib  # only on this error path

    votes = _word_votes(lines, [text], index)
    candidates = sorted(votes, key=lambda i: (-votes[i], i))[: limit * 4]
    target = text.strip()
    alike = {i: difflib.SequenceMatcher(None, target, lines[i].strip()).ratio() for i in candidates}
    return sorted(candidates, key=lambda i: (-alike[i], i))[:limit]


def _line_hits(
    lines: Sequence[str], expected: Sequence[str], index: LineIndex | None
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """(where each non-blank expected line is in the file, up to one past the cap; where it is
    in `expected`), lines compared stripped (`index`: the search's over `lines`, or None).

    Each expected line (up to `_FIND_LINES` of them) is looked up in the lines joined with
    LF, with str.find: only the lines holding it are stripped (stripping every line of
    200,000 took 26 of the 46 ms the closest region cost). A line found inside too many
    other lines sends its search back to stripping every line, so the cost stays within
    about twice that of stripping them all."""
    wanted: dict[str, list[int]] = {}
    for number, line in enumerate(expected):
        if key := line.strip():
            wanted.setdefault(key, []).append(number)
    joined = _joined(lines, index) if len(wanted) <= _FIND_LINES else None
    text = joined or ""
    if joined is not None:
        found = {key: _whole_lines(joined, key, len(lines) // 8 + _CAP) for key in wanted}
    else:
        found = dict.fromkeys(wanted)
    starts = {key: places for key, places in found.items() if places is not None}
    line_of = _line_numbers(text, sorted({at for places in starts.values() for at in places}))
    hits = {key: [line_of[at] for at in places] for key, places in starts.items()}
    common: dict[str, list[int]] = {key: [] for key, places in found.items() if places is None}
    if common:
        for position, key in enumerate(map(str.strip, lines)):
            if key in common:
                common[key].append(position)
        hits.update(common)
    return hits, wanted


def _joined(lines: Sequence[str], index: LineIndex | None) -> str | None:
    """`lines` joined with LF (the search's own text, where `index` is given); None if a line
    holds an LF (a line's index is then not the number of LFs before it)."""
    if index is not None:
        return index.joined()
    joined = "\n".join(lines)
    return joined if joined.count("\n") == len(lines) - 1 else None


def _whole_lines(text: str, key: str, visits: int) -> list[int] | None:
    """Where the lines of `text` (lines joined with LF) that are `key` once stripped start,
    in order, up to one past the cap; None when more than `visits` lines hold `key`
    (stripping every line is then the quicker way)."""
    found: list[int] = []
    at = text.find(key)
    while at >= 0:
        visits -= 1
        if visits < 0:
            return None
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)  # the line is decided at once: on to the next that holds `key`
        end = len(text) if end < 0 else end
        if text[start:end].strip() == key:
            found.append(start)
            if len(found) > _CAP:
                break
        at = text.find(key, end + 1)
    return found


def _word_votes(lines: Sequence[str], expected: Sequence[str], index: LineIndex | None = None) -> dict[int, float]:
    # `index`: the search's over `lines`, where the caller has one (its joined lines read).
    # Words are compared case-folded: the file is folded once and each word
    # looked up with str.find (a case-insensitive expression read the whole
    # file again for every word, 0.15 s each on 5 MB, however rare the word).
    wanted: dict[str, list[int]] = {}
    for number, line in enumerate(expected):
        for word in {word.casefold() for word in _WORD.findall(line)}:
            wanted.setdefault(word, []).append(number)
    words = sorted(wanted, key=len, reverse=True)[:_MAX_WORDS]  # long words are the rare ones
    text = _joined(lines, index)
    if text is None:  # a line holds an LF: a space for it (no word ends at either)
        text = "\n".join(line.replace("\n", " ") for line in lines)
    text = text.lower() if text.isascii() else text.casefold()  # (the same on ASCII, in 2/3 of the time)
    places = {word: _word_places(text, word) for word in words}
    line_of = _line_numbers(text, sorted({at for found in places.values() for at in found}))
    hits = {word: [line_of[at] for at in found] for word, found in places.items()}
    return _tally(hits, {word: wanted[word] for word in words})


def _word_places(text: str, word: str) -> list[int]:
    """Where `word` occurs in `text` as a whole word (`\\b` as `re` has it), up to one past the cap."""
    found: list[int] = []
    at = text.find(word)
    while at >= 0:
        if not _in_word(text, at - 1) and not _in_word(text, at + len(word)):
            found.append(at)
            if len(found) > _CAP:
                break
        at = text.find(word, at + 1)
    return found


def _in_word(text: str, index: int) -> bool:
    """Whether `text[index]` is a word character of `re` (`\\w`: alphanumeric or `_`)."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


def _line_numbers(text: str, places: list[int]) -> dict[int, int]:
    """The 0-based line of each of the sorted `places` in `text` (counting LFs, once)."""
    numbers, line, counted = {}, 0, 0
    for at in places:
        line += text.count("\n", counted, at)
        numbers[at], counted = line, at
    return numbers


def _tally(hits: dict[str, list[int]], wanted: dict[str, list[int]]) -> dict[int, float]:
    votes: dict[int, float] = defaultdict(float)
    for key, positions in hits.items():
        if not positions or len(positions) > _CAP:
            continue
        weight = 1 / len(positions)
        for position in positions:
            for index in wanted[key]:
                votes[position - index] += weight
    return votes
