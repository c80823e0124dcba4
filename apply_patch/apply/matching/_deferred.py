"""Exact replacements of one file made without copying its text for each (pure).

`_edits.replace` makes a replacement by copying the whole text: 1,000
SEARCH/REPLACE blocks in a 4 MB file copy 4 GB, and the copies, not the
searches, are most of the time (each new string is fresh memory the system
must map). `Deferred` keeps the text as it was and the replacements made since
(`pending`), and copies the text once, when asked (`text`).

It takes a replacement only when the answer is certain to be the one
`_edits.replace` gives on the text with every pending replacement made; else
it declines (`add` returns None, nothing done) and the caller makes the pending
ones (`text`) and the replacement the usual way, which then says why it fails
or how it matched. A replacement is taken when:

- it asks for one place (no count, occurrence, near_line or replace_all), and
  its old text is found exactly once in the kept text, no occurrence passed
  over (`_edits.exact_places`);
- it ends before the end of the text, which ends with a line break or keeps
  its end as it is (the final-newline policy acts at the end only);
- its lines, and `len(old)` characters either side, are clear of every pending
  replacement's lines (so its place and its lines are the same in both texts);
- no occurrence of its old text overlaps a pending replacement, neither in the
  kept text (one that is gone) nor in the text around a pending new text (one
  that is new).

Then the occurrences of old in both texts are the same, so the place, its line
(the kept text's, shifted by the line breaks pending replacements before it
add) and its counts are those `_edits.replace` computes.

How occurrences are found costs O(file + edits) for many edits, not O(file) an
edit. An old text of two line breaks or more holds a whole line of the file
wherever it occurs, after a line ending with what comes before it in the old
text. Once the plain searches have read the kept text `INDEX_AFTER` times over
(a file edited a few times never pays for more), the kept text is indexed by
its lines, each told by its text and the last `TAIL` characters of the line
before it (`_Lines`). An old text's occurrences are then among the places of
its rarest such line: in the kept text where their lines are clear of the
pending replacements' (`_claimed`), else searched for in the text as made
around the replacements they touch (`_around`); and where a pending
replacement made that line, or the line after it (`_written`), around that
replacement. Any other old text is searched for in the whole kept text and
around each pending replacement; the text is copied first when `LIMIT` are
pending (those searches grow with them).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import accumulate, islice
from operator import add, itemgetter

from ...format import StrReplace
from ._edits import (
    UNIT_WINDOW,
    LfText,
    as_lf,
    changed_counts,
    excluded_place,
    exact_places,
    keeps_its_unit,
    line_indexes,
    region_lines,
    spliced,
)
from ._placement import EXACT, Placement

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..._policy import Policy

LIMIT: Final = 32  # pending replacements searched around for an old text of fewer than two line breaks
DEFERRED_FROM: Final = 2  # a file edited fewer times is edited the usual way (one copy each anyway)
INDEX_AFTER: Final = 16  # whole-text searches (in text lengths) before the text is indexed by its lines
TAIL: Final = 8  # the characters of a line's end that, with the next line, index the next line


class _Lines:
    """The kept text indexed by its lines: each line's offset, and where each line is, told
    by its text and the last `TAIL` characters of the line before it (`key`)."""

    def __init__(self, body: str) -> None:
        lines = body.split("\n")
        self.starts = [0, *map(add, accumulate(map(len, lines)), range(1, len(lines) + 1))]  # each line's offset
        tails = map(itemgetter(slice(-TAIL, None)), lines)
        self._places: dict[str, list[int]] = {}
        for index, key in enumerate(map("\n".join, zip(tails, islice(lines, 1, None))), 1):
            self._places.setdefault(key, []).append(index)

    def places(self, key: str) -> list[int]:
        """The indexes of the lines that `key` tells, in order."""
        return self._places.get(key, [])


def key(before: str, line: str) -> str:
    """What tells a line (`line`, after a line ending with `before`) in `_Lines`."""
    return before[-TAIL:] + "\n" + line


@dataclass(frozen=True, slots=True)
class Window:
    """A stretch of the text as made (`Deferred.made_window`), and whether the text goes on
    before it and after it."""

    text: str
    cut_before: bool
    cut_after: bool


_Pending = tuple[int, int, str, int, int, int]  # start, end, new text, breaks added, its lines' begin, end


class Deferred:
    """A file's text (an `LfText`) and the exact replacements made to it but not yet copied."""

    def __init__(self, text: LfText, policy: Policy) -> None:
        self._text = text
        self._policy = policy
        self._open = text.body.endswith("\n") or policy.final_newline != "add"
        self._pending: list[_Pending] = []  # in the kept text, in order; their lines never overlap
        self._breaks = 0  # the line breaks all pending replacements add
        self._grown = 0  # the characters all pending replacements add
        self._known = text.known  # a line start of the kept text and its line
        self._index: _Lines | None = None
        self._searched = 0  # characters of the kept text read by whole-text searches
        self._written: dict[str, list[_Pending]] = {}  # a line's `key` in the text as made, near which ones
        self._claimed: dict[int, _Pending] = {}  # a kept line a pending replacement's lines hold: which one

    def add(self, op: StrReplace) -> Placement | None:
        """`op` made (its placement), or None: not certain here, nothing done (see the module)."""
        if not self._open or op.replace_all or op.expected not in (None, 1):
            return None
        if op.occurrence is not None or op.near_line is not None:
            return None
        old, new = as_lf(op.old), as_lf(op.new)
        if not old:
            return None
        body = self._text.body
        pieces = old.split("\n")
        if len(pieces) >= 3 and self._index is None and self._searched >= INDEX_AFTER * len(body):
            self._index = _Lines(body)
        if len(pieces) >= 3 and self._index is not None:
            found = self._indexed_place(old, pieces, self._index)
            if found is None:
                return None
            at, line = found
        else:
            if len(self._pending) >= LIMIT:
                body = self.text().body
            self._searched += len(body)
            places, leading = exact_places(body, old)
            if len(places) != 1 or not leading or self._overlapped(old):
                return None
            at, line = places[0], -1
        size = len(old)
        if at + size >= len(body):
            return None
        begin = body.rfind("\n", 0, at) + 1
        stop = body.find("\n", at + size)
        end = len(body) if stop < 0 else stop + 1
        if not self._clear(begin - size, end + size) or not self._keeps_its_unit(at, old, new):
            return None
        if line < 0:
            (line,) = line_indexes(body, [at], self._known)
        self._known = (begin, line)
        region = body[begin:end]
        was, made = region_lines(region), region_lines(spliced(region, begin, [at], size, new))
        added, removed = changed_counts(was, made)
        k = bisect_left(self._pending, (at,))
        breaks = new.count("\n") - old.count("\n")
        shift = self._breaks if k == len(self._pending) else sum(p[3] for p in self._pending[:k])
        pending = (at, at + size, new, breaks, begin, end)
        self._pending.insert(k, pending)
        self._breaks += breaks
        self._grown += len(new) - size
        self._claimed.update(dict.fromkeys(range(line, line + len(was)), pending))
        # The lines told apart otherwise in the text as made: its lines, and the line after them.
        before = body[body.rfind("\n", 0, begin - 1) + 1 : begin - 1] if begin else None
        after = None
        if end < len(body):
            stop = body.find("\n", end)
            after = body[end : len(body) if stop < 0 else stop]
        for made_line in [*made, *([] if after is None else [after])]:
            if before is not None:
                self._written.setdefault(key(before, made_line), []).append(pending)
            before = made_line
        return Placement(op.line, line + shift + 1, EXACT, added, removed)

    def text(self) -> LfText:
        """The text with every pending replacement made (one copy); nothing is pending after."""
        if not self._pending:
            return self._text
        body, pieces, kept = self._text.body, [], 0
        for start, end, new, *_ in self._pending:
            pieces += [body[kept:start], new]
            kept = end
        pieces.append(body[kept:])
        # Nothing before the first replacement moved: the start of its line keeps its place.
        begin = body.rfind("\n", 0, self._pending[0][0]) + 1
        self._known = (begin, line_indexes(body, [begin], self._known)[0])
        self._pending, self._breaks, self._grown, self._written, self._claimed = [], 0, 0, {}, {}
        self._index, self._searched = None, 0
        self._text = LfText("".join(pieces), self._text.bom and self._policy.bom == "keep", self._known)
        return self._text

    def _indexed_place(self, old: str, pieces: list[str], index: _Lines) -> tuple[int, int] | None:
        """The one place of `old` (two line breaks or more) and its line in the kept text,
        found through `index`; None when it is not the only place of `old` in the text with
        the pending replacements made, or is not clear of them.

        Every occurrence holds the whole line `pieces[j]` (0 < j < len - 1) after a line
        ending with `pieces[j - 1]`. Where the kept text has that pair of lines, the
        occurrence is found from it: in the kept text when its lines are clear of the
        pending replacements', else around the replacements it touches. Where a pending
        replacement made it (`_written`), around that replacement."""
        usable = [j for j in range(1, len(pieces) - 1) if j > 1 or len(pieces[0]) >= TAIL]
        if not usable:
            return None
        keys = {j: key(pieces[j - 1], pieces[j]) for j in usable}
        j = min(usable, key=lambda j: len(index.places(keys[j])) + len(self._written.get(keys[j], ())))
        size = len(old)
        if any(old in self._around(pending, size) for pending in self._written.get(keys[j], ())):
            return None
        body, found, claimed, starts = self._text.body, [], self._claimed, index.starts
        for anchor in index.places(keys[j]):
            first = anchor - j  # the line where an occurrence would start
            if first < 0:
                continue
            if claimed and any(n in claimed for n in range(first, anchor + len(pieces) - 1 - j)):
                # Its lines are not all the kept text's: look at the text as made.
                touched = {id(p): p for n in range(first, anchor + len(pieces) - 1 - j) if (p := claimed.get(n))}
                if any(old in self._around(pending, size) for pending in touched.values()):
                    return None
                continue
            at = starts[first + 1] - 1 - len(pieces[0])
            if at >= starts[first] and body.startswith(old, at):
                found.append((at, first))
                if len(found) > 1:
                    return None
        if len(found) != 1:
            return None
        at, first = found[0]
        return None if excluded_place(body, old, at, at + size) else (at, first)

    def _keeps_its_unit(self, at: int, old: str, new: str) -> bool:
        """Whether `_edits.replace` would write `new` as sent, indentation and all, for `old`
        at the kept text's `at` (clear of the pending replacements) in the text as made:
        read there, `UNIT_WINDOW` characters each side, as `_edits._in_file_unit` reads it."""
        if "\n\t" not in new and "\n " not in new and new[:1] not in ("\t", " "):
            return True  # no line of the new text is indented (the test `_in_file_unit` makes first)
        window = self.made_window(at, len(old), UNIT_WINDOW)
        return keeps_its_unit(old, new, window.text, window.cut_before, window.cut_after, self._policy)

    def made_window(self, at: int, size: int, reach: int) -> Window:
        """The text as made from `reach` characters before the kept text's `at` to `reach`
        after `at + size` (a stretch clear of the pending replacements), as far as it goes."""
        body, pending = self._text.body, self._pending
        k = bisect_left(pending, (at,))
        made_at = at + (self._grown if k == len(pending) else sum(len(p[2]) - (p[1] - p[0]) for p in pending[:k]))
        low, high = at - reach, at + size + reach
        while True:  # kept [low, high), wide enough for `reach` characters each side once made
            low, high = max(low, 0), min(high, len(body))
            first, last = bisect_left(pending, (low,)), bisect_left(pending, (high,))
            if first and pending[first - 1][1] > low:
                first -= 1
                low = pending[first][0]  # (never inside a pending replacement)
            if last > first and pending[last - 1][1] > high:
                high = pending[last - 1][1]
            before = at - low + sum(len(p[2]) - (p[1] - p[0]) for p in pending[first:k])
            after = high - at - size + sum(len(p[2]) - (p[1] - p[0]) for p in pending[k:last])
            short_before, short_after = before < reach and low > 0, after < reach and high < len(body)
            if not (short_before or short_after):
                break
            low -= (reach - before) if short_before else 0
            high += (reach - after) if short_after else 0
        pieces, kept = [], low
        for start, end, made, *_ in pending[first:last]:
            pieces += [body[kept:start], made]
            kept = end
        pieces.append(body[kept:high])
        text = "".join(pieces)[max(before - reach, 0) : before + size + reach]
        return Window(text, made_at - reach > 0, made_at + size + reach < len(body) + self._grown)

    def _touching(self, low: int, high: int) -> list[_Pending]:
        """The pending replacements whose lines touch the kept text's [low, high)."""
        k = bisect_left(self._pending, (low,))
        if k and self._pending[k - 1][5] > low:
            k -= 1
        touched = []
        while k < len(self._pending) and self._pending[k][4] < high:
            touched.append(self._pending[k])
            k += 1
        return touched

    def _clear(self, low: int, high: int) -> bool:
        """Whether no pending replacement's lines touch the kept text's [low, high)."""
        return not self._touching(low, high)

    def _around(self, pending: _Pending, reach: int) -> str:
        """The text with the pending replacements made, from `reach` characters before
        `pending`'s lines to `reach` after them, together with every pending replacement
        whose lines come that near (so that any occurrence of `reach` characters or fewer
        touching `pending` is in it)."""
        body = self._text.body
        k = self._pending.index(pending)
        first = last = k
        low, high = max(pending[4] - reach, 0), min(pending[5] + reach, len(body))
        while first and self._pending[first - 1][5] > low:
            first -= 1
            low = max(self._pending[first][4] - reach, 0)
        while last + 1 < len(self._pending) and self._pending[last + 1][4] < high:
            last += 1
            high = min(self._pending[last][5] + reach, len(body))
        pieces, kept = [], low
        for start, end, new, *_ in self._pending[first : last + 1]:
            pieces += [body[kept:start], new]
            kept = end
        pieces.append(body[kept:high])
        return "".join(pieces)

    def _overlapped(self, old: str) -> bool:
        """Whether `old` occurs over a pending replacement: across its old text in the kept
        text, or across its new text in the text with it made (or it cannot be told)."""
        body, reach, previous_end = self._text.body, len(old) - 1, -1
        for number, (start, end, new, *_) in enumerate(self._pending):
            low, high = max(start - reach, 0), min(end + reach, len(body))
            following = self._pending[number + 1][0] if number + 1 < len(self._pending) else len(body)
            if low < previous_end or high > following:
                return True  # another pending replacement is that near: not told apart here
            if body.find(old, low, high) >= 0 or old in body[low:start] + new + body[end:high]:
                return True
            previous_end = end
        return False
