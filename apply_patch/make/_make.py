"""Two texts, or two trees of files, → a Patch that turns the first into the second.

The contract: applying the patch (default policy) to the old files gives the
new files byte for byte; without `\\` lines (see `_markers`) it means the same
to the reference implementation. Every Update made here is applied in memory
before it is returned, and a mismatch is an internal error, never a patch.

A changed file becomes an Update of chunks with `context` lines around each
change (`_place` adds hints and context where needed); an added file an Add
File; a removed one a Delete File; a removed and an added file with the same
or a similar text an Update with `Move to`. Some changes have no Update: a
byte-order mark removed (the default policy keeps it) becomes a Delete File
and an Add File. Binary files (a NUL byte, or not UTF-8), a file turned into
a folder or back, and paths the format cannot hold are refused.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..format import constants as C, Line, AddFile, Chunk, DeleteFile, Operation, Patch, UpdateFile
from ._drafts import Draft, with_bom_as_text
from .._errors import BinaryFileError, UnsupportedChangeError
from ._linediff import opcodes
from ..apply import Location, BOM, TextFile, split_text
from ..apply import matching
from ._markers import OldEndings, settle
from ._place import place
from .._policy import DEFAULT

Content = str | bytes


@dataclass(frozen=True, slots=True)
class Options:
    """How patches are made: context lines, rename detection, binary files."""

    context: int = 3
    renames: bool = True
    similarity: float = 0.5
    skip_binary: bool = False

    def __post_init__(self) -> None:
        if self.context < 0:
            raise ValueError(f"context must be 0 or more, not {self.context}")
        if not 0 < self.similarity <= 1:
            raise ValueError(f"similarity must be in (0, 1], not {self.similarity}")


@dataclass(frozen=True, slots=True)
class TreeDiff:
    """A patch between two trees, and the binary files left out of it."""

    patch: Patch
    skipped: tuple[str, ...] = ()


def make_patch(
    old: Content | Mapping[str, Content],
    new: Content | Mapping[str, Content],
    *,
    path: str = "file",
    context: int = 3,
    renames: bool = True,
    similarity: float = 0.5,
) -> Patch:
    """The patch that turns `old` into `new`: two texts (the file `path`) or two trees.

    A tree maps relative POSIX paths to contents (`str`, or `bytes` read as
    UTF-8). `context`: lines around each change; `renames`: pair a removed
    and an added file whose texts are at least `similarity` alike (1: equal)
    as a Move. Raises UnsupportedChangeError (BinaryFileError for a changed
    binary file) when the change cannot be expressed.
    """
    options = Options(context, renames, similarity)
    if isinstance(old, (str, bytes)) and isinstance(new, (str, bytes)):
        return diff_trees({path: old}, {path: new}, options).patch
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        return diff_trees(old, new, options).patch
    raise TypeError("make_patch takes two texts or two mappings of path to text")


def diff_trees(
    old: Mapping[str, Content], new: Mapping[str, Content], options: Options = Options()
) -> TreeDiff:
    """The patch between two trees (see `make_patch`); binary files skipped if asked."""
    changed = sorted(p for p in {*old, *new} if old.get(p) != new.get(p))
    for path in changed:
        check_path(path)
    _check_shapes(set(old), set(new))
    texts = _texts(old, new, changed, skip_binary=options.skip_binary)
    operations = [*_operations(texts.old, texts.new, options), *map(DeleteFile, texts.gone)]
    operations.sort(key=_sort_key)  # stable: a Delete stays before an Add of its path
    return TreeDiff(Patch(tuple(operations)), tuple(texts.skipped))


@dataclass(frozen=True, slots=True)
class _Texts:
    """The changed files as text, the binary ones removed, the binary ones skipped."""

    old: dict[str, str]
    new: dict[str, str]
    gone: list[str]
    skipped: list[str]


def _texts(
    old: Mapping[str, Content], new: Mapping[str, Content], changed: list[str], *, skip_binary: bool
) -> _Texts:
    texts = _Texts({}, {}, [], [])
    for path in changed:
        try:
            if path in old:
                texts.old[path] = decode(path, old[path])
            if path in new:
                texts.new[path] = decode(path, new[path])
        except BinaryFileError:
            texts.old.pop(path, None)
            if path not in new:
                texts.gone.append(path)  # Delete File needs no text: never refused
            elif skip_binary:
                texts.skipped.append(path)
            else:
                raise
    return texts


def _sort_key(operation: Operation) -> str:
    return operation.path


def check_path(path: str) -> None:
    """Refuse a path that patch text cannot carry as it is."""
    if not path or "\n" in path or "\r" in path or path != path.rstrip(C.WHITESPACE):
        raise UnsupportedChangeError(
            f"Cannot make a patch for {path!r}: a path in a patch cannot be empty, "
            "hold a line break or end with whitespace",
            path=path,
        )


def _check_shapes(old: set[str], new: set[str]) -> None:
    """Refuse a file turned into a folder or back: the applier never removes folders."""
    old_folders = {f for p in old for f in _parents(p)}
    new_folders = {f for p in new for f in _parents(p)}
    for path in sorted((old & new_folders) | (new & old_folders)):
        raise UnsupportedChangeError(
            f"Cannot make a patch for {path}: it is a file on one side and a folder "
            "on the other (a patch cannot remove a folder)",
            path=path,
        )


def _parents(path: str) -> Iterator[str]:
    parent = posixpath.dirname(path)
    while parent:
        yield parent
        parent = posixpath.dirname(parent)


def decode(path: str, content: Content) -> str:
    """The text of a file; BinaryFileError if it has a NUL byte or is not UTF-8."""
    text, reason = _as_text(content)
    if reason:
        raise BinaryFileError(
            f"Cannot make a patch for {path}: it is a binary file ({reason})", path=path
        )
    return text


def _as_text(content: Content) -> tuple[str, str]:
    """(text, "") or ("", why it is not text)."""
    nul = content.find("\0") if isinstance(content, str) else content.find(b"\0")
    if nul >= 0:
        return "", f"a NUL byte at offset {nul}"
    try:
        if isinstance(content, str):
            content.encode("utf-8")  # lone surrogates cannot be written
            return content, ""
        return content.decode("utf-8"), ""
    except (UnicodeDecodeError, UnicodeEncodeError) as exc:
        return "", f"not UTF-8 at offset {exc.start}"


def _operations(old: dict[str, str], new: dict[str, str], options: Options) -> Iterator[Operation]:
    deleted = {p: t for p, t in old.items() if p not in new}
    added = {p: t for p, t in new.items() if p not in old}
    moves = dict(find_renames(deleted, added, options.similarity)) if options.renames else {}
    targets = set(moves.values())
    for path in sorted({*old, *new} - targets):
        if path in moves:
            yield from file_operations(path, old[path], new[moves[path]], options, moves[path])
        else:
            yield from file_operations(path, old.get(path), new.get(path), options)


def file_operations(
    path: str, old: str | None, new: str | None, options: Options, move_to: str | None = None
) -> list[Operation]:
    """The operations that turn the file `path` (None: absent) into `new` at `move_to` or `path`."""
    if old is None:
        return [] if new is None else [add_file(path, new)]
    if new is None:
        return [DeleteFile(path)]
    if old == new and move_to is None:
        return []
    old_file, new_file = split_text(old), split_text(new)
    target = move_to or path
    if old_file.bom and not new_file.bom:  # an Update keeps the BOM: rewrite the file
        return [DeleteFile(path), add_file(target, new)]
    if not old_file.bom:
        new_file = with_bom_as_text(new_file)
    if old == new:  # a Move only (the reference needs a chunk: nothing to hold one, rewrite)
        chunk = unchanged_chunk(old_file)
        if chunk is None:
            return [DeleteFile(path), add_file(target, new)]
        return [UpdateFile(path, move_to, (chunk,))]
    drafts = place(old_file, make_drafts(old_file, new_file, options.context))
    chunks = settle(drafts, old_endings(old_file))
    update = UpdateFile(path, move_to, chunks)
    if not reproduces(old_file, update, new):  # the default policy writes some new line otherwise
        return [DeleteFile(path), add_file(target, new)]
    return [update]


def add_file(path: str, text: str) -> AddFile:
    """Add File with `text`; lines not ending with LF carry their ending explicitly."""
    new = with_bom_as_text(split_text(text))
    endings = tuple((i, e) for i, e in enumerate(new.endings) if e != "\n")
    return AddFile(path, tuple(new.lines), endings=endings)


def old_endings(old: TextFile) -> OldEndings:
    """What the default policy takes from the old file for new lines."""
    return OldEndings(old.preferred_ending, old.has_final_newline)


def unchanged_chunk(old: TextFile) -> Chunk | None:
    """A chunk changing nothing, found where it is: the reference needs one for a Move.

    One context line that occurs once in the file (so that it fits in one
    way only), the first such line after the first line of a file with a
    BOM (the reference sees the BOM). None if every line occurs more than once.
    """
    from collections import Counter

    counts = Counter(old.lines)
    unique = [i for i, text in enumerate(old.lines) if counts[text] == 1]
    preferred = [i for i in unique if i > 0] if old.bom else unique
    chosen = preferred or unique
    return Chunk((), (C.CONTEXT + old.lines[chosen[0]],)) if chosen else None


def reproduces(old: TextFile, update: UpdateFile, expected: str) -> bool:
    """Whether `update`, applied in memory to `old` with the default policy, gives `expected`.

    Not always: the default policy writes added lines in the unit of a file indented with
    one unit throughout (a tab line added to a file of spaces), as a model's would be; the
    callers then write the file whole."""
    name = update.path
    result = matching.place(matching.decode(old), update, DEFAULT, Location.of(name, name, name, name, name)).text
    return matching.encode(result, DEFAULT) == expected


def make_drafts(old: TextFile, new: TextFile, context: int) -> list[Draft]:
    """One draft per group of changes closer than `2 * context` lines, with `context` around."""
    changes = _changes(old, new)
    groups: list[list[Change]] = []
    for change in changes:
        if groups and change[0] - groups[-1][-1][1] <= 2 * context:
            groups[-1].append(change)
        else:
            groups.append([change])
    return [_draft(old, new, group, context) for group in groups]


def diff_lines(old: TextFile, new: TextFile) -> list[Line]:
    """Every line of both files in order: context, removed or added."""
    changes = _changes(old, new)
    return list(_draft(old, new, changes, len(old.lines)).lines) if changes else []


Change = tuple[int, int, int, int]  # old[i1:i2] becomes new[j1:j2]


def _changes(old: TextFile, new: TextFile) -> list[Change]:
    """The changed runs, lines compared with their endings (as git does)."""
    a = list(map(str.__add__, old.lines, old.endings))
    b = list(map(str.__add__, new.lines, new.endings))
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in opcodes(a, b) if tag != "equal"]


def _draft(old: TextFile, new: TextFile, group: list[Change], context: int) -> Draft:
    """The changes of `group`, the unchanged lines between them, `context` lines around."""
    start = max(0, group[0][0] - context)
    lines = _context(old, start, group[0][0])
    for k, (i1, i2, j1, j2) in enumerate(group):
        lines += [Line(C.REMOVED, old.lines[i], old.endings[i]) for i in range(i1, i2)]
        lines += [Line(C.ADDED, new.lines[j], new.endings[j]) for j in range(j1, j2)]
        stop = group[k + 1][0] if k + 1 < len(group) else min(len(old.lines), i2 + context)
        lines += _context(old, i2, stop)
    return Draft(start, tuple(lines))


def _context(old: TextFile, start: int, stop: int) -> list[Line]:
    return [Line(C.CONTEXT, old.lines[i], old.endings[i]) for i in range(start, stop)]


def find_renames(
    deleted: Mapping[str, str], added: Mapping[str, str], similarity: float
) -> list[tuple[str, str]]:
    """(old path, new path) pairs: equal texts first, then the most alike above `similarity`.

    Files without lines are never paired: nothing says which went where, and
    the reference needs a line to express a Move.
    """
    pairs: list[tuple[str, str]] = []
    by_text: dict[str, list[str]] = {}
    for path in sorted(deleted):
        if _has_lines(deleted[path]):
            by_text.setdefault(deleted[path], []).append(path)
    for path in sorted(added):
        candidates = by_text.get(added[path], [])
        if candidates:
            same_name = [p for p in candidates if posixpath.basename(p) == posixpath.basename(path)]
            chosen = (same_name or candidates)[0]
            candidates.remove(chosen)
            pairs.append((chosen, path))
    if similarity < 1:
        used = {p for pair in pairs for p in pair}
        old = {p: t for p, t in deleted.items() if p not in used and _has_lines(t)}
        new = {p: t for p, t in added.items() if p not in used and _has_lines(t)}
        pairs += _similar(old, new, similarity)
    return pairs


def _has_lines(text: str) -> bool:
    return text not in ("", BOM)


_MAX_COMPARISONS = 10_000  # rename detection beyond equal texts stays cheap


def _similar(
    old: Mapping[str, str], new: Mapping[str, str], similarity: float
) -> list[tuple[str, str]]:
    if len(old) * len(new) > _MAX_COMPARISONS:
        return []
    lines_old = {p: t.splitlines() for p, t in old.items()}
    lines_new = {p: t.splitlines() for p, t in new.items()}
    scored = []
    for a in sorted(old):
        for b in sorted(new):
            ratio = _ratio(lines_old[a], lines_new[b], similarity)
            if ratio >= similarity:
                scored.append((-ratio, a, b))
    pairs: list[tuple[str, str]] = []
    used: set[str] = set()
    for _, a, b in sorted(scored):
        if a not in used and b not in used:
            pairs.append((a, b))
            used.update((a, b))
    return pairs


def _ratio(a: list[str], b: list[str], floor: float) -> float:
    matcher = difflib.SequenceMatcher(None, a, b, False)
    if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
        return 0.0
    return matcher.ratio()
