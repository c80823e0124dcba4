"""Finding a run of lines in a file by content, in four tiers of tolerance.

The tiers, each a full pass over the file before the next is tried (so an
exact match late in the file beats a fuzzy one early on):

1. `exact`: the lines are equal;
2. `trailing-whitespace`: equal once trailing whitespace is removed;
3. `whitespace`: equal once surrounding whitespace is removed;
4. `punctuation`: equal once surrounding whitespace is removed and typographic
   dashes, quotes and spaces are folded to their ASCII forms.

Search is linear in the file size, also when nothing matches, and runs in C
for the most part:

- exact: the file's lines joined with LF are one string, and a run of lines
  is a substring starting after an LF (`str.find`);
- the other tiers: first by the pattern's longest line (likely its rarest):
  its key is a substring of every line that matches it, so `str.find` over the joined lines gives the only
  candidates, each then compared line by line; when that line is too common
  (more than `_CANDIDATES` places), each line becomes one character (from
  the hash of its tier key), so the file is a string and a run of lines a
  substring; each place found is then compared line by line (two keys may
  share a character). The first way hashes no line: a tolerant tier costs
  a few passes of `str.find` over the text;
- before a tolerant tier is computed at all, a quick check on the joined
  text: a line of the pattern, stripped, that appears nowhere in the file
  (not even inside a line) cannot match in any tier.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...format import WHITESPACE
from ._placement import EXACT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

# What the reference folds in its last tier, and nothing else.
_PUNCTUATION: Final = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
        **dict.fromkeys(
            "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000",
            " ",
        ),
    }
)
# A line's character in a tolerant tier: 16 bits of its key's hash (a 2-byte string).
_CODE_MASK: Final = 0xFFFF
# Places of the pattern's longest line looked at before the file's lines are hashed.
_CANDIDATES: Final = 256


@dataclass(frozen=True, slots=True)
class Tier:
    """A level of tolerance: `key` maps a line to what is compared."""

    name: str
    key: Callable[[str], str]


def _trailing(line: str) -> str:
    return line.rstrip(WHITESPACE)


def _surrounding(line: str) -> str:
    return line.strip(WHITESPACE)


def _folded(line: str) -> str:
    return line.strip(WHITESPACE).translate(_PUNCTUATION)


TIERS: Final = (
    Tier(EXACT, str),
    Tier("trailing-whitespace", _trailing),
    Tier("whitespace", _surrounding),
    Tier("punctuation", _folded),
)


@dataclass(frozen=True, slots=True)
class Match:
    """Where a pattern was found (0-based line index) and by which tier."""

    index: int
    tier: Tier


class LineIndex:
    """Search structure over one file's lines; each tier is built on first use."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines if isinstance(lines, list) else list(lines)
        self._joined: _Joined | None = None
        self._codes: dict[Callable[[str], str], str] = {}  # per tier key: a character per line
        self._absent: dict[str, bool] = {}  # stripped pattern lines found nowhere
        self._mark = (0, 0)  # a line index and the offset where it starts in the joined lines

    def __len__(self) -> int:
        return len(self._lines)

    def seek(
        self,
        pattern: Sequence[str],
        start: int,
        *,
        eof: bool = False,
        tiers: Sequence[Tier] = TIERS,
    ) -> Match | None:
        """Find `pattern` at or after line `start`; with `eof`, only at the very end.

        The `tiers` are tried in order, each over the whole range. An empty
        pattern matches at `start`; a pattern longer than the file (or than
        what remains after `start`) matches nowhere.
        """
        if not pattern:
            return Match(start, TIERS[0])
        last = len(self._lines) - len(pattern)
        if eof:
            start = max(start, last)
        if start > last:
            return None
        for tier in tiers:
            if tier.key is str and self._joined_lines().exact:
                found = self._joined_lines().find(list(pattern), start, last)
            elif self._nowhere(tier, pattern):
                found = None
            else:
                found = self._find_tolerant(tier, [tier.key(line) for line in pattern], start, last)
            if found is not None:
                return Match(found, tier)
        return None

    def contains(self, text: str) -> bool:
        """Whether `text` occurs anywhere in the file, inside a line or across lines (a quick
        test before a slower search: text found nowhere cannot be part of a match)."""
        return text in self._joined_lines().text

    def joined(self) -> str | None:
        """The file's lines joined with LF (made once for every search), None if a line holds one."""
        joined = self._joined_lines()
        return joined.text if joined.exact else None

    def _joined_lines(self) -> _Joined:
        if self._joined is None:
            self._joined = _Joined(self._lines)
        return self._joined

    def _nowhere(self, tier: Tier, pattern: Sequence[str]) -> bool:
        """Whether a line of `pattern` is surely matched by no line of the file in `tier`.

        A line matching in tiers 2 and 3 contains the pattern line, stripped;
        in tier 4, the pattern line, stripped and folded, if the file is ASCII
        (folding changes nothing in it). Not found in the joined lines: no match.
        """
        if tier.key is _folded:
            if not self._joined_lines().is_ascii:
                return False
            strip: Callable[[str], str] = _folded
        elif tier.key is _trailing or tier.key is _surrounding:
            strip = _surrounding
        else:
            return False
        text = self._joined_lines().text
        for line in pattern:
            key = strip(line)
            absent = self._absent.get(key)
            if absent is None:
                absent = self._absent[key] = key not in text
            if absent:
                return True
        return False

    def _find_tolerant(self, tier: Tier, keys: list[str], start: int, stop: int) -> int | None:
        """First index in [start, stop] where the lines' keys in `tier` are `keys`."""
        if tier.key is not _folded or self._joined_lines().is_ascii:
            found = self._find_by_line(tier, keys, start, stop)
            if not isinstance(found, _Common):
                return found
        coded = tier.key
        if coded is _folded and self._joined_lines().is_ascii:
            coded = _surrounding  # the same keys for ASCII lines
        codes = self._codes.get(coded)
        if codes is None:
            codes = self._codes[coded] = "".join(
                [chr(hash(coded(line)) & _CODE_MASK) for line in self._lines]
            )
        needle = "".join([chr(hash(key) & _CODE_MASK) for key in keys])
        size, lines = len(keys), self._lines
        while True:
            found = codes.find(needle, start, stop + size)
            if found < 0:
                return None
            if list(map(tier.key, lines[found : found + size])) == keys:
                return found
            start = found + 1  # two keys with one character: look further

    def _find_by_line(self, tier: Tier, keys: list[str], start: int, stop: int) -> int | None | _Common:
        """`_find_tolerant` through the places of the longest key in the joined lines (a
        line matches a key only if it contains it: the keys strip whitespace, and fold
        nothing in an ASCII file); `_COMMON` if that key has too many places to try."""
        joined = self._joined_lines()
        longest = max(range(len(keys)), key=lambda k: len(keys[k]))
        key = keys[longest]
        if not key or not joined.exact:
            return _COMMON
        text, lines, size = joined.text, self._lines, len(keys)
        line, offset = self._mark if self._mark[0] <= start + longest else (0, 0)
        search = offset
        for _ in range(_CANDIDATES):
            found = text.find(key, search)
            if found < 0:
                return None
            search = found + 1
            line += text.count("\n", offset, found)
            offset = text.rfind("\n", 0, found) + 1  # the start of `line`
            first = line - longest
            if first > stop:
                return None
            if first < start or tier.key(lines[line]) != key:
                continue
            self._mark = (line, offset)
            if list(map(tier.key, lines[first : first + size])) == keys:
                return first
        return _COMMON


