"""Edits of the other formats applied to a file's text in memory (pure, nothing on disk).

A replacement (`StrReplace`: a str_replace, a SEARCH/REPLACE block) is
located in the file's text with its line endings seen as LF (so a CRLF file is
matched by LF text), the BOM aside:

1. exactly, as a substring (it may start and end inside lines);
2. only if that finds nothing and `old` holds a line break (it is made of
   whole lines, not a fragment of one line): line by line, by the fuzzy tiers of
   `_seek` (trailing whitespace, surrounding whitespace, typographic
   punctuation), each a full pass before the next, with a warning.

The count rule (exactly one, all, exactly N) is checked on the places found
at the tier that matched; a count that differs is a `ReplacementCountError`
listing each place's line. Lines the replacement does not touch keep their
endings; new lines take the ending of the line they replace, else the file's.

A replacement found line by line is written as a chunk is (`_splice`): the
lines it leaves as they were keep the file's bytes (its typographic quotes,
its trailing whitespace), and its new lines are indented as the file's
matched lines are. Its lines are those the exact match would replace
(`_old_lines`, `_new_lines`: a final line break on one side only). A unified
diff's hunks are chunks (`_unified`).

Speed: a file whose every line ends with LF (or every one with CRLF, edited as LF
and written with CRLF again) is edited as one string (`LfText`), never split into
lines, while its replacements are found exactly: each costs a few passes at C speed
over the text (find, count, one copy), and line numbers are counted only for the
places found. A tolerant match is searched in the text
too (`_seek.places_in_text`) and only the lines around its places are split;
when that cannot tell (a pattern line with too many places), and for an
insertion, the file is split into lines (`TextFile`). Several exact replacements of
one file are made in one copy of its text (`_deferred`).
"""

from __future__ import annotations

from collections import Counter

from ..._errors import ContextNotFoundError, PatchError
from ...format import Chunk, Insert, StrReplace, constants as C
from ._closest import closest_region
from ._diagnose import choice_error, count_error, insertion_out_of_range, text_not_found
from ._doubts import PatchWarning, fuzzy_warning, slip_warning
from ._locate import blank_lines_refusal, indent_move, reindented, slips, without_copied_whitespace
from ._placement import Placement
from ._seek import TIERS, LineIndex, Tier, line_start, places_in_text
from ._splice import INDENT_WINDOW as _INDENT_WINDOW, Replacement, chunk_replacements, nearest_text_line, splice
from ._text import Decoded, Edited, LfText as LfText  # (named here too: `_deferred` imports it from here)
from ._textfile import BOM, TextFile, common_ends

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from ._indent import ChangedRun, UnitFix
    from ._names import FileName
    from ..._policy import Policy
    from ...format import HashlineEdits

_MAX_PLACES: Final = 1000  # places listed (and replaced by replace_all) beyond this: refused


def as_lf(text: str) -> str:
    """`text` with every line break (CRLF, CR, LF) as LF and no leading BOM."""
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def text_lines(text: str) -> list[str]:
    """The whole lines of `text` (LF-normalised): a final line break ends the last line."""
    text = as_lf(text)
    return text.removesuffix("\n").split("\n") if text else []


# ---------------------------------------------------------------- replacements


def exact_in_string(file: Decoded, op: StrReplace, policy: Policy, where: FileName) -> Edited | None:
    """`replace`'s answer for a file edited as one string (`LfText`) where `op`'s old text
    is found exactly: a few passes at C speed over the string, never split; None when it
    is not one string or the old text is not there as it is."""
    text = file.body
    if not isinstance(text, LfText):
        return None
    old, new = as_lf(op.old), as_lf(op.new)
    places, leading = exact_places(text.body, old)
    if not places:
        return None
    firsts = line_indexes(text.body, places, text.known)
    places, firsts, leading = _checked(op, where, places, firsts, leading)
    new, doubts = _in_file_unit(text.body, places, firsts, old, new, policy, where, op.line)
    return _with_warnings(_replace_in_body(file, text, places, firsts, leading, old, new, op), doubts)


def tolerant_in_string(file: Decoded, op: StrReplace, policy: Policy, where: FileName) -> Edited | None:
    """`replace`'s answer for whole lines found by a tolerant tier in a file edited as one
    string (`_tolerant_in_body`); None when that cannot be told so simply."""
    old = as_lf(op.old)
    if not isinstance(file.body, LfText) or "\n" not in old or exact_places(file.body.body, old)[0]:
        return None
    return _tolerant_in_body(file, file.body, old, as_lf(op.new), op, policy, where)


