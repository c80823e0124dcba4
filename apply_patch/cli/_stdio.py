"""The MCP server's stdio: every request answered, every answer encodable.

The MCP SDK's stdio transport passes on what it can validate and drops the
rest: a line that is not JSON, JSON that is not a JSON-RPC message, or one
holding a lone surrogate (a `\\ud800` escape: valid JSON, not valid Unicode,
which its parser refuses) was never answered, and the client waited forever.
Here each line is checked first (`refusal`): a request that cannot be read
gets a JSON-RPC error with its id (a parse error with id null when even
that cannot be read); a `tools/call` whose arguments hold a lone surrogate
gets a tool error the model can act on. Notifications and responses are
never answered, as JSON-RPC says. The SDK's transport serves the rest.
"""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from pydantic import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from .._errors import escaped
from ._options import json_safe


class Output:
    """stdout for the SDK's transport and for the refusals: whole lines, one writer at a time.

    Each line is JSON text: C1 controls, line separators and lone surrogates
    in its strings are written as their `\\u` escapes (`json_safe`), the same
    JSON, which no terminal or encoder takes amiss.
    """

    def __init__(self) -> None:
        self._lock = anyio.Lock()

    async def write(self, text: str) -> None:
        data = json_safe(text).encode("utf-8")
        async with self._lock:
            await anyio.to_thread.run_sync(_write, data)

    async def flush(self) -> None:
        pass  # every write is flushed


def _write(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


class Lines:
    """stdin's lines that are JSON-RPC messages the SDK can read; the others are answered here."""

    def __init__(self, output: Output) -> None:
        self._output = output

    def __aiter__(self) -> Lines:
        return self

    async def __anext__(self) -> str:
        while True:
            # Abandoned when the server stops: a read blocked on a silent client ends with the process.
            raw: bytes = await anyio.to_thread.run_sync(sys.stdin.buffer.readline, abandon_on_cancel=True)
            if not raw:
                raise StopAsyncIteration
            line = raw.decode("utf-8", "replace")
            answer = refusal(line)
            if answer is None:
                return line
            if answer:
                await self._output.write(answer + "\n")


def refusal(line: str) -> str | None:
    """None for a message the SDK reads; else the answer to send ("" for none)."""
    if not line.strip():
        return ""
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except ValidationError:
        pass
    try:
        value = json.loads(line)
    except RecursionError:
        return _error(None, types.PARSE_ERROR, "Parse error: the message is nested too deep")
    except ValueError:
        return _error(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
    if not isinstance(value, dict):
        return _error(None, types.INVALID_REQUEST, "Invalid request: a message is one JSON object")
    if "id" not in value or "result" in value or "error" in value:
        return ""  # a notification or a response: never answered
    ident = value["id"]
    if not _usable_id(ident):
        ident = None
    where = _lone_surrogate(value)
    if where is None:
        return _error(ident, types.INVALID_REQUEST, "Invalid request: not a JSON-RPC request of MCP")
    message = (
        f"The request is not valid Unicode text: {where} holds a lone surrogate; nothing was done"
    )
    if ident is not None and value.get("method") == "tools/call":
        return _tool_error(ident, message)
    return _error(ident, types.INVALID_PARAMS, message)


def _usable_id(ident: object) -> bool:
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        return False
    return not isinstance(ident, str) or _lone_surrogate(ident) is None


def _lone_surrogate(value: object) -> str | None:
    """Where the first lone surrogate of a JSON value is (`params.arguments.path`), or None."""
    todo: list[tuple[str, object]] = [("the request", value)]
    while todo:
        where, item = todo.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return where
        elif isinstance(item, dict):
            for key, inner in item.items():
                if _lone_surrogate(key) is not None:
                    return f"a name in {where}"
                todo.append((escaped(key) if where == "the request" else f"{where}.{escaped(key)}", inner))
        elif isinstance(item, list):
            todo.extend((f"{where}[{index}]", inner) for index, inner in enumerate(item))
    return None


def _error(ident: object, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}})


def _tool_error(ident: object, message: str) -> str:
    result: dict[str, Any] = {"content": [{"type": "text", "text": message}], "isError": True}
    return json.dumps({"jsonrpc": "2.0", "id": ident, "result": result})
