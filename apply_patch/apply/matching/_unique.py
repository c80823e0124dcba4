"""Whether a file's chunks, placed in order and without overlap, fit in exactly one way (pure).

The locator places each chunk at the first place that fits after the one
before it (the leftmost placement). Any other placement keeps the order, so
every chunk lies between its leftmost place and its rightmost one: where the
two agree for every chunk, there is one placement only, and it is applied.
Two `@@ def foo():` chunks against two `def foo()` go first to first, second
to second; one chunk whose lines occur twice is ambiguous, and refused with
the candidate lines (policy `ambiguous="error"`, the default outside
`--codex`).

The rightmost placement is found from the last chunk back, each as far down
as the chunk after it allows. A chunk's places are those its own rules give:
anywhere its lines match (at the tier that placed it), or, with `@@` lines,
the first match after each place where its `@@` lines match in order; a
chunk pinned to the end of the file, or placed by its own line numbers (a
unified diff's hunk whose header names one of its places), has one place.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._doubts import Spot
    from ._seek import LineIndex

_MAX_PLACES = 10  # candidate places listed in a refusal (and searched)


def other_places(index: LineIndex, spots: list[Spot]) -> tuple[Spot, tuple[int, ...]] | None:
    """The first chunk (in file order) that could also go elsewhere, with every place it fits.

    The places are 0-based lines where the chunk itself would land (its
    first expected line; for added lines only, where they would go), also for a
    chunk with `@@` lines: the places of the `@@` line itself would mislead the
    model about where to add context.
    """
    bound = len(index)  # where the chunks after this one begin, at the latest
    ambiguous = None
    for spot in reversed(spots):
        if not spot.pinned:
            places = _places(index, spot, bound)
            if len(places) > 1:
                ambiguous = (spot, places)
        bound = spot.at
    return ambiguous


def _places(index: LineIndex, spot: Spot, bound: int) -> tuple[int, ...]:
    """The 0-based places where `spot`'s chunk fits, from its search start, ending by `bound`."""
    size = len(spot.pattern)
    if spot.chunk.contexts:
        landing = set()  # where the chunk lands after each way its @@ lines match
        for anchor in _anchors(index, spot):
            place = _after(index, spot, anchor)
            if place is not None and place + size <= bound:
                landing.add(place)
        return tuple(sorted(landing))[:_MAX_PLACES]
    places: list[int] = []
    at: int | None = spot.at
    while at is not None and len(places) < _MAX_PLACES:
        places.append(at)
        at = _seek(index, spot, at + 1)
    return tuple(p for p in places if p + size <= bound)


def _anchors(index: LineIndex, spot: Spot) -> list[int]:
    """The line after the last `@@` line, for each way the chunk's `@@` lines match in order."""
    first, *rest = spot.chunk.contexts
    found: list[int] = []
    match = index.seek([first], spot.start)
    while match is not None and len(found) < _MAX_PLACES:
        at: int | None = match.index
        for context in rest:
            further = index.seek([context], at + 1) if at is not None else None
            at = None if further is None else further.index
        if at is not None:
            found.append(at + 1)
        match = index.seek([first], match.index + 1, tiers=(match.tier,))
    return found


def _after(index: LineIndex, spot: Spot, anchor: int) -> int | None:
    """Where the chunk goes after an `@@` place: added lines only right there; else its
    lines' first match from there (or at the `@@` line itself, as the locator retries)."""
    if not spot.pattern:
        return anchor
    found = _seek(index, spot, anchor)
    return found if found is not None else _seek(index, spot, anchor - 1, exactly=True)


def _seek(index: LineIndex, spot: Spot, start: int, *, exactly: bool = False) -> int | None:
    assert spot.tier is not None
    match = index.seek(list(spot.pattern), start, tiers=(spot.tier,))
    if match is None or (exactly and match.index != start):
        return None
    return match.index
