"""For agents: streaming progress and tool definitions built from the grammar."""

from pathlib import Path
from typing import Any

import lark
import llguidance
import pytest

from _support import FIXTURES
from apply_patch import (
    PartialOperation,
    PatchSyntaxError,
    grammar_text,
    parse_partial,
    parse_patch,
    tool_definitions,
)

LONG_PATCH = (FIXTURES / "demo" / "change.patch").read_text() .replace(
    "*** End Patch\n",
    "*** Update File: src/lib.py\n@@ class A:\n@@     def f(self):\n-        pass\n"
    "+        return 1\n*** Add File: notes.md\n+# Notes\n\n+two\n*** End Patch\n",
)
# The tool grammar takes what can apply: a patch with at least one file operation.
CANONICAL = sorted(
    p for p in (FIXTURES / "parse" / "valid").glob("*.canonical") if p.stem != "zero_hunks"
)
NO_OPERATION = (FIXTURES / "parse" / "valid" / "zero_hunks.canonical").read_text(encoding="utf-8")
GARBAGE = [
    "",
    "hello",
    "*** Begin Patch\n",
    "*** Begin Patch\n*** Frob File: x\n*** End Patch\n",
    "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch\n",
    "*** Begin Patch\n*** Update File: a\n@@x\n-a\n*** End Patch\n",
    "*** Begin Patch\n*** Update File: a\n@@\n*** End Patch\n",
    "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
    "*** Begin Patch\\n*** Delete File: a\\n*** End Patch",
]


def test_partial_operations_never_shrink_as_text_streams_in() -> None:
    seen: list[tuple[PartialOperation, ...]] = []
    for end in range(len(LONG_PATCH) + 1):
        seen.append(parse_partial(LONG_PATCH[:end]).operations)
    for before, after in zip(seen, seen[1:]):
        assert len(after) >= len(before)
        assert after[: len(before) - 1] == before[:-1]
        if before:
            last, same = before[-1], after[len(before) - 1]
            assert (same.kind, same.path) == (last.kind, last.path)
            assert last.move_to in (None, same.move_to) and same.lines >= last.lines
    final = parse_partial(LONG_PATCH)
    assert final.started and final.finished
    parsed = parse_patch(LONG_PATCH).operations
    assert [(o.kind, o.path, o.move_to) for o in final.operations] == [
        ({"AddFile": "add", "DeleteFile": "delete", "UpdateFile": "update"}[type(p).__name__],
         p.path, getattr(p, "move_to", None))
        for p in parsed
    ]
    assert [o.lines for o in final.operations] == [5, 3, 2, 0, 2, 3]


def test_partial_skips_what_comes_before_the_patch() -> None:
    partial = parse_partial("Sure! <<'EOF'\n*** Begin Patch\n*** Delete File: a.txt\n*** Upd")
    assert partial.operations == (PartialOperation("delete", "a.txt"),)
    assert partial.started and not partial.finished
    assert parse_partial("no patch here\n").operations == ()


def test_tool_definitions_have_the_api_shapes() -> None:
    tools = tool_definitions()
    custom, function, anthropic = tools["custom"], tools["function"], tools["anthropic"]
    assert custom["type"] == "custom" and custom["name"] == "apply_patch"
    assert custom["format"] == {"type": "grammar", "syntax": "lark", "definition": grammar_text()}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"patch": {"type": "string", "description": function["parameters"]
                                 ["properties"]["patch"]["description"]}},
        "required": ["patch"],
        "additionalProperties": False,
    }
    assert function == {
        "type": "function", "name": "apply_patch", "description": custom["description"],
        "parameters": schema, "strict": True,
    }
    assert anthropic == {
        "name": "apply_patch", "description": custom["description"], "input_schema": schema,
    }
    assert tools["chat"] == {
        "type": "function",
        "function": {"name": "apply_patch", "description": custom["description"],
                     "parameters": schema, "strict": True},
    }
    assert tools["responses"] == {"type": "apply_patch"}
    assert set(tools) == {"custom", "function", "chat", "anthropic", "responses", "instructions", "text_editor"}
    assert tools["instructions"] in custom["description"]


def test_the_definitions_are_what_the_openai_sdk_sends() -> None:
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import ApplyPatchToolParam, CustomToolParam, FunctionToolParam
    from pydantic import TypeAdapter

    tools = tool_definitions()
    for shape, key in [(CustomToolParam, "custom"), (FunctionToolParam, "function"),
                       (ChatCompletionFunctionToolParam, "chat"), (ApplyPatchToolParam, "responses")]:
        assert TypeAdapter(shape).validate_python(tools[key]) == tools[key]


def test_the_instructions_example_is_a_valid_patch() -> None:
    instructions: str = tool_definitions()["instructions"]
    example = instructions[instructions.rindex("*** Begin Patch") :]
    assert len(parse_patch(example).operations) == 3


@pytest.fixture(scope="module")
def earley() -> lark.Lark:
    return lark.Lark(tool_definitions()["custom"]["format"]["definition"])


@pytest.mark.parametrize("path", CANONICAL, ids=[p.stem for p in CANONICAL])
def test_lark_accepts_every_canonical_patch(path: Path, earley: lark.Lark) -> None:
    earley.parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", GARBAGE)
def test_lark_and_the_parser_reject_garbage(text: str, earley: lark.Lark) -> None:
    with pytest.raises(lark.exceptions.LarkError):
        earley.parse(text)
    with pytest.raises(PatchSyntaxError):
        parse_patch(text)


class _Bytes:
    """A byte-level tokenizer, so llguidance can match raw text."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
    special_token_ids = [256]

    def __call__(self, text: bytes | str) -> list[int]:
        return list(text if isinstance(text, bytes) else text.encode("utf-8"))


def _llguidance_accepts(text: str) -> bool:
    tokenizer = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Bytes()))
    grammar = llguidance.grammar_from("lark", grammar_text())
    matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
    return (
        matcher.consume_tokens(list(text.encode("utf-8")))
        and not matcher.is_error()
        and matcher.is_accepting()
    )


def test_llguidance_compiles_the_grammar() -> None:
    grammar = llguidance.grammar_from("lark", grammar_text())
    assert llguidance.LLMatcher.validate_grammar(grammar) == ""


def test_llguidance_accepts_canonical_patches_and_rejects_garbage() -> None:
    for path in CANONICAL:
        assert _llguidance_accepts(path.read_text(encoding="utf-8")), path.name
    for text in [*GARBAGE, NO_OPERATION]:
        assert not _llguidance_accepts(text), text


def test_the_tool_grammar_refuses_a_patch_without_operation(earley: lark.Lark) -> None:
    """The parser reads it (and the applier refuses it: "No files were modified."), the tool never sends it."""
    assert parse_patch(NO_OPERATION).operations == ()
    with pytest.raises(lark.exceptions.LarkError):
        earley.parse(NO_OPERATION)
