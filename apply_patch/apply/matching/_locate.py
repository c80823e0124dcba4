"""An Update's chunks + a file's lines → the file's new lines (pure, nothing on disk).

The chunks are located in patch order, each searched from the end of the
previous one (see `_seek` for the tiers). Each chunk becomes replacements of
the runs of removed/added lines between its context lines, so context lines
stay byte for byte as they are in the file. The replacements of the whole
file are then applied from the last to the first, so that earlier indices
stay valid.

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

from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import gt

from ...format import constants as C, Chunk, UpdateFile
from ._doubts import PatchWarning, Spot, ambiguous_context, doubts, fuzz_warning, slip_warning, unit_warning
from ._names import FileName
from ._placement import Placement
from ..._policy import Policy
from ._seek import TIERS, Match, LineIndex
from ._text import Decoded, Edited, LfText, as_lines
from ._textfile import BOM, TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ._indent import UnitFix
    from ..._errors import AmbiguousBlankLinesError

    Found = tuple[list["Replacement"], list[Placement], list[PatchWarning]]  # `locate`'s answer

_FUZZ = "fuzz"  # the slip of a hunk placed with context lines fuzzed (`_fuzz`)


@dataclass(frozen=True, slots=True)
class Replacement:
    """Replace `old_len` lines from index `start` with `new_lines`.

    `endings`, if given, holds the explicit ending of each new line (None:
    the file's, as the policy says).
    """

    start: int
    old_len: int
    new_lines: tuple[str, ...]
    endings: tuple[str | None, ...] = ()


def update_lines(text: Decoded, update: UpdateFile, policy: Policy, where: FileName, *, at_numbers: bool = True) -> Edited:
    """Every chunk of `update` placed in `text` by the whole search (`searched`; a hunk tried
    first where its numbers say when `at_numbers`) and written; ContextNotFoundError (or
    another PatchError) for the first that is not there."""
    edited = _written(text, update, lambda lines, chunks: searched(lines, chunks, policy, where, at_numbers=at_numbers),
                      policy, where)  # fmt: skip
    assert edited is not None  # (the whole search answers or raises)
    return edited


def plain_update(text: Decoded, update: UpdateFile, policy: Policy, where: FileName) -> Edited | None:
    """`update_lines`'s answer when every chunk of `update` is plain (`_plain`), by a shorter
    way; else None. Whether every chunk may be plain is told before the file is split into
    lines (most chunks with `@@` lines decline here, for the strategies after it).

    A text held as one string (`LfText`) stays one: the chunks' lines are spliced into it
    (`_spliced`), not into lists of lines and endings joined again. Plain chunks carry no
    explicit ending and are not pinned to the end, so the only ending to decide is the
    last line's, as `splice` does: without one only where the file had none and the
    policy keeps that (`final_newline="keep"`)."""
    chunks = context_chunks(update)
    if not all(map(_may_be_plain, chunks)):
        return None
    body = text.body
    if not isinstance(body, LfText):
        return _written(text, update, _plain, policy, where)
    string = body.body
    split = body.split()
    lines, ended = split.lines, split.has_final_newline
    located = _plain(lines, chunks)
    if located is None:
        return None
    replacements, placements, warnings = located
    replacements, unit_warnings = in_file_units(lines, replacements, policy, where, placements, string)
    new = _spliced(string if ended else string + "\n", lines, replacements)
    if new and not ended and policy.final_newline == "keep":
        new = new[:-1]  # the last line, old or new, without an ending, as the file's was
    return Edited(text.with_body(LfText(new, body.bom)), tuple(placements), (*warnings, *unit_warnings))


def _spliced(string: str, lines: list[str], replacements: list[Replacement]) -> str:
    """`string` (`lines`, each ending with LF) with each replacement's lines in place of the
    lines it replaces, each new line ending with LF; the lines kept are copied once."""
    pieces: list[str] = []
    line, offset = 0, 0  # `string[offset:]` holds `lines[line:]`, not copied yet
    for replacement in sorted(replacements, key=lambda r: r.start):
        start = offset + sum(map(len, lines[line : replacement.start])) + replacement.start - line
        pieces.append(string[offset:start])
        if replacement.new_lines:
            pieces.append("\n".join(replacement.new_lines) + "\n")
        line = replacement.start + replacement.old_len
        offset = start + sum(map(len, lines[replacement.start : line])) + replacement.old_len
    pieces.append(string[offset:])
    return "".join(pieces)


def _written(
    text: Decoded,
    update: UpdateFile,
    found: Callable[[list[str], tuple[Chunk, ...]], Found | None],
    policy: Policy,
    where: FileName,
) -> Edited | None:
    """The chunks of `update` where `found` places them in `text`'s lines (None when it
    declines), written into the file's lines, each with its own ending (`_text.as_lines`:
    a chunk's explicit endings are the file's bytes)."""
    joined = text.body.body if isinstance(text.body, LfText) else None
    text = as_lines(text)
    lines = text.lines()
    chunks = context_chunks(update)
    located = found(lines.lines, chunks)
    if located is None:
        return None
    replacements, placements, warnings = located
    replacements, unit_warnings = in_file_units(lines.lines, replacements, policy, where, placements, joined)
    new_lines = with_explicit_endings(splice(lines, replacements, text.ending, policy), replacements, policy)
    new_lines = _ended(new_lines, chunks, text.ending)
    return Edited(text.with_body(new_lines), tuple(placements), (*warnings, *unit_warnings))


def in_file_units(
    lines: list[str],
    replacements: list[Replacement],
    policy: Policy,
    where: FileName,
    placements: Sequence[Placement] = (),
    joined: str | None = None,
) -> tuple[list[Replacement], list[PatchWarning]]:
    """`replacements` whose added lines are in the file's indentation unit, and a warning for
    each run of added lines sent in the other one (`_indent.in_file_unit`: tabs in a file
    indented with spaces, or the reverse), naming their lines in the new file; the lines
    are rewritten in the file's unit where it uses one throughout (policy
    `indentation="match"`), else written as sent; IndentUnitError where they were to be
    rewritten and the width of a level cannot be told (naming the patch line of the chunk
    of `placements` that put them there). All are written as sent, without a warning, where
    the file's unit would turn a run of added lines back into the lines it replaces
    (`_indent.restores_replaced`: the other unit was the edit). `joined`: `lines` joined by
    LF, where the caller has it (else they are joined here when a unit must be looked for)."""
    has: dict[str, bool] = {}
    counts: _IndentCounts | None = None
    count_once = len(replacements) * 2 * INDENT_WINDOW > len(lines)
    # (the counts are made once for the file when the windows together would read more
    # lines than it has: many chunks cost O(file + chunks), not O(chunks × window); else
    # each window is counted)

    absent: set[str] = set()  # the units no line holds at all, once `has` holds anything

    def file_has(prefix: str) -> bool:  # whether a line of the file starts with `prefix` (read once)
        if not has:  # (most files hold no tab at all: one search of the joined text says so)
            text = "".join(lines) if joined is None else joined
            absent.update(unit for unit in (" ", "\t") if unit not in text)
        if prefix not in has:
            has[prefix] = prefix[0] not in absent and any(map(str.startswith, lines, repeat(prefix)))
        return has[prefix]

    ordered = sorted(replacements, key=lambda r: r.start)
    fixes: list[UnitFix | None] = []
    for replacement in ordered:
        start, end = replacement.start, replacement.start + replacement.old_len
        fix = None
        if _may_change_unit(replacement.new_lines, file_has):
            from ._indent import in_file_unit, tabs_are_syntax  # indented added lines only (start-up time)

            window = [*lines[max(0, start - INDENT_WINDOW) : start], *lines[end : end + INDENT_WINDOW]]
            beside = lines[start:end] or [*nearest_text_line(lines, start, -1), *nearest_text_line(lines, end, 1)]
            rewrite = policy.indentation == "match"
            if count_once and counts is None:
                counts = _IndentCounts(lines)
            around = None if counts is None else counts.around(start, end, INDENT_WINDOW)
            one_for_one = len(replacement.new_lines) == replacement.old_len
            stretch = lines[max(0, start - INDENT_WINDOW) : end + INDENT_WINDOW] if end > start else None
            fix = in_file_unit(replacement.new_lines, window, file_has, rewrite, beside, around,
                               lines[start:end] if one_for_one else None, stretch)  # fmt: skip
            if fix is not None and fix.sent == "tabs" and tabs_are_syntax(where.relative):
                fix = None  # a recipe's tab: make's syntax, as sent
        fixes.append(fix)
    for replacement, fix in zip(ordered, fixes):
        if fix is not None and fix.rewritten:
            from ._indent import changed_runs, restores_replaced  # a unit rewritten only

            old = lines[replacement.start : replacement.start + replacement.old_len]
            if restores_replaced(fix.lines, old, changed_runs(old, replacement.new_lines)):
                return ordered, []  # the other unit was the edit (lines re-indented on purpose): as sent
    result: list[Replacement] = []
    found: list[PatchWarning] = []
    shift = 0  # lines the replacements before this one added, less those they removed
    for replacement, fix in zip(ordered, fixes):
        start = replacement.start
        if fix is not None:
            numbers = tuple(start + shift + i + 1 for i in fix.changed)
            if fix.uncertain:
                from ._diagnose import unit_error  # failures only

                placed = [p for p in placements if p.file_line - 1 <= start]
                patch_line = max(placed, key=lambda p: p.file_line).patch_line if placed else None
                raise unit_error(where, patch_line, numbers, fix.sent, fix.unit)
            found.append(unit_warning(where, numbers, fix.sent, fix.unit, fix.rewritten))
            if fix.rewritten:
                replacement = Replacement(start, replacement.old_len, fix.lines, replacement.endings)
        shift += len(replacement.new_lines) - replacement.old_len
        result.append(replacement)
    return result, found


def _may_change_unit(added: Sequence[str], file_has: Callable[[str], bool]) -> bool:
    """Whether `_indent.in_file_unit` could find lines of `added` in the other unit than
    the file's lines around them: not when no added line with text is indented (nor one of
    whitespace only starts with a tab), nor when all are indented with one character and
    no line of the file starts with the other (no window of the file then counts more
    lines of the other unit: the answer is None without reading one)."""
    sent = {line[:1] for line in added if line[:1] == "\t" or (line[:1] == " " and line.strip())}
    if not sent:
        return False
    if len(sent) == 1:
        return file_has("\t" if " " in sent else " ")
    return True


class _IndentCounts:
    """A file's lines that start with a tab, and with spaces (`_indent.SPACE_LED`), and are
    not blank: how many come before each line (`_indent.indented_counts` of any stretch in
    O(1))."""

    def __init__(self, lines: list[str]) -> None:
        from ._indent import SPACE_LED

        blank = list(map(str.isspace, lines))  # (a line starting with whitespace is not empty)
        self._tabs, self._spaces = (
            list(accumulate(map(gt, map(str.startswith, lines, repeat(unit)), blank), initial=0))
            for unit in ("\t", SPACE_LED)
        )

    def around(self, start: int, end: int, reach: int) -> tuple[int, int]:
        """`indented_counts` of the `reach` lines before line `start` and after line `end`
        (either may be past the last line, as a slice of the lines is: a chunk's blank line
        the file lacks at its end puts its added lines there)."""
        size = len(self._tabs) - 1  # the file's lines
        start, end = min(start, size), min(end, size)
        low, high = max(0, start - reach), min(size, end + reach)
        tabs, spaces = self._tabs, self._spaces
        return tabs[start] - tabs[low] + tabs[high] - tabs[end], spaces[start] - spaces[low] + spaces[high] - spaces[end]


def context_chunks(update: UpdateFile) -> tuple[Chunk, ...]:
    """The edits of `update`, every one a context chunk (ValueError otherwise: the planner
    runs the other edits, `_edit_plan`)."""
    for change in update.chunks:
        if not isinstance(change, Chunk):
            raise ValueError(f"{type(change).__name__} is not a context chunk: the planner runs it")
    return update.chunks  # type: ignore[return-value]  # every one checked above


def _ended(text: TextFile, chunks: tuple[Chunk, ...], file_ending: str) -> TextFile:
    """`text` whose last line gets the line break a last chunk pinned to the end of the file
    gives its last line of the new file explicitly (a unified diff's `\\ No newline` on the
    old side only), over the final-newline policy: a context line's explicit ending, or,
    where the chunk keeps no line, the explicit "" of its last removed line (the old file's
    last line, without a break, removed: the line above it, now last, keeps its own); as it
    is otherwise."""
    last = chunks[-1] if chunks else None
    if last is None or not last.is_end_of_file:
        return text
    explicit = dict(last.endings)
    kept = [i for i, line in enumerate(last.lines) if line[0] != C.REMOVED]
    if kept:
        ending = explicit.get(kept[-1]) if last.lines[kept[-1]][0] == C.CONTEXT else None
    else:
        ending = "\n" if any(explicit.get(i) == "" for i in range(len(last.lines))) else None
    if not ending or not text.lines or text.endings[-1]:
        return text
    # The line's own break was dropped by the policy: the file's, as its other lines have.
    return TextFile(text.lines, [*text.endings[:-1], file_ending], text.bom)


def locate(
    lines: list[str], chunks: tuple[Chunk, ...], policy: Policy, where: FileName
) -> tuple[list[Replacement], list[Placement], list[PatchWarning]]:
    """Find every chunk in `lines`, in order; raise for the first that is not there.

    With the policy `ambiguous="error"` the chunks must fit in one way only
    (`_unique`); with `"first"` (the reference's) each goes to the first place
    that fits, with an `ambiguous` warning when another would have.
    """
    plain = _plain(lines, chunks)
    return plain if plain is not None else searched(lines, chunks, policy, where)


def searched(
    lines: list[str], chunks: tuple[Chunk, ...], policy: Policy, where: FileName, *, at_numbers: bool = True
) -> Found:
    """`locate`, by the whole search (every tier, the doubts, the order's other places); a
    hunk tried first where its numbers say (`_at_numbers`) when `at_numbers`."""
    first = policy.ambiguous == "first"
    index = LineIndex(lines)
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


def nearest_text_line(lines: Sequence[str], at: int, step: int) -> list[str]:
    """The nearest non-blank line from `at` (before it when `step` is -1, from it when 1),
    within INDENT_WINDOW lines; none if there is none."""
    index = at - 1 if step < 0 else at
    for _ in range(INDENT_WINDOW):
        if not 0 <= index < len(lines):
            break
        if lines[index].strip():
            return [lines[index]]
        index += step
    return []


def _plain(
    lines: list[str], chunks: tuple[Chunk, ...]
) -> tuple[list[Replacement], list[Placement], list[PatchWarning]] | None:
    """What `locate` finds for `chunks` when every one is plain, by a shorter way; else None.

    Plain: no `@@` line, no line numbers, not pinned to the end, no explicit ending
    (`_may_be_plain`, which `plain_update` asks before the file is split), some line to find; found exactly as written after the chunk before it (the first
    place, as the exact tier takes it); and holding a line that occurs once in the file,
    so that it can be nowhere else (`doubts` then looks no further, `_sure` pins it,
    and no tier, order or policy has anything to weigh: no warning). Most chunks a model
    writes are plain; this is their answer without the index, matches and spots.
    """
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    start = 0
    if not all(map(_may_be_plain, chunks)):
        return None
    # Each `count` reads the whole file: a few, then the file's lines counted once for all
    # (many chunks in a large file: O(file + chunks), not a read of it per chunk); counted
    # at once when there are more chunks than counts allowed (each takes one at least).
    counts = _PLAIN_READS + _PLAIN_LINES // (len(lines) + 1)
    patterns = [chunk.old_lines for chunk in chunks]
    counted = _counted(lines, patterns) if len(chunks) > counts else None
    for chunk, pattern in zip(chunks, patterns):
        if not pattern:
            return None
        if counted is None:
            at = _first_place(lines, pattern, start)
            if at is None:
                return None  # not there as written: the whole search (tiers, retries, slips)
            for line in pattern:
                counts -= 1
                if counts < 0 and counted is None:
                    counted = _counted(lines, patterns)
                if (lines.count(line) if counted is None else counted[line]) == 1:
                    break
            else:
                return None  # every line occurs elsewhere too: the chunk may also fit there
        else:  # (many chunks: each found by a line the file holds once)
            at = _only_place(lines, pattern, start, counted)
            if at is None:
                return None
        made = chunk_replacements(chunk.lines, at)
        replacements += made
        removed = sum(r.old_len for r in made)  # (and added: the lines not in `pattern`)
        placements.append(Placement(chunk.line, at + 1, TIERS[0].name, len(chunk.lines) - len(pattern), removed))
        start = at + len(pattern)
    return replacements, placements, []


def _may_be_plain(chunk: Chunk) -> bool:
    """Whether `chunk` has what `_plain` answers for, by its own text: no `@@` line, no line
    numbers, not pinned to the end, no explicit ending."""
    return not (chunk.contexts or chunk.near is not None or chunk.is_end_of_file or chunk.endings)


def _counted(lines: list[str], patterns: list[list[str]]) -> Counter[str]:
    """How often each line of `patterns` (the lines chunks expect) occurs in `lines` (the
    others are not counted: hashing every line once is the cost, not a count of each)."""
    wanted = {line for pattern in patterns for line in pattern}
    return Counter(filter(wanted.__contains__, lines))


def _only_place(lines: list[str], pattern: list[str], start: int, counted: Counter[str]) -> int | None:
    """The index at or after `start` where `lines` hold `pattern`, found by its first line
    that the file holds once (`counted`): its only place. None when no line of it is
    alone in the file, or it is not there as written after `start`."""
    for offset, line in enumerate(pattern):
        if counted[line] == 1:
            break
    else:
        return None
    try:
        at = lines.index(line, start + offset) - offset
    except ValueError:  # (only before `start`: the search will say why)
        return None
    return at if lines[at : at + len(pattern)] == pattern else None


def _first_place(lines: list[str], pattern: list[str], start: int) -> int | None:
    """The first index at or after `start` where `lines` hold `pattern` (not empty); None
    also when its first line is at more than _PLAIN_TRIES places that do not hold it."""
    first, size = pattern[0], len(pattern)
    last = len(lines) - size
    for _ in range(_PLAIN_TRIES):
        if start > last:
            return None
        try:
            at = lines.index(first, start, last + 1)
        except ValueError:  # (not found: the search will say why)
            return None
        if lines[at : at + size] == pattern:
            return at
        start = at + 1
    return None


_PLAIN_READS = 4  # whole-file counts `_plain` makes before it counts the file's lines once, at least
_PLAIN_LINES = 100_000  # and as many more as a file's lines go into this
_PLAIN_TRIES = 32  # places of a chunk's first line compared (`_first_place`)


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


INDENT_WINDOW = 200  # file lines each side of a match read for the file's indentation unit
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
    from ._gaps import blank_tolerant, elided, without_numbers  # a chunk found nowhere (start-up time)

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


def chunk_replacements(
    lines: tuple[str, ...], start: int, endings: tuple[str | None, ...] = ()
) -> list[Replacement]:
    """The runs of removed/added lines between context lines, placed from `start`.

    `endings`, one per line of `lines` (None for none), are the explicit
    endings the `+` lines carry into their replacement.
    """
    result: list[Replacement] = []
    added: list[str] = []
    explicit: list[str | None] = []
    position, run_start, removed = start, -1, 0
    for number, line in enumerate(lines):
        if line[0] == C.CONTEXT:
            if run_start >= 0:
                result.append(Replacement(run_start, removed, tuple(added), tuple(explicit)))
                run_start, removed, added, explicit = -1, 0, [], []
            position += 1
            continue
        if run_start < 0:
            run_start = position
        if line[0] == C.REMOVED:
            removed += 1
            position += 1
        else:
            added.append(line[1:])
            explicit.append(endings[number] if number < len(endings) else None)
    if run_start >= 0:
        result.append(Replacement(run_start, removed, tuple(added), tuple(explicit)))
    return result


def splice(text: TextFile, replacements: list[Replacement], ending: str, policy: Policy) -> TextFile:
    """Apply `replacements` in file order; new lines get `ending` (the file's, `_text.Decoded`).
    The policy on line breaks and the BOM is `_text.encode`'s; the final newline is the
    file's as it was (`final_newline="keep"`), else added."""
    lines: list[str] = []
    endings: list[str] = []
    kept = 0  # text.lines[kept:] are not copied yet (one copy in all: large files)
    for replacement in sorted(replacements, key=lambda r: r.start):
        lines += text.lines[kept : replacement.start]
        endings += text.endings[kept : replacement.start]
        lines += replacement.new_lines
        endings += [ending] * len(replacement.new_lines)
        kept = replacement.start + replacement.old_len
    lines += text.lines[kept:]
    endings += text.endings[kept:]
    _fix_last_endings(endings, ending, keep_missing=_keeps_missing_newline(text, policy))
    return TextFile(lines, endings, text.bom)


def with_explicit_endings(
    text: TextFile, replacements: list[Replacement], policy: Policy
) -> TextFile:
    """`text` (from `splice`) with the explicit endings of the new lines.

    No ending ("") is honoured on the file's last line only; a forced
    `lf`/`crlf` policy keeps its own ending on every terminated line.
    """
    if all(ending is None for replacement in replacements for ending in replacement.endings):
        return text  # no new line has an explicit ending (the common case)
    explicit = {
        index: ending
        for index, ending in _result_indices(replacements)
        if ending or index == len(text.lines) - 1
    }
    if not explicit or (policy.line_endings != "keep" and "" not in explicit.values()):
        return text
    endings = list(text.endings)
    for index, ending in explicit.items():
        if policy.line_endings == "keep" or not ending:
            endings[index] = ending
    return TextFile(text.lines, endings, text.bom)


def _result_indices(replacements: list[Replacement]) -> list[tuple[int, str]]:
    """(index in the new file, explicit ending) of every new line that has one."""
    found: list[tuple[int, str]] = []
    shift = 0
    for replacement in sorted(replacements, key=lambda r: r.start):
        at = replacement.start + shift
        found += [(at + k, e) for k, e in enumerate(replacement.endings) if e is not None]
        shift += len(replacement.new_lines) - replacement.old_len
    return found


def _keeps_missing_newline(text: TextFile, policy: Policy) -> bool:
    return policy.final_newline == "keep" and not text.has_final_newline


def _fix_last_endings(endings: list[str], ending: str, *, keep_missing: bool) -> None:
    """Only the last line may lack an ending, and only if the file lacked a final newline."""
    if not endings:
        return
    if "" in endings:  # (a test, not `index` and its ValueError: most files end with a newline)
        missing = endings.index("")
        if missing < len(endings) - 1:  # the old last line, no longer last
            endings[missing] = ending
    endings[-1] = "" if keep_missing else (endings[-1] or ending)

