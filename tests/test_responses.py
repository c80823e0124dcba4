"""The Responses API's native apply_patch tool: `apply_calls` and `apply_patch calls`.

Data-driven: each `fixtures/responses/*.json` holds the calls, the tree before
(files and symlinks), the tree after (absent: unchanged) and every output.
`@ROOT@` and `@OUTSIDE@` stand for the root and a folder beside it that must
never change.
"""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from openai.types.responses import ResponseApplyPatchToolCall
from openai.types.responses.response_input_item import ApplyPatchCallOutput
from pydantic import TypeAdapter

from _support import FIXTURES, run_cli, snapshot
from apply_patch import PatchSyntaxError, PolicyValueError, make_patch, parse_patch
from apply_patch.responses import apply_calls, operation_to_patch, patch_to_operations

CASES = sorted((FIXTURES / "responses").glob("*.json"))
OUTSIDE_FILES = {"secret.txt": b"keep\n"}


def _load(path: Path, root: Path, outside: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    text = text.replace("@ROOT@", str(root)).replace("@OUTSIDE@", str(outside))
    case: dict[str, Any] = json.loads(text)
    return case


def _lay_out(case: dict[str, Any], root: Path, outside: Path) -> None:
    root.mkdir()
    outside.mkdir()
    for name, data in OUTSIDE_FILES.items():
        (outside / name).write_bytes(data)
    for name, content in case["before"].items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content.encode("utf-8"))
    for name, target in case.get("links", {}).items():
        os.symlink(target, root / name)


def _files(root: Path) -> dict[str, str]:
    tree = snapshot(root)
    return {k: e.data.decode("utf-8") for k, e in tree.items() if e.kind == "file"}


def _check(case: dict[str, Any], outputs: list[dict[str, Any]], before: object, root: Path, outside: Path) -> None:
    assert [o["call_id"] for o in outputs] == [e["call_id"] for e in case["outputs"]]
    for output, expected in zip(outputs, case["outputs"]):
        assert output["type"] == "apply_patch_call_output"
        assert output["status"] == expected["status"], output
        if "output" in expected:
            assert output["output"] == expected["output"]
        for part in expected.get("output_contains", []):
            assert part in output["output"], (part, output["output"])
    if "after" in case:
        assert _files(root) == case["after"]
    else:
        assert snapshot(root) == before, "the tree changed"
    assert {k: e.data for k, e in snapshot(outside).items()} == OUTSIDE_FILES


