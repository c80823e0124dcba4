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

A receipt is `ID.json` (the id, the time, the operations, each file's
before and after: SHA-256, mode, symlink text) and the folder `ID/` with
the bytes to restore: the replaced or deleted file itself, hard-linked
where the state folder shares its file system, else a copy. It is written
and synced before the commit's first visible change (`_commit`), removed
again when the commit fails and undoes itself; a process killed mid-commit
leaves the receipt, and the tree at the receipt's before or after (the
root's crash journal, `_journal`, finishes or undoes the commit on the next
run), which `undo` accepts file by file. Receipts are pruned, oldest first,
beyond `KEEP_COUNT` or `KEEP_BYTES`, by the sizes of their saved files kept in
the index `sizes` (a receipt missing from it is measured, once).

Reading them back (`undo_plan`, `history`, `show`) and the patches kept for
review (`stage`, `pending`) are `_receipts_read`'s: a commit, which writes a
receipt, imports none of it (start-up time).
"""

from __future__ import annotations

import _thread  # (built in, already loaded by the interpreter)
import errno
import os
import stat
import time

from .._errors import PatchIOError, UndoError, os_reason
from . import _digest
from ._plan import FileChange, Plan

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
_VERSION: Final = 1
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
        """The receipts' ids, oldest first."""
        names = [n[:-5] for n in os.listdir(self.fd) if n.endswith(".json") and not n.startswith(".")]
        return sorted(names)

    def load(self, receipt: str) -> dict[str, Any]:
        """The receipt `receipt`; UndoError if there is none of that id."""
        if "/" in receipt or receipt.startswith(".") or not receipt:
            raise UndoError(f"No receipt {receipt!r} for this root: run `apply_patch history` for the ids")
        try:
            import json  # reading receipts only (a commit writes them with `_json`)

            data = self.read(f"{receipt}.json")
            loaded: dict[str, Any] = json.loads(data)
        except FileNotFoundError:
            raise UndoError(
                f"No receipt {receipt!r} for this root: run `apply_patch history` for the ids"
            ) from None
        except (OSError, ValueError) as exc:
            raise UndoError(f"The receipt {receipt} cannot be read: {exc}") from None
        return loaded

    def all(self) -> list[dict[str, Any]]:
        """Every readable receipt, oldest first."""
        found = []
        for receipt in self.ids():
            try:
                found.append(self.load(receipt))
            except UndoError:
                continue
        return found

    def read(self, name: str, folder: str | None = None) -> bytes:
        """The bytes of the file `name` (in the receipt folder `folder`), not through a symlink."""
        parent = os.open(folder, _DIR, dir_fd=self.fd) if folder else self.fd
        try:
            fd = os.open(name, _FILE_READ, dir_fd=parent)
        finally:
            if folder:
                os.close(parent)
        with open(fd, "rb") as file:
            return file.read()

    def remove(self, receipt: str) -> None:
        """Remove a receipt and its saved files (quietly: what cannot be removed stays)."""
        try:
            os.unlink(f"{receipt}.json", dir_fd=self.fd)
        except OSError:
            pass
        try:
            _remove_tree(self.fd, receipt)
        except OSError:
            pass

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
        try:
            text = self.read(_SIZES).decode("ascii", "replace")
        except OSError:
            return {}
        sizes = {}
        for line in text.splitlines():
            receipt, _, size = line.partition(" ")
            if size.isdigit():
                sizes[receipt] = int(size)
        return sizes

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
        self.receipt: str | None = None
        self.warning: str | None = None
        self._hashes: dict[int, str] = {}  # id() of each content of the plan → its SHA-256
        self._hashing: list[_thread.LockType] = []  # each released when its thread is done

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
            done = _thread.allocate_lock()
            done.acquire()
            try:  # (`_thread`: `threading` costs a large patch's run 1 ms to import)
                _thread.start_new_thread(self._hash, (share, done))
            except RuntimeError:  # no thread to be had: hashed when written
                done.release()
            self._hashing.append(done)

    def _hash(self, share: list[bytes], done: _thread.LockType) -> None:
        """Hash the contents of `share` (in a thread of its own), then release `done`. One
        that fails (no memory left) is hashed again when written, where its error is raised."""
        try:
            for data in share:
                self._hashes[id(data)] = digest(data)
        except Exception:  # noqa: BLE001  (never a traceback from a thread: `_digest` retries)
            pass
        finally:
            done.release()

    def _digest(self, data: bytes) -> str:
        while self._hashing:  # every thread done
            self._hashing.pop().acquire()
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
                receipt = _new_id()
                try:
                    size = self._write(store, receipt, plan, where, old)
                except BaseException:
                    store.remove(receipt)
                    raise
                self.receipt = receipt
                try:
                    store.prune(receipt, size)
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
        if self.receipt is None:
            return
        try:
            with Store(self.root_real, create=False) as store:
                store.remove(self.receipt)
        except (OSError, Unavailable):
            pass
        self.receipt = None

    def _write(
        self,
        store: Store,
        receipt: str,
        plan: Plan,
        where: Callable[[FileChange], tuple[int, bytes]],
        old: dict[str, tuple[int, os.stat_result]],
    ) -> int:
        """Write the receipt; the bytes of the files it saved."""
        os.mkdir(receipt, 0o700, dir_fd=store.fd)
        saved = os.open(receipt, _DIR, dir_fd=store.fd)
        try:
            files = [self._entry(n, c, saved, where, old) for n, c in enumerate(plan.changes)]
            if any(entry["before"] for entry in files):  # names of saved files to make durable
                _fsync(saved)
        finally:
            os.close(saved)
        now = time.time_ns()
        document = {
            "version": _VERSION,
            "id": receipt,
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
        temp = f".{receipt}.tmp"
        fd = os.open(temp, _FILE_NEW, 0o600, dir_fd=store.fd)
        try:
            _write_all(fd, _text(document, len(files)).encode())
            _fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, f"{receipt}.json", src_dir_fd=store.fd, dst_dir_fd=store.fd)
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
            mode = stat.S_IMODE(checked[1].st_mode) if checked else before.mode
            blob = str(number)
            _save(saved, blob, before.data, where(change), checked[1] if checked else None)
            entry["before"] = {"sha256": self._digest(before.data), "mode": mode, "blob": blob}
        return entry


