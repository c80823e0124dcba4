"""Patch + tree → Plan: every path resolved, every file read, every new content computed.

Nothing is written here; files are read through the `Tree` interface (a root
folder on disk, or an in-memory mapping). The operations run in patch order over an in-memory
overlay of the tree, so several operations on one file apply one after the
other, each to the result of the previous. Any error raised here means
nothing was written; the Plan is what `_commit` makes true on disk.
"""

from __future__ import annotations

import os

from dataclasses import dataclass
from ..._errors import (
    ConcurrentChangeError,
    EncodingError,
    FilePolicyError,
    PatchError,
    PatchIOError,
    check_text,
    escaped,
    os_reason,
)
from ._dirs import FolderChanged
from ._paths import JOURNAL
from ...format import AddFile, Chunk, DeleteFile, UpdateFile
from ._paths import Location
from ..._policy import Policy
from ..matching import BOM, TextFile, forced_ending, split_text
from ._tree import FileState, Kind, State, Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from ..matching import PatchWarning
    from ._conventions import Conventions
    from ._encoding import Encoding
    from ..matching import Placement
    from ._written_names import FileNames


# The convention files a new file's folders may hold (`_conventions.GITATTRIBUTES` and
# `EDITORCONFIG`, in the order `conventions_for` reads them): looked for here, without
# importing `_conventions`, which only then reads and parses them.
_CONVENTION_FILES: Final = (".gitattributes", ".editorconfig")
MAX_CONFIG: Final = 64 << 10  # bytes of one convention file read at most: the rest is ignored, with a warning


@dataclass(frozen=True, slots=True)
class FileChange:
    """One path's net change: `before` and `after` (None: absent).

    `path` is the absolute path on disk, `shown` how the reference names it,
    `relative` how a patch would write it.
    """

    path: str
    shown: str
    relative: str
    before: FileState | None
    after: FileState | None


