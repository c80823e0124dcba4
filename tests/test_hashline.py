"""Hashline end to end: the public API, the installed executable (`view --hashline`,
`--format hashline`), the MCP server, and a scripted model in each SDK the project tests
with (openai-agents, the openai Responses types, anthropic). Every round trip views, then
edits by the anchors the view printed; every refusal leaves the tree byte for byte as it was."""

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from _support import mcp_server, run_cli, snapshot
from apply_patch import HashlineError, PatchError, StaleAnchorError
from apply_patch.edits import apply_hashline, view_hashline
from apply_patch.format import hashline
from apply_patch.tools import HASHLINE_SCHEMA, HASHLINE_TOOL, hashline_definitions

APP = "def greet(name):\n    return 'Hi ' + name\n\n\ndef main():\n    greet('you')\n    return 0\n"
LINES = APP.splitlines()


def _a(n: int, lines: list[str] = LINES) -> str:
    return hashline.anchor(n, lines[n - 1])


def _edit(path: str = "app.py") -> dict[str, Any]:
    """Line 2 replaced, a line after line 6, a comment at the top."""
    return {"path": path, "edits": [
        {"loc": {"range": {"pos": _a(2), "end": _a(2)}}, "content": ["    return 'Hello ' + name"]},
        {"loc": {"append": _a(6)}, "content": ["    print('done')"]},
        {"loc": "prepend", "content": ["# greetings"]},
    ]}  # fmt: skip


EDITED = "# greetings\n" + APP.replace("'Hi '", "'Hello '").replace("greet('you')\n", "greet('you')\n    print('done')\n")


def _stale(root: Path) -> None:
    """Someone else changes line 2 after the view."""
    (root / "app.py").write_text(APP.replace("'Hi '", "'Hey '"))


# ---------------------------------------------------------------- the library


def test_view_prints_one_anchored_row_a_line(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    rows = view_hashline("app.py", tmp_path)
    assert rows == [f"{_a(n)}:{line}" for n, line in enumerate(LINES, 1)]
    assert len(rows) == APP.count("\n")


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", []),  # an empty file: no rows
        (b"a\nb", ["a", "b"]),  # no final newline: the last line is a row all the same
        (b"a\r\nb\r\n", ["a", "b"]),  # CRLF: rows without the CR, the same IDs
        (b"\xef\xbb\xbfa\nb\n", ["a", "b"]),  # the BOM is set aside
        (b"a\n\n", ["a", ""]),  # an empty last line is a line
    ],
)
def test_the_view_of_each_kind_of_file(tmp_path: Path, data: bytes, lines: list[str]) -> None:
    (tmp_path / "f.txt").write_bytes(data)
    assert view_hashline("f.txt", tmp_path) == hashline.view_rows(lines)


def test_a_file_not_utf8_is_shown_only_in_its_encoding(tmp_path: Path) -> None:
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\n")
    with pytest.raises(PatchError, match="not UTF-8"):
        view_hashline("latin.txt", tmp_path)
    assert view_hashline("latin.txt", tmp_path, encoding="latin-1") == hashline.view_rows(["café"])
    edit = {"path": "latin.txt", "edits": [{"loc": "append", "content": ["thé"]}]}
    apply_hashline(edit, tmp_path, encoding="latin-1")
    assert (tmp_path / "latin.txt").read_bytes() == b"caf\xe9\nth\xe9\n"


def test_nothing_outside_the_root_is_viewed(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "secret.txt").write_text("key\n")
    os.symlink("../secret.txt", tmp_path / "root" / "link.txt")
    for path in ("../secret.txt", str(tmp_path / "secret.txt"), "link.txt"):
        with pytest.raises(PatchError):
            view_hashline(path, tmp_path / "root")


