"""A crash journal read back: the commit it records finished or undone (`_journal` writes it).

A journal is untrusted input: another user may have put anything at its name
in the root. `recover(root)` (run under the root's lock before a commit's
planning, when `_journal.present` finds anything at a journal's name) acts only on a regular file, not a link, owned by the
running user, that no one else may write, with one link, opened without
following or blocking; then only on records whose every folder and name is
confined to the root through the commit's descriptor walk (`_dirs`; outside
records only from the state folder, with `outside allow`) and whose files
are the ones the record names (device and inode). Without `commit` it undoes
(removes the temporary files and the created folders, puts the moved files
back); with it, it finishes (each step not yet done, when its file is still
the one the commit saw). Then it removes the journal. Anything else is left
as it is, with a one-line warning (`Recovery.refused`). A journal of the
previous version (`apply_patch journal 1`, absolute folders, in the root) is
recovered once under the same checks.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass

from ..planning import JOURNAL, FolderChanged, Folders
from ._journal import COMMIT, HEADER, ROOT_NAME, TEMP_SUFFIX, header, state_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._journal import Disk

_HEADER_V1: Final = b"apply_patch journal 1\n"  # the previous version's (absolute folders, in the root)
_MAX_BYTES: Final = 1 << 28  # a journal larger is not read (a commit of 1,000,000 files fits)
_OPEN: Final = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO at the name opens at once (and is refused)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


@dataclass(frozen=True, slots=True)
class Recovery:
    """What `recover` did: a sentence per journal acted on (`done`), and a one-line warning
    per journal, or set of records, left as it is (`refused`)."""

    done: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()


class _Refused(Exception):
    """A journal, or a record, not obeyed: why, in words."""


def recover(root: str, disk: Disk, state: tuple[int, str] | None) -> Recovery:
    """Finish or undo the commit whose journal is the root's (see the module's docstring):
    in the root, and in its state folder `state` (a descriptor, the caller's, and its path),
    when there is one.

    Every step is checked first: a file that changed since is left as it is.
    """
    root_real = os.path.realpath(root)
    done: list[str] = []
    refused: list[str] = []
    with Folders() as folders:
        try:
            root_fd = folders.get(root_real)
            root_info = os.fstat(root_fd)
        except (OSError, FolderChanged):
            return Recovery()
        places: list[tuple[int, bytes, bool, str]] = [(root_fd, JOURNAL, False, f"{ROOT_NAME} in the root")]
        if state is not None:
            shown = os.path.join(state[1], os.fsdecode(state_name(root_info)))
            places.append((state[0], state_name(root_info), True, shown))
        for folder, name, private, shown in places:
            steps = _Steps(disk, folders, root_real, root_info, private)
            try:
                outcome = steps.run(folder, name)
            except _Refused as why:
                refused.append(f"the crash journal {shown} was not obeyed: {why}; it was left as it is")
                continue
            if outcome is None:
                continue
            done.append(outcome)
            if steps.refused:
                count = steps.refused
                refused.append(
                    f"{count} record{'' if count == 1 else 's'} of the crash journal {shown} "
                    f"{'was' if count == 1 else 'were'} not obeyed: {steps.why}"
                )
    return Recovery(tuple(done), tuple(refused))


def _read(folder: int, name: bytes) -> tuple[bytes, os.stat_result] | None:
    """The journal `name` in `folder` and its status; None when there is none; _Refused
    when what is there may not be obeyed."""
    try:
        fd = os.open(name, _OPEN, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Refused("it is a symlink") from None
        if exc.errno == errno.ENXIO:
            raise _Refused("it is a socket, not a regular file") from None
        raise _Refused(f"it cannot be read ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        _check(info)
        data = os.read(fd, _MAX_BYTES + 1) if info.st_size <= _MAX_BYTES else b""
        chunks = [data]
        while data and sum(map(len, chunks)) <= _MAX_BYTES:
            data = os.read(fd, _MAX_BYTES + 1)
            chunks.append(data)
        whole = b"".join(chunks)
        if info.st_size > _MAX_BYTES or len(whole) > _MAX_BYTES:
            raise _Refused(f"it is larger than {_MAX_BYTES} bytes")
        return whole, info
    finally:
        os.close(fd)


_KINDS: Final = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def _check(info: os.stat_result) -> None:
    """A journal this user's own commit could have written, or _Refused."""
    if not stat.S_ISREG(info.st_mode):
        raise _Refused(f"it is {_KINDS.get(stat.S_IFMT(info.st_mode), 'not a file')}, not a regular file")
    if info.st_uid != os.geteuid():
        raise _Refused(f"it belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o022:
        raise _Refused(f"others may write it (mode {stat.S_IMODE(info.st_mode):04o})")
    if info.st_nlink != 1:
        raise _Refused(f"it has {info.st_nlink} links")


# Each record: its kind, then so many names (hex), then so many numbers (decimal); by version.
_SHAPES: Final = {
    2: {
        b"aside": (3, 2),  # folder, name, aside; the file's (device, inode)
        b"folder": (1, 0),  # path: a folder created
        b"temp": (2, 0),  # folder, temporary file
        b"replace": (3, 4),  # folder, temporary file, name; the temporary file's and the old file's identities
        b"link": (3, 2),  # folder, temporary file, the new file's name; the temporary file's identity
        b"delete": (2, 2),  # folder, name, its identity
        b"drop": (2, 2),  # folder, an aside file to remove, its identity
    },
    1: {  # the previous version's: no identity of the files it made
        b"aside": (3, 0),
        b"folder": (1, 0),
        b"temp": (2, 0),
        b"replace": (3, 2),
        b"link": (3, 0),
        b"delete": (2, 2),
        b"drop": (2, 0),
    },
}
_Record = tuple[bytes, list[bytes], tuple[int, ...]]


def _parsed(line: bytes, version: int) -> _Record | None:
    """A record's kind, names and numbers; None for a line that is not one."""
    kind, *fields = line.split(b" ")
    shape = _SHAPES[version].get(kind)
    if shape is None or len(fields) != sum(shape):
        return None
    try:
        names = [bytes.fromhex(field.decode("ascii")) for field in fields[: shape[0]]]
        numbers = tuple(int(field) for field in fields[shape[0] :])
    except ValueError:
        return None
    if any(number < 0 for number in numbers):
        return None
    return kind, names, numbers


class _Steps:
    """The records of one journal, each done (`forward`) or undone (`back`) if it still may
    be and passes its checks; `refused` counts those that did not (`why`: the first reason)."""

    def __init__(
        self, disk: Disk, folders: Folders, root_real: str, root: os.stat_result, private: bool
    ) -> None:
        self.disk = disk
        self.folders = folders
        self.root_real = root_real
        self.root = root
        self.private = private
        self.outside = False
        self.version = 2
        self.refused = 0
        self.why = ""
        self.temps: dict[tuple[bytes, bytes], tuple[int, ...]] = {}  # (folder, temp) → its identity

    def run(self, folder: int, name: bytes) -> str | None:
        """Act on the journal `name` in `folder`, then remove it: what was done (None: no journal)."""
        read = _read(folder, name)
        if read is None:
            return None
        data, info = read
        if any(header(self.root, outside=o).startswith(data) for o in (False, True)):
            self._remove(folder, name, info)  # killed while writing its header: nothing was changed yet
            return None
        lines = data.split(b"\n")
        records = self._header(lines)
        finished = COMMIT.strip() in lines
        parsed = []
        for number, line in enumerate(records):
            one = _parsed(line, self.version)
            if one is None:
                if line and line != COMMIT.strip() and (number < len(records) - 1 or finished):  # not torn
                    self._refuse("a line that is not a record")
                continue
            parsed.append(one)
        for kind, names, numbers in parsed:  # what the commit's second append says of its temporary files
            if kind in (b"replace", b"link") and self.version == 2:
                self.temps[(names[0], names[1])] = numbers[:2]
        if finished:
            done = sum(self._checked(self.forward, one) for one in parsed)
        else:
            done = sum(self._checked(self.back, one) for one in reversed(parsed))
        self._remove(folder, name, info)
        how = "finished" if finished else "undone"
        return f"a commit interrupted before it was complete was {how} first ({done} step{'' if done == 1 else 's'})"

    def _remove(self, folder: int, name: bytes, info: os.stat_result) -> None:
        """Remove the journal once recovered, if still the file read (else left for the next run)."""
        try:
            now = os.stat(name, dir_fd=folder, follow_symlinks=False)
            if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino):
                self.disk.unlink(folder, name)
        except OSError:
            pass

    def _header(self, lines: list[bytes]) -> list[bytes]:
        """The record lines after the header, whose version, root and policy are taken; _Refused."""
        first = lines[0] + b"\n"
        if first == _HEADER_V1 and not self.private:
            self.version = 1
            return lines[1:]
        if first != HEADER:
            raise _Refused("it is not an apply_patch journal")
        if len(lines) < 2 or lines[1] != b"root %d %d" % (self.root.st_dev, self.root.st_ino):
            raise _Refused("it was written for another folder at this path (its device and inode differ)")
        self.outside = len(lines) > 2 and lines[2] == b"outside allow"
        return lines[3:] if self.outside else lines[2:]

    def _checked(self, step: "_Step", one: _Record) -> int:
        try:
            return step(*one)
        except _Refused as why:
            self._refuse(str(why))
        except (OSError, FolderChanged):  # gone, or not empty: nothing of ours to do there
            pass
        return 0

    def _refuse(self, why: str) -> None:
        self.refused += 1
        self.why = self.why or why

    def forward(self, kind: bytes, names: list[bytes], numbers: tuple[int, ...]) -> int:
        """Do a step of a commit past its `commit` line, unless done, or its file changed since."""
        if kind not in (b"replace", b"link", b"delete", b"drop"):
            return 0
        folder = self._folder(names[0])
        if kind == b"delete":
            name = _name(names[1])
            if _identity(folder, name) != numbers[:2]:
                return 0  # done, or another file has the name now
            self.disk.unlink(folder, name)
            return 1
        temp = _temp(names[1])
        if kind == b"drop":
            if not self._made(folder, temp, numbers[:2] if numbers else None):
                return 0
            self.disk.unlink(folder, temp)
            return 1
        name = _name(names[2])
        known = numbers[:2] if self.version == 2 else None
        if _identity(folder, temp) is None:
            return 0  # done before the process was killed
        if not self._made(folder, temp, known):
            return 0
        now = _identity(folder, name)
        old = numbers[2:4] if kind == b"replace" and self.version == 2 else numbers[:2]
        if kind == b"replace" and now == old:
            self.disk.replace(folder, temp, name)
            return 1
        if kind == b"link" and now is None:
            self.disk.link(folder, temp, name)
            return 1
        self.disk.unlink(folder, temp)  # the name is another file's now: the new content goes
        return 1

    def back(self, kind: bytes, names: list[bytes], numbers: tuple[int, ...]) -> int:
        """Undo a step of a commit that never reached its `commit` line."""
        if kind == b"folder":
            parent_path, name = os.path.split(names[0])
            parent = self._folder(parent_path or b".")
            self.disk.rmdir(parent, _name(name))  # only if empty
            return 1
        if kind not in (b"temp", b"aside"):
            return 0
        folder = self._folder(names[0])
        if kind == b"temp":
            temp = _temp(names[1])
            if _identity(folder, temp) is None or not self._made(folder, temp, self.temps.get((names[0], names[1]))):
                return 0
            self.disk.unlink(folder, temp)
            return 1
        name, aside = _name(names[1]), _temp(names[2])
        if _identity(folder, name) is None and _identity(folder, aside) is not None:
            if self.version == 2 and _identity(folder, aside) != numbers[:2]:
                raise _Refused("a file that is not the one it names")
            self.disk.replace(folder, aside, name)  # the aside file, back in its place
            return 1
        return 0

    def _made(self, folder: int, temp: bytes, identity: tuple[int, ...] | None) -> bool:
        """Whether `temp` is the commit's own file: its identity, when the journal has it;
        else (a file made before the journal could name it) a regular file of this user
        with one link (`_Refused` otherwise)."""
        info = os.stat(temp, dir_fd=folder, follow_symlinks=False)
        if identity is not None:
            if (info.st_dev, info.st_ino) != identity:
                raise _Refused("a file that is not the one it names")
            return True
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_nlink != 1:
            raise _Refused("a file that is not the one it names")
        return True

    def _folder(self, path: bytes) -> int:
        """The folder `path` of a record, opened through the commit's descriptor walk from `/`
        (never through a symlink), confined to the root; _Refused otherwise. The root's
        descriptor is the one whose identity the journal's header matched (`Folders` keeps it)."""
        relative = path
        if self.version == 1:  # absolute real paths: those under the root only
            root = os.fsencode(self.root_real).rstrip(b"/")
            if path != root and not path.startswith(root + b"/"):
                raise _Refused("a folder outside the root")
            relative = path[len(root) + 1 :] or b"."
        if relative.startswith(b"/"):
            if not (self.private and self.outside):
                raise _Refused("a folder outside the root")
            base, parts = "/", relative[1:].split(b"/") if relative != b"/" else []
        else:
            base, parts = self.root_real, [] if relative == b"." else relative.split(b"/")
        if any(part in (b"", b".", b"..") or b"\0" in part for part in parts):
            raise _Refused("a folder outside the root (a path with '..', '.' or '//')")
        try:
            return self.folders.get(os.path.join(base, *map(os.fsdecode, parts)))
        except FolderChanged as exc:
            raise _Refused(f"a folder on the way {exc.why}") from None


if TYPE_CHECKING:
    from collections.abc import Callable

    _Step = Callable[[bytes, list[bytes], tuple[int, ...]], int]


def _name(name: bytes) -> bytes:
    """A file's name in a record: one name, never a path; _Refused otherwise."""
    if name in (b"", b".", b"..") or b"/" in name or b"\0" in name:
        raise _Refused("a name that is not one file's")
    return name


def _temp(name: bytes) -> bytes:
    """A name the commit gives the files it makes (`.NAME.XXXXXXXX.apply_patch.tmp`), or _Refused."""
    if not (_name(name).startswith(b".") and name.endswith(TEMP_SUFFIX)):
        raise _Refused("a file not named as the commit's own")
    return name


def _identity(folder: int, name: bytes) -> tuple[int, ...] | None:
    """The (device, inode) of the entry `name` (not followed), or None when there is none."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return (info.st_dev, info.st_ino) if not stat.S_ISDIR(info.st_mode) else (-1, -1)
