"""Receipts read back; `_receipts` writes the receipts.

`undo_plan` turns a receipt back into a `Plan`, which the pipeline commits
like any other (locks, signals, checks, and a receipt of its own: undoing
an undo redoes). `history` lists the receipts of a root and `show` prints one
as a diff (the review gate's pending patches are `_pending`'s). Apart from `_receipts` so that a commit, which writes a receipt, imports
none of this (start-up time).
"""

from __future__ import annotations

import os
import stat

from .._dataclass import dataclass
from .._errors import UndoError, os_reason
from ._plan import FileChange, OperationResult, Plan
from ._receipts import _FILE_READ, Store, Unavailable, digest
from ._tree import FileState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# Undoing.


def active(receipts: list[dict[str, Any]]) -> dict[str, bool]:
    """Which receipts are in effect: not undone by a receipt in effect (newest first)."""
    state: dict[str, bool] = {}
    undone_by: dict[str, list[str]] = {}
    for receipt in receipts:
        if receipt.get("undoes"):
            undone_by.setdefault(receipt["undoes"], []).append(receipt["id"])
    for receipt in reversed(receipts):
        state[receipt["id"]] = not any(state.get(other, False) for other in undone_by.get(receipt["id"], []))
    return state


def pick(store: Store, receipt: str | None) -> dict[str, Any]:
    """The receipt named (an id, or an unambiguous start of one), or the newest one in
    effect that is not itself an undo."""
    receipts = store.all()
    if receipt is None:
        in_effect = active(receipts)
        for candidate in reversed(receipts):
            if in_effect[candidate["id"]] and not candidate.get("undoes"):
                chosen: dict[str, Any] = candidate
                return chosen
        raise UndoError("Nothing to undo: no patch applied under this root has a receipt in effect")
    matches = [r for r in receipts if r["id"] == receipt] or [r for r in receipts if r["id"].startswith(receipt)]
    if len(matches) != 1:
        raise UndoError(
            f"{'No' if not matches else 'More than one'} receipt {receipt!r} for this root: run "
            "`apply_patch history` for the ids"
        )
    return matches[0]


def undo_plan(store: Store, receipt: dict[str, Any]) -> Plan:
    """The plan that puts back every file of `receipt` as it was before its commit.

    Each file must hold what the receipt left (its after), or still what it
    replaced (its before: a commit interrupted midway); otherwise UndoError
    names every file changed since, and nothing is planned.
    """
    root = store.root_real
    changes, operations, changed = [], [], []
    for entry in receipt["files"]:
        path = entry["path"]
        if os.path.isabs(path) or ".." in path.split("/"):
            raise UndoError(f"The receipt {receipt['id']} changed {path}, outside the root: it is not undone")
        target = os.path.join(root, path)
        current = _current(target)
        if _holds(current, entry["after"]):
            restored = _restored(store, receipt["id"], entry)
            changes.append(FileChange(target, path, path, current, restored))
            letter = "D" if restored is None else ("A" if current is None else "M")
            operations.append(OperationResult(letter, path, target))
        elif not _holds(current, entry["before"]):
            changed.append(path)
    if changed:
        raise UndoError(
            f"Cannot undo {receipt['id']}: changed since it was applied: {', '.join(changed)}; "
            "nothing was undone",
            path=changed[0],
        )
    if not changes:
        raise UndoError(
            f"Nothing to undo in {receipt['id']}: every file is as it was before that patch"
        )
    made = [os.path.join(root, folder) for folder in receipt.get("folders", []) if not os.path.isabs(folder)]
    return Plan(
        root, tuple(operations), tuple(changes), _missing_folders(root, changes), gone_folders=tuple(reversed(made))
    )


