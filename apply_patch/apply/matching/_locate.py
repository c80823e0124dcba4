"""The general search: an Update's chunks located in a file's lines (pure, nothing on disk).

The chunks are located in patch order, each searched from the end of the
previous one (see `_seek` for the tiers); a located chunk becomes replacements
of the file's lines (`_splice`, which also writes them). Plain chunks are
answered by a shorter way first (`_plain`), as the search would.

Rules beyond the reference's (each documented in README, "How chunks are
located"):

- consecutive `@@` lines narrow one after the other (class, then method);
- when a chunk is not found after its `@@` line, it is also tried *at* that
  line (models often repeat the `@@` line as the chunk's first context line);
- `@@ ctx` followed only by `+` lines inserts them right after the `ctx`
  line (policy `pure_addition="after-context"`; the reference appends them at
  the end of the file, policy `"end"`);
- an `@@ ctx` line that matches several places is taken at the first (as
  the reference does) with an `ambiguous` warning when the choice matters
  (a pure addition goes after it, or the chunk would land elsewhere after
  another of its places); `ambiguous="error"` refuses it;
- a byte-order mark the model copied to the start of a line compared with
  the file's first line is ignored (the file keeps its own BOM);
- after a whitespace-tolerant match, added lines are written as the model
  sent them, with one exception: an added line that takes the place of a
  removed line loses the trailing whitespace it has when the patch's removed
  line had trailing whitespace and the file's line has none (whitespace the
  model copied from nowhere);
- a `+` line followed by a `\\` line (`\\ Line ending: CRLF`, `\\ No newline at
  end of file`) gets exactly that ending, over the final-newline policy and
  the file's own ending (a forced `lf`/`crlf` policy still rewrites it).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...format import constants as C, Chunk, UpdateFile
from ._doubts import PatchWarning, Spot, ambiguous_context, doubts, fuzz_warning, slip_warning
from ._names import FileName
from ._placement import Placement
from ..._policy import Policy
from ._plain import plain
from ._seek import TIERS, Match, LineIndex
from ._splice import INDENT_WINDOW, Replacement, chunk_replacements, written
from ._text import Decoded, Edited
from ._textfile import BOM

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ._splice import Found
    from ..._errors import AmbiguousBlankLinesError

_FUZZ = "fuzz"  # the slip of a hunk placed with context lines fuzzed (`_fuzz`)


def update_lines(text: Decoded, update: UpdateFile, policy: Policy, where: FileName, *, at_numbers: bool = True) -> Edited:
    """Every chunk of `update` placed in `text` by the whole search (`searched`; a hunk tried
    first where its numbers say when `at_numbers`) and written; ContextNotFoundError (or
    another PatchError) for the first that is not there."""
    edited = written(text, update, lambda lines, chunks: searched(lines, chunks, policy, where, at_numbers=at_numbers),
                      policy, where)  # fmt: skip
    assert edited is not None  # (the whole search answers or raises)
    return edited


def locate(
    lines: list[str], chunks: tuple[Chunk, ...], policy: Policy, where: FileName
) -> Found:
    """Find every chunk in `lines`, in order; raise for the first that is not there.

    With the policy `ambiguous="error"` the chunks must fit in one way only
    (`_unique`); with `"first"` (the reference's) each goes to the first place
    that fits, with an `ambiguous` warning when another would have.
    """
    plain_answer = plain(lines, chunks)
    return plain_answer if plain_answer is not None else searched(lines, chunks, policy, where)


def searched(
    lines: list[str],
    chunks: tuple[Chunk, ...],
    policy: Policy,
    where: FileName,
    *,
    at_numbers: bool = True,
    index: LineIndex | None = None,
) -> Found:
    """`locate`, by the whole search (every tier, the doubts, the order's other places); a
    hunk tried first where its numbers say (`_at_numbers`) when `at_numbers`. `index`: a
    `LineIndex` over `lines` the caller has already (its joined lines are made once)."""
    first = policy.ambiguous == "first"
    index = LineIndex(lines) if index is None else index
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    placed: list[tuple[Chunk, list[str], Match]] = []
    spots: list[Spot] = []
    warnings: list[PatchWarning] = []
    line_index, drift = 0, 0
    for chunk in chunks:
        start = line_index
        anchor, line_index, anchors = _narrow(index, lines, chunk, line_index, where)
        if not any(s[0] != C.ADDED for s in chunk.lines):
            at = _insertion_point(chunk, anchor, line_index, len(lines), policy, drift)
            if first and at == line_index and anchor is not None:  # placed right after its @@ line
                warnings += _context_doubts(chunk, anchors, None, index, where)
            replacements.append(Replacement(at, 0, tuple(chunk.new_lines), chunk.added_endings))
            placements.append(Placement(chunk.line, at + 1, TIERS[0].name, chunk.added, 0))
            spots.append(Spot(chunk, (), None, start, at, anchor is None or chunk.near is not None or not anchors))
            if chunk.near is not None:
                drift = at - chunk.near
            continue
        numbered = _at_numbers(lines, chunk, line_index, drift) if anchor is None and at_numbers else None
        if numbered is not None:  # where its numbers say: the place `_by_numbers` would take
            used, endings, pattern, match, slip = numbered
            by_numbers = True
        else:
            near = None if chunk.near is None else chunk.near + drift
            target = None if anchor is not None else near
            used, endings, pattern, match, slip = _find_chunk(
                index, lines, chunk, line_index, anchor, where, policy, near, target
            )
            by_numbers = slip == _FUZZ  # placed near its numbers, the only place its core fits
            if chunk.near is not None and not by_numbers:
                match, by_numbers = _by_numbers(index, pattern, match, chunk, chunk.near + drift, first)
        if slip == _FUZZ:
            warnings.append(fuzz_warning(chunk, used, match.index, lines, where))
        elif slip is not None:
            warnings.append(slip_warning(chunk, match.index, slip, where))
        if chunk.near is not None:
            drift = match.index - chunk.near
        if first:
            warnings += _context_doubts(chunk, anchors, (pattern, match), index, where)
        if match.tier is not TIERS[0]:
            used = without_copied_whitespace(used, match.index, lines, policy)
            how = indent_move(used, match.index, lines, policy)
            used = reindented(used, match.index, lines, chunk, how, where)
        placed.append((chunk, pattern, match))
        pinned = by_numbers or chunk.is_end_of_file or not pattern  # an empty pattern is placed, not found
        if chunk.contexts and not anchors:  # each @@ line has one place: so has the chunk
            pinned = True
        spots.append(Spot(chunk, tuple(pattern), match.tier, start, match.index, pinned))
        made = chunk_replacements(used, match.index, endings)
        replacements += made
        added, removed = sum(len(r.new_lines) for r in made), sum(r.old_len for r in made)
        tier = _FUZZ if slip == _FUZZ else match.tier.name
        placements.append(Placement(chunk.line, match.index + 1, tier, added, removed))
        line_index = match.index + len(pattern)
    found, alone = doubts(index, lines, placed, where)
    if not first:
        _refuse_other_places(index, _sure(spots, alone), where)
        found = [w for w in found if w.kind != "ambiguous"]  # the order leaves one place
    return replacements, placements, warnings + found


def _sure(spots: list[Spot], alone: list[bool]) -> list[Spot]:
    """`spots` with every chunk without `@@` lines that matches nowhere after its place
    (`doubts` said: `alone`, in the order of the chunks that were matched) pinned."""
    matched = iter(alone)
    result = []
    for spot in spots:
        only = bool(spot.pattern) and next(matched)  # `alone` has one entry per matched chunk
        if only and not spot.pinned and not spot.chunk.contexts:  # (made directly: `replace` is slow)
            spot = Spot(spot.chunk, spot.pattern, spot.tier, spot.start, spot.at, True)
        result.append(spot)
    return result


def _refuse_other_places(index: LineIndex, spots: list[Spot], where: FileName) -> None:
    """Raise AmbiguousChunkError if a chunk could also go elsewhere, the order kept."""
    if all(spot.pinned for spot in spots):
        return  # every chunk has one place: nothing to weigh (`_unique` not even imported)
    from ._unique import other_places

    other = other_places(index, spots)
    if other is not None:
        from ._diagnose import ambiguity_error  # failures only: start-up time

        spot, places = other
        raise ambiguity_error(spot.chunk, tuple(p + 1 for p in places), where)


def _at_numbers(
    lines: list[str], chunk: Chunk, start: int, drift: int
) -> tuple[tuple[str, ...], tuple[str | None, ...], list[str], Match, None] | None:
    """The chunk (a hunk) as `_find_chunk` returns it, placed at the line its numbers name
    (`near`, shifted by `drift`), when its expected lines are exactly there, at or after
    `start` (and, pinned to the end of the file, end it); None otherwise.

    Only the hunk's own lines are compared: a diff made against this file (nearly every
    one) is placed without a search. It is the place `_by_numbers` takes, the exact tier
    being the first tried.
    """
    if chunk.near is None:
        return None
    target = chunk.near + drift
    pattern = [s[1:] for s in chunk.lines if s[0] != C.ADDED]
    end = target + len(pattern)
    if not pattern or target < start or end > len(lines) or (chunk.is_end_of_file and end != len(lines)):
        return None
    if lines[target:end] != pattern:
        return None
    if chunk.endings:
        explicit = dict(chunk.endings)
        endings = tuple(explicit.get(i) for i in range(len(chunk.lines)))
    else:
        endings = (None,) * len(chunk.lines)
    return chunk.lines, endings, pattern, Match(target, TIERS[0]), None


def _by_numbers(
    index: LineIndex, pattern: list[str], match: Match, chunk: Chunk, target: int, first: bool
) -> tuple[Match, bool]:
    """Among the places of a chunk that has line numbers (a hunk), the one they name.

    The place at `target` (its header's line, shifted as the hunks before it
    were) is taken, however many places come before it; else, with the policy
    "first", the nearest to it (as `patch` does: among the first
    `_MAX_HUNK_PLACES` places and the first after `target`); else the first, which
    must then be the only one.
    """
    after = None
    if target > match.index:  # (at the first place, or before it: no search needed)
        after = index.seek(pattern, target, eof=chunk.is_end_of_file, tiers=(match.tier,))
    if target == match.index or (after is not None and after.index == target):
        return Match(target, match.tier), True
    if not first:
        return match, False
    places = [match.index]
    while len(places) < _MAX_HUNK_PLACES:
        further = index.seek(pattern, places[-1] + 1, eof=chunk.is_end_of_file, tiers=(match.tier,))
        if further is None:
            break
        places.append(further.index)
    if after is not None:
        places.append(after.index)
    return Match(min(places, key=lambda p: (abs(p - target), p)), match.tier), False


@dataclass(frozen=True, slots=True)
class IndentMove:
    """How a tolerant match's added lines move to the file's indentation (`indent_move`):
    `move` gives an added line as the file would indent it (None for one it cannot
    move), or is None when they are written as sent; `failure` says why no one move
    fits every matched line (`reindented` then refuses)."""

    move: Callable[[str], str | None] | None
    failure: str | None = None


def indent_move(used: tuple[str, ...], start: int, lines: list[str], policy: Policy) -> IndentMove:
    """How the added lines of `used`, matched at 0-based `start` of `lines`, move to the
    file's indentation (`_indent`): as sent where the policy `indentation="verbatim"`
    (the reference's) says so, or the matched lines are indented alike on both sides."""
    if policy.indentation == "verbatim":
        return IndentMove(None)
    from ._indent import reindenter  # a tolerant match only (start-up time)

    pairs, position = [], start
    for line in used:
        if line[0] != C.ADDED:
            pairs.append((line[1:], lines[position]))
            position += 1
    window = lines[max(0, start - INDENT_WINDOW) : position + INDENT_WINDOW]
    old = [s[1:] for s in used if s[0] != C.ADDED]
    try:
        return IndentMove(reindenter(pairs, old, [s[1:] for s in used if s[0] != C.REMOVED], window))
    except ValueError as error:
        return IndentMove(None, str(error))


def reindented(
    used: tuple[str, ...], start: int, lines: list[str], chunk: Chunk, how: IndentMove, where: FileName
) -> tuple[str, ...]:
    """`used` with its added lines moved as `how` says (`indent_move`, for the same place).

    Refused when no one move fits (the model's indentation differs from the file's by
    different amounts on different lines), or an added line cannot be moved by it.
    """
    failure = how.failure
    if failure is None:
        try:
            return used if how.move is None else tuple(_moved(line, how.move) for line in used)
        except ValueError as error:  # an added line the move cannot take
            failure = str(error)
    from ._diagnose import indentation_error  # failures only: start-up time

    position = start + sum(1 for line in used if line[0] != C.ADDED)
    raise indentation_error(chunk, lines, start, position, failure, where)


def _moved(line: str, move: Callable[[str], str | None]) -> str:
    """An added line moved by `move`; ValueError if it cannot be."""
    if line[0] != C.ADDED:
        return line
    moved = move(line[1:])
    if moved is None:
        raise ValueError(f"the added line {line[1:].strip()!r} cannot be indented as the file is")
    return C.ADDED + moved


_MAX_HUNK_PLACES = 1000  # places of a hunk searched for the nearest to its numbers (policy "first")
_MAX_CANDIDATES = 10  # places of an ambiguous chunk or @@ line listed (and searched)


def _narrow(
    index: LineIndex, lines: list[str], chunk: Chunk, line_index: int, where: FileName
) -> tuple[int | None, int, list[tuple[int, list[int], str]]]:
    """Follow the chunk's `@@` lines; return the last one's index, where to search next,
    and for each `@@` line that matches several places, (its number among the
    chunk's `@@` lines, every place it matches at its tier, the tier)."""
    anchor = None
    several: list[tuple[int, list[int], str]] = []
    for number, context in enumerate(chunk.contexts):
        match = index.seek([context], line_index)
        if match is None:
            from ._diagnose import missing_context  # failures only: start-up time

            raise missing_context(index, lines, chunk, context, line_index, where)
        places = [match.index]
        while len(places) < _MAX_CANDIDATES:
            further = index.seek([context], places[-1] + 1, tiers=(match.tier,))
            if further is None:
                break
            places.append(further.index)
        if len(places) > 1:
            several.append((number, places, match.tier.name))
        anchor, line_index = match.index, match.index + 1
    return anchor, line_index, several


def _context_doubts(
    chunk: Chunk,
    several: list[tuple[int, list[int], str]],
    found: tuple[list[str], Match] | None,
    index: LineIndex,
    where: FileName,
) -> list[PatchWarning]:
    """Warnings for `@@` lines that match several places, when the choice matters (policy "first").

    It matters for a pure addition (`found` None: it goes right after the
    `@@` line), and for a chunk found again, elsewhere, after another place
    of the `@@` line.
    """
    doubts = []
    for number, places, tier in several:
        if found is not None:
            pattern, match = found
            other = index.seek(pattern, places[1] + 1, eof=chunk.is_end_of_file)
            if other is None or other.index == match.index:
                continue
        doubts.append(ambiguous_context(chunk, number, tuple(p + 1 for p in places), tier, where))
    return doubts


def without_copied_whitespace(
    used: tuple[str, ...], start: int, lines: list[str], policy: Policy
) -> tuple[str, ...]:
    """`used` with trailing whitespace off the added lines that replace a removed line
    whose patch text has trailing whitespace and whose file line has none (whitespace
    copied from nowhere). A whitespace-only added line is all whitespace, not a copy's:
    it is written as sent, as every line is under `indentation="verbatim"` (`--codex`:
    the reference writes added lines as sent)."""
    if policy.indentation == "verbatim":
        return used
    result = list(used)
    position = start
    removed: list[tuple[str, str]] = []  # (patch text, file line) of the run's removed lines
    taken = 0  # added lines of the run so far
    for number, line in enumerate(used):
        if line[0] == C.CONTEXT:
            position, removed, taken = position + 1, [], 0
        elif line[0] == C.REMOVED:
            removed.append((line[1:], lines[position]))
            position += 1
        else:
            if taken < len(removed):
                patch_text, file_line = removed[taken]
                if line[1:].strip() and patch_text != patch_text.rstrip() and file_line == file_line.rstrip():
                    result[number] = line.rstrip()
            taken += 1
    return tuple(result)


def _insertion_point(
    chunk: Chunk, anchor: int | None, line_index: int, size: int, policy: Policy, drift: int
) -> int:
    """Where added lines only go: after their `@@` line, where their line numbers say, or at the end."""
    if anchor is not None and not chunk.is_end_of_file and policy.pure_addition == "after-context":
        return line_index
    if chunk.near is not None and not chunk.is_end_of_file:
        return min(max(chunk.near + drift, line_index), size)
    return size


def _find_chunk(
    index: LineIndex,
    lines: list[str],
    chunk: Chunk,
    line_index: int,
    anchor: int | None,
    where: FileName,
    policy: Policy,
    near: int | None = None,
    target: int | None = None,
) -> tuple[tuple[str, ...], tuple[str | None, ...], list[str], Match, str | None]:
    """Search the chunk, then retry at its `@@` line (not under `slips="refuse"`), then
    without a trailing blank line, then with a model's slips undone (`slips`; `near`:
    where a hunk's numbers place it),
    then, for a hunk whose numbers name the 0-based line `target` (no `@@` line), with its
    context lines fuzzed (`fuzzed`: one stale look-alike line, or its outer lines).

    Returns the chunk lines used, their explicit endings (one per line, None
    for none), the pattern searched, the match, and the slip undone (None: none;
    `_FUZZ`: fuzzed, the lines used holding the file's version of the fuzzed context).
    """
    if chunk.endings:
        explicit = dict(chunk.endings)
        endings = tuple(explicit.get(i) for i in range(len(chunk.lines)))
    else:
        endings = (None,) * len(chunk.lines)
    # At its `@@` line too: models often repeat it as the chunk's first line (a slip the
    # reference, searching after it only, does not undo).
    starts = [line_index] if anchor is None or policy.slips == "refuse" else [line_index, anchor]
    pattern = [s[1:] for s in chunk.lines if s[0] != C.ADDED]
    for start in starts:  # the chunk as written first: the retries are made only if it fails
        match = index.seek(pattern, start, eof=chunk.is_end_of_file)
        if match is not None:
            return chunk.lines, endings, pattern, match, None
    retries = []
    without_bom = _without_bom(chunk.lines) if line_index == 0 else None
    if without_bom is not None:
        retries.append((without_bom, endings))
    trimmed = _without_trailing_blank(chunk.lines, endings)
    if trimmed is not None:
        retries.append(trimmed)
    for used, used_endings in retries:
        pattern = [s[1:] for s in used if s[0] != C.ADDED]
        for start in starts:
            match = index.seek(pattern, start, eof=chunk.is_end_of_file)
            if match is not None and (used is not without_bom or match.index == 0):
                return used, used_endings, pattern, match, None
    found = slips(index, lines, chunk, chunk.lines, endings, line_index, where, policy, near)
    if found is not None:
        return found
    if target is not None and policy.slips == "undo":
        from ._fuzz import fuzzed  # a hunk found nowhere (start-up time)

        fuzzy = fuzzed(index, lines, chunk, line_index, target, where)
        if fuzzy is not None:
            used, at = fuzzy
            return used, endings, [s[1:] for s in used if s[0] != C.ADDED], Match(at, TIERS[0]), _FUZZ
    refusal = blank_lines_refusal(index, lines, chunk, line_index, where, policy, near)
    if refusal is not None:
        raise refusal
    from ._diagnose import missing_chunk  # failures only: start-up time

    raise missing_chunk(index, lines, chunk, line_index, where)


def blank_lines_refusal(
    index: LineIndex,
    lines: list[str],
    chunk: Chunk,
    start: int,
    where: FileName,
    policy: Policy,
    near: int | None = None,
) -> AmbiguousBlankLinesError | None:
    """The refusal of `chunk`, found nowhere from `start` with every slip tried, as ambiguous
    where its lines with text fit one place once blank lines are ignored and only its blank
    lines differ there (`_gaps.blank_doubt`: no reading of them was sure; `near`, a hunk's
    place by its numbers, names one of several); None otherwise, and under
    `slips="refuse"` (`--codex`: the chunk is not in the file as written)."""
    if policy.slips == "refuse":
        return None
    from ._gaps import blank_doubt  # a chunk found nowhere (start-up time)

    doubt = blank_doubt(index, lines, chunk.lines, start, end_of_file=chunk.is_end_of_file, near=near)
    if doubt is None:
        return None
    from ._diagnose import blank_readings_error  # failures only: start-up time

    return blank_readings_error(chunk, doubt, lines, where)


def slips(
    index: LineIndex,
    lines: list[str],
    chunk: Chunk,
    used: tuple[str, ...],
    endings: tuple[str | None, ...],
    start: int,
    where: FileName,
    policy: Policy,
    near: int | None = None,
    *,
    paired: bool = False,
) -> tuple[tuple[str, ...], tuple[str | None, ...], list[str], Match, str] | None:
    """The chunk `used` found despite a model's slip (`_gaps`: line numbers copied from a
    view, blank lines dropped or added, an elided middle), if it fits one place only, or
    one reading only: an elision whose lines after the placeholder occur again further
    down has a reading for each, refused as ambiguous (naming each reading's lines) unless
    they all leave the same file (`_gaps.same_file`), or
    `near` (a hunk's place by its numbers, 0-based) is where exactly one of them starts,
    or where several start and exactly one of those spans the old lines its header
    counts (`chunk.counted`: an old count the hunk's own lines do not make; it also says
    whether blank lines dropped beside a change were kept or removed: `_gaps`).
    `paired`: the context lines of `used` come from comparing an old and a new text
    (`_gaps.blank_tolerant`).

    Returns the chunk's lines rewritten against the file, their explicit endings,
    the pattern, its match and the slip's name (a key of `_doubts.SLIP_WORDS`);
    None if no slip explains it, or the policy `slips="refuse"` (`--codex`: the
    reference undoes none); AmbiguousChunkError if one does at several places.
    """
    if policy.slips == "refuse":
        return None
    from ._gaps import blank_tolerant, elided, same_file, without_numbers  # a chunk found nowhere (start-up time)

    numbered = without_numbers(used)
    if numbered is not None:
        pattern = [s[1:] for s in numbered if s[0] != C.ADDED]
        match = index.seek(pattern, start, eof=chunk.is_end_of_file)
        if match is not None:
            return numbered, endings, pattern, match, "line-numbers"
    lines_used = numbered or used

    def read(name: str, first: int) -> list[tuple[tuple[str, ...], int]]:  # its readings from `first`
        readings = (
            blank_tolerant(
                index, lines, lines_used, first, paired=paired, counted=chunk.counted, end_of_file=chunk.is_end_of_file
            )
            if name == "blank-lines"
            else elided(index, lines, lines_used, first, end_of_file=chunk.is_end_of_file)
        )  # fmt: skip
        return [(rewritten, at) for rewritten, at in readings
                if not chunk.is_end_of_file or at + _old_count(rewritten) == len(lines)]

    for name in ("blank-lines", "elided-middle"):
        places = read(name, start)
        if len(places) > 1 and near is not None:  # a hunk's numbers may name one of them
            # Read from that line too: the readings are cut short (past ten), and those above
            # it (a blank first line reads from every blank line) may have hidden the ones
            # starting there, or all but the first of them.
            at_near = read(name, near) if near > start else places
            named = [(rewritten, at) for rewritten, at in at_near if at == near]
            counted = None if chunk.counted is None else chunk.counted.old
            if len(named) > 1 and counted not in (None, _old_count(lines_used)):  # by the lines it counts
                named = [(rewritten, at) for rewritten, at in named if _old_count(rewritten) == counted]
            places = named if len(named) == 1 else places
        if len(places) > 1 and name == "elided-middle":  # several readings, maybe one file
            one = same_file(places, lines_used, lines)
            places = places if one is None else [one]
        if len(places) > 1:
            from ._diagnose import ambiguity_error, readings_error  # failures only: start-up time

            if name == "elided-middle":
                spans = tuple((at + 1, at + _old_count(rewritten)) for rewritten, at in places)
                raise readings_error(chunk, spans, where)
            raise ambiguity_error(chunk, tuple(at + 1 for _, at in places), where)
        if places:
            rewritten, at = places[0]
            pattern = [s[1:] for s in rewritten if s[0] != C.ADDED]
            match = index.seek(pattern, at)
            if match is not None and match.index == at:
                return rewritten, _added_endings(rewritten, lines_used, endings), pattern, match, name
    return None


def _old_count(lines: tuple[str, ...]) -> int:
    return sum(1 for s in lines if s[0] != C.ADDED)


def _added_endings(
    rewritten: tuple[str, ...], used: tuple[str, ...], endings: tuple[str | None, ...]
) -> tuple[str | None, ...]:
    """The explicit endings of `used`'s added lines, on the same added lines of `rewritten`."""
    added = iter([e for s, e in zip(used, endings) if s[0] == C.ADDED])
    return tuple(next(added, None) if s[0] == C.ADDED else None for s in rewritten)


def _without_bom(lines: tuple[str, ...]) -> tuple[str, ...] | None:
    """The chunk without the BOM a model copied to the start of its first expected line
    (and of its first added line, which would take that line's place), or None if none.

    A file's BOM is never one of its lines, so such a line can only match the
    file's first line, once the BOM is left out.
    """
    first = next((i for i, s in enumerate(lines) if s[0] != C.ADDED), None)
    if first is None or not lines[first][1:].startswith(BOM):
        return None
    result = list(lines)
    result[first] = lines[first][0] + lines[first][1 + len(BOM) :]
    added = next((i for i, s in enumerate(lines) if s[0] == C.ADDED), None)
    if added is not None and lines[added][1:].startswith(BOM):
        result[added] = C.ADDED + lines[added][1 + len(BOM) :]
    return tuple(result)


def _without_trailing_blank(
    lines: tuple[str, ...], endings: tuple[str | None, ...]
) -> tuple[tuple[str, ...], tuple[str | None, ...]] | None:
    """The reference's retry: without the last expected line when it is empty, and
    without the last new line too when that one is empty.

    Each side loses its own line: a context line taken from the expected side
    only becomes an added line, and one taken from the new side only a removed
    line (so `" a", " ", "+", "+b"` keeps both blank lines it adds). `endings`
    (one per line) follow their lines.
    """
    old = [i for i, s in enumerate(lines) if s[0] != C.ADDED]
    if not old or lines[old[-1]][1:]:
        return None
    kept: list[str | None] = list(lines)
    kept[old[-1]] = None if lines[old[-1]][0] == C.REMOVED else C.ADDED
    new = [i for i, s in enumerate(kept) if s is not None and s[0] != C.REMOVED]
    if new and not (last := kept[new[-1]] or "")[1:]:
        kept[new[-1]] = None if last[0] == C.ADDED else C.REMOVED
    return (
        tuple(s for s in kept if s is not None),
        tuple(e for s, e in zip(kept, endings) if s is not None),
    )