@dataclass(frozen=True, slots=True)
class OperationResult:
    """One operation of the patch: `A`, `M` or `D`, its path as written.

    For a move, `path` is the destination and `source` the original path.
    `added`/`removed` count lines; `placements` say where each chunk of an
    Update landed. `target` (and `source_target` for a move) are the absolute
    paths written or removed.
    """

    letter: str
    path: str
    target: str
    added: int = 0
    removed: int = 0
    source: str | None = None
    source_target: str | None = None
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything the commit needs: net changes, and folders to create (parents first).

    `warnings` are doubts about chunks that were placed (fuzzy, ambiguous).
    `absolute_names`: messages name files by absolute path (the reference's
    text), not relative to the root. `gone_folders` (an undo's: the folders
    its patch created, deepest first) are removed once the files are, each
    only if it is empty then.
    """

    root: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    new_folders: tuple[str, ...]
    warnings: tuple[PatchWarning, ...] = ()
    absolute_names: bool = False
    gone_folders: tuple[str, ...] = ()

    def name(self, path: str) -> str:
        """How messages name the absolute `path`."""
        inside = path == self.root or path.startswith(self.root.rstrip(os.sep) + os.sep)
        return path if self.absolute_names or not inside else os.path.relpath(path, self.root)


def file_pairs(
    changes: Sequence[FileChange], operations: Sequence[OperationResult]
) -> list[tuple[FileChange, FileChange]]:
    """Each file's net change as (where it was, where it is), in the order of `changes`.

    A move whose source was removed and whose destination was created is one
    pair of two changes; every other change is paired with itself.
    """
    moved = {op.source_target: op.target for op in operations if op.source_target}
    if not moved:
        return [(change, change) for change in changes]  # no move: each change is its own pair
    by_path = {change.path: change for change in changes}
    paired: dict[str, FileChange] = {}  # source path → destination
    for change in changes:
        destination = by_path.get(moved.get(change.path, ""))
        if change.after is None and destination is not None and destination.before is None:
            paired[change.path] = destination
    taken = {destination.path for destination in paired.values()}
    return [(change, paired.get(change.path, change)) for change in changes if change.path not in taken]


def finished_plan(planner: Planner, results: Sequence[OperationResult], tree: Tree) -> Plan:
    """The plan of what `planner` did: the operations' `results`, net changes, folders, doubts.

    The end of `_edit_plan.make_plan`, the planner's one entry.
    """
    changes = planner.overlay.changes()
    warnings = tuple(planner.warnings)
    if tree.policy.check_syntax != "off":
        warnings += _syntax_warnings(changes, results, tree.policy.check_syntax == "refuse")
    return Plan(
        tree.root,
        tuple(results),
        changes,
        _new_folders(changes, tree),
        warnings,
        tree.policy.message_paths == "absolute",
    )


def _syntax_warnings(
    changes: Sequence[FileChange], results: Sequence[OperationResult], refuse: bool
) -> tuple[PatchWarning, ...]:
    """The syntax check of every changed text file (`_syntax`); raises when `refuse` and
    it found errors. A moved file is compared with its content before the move; a file
    whose content may not be shown (`FileState.hidden`) is not checked: its lines would be."""
    from ..syntax import language_of_content  # a table: the check itself only for a language it knows

    files = []
    for old, new in file_pairs(changes, results):
        before, after = old.before, new.after
        if after is None or after.is_link or not language_of_content(new.relative, after.data):
            continue  # (the language first: most changed files of a large patch have none it knows)
        if after != before and not (before is not None and before.hidden):
            files.append((new.relative, None if before is None or before.is_link else before.data, after.data))
    if not files:
        return ()
    from ..syntax import check_files, refusal, warnings_of  # parses: only for changed files

    report = check_files(files)
    if refuse and report.findings:
        raise refusal(report.findings)
    return warnings_of(report)


class _Overlay:
    """The files as the patch leaves them so far, over the files of the tree."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.original: dict[str, State] = {}
        self.current: dict[str, State] = {}
        self.names: dict[str, Location] = {}
        self.folders: set[str] = set()  # folders the patch creates
        # Folders seen on disk: a patch creates and deletes files, never folders, so a
        # folder stays one while planning (the files of a folder look at it once).
        self.on_disk: set[str] = set()
        # Keys a planner's cache was made from (the convention files), and how many times
        # `put` changed one of them: a cache made before the last change is stale.
        self.watched: set[str] = set()
        self.watched_changes = 0

    def look(self, key: str, where: Location, failure: str, *, follow: bool = True) -> State:
        """The state of `key` now; read on first sight. `failure` prefixes errors.

        A file whose content may not be shown (`_tree.hidden`) is noted in the
        tree's `unshown`: messages about it quote none of its lines.
        """
        if key in self.current:
            return self.current[key]
        if key in self.folders:
            return Kind.FOLDER
        try:
            state = self.tree.read(key, follow=follow)
        except OSError as exc:
            raise PatchIOError(
                f"{failure} {where.shown}: {os_reason(exc)}",
                path=where.relative,
                errno=exc.errno,
            ) from exc
        except FolderChanged as exc:  # a symlink swapped in since the path was resolved
            raise ConcurrentChangeError(
                f"{where.shown} changed on disk while the patch was being read: "
                f"the {exc.what} {self.tree.name(exc.folder)} {exc.why}",
                path=where.relative,
            ) from exc
        if isinstance(state, FileState) and state.hidden:
            self.tree.unshown[where.relative] = state.links
        self.original[key] = self.current[key] = state
        self.names[key] = where
        return state

    def put(self, key: str, state: FileState | None) -> None:
        """Set `key` (already looked at) to `state`."""
        self.current[key] = state
        if key in self.watched:
            self.watched_changes += 1

    def make_parents(self, location: Location) -> None:
        """Check that `location` can have folders created above it; note the new ones."""
        missing: list[str] = []
        parent = self.tree.parent(location.target)
        while parent is not None and parent not in self.folders and parent not in self.on_disk:
            try:
                kind = self._kind_of(parent)
            except OSError as exc:
                raise PatchIOError(
                    f"Failed to write file {location.shown}: cannot inspect {self.tree.name(parent)}: "
                    f"{os_reason(exc)}",
                    path=location.relative,
                    errno=exc.errno,
                ) from exc
            if kind == "folder":
                self.on_disk.add(parent)
                break
            if kind is not None:
                raise PatchIOError(
                    f"Failed to write file {location.shown}: {self.tree.name(parent)} is a {kind}, "
                    "not a folder",
                    path=location.relative,
                )
            missing.append(parent)
            parent = self.tree.parent(parent)
        self.folders.update(missing)

    def _kind_of(self, path: str) -> str | None:
        """"folder", "file", "special file", or None when nothing is there (now)."""
        if path in self.current:  # a file this patch deleted may become a folder
            state = self.current[path]
            return "file" if isinstance(state, FileState) else None if state is None else state.value
        return self.tree.kind(path)

    def changes(self) -> tuple[FileChange, ...]:
        result = []
        for key, after in self.current.items():
            before = self.original[key]
            if after != before:
                assert not isinstance(before, Kind) and not isinstance(after, Kind)
                name = self.names[key]
                result.append(FileChange(key, name.shown, name.relative, before, after))
        return tuple(result)


