"""Claude's text-editor tool (`text_editor_20250728`, `str_replace_based_edit_tool`), run safely.

    editor = TextEditor("project")
    for block in message.content:
        if block.type == "tool_use" and block.name == TOOL_NAME:
            result = editor.run(block.input)          # {"content": ..., "is_error": ...}
            results.append({"type": "tool_result", "tool_use_id": block.id, **result})

Every command of the tool: `view` (a file with line numbers, `view_range`
(an end past the last line is clamped, with a note), the tool's
`max_characters` budget, read in parts whatever the file's size; a file of a
known language over the budget viewed without a range answers with its
outline, its definitions and their lines, and how to ask for some; or a folder,
two levels deep, saying how many hidden entries it leaves out), `create`
(`file_text`), `str_replace` (`old_str`, `new_str`: exactly one match;
beyond Anthropic's fields, `occurrence` (from 1) or `near_line` picks one of
several, and the answer names the line), `insert` (`insert_line`, `new_str`;
line 0 is the top). A file is read and written in its encoding (given,
declared by the repository, or its byte-order mark's; else UTF-8). Edits go through the
package's plan and commit: confined to `root`, line endings and BOM kept,
every policy applying, all or nothing; a successful edit answers with the
edited lines as they are now, numbered as `view` numbers them,
`SNIPPET_CONTEXT` lines around them and `SNIPPET_LINES` lines at most (as
Anthropic's reference tool shows a snippet). Each error starts with the
sentence Anthropic's documentation gives for it, then says where and what
differs (the closest region of the file; the line of each match).
"""

from __future__ import annotations

import errno
import os

from ._errors import ContextNotFoundError, PatchError, PatchIOError, PolicyValueError, ReplacementCountError
from ._policy import DEFAULT, Policy, policy_of
from .apply import MAX_CHARACTERS, bounded

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any, Final

    from .apply import ApplyResult, DiskTree, LineReader, Location, RepairRequest
    from .edits import Edit
    from .format import StrReplace

TOOL_TYPE: Final = "text_editor_20250728"
TOOL_NAME: Final = "str_replace_based_edit_tool"
COMMANDS: Final = ("view", "create", "str_replace", "insert")
# Every version of the tool: its name, and whether it has `undo_edit` (the Claude 3.x
# versions; Claude 4's have none) and `max_characters` (20250728 only).
TOOL_TYPES: Final = {
    "text_editor_20250728": (TOOL_NAME, False, True),
    "text_editor_20250429": (TOOL_NAME, False, False),
    "text_editor_20250124": ("str_replace_editor", True, False),
    "text_editor_20241022": ("str_replace_editor", True, False),
}
_LISTING_DEPTH: Final = 2
SNIPPET_CONTEXT: Final = 4  # lines shown around an edit, as Anthropic's reference tool shows them
SNIPPET_LINES: Final = 24  # lines an edit's answer shows at most
_NOTE: Final = 100  # room for the note after a view cut at the budget


def tool_definition(max_characters: int | None = None, tool_type: str = TOOL_TYPE) -> dict[str, Any]:
    """The tool entry for the Messages API's `tools` list."""
    name, _, budgeted = TOOL_TYPES[tool_type]
    definition: dict[str, Any] = {"type": tool_type, "name": name}
    if max_characters is not None and budgeted:
        definition["max_characters"] = max_characters
    return definition


