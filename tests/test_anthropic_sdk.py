"""Claude's text-editor tool through the real `anthropic` SDK (no network: a scripted model).

The SDK's own client sends the requests to a mock transport that plays a model
fixing a file with the tool (`view`, a failing `str_replace`, a good one). The
tool-use blocks are the SDK's (`ToolUseBlock`, parsed from the API's JSON);
`TextEditor.tool_result` answers them, and each answer is validated as the
SDK's `ToolResultBlockParam`, sent back by the SDK, and seen by the model.
"""

import json
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest
from anthropic.types import MessageParam, ToolResultBlockParam, ToolTextEditor20250728Param, ToolUseBlock
from pydantic import TypeAdapter

from apply_patch import tool_definitions
from apply_patch.anthropic import TOOL_NAME, TOOL_TYPE, TextEditor

MODEL = "claude-opus-4-7"
PRIMES = "def is_prime(n):\n    for i in range(2, n)\n        if n % i == 0:\n            return False\n    return True\n"
FIXED = PRIMES.replace("range(2, n)\n", "range(2, n):\n")
# What the scripted model sends, turn after turn: (tool input, or None to end).
SCRIPT: list[dict[str, Any] | None] = [
    {"command": "view", "path": "primes.py"},
    {"command": "str_replace", "path": "primes.py", "old_str": "    for i in range(2, n):", "new_str": "x"},
    {"command": "str_replace", "path": "primes.py", "old_str": "    for i in range(2, n)", "new_str": "    for i in range(2, n):"},
    None,
]


def _message(turn: int) -> dict[str, Any]:
    step = SCRIPT[turn]
    content: list[dict[str, Any]] = (
        [{"type": "text", "text": "Fixed."}]
        if step is None
        else [{"type": "tool_use", "id": f"toolu_{turn}", "name": TOOL_NAME, "input": step}]
    )
    return {
        "id": f"msg_{turn}", "type": "message", "role": "assistant", "model": MODEL,
        "content": content, "stop_reason": "end_turn" if step is None else "tool_use",
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip


class ScriptedModel:
    """The Messages API as a mock transport: answers each request with the script's next turn."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body: dict[str, Any] = json.loads(request.content)
        self.requests.append(body)
        return httpx2.Response(200, json=_message(len(self.requests) - 1))


def test_a_scripted_claude_fixes_a_file_through_the_sdk(tmp_path: Path) -> None:
    (tmp_path / "primes.py").write_text(PRIMES)
    model = ScriptedModel()
    client = anthropic.Anthropic(
        api_key="test", base_url="http://model.invalid", max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(model)),
    )  # fmt: skip
    editor = TextEditor(tmp_path)
    TypeAdapter(ToolTextEditor20250728Param).validate_python(editor.definition)
    messages: list[MessageParam] = [{"role": "user", "content": "Fix the syntax error in primes.py"}]
    answers: list[ToolResultBlockParam] = []
    for _ in range(len(SCRIPT)):
        message = client.messages.create(
            model=MODEL, max_tokens=1024, tools=[editor.definition], messages=messages  # type: ignore[list-item]
        )
        messages.append({"role": "assistant", "content": message.content})
        if message.stop_reason != "tool_use":
            break
        uses = [block for block in message.content if isinstance(block, ToolUseBlock)]
        results = [
            TypeAdapter(ToolResultBlockParam).validate_python(editor.tool_result(use.id, use.input))
            for use in uses
        ]
        answers += results
        messages.append({"role": "user", "content": results})
    assert (tmp_path / "primes.py").read_text() == FIXED
    assert [a.get("is_error") for a in answers] == [False, True, False]
    assert answers[0].get("content") == "\n".join(f"{n}: {line}" for n, line in enumerate(PRIMES.splitlines(), 1))
    assert str(answers[1].get("content")).startswith(
        "Error: No match found for replacement. Please check your text and try again.\n"
        "In primes.py, old_str matches nowhere"
    )
    # The edited lines as they are now, numbered as view numbers them.
    fixed = FIXED.splitlines()
    assert str(answers[2].get("content")).startswith("Successfully replaced text at exactly one location.\nLines ")
    assert all(f"{n}: {fixed[n - 1]}" in str(answers[2].get("content")).split("\n") for n in (1, 2))
    # What the model saw: the tool's definition, and each answer as the SDK sent it.
    assert model.requests[0]["tools"] == [{"type": TOOL_TYPE, "name": TOOL_NAME, "max_characters": 50_000}]
    sent = model.requests[1]["messages"][2]["content"][0]
    assert sent == answers[0]


@pytest.mark.parametrize(
    "tool_input",
    [
        {"command": "view", "path": "a.txt", "view_range": [1, -1]},
        {"command": "create", "path": "b.txt", "file_text": "b\n"},
        {"command": "insert", "path": "a.txt", "insert_line": 0, "new_str": "top\n"},
        {"command": "str_replace", "path": "a.txt", "old_str": "nothing", "new_str": "x"},
        {"command": "undo_edit", "path": "a.txt"},
        {"command": "view", "path": "../out.txt"},
    ],
)
def test_every_answer_is_a_tool_result_block(tool_input: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    use = ToolUseBlock.model_validate({"type": "tool_use", "id": "toolu_9", "name": TOOL_NAME, "input": tool_input})
    result = TextEditor(tmp_path).tool_result(use.id, use.input)
    TypeAdapter(ToolResultBlockParam).validate_python(result, strict=True)
    assert set(result) == {"type", "tool_use_id", "content", "is_error"}


def test_tool_definitions_name_the_text_editor() -> None:
    definition = tool_definitions()["text_editor"]
    assert definition == {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}
    TypeAdapter(ToolTextEditor20250728Param).validate_python(definition, strict=True)
    limited = TextEditor(".", max_characters=10000).definition
    TypeAdapter(ToolTextEditor20250728Param).validate_python(limited, strict=True)
    assert limited["max_characters"] == 10000
