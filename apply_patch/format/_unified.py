"""A unified diff → the changes it makes, and → operations of the one model (pure).

The one reading of a unified diff's files, shared by applying it
(`unified_operations`, `--format unified-diff`) and converting it to a patch
(`make.convert_unified_diff`, `apply_patch convert`): the text is read by
`_unidiff` (git diff, diff -u, diff -ruN), and `read_changes` decides, once, what
each file diff does:

- a new file (`--- /dev/null`): created with the hunks' new lines (`FileChange.new_text`);
- a deleted file: its hunks (which check its content), then its deletion; a deleted
  binary file (git's `Binary files a/x and /dev/null differ`) is a deletion with nothing
  to check, as a Delete File is;
- a changed file: its hunks, on the old path;
- a git rename: its hunks on the old path, then the move (`move_to`); other diffs naming
  two paths (`diff -u a.orig a`) change the old one;
- a mode change alone: nothing. Any other binary diff is refused (`BinaryFileError`), or
  set aside when the caller skips binaries; a copy is refused unless the caller has the
  old files to copy from.

`unified_operations` makes the applier's operations of those changes: a changed file is
an `UpdateFile` whose chunks are the hunks, placed by content by the locator every format
goes through (`_locate`), the header's line a hint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._errors import BinaryFileError, UnifiedDiffError, UnsupportedChangeError
from .._gc import PausedCollector
from . import _constants as C
from ._edits import CreateFile
from ._format import Format
from ._model import Chunk, DeleteFile, UpdateFile
from ._unidiff import FileDiff, Hunk, Line, parse_unified_diff

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Final

    from ._edits import EditOperation
    from ._format import Names
    from ._model import Operation

# A `---` line and the `+++` line after it (the text after a tab is a time stamp).
_HEADER_PAIR: Final = re.compile(r"--- ([^\t\n]+).*\n\+\+\+ ([^\t\n]+)")


@dataclass(frozen=True, slots=True)
class FileChange:
    """What one file diff does, by the rules applying and converting share.

    `old_path` None: the file is created; `new_path` None: it is deleted (after its
    hunks, if any, are checked); `move_to`: the path a git rename moves it to (never
    the old path itself). `diff` is the file diff as read, for its hunks and line.
    """

    diff: FileDiff
    old_path: str | None
    new_path: str | None
    move_to: str | None

    @property
    def new_text(self) -> str:
        """The new lines of the hunks, with their endings: a created file's content."""
        return "".join(line.text + line.ending for h in self.diff.hunks for line in h.lines if line.is_new)


@dataclass(frozen=True, slots=True)
class DiffChanges:
    """The changes of a diff's file diffs, in order, and the binary files set aside."""

    changes: tuple[FileChange, ...]
    skipped: tuple[str, ...] = ()


def read_changes(
    text: str,
    strip: int,
    *,
    verb: str = "apply",
    loose: bool = False,
    skip_binary: bool = False,
    copies: bool = False,
) -> DiffChanges:
    """The changes of the unified diff `text`, its paths stripped of `strip` components.

    `verb` names the caller's act in a refusal ("apply", "convert"); `loose`: hunks
    whose counts are wrong are read by their lines' prefixes (`parse_unified_diff`);
    `skip_binary`: a binary diff is set aside, not refused; `copies`: a git copy is kept
    (the caller has the old file), not refused. Raises UnifiedDiffError for a malformed
    diff, BinaryFileError for a binary one, UnsupportedChangeError for a copy.
    """
    changes: list[FileChange] = []
    skipped: list[str] = []
    for diff in parse_unified_diff(text, strip, loose=loose):
        old, new = diff.old_path, diff.new_path
        if diff.binary and old is not None and new is None:
            changes.append(FileChange(diff, old, None, None))  # nothing to check, as a Delete File
            continue
        if diff.binary:
            if not skip_binary:
                raise BinaryFileError(
                    f"Cannot {verb} the diff of {diff.shown}: it is a binary file",
                    path=diff.shown,
                    patch_line=diff.line,
                )
            skipped.append(diff.shown)
            continue
        if diff.copied and not copies:
            raise UnsupportedChangeError(
                f"Cannot {verb} the copy of {old} to {diff.shown}: a copy needs the old file "
                "(write it as a new file)",
                path=diff.shown,
                patch_line=diff.line,
            )
        moved = new if new is not None and diff.renamed and new != old else None  # only git says a file moved
        changes.append(FileChange(diff, old, new, moved))
    return DiffChanges(tuple(changes), tuple(skipped))


