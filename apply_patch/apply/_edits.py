"""Edits of the other formats applied to a file's text in memory (pure, nothing on disk).

A replacement (`StrReplace`) is located in the file's text with its line
endings seen as LF (so a CRLF file is matched by LF text), the BOM aside:

1. exactly, as a substring (it may start and end inside lines);
2. only if that finds nothing and `old` holds a line break (it is made of
   whole lines, not a fragment of one line): line by line, by the fuzzy tiers of
   `_seek` (trailing whitespace, surrounding whitespace, typographic
   punctuation), each a full pass before the next, with a warning.

The count rule (exactly one, all, exactly N) is checked on the places found
at the tier that matched; a count that differs is a `ReplacementCountError`
listing each place's line. Lines the replacement does not touch keep their
endings; new lines take the ending of the line they replace, else the file's.

A unified diff's hunks (`ApplyHunks`) are located as the Codex chunks are,
in order, each after the previous one; where a hunk matches several places
at its tier, the place nearest to its header's line number (shifted by how
far the previous hunk landed from its own) is taken.
"""

from __future__ import annotations

from .._dataclass import dataclass
from .._errors import AmbiguousChunkError, ContextNotFoundError, EditError, PatchError, ReplacementCountError
from ..format import ApplyHunks, DiffHunk, Insert, StrReplace
from ._closest import closest_region
from ._diagnose import line_hints, show_region
from ._doubts import TIER_WORDS, PatchWarning
from ._locate import Placement, Replacement, with_explicit_endings, splice
from ._seek import TIERS, Tier, LineIndex
from ._textfile import BOM, TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, Final

    from ._paths import Location
    from .._policy import Policy

_NEW_LINE_ENDING: Final = {"lf": "\n", "crlf": "\r\n"}
_MAX_PLACES: Final = 1000  # places listed (and replaced by replace_all) beyond this: refused


@dataclass(frozen=True, slots=True)
class Edited:
    """A file's new text, where each replacement landed, and the doubts."""

    text: TextFile
    placements: tuple[Placement, ...]
    warnings: tuple[PatchWarning, ...] = ()


def as_lf(text: str) -> str:
    """`text` with every line break (CRLF, CR, LF) as LF and no leading BOM."""
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def text_lines(text: str) -> list[str]:
    """The whole lines of `text` (LF-normalised): a final line break ends the last line."""
    text = as_lf(text)
    return text.removesuffix("\n").split("\n") if text else []


# ---------------------------------------------------------------- replacements


def replace(text: TextFile, op: StrReplace, policy: Policy, where: Location) -> Edited:
    """Apply `op` (a non-empty `old`) to `text`; raise when its count rule fails."""
    old, new = as_lf(op.old), as_lf(op.new)
    joined = _joined(text)
    places = _exact_places(joined, old)
    if places:
        starts = _line_numbers(joined, places)
        _check_count(op, where, len(places), starts, TIERS[0])
        return _replace_exact(text, joined, places, old, new, op, policy)
    if "\n" in old:  # whole lines: fuzzy tiers too
        pattern = old.removesuffix("\n").split("\n")
        index = LineIndex(text.lines)
        for tier in TIERS[1:]:
            found = _all_places(index, pattern, tier)
            if found:
                numbers = tuple(i + 1 for i in found)
                _check_count(op, where, len(found), numbers, tier)
                return _replace_lines(text, found, len(pattern), text_lines(new), op, tier, policy, where)
    raise _not_found(text, joined, old, new, op, where)


def _joined(text: TextFile) -> str:
    """The file's text with LF endings (what replacements are matched against)."""
    body = "\n".join(text.lines)
    return body + "\n" if text.lines and text.endings[-1] else body


def _exact_places(joined: str, old: str) -> list[int]:
    places: list[int] = []
    at = joined.find(old)
    while at >= 0 and len(places) <= _MAX_PLACES:
        places.append(at)
        at = joined.find(old, at + len(old))
    return places


def _line_numbers(joined: str, offsets: Sequence[int]) -> tuple[int, ...]:
    numbers, line, last = [], 1, 0
    for offset in offsets:
        line += joined.count("\n", last, offset)
        last = offset
        numbers.append(line)
    return tuple(numbers)


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


