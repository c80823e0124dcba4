"""Failures → explanations a model can act on (pure, nothing on disk): every format's
"not found", "ambiguous", "count" and "already applied" messages are built here, the
edit's label and noun (patch, hunk, block, old_str...) passed as data.

A chunk that matches nowhere gets the closest region of the file with line
numbers, the first line that differs (patch and file side by side), and hints
when a cause is recognisable. Imported only when a chunk fails (start-up time:
it brings `_closest`); the doubts about chunks that were placed are `_doubts`.
"""

from __future__ import annotations

import re

from ...format import Chunk, cut as _cut, quoted as _quoted
from ._closest import Region, closest_region, similar_lines
from ..._errors import (
    AmbiguousBlankLinesError,
    AmbiguousChunkError,
    ContextNotFoundError,
    EditError,
    IndentUnitError,
    ReplacementCountError,
)
from ._names import FileName
from ._doubts import TIER_WORDS, line_ranges, listing as _listing
from ._seek import LineIndex
from ._textfile import BOM

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Sequence
    from typing import Final

    from ._gaps import BlankDoubt


_AROUND: Final = 2  # file lines shown before and after the closest region
# What follows `@@ ` in a unified diff's hunk header (`@@ -1,2 +1,2 @@ def f():`), with the
# section heading git writes after it. Compiled when first used (a failure): start-up time.
_HUNK_HEADER: Final = r"-\d+(?:,\d+)? \+\d+(?:,\d+)? @@[ \t]?(.*)"

def missing_chunk(
    index: LineIndex,
    lines: Sequence[str],
    chunk: Chunk,
    start: int,
    where: FileName,
) -> ContextNotFoundError:
    """The error for a chunk found nowhere at or after line index `start`."""
    expected = tuple(chunk.old_lines)
    region = closest_region(lines, expected, index)
    searched = (
        "searched only at the end of the file, as it ends with *** End of File"
        if chunk.is_end_of_file
        else f"searched from line {start + 1}"
    )
    if chunk.near is not None:
        searched += f"; its header says line {chunk.near + 1}"
    details = [f"In {where.relative}, {chunk.name} matches nowhere ({searched})."]
    # No region: the lines most like the first are shown and hinted at; found once.
    nearest = _most_like_first(expected, lines, index) if region is None else None
    details += show_region(region, expected, lines, nearest, noun=chunk.noun)
    hints = _chunk_hints(index, lines, chunk, expected, region, start, nearest)
    title = f"Failed to find {chunk.label or 'expected lines'} in {where.shown}"
    return lines_not_found(title, where, chunk.line, expected, details, hints, region)


def lines_not_found(
    title: str,
    where: FileName,
    line: int,
    expected: Sequence[str],
    details: Sequence[str],
    hints: Sequence[str],
    region: Region | None = None,
) -> ContextNotFoundError:
    """The error of `expected` lines not placed in the file at `where` (patch or edit
    `line`): `title`, then the lines; `details` say where and how they differ (`region`,
    the closest lines), `hints` what to send instead. Every format's "not found" is one."""
    return ContextNotFoundError(
        f"{title}:\n" + "\n".join(expected),
        path=where.relative,
        patch_line=line,
        expected=tuple(expected),
        closest=region,
        details=tuple(details),
        hints=tuple(hints),
    )


def missing_context(
    index: LineIndex, lines: Sequence[str], chunk: Chunk, context: str, start: int, where: FileName
) -> ContextNotFoundError:
    """The error for an `@@ context` line found nowhere at or after line index `start`.

    An `@@ -1,2 +1,2 @@` line is a unified diff's hunk header: it is said so,
    rather than that its numbers are not in the file (`_hunk_header`).
    """
    header = re.fullmatch(_HUNK_HEADER, context)
    if header is not None:
        return _hunk_header(chunk, context, header.group(1).strip(), where)
    details = [
        f"In {where.relative}, the @@ line at patch line {chunk.line} matches no line "
        f"(searched from line {start + 1})."
    ]
    nearest = similar_lines(lines, context, index=index)
    if nearest:
        details.append("Lines most like it:")
        details += [_numbered(i, lines[i], len(lines)) for i in nearest]
    earlier = index.seek([context], 0)
    if earlier is not None and earlier.index < start:
        hints = [
            f"'{context}' is at line {earlier.index + 1}, above where the search started: "
            "chunks and their @@ lines must follow the order of the file."
        ]
    else:
        hints = ["An @@ line must repeat a line of the file (a class or function line above the change)."]
    return ContextNotFoundError(
        f"Failed to find context '{context}' in {where.shown}",
        path=where.relative,
        patch_line=chunk.line,
        expected=(context,),
        context=context,
        closest=Region(nearest[0], (lines[nearest[0]],), 0) if nearest else None,
        details=tuple(details),
        hints=tuple(hints),
    )


