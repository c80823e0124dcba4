"""Real agent logs (fixtures/real_logs/, provenance in PROVENANCE.md) replayed by the executable.

Each log records what its calls did to the files: an `opencode export` the
`before` and `after` text of every file an `apply_patch` part changed
(`state.metadata.files`, or an `edit` part's `filediff`); a Claude Code
transcript each Edit's `originalFile` (its `toolUseResult`) and each Write's
`content`. From those records alone (not from this engine) the tests lay out
the files as they were before a call, replay it, and check that every file
ends as the log says it did: every recorded call replays to its logged result.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES, run_cli, snapshot
from apply_patch import FoundEdits, FoundPatch, apply_patch, extract_patches
from apply_patch.edits import apply_edits

LOGS = FIXTURES / "real_logs"


@dataclass(frozen=True)
class Change:
    """What one recorded call did to one file: its text before and after (None: absent)."""

    path: str
    before: str | None
    after: str | None


Call = list[Change]


def _relative(path: str, base: str) -> str:
    """`path` (absolute, POSIX or Windows) relative to the session's folder `base`, with `/`."""
    flat, root = path.replace("\\", "/"), base.replace("\\", "/").rstrip("/") + "/"
    return flat[len(root) :] if flat.casefold().startswith(root.casefold()) else path


def _opencode(document: dict[str, Any]) -> list[Call]:
    """The changes of each completed edit-tool part of an `opencode export`, in order."""
    base = document["info"]["directory"]
    calls: list[Call] = []
    for message in document["messages"]:
        for part in message["parts"]:
            state = part.get("state") or {}
            if part.get("type") != "tool" or part.get("tool") not in ("apply_patch", "edit", "write"):
                continue
            if state.get("status") != "completed":
                continue
            metadata = state.get("metadata") or {}
            call: Call = []
            for file in metadata.get("files") or []:
                path = _relative(file["filePath"], base)
                old = None if file["type"] == "add" else file["before"]
                if file["type"] == "move":
                    call += [Change(path, old, None), Change(_relative(file["movePath"], base), None, file["after"])]
                else:
                    call.append(Change(path, old, None if file["type"] == "delete" else file["after"]))
            if "filediff" in metadata:
                diff = metadata["filediff"]
                call.append(Change(_relative(diff["file"], base), diff["before"], diff["after"]))
            if part["tool"] == "write":
                given = state["input"]
                call.append(Change(_relative(given["filePath"], base), None, given["content"]))
            calls.append(call)
    return calls


def _claude_code(lines: list[dict[str, Any]]) -> list[Call]:
    """The change of each Edit and Write of a Claude Code transcript whose result it recorded."""
    base = next(r["cwd"] for r in lines if "cwd" in r)
    calls: list[Call] = []
    for record in lines:
        result = record.get("toolUseResult")
        if not isinstance(result, dict) or "filePath" not in result:
            continue
        path = _relative(result["filePath"], base)
        if "oldString" in result:  # an Edit: the file before it, and the replacement it made
            count = -1 if result.get("replaceAll") else 1
            after = result["originalFile"].replace(result["oldString"], result["newString"], count)
            calls.append([Change(path, result["originalFile"], after)])
        else:  # a Write
            calls.append([Change(path, result.get("originalFile"), result["content"])])
    return calls


def _recorded(path: Path) -> list[Call]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return _opencode(json.loads(text))
    return _claude_code([json.loads(line) for line in text.splitlines() if line.startswith("{")])


def _files(root: Path) -> dict[str, str]:
    return {path: entry.data.decode("utf-8") for path, entry in snapshot(root).items() if entry.kind == "file"}


LOGS_OF_CALLS = {
    "opencode_curious_harbor.json": 10,  # 12 apply_patch calls, 2 of them failed (status "error")
    "opencode_nimble_pixel.json": 1,
    "claude_code_writes.jsonl": 6,
}