def _check_count(op: StrReplace, where: Location, found: int, lines: tuple[int, ...], tier: Tier) -> None:
    wanted = op.expected if op.expected is not None else None if op.replace_all else 1
    if wanted is None or found == wanted:
        if found <= _MAX_PLACES:
            return
    label = op.label or "the old text"
    listing = ", ".join(map(str, lines[:_MAX_PLACES]))
    how = "" if tier is TIERS[0] else f" {TIER_WORDS[tier.name]}"
    places = "1 place" if found == 1 else f"{found} places"
    word = "line" if len(lines) == 1 else "lines"
    where_found = f"{places} in {where.shown} ({word} {listing}){how}"
    hints: tuple[str, ...] = ()
    if wanted == 1:
        message = f"{_capital(label)} matches {where_found}; it must match exactly one"
        hints = ("Add lines around it so that it matches one place only.",)
    elif wanted is None:
        message = f"{_capital(label)} matches more than {_MAX_PLACES} places in {where.shown}{how}"
    else:
        was = "was" if wanted == 1 else "were"
        message = f"{_capital(label)} matches {where_found}, but {wanted} {was} expected"
        hints = ("Nothing was replaced. Give the number of places it really has, or add lines around it to pick the places.",)
    raise ReplacementCountError(
        message,
        path=where.relative,
        patch_line=op.line,
        found=found,
        wanted=wanted,
        candidates=lines,
        tier=tier.name,
        hints=hints,
    )


def in_terms(lines: Sequence[str], noun: str) -> tuple[str, ...]:
    """Lines of `_diagnose` (written for patches) with `noun` where they say "patch"."""
    width = max(len(noun), len("file")) + 2
    renamed = []
    for line in lines:
        if line.startswith(("  patch: ", "  file:  ")):
            name = noun if line.startswith("  patch: ") else "file"
            line = f"  {name + ':':<{width}}" + line[9:]
        renamed.append(line.replace("from the patch", f"from the {noun}").replace("the patch uses", f"the {noun} uses"))
    return tuple(renamed)


def _noun(label: str) -> str:
    """How the lines of a region name the edit's side: in the format's own word."""
    if "SEARCH" in label:
        return "block"
    return next((word for word in ("old_string", "old_str") if label.startswith(word)), "edit")


def _capital(label: str) -> str:
    return label[:1].upper() + label[1:]


def _replace_exact(
    text: TextFile,
    joined: str,
    places: list[int],
    old: str,
    new: str,
    op: StrReplace,
    policy: Policy,
) -> Edited:
    """Replace `old` at each offset of `places`; untouched lines keep their endings.

    The lines a group of places touches become the lines of their replaced
    text: the last keeps the ending of the last line it replaces (so a change
    inside one line keeps that line's ending), the others take those of the
    lines they stand for, then the file's. One pass over the file.
    """
    starts = _line_starts(joined)
    ending = _new_ending(text, policy)
    lines: list[str] = []
    endings: list[str] = []
    placements = []
    kept = 0  # text.lines[kept:] are not copied yet
    for first, last, offsets in _groups(places, len(old), starts, len(text.lines), joined):
        begin = starts[first]
        region = joined[begin : starts[last + 1] if last + 1 < len(starts) else len(joined)]
        pieces, at = [], 0
        for offset in offsets:
            pieces += [region[at : offset - begin], new]
            at = offset - begin + len(old)
        pieces.append(region[at:])
        new_region = "".join(pieces)
        new_lines = new_region.removesuffix("\n").split("\n") if new_region else []
        old_endings = text.endings[first : last + 1]
        new_endings = [old_endings[i] if i < len(old_endings) - 1 else ending for i in range(len(new_lines))]
        if new_lines:
            new_endings[-1] = (old_endings[-1] or ending) if new_region.endswith("\n") else ""
        lines += text.lines[kept:first] + new_lines
        endings += text.endings[kept:first] + new_endings
        kept = last + 1
        placements.append(Placement(op.line, first + 1, TIERS[0].name, len(new_lines), last + 1 - first))
    lines += text.lines[kept:]
    endings += text.endings[kept:]
    return Edited(_finish(TextFile(lines, endings, text.bom), text, policy), tuple(placements))


def _line_starts(joined: str) -> list[int]:
    starts = [0]
    at = joined.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = joined.find("\n", at + 1)
    if starts[-1] == len(joined) and len(starts) > 1:
        starts.pop()  # the end of a file with a final newline starts no line
    return starts