def unified_operations(text: str, strip: int | None = None) -> list[Operation | EditOperation]:
    """The operations of the unified diff `text`; UnifiedDiffError if it is malformed.

    `strip` leading path components are dropped; None: as `auto_strip` says.
    """
    chosen = auto_strip(text) if strip is None else strip
    with PausedCollector():  # a large diff's hunks: many small objects, no cycles (`_gc`)
        changes = read_changes(text, chosen, loose=True).changes
        if not changes:
            raise UnifiedDiffError("the text holds no file diff ('--- old' and '+++ new' lines, then '@@' hunks)")
        operations: list[Operation | EditOperation] = []
        for change in changes:
            operations += _file_operations(change)
    return operations


def auto_strip(text: str) -> int:
    """1 when the diff's paths carry a prefix to drop, else 0.

    git writes `a/` and `b/`, `diff -ruN old new` the two folders: the two
    paths of a file differ in their first component. A model writing the same
    path twice (`--- src/app.py`, `+++ src/app.py`, as Aider's do) means it as it is.
    """
    if text.startswith("diff --git ") or "\ndiff --git " in text:
        return 1
    for old, new in _header_pairs(text):
        old, new = old.strip(), new.strip()
        if "/dev/null" in (old, new):
            if (old if new == "/dev/null" else new).startswith(("a/", "b/")):
                return 1
            continue
        if old.split("/")[0] != new.split("/")[0] or old.startswith(("a/", "b/")):
            return 1
    return 0


def _header_pairs(text: str) -> Iterator[tuple[str, str]]:
    """The paths of each `--- path` line followed by a `+++ path` line, in order.

    Found by `str.find` of each `--- ` line, then matched there: a regular expression
    anchored at every line start of a large diff reads it ten times slower."""
    at = 0 if text.startswith("--- ") else text.find("\n--- ") + 1 or -1  # -1: no more
    while at >= 0:
        pair = _HEADER_PAIR.match(text, at)
        if pair is not None:
            yield pair[1], pair[2]
        at = text.find("\n--- ", at) + 1 or -1


def change_operations(
    change: FileChange,
    created: Callable[[str, str, FileDiff], Operation | EditOperation],
    updated: Callable[[FileChange], Sequence[Operation | EditOperation]],
) -> list[Operation | EditOperation]:
    """The operations of one file's change, decided here once for applying and converting
    (`make/_convert`): none for a diff of no file to no file; a created file (`created`:
    its path, its text, the diff); else what its hunks and its move make of the old file
    (`updated`: an update, or none), then a deletion when the diff removes the file (after
    its hunks, so that they are checked against it). The callers differ only in how a file
    is created and how hunks become chunks."""
    diff, old, new = change.diff, change.old_path, change.new_path
    if old is None:
        return [] if new is None else [created(new, change.new_text, diff)]
    operations = list(updated(change))
    if new is None:
        operations.append(DeleteFile(old, line=diff.line))
    return operations


def _file_operations(change: FileChange) -> list[Operation | EditOperation]:
    """Applying's operations of one file's change: a created file's exact text, the hunks as
    chunks placed by content (`change_operations`)."""
    return change_operations(change, _created, _update)


def _created(path: str, text: str, diff: FileDiff) -> CreateFile:
    return CreateFile(path, text, line=diff.line, label=f"the new file of the diff at line {diff.line}")


def _update(change: FileChange) -> list[Operation | EditOperation]:
    """The update of the old file: its hunks as chunks, its move; none without either."""
    assert change.old_path is not None  # `change_operations`: a created file has no update
    chunks = tuple(_chunk(h) for h in change.diff.hunks)
    if not chunks and change.move_to is None:
        return []
    return [UpdateFile(change.old_path, change.move_to, chunks, line=change.diff.line)]