def _hunk_header(chunk: Chunk, context: str, section: str, where: FileName) -> ContextNotFoundError:
    """The error for a unified diff's hunk header used as an `@@` line (`section`: the
    heading after it, such as `def f():`, or "")."""
    instead = "'@@' alone" + (f", or '@@ {section}'" if section else "")
    return ContextNotFoundError(
        f"'@@ {context}' is a unified diff's hunk header, not an @@ line of this format "
        f"(in {where.shown})",
        path=where.relative,
        patch_line=chunk.line,
        expected=(context,),
        context=context,
        details=(
            f"In {where.relative}, the @@ line at patch line {chunk.line} has line numbers. "
            "An @@ line of this format holds no numbers: it is '@@' alone, or '@@ ' and a line "
            "of the file to search for (the class or function the change is in).",
        ),
        hints=(f"Write {instead} in its place: chunks are found by their lines, not by numbers.",),
    )


def ambiguity_error(chunk: Chunk, places: tuple[int, ...], where: FileName) -> AmbiguousChunkError:
    """The refusal of a chunk that fits at several 1-based `places`, the order of the chunks kept.

    `places` are where the chunk itself would land, also for a chunk with `@@` lines
    (not where its `@@` line matches: what the model must tell apart is the chunk's places).
    """
    line, what = chunk.line, _capital(chunk.name)
    if chunk.contexts:
        verb, remedy = "fits", "an @@ line above its @@ line (its class) or more context lines"
    else:
        verb = "matches"
        remedy = "more context lines" if chunk.near is not None else "context lines or an @@ line"
    return AmbiguousChunkError(
        f"{what} {verb} {len(places)} places in {where.shown} "
        f"(lines {_listing(places)}); add {remedy} so that it {verb} one place only",
        path=where.relative,
        patch_line=line,
        candidates=places,
    )


def readings_error(chunk: Chunk, spans: tuple[tuple[int, int], ...], where: FileName) -> AmbiguousChunkError:
    """The refusal of a chunk whose placeholder line (`...`) can stand for the file's lines in
    several ways: `spans` are the 1-based first and last lines of each reading."""
    ranges = ", ".join(f"lines {first}-{last}" for first, last in spans)
    firsts = tuple(dict.fromkeys(first for first, _ in spans))
    candidates = firsts if len(firsts) == len(spans) else tuple(last for _, last in spans)
    lasts = {last for _, last in spans}
    repeated = "after it" if len(firsts) == 1 else "before it" if len(lasts) == 1 else "before it and after it"
    return AmbiguousChunkError(
        f"{_capital(chunk.name)} elides lines with a placeholder that can be read {len(spans)} ways "
        f"in {where.shown} ({ranges}): the lines {repeated} occur more than once; send the lines "
        "around the change instead of the placeholder so that one reading fits",
        path=where.relative,
        patch_line=chunk.line,
        candidates=candidates,
    )