def _groups(
    places: list[int], size: int, starts: list[int], count: int, joined: str
) -> list[tuple[int, int, list[int]]]:
    """The places as (first line, last line, offsets), places sharing lines in one group.

    A place's lines run from the line of its first character to the line of
    the character after it (a place that takes a line break joins the next line).
    """
    import bisect

    groups: list[tuple[int, int, list[int]]] = []
    for offset in places:
        first = bisect.bisect_right(starts, offset) - 1
        end = offset + size
        last = bisect.bisect_right(starts, end) - 1 if end < len(joined) else count - 1
        last = max(first, min(last, count - 1))
        if groups and first <= groups[-1][1]:
            previous = groups[-1]
            groups[-1] = (previous[0], max(previous[1], last), [*previous[2], offset])
        else:
            groups.append((first, last, [offset]))
    return groups


def _replace_lines(
    text: TextFile,
    found: list[int],
    size: int,
    new_lines: list[str],
    op: StrReplace,
    tier: Tier,
    policy: Policy,
    where: Location,
) -> Edited:
    """Replace `size` whole lines at each index of `found` by `new_lines` (a fuzzy match)."""
    replacements = [Replacement(i, size, tuple(new_lines)) for i in found]
    label = op.label or "the old text"
    warnings = tuple(
        PatchWarning(
            "fuzzy", where.relative, op.line, i + 1, tier.name, tuple(j + 1 for j in found),
            f"{where.relative}: {label} matched line {i + 1} only {TIER_WORDS[tier.name]}.",
        )
        for i in found
    )  # fmt: skip
    placements = tuple(Placement(op.line, i + 1, tier.name, len(new_lines), size) for i in found)
    return Edited(_finish(splice(text, replacements, policy), text, policy), placements, warnings)


def _new_ending(text: TextFile, policy: Policy) -> str:
    return _NEW_LINE_ENDING.get(policy.line_endings, text.preferred_ending)


def _finish(new: TextFile, old: TextFile, policy: Policy) -> TextFile:
    """The policies on endings, the final newline and the BOM, applied to `new`."""
    ending = _new_ending(old, policy)
    endings = new.endings
    if policy.line_endings != "keep":
        endings = [ending if e else e for e in endings]
    if endings and not endings[-1] and policy.final_newline == "add":
        endings = [*endings[:-1], ending]
    return TextFile(new.lines, list(endings), new.bom and policy.bom == "keep")


def _not_found(
    text: TextFile, joined: str, old: str, new: str, op: StrReplace, where: Location
) -> ContextNotFoundError:
    label = op.label or "the old text"
    expected = tuple(old.removesuffix("\n").split("\n"))
    region = closest_region(text.lines, expected)
    how = (
        "exactly, nor line by line ignoring whitespace and typographic punctuation"
        if "\n" in old
        else "exactly (a text without a line break is matched exactly only)"
    )
    details = [f"In {where.relative}, {label} matches nowhere, {how}."]
    details += show_region(region, expected, text.lines)
    hints = []
    if new and new in joined and new != old:
        line = joined.count("\n", 0, joined.find(new)) + 1
        hints.append(f"The edit looks already applied: its new text is at line {line}.")
    if region is not None and region.first_difference is not None:
        k = region.first_difference
        hints += line_hints(expected[region.skip + k], region.lines[k], region.start + k)
    if BOM in op.old.removeprefix(BOM):
        hints.append("The old text holds a byte-order mark (U+FEFF): leave it out.")
    return ContextNotFoundError(
        f"Failed to find {label} in {where.shown}:\n" + "\n".join(expected),
        path=where.relative,
        patch_line=op.line,
        expected=expected,
        closest=region,
        details=in_terms(details, _noun(label)),
        hints=in_terms(hints, _noun(label)),
    )


# ---------------------------------------------------------------- insertions


def insert(text: TextFile, op: Insert, policy: Policy, where: Location) -> Edited:
    """Insert `op.text`'s lines after line `op.after_line` (0: at the top)."""
    size = len(text.lines)
    if not 0 <= op.after_line <= size:
        label = op.label or "the insertion"
        raise EditError(
            f"Failed to insert into {where.shown}: {label} is after line {op.after_line}, "
            f"but the file has {size} line{'' if size == 1 else 's'} (0 inserts at the top)",
            path=where.relative,
            patch_line=op.line,
        )
    new_lines = text_lines(op.text)
    replacement = Replacement(op.after_line, 0, tuple(new_lines))
    placed = Placement(op.line, op.after_line + 1, TIERS[0].name, len(new_lines), 0)
    return Edited(_finish(splice(text, [replacement], policy), text, policy), (placed,))