def replace(file: Decoded, op: StrReplace, policy: Policy, where: FileName) -> Edited:
    """Apply `op` (a non-empty `old`) to `file`'s lines (the whole search: exactly, then line
    by line at each tolerant tier, then a model's slips undone); raise when its count
    rule fails or it is found nowhere."""
    old, new = as_lf(op.old), as_lf(op.new)
    text = file.lines()
    joined = _joined(text)
    places, _ = exact_places(joined, old)
    if places:
        firsts = line_indexes(joined, places)
        places, firsts, _ = _checked(op, where, places, firsts, False)
        new, doubts = _in_file_unit(joined, places, firsts, old, new, policy, where, op.line)
        return _with_warnings(_replace_exact(file, text, joined, places, firsts, old, new, op), doubts)
    if "\n" in old:  # whole lines: fuzzy tiers too
        pattern = _old_lines(old, new)
        index = LineIndex(text.lines)
        for tier in TIERS[1:]:
            found = _all_places(index, pattern, tier)
            if found:
                numbers = tuple(i + 1 for i in found)
                found = _chosen(op, where, found, numbers, tier)
                _check_count(op, where, len(found), numbers, tier)
                return _replace_lines(file, text, found, pattern, _new_lines(old, new), op, tier, policy, where)
        if op.expected in (None, 1) and not op.replace_all and op.occurrence in (None, 1):
            slipped = _slipped(file, text, index, pattern, _new_lines(old, new), op, policy, where)
            if slipped is not None:
                return slipped
    raise _not_found(text, joined, old, new, op, where)


def _with_warnings(edited: Edited, warnings: tuple[PatchWarning, ...]) -> Edited:
    return Edited(edited.text, edited.placements, edited.warnings + warnings) if warnings else edited


UNIT_WINDOW: Final = 16_000  # characters each side of a replacement read for the file's indentation unit


def _in_file_unit(
    joined: str,
    places: list[int],
    firsts: list[int],
    old: str,
    new: str,
    policy: Policy,
    where: FileName,
    patch_line: int | None,
) -> tuple[str, tuple[PatchWarning, ...]]:
    """`new`, to replace `old` found exactly at `places` (offsets in `joined`, the file's
    lines joined with LF; on 0-based lines `firsts`), with its lines sent in another
    indentation unit than the file's lines around the first place written in the file's
    (`_indent.in_file_unit`), and a warning per place naming those lines. A line of `new`
    that is a line of `old` is the file's own; the first line of `new` counts only when
    `old` starts with indentation (at the start of a line). IndentUnitError (naming
    `patch_line`) where they were to be rewritten and the width of a level cannot be told.
    `new` as sent, without a warning, where the rewrite would turn a run of its lines back
    into the lines of `old` they replace (`_indent.restores_replaced`: re-indented on purpose)."""
    lines, candidates = _unit_candidates(old, new)
    if not candidates:
        return new, ()
    from ._doubts import unit_warning

    begin, end = places[0], places[0] + len(old)
    low, high = max(0, begin - UNIT_WINDOW), end + UNIT_WINDOW

    def file_has(prefix: str) -> bool:
        return joined.startswith(prefix) or "\n" + prefix in joined

    from ._indent import changed_runs, restores_replaced, tabs_are_syntax

    olds = old.split("\n")
    runs = changed_runs(olds, lines)
    fix = _unit_fix(olds, lines, candidates, runs, joined[low:high], bool(low), high < len(joined), file_has, policy)
    if fix is None or (fix.sent == "tabs" and tabs_are_syntax(where.relative)):
        return new, ()
    if fix.rewritten:
        rewritten = list(lines)
        for k, line in zip(candidates, fix.lines):
            rewritten[k] = line
        if restores_replaced(rewritten, olds, runs):
            return new, ()  # re-indented in the other unit on purpose: written as sent
        lines = rewritten
    grown = new.count("\n") - old.count("\n")
    if fix.uncertain:
        from ._diagnose import unit_error  # failures only

        raise unit_error(where, patch_line, tuple(firsts[0] + candidates[i] + 1 for i in fix.changed), fix.sent, fix.unit)
    warnings = tuple(
        unit_warning(where, tuple(first + n * grown + candidates[i] + 1 for i in fix.changed), fix.sent, fix.unit,
                     fix.rewritten)
        for n, first in enumerate(firsts)
    )  # fmt: skip
    return "\n".join(lines), warnings


def _unit_candidates(old: str, new: str) -> tuple[list[str], list[int]]:
    """The lines of `new`, and which of them `_in_file_unit` looks at: indented lines that
    are not lines of `old` (the first only when `old` starts with indentation)."""
    if "\n\t" not in new and "\n " not in new and new[:1] not in ("\t", " "):
        return [], []  # no line of the new text is indented
    lines = new.split("\n")
    kept = set(old.split("\n"))
    candidates = [
        k for k, line in enumerate(lines)
        if line not in kept and (k > 0 or old[:1] in ("\t", " "))
    ]  # fmt: skip
    return lines, candidates


