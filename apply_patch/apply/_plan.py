"""Patch + tree → Plan: every path resolved, every file read, every new content computed.

Nothing is written here; files are read through the `Tree` interface (a root
folder on disk, or an in-memory mapping). The operations run in patch order over an in-memory
overlay of the tree, so several operations on one file apply one after the
other, each to the result of the previous. Any error raised here means
nothing was written; the Plan is what `_commit` makes true on disk.
"""

from __future__ import annotations

import os

from .._dataclass import dataclass

from ._doubts import PatchWarning
from .._errors import (
    ConcurrentChangeError,
    EmptyPatchError,
    FilePolicyError,
    PatchError,
    PatchIOError,
    check_text,
    escaped,
    os_reason,
)
from ._dirs import FolderChanged
from ._journal import JOURNAL
from ._locate import Placement, update_lines
from ..format import AddFile, DeleteFile, Patch, UpdateFile
from ._paths import Location
from .._policy import Policy
from ._textfile import TextFile, split_text
from ._tree import FileState, Kind, State, Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from ..format import Operation


@dataclass(frozen=True, slots=True)
class FileChange:
    """One path's net change: `before` and `after` (None: absent).

    `path` is the absolute path on disk, `shown` how the reference names it,
    `relative` how a patch would write it.
    """

    path: str
    shown: str
    relative: str
    before: FileState | None
    after: FileState | None