@pytest.mark.parametrize(("name", "count"), LOGS_OF_CALLS.items())
def test_each_call_gives_its_logged_result(name: str, count: int, tmp_path: Path) -> None:
    """Each call, run alone on the files as the log says they were just before it, leaves
    them as the log says it did (files may change between calls by commands not replayed:
    `bun add` rewrites package.json)."""
    calls = _recorded(LOGS / name)
    listed = extract_patches((LOGS / name).read_text(encoding="utf-8"))
    found = [item for item in listed if item.logged_outcome != "failed"]  # they changed nothing
    assert len(calls) == len(found) == count
    for number, (call, item) in enumerate(zip(calls, found), 1):
        root = tmp_path / str(number)
        root.mkdir()
        for change in call:
            if change.before is not None:
                (root / change.path).parent.mkdir(parents=True, exist_ok=True)
                (root / change.path).write_bytes(change.before.encode("utf-8"))
        if isinstance(item, FoundEdits):
            apply_edits(item.edits, root, workdir=item.workdir)
        else:
            assert isinstance(item, FoundPatch), item
            apply_patch(item.parsed, root, workdir=item.workdir)
        assert _files(root) == {c.path: c.after for c in call if c.after is not None}, (name, number)


@pytest.mark.parametrize("name", ["opencode_nimble_pixel.json", "claude_code_writes.jsonl"])
def test_the_whole_log_replays_to_its_logged_result(name: str, tmp_path: Path) -> None:
    """Logs whose files changed by their edit calls only: `extract --apply` from the first
    recorded state ends in the last one."""
    before: dict[str, str] = {}
    after: dict[str, str | None] = {}
    for call in _recorded(LOGS / name):
        for change in call:
            if change.path not in before and change.path not in after and change.before is not None:
                before[change.path] = change.before
            after[change.path] = change.after
    for path, text in before.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(text.encode("utf-8"))
    result = run_cli(["extract", "--apply", str(LOGS / name)], tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert _files(tmp_path) == {path: text for path, text in after.items() if text is not None}


def test_the_extraction_lists_every_call_with_its_logged_outcome(tmp_path: Path) -> None:
    """All 12 apply_patch calls of the session are in the export, and in `extract --json`:
    the 2 that failed as `failed`; the plain listing leaves those 2 out."""
    path = LOGS / "opencode_curious_harbor.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    parts = [p for m in document["messages"] for p in m["parts"] if p.get("tool") == "apply_patch"]
    assert [p["state"]["status"] for p in parts].count("error") == 2 and len(parts) == 12
    listed = json.loads(run_cli(["extract", "--json", str(path)], tmp_path).stdout)
    assert [item["patch"] for item in listed] == [p["state"]["input"]["patchText"] for p in parts]
    outcomes = {"completed": "applied", "error": "failed"}
    assert [item["logged_outcome"] for item in listed] == [outcomes[p["state"]["status"]] for p in parts]
    assert {item["workdir"] for item in listed} == {"."}
    plain = run_cli(["extract", str(path)], tmp_path).stdout.decode()
    assert plain.count("# patch ") == 10 and "# patch 1 of 10:" in plain


def test_edits_outside_the_session_folder_are_refused_and_nothing_is_written(tmp_path: Path) -> None:
    """The Claude Code session ran in .../session-share/e2e-tests and edited files in a pytest
    temporary folder elsewhere: absolute paths outside the session's folder name no file
    under the root, and the replay stops at the first, with nothing written."""
    calls = _recorded(LOGS / "claude_code_edit_variants.jsonl")
    assert len(calls) == 4 and calls[0][0].path.startswith("/private/var/folders/")
    (tmp_path / "edit_basic.txt").write_text(str(calls[0][0].before))
    before = snapshot(tmp_path)
    result = run_cli(["extract", "--apply", str(LOGS / "claude_code_edit_variants.jsonl")], tmp_path)
    assert result.returncode == 1
    stderr = result.stderr.decode()
    assert "# patch 1 of 4" in stderr and "is outside the root folder" in stderr
    assert stderr.endswith("Stopped at patch 1 of 4: 0 applied, 4 not applied.\n")
    assert snapshot(tmp_path) == before
