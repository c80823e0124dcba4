"""JSON values → apply_patch calls: argv arrays, and the tool calls of agent logs.

A JSON array of strings is an argv (`["bash", "-lc", S]`, `["apply_patch", P]`).
Anything else is walked as a log record, every object and array in it,
until an object is one of these tool calls:

- a tool named `apply_patch`/`applypatch` given the patch: `input` is the patch
  (`custom_tool_call`), or `arguments` (JSON text or object) holds it in
  `input` or `patch`;
- a function call whose `arguments` (JSON text or object) hold `command`
  (argv array or shell string) or `cmd`, and maybe `workdir` (or `cwd`);
- a `local_shell_call`: `action.command` and `action.working_directory`;
- a tool use whose `input` holds `command` (a shell string or argv), and maybe
  `workdir` (or `cwd`);
- an OpenCode tool part (`{"type": "tool", "tool": "apply_patch", "state":
  {"status": "completed", "input": {"patchText": ...}}}`, and its `edit`,
  `multiedit`, `write`: `_edit_calls`), when it completed or failed;
- Codex's code-mode `exec` tool: each `tools.apply_patch("...")` in its
  JavaScript body, or the body itself when it is a patch (`_code_mode`);
- an `apply_patch_call` of the Responses API's native tool (a Responses
  transcript, an agent SDK's run item, a rollout that records them): its
  `operation` (or `operations`) as the equivalent `*** Begin Patch` text, in the
  session's current folder.

What the log records of each call's result (`call_outcomes`: applied, failed)
is reported by `extract_patches` as the call's `logged_outcome`.

Working folders are reported relative to the session's folder when they are
inside it: the first `cwd` of a record (top-level, or in the `payload` of a
`session_meta` or `turn_context` record, or the `info.directory` of an
`opencode export`), a POSIX or a Windows path (`_session`). A call without a
folder runs in the latest such `cwd`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from .._dataclass import replace

from ..format import is_apply_patch
from ._code_mode import body_of, exec_patches, is_exec_tool
from ._edit_calls import OPENCODE_TOOLS, edit_calls, opencode_calls, reply_calls
from ._session import Session
from ._script import ShellCall, ShellState, argv_calls, script_calls

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final, TypeGuard

_PATCH_KEYS: Final = ("input", "patch")
_COMMAND_KEYS: Final = ("command", "cmd")
_FOLDER_KEYS: Final = ("workdir", "cwd", "working_directory")
_SESSION_RECORDS: Final = ("session_meta", "turn_context")
_NATIVE_CALL: Final = "apply_patch_call"
_NATIVE_OUTPUTS: Final = ("custom_tool_call_output", "function_call_output")


def is_argv(value: object) -> TypeGuard[list[str]]:
    """Whether `value` is an argv: a non-empty JSON array of strings."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def json_calls(value: object, line: int, session: Session) -> tuple[list[ShellCall], Session]:
    """The calls in one JSON value found at `line`, and the session after it."""
    calls: list[ShellCall] = []
    if is_argv(value):
        calls = argv_calls(value, ShellState(session.folder(None)), line)
    else:
        session = _session_after(value, session)
        _walk(value, line, session, calls)
    # A script's own `cd /abs/path` is made relative to the session too; and the
    # lines of a script inside a JSON string are not lines of the text. A patch's
    # absolute paths inside the session's folder are read against it (`base`).
    return [replace(c, workdir=session.relative(c.workdir), line=line, base=session.base) for c in calls], session


def _session_after(record: object, session: Session) -> Session:
    if not isinstance(record, Mapping):
        return session
    cwd = _text(record, ("cwd",))
    if cwd is None and record.get("type") in _SESSION_RECORDS:
        cwd = _text(record.get("payload"), ("cwd",))
    if cwd is None and isinstance(record.get("messages"), list):  # `opencode export`: its session's folder
        cwd = _text(record.get("info"), ("directory",))
    return session if cwd is None else session.seen(cwd)


def _walk(value: object, line: int, session: Session, calls: list[ShellCall]) -> None:
    if isinstance(value, list):
        for item in value:
            _walk(item, line, session, calls)
    elif isinstance(value, Mapping):
        found = _tool_call(value, line, session)
        if found is not None:
            call_id = _call_id(value)
            calls.extend(c if call_id is None else replace(c, call_id=call_id) for c in found)
            return
        calls.extend(reply_calls(value, line, session))  # SEARCH/REPLACE blocks in its text
        for item in value.values():
            _walk(item, line, session, calls)


def _call_id(record: Mapping[str, object]) -> str | None:
    """The id a later record answers a tool call by: Codex's `call_id`, a tool use's `id`."""
    if isinstance(call_id := record.get("call_id"), str):
        return call_id
    tool_use_id = record.get("id")
    return tool_use_id if record.get("type") == "tool_use" and isinstance(tool_use_id, str) else None


_TEXT_PARTS: Final = ("text", "output_text")


def assistant_texts(value: object) -> list[str]:
    """The texts of the assistant's messages in the JSON value `value`, in order: a message
    whose `role` is `assistant` (a chat completion's, a Responses `message` item, Claude
    Code's `message`), its `content` text or its `text`/`output_text` parts. Never a
    system, developer, user or tool text (Codex's own instructions hold an example patch)."""
    texts: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, Mapping):
            if item.get("role") == "assistant":
                content = item.get("content")
                if isinstance(content, str):
                    texts.append(content)
                elif isinstance(content, list):
                    texts += [
                        part["text"] for part in content
                        if isinstance(part, Mapping) and part.get("type") in _TEXT_PARTS and isinstance(part.get("text"), str)
                    ]  # fmt: skip
            else:
                stack.extend(reversed(list(item.values())))
    return texts