class Planner:
    """Runs the operations of one patch over the overlay."""

    def __init__(self, tree: Tree, *, per_file: bool = False) -> None:
        self.tree = tree
        self.per_file = per_file  # the patch's results name files, not operations (`Patch.per_file`)
        self.policy = tree.policy
        self.overlay = _Overlay(tree)
        self.warnings: list[PatchWarning] = []
        # Where each convention file is (None: it may not be read): every file of a folder
        # asks for the same ones, resolved once (their content is the overlay's, kept current).
        self._convention_places: dict[str, Location | None] = {}
        # Each folder's `_convention_reader` (its files all get the same), kept while no
        # convention file changes (`_Overlay.watched_changes`, as it was when they were made).
        self._readers: dict[str, Callable[[str], str | None] | None] = {}
        self._readers_made_at = 0
        self._warned: set[str] = set()  # the convention warnings given (`_warn_ignored`), each once
        self._file_names: FileNames | None = None  # the tree's files, walked once if a name needs them

    def mangled_name(self, written: str) -> str | None:
        """The one file `written` is a mangled name of, among the files as the plan leaves
        them so far (`_written_names`); None if none or several."""
        from ._written_names import FileNames

        if self._file_names is None:
            self._file_names = FileNames(self.tree)
        overlay = self.overlay
        created, deleted = [], []
        for key, state in overlay.current.items():
            before = overlay.original.get(key)
            if isinstance(state, FileState) and not isinstance(before, FileState):
                created.append(overlay.names[key].relative)
            elif state is None and isinstance(before, FileState):
                deleted.append(overlay.names[key].relative)
        return self._file_names.the_one(written, created, deleted)

    def _resolve(self, path: str, line: int, *, follow_leaf: bool = True) -> Location:
        """The location of the file `path` (at patch `line`); every operation names a file."""
        if path.endswith(("/", os.sep)):  # resolving would drop the slash: never a file
            raise FilePolicyError(
                f"Path '{escaped(path)}' ends with '/': it names a folder, and a file is needed",
                path=escaped(path),
                patch_line=line,
            )
        where = self.tree.resolve(path, follow_leaf=follow_leaf, line=line)
        if (where.target.endswith(_JOURNAL_NAME) or where.entry.endswith(_JOURNAL_NAME)) and (
            _JOURNAL_NAME in (os.path.basename(where.target), os.path.basename(where.entry))
        ):  # (the test of the ends first: two basenames a file cost more)
            # The next run acts on what a journal says: no edit may make one (through a symlink neither).
            raise FilePolicyError(
                f"Path '{escaped(path)}' is the commit journal's name, which no patch may touch",
                path=escaped(path),
                patch_line=line,
            )
        return where

    def add(self, op: AddFile) -> OperationResult:
        """Create the file of `op`. A file already there is refused by the Add File policy,
        unless `op` may overwrite it (`existing`); a file replaced whole keeps no convention
        but the policy's line endings, and its encoding (`replaced_file_bytes`). A `per_file`
        patch names a replaced file `M` with its old lines removed; a Codex patch `A`, as
        the reference's summary does."""
        where = self._resolve(op.path, op.line)
        existing = self._writable(where, op.line)
        if existing is not None and _kept(op, existing.data, self.policy.add_existing):
            raise FilePolicyError(
                f"Failed to add file {where.shown}: it already exists ({_only_new(op)})",
                path=where.relative,
                patch_line=op.line,
            )
        if existing is None:
            data = self.new_file_bytes(where, op.text(), op.line)
        else:
            forced = forced_ending(self.policy)
            text = op.text(forced or "\n", force=forced is not None)
            data = self.replaced_file_bytes(where, text, existing.data, op.line)
        mode = existing.mode if existing is not None else None
        owner = existing.owner if existing is not None else None
        self.overlay.put(where.target, FileState(data, mode, owner=owner))
        replaced = existing is not None and self.per_file
        removed = existing.data.count(b"\n") if replaced and existing is not None else 0
        return OperationResult("M" if replaced else "A", op.path, where.target, added=len(op.lines), removed=removed)

    def read_text(self, data: bytes, where: Location, line: int) -> tuple[TextFile, Encoding]:
        """`read_decoded`, the text as lines."""
        text, encoding = self.read_decoded(data, where, line)
        if isinstance(text, bytes):
            text = text.decode("ascii")  # (an ASCII file comes as its bytes)
        return (split_text(text) if isinstance(text, str) else text), encoding

    def read_decoded(self, data: bytes, where: Location, line: int) -> tuple[bytes | str | TextFile, Encoding]:
        """The text of the file at `where` holding `data` (to update at patch `line`) and its
        encoding (`_encoding`): the policy's, else the one the repository declares (unless
        the policy ignores declarations), else a byte-order mark's, else UTF-8; a file not
        UTF-8 whose encoding none of them gives is read line by line (`masked`), unless the
        policy refuses (`non_utf8`: "ascii" refuses only what needs the encoding, "error"
        every file not UTF-8 whose encoding the policy does not give) or preserves its bytes.
        A file read as UTF-8 comes as one string (the other formats edit it so), or, ASCII,
        as its bytes (decoded only if an edit reads it as a str: `matching.decode`), any
        other as its lines."""
        from . import _encoding as enc

        encoding = self._encoding_of(data, where, line)
        if encoding is not None and not enc.is_utf8(encoding):
            if not encoding.name.startswith(("utf-16", "utf-32")):
                decode_file(data, where, self.policy, line, binary_only=True)
            return enc.decoded(data, encoding, where, line), encoding
        if encoding is None and b"\x1b" in data:  # (an escape: a 7-bit encoding's, or a terminal's)
            enc.refuse_iso_2022(data, where, line)
        try:
            strict = encoding is not None or self.policy.non_utf8 == "error"
            if data.isascii():  # UTF-8 as it is: not decoded here (a large diffed file never is)
                decoded_text(data, where, self.policy, line, binary_only=True)  # (a NUL byte refused)
                return data, enc.UTF8
            return decoded_text(data, where, self.policy, line, strict=strict), enc.UTF8
        except _NotUTF8:
            return enc.masked(data)
        except FilePolicyError as error:
            if encoding is None:
                raise
            raise EncodingError(
                f"{error.message.removesuffix(' (the file is not UTF-8 text)')} (its encoding is "
                f"{encoding.named})",
                path=error.path,
                patch_line=line,
                encoding="utf-8",
                hints=(enc.ASK.replace("Give its encoding", "Give the encoding it really has"),),
            ) from None

    def write_text(self, text: str | bytes, encoding: Encoding, where: Location, line: int) -> bytes:
        """`text` (from `matching.encode`) as the bytes of the file `read_decoded` read in
        `encoding`: bytes as they are (a text held as its UTF-8: the file was read as
        UTF-8), a string in UTF-8 as the policy says (`encode_text`), in another encoding
        with its own byte-order mark (a U+FEFF in front is the mark, written by the
        encoding), a file read line by line (`masked`) line by line again."""
        from . import _encoding as enc

        if isinstance(text, bytes):
            return text
        if enc.is_utf8(encoding):
            return encode_text(text, self.policy)
        text = text.removeprefix(BOM)
        if encoding.name == enc.UNKNOWN:
            return enc.unmasked(split_text(text), encoding, where, line)
        return enc.encoded(split_text(text), encoding, where, line)

    def refuse_broken_notebook(self, before: bytes, after: bytes, where: Location, line: int) -> None:
        """A text edit that turns the Jupyter notebook at `where` into invalid JSON, or into
        JSON that is not a notebook, is refused, pointing to the notebook edit."""
        if where.target.endswith(".ipynb"):
            from ..matching import text_edit_refusal

            error = text_edit_refusal(before, after, where, line)
            if error is not None:
                raise error

    def explained(self, error: PatchError, where: Location, encoding: Encoding, sought: str, line: int) -> PatchError:
        """`error` (an edit, looking for the text `sought`, not placed in the file at `where`),
        saying how the file was read when that was not as UTF-8: the hint is added here,
        where the encoding is known (the locator knows only text). In a file not UTF-8 whose
        encoding is not known, text that is not ASCII cannot be found: that is the error."""
        from . import _encoding as enc

        if not enc.is_utf8(encoding):
            if encoding.name == enc.UNKNOWN and not sought.isascii():
                return enc.unknown_sought(where, line, encoding)
            if encoding.name == enc.UNKNOWN:
                hint = enc.unknown_hint(where, encoding)
            else:
                hint = f"{where.shown} was read as {encoding.named}: the edit is matched against its decoded text."
            error.hints = (*error.hints, hint)
        return error

    def _encoding_of(self, data: bytes, where: Location, line: int = 0, *, marks: bool = True) -> Encoding | None:
        """The encoding the policy gives, else the repository declares, else (with `marks`) a
        byte-order mark names; None when none does (then UTF-8, if the bytes are).
        EncodingError (patch `line`) for a declared name that is not a character encoding."""
        from . import _encoding as enc

        if self.policy.encoding:
            from ._conventions import GIVEN

            return enc.chosen(self.policy.encoding, GIVEN, data)
        if self.policy.non_utf8 == "error":  # as the reference: UTF-8, or the encoding given
            return None
        read = self._convention_reader(where)
        if read is None:  # nothing declared (`_conventions` not even imported)
            return enc.bom_encoding(data) if marks else None
        from ..._policy import character_codec
        from ._conventions import _declared, conventions_for, not_an_encoding

        declared = conventions_for(where.relative.replace(os.sep, "/"), read)
        self._warn_ignored(declared)
        if declared.encoding is not None:
            if declared.encoding in ("utf-8", "utf-8-sig") or declared.bom:
                return enc.chosen("utf-8", _declared(declared), data)
            if character_codec(declared.encoding) is None:
                failure = f"Failed to read file to update {where.shown}"
                raise not_an_encoding(failure, declared.encoding, _declared(declared), where, line)
            return enc.chosen(declared.encoding, _declared(declared), data)
        return enc.bom_encoding(data) if marks else None

    def _warn_ignored(self, conventions: Conventions) -> None:
        """A warning (kind `conventions`) for each section or pattern of a convention file
        left out past a bound, once a patch."""
        for ignored in conventions.ignored:
            if ignored.message not in self._warned:
                from ..matching import PatchWarning

                self._warned.add(ignored.message)
                self.warnings.append(PatchWarning("conventions", ignored.path, None, ignored.line, None, (), ignored.message))

    def _convention_reader(self, where: Location) -> Callable[[str], str | None] | None:
        """`_convention_text` for `_conventions.conventions_for` on the file at `where`, or None
        when it would find nothing: outside the root, the policy ignoring declarations, or no
        convention file in the folders it reads. Those are read here first, in its order, up
        to the first found (kept for it: each read once), so that `_conventions` (its parsers,
        expressions and class) is imported only where a declaration may apply. The files of
        a folder share one reader (made for the first, until a convention file changes)."""
        inside = not (os.path.isabs(where.relative) or where.relative.startswith(".."))
        if self.policy.conventions != "read" or not inside:
            return None
        if self._readers_made_at != self.overlay.watched_changes:  # a convention file changed
            self._readers.clear()
            self._readers_made_at = self.overlay.watched_changes
        folder = where.relative.replace(os.sep, "/").rpartition("/")[0]
        if folder in self._readers:
            return self._readers[folder]
        reader = self._readers[folder] = self._folder_reader(folder)
        return reader

    def _folder_reader(self, folder: str) -> Callable[[str], str | None] | None:
        """`_convention_reader` of the files in `folder` (relative to the root, `/`-separated)."""
        folders = folder.split("/") if folder else []
        read: dict[str, str | None] = {}
        for depth in range(len(folders), -1, -1):  # as conventions_for: the file's folder, up to the root
            prefix = "".join(part + "/" for part in folders[:depth])
            for name in _CONVENTION_FILES:
                if read.setdefault(prefix + name, self._convention_text(prefix + name)) is not None:
                    return lambda path: read[path] if path in read else self._convention_text(path)
        return None

    def replaced_file_bytes(self, where: Location, text: str, old: bytes, line: int) -> bytes:
        """`text` as the bytes of the file at `where` that held `old`, replaced whole: in the
        encoding given or declared for it, else UTF-8 (a byte-order mark of the old bytes
        says nothing of a whole new text: the reference writes UTF-8 over it)."""
        from . import _encoding as enc
        from ._conventions import encoded

        encoding = self._encoding_of(old, where, line, marks=False)
        if encoding is None or enc.is_utf8(encoding):
            return _encoded(text, "strict", where, line)
        return encoded(text, encoding.name, bool(encoding.bom), where, line, encoding.source)

    def new_file_bytes(self, where: Location, text: str, line: int) -> bytes:
        """`text` as the bytes of the new file at `where` (patch `line`): the policy's line
        endings and final newline where it gives them, else those the repository declares
        (`_conventions`, unless the policy ignores them), in its declared charset."""
        policy, read = self.policy, self._convention_reader(where)
        if read is None and policy.line_endings == "keep" and policy.final_newline == "keep" and not policy.encoding:
            # Nothing given, nothing declared: the text as written, in UTF-8 (as `new_file_bytes`).
            check_text(text, f"The new text of {where.shown}", line=line)  # no lone surrogate
            return text.encode("utf-8")
        from ._conventions import NONE, conventions_for, new_file_bytes

        conventions = NONE if read is None else conventions_for(where.relative.replace(os.sep, "/"), read)
        self._warn_ignored(conventions)
        return new_file_bytes(text, conventions, policy, where, line)

    def _convention_text(self, relative: str) -> str | None:
        """The text of the convention file at `relative` (from the root) as the patch leaves it
        so far, read as any file is (inside the root, links not followed out of it), its first
        `MAX_CONFIG` bytes; None when there is none, or it is not a file that may be read."""
        if relative in self._convention_places:
            where = self._convention_places[relative]
        else:
            try:
                where = self.tree.from_root(relative)
            except PatchError:
                where = None
            else:
                self.overlay.watched.add(where.target)  # a patch changing it: the readers are stale
            self._convention_places[relative] = where
        if where is None:
            return None
        try:
            state = self.overlay.look(where.target, where, "Failed to read")
        except PatchError:
            return None
        if not isinstance(state, FileState) or state.is_link:
            return None
        if len(state.data) <= MAX_CONFIG:
            return state.data.decode("utf-8", "replace")
        # Past the bound, the lines after it are not read, nor the one it cuts (a pattern or a
        # value cut short would say something else).
        kept = state.data[:MAX_CONFIG].rpartition(b"\n")[0]
        first_ignored = kept.count(b"\n") + 2
        message = (
            f"{where.shown}: only its first {MAX_CONFIG // 1024} KiB were read (it has {len(state.data)} "
            f"bytes): what it says from line {first_ignored} on is ignored"
        )
        if message not in self._warned:
            from ..matching import PatchWarning

            self._warned.add(message)
            self.warnings.append(PatchWarning("conventions", where.relative, None, first_ignored, None, (), message))
        return kept.decode("utf-8", "replace")

    def delete(self, op: DeleteFile) -> OperationResult:
        where = self._resolve(op.path, op.line, follow_leaf=False)
        failure = "Failed to delete file"
        state = self.overlay.look(where.entry, where, failure, follow=False)
        if not isinstance(state, FileState):
            reason = "No such file or directory (os error 2)" if state is None else f"it is a {state.value}"
            raise PatchIOError(
                f"{failure} {where.shown}: {reason}",
                path=where.relative,
                patch_line=op.line,
                hints=self._did_you_mean(where) if state is None else (),
            )
        self.overlay.put(where.entry, None)
        removed = 0 if state.is_link else _count_lines(state.data)
        return OperationResult("D", op.path, where.entry, removed=removed)

    def update(self, op: UpdateFile) -> OperationResult:
        where = self._resolve(op.path, op.line)
        state = self._readable(where, op.line)
        data = state.data  # a pure rename moves the bytes untouched
        placements: tuple[Placement, ...] = ()
        if op.chunks:
            from ..matching import decode, encode, place  # an update's: an added or deleted file goes without (start-up time)

            decoded, encoding = self.read_decoded(data, where, op.line)
            text = decode(decoded, data)
            del decoded  # only `text` holds the old text: freed once placed, before the new is encoded (peak memory)
            try:
                placed = place(text, op, self.policy, where)
            except PatchError as error:
                raise self.explained(error, where, encoding, _sought(op), op.line) from None
            del text
            data = self.write_text(encode(placed.text, self.policy), encoding, where, op.line)
            placements = placed.placements
            self.warnings += placed.warnings
            self.refuse_broken_notebook(state.data, data, where, op.line)
        destination = where if op.move_to is None else self._move_destination(op, where)
        moved = destination is not where
        if not moved:
            self._refuse_read_only(state, where, op.line)
        mode = state.mode if not moved or self.policy.move_mode == "keep" else None
        self.overlay.put(destination.target, FileState(data, mode, owner=state.owner))
        if moved:  # the source's own entry goes: a symlink itself, not what it points to
            self.overlay.look(where.entry, where, "Failed to remove original", follow=False)
            self.overlay.put(where.entry, None)
        return OperationResult(
            "M",
            op.path if op.move_to is None else op.move_to,
            destination.target,
            added=sum(p.added for p in placements),
            removed=sum(p.removed for p in placements),
            source=op.path if op.move_to is not None else None,
            source_target=where.entry if moved else None,
            placements=placements,
        )

    def _readable(self, where: Location, line: int) -> FileState:
        failure = "Failed to read file to update"
        state = self.overlay.look(where.target, where, failure)
        if isinstance(state, FileState):
            return state
        reason = (
            "No such file or directory (os error 2)"
            if state is None
            else f"path `{where.shown}` is not a file"
        )
        raise PatchIOError(
            f"{failure} {where.shown}: {reason}",
            path=where.relative,
            patch_line=line,
            errno=2 if state is None else None,
            hints=self._did_you_mean(where) if state is None else (),
        )

    def _did_you_mean(self, where: Location) -> tuple[str, ...]:
        """The hint naming the existing files closest to the missing `where` (an error path)."""
        from ._did_you_mean import did_you_mean

        return did_you_mean(where.relative, self.tree)

    def _writable(self, where: Location, line: int) -> FileState | None:
        """The file now at `where` (None if none), after checking a file can be written there."""
        failure = "Failed to write file"
        state = self.overlay.look(where.target, where, failure)
        if isinstance(state, Kind):
            raise PatchIOError(
                f"{failure} {where.shown}: it is a {state.value}",
                path=where.relative,
                patch_line=line,
            )
        if state is not None:
            self._refuse_read_only(state, where, line)
        self.overlay.make_parents(where)
        return state

    def _refuse_read_only(self, state: FileState, where: Location, line: int) -> None:
        """A file without write permission is not replaced, unless the policy allows it."""
        if state.read_only and self.policy.read_only == "error":
            raise FilePolicyError(
                f"Failed to write file {where.shown}: it is read-only (--read-only allow writes it)",
                path=where.relative,
                patch_line=line,
            )

    def _move_destination(self, op: UpdateFile, source: Location) -> Location:
        assert op.move_to is not None
        destination = self._resolve(op.move_to, op.line)
        if destination.target == source.target or self.tree.is_alias(destination, source):
            if self.policy.move_same_path == "error":
                raise FilePolicyError(
                    f"Failed to move {source.shown}: it would be moved onto itself",
                    path=source.relative,
                    patch_line=op.line,
                )
            return source  # a plain update
        if self._writable(destination, op.line) is not None and self.policy.move_existing == "error":
            raise FilePolicyError(
                f"Failed to move {source.shown} to {destination.shown}: the destination already exists",
                path=destination.relative,
                patch_line=op.line,
            )
        return destination


