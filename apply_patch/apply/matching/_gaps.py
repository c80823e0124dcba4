"""What a model's lines lack or add that the file does not, tried after every tier (pure).

When a chunk's expected lines match nowhere, three slips of models are tried,
each only where it leaves the chunk exactly one place:

- **line numbers** copied from a `view` or `cat -n` (`12: text`, `    12\tt`) in
  front of every expected line, consecutive: they are taken off (and off the
  added lines that carry them too);
- **blank lines** the model dropped or added: the expected lines match the file
  once blank lines are left out of both; the file's blank lines are kept
  (as context, or removed where they stand between removed lines), and the
  chunk's blank first and last lines match the file's blank lines there. A
  unified diff's header that counts the lines the model dropped says whether
  they were kept or removed, where the lines beside them do not;
- **an elided middle**: one expected line is a placeholder (`...`, `# ...
  existing code ...`) kept by the new lines too; the lines before it and after
  it match, in order, with the file's lines between them (one or more) kept as
  they are. Every such reading counts: the lines after the placeholder found
  again further down make a second one. Readings that leave the same file (the
  lines before the placeholder, only kept, at several places before the lines
  after it, at one place) are one (`same_file`).

Each returns the chunk's lines rewritten against the file's, and where they
match; several readings are an `AmbiguousChunkError` (the caller's), no place None.
Where blank lines are the only difference, at one place, yet no reading of them is sure,
`blank_doubt` names that place and the file's runs of blank lines the chunk's differ from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from ...format import constants as C

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from ...format import HeaderCounts
    from ._seek import LineIndex

_NUMBERED = re.compile(r"^ *(\d+)(?:: |\t|\u2192)")  # `12: `, `    12\t`, `12→` (Claude Code's Read)
_PLACEHOLDER = re.compile(
    r"^(?:\.\.\.|…|(?:#|//|/\*|<!--|--|;|\*)\s*(?:\.\.\.|…).*?)\s*(?:\*/|-->)?$"
)
_MAX_PLACES = 10


def without_numbers(lines: Sequence[str]) -> tuple[str, ...] | None:
    """The chunk `lines` without the line numbers a view put in front of its expected lines.

    Only when every expected line (context and removed) carries one and they
    are consecutive; an added line loses the same kind of prefix if it has one.
    None when the lines are not so numbered.
    """
    old = [line[1:] for line in lines if line[0] != C.ADDED]
    found = [_NUMBERED.match(text) for text in old]
    if not old or not all(found):
        return None
    numbers = [int(m.group(1)) for m in found if m]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        return None
    return tuple(line[0] + _NUMBERED.sub("", line[1:], count=1) for line in lines)


def blank_tolerant(
    index: LineIndex,
    file_lines: Sequence[str],
    lines: Sequence[str],
    start: int,
    *,
    paired: bool = False,
    counted: HeaderCounts | None = None,
    end_of_file: bool = False,
) -> list[tuple[tuple[str, ...], int]]:
    """Every place from `start` where the chunk `lines` match once blank lines are left out,
    each with the chunk's lines rewritten to the file's blank lines.

    The blank expected lines before the chunk's first non-blank one and after its last (its
    edges) are matched against the file's blank lines there (`_edge`); those between, by
    `_aligned`. `paired`: the chunk's context lines were paired by comparing an old and a new
    text (a str_replace, a SEARCH/REPLACE block), not marked by the model: a blank context
    line the file lacks is then a copy to leave out of the new text only where that is sure.
    `end_of_file`: only the place whose lines with text end with the file's (a chunk pinned
    to the end: the places above it, however many, are not counted against it).
    `counted`: the old and new lines a unified diff's header counts where its hunk shows
    other numbers. Where the file's blank lines the model dropped are all kept, or all
    removed, in exactly one way that makes those counts, that is the reading (the usual
    one, or one `_aligned` gives no other way: dropped beside a change, removed amid kept
    lines, or a run shorter than the file's beside removed lines); else the usual one, if any.
    """
    solid_at = [i for i, line in enumerate(lines) if line[0] != C.ADDED and line[1:].strip()]
    if not solid_at:
        return []
    pairing = _Pairing(lines) if paired else None
    head, body, tail = lines[: solid_at[0]], lines[solid_at[0] : solid_at[-1] + 1], lines[solid_at[-1] + 1 :]
    wanted = [line[1:].rstrip() for line in body if line[0] != C.ADDED and line[1:].strip()]
    places: list[tuple[tuple[str, ...], int]] = []
    for matched in _with_text(index, file_lines, wanted, start, end_of_file):
        first, last = matched[0], matched[-1]
        before = _edge(lines, head, file_lines, range(first - 1, start - 1, -1), pairing)
        after = _edge(lines, tail, file_lines, range(last + 1, len(file_lines)), pairing)
        aligned = _aligned(body, file_lines, first, pairing, solid_at[0])
        if counted is not None and before is not None and after is not None:
            ways = {
                _aligned(body, file_lines, first, pairing, solid_at[0], dropped=tag)
                for tag in (C.CONTEXT, C.REMOVED)
            }
            counting = {
                way for way in (aligned, *ways)
                if way is not None and _counts((*before[0], *way, *after[0])) == (counted.old, counted.new)
            }  # fmt: skip
            aligned = counting.pop() if len(counting) == 1 else aligned
        if aligned is None or before is None or after is None:
            return []  # a dropped blank line beside added lines: before or after them?
        (lead, covered), (trail, _) = before, after
        places.append(((*lead, *aligned, *trail), first - covered))
        if len(places) > _MAX_PLACES:
            break
    return places


def _with_text(
    index: LineIndex, file_lines: Sequence[str], wanted: list[str], start: int, end_of_file: bool = False
) -> Iterator[list[int]]:
    """Each place from `start` where the lines with text `wanted` (trailing whitespace left
    out) are the file's lines with text, in order, blank lines left out of both: the 0-based
    lines they match, in the file's order (`end_of_file`: only the place that ends with the
    file's last line with text, however many fit above it)."""
    if not all(index.contains(text) for text in wanted):
        return  # a line found nowhere: no place (and no walk over the whole file)
    solid = [i for i in range(start, len(file_lines)) if file_lines[i].strip()]
    keys = [file_lines[i].rstrip() for i in solid]
    size = len(wanted)
    for k in range(max(len(keys) - size, 0) if end_of_file else 0, len(keys) - size + 1):
        if keys[k : k + size] == wanted:
            yield solid[k : k + size]


@dataclass(frozen=True, slots=True)
class BlankRun:
    """A run of the file's blank lines that the chunk's old lines have at another length:
    `first` its 0-based first line (where it would start, for a run the file lacks),
    `file` and `chunk` how many blank lines each has there."""

    first: int
    file: int
    chunk: int


@dataclass(frozen=True, slots=True)
class BlankDoubt:
    """The one place where a chunk's lines with text match the file's, in order, once
    blank lines are left out: its 0-based first and last lines with text, and the runs of
    blank lines (`BlankRun`) that differ there, in the file's order."""

    first: int
    last: int
    runs: tuple[BlankRun, ...]


def blank_doubt(
    index: LineIndex,
    file_lines: Sequence[str],
    lines: Sequence[str],
    start: int,
    *,
    end_of_file: bool = False,
    near: int | None = None,
) -> BlankDoubt | None:
    """For the chunk `lines` (found nowhere, every slip tried): the one place from `start`
    where its expected lines with text match the file's (trailing whitespace aside) once
    blank lines are left out of both, if its blank lines differ from the file's there; None
    if there is no such place or several (`end_of_file`: only one ending the file's text;
    `near`: a hunk's place by its numbers, 0-based, names the one of several that starts
    there, its first line with text no further down than the chunk's).

    `blank_tolerant` found no sure reading there, so the differing runs are where the
    readings part: the file's blank lines kept or removed, or on which side of the lines
    the chunk adds. The caller refuses the chunk as ambiguous, naming them. At the chunk's
    edges only a run the file has counts (blank lines the file lacks there match nothing:
    a str_replace's old text ending with a line break ends with such a "line")."""
    old = [line for line in lines if line[0] != C.ADDED]
    solid_at = [i for i, line in enumerate(old) if line[1:].strip()]
    if not solid_at:
        return None
    wanted = [old[i][1:].rstrip() for i in solid_at]
    head = solid_at[0]
    places = list(islice(_with_text(index, file_lines, wanted, start, end_of_file), 2))
    if len(places) > 1 and near is not None and near >= start:
        places = [m for m in islice(_with_text(index, file_lines, wanted, near, end_of_file), 1) if m[0] <= near + head]
    if len(places) != 1:
        return None
    matched = places[0]
    runs: list[BlankRun] = []
    if head:  # blank old lines before the first with text: the file's run right above
        above = 0
        while matched[0] - above - 1 >= start and not file_lines[matched[0] - above - 1].strip():
            above += 1
        if above and above != head:
            runs.append(BlankRun(matched[0] - above, above, head))
    for k in range(len(matched) - 1):
        chunk_run = solid_at[k + 1] - solid_at[k] - 1
        file_run = matched[k + 1] - matched[k] - 1
        if chunk_run != file_run:
            runs.append(BlankRun(matched[k] + 1, file_run, chunk_run))
    tail = len(old) - 1 - solid_at[-1]
    if tail:  # blank old lines after the last with text: the file's run right below
        below = _file_run(file_lines, matched[-1] + 1)
        if below and below != tail:
            runs.append(BlankRun(matched[-1] + 1, below, tail))
    return BlankDoubt(matched[0], matched[-1], tuple(runs)) if runs else None


def _edge(
    lines: Sequence[str],
    edge: Sequence[str],
    file_lines: Sequence[str],
    outward: range,
    pairing: _Pairing | None,
) -> tuple[tuple[str, ...], int] | None:
    """The chunk's `edge` (its lines before its first non-blank expected line, or after its
    last: blank expected lines, and added lines), rewritten against the file's blank lines
    met going `outward` from the matched lines, and how many of the file's lines it covers.

    Added lines between the edge's blank expected lines and the matched lines stay beside
    the matched lines. The blank expected lines beyond them take the file's bytes when the
    file has as many there; else, when they are all context lines, the nearest of the file's
    (as many as both have: a blank line the file lacks is no line to match), unless the
    file's run is longer and lines are only inserted or only removed beside them (before the
    extra blank line or after? removed with it?), or (`pairing`: a paired chunk's) a blank
    line is added or removed between them and the nearest anchor (which of the new text's
    blank lines is the copy?). None: no sure reading."""
    step = outward.step
    ordered = list(edge) if step > 0 else list(reversed(edge))  # from the matched lines outward
    expected = [i for i, line in enumerate(ordered) if line[0] != C.ADDED]
    if not expected:
        return tuple(edge), 0
    beside, beyond = ordered[: expected[0]], ordered[expected[0] :]
    run = 0
    for at in outward:
        if file_lines[at].strip():
            break
        run += 1
    count = len(expected)
    if run != count:
        if any(line[0] != C.CONTEXT for line in beyond):
            return None
        first = len(lines) - len(edge) + expected[0] if step > 0 else 0  # the run's first line in `lines`
        if run > count and _insertion_beside(lines, first, count):
            return None
        if pairing is not None and not pairing.run_is_sure(first, count):
            return None
        beyond = beyond[: min(run, count)]
    rewritten = list(beside)
    used = 0  # the file's lines taken, in order outward: their bytes on the expected lines
    for line in beyond:
        if line[0] == C.ADDED:
            rewritten.append(line)
        else:
            rewritten.append(line[0] + file_lines[outward[used]])
            used += 1
    return (tuple(rewritten) if step > 0 else tuple(reversed(rewritten))), used


def _counts(lines: Sequence[str]) -> tuple[int, int]:
    """How many old lines (context and removed) and new lines (context and added) `lines` hold."""
    return sum(line[0] != C.ADDED for line in lines), sum(line[0] != C.REMOVED for line in lines)


def _aligned(
    lines: Sequence[str],
    file_lines: Sequence[str],
    first: int,
    pairing: _Pairing | None = None,
    base: int = 0,
    *,
    dropped: str | None = None,
) -> tuple[str, ...] | None:
    """The chunk `lines` with the file's blank lines from `first` put back and its own
    blank expected lines that the file lacks left out.

    A run of blank context lines stands for the file's whole run of blank lines there,
    however long (the file's are kept, as context), unless the file's run is longer and
    lines are inserted right beside it (not in place of removed lines): whichever of the
    file's blank lines the model's stand for, the result is then the same. None where the model's text does not say where the file's blank lines go
    against the lines it adds or removes: a blank line it dropped beside added or removed
    lines, a run holding removed blank lines shorter than the file's beside them, or (a
    paired chunk: `pairing`, of the chunk whose lines from `base` are `lines`) a run the
    file has longer, or a blank line the file lacks, whose place in the new text the
    comparison may have chosen among others (`_Pairing`). (A blank line dropped between
    two lines it replaces may have been kept, or not.)

    `dropped` (a hunk's header counts say it): the prefix of every blank line the model
    dropped, `" "` kept or `"-"` removed, beside a change too (one kept beside added lines
    still has no sure place: None); `"-"` also makes a run of blank lines shorter than the
    file's stand for the file's whole run, its extra lines removed (where they are alike:
    else which is kept?), and `" "` keeps them beside removed lines too.
    """
    out: list[str] = []
    at = first
    skip = 0  # the rest of a run of blank context lines already put back
    for number, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line[0] == C.ADDED:
            out.append(line)
            continue
        if not line[1:].strip():
            if at < len(file_lines) and not file_lines[at].strip():
                first_of_run = number == 0 or lines[number - 1][1:].strip() or lines[number - 1][0] == C.ADDED
                run = _blank_run(lines, number) if first_of_run else 0
                file_run = _file_run(file_lines, at)
                longer = run and file_run > run
                if longer and dropped == C.REMOVED:  # the file's extra blank lines removed, as counted
                    extra = file_lines[at : at + file_run]
                    if len(set(extra)) > 1:
                        return None  # which of them does the edit keep?
                    out += [C.CONTEXT + extra[0]] * run + [C.REMOVED + extra[0]] * (file_run - run)
                    at += file_run
                    skip = run - 1
                    continue
                if longer and (
                    _insertion_beside(lines, number, run, kept=dropped == C.CONTEXT)
                    or (pairing is not None and not pairing.run_is_sure(base + number, run))
                ):
                    return None  # the file's extra blank lines: before the inserted lines or after?
                if run:  # the model's run of context blank lines stands for the file's run
                    out += [C.CONTEXT + text for text in file_lines[at : at + file_run]]
                    at += file_run
                    skip = run - 1
                    continue
                removed = _blank_run(lines, number, C.REMOVED) if first_of_run and dropped == C.REMOVED else 0
                if removed and file_run > removed:  # the file's whole run removed, as counted
                    out += [C.REMOVED + text for text in file_lines[at : at + file_run]]
                    at += file_run
                    skip = removed - 1
                    continue
                if first_of_run and not _run_is_sure(lines, number, file_lines, at):
                    return None
                out.append(line[0] + file_lines[at])
                at += 1
            elif pairing is not None and not (
                pairing.copy_is_sure if line[0] == C.CONTEXT else pairing.removal_is_sure
            )(base + number):
                return None
            continue  # a blank line the file does not have there: nothing to match
        while not file_lines[at].strip():  # a blank line the model dropped: the file's is kept
            if dropped == C.REMOVED:
                out.append(C.REMOVED + file_lines[at])
            elif out and out[-1][0] == C.ADDED:
                return None  # kept before the added lines or after them?
            elif dropped is None and ((out and out[-1][0] != C.CONTEXT) or line[0] != C.CONTEXT):
                return None  # removed with the lines beside or kept?
            elif pairing is not None and number and not pairing.gap_is_sure(base + number - 1, base + number):
                return None  # between which copies of the kept lines does it stay?
            else:
                out.append(C.CONTEXT + file_lines[at])
            at += 1
        out.append(line)
        at += 1
    return tuple(out)


def _blank_run(lines: Sequence[str], number: int, prefix: str = C.CONTEXT) -> int:
    """How many blank lines of `prefix` (context, or removed) run from `lines[number]` up to
    the next expected line that is not one, with no added line among them; 0 if a blank
    line of the other kind is in the run, or if the next expected line after it (past
    added lines) is blank too: the file's run could then be shared between the two runs
    in several ways."""
    end = number
    while end < len(lines) and lines[end][0] != C.ADDED and not lines[end][1:].strip():
        if lines[end][0] != prefix:
            return 0
        end += 1
    following = next((line for line in lines[end:] if line[0] != C.ADDED), None)
    if following is not None and not following[1:].strip():
        return 0
    return end - number


def _file_run(file_lines: Sequence[str], at: int) -> int:
    """How many blank lines of the file run from `file_lines[at]`."""
    end = at
    while end < len(file_lines) and not file_lines[end].strip():
        end += 1
    return end - at


def _insertion_beside(lines: Sequence[str], number: int, run: int, *, kept: bool = False) -> bool:
    """Whether lines are inserted or removed right beside the run of `run` lines from
    `lines[number]`: a run of changed lines next to it made of added lines only, or of
    removed lines only, or one after it whose first line is an added one. (Added lines that
    replace removed ones go where those are, whichever of the file's blank lines the model's
    stand for; inserted ones could go between them, and removed ones could take one of the
    file's blank lines with them: a block removed with the blank line after it, the model's
    copy of the file short of that line. Added lines written right after the run, before
    the removed lines they replace, are not in a diff's order, which lists a change's
    removed lines first: the file's extra blank line may be one the new text holds after
    them, paired with a blank line of theirs.) `kept`: the file's extra blank lines are known
    to be kept (a hunk's header counts them): removed lines beside them raise no doubt."""
    before, after = number, number + run
    while before > 0 and lines[before - 1][0] != C.CONTEXT:
        before -= 1
    while after < len(lines) and lines[after][0] != C.CONTEXT:
        after += 1
    sides = (lines[before:number], lines[number + run : after])
    if sides[1] and sides[1][0][0] == C.ADDED:
        return True
    return any(
        side and len({line[0] for line in side}) == 1 and not (kept and side[0][0] == C.REMOVED) for side in sides
    )


class _Pairing:
    """Where a paired chunk's blank lines surely stand (a str_replace or SEARCH/REPLACE: its
    old and new lines paired by comparing the two texts, not marked by the model).

    An anchor is a context line whose text the old and the new text each hold once: every
    comparison pairs it (unless a line both hold once is left unpaired, moved: then no
    answer is sure), so a blank line's pairing can move only between two anchors (or
    an anchor and an end of the chunk). A context line whose text the new text holds
    again (an inserted function ending like the kept one) is no anchor: the kept lines
    may pair with either copy, and the blank lines beside them with them. Each answer is
    O(1) after O(lines) made once, but `gap_is_sure`'s, which reads the lines between the
    anchors around the gap (asked only for a blank line the model dropped)."""

    def __init__(self, lines: Sequence[str]) -> None:
        from collections import Counter

        olds = Counter(line[1:] for line in lines if line[0] != C.ADDED and line[1:].strip())
        news = Counter(line[1:] for line in lines if line[0] != C.REMOVED and line[1:].strip())
        size = len(lines)
        self.lines = lines
        self._after_anchor = [0] * (size + 1)  # k: the line after the last anchor before line k
        self._anchor = [size] * (size + 1)  # k: the first anchor at or after line k (size: none)
        self._changed = [0] * (size + 1)  # blank lines added or removed among lines[:k]
        self._not_removed = [0] * (size + 1)  # blank lines kept or added among lines[:k]
        # A line both texts hold once yet left unpaired (a moved line): the comparison chose
        # between crossing pairings, so no blank line's partner is certain (as for the
        # whitespace of kept lines: `_edits._refuse_uncertain_pairs`).
        self._crossed = any(line[0] == C.REMOVED and olds[line[1:]] == 1 == news[line[1:]] for line in lines)
        anchors = []
        for k, line in enumerate(lines):
            text = line[1:]
            blank = not text.strip()
            anchors.append(line[0] == C.CONTEXT and not blank and olds[text] == 1 == news[text])
            self._after_anchor[k + 1] = k + 1 if anchors[k] else self._after_anchor[k]
            self._changed[k + 1] = self._changed[k] + (blank and line[0] != C.CONTEXT)
            self._not_removed[k + 1] = self._not_removed[k] + (blank and line[0] != C.REMOVED)
        for k in range(size - 1, -1, -1):
            self._anchor[k] = k if anchors[k] else self._anchor[k + 1]
        # Lines with text the new text does not hold: a block every comparison removes.
        self._replaced = [line[0] == C.REMOVED and bool(line[1:].strip()) and not news[line[1:]] for line in lines]
        self._old_before, self._added_before = _walked(lines, range(size))
        self._old_after, self._added_after = _walked(lines, range(size - 1, -1, -1))

    def _between_replaced(self, first: int, last: int) -> bool:
        """Whether the nearest old lines before `lines[first]` and after `lines[last]` are
        both lines of a replaced block (`_replaced`)."""
        before, after = self._old_before[first], self._old_after[last]
        return before >= 0 and self._replaced[before] and after >= 0 and self._replaced[after]

    def _around(self, counts: list[int], number: int, end: int) -> int:
        """How many lines `counts` counts between the anchors around lines[number:end],
        those lines left out."""
        before, after = self._after_anchor[number], self._anchor[end]
        return counts[number] - counts[before] + counts[after] - counts[end]

    def run_is_sure(self, number: int, run: int) -> bool:
        """Whether the run of `run` blank context lines from line `number` surely stands where
        the comparison put it: no blank line is added or removed between the anchors around
        it (else the comparison may have paired the old text's blank lines with blank lines
        the new text adds, or removes, elsewhere), and it does not lie amid a replaced block
        (between two lines with text the new text does not hold: its blank lines and the new
        block's pair only because they are alike; removed with the block and written anew
        reads the same texts)."""
        if self._crossed or self._between_replaced(number, number + run - 1):
            return False
        return not self._around(self._changed, number, number + run)

    def gap_is_sure(self, before: int, after: int) -> bool:
        """Whether the context lines `before` and `after` (side by side in the chunk) surely
        stay side by side in the new text, so that a blank line between them in the file
        (one the model dropped) stays between them: no line added or removed between the
        anchors around them holds the text of either (else the comparison may have paired
        one with that copy instead, with the changed lines between the two)."""
        if self._crossed:
            return False
        lines = self.lines
        texts = {lines[before][1:], lines[after][1:]}
        first, end = self._after_anchor[before + 1], self._anchor[after]
        return not any(line[0] != C.CONTEXT and line[1:] in texts for line in lines[first:end])

    def copy_is_sure(self, number: int) -> bool:
        """Whether the blank context line `number` (one the file lacks) is surely a copy, on
        the new side, of the old side's blank line: a context line stands right beside it,
        so that both sides have it beside the same line, and between the anchors around it
        no blank line is added or removed, so that the new text's blank lines there are all
        copies of the old text's, paired in order. (A blank line the new text adds there may
        be the copy as well: the comparison chose one of two pairings.)"""
        lines = self.lines
        before = number > 0 and lines[number - 1][0] == C.CONTEXT
        after = number + 1 < len(lines) and lines[number + 1][0] == C.CONTEXT
        return (before or after) and self.run_is_sure(number, 1)

    def removal_is_sure(self, number: int) -> bool:
        """Whether the blank removed line `number` (one the file lacks) surely has no copy in
        the new text: between the anchors around it, the new text holds no blank line. (One
        it holds there may be the copy, the comparison having paired it with another blank
        line of the old text, which the edit then removes.) Or it lies amid a replaced block
        (`_between_replaced`), with no blank line added between the context lines around it:
        a copy would have to be a blank line the old text has too, beside the block, taken
        from its pair, which the edit would then remove: a blank line shown in both texts yet
        removed, which no model means."""
        if self._crossed:
            return False
        if not self._around(self._not_removed, number, number + 1):
            return True
        added = self._added_before[number] or self._added_after[number]
        return not added and self._between_replaced(number, number)


def _walked(lines: Sequence[str], order: Iterable[int]) -> tuple[list[int], list[bool]]:
    """Walking `lines` in `order`, for each line: the nearest old line met before it (its
    index, or -1), and whether a blank line is added between it and the nearest context
    line met before it."""
    nearest, added_since = [-1] * len(lines), [False] * len(lines)
    previous, added = -1, False
    for k in order:
        line = lines[k]
        nearest[k], added_since[k] = previous, added
        if line[0] != C.ADDED:
            previous = k
        if line[0] == C.CONTEXT:
            added = False
        elif line[0] == C.ADDED and not line[1:].strip():
            added = True
    return nearest, added_since


def _run_is_sure(lines: Sequence[str], number: int, file_lines: Sequence[str], at: int) -> bool:
    """At the model's run of blank lines starting at `lines[number]`, matched from the file's
    blank line `at`: whether the two runs are as long, or the file's is shorter and the
    model's all kept or all removed (a run of both: which of them does the file have? a
    whitespace-only line kept beside the new text's own would be written twice), or only
    context lines stand beside the model's run (then where the file's extra blank lines go
    changes nothing)."""
    end = number
    while end < len(lines) and lines[end][0] != C.ADDED and not lines[end][1:].strip():
        end += 1
    run = at
    while run < len(file_lines) and not file_lines[run].strip():
        run += 1
    if run - at == end - number:
        return True
    if run - at < end - number:
        return len({line[0] for line in lines[number:end]}) == 1
    before = number > 0 and lines[number - 1][0] != C.CONTEXT
    after = end < len(lines) and lines[end][0] != C.CONTEXT
    return not (before or after)


def elided(
    index: LineIndex, file_lines: Sequence[str], lines: Sequence[str], start: int, *, end_of_file: bool = False
) -> list[tuple[tuple[str, ...], int]]:
    """Every reading from `start` of the chunk `lines`, whose one placeholder line stands for
    the lines it elides: a choice of the whole lines (one or more) the placeholder stands
    for, such that the lines before it and the lines after it match the file there (the
    lines after it at the tier of those before). Each is the chunk with those lines put in
    as context, and where it starts; at most `_MAX_PLACES` + 1 of them.

    Two readings may start at the same line: the lines after the placeholder occur again
    further down (the `return None` of an early return and the one meant). `end_of_file`:
    only readings whose lines after the placeholder end the file (a chunk pinned to the end:
    the places above, however many, are not counted against it)."""
    mark = _placeholder(lines)
    if mark is None:
        return []
    before = [line[1:] for line in lines[:mark] if line[0] != C.ADDED]
    after = [line[1:] for line in lines[mark + 1 :] if line[0] != C.ADDED]
    if not before or not after:
        return []
    readings: list[tuple[tuple[str, ...], int]] = []
    match = index.seek(before, start)
    while match is not None and len(readings) <= _MAX_PLACES:
        end = match.index + len(before)
        tail = index.seek(after, end + 1, eof=end_of_file, tiers=(match.tier,))  # one line at least elided
        while tail is not None and len(readings) <= _MAX_PLACES:
            middle = [C.CONTEXT + text for text in file_lines[end : tail.index]]
            readings.append(((*lines[:mark], *middle, *lines[mark + 1 :]), match.index))
            tail = None if end_of_file else index.seek(after, tail.index + 1, tiers=(match.tier,))
        match = index.seek(before, match.index + 1, tiers=(match.tier,))
    return readings


def same_file(
    readings: Sequence[tuple[tuple[str, ...], int]], lines: Sequence[str], file_lines: Sequence[str]
) -> tuple[tuple[str, ...], int] | None:
    """The one reading that stands for all of `elided`'s `readings` of the chunk `lines` where
    each leaves the same file: they differ only in where the lines before the placeholder
    start, those lines are only kept (none added or removed before it) and are in the file
    as written at each, and the lines after it are at one place. Every reading then keeps
    the file's lines from the first one's start to the lines after the placeholder, and
    changes the same lines the same way: the nearest (the fewest lines elided) is returned.
    None where two readings may leave different files.

    The readings may be cut short (`_MAX_PLACES`), but not those of the first place of
    the lines before the placeholder, whose lines after it are searched for first: every
    later place's lines after it are among these, so one end for all that were read is
    one end for all."""
    mark = _placeholder(lines)
    if mark is None or any(line[0] != C.CONTEXT for line in lines[:mark]):
        return None
    before = [line[1:] for line in lines[:mark]]
    ends = {at + _counts(rewritten)[0] for rewritten, at in readings}
    if len(ends) != 1 or any(list(file_lines[at : at + len(before)]) != before for _, at in readings):
        return None  # (lines found only ignoring whitespace: their indentation may tell the new lines' apart)
    return max(readings, key=lambda reading: reading[1])


def _placeholder(lines: Sequence[str]) -> int | None:
    """The index of the chunk's one placeholder line, a context line; None if it has none,
    several, or one the new lines drop (no sure reading)."""
    marks = [i for i, line in enumerate(lines) if line[0] != C.ADDED and _PLACEHOLDER.match(line[1:].strip())]
    if len(marks) != 1 or lines[marks[0]][0] != C.CONTEXT:
        return None
    return marks[0]
