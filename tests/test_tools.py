"""For agents: streaming progress and tool definitions built from the grammar."""

from pathlib import Path
from typing import Any

import lark
import llguidance
import pytest

from _support import FIXTURES
from apply_patch import (
    PartialOperation,
    PartialReader,
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


def test_a_reader_fed_in_pieces_reports_what_the_whole_prefix_holds() -> None:
    text = "prose\r\n" + LONG_PATCH.replace("\n", "\r\n") + "after the end\n"
    for size in (1, 3, 17):
        reader = PartialReader()
        for start in range(0, len(text), size):
            reader.feed(text[start : start + size])
            assert reader.partial == parse_partial(text[: start + size])
    assert reader.partial.finished and len(reader.partial.operations) == 6


def test_the_reader_reads_markers_with_forgiven_whitespace() -> None:
    partial = parse_partial(
        "*** Begin Patch  \n  *** Delete File: c \n\t*** Update File: a.py\n*** Move to: b.py  \n"
        "@@ x \n-a\n+b\n*** End of File\n\n  *** Add File: not a header in an Update\n"
        "*** End Patch \n*** Add File: never\n"
    )
    # Inside an Update only trailing whitespace is forgiven (as `parse_patch` does): the
    # indented header is a context line; the blank line after `*** End of File` is none.
    assert partial.operations == (
        PartialOperation("delete", "c"), PartialOperation("update", "a.py", "b.py", 3),
    )
    assert partial.finished


def test_the_reader_goes_on_after_what_the_grammar_refuses() -> None:
    # A trailing blank line in an Add, a line with no prefix, a Move after a chunk and a
    # run after a Delete: each passed over (its file lines counted), the next header read.
    partial = parse_partial(
        "*** Begin Patch\n*** Add File: a\n+x\n\n*** Update File: b\n@@\n-old\nno prefix\n"
        "*** Move to: c\n*** Delete File: d\n+stray\n*** Update File: e\n*** Move to: f\n"
        "-1\n+2\n*** End Patch\n"
    )
    assert partial.operations == (
        PartialOperation("add", "a", None, 2), PartialOperation("update", "b", None, 1),
        PartialOperation("delete", "d", None, 1), PartialOperation("update", "e", "f", 2),
    )
    assert partial.finished


def test_each_line_fed_costs_the_same_however_long_the_patch_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parser's state is kept: feeding the last 2,000 lines of a 60,000-line patch
    gives the parser what feeding its first 2,000 did (a re-parse of the prefix would give
    it 30× as many tokens). Counted, not timed: the tokens the parser is fed."""
    from lark.parsers.lalr_interactive_parser import InteractiveParser

    chunk = "@@ def f():\n-    a = 1\n+    a = 2\n     b = 3\n"
    body = "".join(f"*** Update File: f{i}.py\n" + chunk * 9 for i in range(1_600))
    lines = ("*** Begin Patch\n" + body).splitlines(keepends=True)[:60_000]
    fed = [0]
    feed_token = InteractiveParser.feed_token

    def counted(parser: InteractiveParser, token: lark.Token) -> Any:
        fed[0] += 1
        return feed_token(parser, token)

    monkeypatch.setattr(InteractiveParser, "feed_token", counted)
    parses: list[str] = []  # a parse begun anew (of the prefix, say) after the first line

    def noting(name: str) -> None:
        method = getattr(lark.Lark, name)

        def noted(*args: Any, **options: Any) -> Any:
            parses.append(name)
            return method(*args, **options)

        monkeypatch.setattr(lark.Lark, name, noted)

    noting("parse")
    noting("parse_interactive")

    def feeding(reader: PartialReader, part: list[str]) -> int:
        before = fed[0]
        for line in part:
            reader.feed(line)
        return fed[0] - before

    reader = PartialReader()
    reader.feed(lines[0])  # `*** Begin Patch`: the one parse begun
    parses.clear()
    first = feeding(reader, lines[1:2_000])
    feeding(reader, lines[2_000:-2_000])
    last = feeding(reader, lines[-2_000:])
    assert first > 0 and last < 2 * first and not parses, (first, last, parses)
    assert reader.partial.operations[-1].lines > 0


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