_JOURNAL_NAME = os.fsdecode(JOURNAL)


def prepare_refusals() -> None:
    """Imports now what explaining a refusal brings (`matching.prepare_refusals`, and the
    encodings `Planner.explained` reads), imported at a run's first failure otherwise
    (start-up time): for a caller whose first refusal must come as soon as the next."""
    from ..matching import prepare_refusals as prepare_matching
    from . import _encoding  # noqa: F401

    prepare_matching()


def _kept(op: AddFile, data: bytes, add_existing: str) -> bool:
    """Whether the file holding `data` stays, `op` refused: the policy refuses Add File over
    a file, and `op` may neither overwrite it nor fill it (being empty)."""
    if op.existing == "overwrite" or add_existing != "error":
        return False
    return not (op.existing == "empty" and not data)


def _only_new(op: AddFile) -> str:
    """Why an Add File over an existing file is refused, in its format's words."""
    if not op.label:
        return "use '*** Update File:' to change it"
    what = f"{op.label} is empty, which" if op.existing == "empty" else op.label
    return f"{what} creates a file, and only a new one"


def _sought(op: UpdateFile) -> str:
    """The text an update's chunks look for in the file: their `@@` lines, context and removed lines."""
    from ...format import StrReplace

    sought: list[str] = []
    for chunk in op.chunks:
        if isinstance(chunk, Chunk):
            sought += chunk.contexts
            sought += (line[1:] for line in chunk.lines if line[:1] in (" ", "-"))
        elif isinstance(chunk, StrReplace):
            sought.append(chunk.old)
    return "".join(sought)


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


