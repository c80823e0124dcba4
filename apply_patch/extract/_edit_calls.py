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

Each tool's input is read into edits by its format's module (`format/_str_replace.py`);
here, the records are walked and the paths placed in the session's folders.

Absolute paths (POSIX, or Windows: `C:\\...`, `\\\\server\\share\\...`) inside the
session's folder become relative to it (as working folders do); relative ones
are taken from the call's folder.
"""

from __future__ import annotations

import posixpath

from dataclasses import replace
from ..format import CreateFile, Insert, NotebookEdit, str_replace
from ._script import ShellCall
from ._session import is_absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from ..format import Edit
    from ._session import Session

OPENCODE_TOOLS: Final = ("apply_patch", "patch", *str_replace.OPENCODE_EDIT_TOOLS)
OPENCODE_PATCH_TOOLS: Final = ("apply_patch", "patch")
_NOT_THE_MODEL: Final = ("tool_result", "function_call_output", "custom_tool_call_output")


def edit_calls(record: Mapping[str, object], line: int, session: Session) -> list[ShellCall] | None:
    """The edits `record` makes as one call (see the module), or None if it makes none."""
    if record.get("role") == "user" or record.get("type") in _NOT_THE_MODEL:
        return []  # what the user or a tool said (a file shown, pasted blocks): no edit, look no deeper
    name, given = record.get("name"), record.get("input")
    if isinstance(name, str) and isinstance(given, dict):
        if name in str_replace.CLAUDE_CODE_TOOLS:
            return _call(str_replace.claude_code_edits(name, given, line), "claude-code", line, session)
        if name in str_replace.TEXT_EDITOR_TOOLS:
            return _call(str_replace.text_editor_edits(given, line), "text-editor", line, session)
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
    return _call(str_replace.opencode_edits(tool, given, line), "opencode", line, session)


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
