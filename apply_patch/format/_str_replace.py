"""The str_replace family, the whole format in one module: Anthropic's text editor
(`str_replace_based_edit_tool`, `str_replace_editor`), Claude Code's `Edit`, `MultiEdit`,
`Write` and `NotebookEdit`, OpenCode's `edit`, `multiedit` and `write` (pure).

Each tool's input (a JSON object as its log records it) → the edits of the one model
(`StrReplace`, `Insert`, `CreateFile`, `NotebookEdit`), each with its line, its label and
its `Terms`, the tool's own words for its parts (`new_str`/`old_str`,
`new_string`/`old_string`, `newString`/`oldString`) given as data to the refusals and the
diagnosis. An input that is not one of a tool's edits gives no edit (`[]`): a log is read,
not judged; a replay checks the edits (`edits.checked`).

Detection in logs is by the tool's name (`CLAUDE_CODE_TOOLS`, `TEXT_EDITOR_TOOLS`,
`OPENCODE_EDIT_TOOLS`); `extract/_edit_calls` walks the records and names the session's
folders.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._edits import CreateFile, Insert, NotebookEdit, StrReplace, Terms
from ._format import Format

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from ._edits import Edit

# No text of its own (a tool's input is JSON, read where it is found): no --format choice.
FORMAT: Final = Format("str-replace", "str_replace edits", "str_replace edits", calls=True, choice=False)
CLAUDE_CODE_TOOLS: Final = ("Edit", "MultiEdit", "Write", "NotebookEdit")
TEXT_EDITOR_TOOLS: Final = ("str_replace_based_edit_tool", "str_replace_editor")
OPENCODE_EDIT_TOOLS: Final = ("edit", "multiedit", "write")

# The text editor's words (`TextEditor`: its `str_replace` and `insert` commands).
TEXT_EDITOR: Final = Terms(new="new_str", old="old_str", noun="old_str")
TEXT_EDITOR_INSERT: Final = Terms(new="new_str")


def text_editor_terms(where: str) -> Terms:
    """The text editor's words for the `str_replace` named `where` ("" for the call itself)."""
    return Terms(new=f"new_str{where}", old="old_str", noun="old_str")


@dataclass(frozen=True, slots=True)
class _Tools:
    """How one agent's edit tools name themselves and their inputs: Claude Code and OpenCode
    differ only in these words (data, one reader: `_tool_edits`)."""

    edit: str  # the tool that replaces one old text
    multi: str  # the one that replaces several
    write: str  # the one that writes a whole file
    path: str
    old: str
    new: str
    replace_all: str
    noun: str  # what the diagnosis calls the old text

    def terms(self, where: str) -> Terms:
        """The words for the edit named `where` (" of edit 2 of the MultiEdit at line 5")."""
        return Terms(new=f"{self.new}{where}", old=self.old, noun=self.noun)


_CLAUDE_CODE: Final = _Tools(
    "Edit", "MultiEdit", "Write", "file_path", "old_string", "new_string", "replace_all", noun="old_string"
)
_OPENCODE: Final = _Tools("edit", "multiedit", "write", "filePath", "oldString", "newString", "replaceAll", noun="edit")


def claude_code_edits(name: str, given: Mapping[str, object], line: int) -> list[Edit]:
    """The edits of a Claude Code tool use `name` (one of `CLAUDE_CODE_TOOLS`) with input
    `given`, recorded at log `line`."""
    if name == "NotebookEdit":
        return _notebook_edit(given, line)
    return _tool_edits(_CLAUDE_CODE, name, given, line)


def opencode_edits(tool: str, given: Mapping[str, object], line: int) -> list[Edit]:
    """The edits of an OpenCode tool part `tool` (one of `OPENCODE_EDIT_TOOLS`) with input
    `given`, recorded at log `line`."""
    return _tool_edits(_OPENCODE, tool, given, line)


def _tool_edits(tools: _Tools, name: str, given: Mapping[str, object], line: int) -> list[Edit]:
    """The edits of the tool `name` of `tools` with input `given`, recorded at log `line`:
    none when an input is missing or of another type."""
    path = given.get(tools.path)
    if not isinstance(path, str):
        return []
    if name == tools.write:
        content = given.get("content")
        if not isinstance(content, str):
            return []
        return [CreateFile(path, content, overwrite=True, line=line, label=f"the {tools.write} at line {line}")]
    specs = given.get("edits") if name == tools.multi else [given]
    edits: list[Edit] = []
    for number, spec in enumerate(specs if isinstance(specs, list) else [], 1):
        old, new = (spec.get(k) if isinstance(spec, dict) else None for k in (tools.old, tools.new))
        if not isinstance(old, str) or not isinstance(new, str):
            return []
        which = f"edit {number} of the {tools.multi}" if name == tools.multi else f"the {tools.edit}"
        where = f" of {which} at line {line}"
        replace_all = bool(spec.get(tools.replace_all, False))
        label = f"{tools.old}{where}"
        edits.append(StrReplace(path, old, new, replace_all, line=line, label=label, terms=tools.terms(where)))
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


def text_editor_edits(given: Mapping[str, object], line: int) -> list[Edit]:
    """The edits of a text-editor tool use with input `given` (`create`, `str_replace`,
    `insert`; `view` and the rest edit nothing), recorded at log `line`."""
    command, path = given.get("command"), given.get("path")
    if not isinstance(path, str):
        return []
    if command == "create" and isinstance(text := given.get("file_text"), str):
        return [CreateFile(path, text, line=line, label=f"the create command at line {line}")]
    if command == "str_replace" and isinstance(old := given.get("old_str"), str):
        new = given.get("new_str", "")
        if isinstance(new, str) and old:
            where = f" of the str_replace at line {line}"
            return [StrReplace(path, old, new, line=line, label=f"old_str{where}", terms=text_editor_terms(where))]
    if command == "insert" and isinstance(after := given.get("insert_line"), int):
        text = given.get("new_str", given.get("insert_text"))
        if isinstance(text, str):
            return [Insert(path, after, text, line=line, label=f"the insert at line {line}")]
    return []