def blank_readings_error(
    chunk: Chunk, doubt: BlankDoubt, lines: Sequence[str], where: FileName
) -> AmbiguousBlankLinesError:
    """The refusal of a chunk that fits one place once blank lines are ignored, whose blank
    lines read more than one way there (`_gaps.blank_doubt`): the place and each run of the
    file's blank lines the chunk has at another length, then the file's `lines` around
    those runs, so that one retry copies them."""
    who = {"patch": "the chunk", "edit": "the old text"}.get(chunk.noun, f"the {chunk.noun}")
    runs = []
    for run in doubt.runs:
        if run.file:
            span = f"line {run.first + 1}" if run.file == 1 else f"lines {run.first + 1}-{run.first + run.file}"
        else:
            span = f"after line {run.first}" if run.first else "before line 1"
        has = f"{run.file} blank line{'s' if run.file != 1 else ''}" if run.file else "no blank line"
        runs.append(f"{span}: {has} in the file, {run.chunk or 'none'} in {who}")
    return AmbiguousBlankLinesError(
        f"{_capital(chunk.name)} matches {where.shown} at lines {doubt.first + 1}-{doubt.last + 1} only once "
        "blank lines are ignored, and its blank lines can be read more than one way there (the file's "
        f"kept or removed, before or after the lines it adds): {'; '.join(runs)}; send the lines around "
        "the change with the blank lines as the file has them",
        path=where.relative,
        patch_line=chunk.line,
        candidates=(doubt.first + 1,),
        details=_blank_runs_shown(doubt, lines),
    )


def _blank_runs_shown(doubt: BlankDoubt, lines: Sequence[str]) -> tuple[str, ...]:
    """The file's lines around each run of `doubt` (the line with text above and below it),
    numbered, the run's own lines marked `>`; a gap between such stretches shown as `...`."""
    marked = {run.first + k for run in doubt.runs for k in range(run.file)}
    shown: set[int] = set()
    for run in doubt.runs:
        shown.update(range(max(run.first - 1, 0), min(run.first + run.file + 1, len(lines))))
    out = ["The file's lines there (> marks the blank lines that differ):"]
    last = max(shown) + 1
    previous = None
    for index in sorted(shown):
        if previous is not None and index > previous + 1:
            out.append("  ...")
        out.append((">" if index in marked else " ") + _numbered(index, lines[index], last))
        previous = index
    return tuple(out)


def indentation_error(
    chunk: Chunk, lines: Sequence[str], start: int, end: int, why: str, where: FileName
) -> ContextNotFoundError:
    """The refusal of a chunk found only ignoring leading whitespace, whose indentation
    cannot be carried over to the file's (`why`); the file's lines are shown."""
    expected = tuple(chunk.old_lines)
    region = Region(start, tuple(lines[start:end]), None)
    details = [
        f"In {where.relative}, {chunk.name} matches lines {start + 1}-{end} only once leading "
        f"whitespace is ignored, and {why}."
    ]
    details += show_region(region, expected, lines, noun=chunk.noun)
    title = f"Failed to find {chunk.label or 'expected lines'} in {where.shown} with the file's indentation"
    hints = (f"Send the {chunk.noun} again with the file's indentation, as shown above.",)
    return lines_not_found(title, where, chunk.line, expected, details, hints, region)


def unit_error(where: FileName, patch_line: int | None, numbers: tuple[int, ...], sent: str, unit: str) -> IndentUnitError:
    """The refusal of added lines (1-based `numbers` in the new file) sent indented with
    `sent` where the file around them uses `unit` throughout, the width of a level unknown."""
    what = f"lines {', '.join(line_ranges(numbers))}" if len(numbers) > 1 else f"line {numbers[0]}"
    doubt = "how many spaces a tab stands for" if sent == "tabs" else f"how many {sent} make one level"
    return IndentUnitError(
        f"{where.relative}: {what} of the new text {'are' if len(numbers) > 1 else 'is'} indented with {sent} "
        f"where the file around {'them' if len(numbers) > 1 else 'it'} is indented with {unit} throughout, "
        f"and {doubt} cannot be told: send {'them' if len(numbers) > 1 else 'it'} "
        f"again indented with {unit}, as the file is.",
        path=where.relative, patch_line=patch_line, lines=numbers,
    )  # fmt: skip


