"""The commit's journal: how the next run on a root finishes or undoes a killed commit.

Signals the process can handle wait for the commit's end (`_signals`); a
process killed anyway (SIGKILL, the out-of-memory killer, a signal whose
action is the default one delivered while a thread of a process whose
handlers are not ours commits) leaves every file wholly old or wholly new,
but the patch maybe half applied, and temporary files. So the commit (`_commit`)
writes `.apply_patch.journal` in the root before its first change and
removes it after its last, in two appends:

- before anything changes, what may be made that was not there: the files
  moved out of the way of a new folder, the folders created, the temporary
  files written (`aside`, `folder`, `temp`);
- once every new content is in its temporary file, the steps that put them
  in place (`replace`, `link`, `delete`, `drop`), then the line `commit`.

`recover(root)` (the pipeline calls it under the root's lock, before
planning) reads a journal left behind: without `commit`, it undoes (removes
the temporary files and the created folders, puts the moved files back);
with it, it finishes (each step not yet done, when its file is still the
one the commit saw), then removes the journal. Names are hex-encoded bytes,
folders absolute real paths opened as the commit opens them (`_dirs`).
"""

from __future__ import annotations

import os
import stat
import sys

from ._dirs import FolderChanged, Folders

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Protocol

    class Disk(Protocol):
        """The calls of `_commit.Disk` a journal makes (tests override them to inject faults)."""

        def append(self, folder: int, name: bytes, data: bytes, *, new: bool = False) -> None: ...
        def replace(self, folder: int, source: bytes, target: bytes) -> None: ...
        def unlink(self, folder: int, name: bytes) -> None: ...
        def rmdir(self, folder: int, name: bytes) -> None: ...

JOURNAL: Final = b".apply_patch.journal"  # no patch may touch a file of that name (`_plan`)
TEMP_SUFFIX: Final = b".apply_patch.tmp"  # of every file the commit makes before it has its name
_HEADER: Final = b"apply_patch journal 1\n"
COMMIT: Final = b"commit\n"


def record(kind: str, *fields: str | bytes | int) -> bytes:
    """One line of the journal: `kind`, then each field (paths and names hex-encoded)."""
    parts = [kind]
    for value in fields:
        if isinstance(value, int):
            parts.append(str(value))
        elif isinstance(value, bytes):
            parts.append(value.hex())
        else:  # `os.fsencode`, without its two calls (one record a file, two in all)
            parts.append(value.encode(_FS_ENCODING, _FS_ERRORS).hex())
    return (" ".join(parts) + "\n").encode()


_FS_ENCODING: Final = sys.getfilesystemencoding()
_FS_ERRORS: Final = sys.getfilesystemencodeerrors()


def begin(disk: Disk, root: int, prepared: list[bytes]) -> None:
    """Create the journal in the folder `root` with the `prepared` records; FileExistsError if one is there."""
    disk.append(root, JOURNAL, _HEADER + b"".join(prepared), new=True)


def recover(root: str, disk: Disk) -> str | None:
    """Finish or undo the commit whose journal is in `root`; what was done (None: no journal).

    Every step is checked first: a file that changed since is left as it is.
    """
    with Folders() as folders:
        try:
            root_fd = folders.get(os.path.realpath(root))
            data = _read(root_fd)
        except (OSError, FolderChanged):
            return None
        if data is None:
            return None
        lines = data.split(b"\n")
        records = [parsed for line in lines if (parsed := _parsed(line)) is not None]
        finished = COMMIT.strip() in lines
        steps = _Steps(disk, folders)
        if finished:
            done = sum(steps.forward(*step) for step in records)
        else:
            done = sum(steps.back(*step) for step in reversed(records))
        try:
            disk.unlink(root_fd, JOURNAL)
        except OSError:  # left for the next run (recovering again does nothing more)
            pass
    how = "finished" if finished else "undone"
    return f"a commit interrupted before it was complete was {how} first ({done} step{'' if done == 1 else 's'})"


