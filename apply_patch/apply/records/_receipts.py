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
short and random, for people (`_receipt_check.ID_LENGTH` characters); the
sequence, one more than the root's last, orders the receipts, never the
clock (which may step back). A saved file is the replaced or deleted file
itself, hard-linked, only when it had one name: after the commit only the
state folder names that inode, so nobody can change it through another
name; otherwise (and across file systems) it is a copy. It is written
and synced before the commit's first visible change (`_commit`), removed
again when the commit fails and undoes itself; a process killed mid-commit
leaves the receipt, and the tree at the receipt's before or after (the
root's crash journal, `_journal`, finishes or undoes the commit on the next
run), which `undo` accepts file by file. Receipts are pruned, oldest first,
beyond `KEEP_COUNT` or `KEEP_BYTES`, by the sizes of their saved files kept in
the index `sizes` (a receipt missing from it is measured, once); and once a
day a commit prunes the whole state folder (`_sweep`: every root's receipts
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
import threading
import time

from ..._errors import PatchIOError, os_reason
from . import _digest
from ..planning import FileChange, Plan
from ._receipt_check import ID_ALPHABET, ID_LENGTH, VERSION, parse_name
from ..planning import hidden

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

ENV: Final = "APPLY_PATCH_STATE_DIR"
KEEP_COUNT: Final = 200  # receipts kept per root
KEEP_BYTES: Final = 512 << 20  # bytes of saved files kept per root
# Each receipt's saved bytes, a line "ID SIZE" each: pruning reads this one file rather than
# looking at every saved file of every kept receipt at each commit (1,000s of stats).
_SIZES: Final = "sizes"
SWEPT: Final = "pruned"  # in the state folder: its time is when `_sweep` last ran over every root
SWEEP_EVERY: Final = 86_400  # seconds: a commit prunes the whole state folder once a day
_THREAD_BYTES: Final = 1 << 20  # contents above which they are hashed in a thread of their own
_THREADS: Final = 4  # threads hashing at most
_DIR: Final = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE_READ: Final = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
_FILE_NEW: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


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

    def __init__(self, root_real: str, *, create: bool) -> None:
        self.root_real = root_real
        self.path = folder_of(root_real)
        base = os.path.dirname(self.path)
        try:
            if create:
                os.makedirs(os.path.dirname(base), 0o700, exist_ok=True)
            parent = os.open(os.path.realpath(os.path.dirname(base)), _DIR)
            try:
                top = _private(parent, os.path.basename(base), create, base)
            finally:
                os.close(parent)
            try:
                self.fd = _private(top, os.path.basename(self.path), create, self.path)
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
        """The name of a new receipt: the sequence after the root's last, a new random id
        (one no receipt of the root has; the root's lock is held: no other commit races)."""
        taken = [parsed for name in self.ids() if (parsed := parse_name(name)) is not None]
        sequence = max((number for number, _ in taken), default=0) + 1
        ids = {receipt for _, receipt in taken}
        for _ in range(100):  # 40 random bits: a clash among a few hundred ids is rare
            receipt = _short_id()
            if receipt not in ids:
                return f"{sequence}-{receipt}"
        raise OSError(errno.EEXIST, "no free receipt id")

    def read(self, name: str, folder: str | None = None, limit: int | None = None) -> bytes:
        """The bytes of the regular file `name` (in the receipt folder `folder`), opened
        without following a symlink or blocking; OSError when it is not a regular file or
        holds more than `limit` bytes."""
        parent = os.open(folder, _DIR, dir_fd=self.fd) if folder else self.fd
        try:
            fd = os.open(name, _FILE_READ, dir_fd=parent)
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

    def remove(self, receipt: str) -> None:
        """Remove the receipt named `receipt` and its saved files (quietly: what cannot be
        removed stays)."""
        remove_receipt(self.fd, receipt)

    def prune(self, keep: str, kept_size: int | None = None) -> None:
        """Remove the oldest receipts beyond KEEP_COUNT or KEEP_BYTES (never `keep`, whose
        saved files take `kept_size` bytes when known: not looked at again); and the saved
        files of receipts never completed (a process killed while writing one)."""
        ids = self.ids()
        complete = set(ids)
        for name in os.listdir(self.fd):
            ours = name.removeprefix(".")[:1].isdigit()  # a receipt's; not `pending/`
            if (ours or name.startswith(f".{_SIZES}-")) and name.startswith("."):  # its writer killed
                try:
                    os.unlink(name, dir_fd=self.fd)
                except OSError:
                    pass
            elif ours and not name.endswith(".json") and name not in complete and name != keep:
                self.remove(name)  # the saved files of a receipt never completed
        recorded = self._known_sizes()
        known = recorded if kept_size is None else {**recorded, keep: kept_size}
        sizes = {receipt: known[receipt] if receipt in known else _size(self.fd, receipt) for receipt in ids}
        total = sum(sizes.values())
        for receipt in ids:
            if receipt == keep or (len(ids) <= KEEP_COUNT and total <= KEEP_BYTES):
                break
            self.remove(receipt)
            ids = [other for other in ids if other != receipt]
            total -= sizes.pop(receipt)
        if sizes != recorded:
            self._write_sizes(sizes)

    def _known_sizes(self) -> dict[str, int]:
        """The saved bytes of each receipt as the index `_SIZES` last recorded them (receipts
        never change once written); {} when there is no index or it cannot be read."""
        return known_sizes(self.fd)

    def _write_sizes(self, sizes: dict[str, int]) -> None:
        """The index `_SIZES` replaced by `sizes` (best effort: without it, prune counts again)."""
        temporary = f".{_SIZES}-{os.getpid()}"
        try:
            fd = os.open(temporary, _FILE_NEW, 0o600, dir_fd=self.fd)
            with open(fd, "wb") as file:
                file.write("".join(f"{receipt} {size}\n" for receipt, size in sizes.items()).encode("ascii"))
            os.replace(temporary, _SIZES, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except OSError:
            try:
                os.unlink(temporary, dir_fd=self.fd)
            except OSError:
                pass


def names_in(folder: int) -> list[str]:
    """The names of the receipts in the root's folder `folder`, oldest first (see `Store.ids`)."""
    found = []
    for entry in os.listdir(folder):
        if entry.endswith(".json") and (parsed := parse_name(entry[:-5])) is not None:
            found.append((parsed[0], entry[:-5]))
    return [name for _, name in sorted(found)]


def known_sizes(folder: int) -> dict[str, int]:
    """The index `_SIZES` of the root's folder `folder` (receipt name → saved bytes); {} when
    there is none or it cannot be read."""
    try:
        fd = os.open(_SIZES, _FILE_READ, dir_fd=folder)
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


def _private(parent: int, name: str, create: bool, shown: str) -> int:
    """The folder `name` in `parent`: made 0700 if asked, opened without following a
    symlink, the running user's own and private to them."""
    if create:
        try:
            os.mkdir(name, 0o700, dir_fd=parent)
        except FileExistsError:
            pass
    fd = os.open(name, _DIR, dir_fd=parent)
    info = os.fstat(fd)
    if info.st_uid != os.geteuid():
        os.close(fd)
        raise Unavailable(f"{shown} belongs to another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.fchmod(fd, 0o700)  # ours: made private
    return fd


def remove_receipt(folder: int, name: str) -> None:
    """Remove the receipt `name` of the root's folder `folder` and its saved files (quietly:
    what cannot be removed stays)."""
    try:
        os.unlink(f"{name}.json", dir_fd=folder)
    except OSError:
        pass
    try:
        _remove_tree(folder, name)
    except OSError:
        pass


def _remove_tree(parent: int, name: str) -> None:
    fd = os.open(name, _DIR, dir_fd=parent)
    try:
        for entry in os.listdir(fd):
            os.unlink(entry, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def _size(parent: int, receipt: str) -> int:
    try:
        fd = os.open(receipt, _DIR, dir_fd=parent)
    except OSError:
        return 0
    try:
        return sum(os.stat(entry, dir_fd=fd, follow_symlinks=False).st_size for entry in os.listdir(fd))
    finally:
        os.close(fd)


def _fsync(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EROFS):  # a file system that cannot sync
            raise


class Recorder:
    """The receipt of one commit: `mode` "on" (best effort) or "required"; `undoes` the id
    of the receipt this commit undoes. After `write`, `receipt` is its id, or `warning`
    says why there is none."""

    def __init__(self, root_real: str, mode: str = "on", undoes: str | None = None) -> None:
        self.root_real = root_real
        self.mode = mode
        self.undoes = undoes
        self.receipt: str | None = None  # its id
        self.name: str | None = None  # its name in the store (`SEQUENCE-ID`)
        self.warning: str | None = None
        self._hashes: dict[int, str] = {}  # id() of each content of the plan → its SHA-256
        self._hashing: list[threading.Thread] = []  # each joined before a hash is used

    def prepare(self, plan: Plan) -> None:
        """Start hashing the plan's contents (old and new) beside the commit's own checks:
        `hashlib`, taken for large contents (`_digest`), lets other threads run, so large
        files are hashed while the commit reads them back (on another core, where there is
        one), each large content in a thread of its own (up to `_THREADS`): a large file's
        old and new bytes side by side, the commit waiting for the longer only."""
        contents = [
            state.data
            for change in plan.changes
            for state in (change.before, change.after)
            if state is not None and not state.is_link
        ]
        if sum(map(len, contents)) < _THREAD_BYTES:
            return  # small: hashed when written, a thread would cost more
        count = max(1, min(_THREADS, sum(1 for data in contents if len(data) >= _THREAD_BYTES)))
        shares: list[list[bytes]] = [[] for _ in range(count)]
        sizes = [0] * count
        for data in sorted(contents, key=len, reverse=True):  # each to the share with the fewest bytes
            least = sizes.index(min(sizes))
            shares[least].append(data)
            sizes[least] += len(data)

        for share in shares:
            thread = threading.Thread(target=self._hash, args=(share,), daemon=True)
            try:
                thread.start()
            except RuntimeError:  # no thread to be had: hashed when written
                continue
            self._hashing.append(thread)

    def _hash(self, share: list[bytes]) -> None:
        """Hash the contents of `share` (in a thread of its own). One that fails (no memory
        left) is hashed again when written, where its error is raised."""
        try:
            for data in share:
                self._hashes[id(data)] = digest(data)
        except Exception:  # noqa: BLE001  (never a traceback from a thread: `_digest` retries)
            pass

    def _digest(self, data: bytes) -> str:
        while self._hashing:  # every thread done
            self._hashing.pop().join()
        return self._hashes.get(id(data)) or digest(data)

    def write(
        self,
        plan: Plan,
        where: Callable[[FileChange], tuple[int, bytes]],
        old: dict[str, tuple[int, os.stat_result]],
    ) -> None:
        """Write and sync the receipt of `plan` (its files checked: `old` holds each replaced
        file's descriptor and status; `where` names a change's file as (folder, name))."""
        try:
            with Store(self.root_real, create=True) as store:
                name = store.next_name()
                try:
                    size = self._write(store, name, plan, where, old)
                except BaseException:
                    store.remove(name)
                    raise
                self.receipt, self.name = name.partition("-")[2], name
                try:
                    store.prune(name, size)
                except OSError:
                    pass
        except (OSError, Unavailable) as exc:
            reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            if self.mode == "required":
                raise PatchIOError(
                    f"The receipt of the patch could not be written ({reason}), and the journal "
                    "is required (--journal required)"
                ) from exc
            self.warning = (
                f"undo is unavailable for this patch: its receipt could not be written ({reason})"
            )

    def discard(self) -> None:
        """The commit failed and undid itself: its receipt goes."""
        if self.name is None:
            return
        try:
            with Store(self.root_real, create=False) as store:
                store.remove(self.name)
        except (OSError, Unavailable):
            pass
        self.receipt = self.name = None

    def _write(
        self,
        store: Store,
        name: str,
        plan: Plan,
        where: Callable[[FileChange], tuple[int, bytes]],
        old: dict[str, tuple[int, os.stat_result]],
    ) -> int:
        """Write the receipt `name`; the bytes of the files it saved."""
        os.mkdir(name, 0o700, dir_fd=store.fd)
        saved = os.open(name, _DIR, dir_fd=store.fd)
        try:
            files = [self._entry(n, c, saved, where, old) for n, c in enumerate(plan.changes)]
            if any(entry["before"] for entry in files):  # names of saved files to make durable
                _fsync(saved)
        finally:
            os.close(saved)
        now = time.time_ns()  # shown to people; never the order (the sequence is)
        sequence, _, receipt = name.partition("-")
        document = {
            "version": VERSION,
            "id": receipt,
            "sequence": int(sequence),
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now / 1e9)),
            "time_ns": now,
            "root": self.root_real,
            "undoes": self.undoes,
            "operations": [
                {"letter": op.letter, "path": op.path, "source": op.source} for op in plan.operations
            ],
            "files": files,
            "folders": [_relative(folder, self.root_real) for folder in plan.new_folders],
        }
        temp = f".{name}.tmp"
        fd = os.open(temp, _FILE_NEW, 0o600, dir_fd=store.fd)
        try:
            _write_all(fd, _text(document).encode())
            _fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, f"{name}.json", src_dir_fd=store.fd, dst_dir_fd=store.fd)
        _fsync(store.fd)
        # Each saved file holds the bytes checked (linked: its size was checked; else copied).
        saved_changes = (c.before for c in plan.changes if c.before is not None and not c.before.is_link)
        return sum(len(before.data) for before in saved_changes)

    def _entry(
        self,
        number: int,
        change: FileChange,
        saved: int,
        where: Callable[[FileChange], tuple[int, bytes]],
        old: dict[str, tuple[int, os.stat_result]],
    ) -> dict[str, Any]:
        """One file of the receipt; its old bytes saved in the folder `saved` as `number`."""
        before, after = change.before, change.after
        entry: dict[str, Any] = {"path": _relative(change.path, self.root_real)}
        entry["after"] = None if after is None else {"sha256": self._digest(after.data), "mode": after.mode}
        if before is None:
            entry["before"] = None
        elif before.is_link:
            entry["before"] = {"link": before.data.hex()}
        else:
            checked = old.get(change.path)
            info = checked[1] if checked else before.info
            mode = stat.S_IMODE(info.st_mode) if info is not None else before.mode
            owner = (info.st_uid, info.st_gid) if info is not None else before.owner
            if owner is None:  # (a plan always reads a file's status; this is not reached)
                owner = (os.geteuid(), os.getegid())
            blob = str(number)
            _save(saved, blob, before.data, where(change), checked[1] if checked else None)
            entry["before"] = {
                "sha256": self._digest(before.data),
                "mode": mode,
                "blob": blob,
                "owner": list(owner),
                # `show` follows the hard-link rule the diff followed, decided now: the file's
                # other names may be outside the root, where the user may not read it.
                "hidden": info.st_nlink if info is not None and hidden(info) else 0,
            }
        return entry


def _save(
    saved: int, blob: str, data: bytes, place: tuple[int, bytes], checked: os.stat_result | None
) -> None:
    """The old bytes as `blob`: the file itself, linked (it will be replaced or deleted, so the
    link keeps its old inode), when that is the file checked and it had no other name (once
    it is replaced, only the state folder names it: nobody can write it through another
    name); else a synced copy of `data`."""
    folder, name = place
    if checked is not None and checked.st_nlink == 1:
        try:
            os.link(name, blob, src_dir_fd=folder, dst_dir_fd=saved, follow_symlinks=False)
            now = os.stat(blob, dir_fd=saved, follow_symlinks=False)
            if (now.st_dev, now.st_ino, now.st_size, now.st_nlink) == (
                checked.st_dev, checked.st_ino, checked.st_size, 2
            ):  # the file checked, and no name made for it meanwhile
                return
            os.unlink(blob, dir_fd=saved)
        except OSError:  # another file system, a file we may not link (protected_hardlinks)
            pass
    fd = os.open(blob, _FILE_NEW, 0o600, dir_fd=saved)
    try:
        _write_all(fd, data)
        _fsync(fd)
    finally:
        os.close(fd)


def _text(document: dict[str, Any]) -> str:
    """The receipt `document` as JSON text, every character outside ASCII escaped (lone
    surrogates of undecodable names included, as `json` reads them back)."""
    return json.dumps(document, ensure_ascii=True)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _short_id() -> str:
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


def _new_id() -> str:
    """A pending patch's id: the UTC time and a few random hex digits (sorting ids sorts by time)."""
    now = time.time_ns()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now // 1_000_000_000))
    return f"{stamp}-{now % 1_000_000_000:09d}-{os.urandom(2).hex()}"


def _relative(path: str, root_real: str) -> str:
    """`path` relative to the root, with `/`; absolute when outside it (`outside_root=allow`)."""
    prefix = root_real.rstrip(os.sep) + os.sep
    if path.startswith(prefix):
        return path[len(prefix) :].replace(os.sep, "/")  # plans' paths are normalised already
    return path