@dataclass(frozen=True, slots=True)
class OperationResult:
    """One operation of the patch: `A`, `M` or `D`, its path as written.

    For a move, `path` is the destination and `source` the original path.
    `added`/`removed` count lines; `placements` say where each chunk of an
    Update landed. `target` (and `source_target` for a move) are the absolute
    paths written or removed.
    """

    letter: str
    path: str
    target: str
    added: int = 0
    removed: int = 0
    source: str | None = None
    source_target: str | None = None
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything the commit needs: net changes, and folders to create (parents first).

    `warnings` are doubts about chunks that were placed (fuzzy, ambiguous).
    `absolute_names`: messages name files by absolute path (the reference's
    text), not relative to the root. `gone_folders` (an undo's: the folders
    its patch created, deepest first) are removed once the files are, each
    only if it is empty then.
    """

    root: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    new_folders: tuple[str, ...]
    warnings: tuple[PatchWarning, ...] = ()
    absolute_names: bool = False
    gone_folders: tuple[str, ...] = ()

    def name(self, path: str) -> str:
        """How messages name the absolute `path`."""
        inside = path == self.root or path.startswith(self.root.rstrip(os.sep) + os.sep)
        return path if self.absolute_names or not inside else os.path.relpath(path, self.root)


def file_pairs(
    changes: Sequence[FileChange], operations: Sequence[OperationResult]
) -> list[tuple[FileChange, FileChange]]:
    """Each file's net change as (where it was, where it is), in the order of `changes`.

    A move whose source was removed and whose destination was created is one
    pair of two changes; every other change is paired with itself.
    """
    moved = {op.source_target: op.target for op in operations if op.source_target}
    by_path = {change.path: change for change in changes}
    paired: dict[str, FileChange] = {}  # source path → destination
    for change in changes:
        destination = by_path.get(moved.get(change.path, ""))
        if change.after is None and destination is not None and destination.before is None:
            paired[change.path] = destination
    taken = {destination.path for destination in paired.values()}
    return [(change, paired.get(change.path, change)) for change in changes if change.path not in taken]


def make_plan(patch: Patch, tree: Tree) -> Plan:
    """Read and compute everything `patch` needs in `tree`, under the tree's policy;
    raise PatchError if anything fails."""
    if not patch.operations:
        raise EmptyPatchError()
    planner = Planner(tree)
    results = []
    for number, operation in enumerate(patch.operations):
        try:
            if isinstance(operation, AddFile):
                results.append(planner.add(operation))
            elif isinstance(operation, DeleteFile):
                results.append(planner.delete(operation))
            else:
                results.append(planner.update(operation))
        except PatchError as error:
            error.operation = number  # which one failed, where line numbers cannot say
            raise
    return finished_plan(planner, results, tree)


def finished_plan(planner: Planner, results: Sequence[OperationResult], tree: Tree) -> Plan:
    """The plan of what `planner` did: the operations' `results`, net changes, folders, doubts.

    Shared with `_edit_plan.make_edit_plan`, which runs the other formats' operations.
    """
    changes = planner.overlay.changes()
    return Plan(
        tree.root,
        tuple(results),
        changes,
        _new_folders(changes, tree),
        tuple(planner.warnings),
        tree.policy.message_paths == "absolute",
    )


class _Overlay:
    """The files as the patch leaves them so far, over the files of the tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.original: dict[str, State] = {}
        self.current: dict[str, State] = {}
        self.names: dict[str, Location] = {}
        self.folders: set[str] = set()  # folders the patch creates

    def look(self, key: str, where: Location, failure: str, *, follow: bool = True) -> State:
        """The state of `key` now; read on first sight. `failure` prefixes errors.

        A file whose content may not be shown (`_tree.hidden`) is noted in the
        tree's `unshown`: messages about it quote none of its lines.
        """
        if key in self.current:
            return self.current[key]
        if key in self.folders:
            return Kind.FOLDER
        try:
            state = self.tree.read(key, follow=follow)
        except OSError as exc:
            raise PatchIOError(
                f"{failure} {where.shown}: {os_reason(exc)}",
                path=where.relative,
                errno=exc.errno,
            ) from exc
        except FolderChanged as exc:  # a symlink swapped in since the path was resolved
            raise ConcurrentChangeError(
                f"{where.shown} changed on disk while the patch was being read: "
                f"the {exc.what} {self.tree.name(exc.folder)} {exc.why}",
                path=where.relative,
            ) from exc
        if isinstance(state, FileState) and state.hidden:
            self.tree.unshown[where.relative] = state.links
        self.original[key] = self.current[key] = state
        self.names[key] = where
        return state

    def put(self, key: str, state: FileState | None) -> None:
        """Set `key` (already looked at) to `state`."""
        self.current[key] = state

    def make_parents(self, location: Location) -> None:
        """Check that `location` can have folders created above it; note the new ones."""
        missing: list[str] = []
        parent = self.tree.parent(location.target)
        while parent is not None and parent not in self.folders:
            try:
                kind = self._kind_of(parent)
            except OSError as exc:
                raise PatchIOError(
                    f"Failed to write file {location.shown}: cannot inspect {self.tree.name(parent)}: "
                    f"{os_reason(exc)}",
                    path=location.relative,
                    errno=exc.errno,
                ) from exc
            if kind == "folder":
                break
            if kind is not None:
                raise PatchIOError(
                    f"Failed to write file {location.shown}: {self.tree.name(parent)} is a {kind}, "
                    "not a folder",
                    path=location.relative,
                )
            missing.append(parent)
            parent = self.tree.parent(parent)
        self.folders.update(missing)

    def _kind_of(self, path: str) -> str | None:
        """"folder", "file", "special file", or None when nothing is there (now)."""
        if path in self.current:  # a file this patch deleted may become a folder
            state = self.current[path]
            return "file" if isinstance(state, FileState) else None if state is None else state.value
        return self.tree.kind(path)

    def changes(self) -> tuple[FileChange, ...]:
        result = []
        for key, after in self.current.items():
            before = self.original[key]
            if after != before:
                assert not isinstance(before, Kind) and not isinstance(after, Kind)
                name = self.names[key]
                result.append(FileChange(key, name.shown, name.relative, before, after))
        return tuple(result)