def _read(folder: int) -> bytes | None:
    try:
        fd = os.open(JOURNAL, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
    except FileNotFoundError:
        return None
    with open(fd, "rb") as file:
        return file.read(1 << 24)


# Each record: its kind, then so many names (hex), then so many numbers (decimal).
_SHAPES: Final = {
    b"aside": (3, 0),  # folder, name, aside: a file moved out of the way of a new folder
    b"folder": (1, 0),  # path: a folder created
    b"temp": (2, 0),  # folder, temporary file
    b"replace": (3, 2),  # folder, temporary file, name, the (device, inode) it replaces
    b"link": (3, 0),  # folder, temporary file, the new file's name
    b"delete": (2, 2),  # folder, name, its (device, inode)
    b"drop": (2, 0),  # folder, an aside file to remove
}


def _parsed(line: bytes) -> tuple[bytes, list[bytes], tuple[int, ...]] | None:
    """A record's kind, names and numbers; None for a line that is not one (a torn end)."""
    kind, *fields = line.split(b" ")
    shape = _SHAPES.get(kind)
    if shape is None or len(fields) != sum(shape):
        return None
    try:
        names = [bytes.fromhex(field.decode()) for field in fields[: shape[0]]]
        return kind, names, tuple(int(field) for field in fields[shape[0] :])
    except ValueError:
        return None


class _Steps:
    """The records of a journal, each done (`forward`) or undone (`back`) if it still may be."""

    def __init__(self, disk: Disk, folders: Folders) -> None:
        self.disk = disk
        self.folders = folders

    def forward(self, kind: bytes, names: list[bytes], numbers: tuple[int, ...]) -> int:
        """Do a step of a commit past its `commit` line, unless done, or its file changed since."""
        if kind not in (b"replace", b"link", b"delete", b"drop") or not _ours(kind, names):
            return 0
        folder = self._folder(names[0])
        if folder is None:
            return 0
        try:
            if kind == b"drop":
                return self._remove(folder, names[1])
            if kind == b"delete":
                if _identity(folder, names[1]) != numbers:
                    return 0  # done, or another file has the name now
                self.disk.unlink(folder, names[1])
                return 1
            temp, name = names[1], names[2]
            if _identity(folder, temp) is None:
                return 0  # done before the process was killed
            now = _identity(folder, name)
            if (kind == b"replace" and now == numbers) or (kind == b"link" and now is None):
                self.disk.replace(folder, temp, name)
                return 1
            return self._remove(folder, temp)  # moved in already, or the name is another's now
        except OSError:
            return 0

    def back(self, kind: bytes, names: list[bytes], numbers: tuple[int, ...]) -> int:
        """Undo a step of a commit that never reached its `commit` line."""
        if not _ours(kind, names):
            return 0
        try:
            if kind == b"folder":
                parent = self._folder(os.path.dirname(names[0]))
                if parent is None:
                    return 0
                self.disk.rmdir(parent, os.path.basename(names[0]))
                return 1
            folder = self._folder(names[0]) if kind in (b"temp", b"aside") else None
            if folder is None:
                return 0
            if kind == b"temp":
                return self._remove(folder, names[1])
            if _identity(folder, names[1]) is None and _identity(folder, names[2]) is not None:
                self.disk.replace(folder, names[2], names[1])  # the aside file, back in its place
                return 1
        except OSError:  # gone, or not empty: nothing of ours to undo there
            pass
        return 0

    def _folder(self, path: bytes) -> int | None:
        try:
            return self.folders.get(os.fsdecode(path))
        except (OSError, FolderChanged):
            return None

    def _remove(self, folder: int, name: bytes) -> int:
        try:
            self.disk.unlink(folder, name)
        except FileNotFoundError:
            return 0
        return 1


def _ours(kind: bytes, names: list[bytes]) -> bool:
    """The file a record removes or moves is named as the commit's own temporary files are.

    The commit names every file it makes that way; a record naming any other
    file (a journal not of ours) is not acted on, but for `delete`, which
    removes only the very file (device, inode) the commit checked.
    """
    made = {b"aside": names[2:3], b"temp": names[1:2], b"replace": names[1:2], b"link": names[1:2],
            b"drop": names[1:2]}.get(kind, [])
    return all(name.startswith(b".") and name.endswith(TEMP_SUFFIX) for name in made)


def _identity(folder: int, name: bytes) -> tuple[int, ...] | None:
    """The (device, inode) of the entry `name` (not followed), or None when there is none."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino) if not stat.S_ISDIR(info.st_mode) else (-1, -1)