def _current(path: str) -> FileState | None:
    """What `path` holds now (None: nothing); a folder or special file as an empty marker."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        return FileState(os.fsencode(os.readlink(path)), is_link=True, info=info)
    if not stat.S_ISREG(info.st_mode):
        raise UndoError(f"Cannot undo: {path} is no longer a file; nothing was undone")
    fd = os.open(path, _FILE_READ)
    with open(fd, "rb") as file:
        opened = os.fstat(fd)
        data = file.read()
    return FileState(data, stat.S_IMODE(opened.st_mode), owner=(opened.st_uid, opened.st_gid), info=opened)


def _holds(current: FileState | None, side: dict[str, Any] | None) -> bool:
    if side is None or current is None:
        return side is None and current is None
    if "link" in side:
        return current.is_link and current.data.hex() == side["link"]
    return not current.is_link and digest(current.data) == side["sha256"]


def _restored(store: Store, receipt: str, entry: dict[str, Any]) -> FileState | None:
    before = entry["before"]
    if before is None:
        return None
    if "link" in before:
        raise UndoError(f"Cannot undo {receipt}: {entry['path']} was a symlink; nothing was undone")
    try:
        data = store.read(before["blob"], receipt)
    except OSError as exc:
        raise UndoError(
            f"Cannot undo {receipt}: the saved copy of {entry['path']} is gone ({os_reason(exc)})"
        ) from None
    if digest(data) != before["sha256"]:
        raise UndoError(f"Cannot undo {receipt}: the saved copy of {entry['path']} was changed since")
    return FileState(data, before["mode"])


def _missing_folders(root: str, changes: list[FileChange]) -> tuple[str, ...]:
    missing: list[str] = []
    for change in changes:
        if change.after is None:
            continue
        folder = os.path.dirname(change.path)
        chain = []
        while folder != root and folder.startswith(root) and not os.path.isdir(folder):
            chain.append(folder)
            folder = os.path.dirname(folder)
        missing.extend(f for f in reversed(chain) if f not in missing)
    return tuple(missing)


# Reading.


@dataclass(frozen=True, slots=True)
class Receipt:
    """One commit's receipt: its `id`, `time` (UTC, ISO 8601), `operations` as the summary
    writes them (`M path`, a move `M new (from old)`), the id it `undoes` (None: a patch),
    and whether it is `in_effect` (not undone by a receipt in effect)."""

    id: str
    time: str
    operations: tuple[str, ...]
    undoes: str | None
    in_effect: bool


def history(root: str | os.PathLike[str] = ".") -> tuple[Receipt, ...]:
    """The receipts of the patches applied under `root`, oldest first (none: empty)."""
    try:
        store = Store(os.path.realpath(os.fspath(root)), create=False)
    except Unavailable:
        return ()
    with store:
        receipts = store.all()
    in_effect = active(receipts)
    return tuple(
        Receipt(r["id"], r["time"], tuple(_operation(op) for op in r["operations"]), r.get("undoes"), in_effect[r["id"]])
        for r in receipts
    )


def _operation(op: dict[str, Any]) -> str:
    return f"{op['letter']} {op['path']}" + (f" (from {op['source']})" if op.get("source") else "")


def show(root: str | os.PathLike[str], receipt: str) -> str:
    """Receipt `receipt` as a unified diff: its header (id, time, what it undoes), then each
    file from its saved bytes to what it holds now, when that is still what the commit left
    (a file changed since is named, without a diff: its content then is not kept)."""
    from ._report import unified_diff

    real = os.path.realpath(os.fspath(root))
    try:
        store = Store(real, create=False)
    except Unavailable:
        raise UndoError(f"No receipt {receipt!r} for this root: run `apply_patch history` for the ids") from None
    with store:
        found = pick(store, receipt)
        lines = [f"# receipt {found['id']} ({found['time']})"]
        if found.get("undoes"):
            lines.append(f"# undoes {found['undoes']}")
        pairs = []
        for entry in found["files"]:
            path = entry["path"]
            target = os.path.join(real, path)
            current = _current(target) if not os.path.isabs(path) else None
            if not _holds(current, entry["after"]):
                lines.append(f"# {path}: changed since; its content after the patch is not kept")
                continue
            before = entry["before"]
            old = None
            if before is not None and "blob" in before:
                old = FileState(store.read(before["blob"], found["id"]), before["mode"])
            change = FileChange(target, path, path, old, current)
            pairs.append((change, change))
    return "\n".join(lines) + "\n" + unified_diff(pairs)