def _unit_fix(
    olds: list[str],
    lines: list[str],
    candidates: list[int],
    runs: list[ChangedRun],
    window: str,
    cut_before: bool,
    cut_after: bool,
    file_has: Callable[[str], bool],
    policy: Policy,
) -> UnitFix | None:
    """`_indent.in_file_unit` for the new text's `lines` (`candidates` of them) replacing the
    file's lines `olds` (found exactly; `runs`, `changed_runs` of the two), read against
    `window`, the text around the place (`UNIT_WINDOW` characters each side; cut inside the
    text before it, after it, or not)."""
    from ._indent import in_file_unit

    around = window.split("\n")
    # Whole lines only: a window cut inside the file cuts its first and last line.
    around = around[1 if cut_before else 0 : -1 if cut_after else None]
    beside = _beside(olds, runs, candidates)
    added = [lines[k] for k in candidates]
    rewrite = policy.indentation == "match"
    return in_file_unit(added, around, file_has, rewrite, beside, None, _replaced_one_for_one(olds, runs, candidates))


def _replaced_one_for_one(olds: list[str], runs: list[ChangedRun], candidates: list[int]) -> list[str] | None:
    """The old line each new line of `candidates` takes the place of, where every one is in
    a changed run that replaces as many lines as it adds (line for line, in order); else None."""
    replaced: list[str] = []
    ordered = iter(sorted(runs, key=lambda r: r.new_start))  # (candidates ascend: one pass)
    run = None
    for k in candidates:
        while run is None or run.new_end <= k:
            run = next(ordered, None)
            if run is None:
                return None
        if k < run.new_start or run.old_end - run.old_start != run.new_end - run.new_start:
            return None
        replaced.append(olds[run.old_start + k - run.new_start])
    return replaced


def _beside(olds: list[str], runs: list[ChangedRun], candidates: list[int]) -> list[str]:
    """The old lines beside the new lines `candidates`, as a Codex chunk's change has them
    (`_splice.in_file_units`): the lines each changed run that holds one of them replaces,
    or, for lines only inserted, the nearest old lines with text above and below; all of
    `olds` when none."""
    wanted = set(candidates)
    found: list[str] = []
    for run in runs:
        if wanted.isdisjoint(range(run.new_start, run.new_end)):
            continue
        if run.old_end > run.old_start:
            found += olds[run.old_start : run.old_end]
        else:
            found += [*nearest_text_line(olds, run.old_start, -1), *nearest_text_line(olds, run.old_start, 1)]
    return found or olds


def keeps_its_unit(old: str, new: str, window: str, cut_before: bool, cut_after: bool, policy: Policy) -> bool:
    """Whether `_in_file_unit` leaves `new` as sent, without a word, where `old` is found
    exactly once with `window` around it (as `_unit_fix` takes it)."""
    lines, candidates = _unit_candidates(old, new)
    if not candidates:
        return True
    from ._indent import changed_runs

    asked: list[str] = []  # what the whole file would have to say: not known here

    def unknown(prefix: str) -> bool:
        asked.append(prefix)
        return True

    olds = old.split("\n")
    fix = _unit_fix(olds, lines, candidates, changed_runs(olds, lines), window, cut_before, cut_after, unknown, policy)
    return fix is None and not asked


def _tolerant_in_body(
    file: Decoded, text: LfText, old: str, new: str, op: StrReplace, policy: Policy, where: FileName
) -> Edited | None:
    """A replacement of whole lines found by a tolerant tier in an `LfText`, without splitting
    it: the places by `places_in_text`, then only the lines around them (as many as
    `indent_move` reads) split and replaced as `_replace_lines` does. None whenever the
    answer is not that simple (no place at any tier, a count that fails, a place the lines
    path would refuse, a pattern line too common): the lines path then decides and says why."""
    if op.occurrence is not None or op.near_line is not None:
        return None  # a chosen place: the lines path lists the places and picks one
    pattern = _old_lines(old, new)
    body = text.body
    for tier in TIERS[1:]:
        places = places_in_text(body, pattern, tier, _MAX_PLACES)
        if places is None:
            return None
        if not places:
            continue
        wanted = op.expected if op.expected is not None else None if op.replace_all else 1
        if (wanted is not None and len(places) != wanted) or len(places) > _MAX_PLACES:
            return None
        # The lines `indent_move` reads around each place: the first's, the last's and between.
        top = max(places[0][0] - _INDENT_WINDOW, 0)
        begin = line_start(body, places[0][1], top - places[0][0])
        end = line_start(body, places[-1][1], len(pattern) + _INDENT_WINDOW)
        assert begin is not None and end is not None  # (None only above the first line)
        window = LfText(body[begin:end], False).split()
        try:
            edited = _replace_lines(Decoded(window), window, [line - top for line, _ in places], pattern, _new_lines(old, new),
                                    op, tier, policy, where, base=top)  # fmt: skip
        except PatchError:
            return None
        assert isinstance(edited.text.body, TextFile)
        region, new_region = body[begin:end], edited.text.body.to_text(bom=False)
        if body.find(region) == begin:  # one copy of the text, no slices of it (peak memory)
            result = body.replace(region, new_region, 1)
        else:
            result = "".join((body[:begin], new_region, body[end:]))
        return Edited(file.with_body(LfText(result, text.bom, (begin, top))), edited.placements, edited.warnings)
    return None


