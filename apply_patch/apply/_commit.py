"""Plan → disk, all or nothing: the only module that writes.

Order: check that no file changed since it was read; delete a file that is
in the way of a new folder of the same name; create missing folders; write
every new content to a temporary file beside its target; move each over its
target (`os.replace`, atomic); then delete the rest. If any step
fails, every step already done is undone from the in-memory originals (files
restored with their modes, created files and folders removed) and the error
is raised. A process killed at any moment leaves each file entirely old or
entirely new, never truncated.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from .._dataclass import dataclass, field

from .._errors import ConcurrentChangeError, PatchIOError, RollbackError, os_reason
from ._plan import FileChange, Plan
from ._disk_tree import read_entry
from ._tree import FileState, State

TEMP_SUFFIX = ".apply_patch.tmp"


class Disk:
    """The file-system calls a commit makes; tests override them to inject faults."""

    def read(self, path: str) -> State:
        """What is at `path`, a final symlink not followed (see `read_entry`)."""
        return read_entry(path, follow=False)

    def mkdir(self, path: str) -> None:
        os.mkdir(path)

    def rmdir(self, path: str) -> None:
        os.rmdir(path)

    def write_temp(self, path: str, data: bytes, mode: int | None) -> str:
        """Write `data` to a new temporary file beside `path`; return its path."""
        folder, name = os.path.split(path)
        temp = os.path.join(folder, f".{name[:80]}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
        # 0o666 lets the umask decide, as for any new file; a kept mode is set exactly.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as file:
                if mode is not None:
                    os.fchmod(file.fileno(), mode)
                file.write(data)
        except BaseException:
            os.unlink(temp)
            raise
        return temp

    def replace(self, source: str, target: str) -> None:
        os.replace(source, target)

    def unlink(self, path: str) -> None:
        os.unlink(path)

    def symlink(self, target: bytes, path: str) -> None:
        os.symlink(target, os.fsencode(path))


@dataclass
class _Journal:
    """What a commit has done so far, to undo it in reverse order."""

    disk: Disk
    undo: list[tuple[str, Callable[[], None]]] = field(default_factory=list)
    temps: set[str] = field(default_factory=set)  # written, not yet moved into place

    def rollback(self) -> list[str]:
        """Undo everything; return the paths that could not be restored."""
        failed = []
        for temp in self.temps:
            _quietly(self.disk.unlink, temp)
        for shown, step in reversed(self.undo):
            try:
                step()
            except OSError:
                failed.append(shown)
        return failed


def commit(plan: Plan, disk: Disk | None = None) -> None:
    """Make `plan` true on disk, or change nothing and raise PatchIOError."""
    disk = disk or Disk()
    _check_unchanged(plan, disk)
    journal = _Journal(disk)
    step = ("create folders for", plan.name(plan.root))
    folders = set(plan.new_folders)
    # A file deleted to make room for a folder of the same name goes first.
    in_the_way = [c for c in plan.changes if c.after is None and c.path in folders]
    try:
        for change in in_the_way:
            step = ("delete file", change.shown)
            disk.unlink(change.path)
            journal.undo.append((change.shown, _restorer(disk, change)))
        for folder in plan.new_folders:
            step = ("create parent directories for", plan.name(folder))
            disk.mkdir(folder)
            journal.undo.append((folder, functools.partial(disk.rmdir, folder)))
        writes = [c for c in plan.changes if c.after is not None]
        staged: list[tuple[FileChange, str]] = []
        for change in writes:
            assert change.after is not None
            step = ("write file", change.shown)
            temp = disk.write_temp(change.path, change.after.data, change.after.mode)
            staged.append((change, temp))
            journal.temps.add(temp)
        for change, temp in staged:
            step = ("write file", change.shown)
            disk.replace(temp, change.path)
            journal.temps.discard(temp)
            journal.undo.append((change.shown, _restorer(disk, change)))
        for change in plan.changes:
            if change.after is None and change not in in_the_way:
                step = ("delete file", change.shown)
                disk.unlink(change.path)
                journal.undo.append((change.shown, _restorer(disk, change)))
    except BaseException as exc:
        unrestored = journal.rollback()
        if unrestored:
            raise RollbackError(
                f"Failed to {step[0]} {step[1]}: {os_reason(exc)}; and these could not be "
                f"restored: {', '.join(unrestored)}",
                unrestored=tuple(unrestored),
            ) from exc
        if isinstance(exc, OSError):
            raise PatchIOError(
                f"Failed to {step[0]} {step[1]}: {os_reason(exc)}",
                path=_relative(plan, step[1]),
                errno=exc.errno,
            ) from exc
        raise


def _check_unchanged(plan: Plan, disk: Disk) -> None:
    for change in plan.changes:
        try:
            now = disk.read(change.path)
        except OSError as exc:
            raise PatchIOError(
                f"Failed to read {change.shown}: {os_reason(exc)}",
                path=change.relative,
                errno=exc.errno,
            ) from exc
        before = change.before
        same = (now is None and before is None) or (
            isinstance(now, FileState)
            and before is not None
            and now.data == before.data
            and now.is_link == before.is_link
        )
        if not same:
            raise ConcurrentChangeError(
                f"{change.shown} changed on disk while the patch was being applied",
                path=change.relative,
            )


def _relative(plan: Plan, named: str) -> str:
    """The path of a message's `named` file, relative to the root (the JSON `path`)."""
    if os.path.isabs(named) and named.startswith(plan.root.rstrip(os.sep) + os.sep):
        return os.path.relpath(named, plan.root)
    return named


def _restorer(disk: Disk, change: FileChange) -> Callable[[], None]:
    """The step that puts `change.path` back as it was before."""
    before = change.before

    def restore() -> None:
        if before is None or before.is_link:
            if disk.read(change.path) is not None:
                disk.unlink(change.path)
        if before is None:
            return
        if before.is_link:
            disk.symlink(before.data, change.path)
        else:
            disk.replace(disk.write_temp(change.path, before.data, before.mode), change.path)

    return restore


def _quietly(action: Callable[[str], None], path: str) -> None:
    try:
        action(path)
    except OSError:
        pass
