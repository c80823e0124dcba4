"""`apply_patch extract` as a user meets it: listing, usage errors, stdin, folders."""

import json
import subprocess
import sys
from pathlib import Path

from _support import FIXTURES, POLICY_OPTIONS, files_of, run_cli, snapshot

TRANSCRIPTS = FIXTURES / "transcripts"
USAGE = (
    b"usage: apply_patch extract [--json] [FILE]\n"
    b"       apply_patch extract --apply [--json] [--dry-run] [-C DIR] [POLICY OPTIONS] [FILE]\n"
)
PATCH = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-old\n+new\n*** End Patch"


def test_listing_prints_each_patch_under_a_header(tmp_path: Path) -> None:
    result = run_cli(["extract", str(TRANSCRIPTS / "broken_then_good.log")], tmp_path)
    assert result.returncode == 0
    assert result.stderr == b""
    assert result.stdout.decode() == (
        "# patch 1 of 2: line 1 (terminal), folder .: "
        "Invalid patch: The last line of the patch must be '*** End Patch'\n"
        "*** Begin Patch\n*** Update File: README.md\n@@\n"
        "-A tiny shopping cart.\n+A tiny shopping cart!\n"
        "# patch 2 of 2: line 9 (terminal), folder .\n"
        "*** Begin Patch\n*** Update File: README.md\n@@\n"
        "-A tiny shopping cart.\n+A tiny shopping cart!\n*** End Patch\n"
    )


def test_stdin_when_no_file(tmp_path: Path) -> None:
    text = f"$ cd docs && apply_patch '{PATCH}'\n".encode()
    result = run_cli(["extract", "--json"], tmp_path, stdin=text)
    assert result.returncode == 0
    assert json.loads(result.stdout) == [
        {"schema": 2, "patch": PATCH, "workdir": "docs", "line": 1, "source": "terminal", "error": None,
         "logged_outcome": "unknown"}
    ]


def test_nothing_found_on_empty_stdin(tmp_path: Path) -> None:
    result = run_cli(["extract"], tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1, b"", b"no apply_patch call found\n"
    )


def test_nothing_found_with_json_prints_an_empty_list(tmp_path: Path) -> None:
    result = run_cli(["extract", "--json"], tmp_path, stdin=b"echo hello\n")
    assert (result.returncode, result.stdout, result.stderr) == (
        1, b"[]\n", b"no apply_patch call found\n"
    )


def test_dry_run_without_apply_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli(["extract", "--dry-run"], tmp_path, stdin=b"apply_patch '" + PATCH.encode() + b"'\n")
    assert (result.returncode, result.stdout, result.stderr) == (
        2, b"", b"apply_patch extract: error: --dry-run needs --apply\n"
    )


def test_nothing_found_with_apply_and_json_prints_an_empty_list(tmp_path: Path) -> None:
    result = run_cli(["extract", "--apply", "--json"], tmp_path, stdin=b"echo hello\n")
    assert (result.returncode, result.stdout, result.stderr) == (
        1, b"[]\n", b"no apply_patch call found\n"
    )


def test_unreadable_file(tmp_path: Path) -> None:
    result = run_cli(["extract", "missing.log"], tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr == b"Error: Failed to read missing.log: No such file or directory\n"


def test_help(tmp_path: Path) -> None:
    result = run_cli(["extract", "--help"], tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith(USAGE)
    for option in ("--dry-run", "--root", "--codex", "--unique", *POLICY_OPTIONS):
        assert option.encode() in result.stdout


def test_python_dash_m(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "apply_patch", "extract", "--json"],
        cwd=tmp_path, input=b"apply_patch '" + PATCH.encode() + b"'\n",
        capture_output=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0
    assert [item["line"] for item in json.loads(result.stdout)] == [1]


def test_an_absolute_folder_inside_the_root_is_used(tmp_path: Path) -> None:
    """A session run on this machine: `cd /abs/path` into the root's own folders."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("old\n")
    transcript = tmp_path.parent / f"{tmp_path.name}.log"
    transcript.write_text(f"$ cd {tmp_path}/docs\n$ apply_patch '{PATCH}'\n")
    result = run_cli(["extract", "--apply", str(transcript)], tmp_path)
    assert result.stderr == b""
    assert result.stdout.decode() == (
        f"# patch 1 of 1: line 2 (terminal), folder {tmp_path}/docs\n"
        "Success. Updated the following files:\nM notes.txt\n"
    )
    assert files_of(snapshot(tmp_path)) == {"docs/notes.txt": b"new\n"}


def test_listing_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("old\n")
    before = snapshot(tmp_path)
    result = run_cli(["extract"], tmp_path, stdin=f"apply_patch '{PATCH}'\n".encode())
    assert result.returncode == 0
    assert snapshot(tmp_path) == before


def test_apply_with_codex_reads_each_patch_as_the_reference(tmp_path: Path) -> None:
    """`extract --apply --codex` applies what the reference would: a logged call whose patch
    has two `@@` lines in a row (the reference refuses it at the second) is refused with the
    reference's message, nothing written; without `--codex` it applies."""
    log = (
        "$ apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: a.py\n@@ class A:\n@@     def f(self):\n"
        "-        return 1\n+        return 2\n*** End Patch\nEOF\n"
    )
    (tmp_path / "log.txt").write_text(log)
    (tmp_path / "a.py").write_text("class A:\n    def f(self):\n        return 1\n")
    before = snapshot(tmp_path)
    refused = run_cli(["extract", "--apply", "--codex", "log.txt"], tmp_path)
    assert refused.returncode == 1
    assert "Invalid patch hunk on line 4: Unexpected line found in update hunk: '@@     def f(self):'" in refused.stderr.decode()
    assert snapshot(tmp_path) == before
    applied = run_cli(["extract", "--apply", "log.txt"], tmp_path)
    assert applied.returncode == 0, applied.stderr.decode()
    assert (tmp_path / "a.py").read_text() == "class A:\n    def f(self):\n        return 2\n"