def _checked(
    op: StrReplace, where: FileName, places: list[int], firsts: list[int], leading: bool
) -> tuple[list[int], list[int], bool]:
    """The exact `places` (on 0-based lines `firsts`) `op` replaces: the one its occurrence
    or near_line picks (`_chosen`), or all of them once the count rule holds (`_check_count`);
    with their lines, and whether they are still `old`'s first occurrences (`leading`)."""
    lines = tuple(i + 1 for i in firsts)
    chosen = _chosen(op, where, places, lines, TIERS[0])
    if len(chosen) != len(places):  # one place picked on purpose
        k = places.index(chosen[0])
        places, firsts, leading = chosen, [firsts[k]], leading and k == 0
    _check_count(op, where, len(places), lines, TIERS[0])
    return places, firsts, leading


def _takes_next_line(old: str, new: str) -> bool:
    """Whether replacing `old` by `new` in the text takes the line after `old` too: `old`
    ends with a line break that a non-empty `new` does not (that line's text then ends
    the new text's last line)."""
    return old.endswith("\n") and bool(new) and not new.endswith("\n")


def _old_lines(old: str, new: str) -> list[str]:
    """The whole lines `old` stands for where it is matched line by line (LF-normalised texts).

    As in the text: where the replacement takes the line after `old` (`_takes_next_line`),
    line by line that line must be blank (an empty line after the last one, as
    `_new_lines` adds one in the other case), as joining a line of text onto the new
    text's last line is nothing a tolerant match guesses.
    """
    return old.split("\n") if _takes_next_line(old, new) else old.removesuffix("\n").split("\n")


def _new_lines(old: str, new: str) -> list[str]:
    """The lines `new` leaves where the whole lines of `old` were matched (LF-normalised texts).

    As in the text: a line break that `new` ends with and `old` does not adds an
    empty line after the last one.
    """
    if new.endswith("\n") and not old.endswith("\n"):
        return new.split("\n")
    return text_lines(new)


def _joined(text: TextFile) -> str:
    """The file's text with LF endings (what replacements are matched against)."""
    body = "\n".join(text.lines)
    return body + "\n" if text.lines and text.endings[-1] else body


def exact_places(joined: str, old: str) -> tuple[list[int], bool]:
    """Where `old` is in `joined`, not overlapping; for an `old` of several lines (whole
    lines to the model), never where its last line is only the start of a line whose rest
    is whitespace (its trailing whitespace lost: the line tiers compare whole lines), nor
    where it begins or ends inside a word of the file (a stale first or last line, `say`
    for `says`: no match at all). And whether the places are the first occurrences of
    `old`, none passed over (what `str.replace` takes)."""
    places: list[int] = []
    first = True
    at = joined.find(old)
    while at >= 0 and len(places) <= _MAX_PLACES:
        end = at + len(old)
        if not excluded_place(joined, old, at, end):
            places.append(at)
        else:
            first = False
        at = joined.find(old, end)
    return places, first and bool(places)


def excluded_place(joined: str, old: str, at: int, end: int) -> bool:
    """Whether `old`, found at `at`…`end` of `joined`, is not taken there (`exact_places`).

    Only an `old` whose last line has no line break ends inside a line: one that has it
    ends where a line starts, and the line after it is not the rest of its last one."""
    several = "\n" in old.rstrip("\n")
    cut_short = not old.endswith("\n") and _ends_in_blank_tail(joined, end)
    return several and (cut_short or _inside_a_word(joined, old, at, end))


def _inside_a_word(joined: str, old: str, at: int, end: int) -> bool:
    """Whether `old`, found at `at`…`end` of `joined`, begins or ends inside a word of it."""
    starts_inside = at > 0 and _wordlike(old[0]) and _wordlike(joined[at - 1])
    return starts_inside or (end < len(joined) and _wordlike(old[-1]) and _wordlike(joined[end]))


def _wordlike(character: str) -> bool:
    return character.isalnum() or character == "_"


def _ends_in_blank_tail(joined: str, end: int) -> bool:
    """Whether offset `end` is inside a line, the rest of which is whitespace only."""
    line_end = joined.find("\n", end)
    tail = joined[end : len(joined) if line_end < 0 else line_end]
    return bool(tail) and not tail.strip(" \t")


