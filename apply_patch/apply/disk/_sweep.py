"""The state folder's one cap across all roots: `apply_patch prune`, and once a day a commit.

Each root's receipts are capped by their commit (`disk._receipts.prune`:
`KEEP_COUNT` receipts, `KEEP_BYTES` saved bytes); this caps the whole state
folder, where every root ever patched has a folder (a day of test runs
leaves thousands): the folder of a root that no longer exists goes, whole; a
receipt older than `KEEP_DAYS` goes; and while the saved bytes of all roots
together are over `KEEP_ALL_BYTES`, the oldest receipt goes. A folder holding
nothing but a stale size index goes too. What is not known is kept: a
folder whose root cannot be told (no receipt names it), pending patches,
anything the state folder's other writers put there.

Only folders of this user are touched (as every state folder is opened:
private, without following a symlink); the walk is bounded by a count of
folders and, for a commit, by a time budget (the rest is left for the next
commit, a few minutes later).
"""

from __future__ import annotations

import os
import stat
import time

from dataclasses import dataclass
from ..records import (
    OPEN_DIR,
    OPEN_READ,
    SIZES,
    SWEEP_EVERY,
    SWEPT,
    Unavailable,
    folder_of,
    known_sizes,
    names_in,
    private_folder,
    saved_size,
)
from ._receipts import OPEN_NEW, remove_receipt, remove_tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

KEEP_DAYS: Final = 30  # a receipt older than this goes, whatever root it is of
KEEP_ALL_BYTES: Final = 1 << 30  # the saved bytes of every root's receipts together
COMMIT_BUDGET: Final = 2.0  # seconds a commit's sweep may take
_RETRY: Final = 600  # seconds before a commit takes up a sweep its budget cut short
_MAX_FOLDERS: Final = 1_000_000  # folders looked at in one sweep, whatever the budget
_RECORD_BYTES: Final = 64 << 20  # the largest receipt read to learn its root


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a sweep removed: `receipts` (and their saved `size` in bytes), `roots_gone` (the
    folders of roots that no longer exist), `roots` (folders looked at); `complete` is False
    when its budget ran out first."""

    receipts: int
    size: int
    roots_gone: int
    roots: int
    complete: bool


@dataclass(frozen=True, slots=True)
class _Kept:
    """A receipt left by the first pass: its time, folder and name, and its saved bytes."""

    time: float
    folder: str
    name: str
    size: int


def sweep(
    base: str,
    *,
    max_days: float = KEEP_DAYS,
    max_bytes: int = KEEP_ALL_BYTES,
    keep: tuple[str, str] | None = None,
    budget: float | None = None,
) -> Pruned:
    """Prune the state folder `base` (see the module's docstring) within `budget` seconds
    (None: no limit), never the receipt `keep` (folder, name); then mark it swept (`SWEPT`).
    Unavailable when `base` is not this user's private folder."""
    deadline = None if budget is None else time.monotonic() + budget
    parent = os.open(os.path.dirname(base), OPEN_DIR)
    try:
        top = private_folder(parent, os.path.basename(base), base)
    except OSError as exc:
        raise Unavailable(f"{base}: {exc.strerror}") from exc
    finally:
        os.close(parent)
    try:
        return _sweep(top, base, max_days, max_bytes, keep, deadline)
    finally:
        os.close(top)


def _sweep(
    top: int, base: str, max_days: float, max_bytes: int, keep: tuple[str, str] | None, deadline: float | None
) -> Pruned:
    oldest = time.time() - max_days * 86_400
    removed = size = gone = looked = 0
    kept: list[_Kept] = []
    complete = True
    for key in os.listdir(top):
        if deadline is not None and time.monotonic() > deadline or looked >= _MAX_FOLDERS:
            complete = False
            break
        if len(key) != 24 or not all(c in "0123456789abcdef" for c in key):
            continue  # not a root's folder (`SWEPT`, a stray file)
        try:
            folder = private_folder(top, key, os.path.join(base, key))
        except (OSError, Unavailable):
            continue  # another user's, or not a folder: not ours to prune
        looked += 1
        try:
            names = names_in(folder)
            if _gone(folder, key, names):
                _remove_folder(top, key, folder)
                gone += 1
                continue
            sizes = known_sizes(folder)
            for name in names:
                try:
                    when = os.stat(f"{name}.json", dir_fd=folder, follow_symlinks=False).st_mtime
                except OSError:
                    continue
                saved = sizes[name] if name in sizes else saved_size(folder, name)
                if when < oldest and (key, name) != keep:
                    remove_receipt(folder, name)
                    removed, size = removed + 1, size + saved
                else:
                    kept.append(_Kept(when, key, name, saved))
        finally:
            os.close(folder)
    total = sum(receipt.size for receipt in kept)
    for receipt in sorted(kept, key=lambda k: k.time):
        if total <= max_bytes:
            break
        if (receipt.folder, receipt.name) == keep:
            continue
        try:
            folder = private_folder(top, receipt.folder, receipt.folder)
        except (OSError, Unavailable):
            continue
        try:
            remove_receipt(folder, receipt.name)
        finally:
            os.close(folder)
        removed, size, total = removed + 1, size + receipt.size, total - receipt.size
    _mark(top, complete)
    return Pruned(removed, size, gone, looked, complete)


def _gone(folder: int, key: str, names: list[str]) -> bool:
    """Whether the root of the folder `key` no longer exists: the root its newest receipt
    names (one whose folder is that root's) is missing; or the folder holds nothing but a
    size index and what killed writers left (no receipt, nothing else)."""
    if not names:
        return all(entry == SIZES or entry.startswith(".") for entry in os.listdir(folder))
    root = _root_of(folder, names[-1])
    if root is None or os.path.basename(folder_of(root)) != key:
        return False  # unknown: kept
    try:
        os.lstat(root)
    except FileNotFoundError:
        return True
    except OSError:
        return False  # (a folder above it unreadable: it may well exist)
    return False


def _root_of(folder: int, name: str) -> str | None:
    """The root the receipt `name` names, or None when it cannot be read."""
    import json

    try:
        fd = os.open(f"{name}.json", OPEN_READ, dir_fd=folder)
    except OSError:
        return None
    with open(fd, "rb") as file:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > _RECORD_BYTES:
                return None
            document = json.loads(file.read())
        except (OSError, ValueError, RecursionError):
            return None
    root = document.get("root") if isinstance(document, dict) else None
    return root if isinstance(root, str) and root.startswith("/") and "\0" not in root else None


def _remove_folder(top: int, key: str, folder: int) -> None:
    """Remove the root's folder `key` (open as `folder`): its receipts, their saved files,
    its pending patches and its index; quietly, what cannot be removed stays."""
    for entry in os.listdir(folder):
        try:
            info = os.stat(entry, dir_fd=folder, follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                remove_tree(folder, entry)
            else:
                os.unlink(entry, dir_fd=folder)
        except OSError:
            pass
    try:
        os.rmdir(key, dir_fd=top)
    except OSError:
        pass


def _mark(top: int, complete: bool) -> None:
    """Set the time of `SWEPT` to now (a sweep cut short: so that a commit takes it up again
    in `_RETRY` seconds)."""
    try:
        fd = os.open(SWEPT, OPEN_NEW & ~os.O_EXCL, 0o600, dir_fd=top)
    except OSError:
        return
    try:
        now = time.time()
        stamp = now if complete else now - SWEEP_EVERY + _RETRY
        os.utime(fd, (stamp, stamp))
    except OSError:
        pass
    finally:
        os.close(fd)