def uncertain_pair_error(
    chunk: Chunk, text: str, start: int, at: int, found: str, where: FileName
) -> ContextNotFoundError:
    """The refusal of a replacement found only by a tolerant tier at 0-based `start`, one of
    whose kept lines, `text` (the file's line `at` is `found`), occurs more than once in its
    old or new text: which of them keeps the file's own text cannot be told. The file's
    line is shown as it is (a model cannot see the trailing whitespace it read)."""
    details = (
        f"In {where.relative}, {chunk.name} matches line {start + 1} only once whitespace or "
        f"typographic punctuation is ignored, and line {at + 1} of the file, {_quoted(text)} "
        f"in the edit and {_quoted(found)} in the file, occurs more than once in its old or "
        "new text: which of them keeps the file's own text there cannot be told.",
    )
    title = f"Failed to find {chunk.label or 'expected lines'} in {where.shown} as written"
    hints = (f"Send the {chunk.noun} again with the file's lines exactly as they are.",)
    return lines_not_found(title, where, chunk.line, chunk.old_lines, details, hints)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def already_applied(noun: str, what: str, line: int) -> str:
    """The hint that an edit (its `noun`) not found looks applied: its new `what` (lines,
    text) are at 1-based `line`."""
    return f"The {noun} looks already applied: its new {what} {'is' if what == 'text' else 'are'} at line {line}."


def text_not_found(
    label: str,
    noun: str,
    expected: tuple[str, ...],
    region: Region | None,
    lines: Sequence[str],
    where: FileName,
    line: int,
    applied: int | None,
    *,
    by_lines: bool,
    holds_bom: bool,
) -> ContextNotFoundError:
    """The error of a replacement's old text (`label`, its format's `noun` for its lines; its
    `expected` lines) found nowhere in
    the file's `lines`: the closest `region`, where its new text already is (`applied`, a
    1-based line), a byte-order mark it holds. `by_lines`: the old text holds a line break,
    so it was searched line by line too."""
    label = label or "the old text"
    how = (
        "exactly, nor line by line ignoring whitespace and typographic punctuation"
        if by_lines
        else "exactly (a text without a line break is matched exactly only)"
    )
    details = [f"In {where.relative}, {label} matches nowhere, {how}."]
    details += show_region(region, expected, lines, noun=noun)
    hints = [] if applied is None else [already_applied(noun, "text", applied)]
    if region is not None and region.first_difference is not None:
        k = region.first_difference
        hints += line_hints(expected[region.skip + k], region.lines[k], region.start + k, noun)
    if holds_bom:
        hints.append("The old text holds a byte-order mark (U+FEFF): leave it out.")
    return lines_not_found(f"Failed to find {label} in {where.shown}", where, line, expected, details, hints, region)


def count_error(
    label: str,
    where: FileName,
    line: int,
    found: int,
    lines: tuple[int, ...],
    tier: str,
    wanted: int | None,
    most: int,
) -> ReplacementCountError:
    """The refusal of a replacement (`label`, patch `line`) whose old text matches `found`
    places (at 1-based `lines`, by `tier`) where its count rule wants `wanted` (None:
    every place, at most `most`)."""
    lines = lines[:most]
    if wanted == 1:
        hints = ("Add lines around it so that it matches one place only.",)
        return _places_error(label, where, line, lines, tier, "; it must match exactly one", hints, found=found)
    if wanted is None:
        message = f"{_capital(label or 'the old text')} matches more than {most} places in {where.shown}{_how(tier)}"
        return _places_error(label, where, line, lines, tier, "", (), found=found, wanted=None, message=message)
    was = "was" if wanted == 1 else "were"
    hints = ("Nothing was replaced. Give the number of places it really has, or add lines around it to pick the places.",)
    return _places_error(label, where, line, lines, tier, f", but {wanted} {was} expected", hints, found=found, wanted=wanted)


def choice_error(label: str, where: FileName, line: int, lines: tuple[int, ...], tier: str, why: str) -> ReplacementCountError:
    """The refusal of a replacement whose `occurrence` or `near_line` picks none of its places
    (at 1-based `lines`), or two: `why`."""
    hints = (
        f"Nothing was replaced. Give occurrence (1 to {len(lines)}, in file order) or a near_line "
        "nearer one place than the others.",
    )
    return _places_error(label, where, line, lines, tier, why, hints, found=len(lines))