def line_indexes(joined: str, offsets: Sequence[int], known: tuple[int, int] = (0, 0)) -> list[int]:
    """The 0-based line of each offset (in order), counting line breaks at C speed from
    the nearest of the text's start and `known` (an offset and its line): the edits of one
    file, in order, count each stretch of it about once."""
    last, line = known
    first = offsets[0]
    if first < last - first:
        last, line = 0, 0
    if first < last:
        line -= joined.count("\n", first, last)
        last = first
    indexes = []
    for offset in offsets:
        line += joined.count("\n", last, offset)
        last = offset
        indexes.append(line)
    return indexes


def _all_places(index: LineIndex, pattern: list[str], tier: Tier) -> list[int]:
    """Every place (not overlapping) where `pattern` matches at `tier`."""
    found: list[int] = []
    start = 0
    while len(found) <= _MAX_PLACES:
        match = index.seek(pattern, start, tiers=(tier,))
        if match is None:
            break
        found.append(match.index)
        start = match.index + len(pattern)
    return found


def _chosen(op: StrReplace, where: FileName, places: list[int], lines: tuple[int, ...], tier: Tier) -> list[int]:
    """The one place of `places` (starting at `lines`) that `op.occurrence` or `op.near_line`
    picks, alone in a list; `places` itself when neither is given. Raises
    ReplacementCountError, listing every place, when the choice picks none (an
    occurrence past the last) or two (two places equally near the line)."""
    if len(places) > _MAX_PLACES:
        return places  # too many to list: refused by the count rule
    if op.occurrence is not None:
        if op.occurrence <= len(places):
            return [places[op.occurrence - 1]]
        why = f"; occurrence {op.occurrence} is not one of them (1 to {len(places)})"
        raise choice_error(op.label, where, op.line, lines, tier.name, why)
    if op.near_line is None:
        return places
    near = op.near_line
    order = sorted(range(len(places)), key=lambda i: abs(lines[i] - near))
    best = order[0]
    if len(order) > 1 and abs(lines[order[1]] - near) == abs(lines[best] - near):
        first, second = sorted(order[:2])
        distance = abs(lines[best] - near)
        why = (
            f"; occurrences {first + 1} and {second + 1} (lines {lines[first]} and {lines[second]}) "
            f"are both {distance} line{'' if distance == 1 else 's'} from near_line {near}"
        )
        raise choice_error(op.label, where, op.line, lines, tier.name, why)
    return [places[best]]


def _check_count(op: StrReplace, where: FileName, found: int, lines: tuple[int, ...], tier: Tier) -> None:
    wanted = op.expected if op.expected is not None else None if op.replace_all else 1
    if (wanted is None or found == wanted) and found <= _MAX_PLACES:
        return
    raise count_error(op.label, where, op.line, found, lines, tier.name, wanted, _MAX_PLACES)


def _replace_in_body(
    file: Decoded,
    text: LfText,
    places: list[int],
    firsts: list[int],
    leading: bool,
    old: str,
    new: str,
    op: StrReplace,
) -> Edited:
    """Replace `old` at each offset of `places` (on lines `firsts`) in an `LfText`: the same
    text as `_replace_exact` makes of its lines (every ending LF), as pieces of the one
    string, or by `str.replace` when the places are `old`'s first occurrences (`leading`):
    one copy of the text, no slices of it."""
    body = text.body
    pieces: list[str] = []
    placements = []
    kept = 0  # body[kept:] is not copied yet
    found = regions(body, places, firsts, len(old))
    for begin, end, first, offsets in found:
        region = body[begin:end]
        new_region = spliced(region, begin, offsets, len(old), new)
        if not leading:
            pieces += [body[kept:begin], new_region]
        kept = end
        added, removed = changed_counts(region_lines(region), region_lines(new_region))
        placements.append(Placement(op.line, first + 1, TIERS[0].name, added, removed))
    if leading:
        result = body.replace(old, new, len(places))
    else:
        pieces.append(body[kept:])
        result = "".join(pieces)
    known = (found[0][0], found[0][2])  # nothing before the first region moved
    return Edited(file.with_body(LfText(result, text.bom, known)), tuple(placements))


