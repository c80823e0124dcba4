"""Paths of real logs (issue 23, item 4): Windows and POSIX absolute paths, read against the session.

Through `extract_patches` and the installed executable (`extract --apply`):
a Windows path (drive letter, backslashes, `c:/` in another letter case, UNC,
`\\\\?\\`) is absolute wherever the log is read; inside the session's recorded
folder (also a Windows one) it is relative to it; outside, it is refused and
never becomes a file named `C:\\...`. An absolute POSIX path inside the
session's folder, in a Codex patch too, is relative to it.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from _support import Entry, run_cli, snapshot
from apply_patch import BrokenPatch, FilePolicyError, FoundEdits, FoundPatch, extract_patches
from apply_patch.edits import CreateFile, apply_edits


def _claude(cwd: str | None, *uses: dict[str, Any]) -> str:
    head = {} if cwd is None else {"cwd": cwd}
    records = [{"type": "user", **head, "message": {"role": "user", "content": "go"}}]
    records += [
        {"type": "assistant", **head, "message": {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{n}", **use}]}}
        for n, use in enumerate(uses, 1)
    ]
    return "".join(json.dumps(r) + "\n" for r in records)


def _write(path: str, content: str = "x\n") -> dict[str, Any]:
    return {"name": "Write", "input": {"file_path": path, "content": content}}


def _codex(cwd: str, *calls: tuple[str, dict[str, Any]]) -> str:
    records: list[dict[str, Any]] = [{"type": "session_meta", "payload": {"id": "s", "cwd": cwd}}]
    for n, (kind, fields) in enumerate(calls, 1):
        records.append({"type": "response_item", "payload": {"type": kind, "call_id": f"call_{n}", **fields}})
    return "".join(json.dumps(r) + "\n" for r in records)


def _paths(text: str) -> list[str]:
    found = extract_patches(text)
    assert all(isinstance(item, FoundEdits) for item in found), found
    return [edit.path for item in found if isinstance(item, FoundEdits) for edit in item.edits]


@pytest.mark.parametrize(
    ("cwd", "path", "relative"),
    [
        ("C:\\Users\\me\\repo", "C:\\Users\\me\\repo\\backend\\x.go", "backend/x.go"),
        ("C:\\Users\\me\\repo", "c:/users/ME/repo/backend/x.go", "backend/x.go"),  # letter case, slashes
        ("C:/Users/me/repo/", "C:\\Users\\me\\repo\\x.go", "x.go"),
        ("C:\\Users\\me\\repo", "C:\\Users\\me\\repo\\sub\\..\\x.go", "x.go"),
        ("\\\\server\\share\\repo", "\\\\server\\share\\repo\\src\\a.cs", "src/a.cs"),  # UNC
        ("C:\\Users\\me\\repo", "\\\\?\\C:\\Users\\me\\repo\\a.txt", "a.txt"),  # extended-length
        ("C:\\Users\\me\\repo", "src\\app.go", "src/app.go"),  # relative, Windows separators
        ("/home/me/repo", "/home/me/repo/src/a.py", "src/a.py"),
    ],
)
def test_a_path_inside_the_session_folder_is_relative_to_it(cwd: str, path: str, relative: str) -> None:
    assert _paths(_claude(cwd, _write(path))) == [relative]


@pytest.mark.parametrize(
    ("cwd", "path"),
    [
        ("C:\\Users\\me\\repo", "D:\\other\\x.go"),
        ("C:\\Users\\me\\repo", "C:\\Users\\me\\repository\\x.go"),  # a sibling whose name starts alike
        (None, "C:\\Users\\me\\repo\\x.go"),  # no folder recorded
        ("/home/me/repo", "C:\\Users\\me\\repo\\x.go"),
    ],
)
def test_a_windows_path_outside_the_session_is_refused_and_writes_nothing(cwd: str | None, path: str, tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "log.jsonl").write_text(_claude(cwd, _write(path)))
    for dry_run in ([], ["--dry-run"]):
        result = run_cli(["extract", "--apply", *dry_run, str(tmp_path / "log.jsonl")], root)
        assert result.returncode == 1
        assert "is a Windows absolute path, which names nothing here" in result.stderr.decode()
        assert snapshot(root) == {}


def test_the_library_refuses_a_windows_path_as_a_file_name(tmp_path: Path) -> None:
    with pytest.raises(FilePolicyError, match="Windows absolute path"):
        apply_edits([CreateFile("C:\\Users\\me\\x.txt", "x\n", overwrite=True)], tmp_path)
    assert snapshot(tmp_path) == {}


def _tree(root: Path) -> dict[str, Entry]:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("one\n")
    (root / "sub" / "b.txt").write_text("two\n")
    return snapshot(root)


def _update(path: str, old: str, new: str) -> str:
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch"


@pytest.mark.parametrize("cwd", ["/home/me/repo", "C:\\Users\\me\\repo"])
def test_a_codex_patch_with_absolute_paths_inside_the_session_applies(cwd: str, tmp_path: Path) -> None:
    sep = "\\" if cwd.startswith("C:") else "/"
    log = _codex(
        cwd,
        ("custom_tool_call", {"name": "apply_patch", "input": _update(f"{cwd}{sep}a.txt", "one", "ONE")}),
        ("function_call", {"name": "shell", "arguments": json.dumps({
            "command": ["apply_patch", _update(f"{cwd}{sep}sub{sep}b.txt", "two", "TWO")], "workdir": f"{cwd}{sep}sub"})}),
    )  # fmt: skip
    found = extract_patches(log)
    assert [(item.workdir, type(item).__name__) for item in found] == [(".", "FoundPatch"), ("sub", "FoundPatch")]
    assert [op.path for item in found if isinstance(item, FoundPatch) for op in item.parsed.operations] == ["a.txt", "b.txt"]
    root = tmp_path / "root"
    _tree(root)
    (tmp_path / "log.jsonl").write_text(log)
    result = run_cli(["extract", "--apply", str(tmp_path / "log.jsonl")], root)
    assert result.returncode == 0, result.stderr
    assert (root / "a.txt").read_text() == "ONE\n" and (root / "sub" / "b.txt").read_text() == "TWO\n"


def test_a_codex_patch_with_a_windows_path_outside_the_session_is_broken(tmp_path: Path) -> None:
    log = _codex("C:\\Users\\me\\repo", ("custom_tool_call", {"name": "apply_patch", "input": _update("D:\\x\\a.txt", "one", "ONE")}))
    (item,) = extract_patches(log)
    assert isinstance(item, BrokenPatch)
    assert "the path D:\\x\\a.txt is a Windows absolute path outside the session's folder" in str(item.error)
    root = tmp_path / "root"
    before = _tree(root)
    (tmp_path / "log.jsonl").write_text(log)
    assert run_cli(["extract", "--apply", str(tmp_path / "log.jsonl")], root).returncode == 1
    assert snapshot(root) == before


def test_a_windows_working_folder_outside_the_session_is_refused(tmp_path: Path) -> None:
    shell = {"command": ["apply_patch", _update("a.txt", "one", "ONE")], "workdir": "D:\\elsewhere"}
    log = _codex("C:\\Users\\me\\repo", ("function_call", {"name": "shell", "arguments": json.dumps(shell)}))
    (item,) = extract_patches(log)
    assert item.workdir == "D:\\elsewhere"
    root = tmp_path / "root"
    before = _tree(root)
    (tmp_path / "log.jsonl").write_text(log)
    result = run_cli(["extract", "--apply", str(tmp_path / "log.jsonl")], root)
    assert result.returncode == 1 and "is outside the root folder" in result.stderr.decode()
    assert snapshot(root) == before


def test_a_failed_call_is_listed_with_its_logged_outcome(tmp_path: Path) -> None:
    """Claude Code's `is_error` result, Codex's non-zero exit code: the call changed nothing;
    it is listed (people mine logs for every patch a model wrote) as `failed`."""
    uses = _claude("/home/me/repo", _write("/home/me/repo/a.txt", "kept\n"), _write("/home/me/repo/b.txt", "refused\n"))
    error = {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "is_error": True, "content": "denied"}]}}
    assert _paths(uses + json.dumps(error) + "\n") == ["a.txt", "b.txt"]
    found = extract_patches(uses + json.dumps(error) + "\n")
    assert [item.logged_outcome for item in found] == ["unknown", "failed"]
    failed = json.dumps({"output": "Failed to find expected lines", "metadata": {"exit_code": 1}})
    log = _codex(
        "/home/me/repo",
        ("custom_tool_call", {"name": "apply_patch", "input": _update("a.txt", "one", "ONE")}),
        ("custom_tool_call_output", {"output": failed}),
    )
    log = log.replace('"call_id": "call_2"', '"call_id": "call_1"')  # the output answers the call
    assert [item.logged_outcome for item in extract_patches(log)] == ["failed"]
    worked = log.replace('\\"exit_code\\": 1', '\\"exit_code\\": 0')
    assert worked != log
    assert [item.logged_outcome for item in extract_patches(worked)] == ["applied"]
