"""The edits of other tools in agent logs: Claude Code, the Anthropic text editor, SEARCH/REPLACE.

Recognised, in a JSON record (any object of it, as `_records` walks them):

- a Claude Code tool use: `Edit` (`file_path`, `old_string`, `new_string`,
  `replace_all`), `MultiEdit` (`file_path`, `edits`: a list of those), `Write`
  (`file_path`, `content`: the whole file, created or replaced), `NotebookEdit`
  (`notebook_path`, `new_source`, `cell_id`, `cell_type`, `edit_mode`);
- an Anthropic text-editor tool use (`str_replace_based_edit_tool`, or the
  older `str_replace_editor`): `create`, `str_replace`, `insert` (`view` edits
  nothing);
- an OpenCode tool part (`opencode export`: `{"type": "tool", "tool": ...,
  "state": {"status", "input"}}`): `edit`, `multiedit`, `write`, and its
  `apply_patch` (`patchText`, a Codex patch), when it completed;
- a text block (`{"type": "text", "text": ...}`) or a message whose `content`
  is a string, holding SEARCH/REPLACE blocks (Aider, Reasonix).

What a user or a tool said (a message whose role is `user`, a tool result) is
not looked into: a file shown by a tool may hold SEARCH/REPLACE blocks.

Absolute paths (POSIX, or Windows: `C:\\...`, `\\\\server\\share\\...`) inside the
session's folder become relative to it (as working folders do); relative ones
are taken from the call's folder.
"""

from __future__ import annotations

import posixpath

from .._dataclass import replace
from ..format import CreateFile, Insert, NotebookEdit, StrReplace
from ._script import ShellCall
from ._session import is_absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from ..format import Edit
    from ._session import Session

CLAUDE_CODE_TOOLS: Final = ("Edit", "MultiEdit", "Write", "NotebookEdit")
OPENCODE_TOOLS: Final = ("apply_patch", "patch", "edit", "multiedit", "write")
OPENCODE_PATCH_TOOLS: Final = ("apply_patch", "patch")
TEXT_EDITOR_TOOLS: Final = ("str_replace_based_edit_tool", "str_replace_editor")
_NOT_THE_MODEL: Final = ("tool_result", "function_call_output", "custom_tool_call_output")


def edit_calls(record: Mapping[str, object], line: int, session: Session) -> list[ShellCall] | None:
    """The edits `record` makes as one call (see the module), or None if it makes none."""
    if record.get("role") == "user" or record.get("type") in _NOT_THE_MODEL:
        return []  # what the user or a tool said (a file shown, pasted blocks): no edit, look no deeper
    name, given = record.get("name"), record.get("input")
    if isinstance(name, str) and isinstance(given, dict):
        if name in CLAUDE_CODE_TOOLS:
            return _call(_claude_code(name, given, line), "claude-code", line, session)
        if name in TEXT_EDITOR_TOOLS:
            return _call(_text_editor(given, line), "text-editor", line, session)
    return None


def reply_calls(record: Mapping[str, object], line: int, session: Session) -> list[ShellCall]:
    """The SEARCH/REPLACE blocks of the model's text in `record` (a text block, or a
    message whose `content` is a string), as one call; the record's other values (a
    message's `tool_calls`) are still looked into by the caller."""
    text = record.get("text") if record.get("type") == "text" else record.get("content")
    if isinstance(text, str) and "SEARCH" in text and _has_search_line(text):
        return _call(_search_replace(text, line), "search-replace", line, session)
    return []


def _has_search_line(text: str) -> bool:
    """Whether a line of `text` is a SEARCH marker (Aider's or Cline's: `format.SEARCH`)."""
    from ..format import SEARCH

    return any(SEARCH.fullmatch(line) for line in text.replace("\r\n", "\n").split("\n"))


def _call(edits: list[Edit], kind: str, line: int, session: Session) -> list[ShellCall]:
    """One call of `edits`, from the session's folder: each path made relative to it.

    An absolute path (POSIX or Windows: `_session`) inside the session's folder
    becomes relative to it; one outside stays absolute (and is refused when
    replayed); a relative one is taken from the current folder, with `/` for a
    Windows session's `\\`.
    """
    if not edits:
        return []
    folder = session.folder(None)
    placed = tuple(
        replace(e, path=session.relative(e.path))
        if is_absolute(e.path)
        else replace(e, path=posixpath.normpath(posixpath.join(folder, session.written(e.path))))
        for e in edits
    )
    return [ShellCall(kind, ".", line, edits=placed)]


def opencode_calls(tool: str, state: Mapping[str, object], line: int, session: Session) -> list[ShellCall]:
    """The call of an OpenCode tool part (`opencode export`): `apply_patch` (its
    `patchText`), `edit` (`filePath`, `oldString`, `newString`, `replaceAll`),
    `multiedit` (`filePath`, `edits`) or `write` (`filePath`, `content`).

    A part whose `status` is `completed` ran (its calls' outcome: `applied`); one whose
    status is `error` failed and changed nothing (`failed`: listed, never replayed);
    one that never ran (`pending`, `running`) gives nothing.
    """
    given = state.get("input")
    status = state.get("status")
    if status not in ("completed", "error") or not isinstance(given, dict):
        return []
    outcome = "applied" if status == "completed" else "failed"
    return [replace(call, outcome=outcome) for call in _opencode_calls(tool, given, line, session)]