def _replace_exact(
    file: Decoded,
    text: TextFile,
    joined: str,
    places: list[int],
    firsts: list[int],
    old: str,
    new: str,
    op: StrReplace,
) -> Edited:
    """Replace `old` at each offset of `places`; untouched lines keep their endings.

    The lines a group of places touches become the lines of their replaced
    text: the last keeps the ending of the last line it replaces (so a change
    inside one line keeps that line's ending), the others take those of the
    lines they stand for, then the file's. One pass over the file.
    """
    ending = file.ending
    lines: list[str] = []
    endings: list[str] = []
    placements = []
    kept = 0  # text.lines[kept:] are not copied yet
    for begin, end, first, offsets in regions(joined, places, firsts, len(old)):
        region = joined[begin:end]
        last = first + max(len(region_lines(region)) - 1, 0)
        new_region = spliced(region, begin, offsets, len(old), new)
        new_lines = region_lines(new_region)
        old_endings = text.endings[first : last + 1]
        new_endings = [old_endings[i] if i < len(old_endings) - 1 else ending for i in range(len(new_lines))]
        if new_lines:
            new_endings[-1] = (old_endings[-1] or ending) if new_region.endswith("\n") else ""
        lines += text.lines[kept:first] + new_lines
        endings += text.endings[kept:first] + new_endings
        kept = last + 1
        added, removed = changed_counts(text.lines[first : last + 1], new_lines)
        placements.append(Placement(op.line, first + 1, TIERS[0].name, added, removed))
    lines += text.lines[kept:]
    endings += text.endings[kept:]
    return Edited(file.with_body(TextFile(lines, endings, text.bom)), tuple(placements))


def spliced(region: str, begin: int, offsets: list[int], size: int, new: str) -> str:
    """`region` (from offset `begin` of the text) with `new` for the `size` characters at each offset."""
    pieces, at = [], 0
    for offset in offsets:
        pieces += [region[at : offset - begin], new]
        at = offset - begin + size
    pieces.append(region[at:])
    return "".join(pieces)


def region_lines(region: str) -> list[str]:
    """The lines of a region of whole lines (its last line break ends its last line)."""
    return region.removesuffix("\n").split("\n") if region else []


