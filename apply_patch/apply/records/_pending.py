"""The review gate's records: patches planned and kept pending (`apply_patch --stage`), in
the root's receipts folder under `pending/`, one JSON file each.

A record is read back as untrusted input: it is acted on only when it is a regular
file of this user with one link, opened without following a link or blocking, of at
most `MAX_RECORD_BYTES`, whose every field has its type, whose paths are confined to
the root (relative, no `..`) and whose hashes are hashes. A record that fails is
skipped with a one-line reason naming it (`Waiting.skipped`); the others work.

A record (version 2) keeps, per file as the plan resolved it (`files`, links
followed, relative to the root's real path), the hash of the bytes it was planned on
and (`written`) the hash of the bytes it writes: `accept` commits only a plan that
reads and writes exactly those (`Review`). A record of the previous version (no
`version`, no `written`, files named as the patch wrote them) is read too, its
`written` None: `accept` re-verifies its diff instead.

`claim` holds one record while it is decided (an exclusive `flock` on it): `accept`
and `reject` racing each other decide it once, and each says truly what it did.
"""

from __future__ import annotations

import os
import re
import stat

from dataclasses import dataclass
from ._receipts import OPEN_READ, Store, Unavailable, parse_name, private_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from contextlib import AbstractContextManager
    from typing import Any, Final

PENDING_VERSION: Final = 2
MAX_RECORD_BYTES: Final = 256 << 20  # a record bigger than this is not read
_ID: Final = re.compile(r"[0-9A-Za-z][0-9A-Za-z_.-]{0,63}")
_HASH: Final = re.compile(r"(|[0-9a-f]{64}|link:(?:[0-9a-f]{2})+)")
FORMATS: Final = ("codex", "search-replace", "unified-diff")  # what a patch is staged as (`auto` decided)
PENDING_FOLDER: Final = "pending"


@dataclass(frozen=True, slots=True)
class Staged:
    """A pending patch: its `id`, `time`, `format`, `patch` text, `policy` (field → value,
    the options it was planned with), `files` (each file the plan reads, relative to the
    root → the SHA-256 of its bytes then, "" for a file that was absent, `link:` and the
    hex of its target for a symlink), what it would do (`operations`, as the summary
    writes them, and `diff`), and `written` (each file → the hash of the bytes it
    writes, "" for a file it removes; None for a record of the previous version)."""

    id: str
    time: str
    format: str
    patch: str
    policy: dict[str, str]
    files: dict[str, str]
    operations: tuple[str, ...]
    diff: str
    written: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    """The patches pending under a root (`staged`, oldest first) and the records skipped
    (`skipped`: one line each, naming the record and why)."""

    staged: tuple[Staged, ...]
    skipped: tuple[str, ...]


class BadRecord(Exception):
    """A pending record that is not acted on: why, in words."""


class Taken(Exception):
    """A pending patch being decided by another process, or decided already: in words."""


def state_hash(data: bytes | None, is_link: bool = False) -> str:
    """How a record writes a file's state: "" absent, the SHA-256 of its bytes, or `link:`
    and the hex of a symlink's target."""
    from ._receipts import digest

    if data is None:
        return ""
    return "link:" + data.hex() if is_link else digest(data)


def pending(root: str | os.PathLike[str] = ".") -> Waiting:
    """The patches pending under `root`, oldest first, and the records skipped."""
    try:
        store = Store(os.path.realpath(os.fspath(root)))
    except Unavailable:
        return Waiting((), ())
    found: list[Staged] = []
    skipped: list[str] = []
    with store:
        try:
            folder = private_folder(store.fd, PENDING_FOLDER, PENDING_FOLDER)
        except FileNotFoundError:
            return Waiting((), ())
        except (OSError, Unavailable) as exc:
            return Waiting((), (f"the pending patches folder {os.path.join(store.path, PENDING_FOLDER)} is not read: {exc}",))
        try:
            for name in sorted(os.listdir(folder), key=_staged_order):
                if not name.endswith(".json") or name.startswith("."):
                    continue
                try:
                    fd = _open(folder, name, os.O_RDONLY)
                    try:
                        found.append(_read(fd, name))
                    finally:
                        os.close(fd)
                except (BadRecord, OSError) as exc:
                    skipped.append(f"skipped the pending patch record {os.path.join(store.path, PENDING_FOLDER, name)}: {_reason(exc)}")
        finally:
            os.close(folder)
    return Waiting(tuple(found), tuple(skipped))