# What to do about a file the default policy will not edit: the policy that edits it.
BINARY_HINT: Final = (
    "To edit it anyway, as text with its NUL bytes: --binary allow (in Python: binary=\"allow\")."
)
NON_UTF8_HINT: Final = (
    "To edit it, give its encoding: --encoding NAME (in Python: encoding=\"NAME\"); or, keeping "
    "the bytes that are not UTF-8 as they are: --non-utf8 preserve (in Python: non_utf8=\"preserve\")."
)


def file_text(tree: Tree, data: bytes, where: Location) -> tuple[TextFile, str]:
    """The text of the file at `where` holding `data`, read as an update reads it (its
    encoding given, declared, marked or UTF-8), and how messages name its encoding ("" for
    UTF-8). A file not UTF-8 whose encoding is not known is refused (EncodingError): its
    text cannot be shown."""
    from . import _encoding as enc

    text, encoding = Planner(tree).read_text(data, where, 0)
    if encoding.name == enc.UNKNOWN:
        raise EncodingError(
            f"Failed to read {where.shown}: it is not UTF-8 and its encoding is neither given nor declared",
            path=where.relative,
            hints=(enc.ASK,),
        )
    return text, "" if enc.is_utf8(encoding) else encoding.named


def file_encoding(tree: Tree, head: bytes, where: Location) -> str:
    """How messages name the encoding of the file at `where`, starting with the bytes `head`
    (4 are enough), when it is not read as UTF-8 (given, declared, a UTF-16 or UTF-32
    byte-order mark); "" when it is. EncodingError for a declared name Python does not know."""
    from . import _encoding as enc

    encoding = Planner(tree)._encoding_of(head, where)
    return "" if encoding is None or enc.is_utf8(encoding) else encoding.named


