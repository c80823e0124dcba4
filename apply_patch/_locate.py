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
  the end of the file, policy `"end"`).
"""

from ._dataclass import dataclass

from . import _constants as C
from ._errors import ContextNotFoundError
from ._model import Chunk, UpdateFile
from ._policy import Policy
from ._seek import TIERS, LineIndex, Match
from ._textfile import TextFile

_NEW_LINE_ENDING = {"lf": "\n", "crlf": "\r\n"}


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a chunk landed: its patch line, the 1-based file line, the tier."""

    patch_line: int
    file_line: int
    tier: str


@dataclass(frozen=True, slots=True)
class Replacement:
    """Replace `old_len` lines from index `start` with `new_lines`."""

    start: int
    old_len: int
    new_lines: tuple[str, ...]


def update_lines(
    text: TextFile, update: UpdateFile, policy: Policy, shown: str
) -> tuple[TextFile, list[Placement]]:
    """Apply every chunk of `update` to `text`; `shown` names the file in errors."""
    replacements, placements = locate(text.lines, update.chunks, policy, shown)
    return splice(text, replacements, policy), placements


def locate(
    lines: list[str], chunks: tuple[Chunk, ...], policy: Policy, shown: str
) -> tuple[list[Replacement], list[Placement]]:
    """Find every chunk in `lines`; raise ContextNotFoundError for the first that is not there."""
    index = LineIndex(lines)
    replacements: list[Replacement] = []
    placements: list[Placement] = []
    line_index = 0
    for chunk in chunks:
        anchor, line_index = _narrow(index, chunk, line_index, shown)
        if not any(s[0] != C.ADDED for s in chunk.lines):
            at = _insertion_point(chunk, anchor, line_index, len(lines), policy)
            replacements.append(Replacement(at, 0, tuple(chunk.new_lines)))
            placements.append(Placement(chunk.line, at + 1, TIERS[0].name))
            continue
        used, match = _find_chunk(index, chunk, line_index, anchor, shown)
        replacements.extend(_replacements(used, match.index))
        placements.append(Placement(chunk.line, match.index + 1, match.tier.name))
        line_index = match.index + sum(1 for s in used if s[0] != C.ADDED)
    return replacements, placements


def _narrow(index: LineIndex, chunk: Chunk, line_index: int, shown: str) -> tuple[int | None, int]:
    """Follow the chunk's `@@` lines; return the last one's index and where to search next."""
    anchor = None
    for context in chunk.contexts:
        match = index.seek([context], line_index)
        if match is None:
            raise ContextNotFoundError(
                f"Failed to find context '{context}' in {shown}",
                path=shown,
                patch_line=chunk.line,
                expected=(context,),
                context=context,
            )
        anchor, line_index = match.index, match.index + 1
    return anchor, line_index


def _insertion_point(
    chunk: Chunk, anchor: int | None, line_index: int, size: int, policy: Policy
) -> int:
    if anchor is not None and not chunk.is_end_of_file and policy.pure_addition == "after-context":
        return line_index
    return size


def _find_chunk(
    index: LineIndex, chunk: Chunk, line_index: int, anchor: int | None, shown: str
) -> tuple[tuple[str, ...], Match]:
    """Search the chunk, then retry at its `@@` line, then without a trailing blank line."""
    variants = [chunk.lines]
    trimmed = _without_trailing_blank(chunk.lines)
    if trimmed is not None:
        variants.append(trimmed)
    starts = [line_index] if anchor is None else [line_index, anchor]
    for lines in variants:
        pattern = [s[1:] for s in lines if s[0] != C.ADDED]
        for start in starts:
            match = index.seek(pattern, start, eof=chunk.is_end_of_file)
            if match is not None:
                return lines, match
    expected = tuple(chunk.old_lines)
    raise ContextNotFoundError(
        f"Failed to find expected lines in {shown}:\n" + "\n".join(expected),
        path=shown,
        patch_line=chunk.line,
        expected=expected,
    )


def _without_trailing_blank(lines: tuple[str, ...]) -> tuple[str, ...] | None:
    """The reference's retry: drop a trailing empty expected line (and empty new line)."""
    old = [i for i, s in enumerate(lines) if s[0] != C.ADDED]
    if not old or lines[old[-1]] not in (C.CONTEXT, C.REMOVED):
        return None
    drop = {old[-1]}
    new = [i for i, s in enumerate(lines) if s[0] != C.REMOVED]
    if new and lines[new[-1]] in (C.CONTEXT, C.ADDED):
        drop.add(new[-1])
    return tuple(s for i, s in enumerate(lines) if i not in drop)


def _replacements(lines: tuple[str, ...], start: int) -> list[Replacement]:
    """The runs of removed/added lines between context lines, placed from `start`."""
    result: list[Replacement] = []
    added: list[str] = []
    position, run_start, removed = start, -1, 0
    for line in lines:
        if line[0] == C.CONTEXT:
            if run_start >= 0:
                result.append(Replacement(run_start, removed, tuple(added)))
                run_start, removed, added = -1, 0, []
            position += 1
            continue
        if run_start < 0:
            run_start = position
        if line[0] == C.REMOVED:
            removed += 1
            position += 1
        else:
            added.append(line[1:])
    if run_start >= 0:
        result.append(Replacement(run_start, removed, tuple(added)))
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
