"""The repair hook, with a scripted model: called once when an edit's old text (or a
chunk's lines) is not found, after the lock is released; its correction used only if
it matches exactly one place, the whole patch all or nothing; not called when the edit
matches; answers cached for identical failures."""

import subprocess
import sys
from pathlib import Path

import pytest
from agents.editor import ApplyPatchOperation

from _support import snapshot
from apply_patch import ContextNotFoundError, RepairRequest, apply_patch
from apply_patch.anthropic import TextEditor
from apply_patch.openai_agents import Editor
from apply_patch.edits import StrReplace, apply_edits

APP = "def greet(name):\n    return 'Hi ' + name\n\n\ndef main():\n    greet('you')\n    return 0\n"


class ScriptedModel:
    """A repair hook that answers from a script and records what it was asked."""

    def __init__(self, *answers: StrReplace | None) -> None:
        self.answers = list(answers)
        self.asked: list[RepairRequest] = []

    def __call__(self, request: RepairRequest) -> StrReplace | None:
        self.asked.append(request)
        return self.answers.pop(0)


def _root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(APP)
    return tmp_path


def test_a_correction_that_matches_once_is_applied_and_said(tmp_path: Path) -> None:
    model = ScriptedModel(StrReplace("app.py", "return 'Hi ' + name", "return 'Hello ' + name"))
    result = apply_edits([StrReplace("app.py", "return 'Hi' + name", "return 'Hello ' + name")], _root(tmp_path), repair=model)
    assert (tmp_path / "app.py").read_text() == APP.replace("'Hi '", "'Hello '")
    (request,) = model.asked
    assert (request.path, request.text, request.old) == ("app.py", APP, "return 'Hi' + name")
    assert request.new == "return 'Hello ' + name"
    assert request.diagnostic.startswith("Failed to find the old text of edit 1 in app.py")
    (warning,) = result.warnings
    assert warning.kind == "repaired" and warning.path == "app.py"
    assert "the repair hook's correction (beginning \"return 'Hi ' + name\") matched exactly one place" in warning.message
    assert "warning: app.py: an edit's old text was not found" in result.report()


def test_blank_lines_read_several_ways_are_repaired_too(tmp_path: Path) -> None:
    # One blank line where the file has two, beside the line the edit adds: ambiguous,
    # not "not found", yet still an old text not in the file as written: the hook is asked.
    old, new = "    return 'Hi ' + name\n\ndef main():", "    return 'Hi ' + name\n\nX = 1\ndef main():"
    fixed = StrReplace("app.py", "    return 'Hi ' + name\n\n\ndef main():", "    return 'Hi ' + name\n\n\nX = 1\n\n\ndef main():")
    model = ScriptedModel(fixed)
    result = apply_edits([StrReplace("app.py", old, new)], _root(tmp_path), repair=model)
    assert (tmp_path / "app.py").read_text() == APP.replace("\n\n\ndef main", "\n\n\nX = 1\n\n\ndef main")
    (request,) = model.asked
    assert "lines 3-4: 2 blank lines in the file, 1 in the old text" in request.diagnostic, request.diagnostic
    assert [w.kind for w in result.warnings] == ["repaired"]


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (StrReplace("app.py", "return", "yield"),
         "the repair hook's correction was not applied: its old text matches 2 places in app.py"),
        (StrReplace("app.py", "nowhere", "x"),
         "the repair hook's correction was not applied: its old text matches nowhere in app.py"),
        (StrReplace("other.py", "greet('you')", "x"), "the repair hook's correction is for other.py, not app.py"),
        (None, "the repair hook gave no correction"),
    ],
)
def test_a_wrong_correction_is_refused_and_nothing_is_written(answer: StrReplace | None, why: str, tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "b.txt").write_text("b\n")
    before = snapshot(root)
    model = ScriptedModel(answer)
    edits = [StrReplace("b.txt", "b", "bee"), StrReplace("app.py", "greet('me')", "greet('them')")]
    with pytest.raises(ContextNotFoundError) as caught:
        apply_edits(edits, root, repair=model)
    assert snapshot(root) == before
    assert len(model.asked) == 1
    assert caught.value.hints[-1] == f"A repair was asked for and not used: {why}."


