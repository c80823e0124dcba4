"""Patch + root → Plan: every path resolved, every file read, every new content computed.

Nothing is written here. The operations run in patch order over an in-memory
overlay of the tree, so several operations on one file apply one after the
other, each to the result of the previous. Any error raised here means
nothing was written; the Plan is what `_commit` makes true on disk.
"""

import enum
import os
import stat
from ._dataclass import dataclass

from ._errors import EmptyPatchError, FilePolicyError, PatchError, PatchIOError
from ._locate import Placement, update_lines
from ._model import AddFile, DeleteFile, Patch, UpdateFile
from ._paths import Location, Resolver
from ._policy import Policy
from ._textfile import TextFile, split_text


@dataclass(frozen=True, slots=True)
class FileState:
    """A file's bytes and permission bits (None: as for a new file).

    For a symlink (`is_link`), `data` is the link's target path.
    """

    data: bytes
    mode: int | None = None
    is_link: bool = False


class Kind(enum.Enum):
    """What a path is on disk when it is not a regular file or a symlink."""

    FOLDER = "folder"
    SPECIAL = "special file"


DiskState = FileState | Kind | None  # None: nothing there


@dataclass(frozen=True, slots=True)
class FileChange:
    """One path's net change: `before` and `after` (None: absent)."""

    path: str
    shown: str
    before: FileState | None
    after: FileState | None