class _Common:
    """The answer of a search by a pattern line that has too many places to try."""


_COMMON: Final = _Common()


class _Joined:
    """A file's lines joined with LF: runs of lines are substrings.

    Line endings do not matter (lines never contain one); a line index is
    turned into an offset by counting LFs from the last place found. Not
    `exact` if a line holds an LF (then the exact tier is searched by codes).

    Searching the rest of the file again and again (is there another place
    after this one?) would be quadratic. Once the searches have read the
    text twice over (locating chunks in order reads it about once), each
    line's number of occurrences is counted: a run holding a line that
    occurs once is found at one place at most, and a run holding a line
    that occurs nowhere, nowhere.
    """

    __slots__ = ("text", "lines", "exact", "_ascii", "_line", "_offset", "_read", "_counts", "_places")

    def __init__(self, lines: list[str]) -> None:
        self.text = "\n".join(lines)
        self.lines = lines
        self.exact = self.text.count("\n") == len(lines) - 1 if lines else True
        self._ascii: bool | None = None
        self._line, self._offset = 0, 0  # a line and the offset where it starts
        self._read = 0  # characters read by searches so far
        self._counts: dict[str, int] | None = None  # occurrences of each line
        self._places: dict[str, int] = {}  # where each run (joined) was found

    @property
    def is_ascii(self) -> bool:
        """Whether every line is ASCII (computed on first use)."""
        if self._ascii is None:
            self._ascii = self.text.isascii()
        return self._ascii

    def find(self, pattern: list[str], start: int, stop: int) -> int | None:
        """First index in [start, stop] where the lines are `pattern` (not empty)."""
        needle = "\n".join(pattern)
        if needle.count("\n") != len(pattern) - 1:  # a line with an LF is in no file
            return None
        if self._counts is not None:
            at_most = min(self._counts.get(line, 0) for line in pattern)
            place = self._places.get(needle)
            if at_most == 0:
                return None
            if at_most == 1 and place is not None:  # its only place
                return place if start <= place <= stop else None
        found = self._search(pattern, needle, start, stop)
        if found is not None:
            self._places[needle] = found
        if self._counts is None and self._read > 2 * len(self.text) + 4096:
            from collections import Counter

            self._counts = Counter(self.lines)
        return found

    def _search(self, pattern: list[str], needle: str, start: int, stop: int) -> int | None:
        text, last = self.text, len(self.lines) - len(pattern)
        if start == 0 and text.startswith(needle) and text[len(needle) : len(needle) + 1] in ("\n", ""):
            return 0  # (no copy of a needle that may be megabytes long)
        if start == last:  # at the end only (`*** End of File`)
            return last if last > 0 and self.lines[last:] == pattern else None
        line, offset = (self._line, self._offset) if self._line <= start else (0, 0)
        target = "\n" + needle + "\n"  # a run after line 0 and before the last line
        search = max(offset - 1, 0)
        while True:
            found = text.find(target, search)
            self._read += (len(text) if found < 0 else found) - search
            if found < 0:
                break
            line += text.count("\n", offset, found + 1)
            offset = found + 1
            if line > stop:
                return None
            if line >= start:
                self._line, self._offset = line, offset
                return line
            search = offset
        if 0 < last and start <= last <= stop and self.lines[last:] == pattern:
            return last
        return None