def test_the_hook_is_not_called_when_the_edit_matches(tmp_path: Path) -> None:
    model = ScriptedModel()
    apply_edits([StrReplace("app.py", "greet('you')", "greet('all')")], _root(tmp_path), repair=model)
    assert model.asked == []


def test_the_whole_patch_stays_all_or_nothing_after_a_repair(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    model = ScriptedModel(StrReplace("app.py", "greet('you')", "greet('all')"))
    edits = [StrReplace("app.py", "greet('yuo')", "greet('all')"), StrReplace("app.py", "no such text", "x")]
    with pytest.raises(ContextNotFoundError) as caught:
        apply_edits(edits, root, repair=model)
    assert caught.value.patch_line == 2
    assert snapshot(root) == before


def test_identical_failures_ask_once(tmp_path: Path) -> None:
    root = _root(tmp_path)
    model = ScriptedModel(None)
    for _ in range(3):
        with pytest.raises(ContextNotFoundError):
            apply_edits([StrReplace("app.py", "greet('yuo')", "greet('all')")], root, repair=model)
    assert len(model.asked) == 1


def test_the_hook_runs_without_the_roots_lock(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "other.txt").write_text("one\n")
    patch = "*** Begin Patch\n*** Update File: other.txt\n@@\n-one\n+two\n*** End Patch\n"
    code = f"import apply_patch; apply_patch.apply_patch({patch!r}, {str(root)!r})"

    def model(request: RepairRequest) -> StrReplace:
        # Another process applies a patch under the same root meanwhile: it would wait
        # for the lock (and time out) if the engine held it during the model call.
        subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
        return StrReplace("app.py", "greet('you')", "greet('all')")

    apply_edits([StrReplace("app.py", "greet('yuo')", "greet('all')")], root, repair=model)
    assert (root / "other.txt").read_text() == "two\n"
    assert "greet('all')" in (root / "app.py").read_text()


def test_a_codex_chunk_is_repaired_and_the_other_chunks_apply(tmp_path: Path) -> None:
    root = _root(tmp_path)
    patch = (
        "*** Begin Patch\n*** Update File: app.py\n*** Move to: hello.py\n"
        "@@\n-def greet(name):\n+def greet(name: str) -> str:\n"
        "@@\n def main():\n-    greet('yuo')\n+    greet('all')\n"
        "@@\n-    return 0\n+    return 1\n*** End Patch\n"
    )
    model = ScriptedModel(StrReplace("app.py", "def main():\n    greet('you')\n", "def main():\n    greet('all')\n"))
    result = apply_patch(patch, root, repair=model)
    (request,) = model.asked
    assert (request.old, request.new) == ("def main():\n    greet('yuo')\n", "def main():\n    greet('all')\n")
    assert request.text == APP
    assert not (root / "app.py").exists()
    assert (root / "hello.py").read_text() == (
        "def greet(name: str) -> str:\n    return 'Hi ' + name\n\n\ndef main():\n    greet('all')\n    return 1\n"
    )
    assert [w.kind for w in result.warnings] == ["repaired"]


def test_the_claude_text_editor_takes_a_repair_hook(tmp_path: Path) -> None:
    model = ScriptedModel(StrReplace("app.py", "greet('you')", "greet('all')"))
    answer = TextEditor(_root(tmp_path), repair=model).run(
        {"command": "str_replace", "path": "app.py", "old_str": "greet('yuo')", "new_str": "greet('all')"}
    )
    assert answer["is_error"] is False
    assert "Warning: app.py: an edit's old text was not found" in answer["content"]
    assert "greet('all')" in (tmp_path / "app.py").read_text()


def test_the_openai_agents_editor_takes_a_repair_hook(tmp_path: Path) -> None:
    model = ScriptedModel(StrReplace("app.py", "    greet('you')\n", "    greet('all')\n"))
    diff = "@@\n def main():\n-    greet('yuo')\n+    greet('all')\n"
    done = Editor(_root(tmp_path), repair=model).update_file(ApplyPatchOperation(type="update_file", path="app.py", diff=diff))
    assert done.status == "completed"
    assert done.output is not None and "warning: app.py: an edit's old text was not found" in done.output
    assert (tmp_path / "app.py").read_text() == APP.replace("greet('you')", "greet('all')")


def _docs_block(marker: str) -> str:
    """The python block of docs/agents.md holding `marker`."""
    import re

    from _support import REPO

    text = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```\n", text, re.S) if marker in b]
    return str(block)


def test_the_docs_hook_through_the_anthropic_sdk(tmp_path: Path) -> None:
    import json

    import anthropic
    import httpx2

    asked: list[dict[str, object]] = []

    def scripted_model(request: httpx2.Request) -> httpx2.Response:
        asked.append(json.loads(request.content))
        tool_use = {"type": "tool_use", "id": "toolu_1", "name": "corrected_edit",
                    "input": {"old_str": "    greet('you')", "new_str": "    greet('all')"}}  # fmt: skip
        return httpx2.Response(200, json={
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-opus-4-7",
            "content": [tool_use], "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        })  # fmt: skip

    namespace: dict[str, object] = {}
    exec(compile(_docs_block("def claude_repair"), "docs/agents.md", "exec"), namespace)
    client = anthropic.Anthropic(
        api_key="test", base_url="http://model.invalid", max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(scripted_model)),
    )  # fmt: skip
    repair = namespace["claude_repair"](client)  # type: ignore[operator]
    result = apply_edits([StrReplace("app.py", "    greet('yuo')", "    greet('all')")], _root(tmp_path), repair=repair)
    assert (tmp_path / "app.py").read_text() == APP.replace("greet('you')", "greet('all')")
    assert [w.kind for w in result.warnings] == ["repaired"]
    (request,) = asked
    assert request["tool_choice"] == {"type": "tool", "name": "corrected_edit"}
    prompt = request["messages"][0]["content"]  # type: ignore[index]
    assert "Failed to find the old text of edit 1 in app.py" in prompt and APP in prompt


def test_responses_calls_take_a_repair_hook(tmp_path: Path) -> None:
    from apply_patch.responses import apply_calls

    root = _root(tmp_path)
    (root / "notes.md").write_text("# notes\n")
    model = ScriptedModel(StrReplace("app.py", "    greet('you')\n", "    greet('all')\n"))
    calls = [
        {"type": "apply_patch_call", "call_id": "c1", "status": "completed",
         "operation": {"type": "update_file", "path": "notes.md", "diff": "@@\n-# notes\n+# Notes\n"}},
        {"type": "apply_patch_call", "call_id": "c2", "status": "completed",
         "operation": {"type": "update_file", "path": "app.py", "diff": "@@\n-    greet('yuo')\n+    greet('all')\n"}},
    ]  # fmt: skip
    outputs = apply_calls(calls, root, repair=model)
    assert [o["status"] for o in outputs] == ["completed", "completed"]
    assert "repair" not in outputs[0]["output"]
    assert "warning: app.py: an edit's old text was not found" in outputs[1]["output"]
    assert (root / "notes.md").read_text() == "# Notes\n"
    assert (root / "app.py").read_text() == APP.replace("greet('you')", "greet('all')")


def test_no_repair_when_the_patch_changes_a_file_in_several_operations(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    model = ScriptedModel()
    patch = (
        "*** Begin Patch\n*** Update File: app.py\n@@\n-    return 0\n+    return 1\n"
        "*** Update File: app.py\n@@\n-    greet('yuo')\n+    greet('all')\n*** End Patch\n"
    )
    with pytest.raises(ContextNotFoundError) as caught:
        apply_patch(patch, root, repair=model)
    assert model.asked == []
    assert caught.value.hints[-1] == "A repair was not asked for: the patch changes one file in several operations."
    assert snapshot(root) == before


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (StrReplace("app.py", None, "greet('all')"), "the repair hook's correction has an old text of type NoneType, not str"),  # type: ignore[arg-type]
        (StrReplace("app.py", 7, "greet('all')"), "the repair hook's correction has an old text of type int, not str"),  # type: ignore[arg-type]
        (StrReplace("app.py", b"greet('you')", "x"), "the repair hook's correction has an old text of type bytes, not str"),  # type: ignore[arg-type]
        (StrReplace("app.py", "greet('you')", None), "the repair hook's correction has a new text of type NoneType, not str"),  # type: ignore[arg-type]
        (StrReplace("app.py", "greet('you')", b"x"), "the repair hook's correction has a new text of type bytes, not str"),  # type: ignore[arg-type]
        (StrReplace(None, "greet('you')", "x"), "the repair hook's correction has a path of type NoneType, not str"),  # type: ignore[arg-type]
        (StrReplace(b"app.py", "greet('you')", "x"), "the repair hook's correction has a path of type bytes, not str"),  # type: ignore[arg-type]
    ],
)
def test_an_answer_of_wrong_types_is_a_clear_error_and_nothing_is_written(
    answer: StrReplace, why: str, tmp_path: Path
) -> None:
    # Issue 33, class 7: these raised AttributeError or TypeError out of the engine.
    root = _root(tmp_path)
    before = snapshot(root)
    with pytest.raises(ContextNotFoundError) as caught:
        apply_edits([StrReplace("app.py", "greet('me')", "greet('them')")], root, repair=ScriptedModel(answer))
    assert snapshot(root) == before
    assert caught.value.hints[-1] == f"A repair was asked for and not used: {why}."


def test_the_cache_keeps_no_file_text(tmp_path: Path) -> None:
    # Issue 33, class 7: the cache kept every request's whole text across calls (140 MiB
    # after 8 failures on a 17 MB file); it keeps a digest of each, and answers bounded in size.
    from apply_patch.apply.planning import _repair

    root = _root(tmp_path)
    big = "x = 1\n" * 200_000
    for n in range(4):
        (root / "big.py").write_text(big + f"n = {n}\n")
        with pytest.raises(ContextNotFoundError):
            apply_edits([StrReplace("big.py", "no such line", "y")], root, repair=ScriptedModel(None))
    held = sum(len(repr(key)) + len(repr(value)) for key, value in _repair._cache.items())
    assert held < 64 * 1024, held
    huge = StrReplace("big.py", "n = 3\n", "z = 0\n" * _repair.ANSWER_CHARS)
    apply_edits([StrReplace("big.py", "n = 9", "n = 4")], root, repair=ScriptedModel(huge))
    assert (root / "big.py").read_text().endswith("z = 0\n" * _repair.ANSWER_CHARS)  # used, not kept
    assert sum(len(repr(key)) + len(repr(value)) for key, value in _repair._cache.items()) < 64 * 1024


def test_an_edit_naming_a_mangled_name_of_its_file_is_repaired_too(tmp_path: Path) -> None:
    """A SEARCH/REPLACE block whose path the planner takes as the one file it is a mangled
    name of (`pkg/file-one_py` for `pkg/file_one.py`) and whose SEARCH text is stale: the
    hook is asked about that file, and its correction applied, as for a block naming it."""
    from apply_patch.edits import apply_search_replace

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "file_one.py").write_text(APP)
    model = ScriptedModel(StrReplace("pkg/file_one.py", "return 'Hi ' + name", "return 'Hello ' + name"))
    reply = "pkg/file-one_py\n<<<<<<< SEARCH\nreturn 'Hi' + name\n=======\nreturn 'Hello ' + name\n>>>>>>> REPLACE\n"
    result = apply_search_replace(reply, tmp_path, repair=model)
    assert (tmp_path / "pkg" / "file_one.py").read_text() == APP.replace("'Hi '", "'Hello '")
    (request,) = model.asked
    assert (request.path, request.old) == ("pkg/file_one.py", "return 'Hi' + name\n")
    assert [w.kind for w in result.warnings] == ["repaired", "input"]