class _NotUTF8(Exception):
    """A file that is not UTF-8, its encoding not known (`decode_file(..., strict=False)`)."""


def decode_file(
    data: bytes, where: Location, policy: Policy, line: int, *, strict: bool = True, binary_only: bool = False
) -> TextFile:
    """A file's bytes → its text by the policy (binary, non-UTF-8); FilePolicyError naming `where` at patch `line`.

    Not `strict` (its encoding is not known): a file that is not UTF-8 raises
    `_NotUTF8` instead, to be read line by line, unless the policy preserves
    its bytes. `binary_only`: only the binary check (the text is read otherwise).
    """
    text = decoded_text(data, where, policy, line, strict=strict, binary_only=binary_only)
    return TextFile([], []) if binary_only else split_text(text)


def decoded_text(
    data: bytes, where: Location, policy: Policy, line: int, *, strict: bool = True, binary_only: bool = False
) -> str:
    """`decode_file`, the text not yet split into lines ("" with `binary_only`)."""
    failure = f"Failed to read file to update {where.shown}"
    nul = data.find(b"\0")
    if nul >= 0 and policy.binary == "error":
        raise FilePolicyError(
            f"{failure}: it looks binary (a NUL byte at offset {nul})",
            path=where.relative,
            patch_line=line,
            hints=(BINARY_HINT,),
        )
    if binary_only:
        return ""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if policy.non_utf8 == "preserve":
            return data.decode("utf-8", "surrogateescape")
        if not strict:
            raise _NotUTF8 from None
        raise FilePolicyError(
            f"{failure}: invalid utf-8 sequence of {exc.end - exc.start} bytes "
            f"from index {exc.start} (the file is not UTF-8 text)",
            path=where.relative,
            patch_line=line,
            hints=(NON_UTF8_HINT,),
        ) from None