# ---------------------------------------------------------------- unified-diff hunks


def apply_hunks(text: TextFile, op: ApplyHunks, policy: Policy, where: Location) -> Edited:
    """Locate every hunk of `op` in `text`, in order; raise for the first that is not there."""
    index = LineIndex(text.lines)
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    warnings: list[PatchWarning] = []
    start, drift = 0, 0
    for hunk in op.hunks:
        near = max(0, hunk.old_start - 1 + drift) if hunk.old_lines else hunk.old_start + drift
        if not hunk.old_lines:  # nothing to find: the numbers say where
            at = min(max(near, start), len(text.lines))
            tier = TIERS[0]
        else:
            at, tier = _place_hunk(index, hunk, start, near, text, op, where, policy)
        drift = at - (hunk.old_start - 1 if hunk.old_lines else hunk.old_start)
        replacements.append(Replacement(at, len(hunk.old_lines), hunk.new_lines, hunk.new_endings))
        placements.append(Placement(hunk.line, at + 1, tier.name, hunk.added, hunk.removed))
        if tier is not TIERS[0]:
            label = f"the hunk at line {hunk.line}"
            warnings.append(PatchWarning(
                "fuzzy", where.relative, hunk.line, at + 1, tier.name, (at + 1,),
                f"{where.relative}: {label} matched line {at + 1} only {TIER_WORDS[tier.name]}.",
            ))  # fmt: skip
        start = at + len(hunk.old_lines)
    spliced = splice(text, replacements, policy)
    new_text = with_explicit_endings(spliced, replacements, policy)
    return Edited(_finish(new_text, text, policy), tuple(placements), tuple(warnings))


def _place_hunk(
    index: LineIndex,
    hunk: DiffHunk,
    start: int,
    near: int,
    text: TextFile,
    op: ApplyHunks,
    where: Location,
    policy: Policy,
) -> tuple[int, Tier]:
    """The place of a hunk at or after `start`: the winning tier's place nearest `near`.

    With the policy `ambiguous="error"` (`--unique`), several places are an error.
    """
    pattern = list(hunk.old_lines)
    for tier in TIERS:
        places: list[int] = []
        at = start
        while len(places) < _MAX_PLACES:
            match = index.seek(pattern, at, eof=hunk.old_ends_file, tiers=(tier,))
            if match is None:
                break
            places.append(match.index)
            at = match.index + 1
        if len(places) > 1 and policy.ambiguous == "error":
            numbers = tuple(p + 1 for p in places)
            raise AmbiguousChunkError(
                f"The hunk at line {hunk.line} matches {len(places)} places in {where.shown} "
                f"(lines {', '.join(map(str, numbers))}); add context lines so that it matches one place only",
                path=where.relative,
                patch_line=hunk.line,
                candidates=numbers,
            )
        if places:
            return min(places, key=lambda p: (abs(p - near), p)), tier
    raise _hunk_not_found(index, hunk, start, text, op, where)


def _hunk_not_found(
    index: LineIndex, hunk: DiffHunk, start: int, text: TextFile, op: ApplyHunks, where: Location
) -> ContextNotFoundError:
    expected = hunk.old_lines
    region = closest_region(text.lines, expected)
    said = f"its header says line {hunk.old_start}" if hunk.old_start else "its header gives no line"
    details = [
        f"In {where.relative}, the hunk at diff line {hunk.line} matches nowhere "
        f"(searched by content from line {start + 1}; {said})."
    ]
    details += show_region(region, expected, text.lines)
    hints = []
    new = list(hunk.new_lines)
    if new and new != list(expected) and (applied := index.seek(new, 0)) is not None:
        hints.append(f"The diff looks already applied: the hunk's new lines are at line {applied.index + 1}.")
    if region is not None and region.start < start:
        hints.append(
            f"The closest region is above line {start + 1}, where the search started: "
            "hunks must follow the order of the file."
        )
    if region is not None and region.first_difference is not None:
        k = region.first_difference
        hints += line_hints(expected[region.skip + k], region.lines[k], region.start + k)
    return ContextNotFoundError(
        f"Failed to find the hunk at line {hunk.line} in {where.shown}:\n" + "\n".join(expected),
        path=where.relative,
        patch_line=hunk.line,
        expected=tuple(expected),
        closest=region,
        details=in_terms(details, "hunk"),
        hints=in_terms(hints, "hunk"),
    )
