"""Receipts read back; `_receipts` writes the receipts.

Every receipt read is input (`_receipt_check`): `read_records` keeps those
that pass every check, in the order of their sequence, and names each that
does not in a one-line warning, so that one bad record never blocks the
rest. `undo_plan` turns a receipt back into a `Plan`, which the pipeline
commits like any other (locks, signals, checks, and a receipt of its own:
undoing an undo redoes); every file is read through folder descriptors, never
through a symlink, and every saved copy is checked against its digest before
it is used. `history` lists the receipts of a root and `show` prints one as
a diff, following the hard-link rule the commit's diff followed. A receipt
asked for that is not the root's is looked for under the other roots, so
that the refusal names the root it is of (`-C`). The review gate's pending
patches are `_pending`'s. Apart from `_receipts` so that a commit, which
writes a receipt, imports none of this (start-up time).
"""

from __future__ import annotations

import os
import stat
import time

from dataclasses import dataclass
from ..._errors import UndoError, os_reason
from ..planning import FolderChanged, Folders
from ..planning import FileChange, OperationResult, Plan
from ._receipt_check import MIN_PREFIX, BadRecord, Entry, Record, Side, check
from ._receipts import (
    OPEN_DIR,
    OPEN_READ,
    Store,
    Unavailable,
    private_folder,
    base_folder,
    digest,
    folder_of,
    names_in,
)
from ..planning import FileState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

RECORD_BYTES: Final = 64 << 20  # a receipt larger than this is not read (a 1,000-file one: 300 KB)
_SEARCH_SECONDS: Final = 2.0  # looking for a receipt under the other roots
_SEARCH_FOLDERS: Final = 100_000


# Reading, every record checked.


@dataclass(frozen=True, slots=True)
class Records:
    """The receipts of a root that pass every check, oldest first (`found`), and a line
    naming each that does not, and why (`skipped`)."""

    found: tuple[Record, ...]
    skipped: tuple[str, ...]


def read_records(store: Store) -> Records:
    """Every receipt of `store`'s root, checked (see `Records`)."""
    import json  # reading receipts only (a commit writes them with `receipt_text`)

    found, skipped = [], []
    for name in store.ids():
        shown = os.path.join(store.path, f"{name}.json")
        try:
            document = json.loads(store.read(f"{name}.json", limit=RECORD_BYTES))
            found.append(check(name, document, store.root_real))
        except FileNotFoundError:
            continue  # pruned meanwhile
        except OSError as exc:
            skipped.append(f"the receipt {shown} is skipped: {os_reason(exc)}")
        except (ValueError, RecursionError):  # (UnicodeDecodeError included)
            skipped.append(f"the receipt {shown} is skipped: it is not JSON")
        except BadRecord as exc:
            skipped.append(f"the receipt {shown} is skipped: {exc}")
    return Records(tuple(found), tuple(skipped))


def open_store(root_real: str, receipt: str | None, command: str) -> Store:
    """The receipts folder of `root_real`; UndoError when it has none, naming the root that
    has the receipt asked for (`receipt`, or the last one: `elsewhere`)."""
    try:
        return Store(root_real)
    except Unavailable as exc:
        why = "" if isinstance(exc.__cause__, FileNotFoundError) else f" ({exc})"  # (none yet: plain)
        if receipt is None:
            raise UndoError(
                f"Nothing to {command}: no receipts for the root {root_real}{why}"
                + elsewhere(root_real, None, command)
            ) from None
        raise UndoError(_unknown(root_real, receipt, command)) from None


def active(receipts: tuple[Record, ...]) -> dict[str, bool]:
    """Which receipts are in effect: not undone by a receipt in effect (newest first)."""
    state: dict[str, bool] = {}
    undone_by: dict[str, list[str]] = {}
    for receipt in receipts:
        if receipt.undoes:
            undone_by.setdefault(receipt.undoes, []).append(receipt.id)
    for receipt in reversed(receipts):
        state[receipt.id] = not any(state.get(other, False) for other in undone_by.get(receipt.id, []))
    return state