def _staged_order(name: str) -> tuple[int, str]:
    """Where the record `name` stands among the pending ones, oldest first: by its sequence
    (`SEQUENCE-ID`, as `disk._staging` names them: never by the clock), the previous
    version's time-named records (sequence 0) before them."""
    parsed = parse_name(name.removesuffix(".json"))
    return (0 if parsed is None else parsed[0], name)


def pending_names(folder: int) -> list[str]:
    """The ids of the pending records in the pending folder `folder` (what a new id must
    follow: `records.name_after`)."""
    return [n.removesuffix(".json") for n in os.listdir(folder) if n.endswith(".json") and not n.startswith(".")]


def pending_matching(waiting: tuple[Staged, ...], given: str) -> list[Staged]:
    """The pending patches `given` names: the one whose id (`SEQUENCE-ID`) or short id (the
    part after the sequence) it is, else those whose id or short id it begins."""
    def short(staged: Staged) -> str:
        parsed = parse_name(staged.id)
        return parsed[1] if parsed is not None else staged.id

    exact = [s for s in waiting if given in (s.id, short(s))]
    return exact or [s for s in waiting if s.id.startswith(given) or short(s).startswith(given)]


class Claim:
    """One pending record held (an exclusive `flock`) while it is decided: `staged` as read
    from the descriptor held (`fd`, the file `name` of the folder `folder`);
    `disk.drop_claimed` removes it."""

    def __init__(self, folder: int, name: str, fd: int, staged: Staged) -> None:
        self.folder, self.name, self.fd, self.staged = folder, name, fd, staged

    def close(self) -> None:
        os.close(self.fd)  # the lock goes with it
        os.close(self.folder)