def _places_error(
    label: str,
    where: FileName,
    line: int,
    lines: tuple[int, ...],
    tier: str,
    why: str,
    hints: tuple[str, ...],
    *,
    found: int,
    wanted: int | None = 1,
    message: str = "",
) -> ReplacementCountError:
    """A replacement's places listed (`lines`, by `tier`), then `why` (or `message` whole)."""
    label = label or "the old text"
    places = "1 place" if found == 1 else f"{found} places"
    word = "line" if len(lines) == 1 else "lines"
    where_found = f"{places} in {where.shown} ({word} {_listing(lines)}){_how(tier)}"
    return ReplacementCountError(
        message or f"{_capital(label)} matches {where_found}{why}",
        path=where.relative,
        patch_line=line,
        found=found,
        wanted=wanted,
        candidates=lines,
        tier=tier,
        hints=hints,
    )


def _how(tier: str) -> str:
    """How a tolerant `tier` found the places, as a message's end ("" for an exact match)."""
    return "" if tier == "exact" else f" {TIER_WORDS[tier]}"


def insertion_out_of_range(label: str, after: int, size: int, where: FileName, line: int) -> EditError:
    """The refusal of an insertion after line `after` of a file of `size` lines."""
    return EditError(
        f"Failed to insert into {where.shown}: {label or 'the insertion'} is after line {after}, "
        f"but the file has {size} line{'' if size == 1 else 's'} (0 inserts at the top)",
        path=where.relative,
        patch_line=line,
    )


def _chunk_hints(
    index: LineIndex,
    lines: Sequence[str],
    chunk: Chunk,
    expected: tuple[str, ...],
    region: Region | None,
    start: int,
    nearest: tuple[str, list[int]] | None,
) -> list[str]:
    """The hints for a chunk not found; `nearest`: `_most_like_first`, given when there is no region."""
    hints = []
    new = chunk.new_lines
    if new and new != list(expected) and (applied := index.seek(new, 0)) is not None:
        hints.append(already_applied(chunk.noun, "lines", applied.index + 1))
    if region is not None and region.start < start and not chunk.is_end_of_file:
        hints.append(
            f"The closest region is above line {start + 1}, where the search started: "
            f"{'chunk' if chunk.noun == 'patch' else chunk.noun}s must follow the order of the file."
        )
    if chunk.is_end_of_file and region is not None and region.start + len(expected) < len(lines):
        hints.append("*** End of File pins the chunk to the last lines of the file.")
    if nearest is not None:
        first, alike = nearest
        hints += line_hints(first, lines[alike[0]], alike[0], chunk.noun) if alike else []
    elif region is not None and region.first_difference is not None:
        k = region.first_difference
        invented = _invented_blank(expected, region, chunk.noun)
        if invented is not None:
            hints.append(invented)
        else:
            hints += line_hints(expected[region.skip + k], region.lines[k], region.start + k, chunk.noun)
    if any(BOM in line for line in expected):
        hints.append(f"The {chunk.noun} holds a byte-order mark (U+FEFF): leave it out, a file's BOM is never part of its lines.")
    if any("\r" in line for line in expected):
        hints.append(f"The {chunk.noun}'s lines hold carriage returns (\\r): leave them out, line endings are kept as they are.")
    return hints


def _invented_blank(expected: Sequence[str], region: Region, noun: str) -> str | None:
    """The hint when the first difference is an empty patch line where the file goes on
    with the patch's next line: an empty line the model invented."""
    assert region.first_difference is not None
    k = region.first_difference
    at = region.skip + k
    file_line = region.lines[k]
    if expected[at].strip() or at + 1 >= len(expected) or not file_line.strip():
        return None
    if expected[at + 1].strip() != file_line.strip():
        return None
    return (
        f"The {noun} has an empty line where line {region.start + k + 1} of the file is "
        f"{_quoted(file_line)}: the file has no empty line there, remove it from the {noun} "
        "(an empty line in a chunk is a context line)."
    )