def pick(records: Records, receipt: str | None, root: str, command: str = "undo") -> Record:
    """The receipt named (its id, its name, or a start of its id of at least `MIN_PREFIX`
    characters that no other id starts with); None: for `undo`, the newest in effect that is
    not itself an undo, for `show` the newest. UndoError when there is none."""
    found = records.found
    if receipt is None:
        if command != "undo" and found:
            return found[-1]
        in_effect = active(found)
        for candidate in reversed(found):
            if in_effect[candidate.id] and not candidate.undoes:
                return candidate
        raise UndoError(
            f"Nothing to {command}: no patch applied under the root {root} has a receipt"
            + (" in effect" if command == "undo" else "")
            + elsewhere(root, None, command)
        )
    exact = [r for r in found if receipt in (r.id, r.name)]
    if exact:
        return exact[0]
    if len(receipt) < MIN_PREFIX:
        raise UndoError(
            f"Receipt {receipt!r} is too short: give at least {MIN_PREFIX} characters of its id "
            "(`apply_patch history` lists them)"
        )
    matches = [r for r in found if r.id.startswith(receipt)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UndoError(
            f"More than one receipt starts with {receipt!r} ({', '.join(r.id for r in matches)}): "
            "give more of its id"
        )
    raise UndoError(_unknown(root, receipt, command))


def _unknown(root: str, receipt: str, command: str) -> str:
    found = elsewhere(root, receipt, command) or elsewhere(root, None, "history")
    return f"No receipt {receipt!r} for the root {root}" + (found or ": run `apply_patch history` for the ids")


def elsewhere(root: str, receipt: str | None, command: str) -> str:
    """Where to look instead, as the end of a sentence ("" when nowhere): for `receipt`, the
    root it is of, found among every root's receipts (a bounded search); for the last
    receipt (None), the nearest folder above `root` that has receipts."""
    if receipt is None:
        folder = root
        while os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
            if os.path.isdir(folder_of(folder)):
                return f"; {folder}, a folder above, has receipts: `apply_patch {command} -C {folder}`"
        return ""
    other = _root_with(receipt)
    if other is None or other == root:
        return ""
    return f"; it is a receipt of the root {other}: `apply_patch {command} -C {other} {receipt}`"


def _root_with(receipt: str) -> str | None:
    """The root that has a receipt named `receipt` (or whose id starts with it), looked for
    in every root's folder of the state folder within `_SEARCH_SECONDS`; None if none."""
    import json

    base = base_folder()
    deadline = time.monotonic() + _SEARCH_SECONDS
    try:
        top = os.open(base, OPEN_DIR)
    except OSError:
        return None
    try:
        for count, key in enumerate(os.listdir(top)):
            if count >= _SEARCH_FOLDERS or time.monotonic() > deadline:
                return None
            try:
                folder = private_folder(top, key, key)
            except (OSError, Unavailable):
                continue
            try:
                for name in names_in(folder):
                    ident = name.partition("-")[2] if name.count("-") == 1 else name
                    if receipt in (name, ident) or (len(receipt) >= MIN_PREFIX and ident.startswith(receipt)):
                        fd = os.open(f"{name}.json", OPEN_READ, dir_fd=folder)
                        with open(fd, "rb") as file:
                            document = json.loads(file.read(RECORD_BYTES))
                        root = document.get("root") if isinstance(document, dict) else None
                        if isinstance(root, str) and os.path.basename(folder_of(root)) == key:
                            check(name, document, root)
                            return root
            except (OSError, ValueError, RecursionError, BadRecord):
                continue
            finally:
                os.close(folder)
    finally:
        os.close(top)
    return None


# Undoing.


def undo_plan(store: Store, record: Record, records: Records, named: bool) -> Plan:
    """The plan that puts back every file of `record` as it was before its commit.

    Each file must hold what the receipt left (its after), or still what it
    replaced (its before: a commit interrupted midway); otherwise UndoError
    names every file changed since, says what to do, and nothing is planned.
    A file comes back with its mode and its owner and group (where they
    cannot be given back, without setuid and setgid, as any commit writes;
    a version 1 receipt, which has no owner, gives neither bit back).
    """
    root = store.root_real
    changes, operations, changed = [], [], []
    with Folders() as folders:
        for entry in record.files:
            if entry.outside:
                raise UndoError(f"The receipt {record.id} changed {entry.path}, outside the root: it is not undone")
            target = os.path.join(root, entry.path)
            current = _current(folders, target, record.id)
            if _holds(current, entry.after):
                restored = _restored(store, record, entry)
                changes.append(FileChange(target, entry.path, entry.path, current, restored))
                letter = "D" if restored is None else ("A" if current is None else "M")
                operations.append(OperationResult(letter, entry.path, target))
            elif not _holds(current, entry.before):
                changed.append(entry.path)
    if changed:
        those = "that file back as the patch left it" if len(changed) == 1 else "those files back as the patch left them"
        raise UndoError(
            f"Cannot undo {record.id}: changed since it was applied: {', '.join(changed)}; nothing was "
            f"undone. `apply_patch show {record.id}` shows what it changed: put {those} and undo "
            "again, or undo it by hand",
            path=changed[0],
        )
    if not changes:
        earlier = None if named else _earlier(records, record)
        raise UndoError(
            f"Nothing to undo in {record.id}: every file is as it was before that patch (undone by hand?)"
            + (f"; the patch before it is undone by `apply_patch undo {earlier.id}`" if earlier else "")
        )
    made = [os.path.join(root, folder) for folder in record.folders if not folder.startswith("/")]
    return Plan(
        root, tuple(operations), tuple(changes), _missing_folders(root, changes), gone_folders=tuple(reversed(made))
    )


def _earlier(records: Records, record: Record) -> Record | None:
    """The newest receipt before `record` in effect that is not an undo (what `undo` would
    take once `record` is done with)."""
    in_effect = active(records.found)
    before = records.found[: records.found.index(record)]
    return next((r for r in reversed(before) if in_effect[r.id] and not r.undoes), None)


def _current(folders: Folders, path: str, receipt: str) -> FileState | None:
    """What `path` holds now (None: nothing), read through its folder's descriptor (opened one
    name at a time, never through a symlink); UndoError when it is not a file or a symlink."""
    parent, name = os.path.split(path)
    try:
        folder = folders.get(parent)
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FolderChanged as exc:
        if exc.why == "no longer exists":
            return None
        raise UndoError(f"Cannot undo {receipt}: {exc}; nothing was undone") from None
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise UndoError(f"Cannot undo {receipt}: {path}: {os_reason(exc)}; nothing was undone") from None
    if stat.S_ISLNK(info.st_mode):
        return FileState(os.fsencode(os.readlink(name, dir_fd=folder)), is_link=True, info=info)
    if not stat.S_ISREG(info.st_mode):
        raise UndoError(f"Cannot undo {receipt}: {path} is no longer a file; nothing was undone")
    fd = os.open(name, OPEN_READ, dir_fd=folder)
    with open(fd, "rb") as file:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise UndoError(f"Cannot undo {receipt}: {path} is no longer a file; nothing was undone")
        data = file.read()
    return FileState(data, stat.S_IMODE(opened.st_mode), owner=(opened.st_uid, opened.st_gid), info=opened)


def _holds(current: FileState | None, side: Side | None) -> bool:
    if side is None or current is None:
        return side is None and current is None
    if side.link is not None:
        return current.is_link and current.data == side.link
    return not current.is_link and digest(current.data) == side.sha256


def _saved(store: Store, record: Record, entry: Entry) -> bytes:
    """The saved copy of `entry`'s before, checked against its digest; OSError (its reason)
    when it is gone, not a plain file of the receipt's folder, or changed since."""
    before = entry.before
    assert before is not None and before.blob is not None
    data = store.read(before.blob, record.name)
    if digest(data) != before.sha256:
        raise OSError(0, "was changed since")
    return data


def _restored(store: Store, record: Record, entry: Entry) -> FileState | None:
    before = entry.before
    if before is None:
        return None
    if before.link is not None:
        raise UndoError(f"Cannot undo {record.id}: {entry.path} was a symlink; nothing was undone")
    try:
        data = _saved(store, record, entry)
    except OSError as exc:
        reason = exc.strerror if exc.errno == 0 else f"is gone or is not a saved file ({os_reason(exc)})"
        raise UndoError(
            f"Cannot undo {record.id}: the saved copy of {entry.path} {reason}; nothing was undone"
        ) from None
    mode = before.mode
    if before.owner is None and mode is not None:  # whose it was is not known (version 1)
        mode &= ~(stat.S_ISUID | stat.S_ISGID)
    return FileState(data, mode, owner=before.owner)


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


# Listing and showing.


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


@dataclass(frozen=True, slots=True)
class Listed:
    """What `history` found: the `receipts`, oldest first, and a line naming each record
    `skipped` (one that failed a check)."""

    receipts: tuple[Receipt, ...]
    skipped: tuple[str, ...]


def list_receipts(root: str | os.PathLike[str] = ".") -> Listed:
    """The receipts of the patches applied under `root`, and the records skipped."""
    try:
        store = Store(os.path.realpath(os.fspath(root)))
    except Unavailable:
        return Listed((), ())
    with store:
        records = read_records(store)
    in_effect = active(records.found)
    receipts = tuple(Receipt(r.id, r.time, r.operations, r.undoes, in_effect[r.id]) for r in records.found)
    return Listed(receipts, records.skipped)


def history(root: str | os.PathLike[str] = ".") -> tuple[Receipt, ...]:
    """The receipts of the patches applied under `root`, oldest first (none: empty). A
    record that fails a check is skipped, with a `UserWarning` naming it (`warnings`)."""
    listed = list_receipts(root)
    _warn(listed.skipped)
    return listed.receipts


def _warn(skipped: tuple[str, ...]) -> None:
    if skipped:
        import warnings

        for line in skipped:
            warnings.warn(line, stacklevel=3)


@dataclass(frozen=True, slots=True)
class Shown:
    """What `show` prints (`text`), and a line naming each record `skipped`."""

    text: str
    skipped: tuple[str, ...]


def show_receipt(root: str | os.PathLike[str], receipt: str | None = None) -> Shown:
    """`show`, with the records skipped named apart."""
    from ..planning import not_shown, unified_diff

    real = os.path.realpath(os.fspath(root))
    with open_store(real, receipt, "show") as store:
        records = read_records(store)
        found = pick(records, receipt, real, "show")
        lines = [f"# receipt {found.id} ({found.time})"]
        if found.undoes:
            lines.append(f"# undoes {found.undoes}")
        pairs = []
        hidden = []
        with Folders() as folders:
            for entry in found.files:
                path = entry.path
                if entry.outside:
                    lines.append(f"# {path}: outside the root; not shown")
                    continue
                target = os.path.join(real, path)
                try:
                    current = _current(folders, target, found.id)
                except UndoError:  # no longer a file
                    lines.append(f"# {path}: changed since; its content after the patch is not kept")
                    continue
                if not _holds(current, entry.after):
                    lines.append(f"# {path}: changed since; its content after the patch is not kept")
                    continue
                before = entry.before
                if before is not None and before.hidden:
                    new = "/dev/null" if entry.after is None else f"b/{path}"
                    hidden.append(f"Files a/{path} and {new} differ ({not_shown(path, before.hidden)})\n")
                    continue
                old = None
                if before is not None and before.blob is not None:
                    try:
                        old = FileState(_saved(store, found, entry), before.mode)
                    except OSError:
                        lines.append(f"# {path}: its saved copy is gone or was changed since; not shown")
                        continue
                change = FileChange(target, path, path, old, current)
                pairs.append((change, change))
    return Shown("\n".join(lines) + "\n" + unified_diff(pairs) + "".join(hidden), records.skipped)


def show(root: str | os.PathLike[str], receipt: str | None = None) -> str:
    """Receipt `receipt` (its id or a start of it; None: the last one) as a unified diff: its
    header (id, time, what it undoes), then each file from its saved bytes (checked against
    their digest) to what it holds now, when that is still what the commit left (a file
    changed since is named, without a diff: its content then is not kept). A file whose
    content the commit's diff did not show (another user's, with other hard links) is not
    shown here either. A record that fails a check is skipped, with a `UserWarning`."""
    shown = show_receipt(root, receipt)
    _warn(shown.skipped)
    return shown.text