def call_outcomes(value: object) -> dict[str, str]:
    """What the JSON value `value` records of the tool calls it answers: each call's id →
    `applied` or `failed`.

    Failed: a Claude Code or Anthropic `tool_result` with `is_error: true`, a Codex
    `custom_tool_call_output` or `function_call_output` whose output's
    `metadata.exit_code` is not 0 (such a call changed nothing). Applied: the same
    results without the error, a Codex output whose exit code is 0. A Codex output
    without an exit code says neither.
    """
    outcomes: dict[str, str] = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, Mapping):
            kind = item.get("type")
            if kind == "tool_result" and isinstance(item.get("tool_use_id"), str):
                outcomes[str(item["tool_use_id"])] = "failed" if item.get("is_error") is True else "applied"
            elif kind in _NATIVE_OUTPUTS and isinstance(item.get("call_id"), str):
                code = _exit_code(item)
                if code is not None:
                    outcomes[str(item["call_id"])] = "applied" if code == 0 else "failed"
            else:
                stack.extend(item.values())
    return outcomes


def _exit_code(output: Mapping[str, object]) -> object:
    """The `metadata.exit_code` of a Codex tool output (its `output` is JSON text), or None."""
    decoded = _decoded(output.get("output"))
    metadata = decoded.get("metadata") if isinstance(decoded, Mapping) else None
    return metadata.get("exit_code") if isinstance(metadata, Mapping) else None


def _tool_call(record: Mapping[str, object], line: int, session: Session) -> list[ShellCall] | None:
    """The calls of `record` if it is a tool call (see the module's list), else None."""
    if record.get("type") == _NATIVE_CALL:
        return [ShellCall(_native_patch(record), session.folder(None), line)]
    tool, state = record.get("tool"), record.get("state")
    if record.get("type") == "tool" and tool in OPENCODE_TOOLS and isinstance(state, Mapping):
        return opencode_calls(str(tool), state, line, session)
    edits = edit_calls(record, line, session)  # Claude Code, text editor, SEARCH/REPLACE
    if edits is not None:
        return edits
    name, given = record.get("name"), record.get("input")
    arguments = _decoded(record.get("arguments"))
    if is_exec_tool(name) and (body := body_of(given, arguments)) is not None:  # Codex's code mode
        return [ShellCall(patch, session.folder(None), line) for patch in exec_patches(body)]
    if isinstance(name, str) and is_apply_patch(name, strict=False):
        patch = next((p for p in (given, arguments) if isinstance(p, str)), None)
        patch = patch or _text(arguments, _PATCH_KEYS) or _text(given, _PATCH_KEYS)
        return [] if patch is None else [ShellCall(patch, session.folder(None), line)]
    action = record.get("action")
    if record.get("type") == "local_shell_call" and isinstance(action, Mapping):
        return _command(action.get("command"), _text(action, _FOLDER_KEYS), line, session)
    for holder in (arguments, given):
        if isinstance(holder, Mapping) and any(k in holder for k in _COMMAND_KEYS):
            command = next(holder[k] for k in _COMMAND_KEYS if k in holder)
            return _command(command, _text(holder, _FOLDER_KEYS), line, session)
    return None


def _native_patch(record: Mapping[str, object]) -> str:
    """The patch text of a native `apply_patch_call`.

    A malformed operation gives the envelope around its pieces as they are, so
    that extraction reports it as a broken patch with the parser's error.
    """
    from ..format import to_operation, Patch
    from .._errors import PatchSyntaxError

    given = record.get("operations")
    raw = given if isinstance(given, list) else [record.get("operation")]
    try:
        patch = Patch(tuple(to_operation(*_pieces(op)) for op in raw))
    except PatchSyntaxError:
        return "".join(["*** Begin Patch\n", *map(_raw_hunk, raw), "*** End Patch\n"])
    return str(patch)


def _pieces(operation: object) -> tuple[object, object, object, object]:
    """(type, path, diff, move_to) of a native operation (None where absent)."""
    if not isinstance(operation, Mapping):
        return None, None, None, None
    return tuple(operation.get(k) for k in ("type", "path", "diff", "move_to"))  # type: ignore[return-value]


def _raw_hunk(operation: object) -> str:
    kind, path, diff, _ = _pieces(operation)
    header = {"create_file": "Add File", "delete_file": "Delete File"}.get(str(kind), "Update File")
    body = diff if isinstance(diff, str) else ""
    return f"*** {header}: {path}\n{body}{'' if body.endswith(chr(10)) or not body else chr(10)}"


def _decoded(arguments: object) -> object:
    """A function call's `arguments`: JSON text is decoded (text that is not JSON stays text)."""
    if not isinstance(arguments, str):
        return arguments
    try:
        value: object = json.loads(arguments)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes
        return arguments
    return value


def _text(holder: object, keys: tuple[str, ...]) -> str | None:
    """The first of `keys` in `holder` whose value is a string, else None."""
    if not isinstance(holder, Mapping):
        return None
    return next((v for k in keys if isinstance(v := holder.get(k), str)), None)


def _command(command: object, workdir: str | None, line: int, session: Session) -> list[ShellCall]:
    folder = session.folder(workdir)
    if isinstance(command, str):
        return script_calls(command, ShellState(folder), line)[0]
    if is_argv(command):
        return argv_calls(command, ShellState(folder), line)
    return []