def line_hints(patch_line: str, file_line: str, offset: int, noun: str = "patch") -> list[str]:
    """Hints for a line of the `noun` (the patch, a hunk, an edit) that differs from the file
    line (1-based line `offset + 1`) by a recognisable cause."""
    number = offset + 1
    if " ".join(patch_line.split()) == " ".join(file_line.split()):
        if ("\t" in patch_line) != ("\t" in file_line):
            uses = "tabs" if "\t" in file_line else "spaces"
            other = "spaces" if uses == "tabs" else "tabs"
            return [f"Line {number} of the file uses {uses} where the {noun} uses {other}."]
        return [f"Line {number} of the file differs from the {noun} only in the spacing inside the line."]
    if patch_line.casefold() == file_line.casefold():
        return [f"Line {number} of the file differs from the {noun} only in letter case."]
    import unicodedata  # only on this error path

    if unicodedata.normalize("NFC", patch_line) == unicodedata.normalize("NFC", file_line):
        return [
            f"Line {number} of the file differs from the {noun} only in Unicode normalisation "
            "(composed vs decomposed accents)."
        ]
    return []


def _absent(
    expected: Sequence[str], lines: Sequence[str], found: tuple[str, list[int]] | None, noun: str
) -> list[str]:
    """Says that no expected line is in the file, and which lines are most like the first
    (the most alike side by side with it; `found`: `_most_like_first`, if already known)."""
    shown = ["None of these lines is in the file, even ignoring surrounding whitespace."]
    first, nearest = found or _most_like_first(expected, lines)
    if nearest:
        shown.append("Lines most like the first of them:")
        shown += [_numbered(i, lines[i], len(lines)) for i in nearest]
        shown += side_by_side(noun, first, lines[nearest[0]])
    return shown


def _most_like_first(
    expected: Sequence[str], lines: Sequence[str], index: LineIndex | None = None
) -> tuple[str, list[int]]:
    """The first non-blank expected line, and the indices of the file's lines most like it
    (`index`: the search's over `lines`, if the caller has one)."""
    first = next((line for line in expected if line.strip()), "")
    return first, similar_lines(lines, first, index=index) if first else []


def show_region(
    region: Region | None,
    expected: Sequence[str],
    lines: Sequence[str],
    nearest: tuple[str, list[int]] | None = None,
    *,
    noun: str = "patch",
) -> list[str]:
    """The region with `_AROUND` more lines each side; `>` marks the first difference.

    No region (no expected line is in the file): says so, with the lines most like the
    first (`nearest`: what `_most_like_first` gave, when the caller has it already).
    """
    if region is None:
        return _absent(expected, lines, nearest, noun)
    end = region.start + len(region.lines)
    first, last = max(0, region.start - _AROUND), min(len(lines), end + _AROUND)
    marking = (
        "the lines expected are all there"
        if region.first_difference is None
        else "> marks the first line that differs"
    )
    shown = [
        f"Closest region of the file: {_span(region.start + 1, end)} "
        f"(lines {first + 1}-{last} shown, {marking}):"
    ]
    marked = None if region.first_difference is None else region.start + region.first_difference
    for index in range(first, last):
        shown.append((">" if index == marked else " ") + _numbered(index, lines[index], last))
    if region.first_difference is not None:
        k = region.first_difference
        shown += side_by_side(noun, expected[region.skip + k], region.lines[k])
    return shown


def side_by_side(noun: str, expected: str, found: str) -> list[str]:
    """A line as the `noun` (patch, hunk, edit...) has it above the file's, aligned."""
    width = max(len(noun), len("file")) + 2
    return [f"  {noun + ':':<{width}}{_quoted(expected)}", f"  {'file:':<{width}}{_quoted(found)}"]


def _span(first: int, last: int) -> str:
    """`line 5` or `lines 5-7`."""
    return f"line {first}" if first == last else f"lines {first}-{last}"


def _numbered(index: int, line: str, last: int) -> str:
    width = len(str(last))
    return f" {index + 1:>{width}} | {_cut(line)}"


def prepare_refusals() -> None:
    """Imports now what explaining a refusal brings (this module and its closest region,
    which importing it does; the blank-line readings, `_gaps`; difflib), all imported at a
    run's first failure otherwise (start-up time): for a caller whose first refusal must
    come as soon as the next (the streaming plan, whose verdicts each have 5 ms)."""
    import difflib  # noqa: F401  (what `_closest` imports when first used)

    from . import _gaps  # noqa: F401