def test_a_view_then_edit_round_trip_applies(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    anchors = [row.split(":", 1)[0] for row in view_hashline("app.py", tmp_path)]
    assert [_a(2), _a(6)] == [anchors[1], anchors[5]]
    result = apply_hashline(json.dumps(_edit()), tmp_path)
    assert result.report() == "Success. Updated the following files:\nM app.py\n"
    assert (tmp_path / "app.py").read_text() == EDITED


def test_line_endings_bom_and_a_missing_final_newline_are_kept(tmp_path: Path) -> None:
    crlf = b"\xef\xbb\xbf" + APP.rstrip("\n").replace("\n", "\r\n").encode()
    (tmp_path / "app.py").write_bytes(crlf)
    edit = {"path": "app.py", "edits": [{"loc": {"append": _a(7)}, "content": ["# end"]}]}
    apply_hashline(edit, tmp_path)
    assert (tmp_path / "app.py").read_bytes() == crlf + b"\r\n# end"


def test_a_stale_anchor_is_refused_naming_the_line_now_there(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    _stale(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(StaleAnchorError) as caught:
        apply_hashline(_edit(), tmp_path)
    now = "    return 'Hey ' + name"
    assert str(caught.value).splitlines()[:2] == [
        f"The anchor {_a(2)} of edit 1 is stale: app.py changed since it was viewed",
        f"{_a(2)}: line 2 now holds {now!r}, anchor {hashline.anchor(2, now)}",
    ]
    assert caught.value.path == "app.py" and caught.value.patch_line == 1
    assert snapshot(tmp_path) == before


def test_a_hash_found_on_another_line_is_refused_not_moved(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("import os\n\n" + APP)  # every line two further down
    before = snapshot(tmp_path)
    with pytest.raises(StaleAnchorError, match="is that of line 4, but an anchor is never moved"):
        apply_hashline(_edit(), tmp_path)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "edit",
    [
        '{"path": "app.py", "edits": [{"loc": {"append": "2:a3"}, "content": ["x"]}]}',
        "[app.py#1a2b]\nSWAP 2:\n+x\n",
        '{"path": "../outside.py", "edits": [{"loc": "append", "content": ["x"]}]}',
        '{"path": "missing.py", "edits": [{"loc": "append", "content": ["x"]}]}',
        # the second call's anchor is stale: the first call's file is not written either
        json.dumps([{"path": "other.py", "edits": [{"loc": "append", "content": ["x"]}]},
                    {"path": "app.py", "edits": [{"loc": {"append": "3#ZZ"}, "content": ["x"]}]}]),
        '{"path": "app.py", "edits": [{"loc": "append", "content": ["\\ud800"]}]}',
    ],
)
def test_every_refusal_leaves_the_tree_as_it_was(tmp_path: Path, edit: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "other.py").write_text("y\n")
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_hashline(edit, root)
    assert caught.value.nothing_changed
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- the executable


def test_the_executable_views_and_edits(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    viewed = run_cli(["view", "--hashline", "app.py"], tmp_path)
    assert viewed.returncode == 0 and viewed.stderr == b""
    assert viewed.stdout.decode() == "".join(f"{_a(n)}:{line}\n" for n, line in enumerate(LINES, 1))
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert run_cli(["view", "--hashline", "empty.txt"], tmp_path).stdout == b""
    done = run_cli(["--format", "hashline"], tmp_path, json.dumps(_edit()).encode())
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "app.py").read_text() == EDITED
    auto = run_cli(["--format", "auto", "--json"], tmp_path, json.dumps(
        {"path": "app.py", "edits": [{"loc": "append", "content": ["# end"]}]}).encode())
    assert auto.returncode == 0 and json.loads(auto.stdout)["format"] == "hashline"
    assert (tmp_path / "app.py").read_text() == EDITED + "# end\n"


def test_the_executable_refuses_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    _stale(tmp_path)
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\n")
    before = snapshot(tmp_path)
    stale = run_cli(["--format", "hashline", json.dumps(_edit())], tmp_path)
    assert stale.returncode == 1
    assert f"The anchor {_a(2)} of edit 1 is stale" in stale.stderr.decode()
    assert "now holds \"    return 'Hey ' + name\"" in stale.stderr.decode()
    v4 = run_cli(["--format", "auto"], tmp_path, b"[app.py#1a2b]\nSWAP 2:\n+x\n")
    assert v4.returncode == 1 and "oh-my-pi's v4 Hashline text" in v4.stderr.decode()
    assert run_cli(["view", "--hashline", "latin.txt"], tmp_path).returncode == 1
    assert run_cli(["view", "--hashline", "../x"], tmp_path).returncode == 1
    assert run_cli(["view", "app.py"], tmp_path).returncode == 2
    for done in (stale, v4):
        assert b"Traceback" not in done.stderr
    assert snapshot(tmp_path) == before


# ---------------------------------------------------------------- MCP (the SDK's own client)


def test_the_mcp_server_views_and_edits_by_anchors(tmp_path: Path) -> None:
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    (tmp_path / "app.py").write_text(APP)

    async def session() -> list[tuple[bool, str]]:
        server = mcp_server(["serve", "--root", str(tmp_path)])
        out = []
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert tools[HASHLINE_TOOL].input_schema == HASHLINE_SCHEMA
            assert "hashline" in tools["str_replace_based_edit_tool"].input_schema["properties"]
            for name, arguments in [
                ("str_replace_based_edit_tool", {"command": "view", "path": "app.py", "hashline": True}),
                (HASHLINE_TOOL, _edit()),
                (HASHLINE_TOOL, _edit()),  # its anchors are stale now: refused
            ]:
                result = await client.call_tool(name, arguments)
                out.append((bool(result.is_error), result.content[0].text))  # type: ignore[union-attr]
        return out

    viewed, applied, refused = asyncio.run(session())
    assert viewed == (False, "\n".join(hashline.view_rows(LINES)))
    assert applied == (False, "Success. Updated the following files:\nM app.py\n")
    assert refused[0] and refused[1].startswith(f"The anchor {_a(2)} of edit 1 is stale")
    assert (tmp_path / "app.py").read_text() == EDITED


# ---------------------------------------------------------------- openai-agents (its ScriptedModel)


def test_an_openai_agents_run_views_then_edits(tmp_path: Path) -> None:
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    from apply_patch.openai_agents import hashline_tools

    (tmp_path / "app.py").write_text(APP)
    model = ScriptedModel([
        [function_call("view_hashline", {"path": "app.py"}, call_id="v1")],
        [function_call(HASHLINE_TOOL, _edit(), call_id="e1")],
        [function_call(HASHLINE_TOOL, _edit(), call_id="e2")],  # stale now
        [assistant_message("done")],
    ])  # fmt: skip
    agent = Agent(name="coder", model=model, tools=[*hashline_tools(tmp_path)])
    result = asyncio.run(Runner.run(agent, "edit", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "done"
    last = model.last_call
    assert last is not None
    outputs = {i["call_id"]: i["output"] for i in last.input if isinstance(i, dict) and i.get("type") == "function_call_output"}
    assert outputs["v1"] == "\n".join(hashline.view_rows(LINES))
    assert outputs["e1"] == "Success. Updated the following files:\nM app.py\n"
    assert outputs["e2"].startswith(f"Error: The anchor {_a(2)} of edit 1 is stale")
    assert (tmp_path / "app.py").read_text() == EDITED


# ---------------------------------------------------------------- the openai Responses API's types


def test_a_responses_function_call_applies(tmp_path: Path) -> None:
    from openai.types.responses import FunctionToolParam, ResponseFunctionToolCall
    from pydantic import TypeAdapter

    definition = hashline_definitions()["function"]
    TypeAdapter(FunctionToolParam).validate_python(definition)  # the API's own shape
    (tmp_path / "app.py").write_text(APP)
    items = [
        {"type": "function_call", "call_id": "c1", "name": HASHLINE_TOOL, "arguments": json.dumps(_edit())},
        {"type": "function_call", "call_id": "c2", "name": HASHLINE_TOOL, "arguments": json.dumps(_edit())},
    ]
    answers = []
    for item in items:
        call = ResponseFunctionToolCall.model_validate(item)
        try:
            answers.append(apply_hashline(call.arguments, tmp_path).report())
        except PatchError as error:
            answers.append(f"Error: {error}")
    assert answers[0] == "Success. Updated the following files:\nM app.py\n"
    assert answers[1].startswith(f"Error: The anchor {_a(2)} of edit 1 is stale")
    assert (tmp_path / "app.py").read_text() == EDITED


# ---------------------------------------------------------------- anthropic (the SDK's client, a mock transport)


def test_an_anthropic_tool_use_round_trip(tmp_path: Path) -> None:
    import anthropic
    import httpx2
    from anthropic.types import ToolParam

    from apply_patch.anthropic import TOOL_NAME, TextEditor

    (tmp_path / "app.py").write_text(APP)
    script: list[tuple[str, dict[str, Any]] | None] = [
        (TOOL_NAME, {"command": "view", "path": "app.py", "hashline": True}),
        (HASHLINE_TOOL, _edit()),
        (HASHLINE_TOOL, _edit()),
        None,
    ]
    requests: list[dict[str, Any]] = []

    def transport(request: httpx2.Request) -> httpx2.Response:
        requests.append(json.loads(request.content))
        step = script[len(requests) - 1]
        content = (
            [{"type": "text", "text": "Done."}] if step is None
            else [{"type": "tool_use", "id": f"toolu_{len(requests)}", "name": step[0], "input": step[1]}]
        )
        return httpx2.Response(200, json={
            "id": f"msg_{len(requests)}", "type": "message", "role": "assistant", "model": "claude-opus-4-7",
            "content": content, "stop_reason": "end_turn" if step is None else "tool_use",
            "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
        })  # fmt: skip

    client = anthropic.Anthropic(api_key="test", http_client=httpx2.Client(transport=httpx2.MockTransport(transport)))
    tool = hashline_definitions()["anthropic"]
    ToolParam(**tool)  # type: ignore[typeddict-item]
    editor = TextEditor(tmp_path)
    messages: list[Any] = [{"role": "user", "content": "edit app.py"}]
    answers = []
    while True:
        message = client.messages.create(model="claude-opus-4-7", max_tokens=1024, messages=messages, tools=[tool])
        uses = [block for block in message.content if block.type == "tool_use"]
        if not uses:
            break
        (use,) = uses
        if use.name == TOOL_NAME:
            answer = editor.tool_result(use.id, use.input)
        else:
            try:
                answer = {"type": "tool_result", "tool_use_id": use.id,
                          "content": apply_hashline(use.input, tmp_path).report(), "is_error": False}
            except PatchError as error:
                answer = {"type": "tool_result", "tool_use_id": use.id, "content": str(error), "is_error": True}
        answers.append(answer)
        messages += [{"role": "assistant", "content": message.content}, {"role": "user", "content": [answer]}]
    assert answers[0]["content"] == "\n".join(hashline.view_rows(LINES))
    assert answers[1]["is_error"] is False
    assert answers[2]["is_error"] is True and answers[2]["content"].startswith(f"The anchor {_a(2)} of edit 1 is stale")
    assert requests[-1]["messages"][-1]["content"][0]["tool_use_id"] == "toolu_3"  # the refusal reached the model
    assert (tmp_path / "app.py").read_text() == EDITED


def test_refusals_are_hashline_errors_through_every_entry() -> None:
    with pytest.raises(HashlineError):
        apply_hashline({"path": "x", "edits": [{"loc": {"append": "1:ab"}, "content": ["y"]}]}, ".")


def test_the_editors_hashline_view_takes_a_range_and_keeps_to_its_budget(tmp_path: Path) -> None:
    from apply_patch.anthropic import TextEditor

    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "sub").mkdir()
    rows = hashline.view_rows(LINES)
    editor = TextEditor(tmp_path)
    ranged = editor.run({"command": "view", "path": "app.py", "hashline": True, "view_range": [2, 3]})
    assert ranged == {"content": "\n".join(rows[1:3]), "is_error": False}
    assert editor.run({"command": "view", "path": "empty.txt", "hashline": True})["content"] == "(the file is empty)"
    small = TextEditor(tmp_path, max_characters=55).run({"command": "view", "path": "app.py", "hashline": True})
    assert small["content"].splitlines() == [
        rows[0], rows[1], "[Truncated at 55 characters: view_range [3, 7] shows the rest.]"
    ]
    refused: list[tuple[dict[str, Any], str]] = [
        ({"path": "sub", "hashline": True}, "Error: hashline applies to files only, not to folders"),
        ({"path": "app.py", "hashline": "yes"}, "Error: hashline must be true or false"),
        ({"path": "app.py", "hashline": True, "view_range": [9, 9]}, "Error: Invalid view_range [9, 9]"),
    ]
    for asked, message in refused:
        answer = editor.run({"command": "view", **asked})
        assert answer["is_error"] and answer["content"].startswith(message)