def encode_file(text: TextFile, policy: Policy) -> bytes:
    """A file's text → its bytes, BOM kept, non-UTF-8 bytes restored when the policy preserves them.

    InputError when the text holds a lone surrogate (from an edit built by a caller).
    """
    return encode_text(text.to_text(bom=text.bom), policy)


def encode_text(text: str, policy: Policy) -> bytes:
    """`encode_file` of a text already joined (BOM in front if kept)."""
    errors = "surrogateescape" if policy.non_utf8 == "preserve" else "strict"
    return _encoded(text, errors)


def _encoded(text: str, errors: str, where: Location | None = None, line: int | None = None) -> bytes:
    """`text` as UTF-8 (`errors` as `str.encode`); InputError if it cannot be."""
    try:
        return text.encode("utf-8", errors)
    except UnicodeEncodeError:
        named = "The new text" if where is None else f"The new text of {where.shown}"
        check_text(text, named, line=line)
        raise  # not reached: check_text raised


def _new_folders(changes: tuple[FileChange, ...], tree: Tree) -> tuple[str, ...]:
    """The folders missing above the files to write, parents first."""
    needed: dict[str, None] = {}
    folders: set[str] = set()  # seen to be folders: the files of a folder look at it once
    for change in changes:
        if change.after is None:
            continue
        chain = []
        parent = tree.parent(change.path)
        while parent is not None and parent not in folders and parent not in needed:
            if _kind(tree, parent, change) == "folder":
                folders.add(parent)
                break
            chain.append(parent)
            parent = tree.parent(parent)
        if chain:
            needed.update(dict.fromkeys(reversed(chain)))
    return tuple(sorted(needed, key=lambda p: p.count(os.sep)))


def _kind(tree: Tree, path: str, change: FileChange) -> str | None:
    try:
        return tree.kind(path)
    except OSError as exc:  # the tree changed under the planner (a loop, a lost permission)
        raise PatchIOError(
            f"Failed to write file {change.shown}: cannot inspect {path}: {os_reason(exc)}",
            path=change.relative,
            errno=exc.errno,
        ) from exc
