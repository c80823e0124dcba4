"""`apply_patch serve`: a stdio MCP server applying patches under one root folder.

Six tools, all confined to one root folder (paths leaving it are always
refused): the one given on the command line (`--root`); else the first of the
roots the client offers (asked at the first call, and again after the client
says they changed), whose answers then end with a line naming it; else the
current folder, named the same way. `/` and the home folder are refused unless
given with `--root`.

- `apply_patch` (patch text) and `apply_patch_dry_run` (the same, writing
  nothing, with a unified diff); `format`, as the executable's `--format`,
  reads SEARCH/REPLACE blocks or a unified diff instead (or `auto`);
- `apply_patch_operations`: the Responses API's native operations
  (`[{type, path, diff}]`, see `apply_patch.responses`), applied as one patch;
- `str_replace_based_edit_tool`: Claude's text-editor commands (`view`,
  `create`, `str_replace`, `insert`), run by `apply_patch.anthropic.TextEditor`;
- `hashline_edit`: a Hashline edit (`{path, edits}`, anchors `LINE#ID` as the
  editor's `view` with `hashline: true` prints them), `apply_patch.edits.apply_hashline`;
- `undo`: undo the last patch applied under the root (or a receipt's), only
  if every file it touched still holds what it left (`apply_patch.undo`).

The server is one session: it remembers the content hash of each file the
model viewed or wrote through it, and refuses an edit (any tool) to a file
changed since by someone else, telling the model to view it again
(`--no-stale-check`: not checked).

The patch tools' result text is what the executable prints (the summary and
warnings, or the diagnostic); their `structuredContent` is the object `--json`
prints. The editor answers as the Anthropic tool does. A failure is a tool
error, and then nothing changed. The Codex format is taught once, in the
server's instructions. Needs the MCP SDK: `.venv/bin/pip install '.[mcp]'` from a clone.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._errors import PatchError, escaped
from ..anthropic import COMMANDS as EDITOR_COMMANDS, TextEditor
from ..anthropic import TOOL_NAME as EDITOR_TOOL  # Claude's text-editor tool, by its own name
from ..tools import DESCRIPTION, HASHLINE_DESCRIPTION, HASHLINE_SCHEMA, INSTRUCTIONS, PATCH_SCHEMA, TOOL_NAME
from ..tools import HASHLINE_TOOL
from ..apply import (
    MAX_CHARACTERS,
    ApplyResult,
    apply_patch,
    bounded,
    error_json,
    failure,
    result_json,
    signals,
)
from .._policy import Policy
from ..format import OPERATION_TYPES
from . import _options, _output
from ._options import FORMATS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    import mcp_types
    from mcp.server.lowlevel import Server

DRY_RUN_TOOL: Final = "apply_patch_dry_run"
UNDO_TOOL: Final = "undo"
OPERATIONS_TOOL: Final = "apply_patch_operations"
MISSING_SDK: Final = (
    "apply_patch serve needs the MCP SDK (the [mcp] extra): from a clone of apply_patch, "
    "run .venv/bin/pip install '.[mcp]' (the package is not on PyPI yet)"
)
CLOSED_STDIO: Final = "apply_patch serve: stdin or stdout is closed: an MCP client talks to the server through both"
# The client closed its end of the pipes: the server stops, as when it closes stdin.
_CLIENT_GONE: Final = (BrokenPipeError, ConnectionResetError)

_OPERATIONS_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "minItems": 1,
            "description": "The operations, applied in order as one patch: all or none.",
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": list(OPERATION_TYPES)},
                    "path": {"type": "string", "description": "The file, relative to the root."},
                    "diff": {
                        "type": "string",
                        "description": "create_file: the file's lines, each starting with '+'. "
                        "update_file: its chunks ('@@ context', then ' ', '-', '+' lines). "
                        "delete_file: none.",
                    },
                    "move_to": {"type": "string", "description": "update_file: the new path."},
                },
                "required": ["type", "path"],
                "additionalProperties": False,
            },
        }
    },
    "required": ["operations"],
    "additionalProperties": False,
}

# The patch tools take the patch and, optionally, its format (the executable's --format).
_PATCH_SCHEMA: Final = {
    **PATCH_SCHEMA,
    "properties": {
        "patch": {
            "type": "string",
            "description": "The whole patch, from '*** Begin Patch' to '*** End Patch' "
            "(or, with format, the SEARCH/REPLACE blocks or the unified diff).",
        },
        "format": {
            "type": "string",
            "enum": list(FORMATS),
            "description": "What the patch is: codex (the default), search-replace (Aider's "
            "SEARCH/REPLACE blocks, each after its file's path), unified-diff (git diff, diff -u, "
            "applied by content), hashline (a Hashline edit's JSON, as hashline_edit takes it), "
            "or auto (the first marker says).",
        },
    },
}

_EDITOR_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": list(EDITOR_COMMANDS)},
        "path": {"type": "string", "description": "The file (view: or folder), relative to the root."},
        "file_text": {"type": "string", "description": "create: the new file's text."},
        "old_str": {
            "type": "string",
            "description": "str_replace: the exact text to replace; it must occur exactly once "
            "(or give occurrence or near_line).",
        },
        "new_str": {"type": "string", "description": "str_replace: its replacement; insert: the text inserted."},
        "occurrence": {
            "type": "integer",
            "minimum": 1,
            "description": "str_replace: when old_str occurs several times, which one to replace "
            "(1: the first, in file order).",
        },
        "near_line": {
            "type": "integer",
            "minimum": 1,
            "description": "str_replace: when old_str occurs several times, replace the one whose "
            "first line is nearest this line (a tie is refused).",
        },
        "insert_text": {"type": "string", "description": "insert: the same as new_str."},
        "insert_line": {
            "type": "integer",
            "minimum": 0,
            "description": "insert: the line after which the text goes (0: the top).",
        },
        "view_range": {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 2,
            "maxItems": 2,
            "description": "view: the first and last line shown, from 1 (-1: to the end).",
        },
        "hashline": {
            "type": "boolean",
            "description": f"view: each line as LINE#ID:TEXT, the anchors {HASHLINE_TOOL} takes.",
        },
    },
    "required": ["command", "path"],
    "additionalProperties": False,
}

_UNDO_SCHEMA: Final = {
    "type": "object",
    "properties": {
        "receipt": {
            "type": "string",
            "description": "The receipt id a result gave (default: the last patch still in effect).",
        }
    },
    "additionalProperties": False,
}

# The tools' annotations: those that write under the root, and the dry run.
_WRITES: Final = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": False}
_READS: Final = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

# (name, description, input schema, annotations) of each tool.
_TOOLS: Final = (
    (
        TOOL_NAME,
        f"{DESCRIPTION} The patch format is in the server's instructions.",
        _PATCH_SCHEMA,
        _WRITES,
    ),
    (
        DRY_RUN_TOOL,
        "Check a patch without writing anything: what it would change, as a summary and a "
        "unified diff, or the error it would meet.",
        _PATCH_SCHEMA,
        _READS,
    ),
    (
        OPERATIONS_TOOL,
        "Apply file operations in the shape of the OpenAI Responses API's apply_patch tool "
        "(create_file, update_file with a diff of chunks, delete_file), all as one patch: "
        "all or nothing.",
        _OPERATIONS_SCHEMA,
        _WRITES,
    ),
    (
        EDITOR_TOOL,
        "Claude's text-editor tool: view a file (with line numbers) or a folder, create a file, "
        "replace text that occurs exactly once or the occurrence chosen (str_replace), or insert "
        "lines after a line.",
        _EDITOR_SCHEMA,
        _WRITES,
    ),
    (
        HASHLINE_TOOL,
        f"{HASHLINE_DESCRIPTION} The anchors are those of {EDITOR_TOOL}'s view with hashline: true.",
        HASHLINE_SCHEMA,
        _WRITES,
    ),
    (
        UNDO_TOOL,
        "Undo the last patch or edit applied under the root (or the one of a receipt id): all "
        "or nothing, refused if a file it touched changed since. Undoing an undo redoes.",
        _UNDO_SCHEMA,
        _WRITES,
    ),
)


def main(argv: Sequence[str]) -> int:
    """Run the server over stdio until the client closes it; return the exit code."""
    options = _options.parse(_argument_parser, argv)
    if isinstance(options, int):
        return options
    policy = _options.policy(options)
    if policy.outside_root != "error":
        sys.stderr.write("apply_patch serve: the server never writes outside its root folder\n")
        return 2
    if options.root is not None and not os.path.isdir(options.root):
        sys.stderr.write(f"apply_patch serve: the root folder {options.root} does not exist\n")
        return 2
    if options.max_characters < 1:
        sys.stderr.write("apply_patch serve: --max-characters must be at least 1\n")
        return 2
    try:
        root = None if options.root is None else os.path.abspath(options.root)
        server = build_server(root, policy, options.max_characters, stale_check=not options.no_stale_check)
    except ImportError:
        sys.stderr.write(MISSING_SDK + "\n")
        return 2
    if sys.stdin is None or sys.stdout is None:
        sys.stderr.write(CLOSED_STDIO + "\n")
        return 2
    import anyio

    # From here a signal ends the server as its default action would, at once when it
    # is idle (Ctrl-C included: a read blocked on the client cannot hold it), after
    # the commit when one runs, whichever thread runs it.
    signals.install(defer=False)
    try:
        anyio.run(_serve_stdio, server)
    except BaseExceptionGroup as group:  # the task group's errors: all a client gone?
        if group.split(_CLIENT_GONE)[1] is not None:
            raise
    except _CLIENT_GONE:
        pass
    else:
        return 0
    _output.drop()  # the client closed its end while an answer was written: that is its way to stop
    return 0


async def _serve_stdio(server: Server[Any]) -> None:
    from typing import cast

    from mcp.server.stdio import stdio_server

    from ._stdio import Lines, Output

    output = Output()
    lines, out = cast("Any", Lines(output)), cast("Any", output)  # the SDK's stream types, duck-typed
    async with stdio_server(stdin=lines, stdout=out) as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _argument_parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch serve",
        description="Serve the apply_patch tools over MCP (stdio), confined to one root folder.",
    )
    parser.add_argument(
        "-C",
        "--root",
        metavar="DIR",
        help="the folder patches apply to (default: the first root the client offers, else the "
        "current folder; / and the home folder only when named here)",
    )
    parser.add_argument(
        "--max-characters",
        type=int,
        default=MAX_CHARACTERS,
        metavar="N",
        help="the most characters one answer to the model holds: a view shows the lines that "
        "fit, other answers are cut at a line end with a note (default: %(default)s)",
    )
    parser.add_argument(
        "--no-stale-check",
        action="store_true",
        help="let an edit change a file that changed since the model last viewed or wrote it "
        "(by default refused, telling the model to view it again)",
    )
    _options.add_policies(parser)
    return parser


class Session:
    """What the server remembers between calls: the editor, and what the model saw of each file."""

    def __init__(self, root: str, policy: Policy, budget: int, stale_check: bool = True) -> None:
        self.editor = TextEditor(root, policy=policy, max_characters=budget, stale_check=stale_check)
        self.seen = self.editor.seen  # one session for every tool


class Roots:
    """Which folder a call works in: the root named on the command line; else the first of
    the roots the MCP client offers (`roots/list`, asked at the first call and again after
    the client's `roots/list_changed`); else the server's current folder. `/` and the home
    folder are refused unless named on the command line: a model should not be handed
    the whole disk, or every file of the user, by default."""

    def __init__(self, named: str | None, current: str) -> None:
        self.named, self.current = named, current
        self._offered: list[str] | None = None  # the client's folders; None: to ask

    def changed(self) -> None:
        """The client said its roots changed: ask again at the next call."""
        self._offered = None

    async def choose(self, ctx: Any) -> tuple[str, str] | str:
        """(the root, where it comes from), or why there is none (a tool error)."""
        if self.named is not None:
            return self.named, "named"
        if self._offered is None:
            self._offered = await _client_roots(ctx)
        if self._offered:
            usable = [folder for folder in self._offered if os.path.isdir(folder) and not _too_wide(folder)]
            if usable:
                return usable[0], "the first root the client offers"
            return (
                f"The client offers no root the server may work in ({', '.join(self._offered)}): "
                "each is missing, the whole disk (/) or the home folder. Start the server with "
                "--root DIR to name the folder."
            )
        if _too_wide(self.current):
            return (
                f"The server has no root: the client offers none, and the current folder {self.current} "
                "is the whole disk (/) or the home folder. Start the server with --root DIR."
            )
        return self.current, "the server's current folder; the client offers no root"


def _too_wide(folder: str) -> bool:
    """Whether `folder` is `/` or the home folder (refused unless named with --root)."""
    real = os.path.realpath(folder)
    home = os.path.expanduser("~")
    return real == os.path.realpath(os.sep) or (home != "~" and real == os.path.realpath(home))


async def _client_roots(ctx: Any) -> list[str]:
    """The local folders of the roots the client offers (`file://` URIs); [] when it offers
    none, cannot be asked, or its answer is an error."""
    import warnings
    from urllib.parse import unquote, urlparse

    import mcp_types as types

    session = ctx.session
    try:
        if not session.check_client_capability(types.ClientCapabilities(roots=types.RootsCapability())):
            return []
        with warnings.catch_warnings():  # roots are deprecated from protocol 2026-07-28 on, still offered
            warnings.simplefilter("ignore")
            answer = await session.list_roots()
    except Exception:  # an error answer, a closed back channel: as if none were offered
        return []
    folders: list[str] = []
    for root in answer.roots:
        uri = urlparse(str(root.uri))
        if uri.scheme == "file" and uri.netloc in ("", "localhost"):
            folders.append(os.path.normpath(unquote(uri.path)))
    return folders


def build_server(
    root: str | None, policy: Policy, budget: int = MAX_CHARACTERS, *, stale_check: bool = True
) -> Server[Any]:
    """The MCP server with its six tools, applying patches under `root` (None: the roots
    the client offers, else the current folder: `Roots`); each answer holds at most
    `budget` characters (and its note). One session (`Session`) per root for the
    server's whole life."""
    import warnings

    import mcp_types as types
    from mcp.server.lowlevel import Server

    tools = [
        types.Tool(
            name=name,
            description=description,
            input_schema=schema,
            annotations=types.ToolAnnotations.model_validate(annotations),
        )
        for name, description, schema, annotations in _TOOLS
    ]

    async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    roots = Roots(root, os.getcwd())
    sessions: dict[str, Session] = {}

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        chosen = await roots.choose(ctx)
        if isinstance(chosen, str):
            return _text(chosen, is_error=True)
        folder, source = chosen
        session = sessions.get(folder) or sessions.setdefault(folder, Session(folder, policy, budget, stale_check))
        result = call(params.name, params.arguments or {}, folder, policy, budget, session)
        return result if source == "named" else _naming_root(result, folder, source)

    async def roots_changed(ctx: object, params: object) -> None:
        roots.changed()

    with warnings.catch_warnings():  # roots are deprecated from protocol 2026-07-28 on, still offered
        warnings.simplefilter("ignore")
        return Server(
            TOOL_NAME,
            version=_options.version(),
            instructions=INSTRUCTIONS,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_roots_list_changed=roots_changed if root is None else None,
        )


def _naming_root(result: mcp_types.CallToolResult, folder: str, source: str) -> mcp_types.CallToolResult:
    """`result`, its text ending with the root folder the call worked in (a model cannot
    know it from the instructions: they are sent before roots may be asked), and its
    document with `root`."""
    import mcp_types as types

    text = result.content[0].text if isinstance(result.content[0], types.TextContent) else ""
    line = escaped(f"Root folder: {folder} ({source}).", keep="")
    document = result.structured_content
    return _text(
        f"{text.rstrip(chr(10))}\n{line}",
        is_error=bool(result.is_error),
        document=None if document is None else {**document, "root": folder},
    )


def call(
    name: str,
    arguments: dict[str, Any],
    root: str,
    policy: Policy,
    budget: int = MAX_CHARACTERS,
    session: Session | None = None,
) -> mcp_types.CallToolResult:
    """The result of tool `name` with `arguments` (JSON values, unchecked), within `budget`,
    in `session` (None: a session of its own)."""
    session = session or Session(root, policy, budget)
    if session.seen is None:
        result = _called(name, arguments, root, policy, budget, session)
    else:
        with session.seen.watching():
            result = _called(name, arguments, root, policy, budget, session)
    return _within(result, None if name == EDITOR_TOOL else budget)  # the editor keeps to it itself


def _called(
    name: str, arguments: dict[str, Any], root: str, policy: Policy, budget: int, session: Session
) -> mcp_types.CallToolResult:
    if name == EDITOR_TOOL:
        answer = session.editor.run(arguments)
        return _text(answer["content"], is_error=answer["is_error"])
    if name == UNDO_TOOL:
        return _undone(arguments, root, policy)
    if name == HASHLINE_TOOL:
        return _hashline(arguments, root, policy)
    expected = "operations" if name == OPERATIONS_TOOL else "patch"
    problem = _argument_problem(name, arguments, expected)
    if problem is not None:
        return _text(problem, is_error=True)
    dry_run = name == DRY_RUN_TOOL
    asked = arguments.get("format", "codex")
    chosen = asked
    if asked == "auto":
        from ._formats import detect

        chosen = detect(arguments["patch"])
    try:
        result = _applied(name, arguments, chosen, root, policy, dry_run)
    except PatchError as error:
        return _failure(error, dry_run, asked, chosen)
    return _success(result, dry_run, asked, chosen)


def _applied(
    name: str, arguments: dict[str, Any], chosen: str, root: str, policy: Policy, dry_run: bool
) -> ApplyResult:
    """What a patch tool's call applied (or would apply); PatchError if it does not."""
    if name == OPERATIONS_TOOL:
        from ..responses import operations_patch

        return apply_patch(operations_patch(arguments["operations"]), root, dry_run=dry_run, policy=policy)
    from ._formats import apply_text

    return apply_text(arguments["patch"], chosen, root, dry_run=dry_run, policy=policy)


def _hashline(arguments: dict[str, Any], root: str, policy: Policy) -> mcp_types.CallToolResult:
    """The Hashline tool: its call (`{path, edits}`) applied, or why not (nothing changed)."""
    from ..edits import apply_hashline

    try:
        result = apply_hashline(arguments, root, policy=policy)
    except PatchError as error:
        return _failure(error, False, "hashline", "hashline")
    return _success(result, False, "hashline", "hashline")


def _undone(arguments: dict[str, Any], root: str, policy: Policy) -> mcp_types.CallToolResult:
    """The `undo` tool: the summary of what was undone, or why nothing was."""
    others = sorted(set(arguments) - {"receipt"})
    receipt = arguments.get("receipt")
    if others or not (receipt is None or isinstance(receipt, str)):
        return _text(f"{UNDO_TOOL} takes one optional argument, 'receipt' (a receipt id string).", is_error=True)
    from ..apply import undo

    try:
        result = undo(root, receipt, policy=policy)
    except PatchError as error:
        return _text(str(error), is_error=True, document=error_json(error, dry_run=False))
    document = result_json(result.operations, result.warnings, dry_run=False, diff=None, receipt=result.receipt)
    return _text(result.report(), is_error=False, document=document)


def _within(result: mcp_types.CallToolResult, budget: int | None) -> mcp_types.CallToolResult:
    """`result` with its text (and its document's diff) cut to `budget` characters, nothing
    an encoder refuses (a lone surrogate, as its escape), nothing that drives a terminal."""
    import mcp_types as types

    text = result.content[0].text if isinstance(result.content[0], types.TextContent) else ""
    document = result.structured_content
    if document is not None and isinstance(document.get("diff"), str):
        document = {**document, "diff": bounded(document["diff"], budget)}
    # An MCP client may show the text in a terminal: control characters (ESC sequences,
    # from file content or a name) are escapes there, and so are lone surrogates.
    shown = escaped(bounded(text, budget), keep="\n\t")
    return _text(shown, is_error=bool(result.is_error), document=_encodable(document))


def _encodable(value: Any) -> Any:
    """`value` (JSON data) with every lone surrogate of its texts as its escape."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_encodable(key): _encodable(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_encodable(inner) for inner in value]
    return value


def _text(text: str, *, is_error: bool, document: dict[str, Any] | None = None) -> mcp_types.CallToolResult:
    """A result of one text block (and the `--json` object as `structuredContent`, if any)."""
    import mcp_types as types

    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=document, is_error=is_error
    )


def _failure(error: PatchError, dry_run: bool, asked: str, chosen: str) -> mcp_types.CallToolResult:
    """The diagnostic as text, and the `--json` error object (with the operation's index)."""
    document = _with_format(error_json(error, dry_run=dry_run), asked, chosen)
    document["error"]["operation"] = error.operation
    if document["error"]["patch_line"] == 0:  # an operation's own line: it has none
        document["error"]["patch_line"] = None
    return _text(failure(error, dry_run=dry_run).rstrip("\n"), is_error=True, document=document)


def _with_format(document: dict[str, Any], asked: str, chosen: str) -> dict[str, Any]:
    """As `--json` with `--format`: a format other than codex asked for is named in the result."""
    return document if asked == "codex" else {**document, "format": chosen}


def _success(result: ApplyResult, dry_run: bool, asked: str, chosen: str) -> mcp_types.CallToolResult:
    """The summary (and, for a dry run, the diff) as text, and the `--json` object (with the
    receipt's id, for the `undo` tool)."""
    diff = result.diff if dry_run else None
    document = _with_format(
        result_json(result.operations, result.warnings, dry_run=dry_run, diff=diff, receipt=result.receipt),
        asked,
        chosen,
    )
    return _text(result.report() + (diff or ""), is_error=False, document=document)


def _argument_problem(name: str, arguments: dict[str, Any], expected: str) -> str | None:
    """One line a model can act on when the arguments are not `{expected: ...}`, else None."""
    if name not in {tool[0] for tool in _TOOLS}:
        return f"Unknown tool {name!r}: the tools are {', '.join(tool[0] for tool in _TOOLS)}."
    if expected == "operations":
        takes, optional = "takes one argument, 'operations' (a list of operations)", set()
    else:
        takes, optional = "takes 'patch' (the patch text) and, optionally, 'format'", {"format"}
    others = sorted(set(arguments) - {expected} - optional)
    if others:
        return f"{name} {takes}; unknown argument{'s' if len(others) > 1 else ''}: {', '.join(map(repr, others))}."
    if expected not in arguments:
        missing = "it is missing" if expected == "operations" else f"{expected!r} is missing"
        return f"{name} {takes}; {missing}."
    value = arguments[expected]
    if expected == "patch" and not isinstance(value, str):
        return f"{name}: 'patch' must be a string (the patch text), not {type(value).__name__}."
    if "format" in arguments and arguments["format"] not in FORMATS:
        return f"{name}: 'format' must be one of {', '.join(FORMATS)}; not {arguments['format']!r}."
    if expected == "operations" and not (isinstance(value, list) and value):
        return f"{name}: 'operations' must be a non-empty list of {{type, path, diff}} objects."
    return None
