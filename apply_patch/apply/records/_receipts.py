"""Receipts: what each commit changed, kept outside the tree, so that it can be undone.

The one place the engine writes outside the root. Each commit to disk (every
surface goes through `_pipeline` and `_commit`) leaves a receipt in the
root's own folder of the user's state folder:
`$APPLY_PATCH_STATE_DIR`, else `$XDG_STATE_HOME/apply_patch`, else
`~/.local/state/apply_patch`, then a folder named by a hash of the root's
real path. Both folders are created 0700, opened without following a
symlink, and must belong to the user running the engine. A commit in progress
keeps its crash journal there too, as `journal.DEV.INO` (`_journal`: none of
the names a receipt takes).

A receipt is `SEQUENCE-ID.json` (its id, its sequence, the time, the
operations, each file's before and after: SHA-256, mode, owner, symlink
text) and the folder `SEQUENCE-ID/` with the bytes to restore. The id is
short and random, for people (`ID_LENGTH` characters); the
sequence, one more than the root's last, orders the receipts, never the
clock (which may step back). A saved file is the replaced or deleted file
itself, hard-linked, only when it had one name: after the commit only the
state folder names that inode, so nobody can change it through another
name; otherwise (and across file systems) it is a copy. It is written
and synced before the commit's first visible change (`disk._commit`, through
`disk._receipts`, which writes, prunes and removes receipts: this module says
what a receipt holds and where, and opens the store to read), removed
again when the commit fails and undoes itself; a process killed mid-commit
leaves the receipt, and the tree at the receipt's before or after (the
root's crash journal, `_journal`, finishes or undoes the commit on the next
run), which `undo` accepts file by file. Receipts are pruned, oldest first,
beyond `disk._receipts.KEEP_COUNT` or `KEEP_BYTES`, by the sizes of their saved files kept in
the index `sizes` (a receipt missing from it is measured, once); and once a
day a commit prunes the whole state folder (`disk._sweep`: every root's receipts
by age and by one cap on their total size; the folders of roots that no
longer exist).

Reading them back (`undo_plan`, `history`, `show`: each record checked by
`_receipt_check`) and the patches kept for review (`stage`, `pending`) are
`_receipts_read`'s: a commit, which writes a receipt, imports none of it
(start-up time).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time

from ..._errors import os_reason
from . import _digest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, Final

VERSION: Final = 2  # written now; version 1 is read (`_receipt_check`)
ID_LENGTH: Final = 8  # a new id's characters (at most 12 are read)
ID_ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"  # no i, l, o, u: read aloud without doubt
HEX: Final = frozenset("0123456789abcdef")  # a digest's digits, and a version 1 id's last part's
ENV: Final = "APPLY_PATCH_STATE_DIR"
# Each receipt's saved bytes, a line "ID SIZE" each: pruning reads this one file rather than
# looking at every saved file of every kept receipt at each commit (1,000s of stats).
SIZES: Final = "sizes"
SWEPT: Final = "pruned"  # in the state folder: its time is when `_sweep` last ran over every root
SWEEP_EVERY: Final = 86_400  # seconds: a commit prunes the whole state folder once a day
OPEN_DIR: Final = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
OPEN_READ: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


class Unavailable(Exception):
    """The state folder cannot be used: the reason, in words."""


def base_folder() -> str:
    """Where the receipts of every root go (see the module's docstring)."""
    explicit = os.environ.get(ENV)
    if explicit:
        return os.path.abspath(explicit)
    state = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(state):  # the XDG rule: a relative value is ignored
        state = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(state, "apply_patch")


def folder_of(root_real: str) -> str:
    """The folder of `root_real`'s receipts."""
    key = _digest.hexdigest(os.fsencode(root_real))[:24]
    return os.path.join(base_folder(), key)


def digest(data: bytes) -> str:
    return _digest.hexdigest(data)


class Store:
    """The receipts folder of one root, open (a descriptor); `close()` releases it."""

    def __init__(self, root_real: str, opened: Callable[[int, str, str], int] | None = None) -> None:
        """Open the receipts folder of the root `root_real` (Unavailable when it is missing,
        not the user's own, or cannot be opened). `opened(parent, name, shown)` opens each
        of the two folders, the state folder then the root's: `private_folder` by default;
        `disk.made_store` passes one that makes it first."""
        self.root_real = root_real
        self.path = folder_of(root_real)
        base = os.path.dirname(self.path)
        opened = opened or private_folder
        try:
            parent = os.open(os.path.realpath(os.path.dirname(base)), OPEN_DIR)
            try:
                top = opened(parent, os.path.basename(base), base)
            finally:
                os.close(parent)
            try:
                self.fd = opened(top, os.path.basename(self.path), self.path)
            finally:
                os.close(top)
        except OSError as exc:
            raise Unavailable(f"{self.path}: {os_reason(exc)}") from exc

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def ids(self) -> list[str]:
        """The receipts' names (`SEQUENCE-ID`, or a version 1 id), oldest first: by sequence,
        version 1's (sequence 0, named by time) before every later one."""
        return names_in(self.fd)

    def next_name(self) -> str:
        """The name of a new receipt (`name_after` the root's receipts; the root's lock is
        held: no other commit races)."""
        return name_after(self.ids())

    def read(self, name: str, folder: str | None = None, limit: int | None = None) -> bytes:
        """The bytes of the regular file `name` (in the receipt folder `folder`), opened
        without following a symlink or blocking; OSError when it is not a regular file or
        holds more than `limit` bytes."""
        parent = os.open(folder, OPEN_DIR, dir_fd=self.fd) if folder else self.fd
        try:
            fd = os.open(name, OPEN_READ, dir_fd=parent)
        finally:
            if folder:
                os.close(parent)
        with open(fd, "rb") as file:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            if limit is not None and info.st_size > limit:
                raise OSError(errno.EFBIG, f"larger than {limit} bytes")
            return file.read()

    def _known_sizes(self) -> dict[str, int]:
        """The saved bytes of each receipt as the index `SIZES` last recorded them (receipts
        never change once written); {} when there is no index or it cannot be read."""
        return known_sizes(self.fd)


def parse_name(name: str) -> tuple[int, str] | None:
    """A receipt's name → (sequence, id): `SEQUENCE-ID` (version 2), or a version 1 id
    `YYYYMMDD-HHMMSS-NNNNNNNNN-xxxx` (sequence 0); None for any other name."""
    parts = name.split("-")
    if len(parts) == 2 and 1 <= len(parts[0]) <= 12 and parts[0].isdigit() and parts[0].isascii():
        if is_id(parts[1]):
            return int(parts[0]), parts[1]
        return None
    lengths = [len(part) for part in parts]
    if lengths == [8, 6, 9, 4] and "".join(parts[:3]).isdigit() and "".join(parts[:3]).isascii():
        if set(parts[3]) <= HEX:
            return 0, name
    return None


def is_id(text: str) -> bool:
    """Whether `text` is a version 2 id (4 to 12 characters of `ID_ALPHABET`)."""
    return 4 <= len(text) <= 12 and all(c in ID_ALPHABET for c in text)


def names_in(folder: int) -> list[str]:
    """The names of the receipts in the root's folder `folder`, oldest first (see `Store.ids`)."""
    found = []
    for entry in os.listdir(folder):
        if entry.endswith(".json") and (parsed := parse_name(entry[:-5])) is not None:
            found.append((parsed[0], entry[:-5]))
    return [name for _, name in sorted(found)]


def known_sizes(folder: int) -> dict[str, int]:
    """The index `SIZES` of the root's folder `folder` (receipt name → saved bytes); {} when
    there is none or it cannot be read."""
    try:
        fd = os.open(SIZES, OPEN_READ, dir_fd=folder)
    except OSError:
        return {}
    with open(fd, "rb") as file:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return {}
            text = file.read(1 << 20).decode("ascii", "replace")
        except OSError:
            return {}
    sizes = {}
    for line in text.splitlines():
        receipt, _, size = line.partition(" ")
        if size.isdigit() and size.isascii():
            sizes[receipt] = int(size)
    return sizes


def private_folder(parent: int, name: str, shown: str) -> int:
    """The folder `name` in `parent`, opened without following a symlink, the running user's
    own and private to them (a mode that lets others in is taken back to 0700: it is ours)."""
    fd = os.open(name, OPEN_DIR, dir_fd=parent)
    info = os.fstat(fd)
    if info.st_uid != os.geteuid():
        os.close(fd)
        raise Unavailable(f"{shown} belongs to another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.fchmod(fd, 0o700)  # ours: made private
    return fd


def saved_size(parent: int, receipt: str) -> int:
    try:
        fd = os.open(receipt, OPEN_DIR, dir_fd=parent)
    except OSError:
        return 0
    try:
        return sum(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_size for entry in os.listdir(fd))
    finally:
        os.close(fd)


def receipt_text(document: dict[str, Any]) -> str:
    """The receipt `document` as JSON text, every character outside ASCII escaped (lone
    surrogates of undecodable names included, as `json` reads them back)."""
    return json.dumps(document, ensure_ascii=True)


def name_after(names: Iterable[str]) -> str:
    """A new `SEQUENCE-ID` name after `names` (receipts', or the review gate's pending
    records'): the sequence one more than the last, a new random id none of them has.
    The sequence orders them, never the clock (which may step back)."""
    taken = [parsed for name in names if (parsed := parse_name(name)) is not None]
    sequence = max((number for number, _ in taken), default=0) + 1
    ids = {receipt for _, receipt in taken}
    for _ in range(100):  # 40 random bits: a clash among a few hundred ids is rare
        receipt = short_id()
        if receipt not in ids:
            return f"{sequence}-{receipt}"
    raise OSError(errno.EEXIST, "no free receipt id")


def short_id() -> str:
    """A new receipt id: `ID_LENGTH` random characters of `ID_ALPHABET` (5 bits each)."""
    number = int.from_bytes(os.urandom(5), "big")
    return "".join(ID_ALPHABET[(number >> (5 * n)) & 31] for n in range(ID_LENGTH))


def sweep_due(base: str) -> bool:
    """Whether the state folder `base` is to be pruned whole (`_sweep`): `SWEEP_EVERY` seconds
    have passed since it last was (the time of its file `SWEPT`), or that time is ahead of the
    clock (which stepped back), or it never was. One `stat`: asked after every commit."""
    try:
        last = os.stat(os.path.join(base, SWEPT), follow_symlinks=False).st_mtime
    except OSError:
        return True
    now = time.time()
    return not now - SWEEP_EVERY < last <= now + 60


def relative_to_root(path: str, root_real: str) -> str:
    """`path` relative to the root, with `/`; absolute when outside it (`outside_root=allow`)."""
    prefix = root_real.rstrip(os.sep) + os.sep
    if path.startswith(prefix):
        return path[len(prefix) :].replace(os.sep, "/")  # plans' paths are normalised already
    return path