class TextEditor:
    """Runs the text-editor tool's commands on the files under `root`.

    `max_characters` is the budget of one answer: `view` shows the lines
    that fit in it and says how many more there are (the tool definition
    carries it); default MAX_CHARACTERS (50,000), None for no budget (a view
    then holds at most what an edit may: `apply.MAX_FILE_BYTES`). `policy`
    and keyword `options` are those of `apply_patch` (e.g.
    `add_existing="overwrite"` lets `create` replace a file). `repair`: as
    for `apply_patch`, called when `str_replace`'s `old_str` is not found
    (docs/agents.md).

    The editor is a session: it remembers the content hash of each file the
    model last viewed or wrote, and refuses an edit to a file changed since by
    anyone else, telling the model to view it again (`stale_check=False`: not
    checked). `tool_type` is the tool's version (`TOOL_TYPES`); those that have
    `undo_edit` (text_editor_20250124 and older) undo the session's last edit
    of a file through its receipt (`apply_patch.undo`): refused if the file
    changed since.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        policy: Policy = DEFAULT,
        max_characters: int | None = MAX_CHARACTERS,
        repair: Callable[[RepairRequest], StrReplace | None] | None = None,
        stale_check: bool = True,
        tool_type: str = TOOL_TYPE,
        **options: str,
    ) -> None:
        from .apply import Seen

        if tool_type not in TOOL_TYPES:
            raise PolicyValueError(f"Unknown tool_type {tool_type!r}: choose one of {', '.join(TOOL_TYPES)}")
        self.root = os.fspath(root)
        self.policy = policy_of(policy, options)
        self.max_characters = max_characters
        self.repair = repair
        self.tool_type = tool_type
        self.commands = COMMANDS + (("undo_edit",) if TOOL_TYPES[tool_type][1] else ())
        self.seen = Seen() if stale_check else None
        self._edits: dict[str, list[str]] = {}  # path as given → receipts of its edits, for undo_edit

    @property
    def definition(self) -> dict[str, Any]:
        """This editor's entry for the Messages API's `tools` list."""
        return tool_definition(self.max_characters, self.tool_type)

    def run(self, tool_input: Mapping[str, Any]) -> dict[str, Any]:
        """The `content` and `is_error` of the `tool_result` answering `tool_input`."""
        if self.seen is not None:
            with self.seen.watching():
                answer = self._answer(tool_input)
        else:
            answer = self._answer(tool_input)
        answer["content"] = bounded(answer["content"], self._budget + _NOTE)
        return answer

    def _answer(self, tool_input: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return {"content": self._run(tool_input), "is_error": False}
        except _ToolError as error:
            return {"content": f"Error: {error}", "is_error": True}
        except MemoryError:  # a view without a budget of a file of huge lines
            return _error("Not enough memory for this answer: view the file in parts with view_range")
        except ReplacementCountError as error:
            if any(tool_input.get(name) is not None for name in ("occurrence", "near_line")):
                return _error("\n".join((str(error), *(f"Hint: {h}" for h in error.hints))))
            head = f"Found {error.found} matches for replacement text. Please provide more context to make a unique match."
            lines = ", ".join(map(str, error.candidates))
            return _error(f"{head}\nold_str matches {error.path} at lines {lines}.")
        except ContextNotFoundError as error:
            head = "No match found for replacement. Please check your text and try again."
            return _error("\n".join((head, *error.details, *(f"Hint: {h}" for h in error.hints))))
        except PatchIOError as error:
            if error.errno == errno.ENOENT:
                return _error(f"File not found: {error.path}\n{error}")
            return _error(str(error))
        except PatchError as error:
            return _error(str(error))

    def tool_result(self, tool_use_id: str, tool_input: Mapping[str, Any]) -> dict[str, Any]:
        """The whole `tool_result` block answering the tool use `tool_use_id`."""
        return {"type": "tool_result", "tool_use_id": tool_use_id, **self.run(tool_input)}

    def _run(self, tool_input: Mapping[str, Any]) -> str:
        from collections.abc import Mapping

        if not isinstance(tool_input, Mapping):
            raise _ToolError("the tool input must be an object")
        command = tool_input.get("command")
        if command not in self.commands:
            raise _ToolError(
                f"Unknown command {command!r}: the commands of {self.tool_type} are {', '.join(self.commands)}"
            )
        path = _string(tool_input, "path")
        if command == "view":
            hashline = tool_input.get("hashline", False)
            if not isinstance(hashline, bool):
                raise _ToolError("hashline must be true or false (true: each line as LINE#ID:TEXT)")
            return self._view(path, tool_input.get("view_range"), hashline=hashline)
        if command == "undo_edit":
            return self._undo_edit(path)
        from .edits import CreateFile, Insert, StrReplace
        from .format import str_replace

        if command == "create":
            text = _string(tool_input, "file_text")
            created = self._apply(path, CreateFile(path, text, label="the create command"))
            return self._edited(f"File created successfully at: {path}", created, path, whole=True)
        if command == "str_replace":
            old = _string(tool_input, "old_str")
            new = tool_input.get("new_str", "")
            if not isinstance(new, str):
                raise _ToolError("new_str must be a string")
            if not old:
                raise _ToolError("old_str is empty: give the exact text to replace (use create for a new file)")
            occurrence, near_line = _optional_line(tool_input, "occurrence"), _optional_line(tool_input, "near_line")
            edit = StrReplace(
                path, old, new, occurrence=occurrence, near_line=near_line, label="old_str", terms=str_replace.TEXT_EDITOR
            )
            result = self._apply(path, edit)
            return self._edited(_replaced(result, occurrence, near_line), result, path)
        line = tool_input.get("insert_line")
        if not isinstance(line, int) or isinstance(line, bool):
            raise _ToolError("insert_line must be an integer (0 inserts at the top)")
        inserted = tool_input.get("new_str", tool_input.get("insert_text"))
        if not isinstance(inserted, str):
            raise _ToolError("new_str must be a string")
        result = self._apply(path, Insert(path, line, inserted, label="the insert command", terms=str_replace.TEXT_EDITOR_INSERT))
        done = f"Successfully inserted text after line {line}." if line else "Successfully inserted text at the top."
        return self._edited(done, result, path)

    def _apply(self, path: str, edit: Edit) -> ApplyResult:
        """`edit` applied (checked against the session's views); its receipt kept for undo_edit."""
        from .edits import apply_edits

        result = apply_edits([edit], self.root, policy=self.policy, repair=self.repair)
        if result.receipt is not None:
            self._edits.setdefault(path, []).append(result.receipt)
        return result

    def _undo_edit(self, path: str) -> str:
        """The session's last edit of `path` undone, if the file still holds what it left."""
        from .apply import undo

        receipts = self._edits.get(path)
        if not receipts:
            raise _ToolError(f"No edit history found for {path}.")
        result = undo(self.root, receipts[-1], policy=self.policy)
        receipts.pop()
        return "\n".join([f"Last edit to {path} undone successfully.", *_snippet(result, path, self._lines, whole=True)])

    def _edited(self, done: str, result: ApplyResult, path: str, *, whole: bool = False) -> str:
        """`done`, then the edited lines as they are now, numbered as `view` numbers them
        (`_snippet`), then the warnings (`run` keeps the whole within the budget)."""
        return "\n".join([done, *_snippet(result, path, self._lines, whole=whole), *_warnings(result)])

    def _lines(self, path: str, data: bytes) -> list[str]:
        """The lines of the file `path` holding `data`, decoded as an edit decodes it."""
        from .apply import DiskTree, file_text, split_text

        tree = DiskTree(self.root, self.policy)
        try:
            return file_text(tree, data, tree.resolve(path))[0].lines
        except PatchError:
            return split_text(data.decode("utf-8", "replace")).lines

    def _view(self, path: str, view_range: object, *, hashline: bool = False) -> str:
        from .apply import DiskTree, FolderChanged, Kind

        tree = DiskTree(self.root, self.policy)
        where = tree.resolve(path)
        try:
            opened = tree.open_file(where.target)
            if opened is Kind.FOLDER:
                if view_range is not None or hashline:
                    what = "view_range" if view_range is not None else "hashline"
                    raise _ToolError(f"{what} applies to files only, not to folders")
                return self._listing(tree, where.target, path)
        except OSError as error:
            raise _ToolError(f"Cannot read {path}: {error.strerror}") from None
        except FolderChanged as error:  # a symlink swapped in: never followed
            raise _ToolError(
                f"{path} changed on disk while it was being read: the {error.what} "
                f"{tree.name(error.folder)} {error.why}"
            ) from None
        if opened is None:
            raise _ToolError(f"File not found: {path}")
        if not isinstance(opened, tuple):
            raise _ToolError(f"{path} is a special file, not a text file")
        fd, info = opened
        if path.endswith("/"):  # as the system says of `a.txt/`
            os.close(fd)
            raise _ToolError(f"{path} names a folder, and {path.rstrip('/')} is a file")
        try:
            if self.seen is not None:  # what the model saw of the file: all of it, as a hash
                self.seen.viewed(where.target, fd)
            if hashline:
                return self._hashline_rows(tree, where, fd, info, view_range)
            return self._excerpt(fd, info, path, view_range, self._decoded(tree, where, fd, info))
        finally:
            os.close(fd)

    def _hashline_rows(
        self, tree: DiskTree, where: Location, fd: int, info: os.stat_result, view_range: object
    ) -> str:
        """The lines `view_range` asks for as Hashline rows (`LINE#ID:TEXT`, the anchors a
        Hashline edit names), within the budget: the file read whole (at most an edit's
        size) and decoded as an edit decodes it, so that every ID is the one the edit checks."""
        from .apply import file_text, hidden, not_shown
        from .format import hashline

        if hidden(info):
            raise _ToolError(not_shown(where.shown, info.st_nlink))
        data = _read_whole(fd, where)
        try:
            lines = file_text(tree, data, where)[0].lines
        except PatchError as error:
            raise _ToolError(f"{where.shown} cannot be shown as text: {error}") from None
        if not lines:
            return "(the file is empty)"
        first, last = _asked(view_range)
        end = len(lines) if last is None else min(last, len(lines))
        if first < 1 or first > len(lines) or end < first:
            raise _ToolError(
                f"Invalid view_range {[first, -1 if last is None else last]}: the file has {len(lines)} lines"
            )
        rows: list[str] = []
        size = 0
        for row in hashline.view_rows(lines[first - 1 : end], first):
            size += len(row) + 1
            if size > self._budget and rows:
                break
            rows.append(row)
        shown_end = first + len(rows) - 1
        if shown_end < end:
            rows.append(
                f"[Truncated at {self._budget} characters: view_range [{shown_end + 1}, {end}] shows the rest.]"
            )
        return "\n".join(rows)

    def _decoded(self, tree: DiskTree, where: Location, fd: int, info: os.stat_result) -> list[str] | None:
        """The lines of the open file when it is not read as UTF-8 (its encoding given,
        declared, or a UTF-16 or UTF-32 byte-order mark's): read whole (at most
        `MAX_FILE_BYTES`) and decoded as an edit decodes it; None for a UTF-8 file (read in
        parts) or one that may not be shown."""
        from .apply import MAX_FILE_BYTES, file_encoding, file_text, hidden

        if hidden(info):
            return None
        try:
            if not file_encoding(tree, os.pread(fd, 4, 0), where):
                return None
            if info.st_size > MAX_FILE_BYTES:
                raise _ToolError(f"Cannot read {where.shown}: it is larger than an edit may hold")
            return file_text(tree, _read_whole(fd, where), where)[0].lines
        except PatchError as error:
            raise _ToolError(f"{where.shown} cannot be shown as text: {error}") from None

    def _excerpt(
        self, fd: int, info: os.stat_result, path: str, view_range: object, decoded: list[str] | None = None
    ) -> str:
        """The lines of the open file `view_range` asks for, numbered, within the budget.

        Read in parts (`apply._lines`): whatever the file's size, only the lines
        up to the last one asked for are read, and only those shown are kept;
        or taken from `decoded`, the lines of a file in another encoding.
        """
        from .apply import LineReader, NotText, hidden, not_shown

        if hidden(info):
            raise _ToolError(not_shown(path, info.st_nlink))
        first, last = _asked(view_range)
        if decoded is not None:
            shown, left = _listed(decoded, first, last, self._budget)
            size = len(decoded)
        else:
            reader = LineReader(
                fd,
                cap=4 * self._budget + 4,  # bytes enough for `budget` characters of any line
                binary=self.policy.binary == "allow",
                utf8="replace" if self.policy.non_utf8 == "preserve" else "strict",
            )
            try:
                shown, left = _read(reader, first, last, self._budget)
            except NotText as error:
                ask = f"\n{_ASK}" if "UTF-8" in str(error) else ""
                raise _ToolError(f"{path} cannot be shown as text: {error}{ask}") from None
            size = reader.number  # the file's lines, when the range goes past them
        if size == 0:
            return "(the file is empty)"
        if first < 1 or first > size or (last is not None and last < first):
            raise _ToolError(
                f"Invalid view_range {[first, -1 if last is None else last]}: the file has {size} "
                "lines (1 <= start <= number of lines, start <= end; end -1 or past the last line: to the end)"
            )
        if last is not None and last > size:  # clamped, as OpenHands does
            shown.insert(0, f"Note: the file has {size} lines; lines {first}-{size} are shown.")
        text = "\n".join(shown)
        if not left:
            return text
        if view_range is None:
            outlined = _outline(fd, info, path, self._budget)
            if outlined is not None:
                return outlined
        return (
            f"{text}\n[Truncated at {self._budget} characters: {left} more line"
            f"{'' if left == 1 else 's'}; view them with view_range.]"
        )

    def _listing(self, tree: DiskTree, folder: str, shown: str) -> str:
        """The files and folders under `folder`, 2 levels deep, hidden ones left out and counted."""
        # The head takes at most its folder's name and 90 characters of the budget.
        entries, complete, hidden = tree.listing(folder, _LISTING_DEPTH, self._budget - len(shown) - 90)
        if hidden == 0:
            left_out = "none hidden"
        elif hidden == 1:
            left_out = "1 hidden one left out (view it by its path)"
        else:
            left_out = f"{hidden} hidden ones left out (view one by its path)"
        head = f"Files and folders in {shown}, {_LISTING_DEPTH} levels deep, {left_out}:"
        if not complete:
            entries.append(
                f"[Truncated at {self._budget} characters: view a folder inside it to see the rest.]"
            )
        return "\n".join([head, *entries]) if entries else f"{head}\n(empty)"

    @property
    def _budget(self) -> int:
        """The characters an answer may hold (`max_characters`; without one, what a file may)."""
        from .apply import MAX_FILE_BYTES

        return MAX_FILE_BYTES if self.max_characters is None else self.max_characters


class _ToolError(Exception):
    """A tool input that does not make sense (no file touched)."""


# What a view of a file that is not UTF-8 asks for (its encoding unknown).
_ASK: Final = (
    "If it is text in another encoding, give it: TextEditor(..., encoding=\"NAME\") (apply_patch serve "
    "--encoding NAME), or declare it in the repository (.gitattributes working-tree-encoding, "
    ".editorconfig charset)."
)


def _error(text: str) -> dict[str, Any]:
    return {"content": f"Error: {text}", "is_error": True}


def _string(tool_input: Mapping[str, Any], name: str) -> str:
    value = tool_input.get(name)
    if not isinstance(value, str):
        raise _ToolError(f"{name} is missing (a string is required)")
    return value


def _optional_line(tool_input: Mapping[str, Any], name: str) -> int | None:
    """The integer `name` of `tool_input` (str_replace's choice among several matches), or None."""
    value = tool_input.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        what = "1: the first match" if name == "occurrence" else "the line the match starts nearest"
        raise _ToolError(f"{name} must be an integer ({what})")
    return value


def _replaced(result: ApplyResult, occurrence: int | None, near_line: int | None) -> str:
    """What a str_replace did: the one location, or the match chosen and the line it is at."""
    if occurrence is None and near_line is None:
        return "Successfully replaced text at exactly one location."
    line = result.operations[0].placements[0].file_line
    if occurrence is not None:
        return f"Successfully replaced occurrence {occurrence} of old_str, at line {line}."
    return f"Successfully replaced the match of old_str nearest line {near_line}, at line {line}."


def _warnings(result: Any) -> list[str]:
    return [f"Warning: {w.message}" for w in result.warnings]


def _snippet(result: ApplyResult, path: str, decode: Callable[[str, bytes], list[str]], *, whole: bool) -> list[str]:
    """The lines of the edited region of the one file `result` changed, as they are now, with
    `SNIPPET_CONTEXT` lines around it (`whole`: from the top), numbered as `view` numbers
    them, at most `SNIPPET_LINES` of them (then a line says which are left)."""
    operation = result.operations[0]
    change = next((c for c in result.changes if c.path == operation.target and c.after is not None), None)
    if change is None or change.after is None:
        return []
    lines = decode(path, change.after.data)
    if not lines:
        return ["(the file is empty)"]
    if whole or change.before is None:
        start, end = 1, len(lines)
    else:
        before = decode(path, change.before.data)
        first, last = _changed(before, lines)
        start, end = max(1, first - SNIPPET_CONTEXT), min(len(lines), max(first, last) + SNIPPET_CONTEXT)
    shown_end = min(end, start + SNIPPET_LINES - 1)
    head = f"Line {start} of {path} now:" if start == shown_end else f"Lines {start}-{shown_end} of {path} now:"
    shown = [head, *(f"{n}: {lines[n - 1]}" for n in range(start, shown_end + 1))]
    if shown_end < end:
        left = end - shown_end
        shown.append(f"({left} more line{'' if left == 1 else 's'}: view_range [{shown_end + 1}, {end}] shows them.)")
    return shown


def _changed(before: list[str], after: list[str]) -> tuple[int, int]:
    """The 1-based first and last lines of `after` that differ from `before` (one edited
    region: the lines the two share at the top and at the bottom are left out); for a
    deletion, last is first - 1 (the line after the deleted ones is first)."""
    from .apply import common_ends

    top, bottom = common_ends(before, after)
    return top + 1, len(after) - bottom


def _outline(fd: int, info: os.stat_result, path: str, budget: int) -> str | None:
    """What `view` without a range answers for a file over the budget whose language has a
    grammar: its outline (`apply._outline`) and how to ask for lines; None for any other,
    and when not even the outline's first definition fits in the budget."""
    from .apply import OUTLINE_BYTES, outline

    if info.st_size > OUTLINE_BYTES:
        return None
    parts, offset = [], 0
    while offset <= OUTLINE_BYTES:  # the file may grow while read: never past the limit
        part = os.pread(fd, OUTLINE_BYTES + 1 - offset, offset)
        if not part:
            break
        parts.append(part)
        offset += len(part)
    data = b"".join(parts)
    entries = outline(path, data) if len(data) <= OUTLINE_BYTES else None
    if entries is None:
        return None
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    example = entries[0].strip().split(":", 1)[0].split("-")
    asked = f"[{example[0]}, {example[-1]}]"
    head = (
        f"{path} has {lines} lines, more than one answer holds ({budget} characters): here is its "
        f"outline, each definition with its lines. View the lines you need with view_range, "
        f"e.g. {asked}."
    )
    if len(head) + 1 + len(entries[0]) > budget:
        return None  # not even one definition fits: the first lines say more
    return "\n".join((head, *entries))


def _asked(view_range: object) -> tuple[int, int | None]:
    """The first and last lines `view_range` asks for ([start, end]; end -1 or no range: None, the last);
    _ToolError, in one line, for anything but two integers a file can have as line numbers."""
    if view_range is None:
        return 1, None
    if (
        not isinstance(view_range, (list, tuple))
        or len(view_range) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in view_range)
    ):
        raise _ToolError("view_range must be two line numbers: [start, end] (end -1: to the end)")
    start, end = view_range
    if not all(-_MOST_LINES <= n <= _MOST_LINES for n in (start, end)):
        raise _ToolError(
            f"view_range must be two line numbers: [start, end] (end -1: to the end); "
            f"a file has at most {_MOST_LINES} lines"
        )
    return start, None if end == -1 else end