def _prepared(path: Path, tmp_path: Path) -> tuple[dict[str, Any], Path, Path, object]:
    """The case, its root and outside folder laid out, and the snapshot of the root."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    case = _load(path, root, outside)
    _lay_out(case, root, outside)
    return case, root, outside, snapshot(root)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixture_through_the_library(path: Path, tmp_path: Path) -> None:
    case, root, outside, before = _prepared(path, tmp_path)
    outputs = apply_calls(
        case["calls"], root, atomic=case["atomic"], dry_run=case["dry_run"], **case["options"]
    )
    _check(case, outputs, before, root, outside)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixture_through_the_executable(path: Path, tmp_path: Path) -> None:
    case, root, outside, before = _prepared(path, tmp_path)
    args = ["calls", "-C", str(root)]
    args += ["--no-atomic"] * (not case["atomic"]) + ["--dry-run"] * case["dry_run"]
    for name, value in case["options"].items():
        args += [f"--{name.replace('_', '-')}", value]
    done = run_cli(args, tmp_path, stdin=json.dumps(case["calls"]).encode())
    outputs = json.loads(done.stdout)
    assert done.returncode == (0 if all(o["status"] == "completed" for o in case["outputs"]) else 1)
    _check(case, outputs, before, root, outside)


def test_openai_sdk_objects_in_validated_outputs_out(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    raw = [
        {"type": "apply_patch_call", "id": "apc_1", "call_id": "call_1", "status": "completed",
         "operation": {"type": "update_file", "path": "a.txt", "diff": " one\n-two\n+2\n"}},
        {"type": "apply_patch_call", "id": "apc_2", "call_id": "call_2", "status": "completed",
         "operation": {"type": "create_file", "path": "b.txt", "diff": "+bee\n"},
         "caller": {"type": "program", "caller_id": "prog_1"}},
    ]
    calls = [ResponseApplyPatchToolCall.model_validate_json(json.dumps(item)) for item in raw]
    outputs = apply_calls(calls, tmp_path)
    items = [ApplyPatchCallOutput.model_validate(output) for output in outputs]
    assert [(i.call_id, i.status, i.output) for i in items] == [
        ("call_1", "completed", "Updated a.txt: 1 chunk at line 1 (+1 -1)."),
        ("call_2", "completed", "Created b.txt (1 line)."),
    ]
    assert outputs[1]["caller"] == {"type": "program", "caller_id": "prog_1"}
    assert "caller" not in outputs[0]
    from openai.types.responses import ResponseInputItemParam

    TypeAdapter(list[ResponseInputItemParam]).validate_python(outputs)
    assert (tmp_path / "a.txt").read_text() == "one\n2\n" and (tmp_path / "b.txt").read_text() == "bee\n"


def test_the_sdks_are_never_imported(tmp_path: Path) -> None:
    code = (
        "import sys, apply_patch.responses as r, apply_patch.openai_agents as a\n"
        "call = {'type': 'apply_patch_call', 'call_id': 'c', "
        "'operation': {'type': 'create_file', 'path': 'n.txt', 'diff': '+n'}}\n"
        "print(r.apply_calls([call], '.')[0]['status'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openai', 'agents', 'pydantic')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, timeout=60)
    assert done.stdout == b"completed\n[]\n", done.stderr


def test_items_that_are_not_calls_give_nothing(tmp_path: Path) -> None:
    assert apply_calls([{"type": "message"}, {"type": "reasoning"}], tmp_path) == []


def test_a_bad_policy_option_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    call = {"type": "apply_patch_call", "call_id": "c", "operation": {"type": "delete_file", "path": "x"}}
    with pytest.raises(PolicyValueError, match="Unknown policy option: colour"):
        apply_calls([call], tmp_path, colour="blue")


def test_operation_to_patch_gives_the_envelope() -> None:
    operation = {"type": "update_file", "path": "a.py", "diff": "@@ def f():\r\n-    pass\r\n+    return 1\r\n"}
    text = operation_to_patch(operation)
    assert text == (
        "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    pass\n+    return 1\n*** End Patch\n"
    )
    assert str(parse_patch(text)) == text
    assert operation_to_patch({"type": "delete_file", "path": "x"}).splitlines()[1] == "*** Delete File: x"
    with pytest.raises(PatchSyntaxError, match="the operation needs a path"):
        operation_to_patch({"type": "delete_file"})


def test_the_executable_reads_a_response_and_json_lines(tmp_path: Path) -> None:
    call = {"type": "apply_patch_call", "call_id": "c1",
            "operation": {"type": "create_file", "path": "n.txt", "diff": "+n\n"}}
    response = json.dumps({"id": "resp_1", "object": "response", "output": [call]})
    done = run_cli(["calls", "--dry-run"], tmp_path, stdin=response.encode())
    assert json.loads(done.stdout)[0]["output"] == "Would create n.txt (1 line)."
    lines = "\n".join([json.dumps({"type": "message"}), json.dumps(call)]) + "\n"
    done = run_cli(["calls"], tmp_path, stdin=lines.encode())
    assert done.returncode == 0 and (tmp_path / "n.txt").read_text() == "n\n"
    done = run_cli(["calls"], tmp_path, stdin=b"not json\n")
    assert done.returncode == 2 and b"line 1 is not JSON" in done.stderr
    assert snapshot(tmp_path).keys() == {"n.txt"}


def test_patch_to_operations_round_trips() -> None:
    text = (FIXTURES / "demo" / "change.patch").read_text(encoding="utf-8")
    operations = patch_to_operations(text)
    assert {o["type"] for o in operations} == {"create_file", "update_file", "delete_file"}
    joined = "".join(operation_to_patch(o).removeprefix("*** Begin Patch\n").removesuffix("*** End Patch\n") for o in operations)
    assert parse_patch(f"*** Begin Patch\n{joined}*** End Patch\n") == parse_patch(text)


_LINES = st.lists(st.sampled_from(["a", "b", "c", "", "  d", "e e", "x"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(old=_LINES, new=_LINES)
def test_make_patch_as_native_operations_gives_new(tmp_path_factory: pytest.TempPathFactory, old: list[str], new: list[str]) -> None:
    """Two texts, or a tree of them (creations, deletions and moves too)."""
    root = tmp_path_factory.mktemp("property")
    old_text, new_text = "".join(f"{line}\n" for line in old), "".join(f"{line}\n" for line in new)
    (root / "f.txt").write_text(old_text)
    patch = make_patch(old_text, new_text, path="f.txt")
    calls = [
        {"type": "apply_patch_call", "call_id": f"c{n}", "operation": operation}
        for n, operation in enumerate(patch_to_operations(patch))
    ]
    outputs = apply_calls(calls, root)
    assert all(o["status"] == "completed" for o in outputs), outputs
    assert (root / "f.txt").read_text() == new_text


_TREES = st.dictionaries(
    st.sampled_from(["a.txt", "b.txt", "d/c.txt"]),
    _LINES.map(lambda lines: "".join(f"{line}\n" for line in lines)),
    max_size=3,
)


@settings(max_examples=100, deadline=None)
@given(old=_TREES, new=_TREES)
def test_make_patch_of_trees_as_native_operations_gives_new(
    tmp_path_factory: pytest.TempPathFactory, old: dict[str, str], new: dict[str, str]
) -> None:
    root = tmp_path_factory.mktemp("trees")
    for name, content in old.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    operations = patch_to_operations(make_patch(old, new)) if old != new else []
    calls = [{"type": "apply_patch_call", "call_id": f"c{n}", "operation": op} for n, op in enumerate(operations)]
    outputs = apply_calls(calls, root)
    assert all(o["status"] == "completed" for o in outputs), outputs
    assert _files(root) == new