def seek_sequence(
    lines: Sequence[str], pattern: Sequence[str], start: int, *, eof: bool = False
) -> Match | None:
    """Find `pattern` in `lines` at or after `start` (see `LineIndex.seek`)."""
    return LineIndex(lines).seek(pattern, start, eof=eof)


def places_in_text(text: str, pattern: Sequence[str], tier: Tier, limit: int) -> list[tuple[int, int]] | None:
    """Every place (line index and offset, not overlapping, at most `limit` + 1) where `pattern` matches
    at the tolerant `tier` in `text`, the lines of a file joined with LF (none holds an LF,
    `text` ends with LF or not): what `LineIndex.seek` finds from line 0 onwards, without
    splitting `text` into lines. None when this way cannot tell (the pattern's longest line
    is empty, or has more than `_CANDIDATES` places; the punctuation tier on a file that is
    not ASCII): then ask a `LineIndex`."""
    keys = [tier.key(line) for line in pattern]
    longest = max(range(len(keys)), key=lambda k: len(keys[k]))
    key, size = keys[longest], len(keys)
    if not key or (tier.key is _folded and not text.isascii()):
        return None
    found: list[tuple[int, int]] = []
    line, offset, search, free = 0, 0, 0, 0  # `line` starts at `offset`; places from line `free`
    for _ in range(_CANDIDATES):
        at = text.find(key, search)
        if at < 0 or len(found) > limit:
            return found
        start = text.rfind("\n", 0, at) + 1
        line += text.count("\n", offset, start)
        offset = start
        first = line - longest
        stop = text.find("\n", at)
        search = len(text) if stop < 0 else stop + 1  # the next candidate is on a later line
        if first < free or tier.key(text[start : len(text) if stop < 0 else stop]) != key:
            continue
        top = line_start(text, start, -longest)
        if top is None:
            continue
        lines = _lines_from(text, top, size)
        if lines is not None and [tier.key(each) for each in lines] == keys:
            found.append((first, top))
            free = first + size
    return None


def line_start(text: str, start: int, lines: int) -> int | None:
    """The offset of the line `lines` lines below (negative: above) the line starting at
    `start` in `text`: len(text) past its last line; None above its first."""
    for _ in range(-lines):
        if start == 0:
            return None
        start = text.rfind("\n", 0, start - 1) + 1
    for _ in range(lines):
        stop = text.find("\n", start)
        if stop < 0:
            return len(text)
        start = stop + 1
    return start


def _lines_from(text: str, start: int, size: int) -> list[str] | None:
    """The `size` lines of `text` from offset `start` (None if it has not that many)."""
    lines = []
    for _ in range(size):
        if start >= len(text):
            return None  # past the last line (a final LF ends it, it starts none)
        stop = text.find("\n", start)
        stop = len(text) if stop < 0 else stop
        lines.append(text[start:stop])
        start = stop + 1
    return lines