def changed_counts(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """(added, removed): the lines of `new` and of `old` that are not the same lines
    at both ends (a replacement's region takes in whole lines around the text it changes)."""
    same, tail = common_ends(old, new)
    return len(new) - same - tail, len(old) - same - tail


def regions(
    joined: str, places: list[int], firsts: list[int], size: int
) -> list[tuple[int, int, int, list[int]]]:
    """The places (on lines `firsts`) as (begin, end, first line index, offsets): the whole
    lines they touch, places sharing lines in one region. Only the places' own lines are
    looked at.

    A place's lines run from the line of its first character to the line of
    the character after it (a place that takes a line break joins the next line).
    """
    found: list[tuple[int, int, int, list[int]]] = []
    for offset, line in zip(places, firsts):
        begin = joined.rfind("\n", 0, offset) + 1
        stop = joined.find("\n", offset + size)
        end = len(joined) if stop < 0 else stop + 1
        if found and begin < found[-1][1]:
            previous = found[-1]
            found[-1] = (previous[0], max(previous[1], end), previous[2], [*previous[3], offset])
        else:
            found.append((begin, end, line, [offset]))
    return found


def _replace_lines(
    file: Decoded,
    text: TextFile,
    found: list[int],
    old_lines: list[str],
    new_lines: list[str],
    op: StrReplace,
    tier: Tier,
    policy: Policy,
    where: FileName,
    *,
    base: int = 0,
) -> Edited:
    """Replace the lines at each index of `found` (a match at a tolerant `tier`) as a chunk would.

    `base`: the line of the file where `text` starts (it may be a window of the file),
    added to the lines its placements and warnings name.

    The old and new lines are compared: lines they share are context, kept
    as the file has them; the others are replaced, the new ones re-indented
    as the file's matched lines are (`_locate.reindented`).
    """
    label = op.label or "the old text"
    chunk = Chunk((), _chunk_lines(old_lines, new_lines), line=op.line, label=label, noun=op.terms.noun)
    replacements: list[Replacement] = []
    for at in found:
        used = without_copied_whitespace(chunk.lines, at, text.lines, policy)
        how = indent_move(used, at, text.lines, policy)
        _refuse_uncertain_pairs(used, at, text.lines, chunk, where, how.move)
        replacements += chunk_replacements(reindented(used, at, text.lines, chunk, how, where), at)
    numbers = tuple(base + j + 1 for j in found)
    warnings = tuple(fuzzy_warning(label, op.line, base + i + 1, tier.name, numbers, where) for i in found)
    size = len(old_lines)
    placements = tuple(Placement(op.line, base + i + 1, tier.name, len(new_lines), size) for i in found)
    return Edited(file.with_body(splice(text, replacements, file.ending, policy)), placements, warnings)


def _slipped(
    file: Decoded,
    text: TextFile,
    index: LineIndex,
    old_lines: list[str],
    new_lines: list[str],
    op: StrReplace,
    policy: Policy,
    where: FileName,
) -> Edited | None:
    """The replacement found despite a model's slip (`_locate.slips`: line numbers copied from
    a view, blank lines dropped or added, an elided middle), written as a chunk; None if none,
    but AmbiguousBlankLinesError where only its blank lines differ, at one place, in a way
    that reads more than one way (`_locate.blank_lines_refusal`)."""
    label = op.label or "the old text"
    chunk = Chunk((), _chunk_lines(old_lines, new_lines), line=op.line, label=label, noun=op.terms.noun)
    found = slips(index, text.lines, chunk, chunk.lines, (None,) * len(chunk.lines), 0, where, policy, paired=True)
    if found is None:
        refusal = blank_lines_refusal(index, text.lines, chunk, 0, where, policy)
        if refusal is not None:
            raise refusal
        return None
    used, _, pattern, match, slip = found
    used = without_copied_whitespace(used, match.index, text.lines, policy)
    if match.tier is TIERS[0]:  # found exactly: nothing to re-indent
        _refuse_uncertain_pairs(used, match.index, text.lines, chunk, where)
    else:
        how = indent_move(used, match.index, text.lines, policy)
        _refuse_uncertain_pairs(used, match.index, text.lines, chunk, where, how.move)
        used = reindented(used, match.index, text.lines, chunk, how, where)
    replacements = chunk_replacements(used, match.index)
    added, removed = (sum(1 for s in used if s[0] == kind) for kind in (C.ADDED, C.REMOVED))
    placement = Placement(op.line, match.index + 1, slip, added, removed)
    warning = slip_warning(chunk, match.index, slip, where)
    return Edited(file.with_body(splice(text, replacements, file.ending, policy)), (placement,), (warning,))


def _refuse_uncertain_pairs(
    used: tuple[str, ...],
    at: int,
    lines: list[str],
    chunk: Chunk,
    where: FileName,
    move: Callable[[str], str | None] | None = None,
) -> None:
    """Refuse when a line the file has with other bytes than the model's (the tolerance
    the match needed) cannot be told to be kept or replaced: it is shared by the old and
    new text (so kept as the file has it) but not the only one of its text on either
    side, or it is removed while the new text writes it again (a pairing the comparison
    of old and new text did not make: the model's bytes would replace the file's), or
    while a kept line of its text has other bytes in the file (a block removed from one
    `@dec` to the next: which of the two the edit keeps, the comparison chose).

    The first two do not matter where the line, written as an added line (`move`: how
    added lines are re-indented to the file's unit, `indent_move`), is the file's bytes: every pairing
    then writes the same file."""
    olds = Counter(line[1:] for line in used if line[0] != C.ADDED)
    news = Counter(line[1:] for line in used if line[0] != C.REMOVED)
    added = {line[1:] for line in used if line[0] == C.ADDED}
    kept: dict[str, set[str]] = {}  # the file's bytes of the kept lines, by the model's text
    position = at
    for line in used:
        if line[0] != C.ADDED:
            if line[0] == C.CONTEXT:
                kept.setdefault(line[1:], set()).add(lines[position])
            position += 1
    # A line both texts hold once yet left unpaired: the comparison chose between crossing
    # pairings (a moved line), so no kept line's partner is certain by its neighbours.
    crossed = any(line[0] == C.REMOVED and olds[line[1:]] == 1 == news[line[1:]] for line in used)
    paired: list[bool] | None = None  # made once, when a repeated line first needs it
    position = at
    for number, line in enumerate(used):
        if line[0] == C.ADDED:
            continue
        text = line[1:]
        if lines[position] != text:
            repeated = olds[text] > 1 or news[text] > 1
            if repeated and not crossed and paired is None:
                paired = _paired_in_order(used, olds, news)
            certain = not repeated or (not crossed and paired is not None and paired[number])
            alike = move is not None and move(text) == lines[position]  # kept or added: same bytes
            shared = line[0] == C.CONTEXT and not certain and not alike
            other_kept = bool(kept.get(text, set()) - {lines[position]})
            if shared or (line[0] == C.REMOVED and ((text in added and not alike) or other_kept)):
                from ._diagnose import uncertain_pair_error  # failures only: start-up time

                raise uncertain_pair_error(chunk, text, at, position, lines[position], where)
        position += 1


def _paired_in_order(used: tuple[str, ...], olds: Counter[str], news: Counter[str]) -> list[bool]:
    """For each line of `used`, whether it is a kept line with one certain partner in the
    new text although its text may repeat. Two conditions, both needed:

    - its run of kept lines reaches an anchor (a line the old and the new text each hold
      once, which every comparison pairs) or an end of the chunk: a run of kept lines
      between changed ones may as well be removed with them and written again (the new
      text's copies would then be the model's bytes, not the file's);
    - between the nearest anchors around it (else the chunk's ends), every line of its
      text, on either side, is kept: those copies then pair in order, the only pairing
      that keeps them all; a removed or an added copy among them leaves it open.

    Linear in the chunk: runs and stretches between anchors are each looked at once."""
    size = len(used)
    anchors = [line[0] == C.CONTEXT and olds[line[1:]] == 1 == news[line[1:]] for line in used]
    # The stretch each line lies in (anchors end stretches), and the texts each stretch
    # holds as a removed or an added line.
    stretch: list[int] = []
    changed: list[set[str]] = [set()]
    for k, line in enumerate(used):
        if anchors[k]:
            changed.append(set())
        elif line[0] != C.CONTEXT:
            changed[-1].add(line[1:])
        stretch.append(len(changed) - 1)
    certain = [False] * size
    start = 0
    while start < size:
        if used[start][0] != C.CONTEXT:
            start += 1
            continue
        end = start
        while end + 1 < size and used[end + 1][0] == C.CONTEXT:
            end += 1
        if start == 0 or end == size - 1 or any(anchors[start : end + 1]):
            for k in range(start, end + 1):
                certain[k] = used[k][1:] not in changed[stretch[k]]
        start = end + 1
    return certain


def _chunk_lines(old: list[str], new: list[str]) -> tuple[str, ...]:
    """`old` → `new` as chunk lines: shared lines as context, the others removed and added."""
    import difflib  # the tolerant path only (start-up time)

    lines: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, first, last, new_first, new_last in matcher.get_opcodes():
        if tag == "equal":
            lines += [C.CONTEXT + line for line in old[first:last]]
        else:
            lines += [C.REMOVED + line for line in old[first:last]]
            lines += [C.ADDED + line for line in new[new_first:new_last]]
    return tuple(lines)


def _not_found(
    text: TextFile, joined: str, old: str, new: str, op: StrReplace, where: FileName
) -> ContextNotFoundError:
    """The error of a replacement found nowhere, with the closest lines of the file and
    where its new text already is, if it is: as sent, or, for whole lines, by a tolerant
    tier (an edit applied once keeps the file's bytes on the lines its old and new text
    share, and writes its new lines in the file's indentation: sent again, its new text
    is not there byte for byte)."""
    expected = tuple(old.removesuffix("\n").split("\n"))
    at = joined.find(new) if new and new != old else -1
    applied = None if at < 0 else joined.count("\n", 0, at) + 1
    if applied is None and new != old and "\n" in old and "\n" in new.removesuffix("\n"):
        found = LineIndex(text.lines).seek(new.removesuffix("\n").split("\n"), 0)
        applied = None if found is None else found.index + 1
    region = closest_region(text.lines, expected)
    holds_bom = BOM in op.old.removeprefix(BOM)
    error = text_not_found(
        op.label, op.terms.noun, expected, region, text.lines, where, op.line, applied, by_lines="\n" in old, holds_bom=holds_bom
    )
    if _takes_next_line(old, new) and LineIndex(text.lines).seek(list(expected), 0) is not None:
        error.hints = (
            "The old text ends with a line break and the new text does not, so the line after "
            "the old text would end the new text's last line; matched line by line, that is "
            "done only where that line is blank. End the new text with a line break too (or "
            "the old text without one).",
            *error.hints,
        )
    at = joined.find(old)
    while at >= 0 and not _inside_a_word(joined, old, at, at + len(old)):
        at = joined.find(old, at + 1)
    if at >= 0 and "\n" in old.rstrip("\n"):
        line = joined.count("\n", 0, at) + 1
        error.hints = (
            f"The old text occurs at line {line} only from or to the middle of a word of the file: "
            "an old text of several lines stands for whole lines, so its first and last lines must "
            "be the file's lines whole (one of them may be out of date).",
            *error.hints,
        )
    return error


# ---------------------------------------------------------------- insertions


def insert(file: Decoded, op: Insert, policy: Policy, where: FileName) -> Edited:
    """Insert `op.text`'s lines after line `op.after_line` (0: at the top)."""
    text = file.lines()
    size = len(text.lines)
    if not 0 <= op.after_line <= size:
        raise insertion_out_of_range(op.label, op.after_line, size, where, op.line)
    new_lines = text_lines(op.text)
    replacement = Replacement(op.after_line, 0, tuple(new_lines))
    placed = Placement(op.line, op.after_line + 1, TIERS[0].name, len(new_lines), 0)
    return Edited(file.with_body(splice(text, [replacement], file.ending, policy)), (placed,))


def anchored(file: Decoded, op: HashlineEdits, policy: Policy, where: FileName) -> Edited:
    """The edits of one Hashline call made at once, where their anchors say: every anchor
    checked against the file as it is (`format.hashline.placed`: a stale one refused,
    never moved); new lines get the file's ending."""
    from ...format import hashline

    text = file.lines()
    splices = hashline.placed(text.lines, op, where.shown)
    replacements = [Replacement(s.start, s.stop - s.start, s.lines) for s in splices]
    placements, shift = [], 0
    for s in splices:
        placements.append(Placement(s.number, s.start + 1 + shift, TIERS[0].name, len(s.lines), s.stop - s.start))
        shift += len(s.lines) - (s.stop - s.start)
    return Edited(file.with_body(splice(text, replacements, file.ending, policy)), tuple(placements))