def claim(root: str, staged_id: str) -> AbstractContextManager[Claim]:
    """Hold the pending record `staged_id` under `root` while it is decided. `Taken` when
    another process holds it, or it is gone (decided meanwhile); `BadRecord` when it no
    longer reads as a record."""
    import contextlib
    import fcntl

    @contextlib.contextmanager
    def held() -> Iterator[Claim]:
        name = f"{staged_id}.json"
        if not _ID.fullmatch(staged_id):
            raise BadRecord(f"{staged_id!r} is not a pending patch's id")
        try:
            store = Store(os.path.realpath(root))
        except Unavailable as exc:
            raise Taken(f"no pending patch {staged_id} any more ({exc})") from None
        with store:
            try:
                folder = private_folder(store.fd, PENDING_FOLDER, PENDING_FOLDER)
            except (OSError, Unavailable) as exc:
                raise Taken(f"no pending patch {staged_id} any more ({_reason(exc)})") from None
            try:
                fd = _open(folder, name, os.O_RDWR)
            except FileNotFoundError:
                os.close(folder)
                raise Taken(f"{staged_id} is no longer pending: it was accepted or rejected meanwhile") from None
            except (OSError, BadRecord) as exc:
                os.close(folder)
                raise BadRecord(f"the pending patch record {name}: {_reason(exc)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if os.fstat(fd).st_nlink == 0:  # removed between the open and the lock
                    raise Taken(f"{staged_id} is no longer pending: it was accepted or rejected meanwhile")
                one = Claim(folder, name, fd, _read(fd, name))
            except BlockingIOError:
                os.close(fd)
                os.close(folder)
                raise Taken(f"{staged_id} is being accepted or rejected by another process now") from None
            except BaseException:
                os.close(fd)
                os.close(folder)
                raise
            try:
                yield one
            finally:
                one.close()

    return held()


def _open(folder: int, name: str, access: int) -> int:
    """`name` in `folder` opened without following a link or blocking (a FIFO), checked a
    regular file of this user's with one link, not writable by others."""
    flags = (OPEN_READ & ~os.O_RDONLY) | access
    fd = os.open(name, flags, dir_fd=folder)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BadRecord("not a regular file")
        if info.st_uid != os.geteuid():
            raise BadRecord("it belongs to another user")
        if info.st_nlink > 1:
            raise BadRecord("it has other names (hard links)")
        if stat.S_IMODE(info.st_mode) & 0o022:
            raise BadRecord("others may write it")
        if info.st_size > MAX_RECORD_BYTES:
            raise BadRecord(f"over {MAX_RECORD_BYTES >> 20} MiB")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read(fd: int, name: str) -> Staged:
    """The record open at `fd` (named `name`), validated; BadRecord when it is not one."""
    import json

    parts, offset = [], 0
    while offset <= MAX_RECORD_BYTES and (part := os.pread(fd, 1 << 20, offset)):
        parts.append(part)
        offset += len(part)
    if offset > MAX_RECORD_BYTES:
        raise BadRecord(f"over {MAX_RECORD_BYTES >> 20} MiB")
    try:
        value = json.loads(b"".join(parts))
    except (ValueError, RecursionError) as exc:
        raise BadRecord(f"not JSON ({str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__})") from None
    return check_record(name.removesuffix(".json"), value)


def check_record(stem: str, value: Any) -> Staged:
    """`value` as a `Staged`, if it is a record named `stem` of this version or the last."""
    if not isinstance(value, dict):
        raise BadRecord("not a JSON object")
    version = value.get("version", 1)
    if version not in (1, PENDING_VERSION) or isinstance(version, bool):
        raise BadRecord(f"of an unknown version {version!r}")
    fields = {"id", "time", "format", "patch", "policy", "files", "operations", "diff"}
    if version == PENDING_VERSION:
        fields |= {"version", "written"}
    if set(value) != fields:
        missing, extra = sorted(fields - set(value)), sorted(set(value) - fields)
        raise BadRecord(f"fields {'missing: ' + ', '.join(missing) if missing else 'unknown: ' + ', '.join(extra)}")
    for field in ("id", "time", "format", "patch", "diff"):
        if not isinstance(value[field], str):
            raise BadRecord(f"its {field} is not a string")
    if value["id"] != stem or not _ID.fullmatch(stem):
        raise BadRecord(f"its id {value['id']!r} is not its name")
    if value["format"] not in FORMATS:
        raise BadRecord(f"its format {value['format']!r} is not a format's name")
    operations = value["operations"]
    if not isinstance(operations, list) or not all(isinstance(op, str) for op in operations):
        raise BadRecord("its operations are not a list of strings")
    policy = _strings(value["policy"], "policy")
    _check_policy(policy)
    files = _paths(value["files"], "files")
    written = None if version == 1 else _paths(value["written"], "written")
    if written is not None and not set(written) <= set(files):
        raise BadRecord("it writes a file it does not read")
    return Staged(
        value["id"], value["time"], value["format"], value["patch"], policy, files, tuple(operations),
        value["diff"], written,
    )  # fmt: skip


def _strings(value: Any, field: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise BadRecord(f"its {field} is not an object of strings")
    return value


def _paths(value: Any, field: str) -> dict[str, str]:
    """`value`, an object of confined relative paths → hashes; BadRecord otherwise."""
    paths = _strings(value, field)
    for path, state in paths.items():
        parts = path.split("/")
        if not path or path.startswith("/") or "\0" in path or any(p in ("", ".", "..") for p in parts):
            raise BadRecord(f"its {field} name a path outside the root: {path!r}")
        if not _HASH.fullmatch(state):
            raise BadRecord(f"its {field} hold no hash for {path!r}")
    return paths


def _check_policy(policy: dict[str, str]) -> None:
    from ..._errors import PatchError
    from ..._policy import DEFAULT

    try:
        DEFAULT.with_options(**policy)
    except PatchError as exc:
        raise BadRecord(f"its policy is not one: {exc}") from None
    except (TypeError, ValueError) as exc:  # a field the policy refuses outright
        raise BadRecord(f"its policy is not one: {exc}") from None


def _reason(exc: BaseException) -> str:
    from ..._errors import os_reason

    return os_reason(exc) if isinstance(exc, OSError) else str(exc)