def _chunk(hunk: Hunk) -> Chunk:
    """The hunk as a chunk the locator places by content, as it places a Codex patch's.

    Its context lines are matched, never written: the file keeps its own bytes
    there. The header's old line is the chunk's `near` hint (where a chunk of
    added lines only goes, and which of several places the numbers name), its counts
    the chunk's `counted` where the hunk shows other numbers of lines.
    """
    label = f"the hunk at line {hunk.line}"
    if hunk.plain:  # nearly every hunk: the diff's own lines, its old ones counted by its header
        near = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        # (positional: keywords add a sixth to its making, and a large diff makes one a hunk)
        return Chunk((), hunk.plain, False, hunk.line, (), near, label, "hunk")
    plain = _plain_lines(hunk)
    if plain is not None:  # no ending to state: the chunk's lines are the diff's
        near = hunk.old_start - 1 if any(line[0] != C.ADDED for line in plain) else hunk.old_start
        return Chunk((), plain, line=hunk.line, near=near, label=label, noun="hunk", counted=hunk.counted)
    lines = hunk.lines
    ends_file = any(not line.ending for line in lines if line.is_old)
    explicit: list[tuple[int, str]] = []
    for number, line in enumerate(lines):
        # Explicit endings only where the diff says how the file ends: without a final
        # newline, or with one where the old file had none.
        if line.prefix == C.ADDED and (not line.ending or (ends_file and _last_new(lines, number))):
            explicit.append((number, line.ending))
        elif line.prefix == C.CONTEXT and ends_file and line.ending and _last_new(lines, number):
            # The file's new last line keeps its line break where the old last line had none
            # (`-c` + `\ No newline` after ` b`): said explicitly, over the final-newline policy.
            explicit.append((number, line.ending))
        elif line.prefix == C.REMOVED and not line.ending and not any(other.is_new for other in lines):
            # No line of the new file in the hunk: its last line is the one above the hunk, which
            # kept its line break (one that lost it would be shown). Said on the `-` line, as
            # the diff says it: `_splice` (`written`) gives that line its break back.
            explicit.append((number, ""))
    has_old = any(line.is_old for line in lines)
    return Chunk(
        (),
        tuple(line.prefix + line.text for line in lines),
        is_end_of_file=ends_file,
        line=hunk.line,
        endings=tuple(explicit),
        near=hunk.old_start - 1 if has_old else hunk.old_start,
        label=label,
        noun="hunk",
        counted=hunk.counted,
    )


def _plain_lines(hunk: Hunk) -> tuple[str, ...] | None:
    """The lines of a hunk read as pairs (not `plain`) as a chunk's (prefix and text) when
    each diff line is one file line ending with LF (no `\\ No newline`, no CR): what `_chunk`
    makes of them then, without explicit endings nor the end of the file; None for any
    other hunk."""
    texts = "".join([text for _, text in hunk.raw])
    if "\r" in texts or texts.count("\n") != len(hunk.raw):  # each text holds one LF at most, last
        return None
    return tuple([prefix + text[:-1] for prefix, text in hunk.raw])


def _last_new(lines: tuple[Line, ...], number: int) -> bool:
    """Whether `lines[number]` is the hunk's last line of the new file."""
    return all(line.prefix == C.REMOVED for line in lines[number + 1 :])


def read(text: str, names: Names | None = None) -> list[Operation | EditOperation]:
    """The registry's reader: `unified_operations`, its paths' prefix as `auto_strip` says."""
    return unified_operations(text)


FORMAT: Final = Format(
    "unified-diff",
    "unified diff",
    "a unified diff",
    marker=re.compile(r"diff --git .*|--- \S.*|@@ -\d+(,\d+)? \+\d+(,\d+)? @@.*"),
    # Stricter for a hint (which must not mislead): a `---`/`+++` pair or a numbered hunk header.
    sign=re.compile(r"diff --git |--- \S.*\n\+\+\+ \S|@@ -\d+(,\d+)? \+\d+(,\d+)? @@", re.M),
    hint="The input is a unified diff ('---'/'+++' and '@@ -1,2 +1,2 @@' lines): "
    "apply it as it is with --format unified-diff (or --format auto).",
    read=read,
)
