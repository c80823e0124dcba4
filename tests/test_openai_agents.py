"""`apply_patch.openai_agents.Editor` driven by the real openai-agents SDK and a scripted model.

The SDK's `Runner` runs an agent with `ApplyPatchTool(editor=Editor(root))`;
its model is the SDK's own `ScriptedModel` (no network), answering with
`apply_patch_call` items. The files on disk and the `apply_patch_call_output`
items the runner sends back to the model are checked.
"""

import asyncio
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, ApplyPatchTool, RunConfig, Runner
from agents.editor import ApplyPatchEditor, ApplyPatchOperation, ApplyPatchResult
from agents.testing import ScriptedModel, assistant_message

from _support import snapshot
from apply_patch import PolicyValueError
from apply_patch.openai_agents import Editor

APP = "def greet(name):\n    return 'Hi ' + name\n\n\ndef main():\n    greet('you')\n    return 0\n"


def _call(call_id: str, **operation: str) -> dict[str, Any]:
    return {"type": "apply_patch_call", "call_id": call_id, "status": "completed", "operation": operation}


def _outputs(model: ScriptedModel) -> dict[str, dict[str, Any]]:
    """The apply_patch_call_output items of the model's last input, by call id."""
    last = model.last_call
    assert last is not None
    return {
        item["call_id"]: item
        for item in last.input
        if isinstance(item, dict) and item.get("type") == "apply_patch_call_output"
    }


def _run(root: Path, steps: list[Any]) -> ScriptedModel:
    model = ScriptedModel(steps)
    agent = Agent(name="coder", model=model, tools=[ApplyPatchTool(editor=Editor(root))])
    config = RunConfig(tracing_disabled=True)  # no trace export: nothing leaves the machine
    result = asyncio.run(Runner.run(agent, "edit the files", run_config=config))
    assert result.final_output == "done"
    model.assert_complete()
    return model


def test_a_run_creates_updates_moves_and_deletes(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "old.txt").write_text("one\ntwo\n")
    (tmp_path / "gone.txt").write_text("bye\n")
    two_chunks = (
        "@@ def greet(name):\n-    return 'Hi ' + name\n+    return 'Hello ' + name\n"
        "@@ def main():\n-    greet('you')\n+    print(greet('you'))\n"
    )
    model = _run(tmp_path, [
        [
            _call("c1", type="create_file", path="docs/new.md", diff="+# New\n+\n+text\n"),
            _call("c2", type="update_file", path="app.py", diff=two_chunks),
            _call("c3", type="update_file", path="old.txt", move_to="moved/new.txt", diff=" one\n-two\n+2\n"),
            _call("c4", type="delete_file", path="gone.txt"),
            _call("c5", type="update_file", path="app.py", diff=" def nowhere():\n-    pass\n+    return 1\n"),
        ],
        [assistant_message("done")],
    ])
    outputs = _outputs(model)
    assert {k: (v["status"], v["output"]) for k, v in outputs.items() if k != "c5"} == {
        "c1": ("completed", "Created docs/new.md (3 lines)."),
        "c2": ("completed", "Updated app.py: 2 chunks at lines 2, 6 (+2 -2)."),
        "c3": ("completed", "Updated old.txt, moved to moved/new.txt: 1 chunk at line 1 (+1 -1)."),
        "c4": ("completed", "Deleted gone.txt."),
    }
    failed = outputs["c5"]
    assert failed["status"] == "failed"
    assert failed["output"].startswith("Failed to find expected lines in ")
    assert "def nowhere():" in failed["output"]
    assert failed["output"].endswith("This call was not applied; no file was changed.")
    assert {k: e.data for k, e in snapshot(tmp_path).items() if e.kind == "file"} == {
        "app.py": APP.replace("'Hi '", "'Hello '").replace("    greet('you')", "    print(greet('you'))").encode(),
        "docs/new.md": b"# New\n\ntext\n",
        "moved/new.txt": b"one\n2\n",
    }


def test_paths_leaving_the_root_are_refused(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("keep\n")
    (root / "link").symlink_to(outside)
    before = snapshot(tmp_path)
    model = _run(root, [
        [
            _call("c1", type="create_file", path="../planted.txt", diff="+x\n"),
            _call("c2", type="delete_file", path=str(outside / "secret.txt")),
            _call("c3", type="update_file", path="link/secret.txt", diff="-keep\n+lost\n"),
        ],
        [assistant_message("done")],
    ])
    outputs = _outputs(model)
    assert [outputs[c]["status"] for c in ("c1", "c2", "c3")] == ["failed"] * 3
    assert snapshot(tmp_path) == before


def test_the_editor_is_the_sdks_editor(tmp_path: Path) -> None:
    editor = Editor(tmp_path)
    assert isinstance(editor, ApplyPatchEditor)
    operation = ApplyPatchOperation(type="create_file", path="a.txt", diff="+a\n")
    result = editor.create_file(operation)
    assert result == ApplyPatchResult(status="completed", output="Created a.txt (1 line).")
    again = editor.create_file(operation)
    assert again.status == "failed" and "already exists" in (again.output or "")
    assert (tmp_path / "a.txt").read_text() == "a\n"


def test_policy_options_are_checked_when_the_editor_is_made(tmp_path: Path) -> None:
    assert Editor(tmp_path, add_existing="overwrite").policy.add_existing == "overwrite"
    with pytest.raises(PolicyValueError):
        Editor(tmp_path, add_existing="sometimes")


def test_an_output_is_cut_to_the_budget(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {n}\n" for n in range(1000)))
    operation = ApplyPatchOperation(type="update_file", path="a.txt", diff="-line 5x\n+x\n")
    assert Editor(tmp_path).max_characters == 50_000
    output = Editor(tmp_path, max_characters=120).update_file(operation).output or ""
    assert len(output) < 120 + 60
    assert output.endswith(" more lines.]") and output.startswith("Failed to find expected lines in a.txt")
    assert (tmp_path / "a.txt").read_text().startswith("line 0\n")


def test_the_editor_takes_an_encoding(tmp_path: Path) -> None:
    """Issue 27: the SDK's editor edits a Shift-JIS file on its decoded text, given the encoding."""
    (tmp_path / "a.txt").write_bytes("表示\nmessage = 1\n".encode("shift_jis"))
    editor = Editor(tmp_path, encoding="shift_jis")
    operation = ApplyPatchOperation(type="update_file", path="a.txt", diff="-表示\n+表示テスト\n")
    assert editor.update_file(operation).status == "completed"
    assert (tmp_path / "a.txt").read_bytes() == "表示テスト\nmessage = 1\n".encode("shift_jis")
    with pytest.raises(PolicyValueError):
        Editor(tmp_path, encoding="no-such-encoding")
