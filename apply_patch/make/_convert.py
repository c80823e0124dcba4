"""A unified diff → the equivalent Patch, exact when the old files are at hand.

The diff's files are read by the one reading applying shares
(`format.read_changes`: renames, creations, deletions, binaries, copies decided
there, by the same rules); each change becomes an Add File, a Delete File, or an
Update (with `Move to` for a rename); chunks keep the diff's context. A mode
change alone is nothing; a binary diff is refused (or skipped), but for a deleted
binary file, which becomes a Delete File (it needs no content) even when binaries
are skipped. A copy needs the old files.

With the old files (`old=`: a folder or a mapping), every hunk is checked
against its file (a deleted file's too) and the new file computed; chunks then get what
`apply_patch diff` gives its own (`_place`, `_markers`): `@@` lines with the
enclosing definition where they make the place certain, `*** End of File`,
more context where the place is not certain, exact line endings. The result
is applied in memory before it is returned.

Without them, what the diff shows is all there is:

- the `@@` line is the hunk header's section text (git's function line) when
  the diff shows that line lies between the previous hunk and this one: the
  previous hunk has another section and does not hold that line (a section
  of 79 bytes or more may be cut short by git, and is not used);
- `*** End of File` where a hunk has a `\\ No newline` line or fewer
  trailing context lines than the diff's context size (the most any hunk has);
- the old file's first line ending (the one new lines get) is read from the
  diff: from its first line when a hunk shows it, else the most common one;
- a hunk without any old line is refused (applying puts its lines where its
  numbers say, `-0,0` at the start; a chunk without context would put them at
  the end of the file).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..format import (
    constants as C,
    Line,
    DeleteFile,
    FileChange,
    Operation,
    Patch,
    UpdateFile,
    FileDiff,
    Hunk,
    StrReplace,
    CreateFile,
    change_operations,
    read_changes,
)
from ._drafts import Draft, with_bom_as_text
from .._errors import UnsupportedChangeError, UnifiedDiffError
from ._make import (
    Content,
    add_file,
    check_path,
    decode,
    diff_lines,
    file_operations,
    old_endings,
    reproduces,
    Options,
    TreeDiff,
)
from ._markers import OldEndings, settle
from ._place import place
from ..apply import BOM, TextFile, split_text

Lookup = Callable[[str], Content | None]
OldFiles = Mapping[str, Content] | str | os.PathLike[str]

_SECTION_LIMIT = 79  # git cuts function lines at 80 bytes


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """`strip` leading path components (`-p`), and whether to skip binary diffs."""

    strip: int = 1
    skip_binary: bool = False


def convert_unified_diff(
    text: str, *, old: OldFiles | None = None, strip: int = 1, skip_binary: bool = False
) -> Patch:
    """The patch equivalent to the unified diff `text` (git diff, diff -u).

    `old`: the old files, as a folder or a mapping of relative path to
    content, for exact hints, `*** End of File` and endings (see the module).
    `strip`: leading path components to drop (1: `a/`, `b/`). Raises
    UnifiedDiffError for a malformed diff, one that does not match `old`, or
    a path that `strip` would leave without a name (as `git apply -pN`),
    BinaryFileError for a binary diff (unless `skip_binary`), and
    UnsupportedChangeError for a change the format cannot express.
    """
    return convert(text, reader_of(old), ConvertOptions(strip, skip_binary)).patch


def convert(text: str, lookup: Lookup | None, options: ConvertOptions) -> TreeDiff:
    """The patch and the binary files skipped (see `convert_unified_diff`)."""
    read = read_changes(
        text, options.strip, verb="convert", skip_binary=options.skip_binary, copies=lookup is not None
    )
    operations: list[Operation] = []
    for change in read.changes:
        operations += _operations(change, lookup)
    return TreeDiff(Patch(tuple(operations)), read.skipped)


def reader_of(old: OldFiles | None) -> Lookup | None:
    if old is None:
        return None
    if isinstance(old, Mapping):
        return old.get
    root = os.fspath(old)

    def read(path: str) -> bytes | None:
        parts = path.split("/")
        if path.startswith("/") or ".." in parts:
            raise UnsupportedChangeError(f"Cannot read {path}: it leaves the old folder", path=path)
        try:
            with open(os.path.join(root, *parts), "rb") as file:
                return file.read()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            return None

    return read


def _operations(change: FileChange, lookup: Lookup | None) -> list[Operation]:
    """The operations of one file's change (`format.change_operations`, the decisions applying
    makes too): a created file as an Add File of its text, the old file's update as exact
    as the old files allow (`_update`)."""
    for path in (change.old_path, change.new_path):
        if path is not None:
            check_path(path)
    found = change_operations(change, lambda path, text, _: add_file(path, text), lambda c: _update(c, lookup))
    assert all(not isinstance(op, (StrReplace, CreateFile)) for op in found)  # only the model's operations here
    return found  # type: ignore[return-value]  # (the assertion)


def _update(change: FileChange, lookup: Lookup | None) -> list[Operation]:
    """What the hunks and the move of `change` make of its old file: for a deleted file,
    nothing (its hunks checked against it when the old files are at hand); else the update
    from the diff alone (`_without_old`), or computed from the old file (a copy: its new
    file whole)."""
    diff, old_path, new_path, move_to = change.diff, change.old_path, change.new_path, change.move_to
    assert old_path is not None  # `change_operations`: a created file has no update
    if new_path is None:
        if lookup is not None and diff.hunks:
            _apply(_old_text(diff, old_path, lookup), diff)  # its hunks checked, as applying does
        return []
    if lookup is None:
        return _without_old(diff, move_to)
    old_text = _old_text(diff, old_path, lookup)
    new_text = _apply(old_text, diff)
    if diff.copied:
        return [add_file(new_path, new_text)]
    if old_text == new_text:
        if move_to is None:
            return []
        return file_operations(old_path, old_text, new_text, Options(), move_to)
    return _with_old(old_path, old_text, new_text, diff.hunks, move_to)


def _old_text(diff: FileDiff, path: str, lookup: Lookup) -> str:
    content = lookup(path)
    if content is None:
        raise UnifiedDiffError(f"the old file {path} does not exist", line=diff.line)
    return decode(path, content)


def _apply(old_text: str, diff: FileDiff) -> str:
    """The new text: each hunk put in place by its line numbers, its old lines checked."""
    pieces = _pieces(old_text)
    out: list[str] = []
    done = 0
    for hunk in diff.hunks:
        at = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        expected = [raw for prefix, raw in hunk.raw if prefix != C.ADDED]
        if at < done or pieces[at : at + len(expected)] != expected:
            raise UnifiedDiffError(
                f"the hunk at line {hunk.line} does not match the old {diff.old_path} "
                f"at line {at + 1}",
                line=hunk.line,
            )
        out += pieces[done:at] + [raw for prefix, raw in hunk.raw if prefix != C.REMOVED]
        done = at + len(expected)
    return "".join(out + pieces[done:])


def _pieces(text: str) -> list[str]:
    """`text` cut after each `\\n` (a diff's lines), the last piece possibly without."""
    pieces = [piece + "\n" for piece in text.split("\n")]
    pieces[-1] = pieces[-1][:-1]
    return pieces if pieces[-1] else pieces[:-1]


def _with_old(
    path: str, old_text: str, new_text: str, hunks: tuple[Hunk, ...], move_to: str | None
) -> list[Operation]:
    old, new = split_text(old_text), split_text(new_text)
    if old.bom and not new.bom:  # an Update keeps the BOM: rewrite the file
        return [DeleteFile(path), add_file(move_to or path, new_text)]
    if not old.bom:
        new = with_bom_as_text(new)
    drafts = [d for d in _drafts(old_text, new_text, old, new, hunks) if _changes(d)]
    chunks = settle(place(old, drafts), old_endings(old))
    update = UpdateFile(path, move_to, chunks)
    if not reproduces(old, update, new_text):  # the default policy writes some new line otherwise
        return [DeleteFile(path), add_file(move_to or path, new_text)]
    return [update]


def _drafts(
    old_text: str, new_text: str, old: TextFile, new: TextFile, hunks: tuple[Hunk, ...]
) -> list[Draft]:
    """A draft per hunk, spanning the hunk's lines of both files (so its context)."""
    old_at, new_at = _line_starts(old_text, len(old.lines)), _line_starts(new_text, len(new.lines))
    drafts = []
    shift = 0  # new line number - old line number, in the diff's lines, before this hunk
    for hunk in hunks:
        a = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        c = a + shift
        shift += hunk.new_count - hunk.old_count
        first, last = old_at[a], old_at[a + hunk.old_count]
        span_old = TextFile(old.lines[first:last], old.endings[first:last])
        span_new_range = slice(new_at[c], new_at[c + hunk.new_count])
        span_new = TextFile(new.lines[span_new_range], new.endings[span_new_range])
        drafts.append(Draft(first, tuple(diff_lines(span_old, span_new))))
    return drafts


def _line_starts(text: str, total: int) -> list[int]:
    """For each diff line (cut at `\\n`) of `text`, the index of its first file line."""
    starts = [0]
    for piece in _pieces(text)[:-1]:
        starts.append(starts[-1] + piece.count("\n") + piece.count("\r") - piece.count("\r\n"))
    starts.append(total)
    return starts


def _changes(draft: Draft) -> bool:
    return any(line.prefix != C.CONTEXT for line in draft.lines)


def _without_old(diff: FileDiff, move_to: str | None) -> list[Operation]:
    """The Update as far as the diff alone tells it (see the module's docstring)."""
    assert diff.old_path is not None  # a copy without the old files: refused by `read_changes`
    hunks = list(diff.hunks)
    if not hunks:
        return [] if move_to is None else [UpdateFile(diff.old_path, move_to, ())]
    drafts = _bom_aside(diff, [Draft(0, h.lines) for h in hunks])
    context = max(max(h.lead, h.trail) for h in hunks)
    sections = _sections(hunks)
    old = _guess_old_endings(hunks, drafts)
    placed = []
    for hunk, draft, section in zip(hunks, drafts, sections):
        _check_without_old(diff, hunk, draft, old)
        end = hunk.marks_an_end or hunk.trail < context
        placed.append(replace(draft, contexts=(section,) if section else (), is_end_of_file=end))
    return [UpdateFile(diff.old_path, move_to, settle(placed, old))]


def _check_without_old(diff: FileDiff, hunk: Hunk, draft: Draft, old: OldEndings) -> None:
    needs = None
    if not any(line.is_old for line in draft.lines):
        # Applying puts its lines where its numbers say (`-0,0`: at the start); a chunk
        # without context would put them at the end, right only for an empty file.
        needs = "a hunk without context lines"
    elif hunk.marks_an_end and not old.has_final_newline and hunk.old_start > 1:
        if not any(line.is_new for line in draft.lines):
            needs = "a hunk removing the end of a file without final newline"
    if needs:
        raise UnsupportedChangeError(
            f"Cannot convert {needs} (line {hunk.line}) without the old files",
            path=diff.old_path,
        )


def _sections(hunks: list[Hunk]) -> list[str | None]:
    """Each hunk's section text, where the diff shows it is the line just above the hunk."""
    found: list[str | None] = []
    previous: Hunk | None = None
    for hunk in hunks:
        section = hunk.section.strip(C.WHITESPACE) and hunk.section.rstrip(C.WHITESPACE)
        usable = bool(section) and len(section.encode("utf-8")) < _SECTION_LIMIT
        usable = usable and "\r" not in section  # a lone CR: not one line of the file
        if previous is not None and usable:
            seen = {line.text.strip(C.WHITESPACE) for line in previous.lines if line.is_old}
            same = section == previous.section.rstrip(C.WHITESPACE)
            usable = not same and section.strip(C.WHITESPACE) not in seen
        found.append(section if usable else None)
        previous = hunk
    return found


def _bom_aside(diff: FileDiff, drafts: list[Draft]) -> list[Draft]:
    """Take a BOM out of the first line when both files have one (the applier keeps it)."""
    hunk, draft = diff.hunks[0], drafts[0]
    if hunk.old_start > 1 or not draft.lines:
        return drafts
    lines = list(draft.lines)
    first_old = next((i for i, line in enumerate(lines) if line.is_old), None)
    first_new = next((i for i, line in enumerate(lines) if line.is_new), None)
    if first_old is None or not lines[first_old].text.startswith(BOM):
        return drafts
    for i in dict.fromkeys((first_old, first_new)):  # the new file's first line is here
        if i is None or not lines[i].text.startswith(BOM):
            raise UnsupportedChangeError(
                f"Cannot convert the removal of the byte-order mark of {diff.old_path} "
                "without the old files",
                path=diff.old_path,
            )
        lines[i] = Line(lines[i].prefix, lines[i].text[1:], lines[i].ending)
    return [replace(draft, lines=tuple(lines)), *drafts[1:]]


def _guess_old_endings(hunks: list[Hunk], drafts: list[Draft]) -> OldEndings:
    """The old file's first ending and final newline, as far as the hunks show them."""
    old_lines = [line for d in drafts for line in d.lines if line.is_old]
    preferred = None
    if hunks[0].old_start <= 1:
        first = [line for line in drafts[0].lines if line.is_old]
        preferred = next((line.ending for line in first if line.ending), "\n")
    if preferred is None:
        counts = Counter(line.ending for line in old_lines if line.ending)
        preferred = counts.most_common(1)[0][0] if counts else "\n"
    return OldEndings(preferred, all(line.ending for line in old_lines))