@dataclass(frozen=True, slots=True)
class OperationResult:
    """One operation of the patch: `A`, `M` or `D`, its path as written.

    For a move, `path` is the destination and `source` the original path.
    `placements` say where each chunk of an Update landed.
    """

    letter: str
    path: str
    source: str | None = None
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything the commit needs: net changes, and folders to create (parents first)."""

    root: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    new_folders: tuple[str, ...]


def make_plan(patch: Patch, root: str, policy: Policy) -> Plan:
    """Read and compute everything `patch` needs under `root`; raise PatchError if anything fails."""
    if not patch.operations:
        raise EmptyPatchError()
    if not os.path.isdir(root):
        raise PatchIOError(f"The root folder {os.path.abspath(root)} does not exist", path=root)
    planner = _Planner(Resolver(root, policy), policy)
    results = []
    for operation in patch.operations:
        if isinstance(operation, AddFile):
            results.append(planner.add(operation))
        elif isinstance(operation, DeleteFile):
            results.append(planner.delete(operation))
        else:
            results.append(planner.update(operation))
    changes = planner.overlay.changes()
    return Plan(planner.resolver.root_shown, tuple(results), changes, _new_folders(changes))


class _Overlay:
    """The files as the patch leaves them so far, over the files on disk."""

    def __init__(self) -> None:
        self.original: dict[str, DiskState] = {}
        self.current: dict[str, DiskState] = {}
        self.shown: dict[str, str] = {}
        self.folders: set[str] = set()  # folders the patch creates

    def look(self, key: str, shown: str, failure: str, *, follow: bool = True) -> DiskState:
        """The state of `key` now; read from disk on first sight. `failure` prefixes errors."""
        if key in self.current:
            return self.current[key]
        if key in self.folders:
            return Kind.FOLDER
        try:
            state = _probe(key, follow=follow)
        except OSError as exc:
            raise _io_error(failure, shown, exc) from exc
        self.original[key] = self.current[key] = state
        self.shown[key] = shown
        return state

    def put(self, key: str, state: FileState | None) -> None:
        """Set `key` (already looked at) to `state`."""
        self.current[key] = state

    def make_parents(self, location: Location) -> None:
        """Check that `location` can have folders created above it; note the new ones."""
        missing: list[str] = []
        parent = os.path.dirname(location.target)
        while parent not in self.folders and parent != os.path.dirname(parent):
            kind = self._kind_of(parent)
            if kind == "folder":
                break
            if kind is not None:
                raise PatchIOError(
                    f"Failed to write file {location.shown}: {parent} is a {kind}, not a folder",
                    path=location.written,
                )
            missing.append(parent)
            parent = os.path.dirname(parent)
        self.folders.update(missing)

    def _kind_of(self, path: str) -> str | None:
        """"folder", "file", "special file", or None when nothing is there."""
        if isinstance(self.original.get(path), FileState):
            return "file"  # a file deleted by this patch does not become a folder
        if isinstance(self.current.get(path), FileState):
            return "file"
        try:
            mode = os.stat(path).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        if stat.S_ISDIR(mode):
            return "folder"
        return "file" if stat.S_ISREG(mode) else Kind.SPECIAL.value

    def changes(self) -> tuple[FileChange, ...]:
        result = []
        for key, after in self.current.items():
            before = self.original[key]
            if after != before:
                assert not isinstance(before, Kind) and not isinstance(after, Kind)
                result.append(FileChange(key, self.shown[key], before, after))
        return tuple(result)


def _probe(path: str, *, follow: bool) -> DiskState:
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        return FileState(os.fsencode(os.readlink(path)), is_link=True)
    if stat.S_ISDIR(info.st_mode):
        return Kind.FOLDER
    if not stat.S_ISREG(info.st_mode):
        return Kind.SPECIAL
    with open(path, "rb") as file:
        return FileState(file.read(), stat.S_IMODE(info.st_mode))


def _io_error(failure: str, shown: str, exc: OSError) -> PatchIOError:
    return PatchIOError(
        f"{failure} {shown}: {exc.strerror} (os error {exc.errno})", path=shown, errno=exc.errno
    )


class _Planner:
    """Runs the operations of one patch over the overlay."""

    def __init__(self, resolver: Resolver, policy: Policy) -> None:
        self.resolver = resolver
        self.policy = policy
        self.overlay = _Overlay()

    def _resolve(self, path: str, line: int, *, follow_leaf: bool = True) -> Location:
        try:
            return self.resolver.resolve(path, follow_leaf=follow_leaf)
        except PatchError as exc:
            exc.patch_line = line
            raise

    def add(self, op: AddFile) -> OperationResult:
        where = self._resolve(op.path, op.line)
        existing = self._writable(where, op.line)
        if existing is not None and self.policy.add_existing == "error":
            raise FilePolicyError(
                f"Failed to add file {where.shown}: it already exists "
                "(use '*** Update File:' to change it)",
                path=op.path,
                patch_line=op.line,
            )
        ending = "\r\n" if self.policy.line_endings == "crlf" else "\n"
        data = "".join(line + ending for line in op.lines).encode("utf-8")
        mode = existing.mode if existing is not None else None
        self.overlay.put(where.target, FileState(data, mode))
        return OperationResult("A", op.path)

    def delete(self, op: DeleteFile) -> OperationResult:
        where = self._resolve(op.path, op.line, follow_leaf=False)
        failure = "Failed to delete file"
        state = self.overlay.look(where.entry, where.shown, failure, follow=False)
        if not isinstance(state, FileState):
            reason = "No such file or directory (os error 2)" if state is None else f"it is a {state.value}"
            raise PatchIOError(f"{failure} {where.shown}: {reason}", path=op.path, patch_line=op.line)
        self.overlay.put(where.entry, None)
        return OperationResult("D", op.path)

    def update(self, op: UpdateFile) -> OperationResult:
        where = self._resolve(op.path, op.line)
        state = self._readable(where, op.line)
        text = _decode(state.data, where.shown, self.policy, op.line)
        placements: list[Placement] = []
        if op.chunks:
            text, placements = update_lines(text, op, self.policy, where.shown)
        data = _encode(text, self.policy)
        destination = where
        if op.move_to is not None:
            destination = self._move_destination(op, where)
        mode = state.mode if destination is where or self.policy.move_mode == "keep" else None
        self.overlay.put(destination.target, FileState(data, mode))
        if destination is not where:
            self.overlay.put(where.entry, None)
        letter_path = op.path if op.move_to is None else op.move_to
        source = op.path if op.move_to is not None else None
        return OperationResult("M", letter_path, source, tuple(placements))

    def _readable(self, where: Location, line: int) -> FileState:
        failure = "Failed to read file to update"
        state = self.overlay.look(where.target, where.shown, failure)
        if isinstance(state, FileState):
            return state
        reason = (
            "No such file or directory (os error 2)"
            if state is None
            else f"path `{where.shown}` is not a file"
        )
        raise PatchIOError(
            f"{failure} {where.shown}: {reason}",
            path=where.written,
            patch_line=line,
            errno=2 if state is None else None,
        )

    def _writable(self, where: Location, line: int) -> FileState | None:
        """The file now at `where` (None if none), after checking a file can be written there."""
        failure = "Failed to write file"
        state = self.overlay.look(where.target, where.shown, failure)
        if isinstance(state, Kind):
            raise PatchIOError(
                f"{failure} {where.shown}: it is a {state.value}", path=where.written, patch_line=line
            )
        self.overlay.make_parents(where)
        return state

    def _move_destination(self, op: UpdateFile, source: Location) -> Location:
        assert op.move_to is not None
        destination = self._resolve(op.move_to, op.line)
        if destination.target == source.target:
            if self.policy.move_same_path == "error":
                raise FilePolicyError(
                    f"Failed to move {source.shown}: it would be moved onto itself",
                    path=op.path,
                    patch_line=op.line,
                )
            return source  # a plain update
        if self._writable(destination, op.line) is not None and self.policy.move_existing == "error":
            raise FilePolicyError(
                f"Failed to move {source.shown} to {destination.shown}: the destination already exists",
                path=op.move_to,
                patch_line=op.line,
            )
        return destination


def _decode(data: bytes, shown: str, policy: Policy, line: int) -> TextFile:
    failure = f"Failed to read file to update {shown}"
    nul = data.find(b"\0")
    if nul >= 0 and policy.binary == "error":
        raise FilePolicyError(
            f"{failure}: it looks binary (a NUL byte at offset {nul})", path=shown, patch_line=line
        )
    try:
        return split_text(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        if policy.non_utf8 == "preserve":
            return split_text(data.decode("utf-8", "surrogateescape"))
        raise FilePolicyError(
            f"{failure}: invalid utf-8 sequence of {exc.end - exc.start} bytes "
            f"from index {exc.start} (the file is not UTF-8 text)",
            path=shown,
            patch_line=line,
        ) from None


def _encode(text: TextFile, policy: Policy) -> bytes:
    errors = "surrogateescape" if policy.non_utf8 == "preserve" else "strict"
    return text.to_text(bom=text.bom).encode("utf-8", errors)


def _new_folders(changes: tuple[FileChange, ...]) -> tuple[str, ...]:
    """The folders missing above the files to write, parents first."""
    needed: dict[str, None] = {}
    for change in changes:
        if change.after is None:
            continue
        parent = os.path.dirname(change.path)
        chain = []
        while parent != os.path.dirname(parent) and not os.path.isdir(parent):
            chain.append(parent)
            parent = os.path.dirname(parent)
        needed.update(dict.fromkeys(reversed(chain)))
    return tuple(sorted(needed, key=lambda p: p.count(os.sep)))
