"""A receipt read back from the state folder → a checked `Record`, or `BadRecord` saying why (pure).

Receipts are written by this user's own commits into a private folder, but
what is read back may have been damaged (a disk, an editor, a tool that
"cleaned up") or written by an older version: it is input, held to the rules
a patch is held to. A record is taken only whole: its name is a receipt's
name (`SEQUENCE-ID`, or the time-stamped id of version 1), its id and
sequence are its name's, its root is the root asked about, every path is
relative to that root without `..` (an absolute one is a file a commit made
with `--outside-root allow`: listed, never undone), every saved copy is a
plain name inside the receipt's own folder, every digest is a SHA-256, every
mode a permission mode and every owner a pair of ids. Version 1 (ids by
time, no sequence, no owner) is read under the same checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._receipts import HEX, VERSION, is_id, parse_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

MIN_PREFIX: Final = 4  # the shortest start of an id that names a receipt
_LETTERS: Final = frozenset("ADMR")


class BadRecord(Exception):
    """The record cannot be used: the reason, in words."""


@dataclass(frozen=True, slots=True)
class Side:
    """A file before or after a commit: a regular file's `sha256` and `mode`, or a symlink's
    `link` target. A before side also has `blob` (its saved copy's name in the receipt's
    folder), `owner` (uid, gid; None in a version 1 record) and `hidden` (its number of hard
    links when its content was not shown at commit time, `_tree.hidden`; else 0)."""

    sha256: str = ""
    mode: int | None = None
    link: bytes | None = None
    blob: str | None = None
    owner: tuple[int, int] | None = None
    hidden: int = 0


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of a receipt: its `path` (relative, `/`-separated; absolute when it was
    outside the root), what it held `before` and `after` (None: no file)."""

    path: str
    before: Side | None
    after: Side | None

    @property
    def outside(self) -> bool:
        """Whether the file was outside the root (never undone nor read)."""
        return self.path.startswith("/")


@dataclass(frozen=True, slots=True)
class Record:
    """A checked receipt: its `name` in the store (its file `NAME.json`, its folder `NAME/`),
    `id`, `sequence` (its order among the root's receipts; 0 for version 1, ordered by
    name), `time` (UTC, ISO 8601), the id it `undoes`, its `operations` as the summary
    writes them, its `files` and the `folders` its commit created (relative)."""

    name: str
    id: str
    sequence: int
    time: str
    undoes: str | None
    operations: tuple[str, ...]
    files: tuple[Entry, ...]
    folders: tuple[str, ...]


def check(name: str, document: object, root: str) -> Record:
    """The record `document` (parsed JSON) of the receipt `name` under `root`; BadRecord if
    any part of it breaks the rules (see the module's docstring)."""
    parsed = parse_name(name)
    if parsed is None:
        raise BadRecord("not a receipt's name")
    sequence, receipt = parsed
    if not isinstance(document, dict):
        raise BadRecord("not a JSON object")
    version = document.get("version")
    if version not in (1, VERSION) or (version == 1) != (sequence == 0):
        raise BadRecord(f"version {version!r} where its name says {'1' if sequence == 0 else VERSION}")
    if document.get("id") != receipt or (version == VERSION and document.get("sequence") != sequence):
        raise BadRecord("its id or sequence is not its name's")
    if document.get("root") != root:
        raise BadRecord("it is another root's")
    undoes = document.get("undoes")
    if undoes is not None and (not isinstance(undoes, str) or parse_name(undoes) is None and not is_id(undoes)):
        raise BadRecord("what it undoes is not an id")
    files = _list(document, "files")
    folders = _list(document, "folders")
    return Record(
        name,
        receipt,
        sequence,
        _text(document.get("time"), "time"),
        undoes,
        tuple(_operation(op) for op in _list(document, "operations")),
        tuple(_entry(entry, version) for entry in files),
        tuple(_folder(folder) for folder in folders),
    )


def _list(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    if not isinstance(value, list):
        raise BadRecord(f"its {key} are not a list")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.isprintable() or len(value) > 4096:
        raise BadRecord(f"its {what} is not a line of text")
    return value


def _operation(op: object) -> str:
    if not isinstance(op, dict) or op.get("letter") not in _LETTERS:
        raise BadRecord("an operation is not one")
    path = _path(op.get("path"))
    source = op.get("source")
    return f"{op['letter']} {path}" + (f" (from {_path(source)})" if source is not None else "")


def _path(value: object) -> str:
    """A file's path as a receipt writes it: relative without `.`, `..` or empty parts, or
    absolute (outside the root) and normal."""
    if not isinstance(value, str) or not value or "\0" in value or len(value) > 4096:
        raise BadRecord("a path is not one")
    parts = value[1:].split("/") if value.startswith("/") else value.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise BadRecord(f"the path {value!r} is not confined to the root")
    return value


def _folder(value: object) -> str:
    """A folder the commit made: as `_path`; an absolute one (outside the root) is kept as
    it is and never removed."""
    return _path(value)


def _entry(value: object, version: int) -> Entry:
    if not isinstance(value, dict):
        raise BadRecord("a file is not an object")
    path = _path(value.get("path"))
    before = _side(value.get("before"), version, saved=True)
    after = _side(value.get("after"), version, saved=False)
    if before is None and after is None:
        raise BadRecord(f"{path} is absent before and after")
    return Entry(path, before, after)


def _side(value: object, version: int, *, saved: bool) -> Side | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRecord("a file's state is not an object")
    if "link" in value:
        link = value["link"]
        if not isinstance(link, str) or not set(link) <= HEX or len(link) % 2 or not link:
            raise BadRecord("a symlink's target is not hex")
        return Side(link=bytes.fromhex(link))
    digest = value.get("sha256")
    if not isinstance(digest, str) or len(digest) != 64 or not set(digest) <= HEX:
        raise BadRecord("a digest is not a SHA-256")
    mode = value.get("mode")  # (None: a new file's, as the commit made it)
    if mode is not None and (type(mode) is not int or not 0 <= mode <= 0o7777):
        raise BadRecord("a mode is not a permission mode")
    if not saved:
        return Side(digest, mode)
    blob = value.get("blob")
    if not isinstance(blob, str) or not blob.isdigit() or not blob.isascii() or len(blob) > 9:
        raise BadRecord("a saved copy's name is not one of its folder's")
    owner = value.get("owner")
    if version == 1 and owner is None:
        return Side(digest, mode, blob=blob)
    if not (isinstance(owner, list) and len(owner) == 2 and all(type(n) is int and 0 <= n < 1 << 32 for n in owner)):
        raise BadRecord("an owner is not a uid and a gid")
    hidden = value.get("hidden", 0)
    if type(hidden) is not int or hidden < 0:
        raise BadRecord("a file's hidden links are not a count")
    return Side(digest, mode, blob=blob, owner=(owner[0], owner[1]), hidden=hidden)
