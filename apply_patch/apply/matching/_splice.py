"""A file's lines with a chunk's changes written in (pure, nothing on disk).

A located chunk becomes replacements (`Replacement`: the runs of removed and added
lines between its context lines, `chunk_replacements`), so context lines stay byte
for byte as they are in the file; their added lines are put in the file's
indentation unit (`in_file_units`); `splice` writes them all, from the first to the
last, each new line with the file's ending unless the chunk gave one explicitly
(`with_explicit_endings`); `written` does it all for the chunks a locator placed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import gt

from ...format import constants as C, Chunk, UpdateFile
from ._text import Decoded, Edited, LfText, as_lines
from ._textfile import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ._doubts import PatchWarning
    from ._indent import UnitFix
    from ._names import FileName
    from ._placement import Placement
    from ..._policy import Policy

    Found = tuple[list["Replacement"], list[Placement], list[PatchWarning]]  # a locator's answer


INDENT_WINDOW = 200  # file lines each side of a match read for the file's indentation unit


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


def written(
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


def context_chunks(update: UpdateFile) -> tuple[Chunk, ...]:
    """The edits of `update`, every one a context chunk (ValueError otherwise: the planner
    runs the other edits, `_edit_plan`)."""
    for change in update.chunks:
        if not isinstance(change, Chunk):
            raise ValueError(f"{type(change).__name__} is not a context chunk: the planner runs it")
    return update.chunks  # type: ignore[return-value]  # every one checked above


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
            from ._doubts import unit_warning  # a run of added lines in the other unit only

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
