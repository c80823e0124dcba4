"""A commit's receipt written, and receipts removed: the writing side of `records._receipts`
(which says what a receipt holds and where, and reads them back).

`Recorder` writes and syncs the receipt of one commit before its first visible change
(`_commit`) and removes it again when the commit undoes itself; `prune` caps a root's
receipts (`KEEP_COUNT`, `KEEP_BYTES`) after each; `remove_receipt` is also the sweep's.
Every name is opened relative to a folder descriptor, never following a symlink.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import time

from ..._errors import PatchIOError, os_reason
from ..planning import FileChange, Plan, hidden
from ..records import (
    OPEN_DIR, RECEIPT_VERSION, SIZES, Store, Unavailable, digest, folder_of, known_sizes,
    private_folder, receipt_text, relative_to_root, saved_size,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

# A file of ours made, never one that was there:
OPEN_NEW: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
KEEP_COUNT: Final = 200  # receipts kept per root
KEEP_BYTES: Final = 512 << 20  # bytes of saved files kept per root
_THREAD_BYTES: Final = 1 << 20  # contents above which they are hashed in a thread of their own
_THREADS: Final = 4  # threads hashing at most


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
            with made_store(self.root_real) as store:
                name = store.next_name()
                try:
                    size = self._write(store, name, plan, where, old)
                except BaseException:
                    remove_receipt(store.fd, name)
                    raise
                self.receipt, self.name = name.partition("-")[2], name
                try:
                    prune(store, name, size)
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
            with Store(self.root_real) as store:
                remove_receipt(store.fd, self.name)
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
        saved = os.open(name, OPEN_DIR, dir_fd=store.fd)
        try:
            files = [self._entry(n, c, saved, where, old) for n, c in enumerate(plan.changes)]
            if any(entry["before"] for entry in files):  # names of saved files to make durable
                fsync(saved)
        finally:
            os.close(saved)
        now = time.time_ns()  # shown to people; never the order (the sequence is)
        sequence, _, receipt = name.partition("-")
        document = {
            "version": RECEIPT_VERSION,
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
            "folders": [relative_to_root(folder, self.root_real) for folder in plan.new_folders],
        }
        temp = f".{name}.tmp"
        fd = os.open(temp, OPEN_NEW, 0o600, dir_fd=store.fd)
        try:
            write_all(fd, receipt_text(document).encode())
            fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, f"{name}.json", src_dir_fd=store.fd, dst_dir_fd=store.fd)
        fsync(store.fd)
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
        entry: dict[str, Any] = {"path": relative_to_root(change.path, self.root_real)}
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
    fd = os.open(blob, OPEN_NEW, 0o600, dir_fd=saved)
    try:
        write_all(fd, data)
        fsync(fd)
    finally:
        os.close(fd)


def prune(store: Store, keep: str, kept_size: int | None = None) -> None:
    """Remove the oldest receipts of `store` beyond KEEP_COUNT or KEEP_BYTES (never `keep`, whose
    saved files take `kept_size` bytes when known: not looked at again); and the saved
    files of receipts never completed (a process killed while writing one)."""
    ids = store.ids()
    complete = set(ids)
    for name in os.listdir(store.fd):
        ours = name.removeprefix(".")[:1].isdigit()  # a receipt's; not `pending/`
        if (ours or name.startswith(f".{SIZES}-")) and name.startswith("."):  # its writer killed
            try:
                os.unlink(name, dir_fd=store.fd)
            except OSError:
                pass
        elif ours and not name.endswith(".json") and name not in complete and name != keep:
            remove_receipt(store.fd, name)  # the saved files of a receipt never completed
    recorded = known_sizes(store.fd)
    known = recorded if kept_size is None else {**recorded, keep: kept_size}
    sizes = {receipt: known[receipt] if receipt in known else saved_size(store.fd, receipt) for receipt in ids}
    total = sum(sizes.values())
    for receipt in ids:
        if receipt == keep or (len(ids) <= KEEP_COUNT and total <= KEEP_BYTES):
            break
        remove_receipt(store.fd, receipt)
        ids = [other for other in ids if other != receipt]
        total -= sizes.pop(receipt)
    if sizes != recorded:
        _write_sizes(store.fd, sizes)


def _write_sizes(folder: int, sizes: dict[str, int]) -> None:
    """The index `SIZES` replaced by `sizes` (best effort: without it, prune counts again)."""
    temporary = f".{SIZES}-{os.getpid()}"
    try:
        fd = os.open(temporary, OPEN_NEW, 0o600, dir_fd=folder)
        with open(fd, "wb") as file:
            file.write("".join(f"{receipt} {size}\n" for receipt, size in sizes.items()).encode("ascii"))
        os.replace(temporary, SIZES, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError:
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass


def remove_receipt(folder: int, name: str) -> None:
    """Remove the receipt `name` of the root's folder `folder` and its saved files (quietly:
    what cannot be removed stays)."""
    try:
        os.unlink(f"{name}.json", dir_fd=folder)
    except OSError:
        pass
    try:
        remove_tree(folder, name)
    except OSError:
        pass


def remove_tree(parent: int, name: str) -> None:
    fd = os.open(name, OPEN_DIR, dir_fd=parent)
    try:
        for entry in os.listdir(fd):
            os.unlink(entry, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent)


def made_store(root_real: str) -> Store:
    """The receipts folder of the root `root_real`, opened: made first (0700), with the state
    folder above it, where missing; Unavailable when it cannot be, or is another user's."""
    above = os.path.dirname(os.path.dirname(folder_of(root_real)))
    try:
        os.makedirs(above, 0o700, exist_ok=True)
    except OSError as exc:
        raise Unavailable(f"{above}: {os_reason(exc)}") from exc
    return Store(root_real, made_private_folder)


def made_private_folder(parent: int, name: str, shown: str) -> int:
    """The folder `name` in `parent`, made 0700 where missing, then opened as
    `records.private_folder` opens it (no symlink followed, the user's own)."""
    try:
        os.mkdir(name, 0o700, dir_fd=parent)
    except FileExistsError:
        pass
    return private_folder(parent, name, shown)


def fsync(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EROFS):  # a file system that cannot sync
            raise


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