class Planner:
    """Runs the operations of one patch over the overlay."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.policy = tree.policy
        self.overlay = _Overlay(tree)
        self.warnings: list[PatchWarning] = []

    def _resolve(self, path: str, line: int, *, follow_leaf: bool = True) -> Location:
        """The location of the file `path` (at patch `line`); every operation names a file."""
        if path.endswith(("/", os.sep)):  # resolving would drop the slash: never a file
            raise FilePolicyError(
                f"Path '{escaped(path)}' ends with '/': it names a folder, and a file is needed",
                path=escaped(path),
                patch_line=line,
            )
        where = self.tree.resolve(path, follow_leaf=follow_leaf, line=line)
        if _JOURNAL_NAME in (os.path.basename(where.target), os.path.basename(where.entry)):
            # The next run acts on what a journal says: no edit may make one (through a symlink neither).
            raise FilePolicyError(
                f"Path '{escaped(path)}' is the commit journal's name, which no patch may touch",
                path=escaped(path),
                patch_line=line,
            )
        return where

    def add(self, op: AddFile) -> OperationResult:
        where = self._resolve(op.path, op.line)
        existing = self._writable(where, op.line)
        if existing is not None and self.policy.add_existing == "error":
            raise FilePolicyError(
                f"Failed to add file {where.shown}: it already exists "
                "(use '*** Update File:' to change it)",
                path=where.relative,
                patch_line=op.line,
            )
        ending = "\r\n" if self.policy.line_endings == "crlf" else "\n"
        data = _encoded(op.text(ending, force=self.policy.line_endings != "keep"), "strict", where, op.line)
        mode = existing.mode if existing is not None else None
        owner = existing.owner if existing is not None else None
        self.overlay.put(where.target, FileState(data, mode, owner=owner))
        return OperationResult("A", op.path, where.target, added=len(op.lines))

    def delete(self, op: DeleteFile) -> OperationResult:
        where = self._resolve(op.path, op.line, follow_leaf=False)
        failure = "Failed to delete file"
        state = self.overlay.look(where.entry, where, failure, follow=False)
        if not isinstance(state, FileState):
            reason = "No such file or directory (os error 2)" if state is None else f"it is a {state.value}"
            raise PatchIOError(
                f"{failure} {where.shown}: {reason}",
                path=where.relative,
                patch_line=op.line,
                hints=self._did_you_mean(where) if state is None else (),
            )
        self.overlay.put(where.entry, None)
        removed = 0 if state.is_link else _count_lines(state.data)
        return OperationResult("D", op.path, where.entry, removed=removed)

    def update(self, op: UpdateFile) -> OperationResult:
        where = self._resolve(op.path, op.line)
        state = self._readable(where, op.line)
        data = state.data  # a pure rename moves the bytes untouched
        placements: tuple[Placement, ...] = ()
        if op.chunks:
            located = update_lines(decode_file(data, where, self.policy, op.line), op, self.policy, where)
            data, placements = encode_file(located.text, self.policy), located.placements
            self.warnings += located.warnings
        destination = where if op.move_to is None else self._move_destination(op, where)
        moved = destination is not where
        if not moved:
            self._refuse_read_only(state, where, op.line)
        mode = state.mode if not moved or self.policy.move_mode == "keep" else None
        self.overlay.put(destination.target, FileState(data, mode, owner=state.owner))
        if moved:  # the source's own entry goes: a symlink itself, not what it points to
            self.overlay.look(where.entry, where, "Failed to remove original", follow=False)
            self.overlay.put(where.entry, None)
        return OperationResult(
            "M",
            op.path if op.move_to is None else op.move_to,
            destination.target,
            added=sum(p.added for p in placements),
            removed=sum(p.removed for p in placements),
            source=op.path if op.move_to is not None else None,
            source_target=where.entry if moved else None,
            placements=placements,
        )

    def _readable(self, where: Location, line: int) -> FileState:
        failure = "Failed to read file to update"
        state = self.overlay.look(where.target, where, failure)
        if isinstance(state, FileState):
            return state
        reason = (
            "No such file or directory (os error 2)"
            if state is None
            else f"path `{where.shown}` is not a file"
        )
        raise PatchIOError(
            f"{failure} {where.shown}: {reason}",
            path=where.relative,
            patch_line=line,
            errno=2 if state is None else None,
            hints=self._did_you_mean(where) if state is None else (),
        )

    def _did_you_mean(self, where: Location) -> tuple[str, ...]:
        """The hint naming the existing files closest to the missing `where` (an error path)."""
        from ._did_you_mean import did_you_mean

        return did_you_mean(where.relative, self.tree)

    def _writable(self, where: Location, line: int) -> FileState | None:
        """The file now at `where` (None if none), after checking a file can be written there."""
        failure = "Failed to write file"
        state = self.overlay.look(where.target, where, failure)
        if isinstance(state, Kind):
            raise PatchIOError(
                f"{failure} {where.shown}: it is a {state.value}",
                path=where.relative,
                patch_line=line,
            )
        if state is not None:
            self._refuse_read_only(state, where, line)
        self.overlay.make_parents(where)
        return state

    def _refuse_read_only(self, state: FileState, where: Location, line: int) -> None:
        """A file without write permission is not replaced, unless the policy allows it."""
        if state.read_only and self.policy.read_only == "error":
            raise FilePolicyError(
                f"Failed to write file {where.shown}: it is read-only (--read-only allow writes it)",
                path=where.relative,
                patch_line=line,
            )

    def _move_destination(self, op: UpdateFile, source: Location) -> Location:
        assert op.move_to is not None
        destination = self._resolve(op.move_to, op.line)
        if destination.target == source.target or self.tree.is_alias(destination, source):
            if self.policy.move_same_path == "error":
                raise FilePolicyError(
                    f"Failed to move {source.shown}: it would be moved onto itself",
                    path=source.relative,
                    patch_line=op.line,
                )
            return source  # a plain update
        if self._writable(destination, op.line) is not None and self.policy.move_existing == "error":
            raise FilePolicyError(
                f"Failed to move {source.shown} to {destination.shown}: the destination already exists",
                path=destination.relative,
                patch_line=op.line,
            )
        return destination


_JOURNAL_NAME = os.fsdecode(JOURNAL)


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


# What to do about a file the default policy will not edit: the policy that edits it.
BINARY_HINT: Final = (
    "To edit it anyway, as text with its NUL bytes: --binary allow (in Python: binary=\"allow\")."
)
NON_UTF8_HINT: Final = (
    "To edit it anyway, keeping the bytes that are not UTF-8 as they are: --non-utf8 preserve "
    "(in Python: non_utf8=\"preserve\")."
)


def decode_file(data: bytes, where: Location, policy: Policy, line: int) -> TextFile:
    """A file's bytes → its text by the policy (binary, non-UTF-8); FilePolicyError naming `where` at patch `line`."""
    failure = f"Failed to read file to update {where.shown}"
    nul = data.find(b"\0")
    if nul >= 0 and policy.binary == "error":
        raise FilePolicyError(
            f"{failure}: it looks binary (a NUL byte at offset {nul})",
            path=where.relative,
            patch_line=line,
            hints=(BINARY_HINT,),
        )
    try:
        return split_text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        if policy.non_utf8 == "preserve":
            return split_text(data.decode("utf-8", "surrogateescape"))
        raise FilePolicyError(
            f"{failure}: invalid utf-8 sequence of {exc.end - exc.start} bytes "
            f"from index {exc.start} (the file is not UTF-8 text)",
            path=where.relative,
            patch_line=line,
            hints=(NON_UTF8_HINT,),
        ) from None


