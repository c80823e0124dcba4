"""Exact replacements of one file made without copying its text for each (pure).

`_edits.replace` makes a replacement by copying the whole text: 1,000
SEARCH/REPLACE blocks in a 4 MB file copy 4 GB, and the copies, not the
searches, are most of the time (each new string is fresh memory the system
must map). `Deferred` keeps the text as it was and the replacements made since
(`pending`), and copies the text once for up to `LIMIT` of them.

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
  replacement (so its place and its lines are the same in both texts);
- no occurrence of its old text overlaps a pending replacement, neither in the
  kept text (one that is gone) nor in the text around a pending new text (one
  that is new); each of those is searched in the stretch of `len(old) - 1`
  characters either side, which holds no other pending replacement (else it
  declines).

Then the occurrences of old in both texts are the same, so the place, its line
(the kept text's, shifted by the line breaks pending replacements before it
add) and its counts are those `_edits.replace` computes.
"""

from __future__ import annotations

from bisect import bisect_left

from ...format import StrReplace
from ._edits import LfText, as_lf, changed_counts, exact_places, line_indexes, region_lines, spliced
from ._placement import EXACT, Placement

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..._policy import Policy

LIMIT: Final = 32  # pending replacements copied at once: each edit's checks grow with it
DEFERRED_FROM: Final = 2  # a file edited fewer times is edited the usual way (one copy each anyway)


class Deferred:
    """A file's text (an `LfText`) and the exact replacements made to it but not yet copied."""

    def __init__(self, text: LfText, policy: Policy) -> None:
        self._text = text
        self._policy = policy
        self._open = text.body.endswith("\n") or policy.final_newline != "add"
        # (start, end, new text, line breaks it adds) in the kept text, in order.
        self._pending: list[tuple[int, int, str, int]] = []
        self._known = text.known  # a line start of the kept text and its line

    def add(self, op: StrReplace) -> Placement | None:
        """`op` made (its placement), or None: not certain here, nothing done (see the module)."""
        if not self._open or op.replace_all or op.expected not in (None, 1):
            return None
        if op.occurrence is not None or op.near_line is not None:
            return None
        old, new = as_lf(op.old), as_lf(op.new)
        body = self._text.body
        places, leading = exact_places(body, old)
        if len(places) != 1 or not leading:
            return None
        at, size = places[0], len(old)
        if at + size >= len(body):
            return None
        begin = body.rfind("\n", 0, at) + 1
        stop = body.find("\n", at + size)
        end = len(body) if stop < 0 else stop + 1
        if not self._clear(begin - size, end + size) or self._overlapped(old):
            return None
        (line,) = line_indexes(body, [at], self._known)
        self._known = (begin, line)
        region = body[begin:end]
        added, removed = changed_counts(region_lines(region), region_lines(spliced(region, begin, [at], size, new)))
        k = bisect_left(self._pending, (at,))
        shift = sum(p[3] for p in self._pending[:k])
        self._pending.insert(k, (at, at + size, new, new.count("\n") - old.count("\n")))
        if len(self._pending) >= LIMIT:
            self._text = self.text()
        return Placement(op.line, line + shift + 1, EXACT, added, removed)

    def text(self) -> LfText:
        """The text with every pending replacement made (one copy); nothing is pending after."""
        if not self._pending:
            return self._text
        body, pieces, kept = self._text.body, [], 0
        for start, end, new, _ in self._pending:
            pieces += [body[kept:start], new]
            kept = end
        pieces.append(body[kept:])
        # Nothing before the first replacement moved: the start of its line keeps its place.
        begin = body.rfind("\n", 0, self._pending[0][0]) + 1
        self._known = (begin, line_indexes(body, [begin], self._known)[0])
        self._pending = []
        self._text = LfText("".join(pieces), self._text.bom and self._policy.bom == "keep", self._known)
        return self._text

    def _clear(self, low: int, high: int) -> bool:
        """Whether no pending replacement touches the kept text's [low, high)."""
        k = bisect_left(self._pending, (low,))
        if k and self._pending[k - 1][1] > low:
            return False
        return k == len(self._pending) or self._pending[k][0] >= high

    def _overlapped(self, old: str) -> bool:
        """Whether `old` occurs over a pending replacement: across its old text in the kept
        text, or across its new text in the text with it made (or it cannot be told)."""
        body, reach, previous_end = self._text.body, len(old) - 1, -1
        for number, (start, end, new, _) in enumerate(self._pending):
            low, high = max(start - reach, 0), min(end + reach, len(body))
            following = self._pending[number + 1][0] if number + 1 < len(self._pending) else len(body)
            if low < previous_end or high > following:
                return True  # another pending replacement is that near: not told apart here
            if body.find(old, low, high) >= 0 or old in body[low:start] + new + body[end:high]:
                return True
            previous_end = end
        return False
