"""Finding a run of lines in a file by content, in four tiers of tolerance.

The tiers, each a full pass over the file before the next is tried (so an
exact match late in the file beats a fuzzy one early on):

1. `exact`: the lines are equal;
2. `trailing-whitespace`: equal once trailing whitespace is removed;
3. `whitespace`: equal once surrounding whitespace is removed;
4. `punctuation`: equal once surrounding whitespace is removed and typographic
   dashes, quotes and spaces are folded to their ASCII forms.

Search is linear in the file size, also when nothing matches: for each tier,
every distinct line of the file is mapped to one character, so the file
becomes a string and a run of lines a substring found with `str.find`.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ._constants import WHITESPACE

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
# One character per distinct line: at most this many distinct lines per tier.
_MAX_CODES: Final = 0x110000


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
    Tier("exact", str),
    Tier("trailing-whitespace", _trailing),
    Tier("whitespace", _surrounding),
    Tier("punctuation", _folded),
)


@dataclass(frozen=True, slots=True)
class Match:
    """Where a pattern was found (0-based line index) and by which tier."""

    index: int
    tier: Tier


class _Encoded:
    """One tier's view of a file: a code character per line, and the code table."""

    __slots__ = ("codes", "text", "keys")

    def __init__(self, keys: list[str]) -> None:
        distinct = dict.fromkeys(keys)
        self.keys = keys
        if len(distinct) <= _MAX_CODES:
            self.codes: dict[str, str] | None = dict(zip(distinct, map(chr, range(len(distinct)))))
            self.text = "".join(map(self.codes.__getitem__, keys))
        else:  # more distinct lines than characters: compare line by line
            self.codes, self.text = None, ""

    def find(self, pattern: list[str], start: int, stop: int) -> int | None:
        """First index in [start, stop] where `pattern` (already keyed) begins."""
        if self.codes is None:
            return _find_slowly(self.keys, pattern, start, stop)
        try:
            needle = "".join(map(self.codes.__getitem__, pattern))
        except KeyError:  # a pattern line that is nowhere in the file
            return None
        found = self.text.find(needle, start, stop + len(pattern))
        return None if found < 0 else found


def _find_slowly(keys: list[str], pattern: list[str], start: int, stop: int) -> int | None:
    for index in range(start, stop + 1):
        if keys[index : index + len(pattern)] == pattern:
            return index
    return None


class LineIndex:
    """Search structure over one file's lines; each tier is built on first use."""

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = list(lines)
        self._tiers: dict[str, _Encoded] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def _encoded(self, tier: Tier) -> _Encoded:
        encoded = self._tiers.get(tier.name)
        if encoded is None:
            keys = self._lines if tier.key is str else list(map(tier.key, self._lines))
            encoded = self._tiers[tier.name] = _Encoded(keys)
        return encoded

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
        stop = last
        for tier in tiers:
            keys = list(pattern) if tier.key is str else list(map(tier.key, pattern))
            found = self._encoded(tier).find(keys, start, stop)
            if found is not None:
                return Match(found, tier)
        return None


def seek_sequence(
    lines: Sequence[str], pattern: Sequence[str], start: int, *, eof: bool = False
) -> Match | None:
    """Find `pattern` in `lines` at or after `start` (see `LineIndex.seek`)."""
    return LineIndex(lines).seek(pattern, start, eof=eof)
