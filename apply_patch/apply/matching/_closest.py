"""Where lines that match nowhere most likely belong: a bounded search (pure).

Each expected line votes for the place where the chunk would start if that
line were right (whole lines, equal once surrounding whitespace is removed).
When the chunk's first line is in the file, only the places it votes for
are candidates: a region is aligned on the line the model started from. When
no expected line is in the file there is no region (the caller says so);
`similar_lines` then finds lines by their words. Lines and words that occur
often carry little weight, and past a cap none: the cost stays linear in
the file size, tens of milliseconds for 200,000 lines.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

_WORD: Final = re.compile(r"\b\w{3,40}\b")  # longer "words" are data, not names
_CAP: Final = 1000  # a line or word in more places than this says nothing about where
_MAX_WORDS: Final = 40


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


def closest_region(lines: Sequence[str], expected: Sequence[str]) -> Region | None:
    """The stretch of `lines` most like `expected`, or None if no expected line is in the file."""
    hits, wanted = _line_hits(lines, expected)
    votes = _tally(hits, wanted)
    if not votes:
        return None
    first = next((k for k, line in enumerate(expected) if line.strip()), 0)
    anchored = [p - first for p in hits.get(expected[first].strip(), ()) if p - first in votes]
    offset = max(anchored or votes, key=lambda o: (votes[o], -o))
    first, last = max(0, offset), min(len(lines), offset + len(expected))
    if first >= last:
        return None
    shown = tuple(lines[first:last])
    skip = first - offset
    differs = next((k for k, line in enumerate(shown) if line != expected[skip + k]), None)
    return Region(first, shown, differs, skip)


def similar_lines(lines: Sequence[str], text: str, limit: int = 3) -> list[int]:
    """Indices of up to `limit` lines most like `text`, most alike first.

    Candidates are the lines sharing the most (rare) words with `text`; they
    are ranked by how alike their characters are.
    """
    import difflib  # only on this error path

    votes = _word_votes(lines, [text])
    candidates = sorted(votes, key=lambda i: (-votes[i], i))[: limit * 4]
    target = text.strip()
    alike = {i: difflib.SequenceMatcher(None, target, lines[i].strip()).ratio() for i in candidates}
    return sorted(candidates, key=lambda i: (-alike[i], i))[:limit]


def _line_hits(
    lines: Sequence[str], expected: Sequence[str]
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """(where each non-blank expected line is in the file, where it is in `expected`), stripped."""
    wanted: dict[str, list[int]] = {}
    for index, line in enumerate(expected):
        if key := line.strip():
            wanted.setdefault(key, []).append(index)
    hits: dict[str, list[int]] = {key: [] for key in wanted}
    for position, key in enumerate(map(str.strip, lines)):
        if key in hits:
            hits[key].append(position)
    return hits, wanted


def _word_votes(lines: Sequence[str], expected: Sequence[str]) -> dict[int, float]:
    # Words are compared case-folded: the file is folded once and each word
    # looked up with str.find (a case-insensitive expression read the whole
    # file again for every word, 0.15 s each on 5 MB, however rare the word).
    wanted: dict[str, list[int]] = {}
    for index, line in enumerate(expected):
        for word in {word.casefold() for word in _WORD.findall(line)}:
            wanted.setdefault(word, []).append(index)
    words = sorted(wanted, key=len, reverse=True)[:_MAX_WORDS]  # long words are the rare ones
    text = "\n".join(lines).casefold()
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