def encode_file(text: TextFile, policy: Policy) -> bytes:
    """A file's text → its bytes, BOM kept, non-UTF-8 bytes restored when the policy preserves them.

    InputError when the text holds a lone surrogate (from an edit built by a caller).
    """
    errors = "surrogateescape" if policy.non_utf8 == "preserve" else "strict"
    return _encoded(text.to_text(bom=text.bom), errors)


def _encoded(text: str, errors: str, where: Location | None = None, line: int | None = None) -> bytes:
    """`text` as UTF-8 (`errors` as `str.encode`); InputError if it cannot be."""
    try:
        return text.encode("utf-8", errors)
    except UnicodeEncodeError:
        named = "The new text" if where is None else f"The new text of {where.shown}"
        check_text(text, named, line=line)
        raise  # not reached: check_text raised


def _new_folders(changes: tuple[FileChange, ...], tree: Tree) -> tuple[str, ...]:
    """The folders missing above the files to write, parents first."""
    needed: dict[str, None] = {}
    for change in changes:
        if change.after is None:
            continue
        chain = []
        parent = tree.parent(change.path)
        while parent is not None and _kind(tree, parent, change) != "folder":
            chain.append(parent)
            parent = tree.parent(parent)
        needed.update(dict.fromkeys(reversed(chain)))
    return tuple(sorted(needed, key=lambda p: p.count(os.sep)))


def _kind(tree: Tree, path: str, change: FileChange) -> str | None:
    try:
        return tree.kind(path)
    except OSError as exc:  # the tree changed under the planner (a loop, a lost permission)
        raise PatchIOError(
            f"Failed to write file {change.shown}: cannot inspect {path}: {os_reason(exc)}",
            path=change.relative,
            errno=exc.errno,
        ) from exc
