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

from .._dataclass import dataclass

from ..format import constants as C, Chunk, UpdateFile
from ._doubts import PatchWarning, ambiguous_context, doubts
from ._paths import Location
from .._policy import Policy
from ._seek import TIERS, Match, LineIndex
from ._textfile import BOM, TextFile

_NEW_LINE_ENDING = {"lf": "\n", "crlf": "\r\n"}


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a chunk landed: its patch line, the 1-based file line, the tier,
    and the lines it added and removed."""

    patch_line: int
    file_line: int
    tier: str
    added: int
    removed: int


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


@dataclass(frozen=True, slots=True)
class Located:
    """The outcome for one file: its new text, where each chunk landed, the doubts."""

    text: TextFile
    placements: tuple[Placement, ...]
    warnings: tuple[PatchWarning, ...]


def update_lines(text: TextFile, update: UpdateFile, policy: Policy, where: Location) -> Located:
    """Apply every chunk of `update` to `text`; raise ContextNotFoundError if one is not there."""
    replacements, placements, warnings = locate(text.lines, update.chunks, policy, where)
    new_text = with_explicit_endings(splice(text, replacements, policy), replacements, policy)
    return Located(new_text, tuple(placements), tuple(warnings))


def locate(
    lines: list[str], chunks: tuple[Chunk, ...], policy: Policy, where: Location
) -> tuple[list[Replacement], list[Placement], list[PatchWarning]]:
    """Find every chunk in `lines`, in order; raise for the first that is not there."""
    index = LineIndex(lines)
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    placed: list[tuple[Chunk, list[str], Match]] = []
    warnings: list[PatchWarning] = []
    line_index = 0
    for chunk in chunks:
        anchor, line_index, anchors = _narrow(index, lines, chunk, line_index, where)
        if not any(s[0] != C.ADDED for s in chunk.lines):
            at = _insertion_point(chunk, anchor, line_index, len(lines), policy)
            if at == line_index and anchor is not None:  # placed right after its @@ line
                warnings += _context_doubts(chunk, anchors, None, index, policy, where)
            replacements.append(Replacement(at, 0, tuple(chunk.new_lines), chunk.added_endings))
            placements.append(Placement(chunk.line, at + 1, TIERS[0].name, chunk.added, 0))
            continue
        used, endings, pattern, match = _find_chunk(index, lines, chunk, line_index, anchor, where)
        warnings += _context_doubts(chunk, anchors, (pattern, match), index, policy, where)
        if match.tier is not TIERS[0]:
            used = _without_copied_whitespace(used, match.index, lines)
        placed.append((chunk, pattern, match))
        replacements.extend(_replacements(used, match.index, endings))
        added, removed = (sum(1 for s in used if s[0] == op) for op in (C.ADDED, C.REMOVED))
        placements.append(Placement(chunk.line, match.index + 1, match.tier.name, added, removed))
        line_index = match.index + len(pattern)
    warnings += doubts(index, lines, placed, where)
    for warning in warnings:
        if warning.kind == "ambiguous" and policy.ambiguous == "error":
            from ._diagnose import ambiguity_error  # failures only: start-up time

            raise ambiguity_error(warning, where)
    return replacements, placements, warnings


_MAX_CANDIDATES = 10  # places of an ambiguous chunk or @@ line listed (and searched)


def _narrow(
    index: LineIndex, lines: list[str], chunk: Chunk, line_index: int, where: Location
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
    policy: Policy,
    where: Location,
) -> list[PatchWarning]:
    """Warnings (or the error) for `@@` lines that match several places, when the choice matters.

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
        warning = ambiguous_context(chunk, number, tuple(p + 1 for p in places), tier, where)
        if policy.ambiguous == "error":
            from ._diagnose import ambiguity_error  # failures only: start-up time

            raise ambiguity_error(warning, where, context=True)
        doubts.append(warning)
    return doubts


def _without_copied_whitespace(
    used: tuple[str, ...], start: int, lines: list[str]
) -> tuple[str, ...]:
    """`used` with trailing whitespace off the added lines that replace a removed line
    whose patch text has trailing whitespace and whose file line has none."""
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
                if patch_text != patch_text.rstrip() and file_line == file_line.rstrip():
                    result[number] = line.rstrip()
            taken += 1
    return tuple(result)


def _insertion_point(
    chunk: Chunk, anchor: int | None, line_index: int, size: int, policy: Policy
) -> int:
    if anchor is not None and not chunk.is_end_of_file and policy.pure_addition == "after-context":
        return line_index
    return size


def _find_chunk(
    index: LineIndex,
    lines: list[str],
    chunk: Chunk,
    line_index: int,
    anchor: int | None,
    where: Location,
) -> tuple[tuple[str, ...], tuple[str | None, ...], list[str], Match]:
    """Search the chunk, then retry at its `@@` line, then without a trailing blank line.

    Returns the chunk lines used, their explicit endings (one per line, None
    for none), the pattern searched, and the match.
    """
    explicit = dict(chunk.endings)
    variants = [(chunk.lines, tuple(explicit.get(i) for i in range(len(chunk.lines))))]
    trimmed = _without_trailing_blank(*variants[0])
    if trimmed is not None:
        variants.append(trimmed)
    without_bom = _without_bom(chunk.lines) if line_index == 0 else None
    if without_bom is not None:
        variants.insert(1, (without_bom, variants[0][1]))
    starts = [line_index] if anchor is None else [line_index, anchor]
    for used, endings in variants:
        pattern = [s[1:] for s in used if s[0] != C.ADDED]
        for start in starts:
            match = index.seek(pattern, start, eof=chunk.is_end_of_file)
            if match is not None and (used is not without_bom or match.index == 0):
                return used, endings, pattern, match
    from ._diagnose import missing_chunk  # failures only: start-up time

    raise missing_chunk(index, lines, chunk, line_index, where)


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


def _replacements(
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


def splice(text: TextFile, replacements: list[Replacement], policy: Policy) -> TextFile:
    """Apply `replacements` in file order; new lines get the file's ending."""
    ending = _NEW_LINE_ENDING.get(policy.line_endings, text.preferred_ending)
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
    if policy.line_endings != "keep":
        endings = [ending] * len(lines)
    _fix_last_endings(endings, ending, keep_missing=_keeps_missing_newline(text, policy))
    return TextFile(lines, endings, text.bom and policy.bom == "keep")


def with_explicit_endings(
    text: TextFile, replacements: list[Replacement], policy: Policy
) -> TextFile:
    """`text` (from `splice`) with the explicit endings of the new lines.

    No ending ("") is honoured on the file's last line only; a forced
    `lf`/`crlf` policy keeps its own ending on every terminated line.
    """
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
    try:  # the old last line, no longer last
        endings[endings.index("", 0, len(endings) - 1)] = ending
    except ValueError:
        pass
    endings[-1] = "" if keep_missing else (endings[-1] or ending)