# No file has more lines than bytes, nor more bytes than a signed 64-bit offset counts: a
# number past it is not a line a file can have, but a wrong input (a clamp would hide it).
_MOST_LINES = 2**63 - 1


def _read(reader: LineReader, first: int, last: int | None, budget: int) -> tuple[list[str], int]:
    """The numbered lines `first` to `last` that fit in `budget`, and how many more there are.

    A range that cannot be (it starts before line 1, ends before it starts, or
    goes past the file) leaves `reader.number` at the file's number of lines.
    """
    if first < 1 or (last is not None and last < first):
        reader.skip(None)
        return [], 0
    shown, left = _fitting(reader.lines(first, last), budget)
    if left:  # counted, not read: the lines after the last one shown
        left += reader.skip(None if last is None else last - reader.number)
    if not shown and reader.number < first:
        reader.skip(None)
    return shown, left


def _listed(lines: list[str], first: int, last: int | None, budget: int) -> tuple[list[str], int]:
    """`_read` for lines already decoded: the numbered lines `first` to `last` that fit in
    `budget`, and how many more of them there are."""
    if first < 1 or (last is not None and last < first):
        return [], 0
    end = len(lines) if last is None else min(last, len(lines))
    shown, left = _fitting(((n, lines[n - 1], True) for n in range(first, end + 1)), budget)
    return shown, (end - first + 1 - len(shown)) if left else 0


def _fitting(lines: Iterator[tuple[int, str, bool]], budget: int) -> tuple[list[str], int]:
    """The numbered lines that fit in `budget` characters, and 1 if one more did not (0: all fit).

    When not even the first line fits, its beginning is shown (cut at `budget`).
    """
    shown: list[str] = []
    size = 0
    for number, text, _ in lines:
        line = f"{number}: {text}"
        size += len(line) + (1 if shown else 0)
        if size > budget:
            if not shown:
                shown.append(line[:budget])
            return shown, 1
        shown.append(line)
    return shown, 0


def _read_whole(fd: int, where: Location) -> bytes:
    """The bytes of the open file `fd`, read to its end whatever its size said, but never
    more than an edit may hold (a file growing while it is read included)."""
    from .apply import MAX_FILE_BYTES

    chunks, at = [], 0
    while chunk := os.pread(fd, 1 << 20, at):
        chunks.append(chunk)
        at += len(chunk)
        if at > MAX_FILE_BYTES:
            raise _ToolError(f"Cannot read {where.shown}: it is larger than an edit may hold")
    return b"".join(chunks)
