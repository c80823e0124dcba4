"""Codex's code mode: patches given to `tools.apply_patch(...)` in an `exec` tool's
JavaScript, and raw patches sent as a whole `exec` body, found in a log and replayed
(fixtures/code_mode/, constructed: its README says from what)."""

import json
from pathlib import Path

import pytest

from _support import FIXTURES, copy_tree, run_cli, snapshot
from apply_patch import FoundPatch, extract_patches

FOLDER = FIXTURES / "code_mode"
LOG = FOLDER / "codex_code_mode.jsonl"
PATCH = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"


def _exec(body: str) -> str:
    record = {"type": "response_item", "payload": {"type": "custom_tool_call", "name": "exec", "call_id": "c", "input": body}}
    return json.dumps(record) + "\n"


def test_every_call_of_the_log_is_found_with_its_outcome() -> None:
    found = extract_patches(LOG.read_text(encoding="utf-8"))
    assert [(item.line, item.source, item.logged_outcome) for item in found] == [
        (4, "log", "applied"), (6, "log", "applied"), (8, "log", "failed"), (10, "log", "applied"),
    ]  # fmt: skip
    assert all(isinstance(item, FoundPatch) for item in found)
    assert '"quotes" and a `backtick`' in found[1].patch  # the template literal's escape undone


def test_the_log_replays_to_its_result(tmp_path: Path) -> None:
    copy_tree(FOLDER / "before", tmp_path)
    result = run_cli(["extract", "--apply", str(LOG)], tmp_path)
    assert result.returncode == 0, result.stderr
    expected = tmp_path.parent / "expected"
    copy_tree(FOLDER / "after", expected)
    assert snapshot(tmp_path) == snapshot(expected)


@pytest.mark.parametrize(
    ("body", "paths"),
    [
        (f"await tools.apply_patch({json.dumps(PATCH)});", ["a.txt"]),
        (f"await tools.apply_patch('{PATCH.encode('unicode_escape').decode()}')", ["a.txt"]),
        (f"await tools['apply_patch']({{patch: `{PATCH}`}})", ["a.txt"]),
        (f"const p = {json.dumps(PATCH)};\nawait tools.apply_patch(p);", []),  # a variable: not followed
        (f"await tools.apply_patch(`${{header}}{PATCH}`)", []),  # a substitution: not the patch
        (f"// await tools.apply_patch({json.dumps(PATCH)})\nconsole.log(1)", []),  # a comment
        (f"console.log('tools.apply_patch({PATCH!r})')", []),  # inside a string
        (f"await mytools.apply_patch({json.dumps(PATCH)})", []),  # another object's method
        (PATCH, ["a.txt"]),  # a raw patch as the whole body
        ("\u00e9" * 3 + "\\", []),  # no call, an odd ending: nothing, no error
    ],
)
def test_exec_bodies(body: str, paths: list[str]) -> None:
    found = extract_patches(_exec(body))
    assert [op.path for item in found if isinstance(item, FoundPatch) for op in item.parsed.operations] == paths


def test_an_instruction_or_developer_text_is_never_a_patch() -> None:
    """Codex's own instructions hold an example patch: only the assistant's texts are replies."""
    example = {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": PATCH}]}
    system = {"role": "system", "content": PATCH}
    tool = {"role": "tool", "tool_call_id": "x", "content": PATCH}
    user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": PATCH}]}
    log = "".join(json.dumps(r) + "\n" for r in (example, system, tool, user))
    assert extract_patches(log) == ()
    reply = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": f"Here:\n```diff\n{PATCH}```\nDone."}]}
    found = extract_patches(log + json.dumps(reply) + "\n")
    assert [(item.line, item.source) for item in found] == [(5, "reply")]
