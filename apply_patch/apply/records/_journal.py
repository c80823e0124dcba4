"""The commit's journal, written: what the next run on a root needs to finish or undo a
killed commit (`_recovery` reads it back).

Signals the process can handle wait for the commit's end (`_signals`); a
process killed anyway (SIGKILL, the out-of-memory killer, a signal whose
action is the default one delivered while a thread of a process whose
handlers are not ours commits) leaves every file wholly old or wholly new,
but the patch maybe half applied, and temporary files. So the commit (`_commit`)
writes a journal before its first change and removes it after its last, in
two appends:

- before anything changes, what may be made that was not there: the files
  moved out of the way of a new folder (with their device and inode), the
  folders created, the temporary files to be written (`aside`, `folder`,
  `temp`);
- once every new content is in its temporary file, the steps that put them
  in place (`replace`, `link`, `delete`, `drop`), each with the device and
  inode of every file it names (the temporary file's included), then the
  line `commit`.

Where: `journal.DEV.INO` in the root's private state folder (`_receipts.Store`:
the receipts' folder, the user's own, 0700) when it can be opened, else
`.apply_patch.journal` in the root (an agent sandbox lets the engine write
only there). The header records the root's device and inode, and
`outside allow` for a commit with files outside the root (`--outside-root
allow`). Folders are relative to the root (absolute: outside it), names
hex-encoded bytes.

Reading a journal back is `_recovery`'s, imported only when something is at a
journal's name (`present`): every committing run asks, and nearly always there is none.
"""

from __future__ import annotations

import errno
import os
import sys
from dataclasses import dataclass

from ..planning import JOURNAL

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final, Protocol

    class Disk(Protocol):
        """The calls of `_commit.Disk` a journal makes (tests override them to inject faults)."""

        def append(self, folder: int, name: bytes, data: bytes, *, new: bool = False) -> None: ...
        def replace(self, folder: int, source: bytes, target: bytes) -> None: ...
        def link(self, folder: int, source: bytes, target: bytes) -> None: ...
        def unlink(self, folder: int, name: bytes) -> None: ...
        def rmdir(self, folder: int, name: bytes) -> None: ...

TEMP_SUFFIX: Final = b".apply_patch.tmp"  # of every file the commit makes before it has its name
HEADER: Final = b"apply_patch journal 2\n"
COMMIT: Final = b"commit\n"
ROOT_NAME: Final = os.fsdecode(JOURNAL)


def state_name(root: os.stat_result) -> bytes:
    """The journal's name in the state folder for the root folder `root` (its device and
    inode: a journal written for another folder once at the root's path is never read)."""
    return b"journal.%d.%d" % (root.st_dev, root.st_ino)


def header(root: os.stat_result, *, outside: bool = False) -> bytes:
    """The journal's first lines: its version, the root's device and inode, the policy."""
    return HEADER + b"root %d %d\n" % (root.st_dev, root.st_ino) + (b"outside allow\n" if outside else b"")


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


@dataclass(frozen=True, slots=True)
class Place:
    """Where a commit's journal is: the folder (a descriptor, closed by `close`), its name."""

    folder: int
    name: bytes
    private: bool  # the state folder's (else the root's)

    def close(self) -> None:
        if self.private:
            os.close(self.folder)  # the root's descriptor is the commit's own


@dataclass(frozen=True, slots=True)
class Begun:
    """A commit's journal, begun: where (None: the commit has none), and a warning why not."""

    place: Place | None
    warning: str | None = None


_NO_JOURNAL: Final = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def begin(disk: Disk, root: int, state: int | None, prepared: list[bytes], *, outside: bool) -> Begun:
    """Create the journal of a commit on the root folder `root` with the `prepared` records:
    in the root's state folder `state` (a descriptor, taken: closed with the `Place`, or
    here) when there is one, else in the root. A root we may not write in gets none, as
    before; a journal's name in the root taken by anything gets none either, with a warning
    (what is there was warned about by `recover`, and is left as it is)."""
    data = header(os.fstat(root), outside=outside) + b"".join(prepared)
    if state is not None:
        name = state_name(os.fstat(root))
        try:
            disk.append(state, name, data, new=True)
        except OSError:  # full, or a name we did not obey: the root's place, as without one
            os.close(state)
        else:
            return Begun(Place(state, name, True))
    try:
        disk.append(root, JOURNAL, data, new=True)
    except FileExistsError:
        return Begun(None, f"this commit had no crash journal: {ROOT_NAME} in the root is not ours")
    except OSError as exc:
        if exc.errno not in _NO_JOURNAL:
            raise
        return Begun(None)  # a root we may not write in (only folders below it)
    return Begun(Place(root, JOURNAL, False))





def present(root_real: str, state: tuple[int, str] | None) -> bool:
    """Whether anything is at a journal's name (not followed: a symlink counts) in the root
    (`root_real`, its real path) or in its state folder `state` (a descriptor, the caller's, and its path): if
    not, there is nothing to recover, and `_recovery`, the reading back of untrusted
    records, is not even imported (every committing run asks; a journal is left only by
    a commit that was killed). Anything there, whatever it is, goes through all of
    `_recovery`'s checks."""
    try:
        info = os.stat(root_real)
    except OSError:
        return False  # (as `_recovery.recover` says: no root, nothing to recover)
    places: list[tuple[str, int | None]] = [(os.path.join(root_real, ROOT_NAME), None)]
    if state is not None:
        places.append((os.fsdecode(state_name(info)), state[0]))
    for name, folder in places:
        try:
            os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            continue
        except OSError:
            pass  # (something there that cannot be looked at: `_recovery` says what)
        return True
    return False