def _save(
    saved: int, blob: str, data: bytes, place: tuple[int, bytes], checked: os.stat_result | None
) -> None:
    """The old bytes as `blob`: the file itself, linked (it will be replaced or deleted, so the
    link keeps its old inode), when that is the file checked; else a synced copy of `data`."""
    folder, name = place
    if checked is not None:
        try:
            os.link(name, blob, src_dir_fd=folder, dst_dir_fd=saved, follow_symlinks=False)
            now = os.stat(blob, dir_fd=saved, follow_symlinks=False)
            if (now.st_dev, now.st_ino, now.st_size) == (checked.st_dev, checked.st_ino, checked.st_size):
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


_MANY_FILES = 100  # a receipt of more files is written by `json` (its C encoder)


def _text(document: dict[str, Any], files: int) -> str:
    """The receipt `document` (of `files` files) as JSON text, every character outside ASCII
    escaped: `_json` for a small patch (no import at start-up), `json.dumps` past
    _MANY_FILES, where `_json`'s recursion in Python costs more than the import (50 ms for
    1,000 files). Both read back alike (`json.dumps` writes `\\"` where `_json` writes `\\u0022`)."""
    if files <= _MANY_FILES:
        return _json(document)
    import json

    return json.dumps(document, ensure_ascii=True)


def _json(value: object) -> str:
    """`value` (dicts, lists, str, int, None) as JSON text, every character outside printable
    ASCII escaped (lone surrogates of undecodable names included, as `json` reads them back).
    Not `json.dumps`: importing `json` is a good part of a small patch's start-up time."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_json(str(k))}: {_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_json(item) for item in value) + "]"
    if isinstance(value, str):
        if value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
            return f'"{value}"'  # hashes, most paths: nothing to escape
        return '"' + "".join(c if " " <= c <= "~" and c not in '"\\' else _escape(ord(c)) for c in value) + '"'
    if value is None:
        return "null"
    return str(int(value))  # type: ignore[call-overload]


def _escape(code: int) -> str:
    if code > 0xFFFF:  # a surrogate pair, as JSON writes a character beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _new_id() -> str:
    """A new id: the UTC time and a few random hex digits (sorting ids sorts by time)."""
    now = time.time_ns()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now // 1_000_000_000))
    return f"{stamp}-{now % 1_000_000_000:09d}-{os.urandom(2).hex()}"


def _relative(path: str, root_real: str) -> str:
    """`path` relative to the root, with `/`; absolute when outside it (`outside_root=allow`)."""
    prefix = root_real.rstrip(os.sep) + os.sep
    if path.startswith(prefix):
        return path[len(prefix) :].replace(os.sep, "/")  # plans' paths are normalised already
    return path
