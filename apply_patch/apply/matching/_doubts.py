"""Doubts about chunks that were placed: a fuzzy tier, or the first of several places.

On the way of every patch that applies; the explanations of failures are
`_diagnose`, imported only when a chunk fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from ...format import constants as C
from ._seek import TIERS

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Sequence
    from typing import Final

    from ...format import Chunk
    from ._names import FileName
    from ._seek import LineIndex, Match, Tier

    Placed = tuple[Chunk, list[str], Match]  # a chunk, the pattern found, where

TIER_WORDS: Final = {
    "trailing-whitespace": "once trailing whitespace is ignored",
    "whitespace": "once leading and trailing whitespace is ignored",
    "punctuation": "once whitespace is ignored and typographic dashes, quotes and spaces are folded",
}


SLIP_WORDS: Final = {
    "line-numbers": "once the line numbers copied in front of its lines are left out",
    "blank-lines": "once blank lines are ignored (the file's are kept)",
    "elided-middle": "with its placeholder line standing for the file's lines there (kept)",
}


@dataclass(frozen=True, slots=True)
class Spot:
    """Where the locator put one chunk (what `_unique` weighs): `at` (0-based), searched from `start`.

    `pattern` is what was matched (empty for added lines only), at `tier`
    (None: placed, not matched); `pinned` when nothing else could have placed
    it (the end of the file, its own line numbers, the end of an empty search).
    """

    chunk: Chunk
    pattern: tuple[str, ...]
    tier: Tier | None
    start: int
    at: int
    pinned: bool


@dataclass(frozen=True, slots=True)
class PatchWarning:
    """A doubt about the patch: `kind` is "fuzzy" or "ambiguous" (a chunk, or
    its `@@` line), "indentation" (added lines sent in another indentation unit
    than the file's; `candidates` are their lines in the new file), or "input"
    (the patch was decoded from JSON or a shell command; then only `message` is set).

    `file_line` is where the chunk landed (1-based); `tier` the tier that
    placed it; `candidates` every place it (or its `@@` line) matched at that tier.
    """

    kind: str
    path: str | None
    patch_line: int | None
    file_line: int | None
    tier: str | None
    candidates: tuple[int, ...]
    message: str



def doubts(
    index: LineIndex, lines: Sequence[str], placed: Sequence[Placed], where: FileName
) -> tuple[list[PatchWarning], list[bool]]:
    """Warnings for chunks placed by a fuzzy tier, or at the first of several places.

    Asked once for all the chunks of a file: one pass counts the file's lines
    that occur in exact patterns, and a pattern holding a line that occurs once
    needs no second search (it cannot be anywhere else). Also says, for each
    chunk, whether it matches nowhere else after its place (then it is sure).
    """
    exact = TIERS[0]
    counts = dict.fromkeys([line for chunk, pattern, match in placed if match.tier is exact for line in pattern], 0)
    for line in filter(counts.__contains__, lines):  # (the filter in C: only the lines wanted come here)
        counts[line] += 1
    found: list[PatchWarning] = []
    alone: list[bool] = []
    for chunk, pattern, match in placed:
        # An empty pattern (a chunk whose only line was a dropped blank) is placed, not found.
        single = not pattern or (match.tier is exact and min(counts[line] for line in pattern) <= 1)
        candidates = [match.index]
        while not (single or chunk.is_end_of_file) and len(candidates) < 10:
            further = index.seek(pattern, candidates[-1] + 1, tiers=(match.tier,))
            if further is None:
                break
            candidates.append(further.index)
        if match.tier is not exact or len(candidates) > 1:
            found += _warnings(chunk, match, tuple(c + 1 for c in candidates), where)
        alone.append(len(candidates) == 1 and not chunk.is_end_of_file)
    return found, alone


def _warnings(
    chunk: Chunk, match: Match, numbers: tuple[int, ...], where: FileName
) -> list[PatchWarning]:
    found: list[PatchWarning] = []
    if match.tier is not TIERS[0]:
        found.append(fuzzy_warning(chunk.name, chunk.line, match.index + 1, match.tier.name, numbers, where))
    if len(numbers) > 1:
        found.append(_warning("ambiguous", chunk, where, match, numbers, (
            f"{where.relative}: {chunk.name} matches "
            f"{len(numbers)} places (lines {listing(numbers)}); "
            + ("the one nearest its line numbers was used." if chunk.near is not None
               else "the first was used. More context lines or an @@ line would make it unique.")
        )))
    return found


def fuzzy_warning(
    name: str, line: int, at: int, tier: str, numbers: tuple[int, ...], where: FileName
) -> PatchWarning:
    """The warning for an edit of any format (`name`, as its messages name it; patch `line`)
    placed at 1-based line `at` only by the tolerant `tier` (`numbers`: its places)."""
    return PatchWarning(
        "fuzzy", where.relative, line, at, tier, numbers, f"{where.relative}: {name} matched line {at} only {TIER_WORDS[tier]}."
    )


def listing(numbers: Sequence[int]) -> str:
    return ", ".join(map(str, numbers))



def _warning(
    kind: str, chunk: Chunk, where: FileName, match: Match, numbers: tuple[int, ...], message: str
) -> PatchWarning:
    return PatchWarning(kind, where.relative, chunk.line, match.index + 1, match.tier.name, numbers, message)


def slip_warning(chunk: Chunk, at: int, slip: str, where: FileName) -> PatchWarning:
    """The warning for a chunk found at 0-based `at` only once a model's `slip` was undone."""
    return PatchWarning(
        "fuzzy", where.relative, chunk.line, at + 1, slip, (at + 1,),
        f"{where.relative}: {chunk.name} matched line {at + 1} only {SLIP_WORDS[slip]}.",
    )  # fmt: skip


def unit_warning(where: FileName, numbers: tuple[int, ...], sent: str, unit: str, rewritten: bool) -> PatchWarning:
    """The warning for added lines (1-based `numbers` of the new file) sent indented with
    `sent` ("tabs", "spaces") beside the file's lines indented with `unit`: `rewritten` in
    it (the file uses it throughout), or written as sent."""
    what = f"lines {', '.join(line_ranges(numbers))}" if len(numbers) > 1 else f"line {numbers[0]}"
    done = (
        f"written with {unit}, as the file is indented throughout" if rewritten
        else "written as sent: check them (the file's unit is not the same throughout, or the width of a level is not certain)"
    )  # fmt: skip
    return PatchWarning(
        "indentation", where.relative, None, numbers[0], None, numbers,
        f"{where.relative}: {what} {'were' if len(numbers) > 1 else 'was'} sent indented with {sent} where the "
        f"file's lines around use {unit}; {done}.",
    )  # fmt: skip


def line_ranges(numbers: tuple[int, ...]) -> list[str]:
    """Ascending line numbers as ranges: 3, 4, 5, 9 → "3-5", "9"."""
    ranges: list[list[int]] = []
    for number in numbers:
        if ranges and number == ranges[-1][-1] + 1:
            ranges[-1].append(number)
        else:
            ranges.append([number])
    return [f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in ranges]


def fuzz_warning(chunk: Chunk, used: Sequence[str], at: int, lines: Sequence[str], where: FileName) -> PatchWarning:
    """The warning for a hunk placed at 0-based `at` with context lines fuzzed (`_fuzz`):
    `used` is its lines with the file's version of those; the lines that differ are named."""
    theirs = [line[1:] for line in chunk.lines if line[0] != C.ADDED]
    ours = [line[1:] for line in used if line[0] != C.ADDED]
    kept = tuple(at + k + 1 for k, (a, b) in enumerate(zip(theirs, ours)) if a != b)
    word = "line" if len(kept) == 1 else "lines"
    return PatchWarning(
        "fuzzy", where.relative, chunk.line, at + 1, "fuzz", (at + 1,),
        f"{where.relative}: {chunk.name} placed at line {at + 1}, near where its line numbers say, with its "
        f"context {word} {listing(kept)} kept as the file has {'it' if len(kept) == 1 else 'them'} "
        f"(different in the {chunk.noun}: fuzz); check {'it' if len(kept) == 1 else 'them'}.",
    )  # fmt: skip


def ambiguous_context(
    chunk: Chunk, number: int, places: tuple[int, ...], tier: str, where: FileName
) -> PatchWarning:
    """The warning for the chunk's `number`-th `@@` line, which matches at the 1-based `places`
    (at `tier`)."""
    line = chunk.line + number
    return PatchWarning(
        "ambiguous",
        where.relative,
        line,
        places[0],
        tier,
        places,
        f"{where.relative}: the @@ line at patch line {line} matches {len(places)} places "
        f"(lines {listing(places)}); the first was used. An @@ line above it "
        "(its class) would make it unique.",
    )