def _opencode_calls(tool: str, given: Mapping[str, object], line: int, session: Session) -> list[ShellCall]:
    if tool in OPENCODE_PATCH_TOOLS:
        patch = given.get("patchText")
        return [ShellCall(patch, session.folder(None), line)] if isinstance(patch, str) else []
    path = given.get("filePath")
    if not isinstance(path, str):
        return []
    if tool == "write":
        content = given.get("content")
        if not isinstance(content, str):
            return []
        return _call([CreateFile(path, content, overwrite=True, line=line, label=f"the write at line {line}")], "opencode", line, session)
    specs = given.get("edits") if tool == "multiedit" else [given]
    edits: list[Edit] = []
    for number, spec in enumerate(specs if isinstance(specs, list) else [], 1):
        old, new = (spec.get(k) if isinstance(spec, dict) else None for k in ("oldString", "newString"))
        if not isinstance(old, str) or not isinstance(new, str):
            return []
        which = f"edit {number} of the multiedit" if tool == "multiedit" else "the edit"
        replace_all = bool(spec.get("replaceAll", False))
        edits.append(StrReplace(path, old, new, replace_all, line=line, label=f"oldString of {which} at line {line}"))
    return _call(edits, "opencode", line, session)


def _claude_code(name: str, given: Mapping[str, object], line: int) -> list[Edit]:
    if name == "NotebookEdit":
        return _notebook_edit(given, line)
    path = given.get("file_path")
    if not isinstance(path, str):
        return []
    if name == "Write":
        content = given.get("content")
        if not isinstance(content, str):
            return []
        return [CreateFile(path, content, overwrite=True, line=line, label=f"the Write at line {line}")]
    specs = given.get("edits") if name == "MultiEdit" else [given]
    edits: list[Edit] = []
    for number, spec in enumerate(specs if isinstance(specs, list) else [], 1):
        old, new = (spec.get(k) if isinstance(spec, dict) else None for k in ("old_string", "new_string"))
        if not isinstance(old, str) or not isinstance(new, str):
            return []
        which = f"edit {number} of the MultiEdit" if name == "MultiEdit" else "the Edit"
        label = f"old_string of {which} at line {line}"
        replace_all = bool(spec.get("replace_all", False))
        edits.append(StrReplace(path, old, new, replace_all, line=line, label=label))
    return edits


def _notebook_edit(given: Mapping[str, object], line: int) -> list[Edit]:
    """Claude Code's NotebookEdit: its fields as they are (the replay checks them)."""
    path, source = given.get("notebook_path"), given.get("new_source", "")
    cell, kind, mode = given.get("cell_id"), given.get("cell_type"), given.get("edit_mode", "replace")
    if not (isinstance(path, str) and isinstance(source, str) and isinstance(mode, str)):
        return []
    if not (cell is None or isinstance(cell, (str, int))) or not (kind is None or isinstance(kind, str)):
        return []
    label = f"the NotebookEdit at line {line}"
    return [NotebookEdit(path, source, cell, kind, mode, line=line, label=label)]


def _text_editor(given: Mapping[str, object], line: int) -> list[Edit]:
    command, path = given.get("command"), given.get("path")
    if not isinstance(path, str):
        return []
    if command == "create" and isinstance(text := given.get("file_text"), str):
        return [CreateFile(path, text, line=line, label=f"the create command at line {line}")]
    if command == "str_replace" and isinstance(old := given.get("old_str"), str):
        new = given.get("new_str", "")
        if isinstance(new, str) and old:
            return [StrReplace(path, old, new, line=line, label=f"old_str of the str_replace at line {line}")]
    if command == "insert" and isinstance(after := given.get("insert_line"), int):
        text = given.get("new_str", given.get("insert_text"))
        if isinstance(text, str):
            return [Insert(path, after, text, line=line, label=f"the insert at line {line}")]
    return []


def _search_replace(text: str, line: int) -> list[Edit]:
    from .._errors import SearchReplaceError
    from ..format import parse_search_replace

    try:
        return list(parse_search_replace(text))
    except SearchReplaceError:
        return []  # markers in prose (a reply explaining the format), not an edit


def edits_text(edits: tuple[Edit, ...]) -> str:
    """`edits` written for a reader, as SEARCH/REPLACE blocks (notes on `#` lines)."""
    parts: list[str] = []
    for edit in edits:
        if isinstance(edit, Insert):
            parts.append(f"# insert after line {edit.after_line} of {edit.path}:\n{_lines(edit.text)}")
            continue
        if isinstance(edit, NotebookEdit):
            cell = "" if edit.cell_id is None else f" {edit.cell_id}"
            kind = f" ({edit.cell_type})" if edit.cell_type else ""
            parts.append(f"# notebook {edit.path}: {edit.mode} cell{cell}{kind}:\n{_lines(edit.new_source)}")
            continue
        if isinstance(edit, CreateFile):
            note = "# the whole file (created or replaced)\n" if edit.overwrite else ""
            old, new = "", edit.text
        else:
            count = "every place" if edit.replace_all else None
            count = f"exactly {edit.expected} places" if edit.expected is not None else count
            count = f"occurrence {edit.occurrence}" if edit.occurrence is not None else count
            count = f"the match nearest line {edit.near_line}" if edit.near_line is not None else count
            note = f"# {count}\n" if count else ""
            old, new = edit.old, edit.new
        parts.append(
            f"{note}{edit.path}\n<<<<<<< SEARCH\n{_lines(old)}=======\n{_lines(new)}>>>>>>> REPLACE\n"
        )
    return "".join(parts)


def _lines(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
