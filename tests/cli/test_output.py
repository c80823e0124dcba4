"""Standard output whose reader goes away (`| head -1`, a closed pipe, `>&-`).

Nothing is claimed that did not happen, nothing is printed about it, no traceback,
and the exit code is what it would have been: 0 the patch applied (in a dry run:
would apply), 1 it did not (docs/cli.md, "Exit codes").
"""

import os
import subprocess
from pathlib import Path

import pytest

from _support import executable, snapshot

MANY = 3000  # files: a dry run's diff far larger than a pipe's buffer


def _big_patch(count: int = MANY) -> str:
    adds = "".join(f"*** Add File: f{i}.txt\n+line {i}\n" for i in range(count))
    return f"*** Begin Patch\n{adds}*** End Patch\n"


def _into_closed_pipe(args: list[str], cwd: Path, stdin: bytes = b"") -> "subprocess.CompletedProcess[bytes]":
    """Run the executable with stdout a pipe whose reader has already gone."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [executable(), *args], cwd=cwd, input=stdin, stdout=write, stderr=subprocess.PIPE, timeout=120
        )
    finally:
        os.close(write)


def _shell(script: str, cwd: Path) -> "subprocess.CompletedProcess[bytes]":
    """`script` in bash with pipefail, the executable as $AP: the exit code is apply_patch's."""
    return subprocess.run(
        ["bash", "-c", f"set -o pipefail; {script}"], cwd=cwd, capture_output=True, timeout=120,
        env={**os.environ, "AP": executable()},
    )


def test_dry_run_diff_into_head_claims_nothing(tmp_path: Path) -> None:
    """Issue 21: this said "the patch was applied, but its summary could not be printed"."""
    (tmp_path / "big.patch").write_text(_big_patch())
    before = snapshot(tmp_path)
    result = _shell('"$AP" --dry-run --diff < big.patch | head -1', tmp_path)
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == b"Dry run, nothing was written. The patch applies and would update:\n"
    assert snapshot(tmp_path) == before


def test_a_patch_that_does_not_apply_still_says_so_when_stdout_is_gone(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    before = snapshot(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.txt\n-two\n+2\n*** End Patch\n"
    result = _into_closed_pipe(["--dry-run", "--diff"], tmp_path, patch.encode())
    assert result.returncode == 1
    assert result.stderr.decode().endswith("Dry run: the patch does not apply; nothing was written.\n")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("args", [[], ["--diff"], ["--json"], ["--json", "--diff"]], ids=str)
def test_an_applied_patch_is_applied_and_exits_0_into_a_closed_pipe(args: list[str], tmp_path: Path) -> None:
    result = _into_closed_pipe(args, tmp_path, _big_patch(300).encode())
    assert (result.returncode, result.stderr) == (0, b"")
    assert len(os.listdir(tmp_path)) == 300


def test_stdout_closed_from_the_start(tmp_path: Path) -> None:
    """`apply_patch PATCH >&-`: Python starts with sys.stdout None."""
    result = subprocess.run(
        ["bash", "-c", 'exec "$AP" "$1" >&-', "-", _big_patch(5)], cwd=tmp_path,
        capture_output=True, timeout=60, env={**os.environ, "AP": executable()},
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert len(os.listdir(tmp_path)) == 5


def test_warnings_with_stderr_closed_still_exit_0(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one  \n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n-one\n+1\n*** End Patch\n"  # a fuzzy match: a warning
    result = subprocess.run(
        ["bash", "-c", 'exec "$AP" "$1" 2>&-', "-", patch], cwd=tmp_path,
        capture_output=True, timeout=60, env={**os.environ, "AP": executable()},
    )
    assert result.returncode == 0, result
    assert (tmp_path / "a.txt").read_text() == "1\n"


def test_a_full_disk_in_a_dry_run_does_not_say_applied(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [executable(), "--dry-run", "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch"],
            cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, timeout=60,
        )  # fmt: skip
    assert result.returncode == 0
    assert result.stderr.decode() == (
        "apply_patch: the patch applies (dry run: nothing was written), but its summary could "
        "not be printed: No space left on device (os error 28)\n"
    )
    assert snapshot(tmp_path) == {}


def _log(tmp_path: Path, count: int = 3) -> Path:
    log = tmp_path / "session.log"
    call = "".join(f"apply_patch <<'EOF'\n{_big_patch(200).replace('f', f'p{n}_')}EOF\n" for n in range(count))
    log.write_text(call)
    return log


def test_extract_into_head_says_nothing(tmp_path: Path) -> None:
    """Issue 21: this said "internal error: BrokenPipeError ... The patch was not applied"."""
    _log(tmp_path)
    before = snapshot(tmp_path)
    for args in ("", "--json"):
        result = _shell(f'"$AP" extract {args} session.log | head -1', tmp_path)
        assert (result.returncode, result.stderr) == (0, b""), args
        assert len(result.stdout.splitlines()) == 1
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("args", [[], ["--json"]], ids=["text", "json"])
def test_extract_apply_applies_every_patch_into_a_closed_pipe(args: list[str], tmp_path: Path) -> None:
    log = _log(tmp_path)
    (tmp_path / "out").mkdir()
    result = _into_closed_pipe(["extract", "--apply", "-C", "out", *args, str(log)], tmp_path)
    assert (result.returncode, result.stderr) == (0, b"")
    assert len(os.listdir(tmp_path / "out")) == 600


def test_diff_convert_and_help_into_a_closed_pipe(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    for i in range(2000):
        (tmp_path / "new" / f"f{i}.txt").write_text(f"{i}\n")
    before = snapshot(tmp_path)
    diff = _into_closed_pipe(["diff", "old", "new"], tmp_path)
    assert (diff.returncode, diff.stderr) == (0, b"")
    unified = "".join(f"--- /dev/null\n+++ b/f{i}.txt\n@@ -0,0 +1 @@\n+{i}\n" for i in range(2000))
    convert = _into_closed_pipe(["convert"], tmp_path, unified.encode())
    assert (convert.returncode, convert.stderr) == (0, b"")
    for args in (["--help"], ["extract", "--help"], ["--version"]):
        result = _into_closed_pipe(args, tmp_path)
        assert (result.returncode, result.stderr) == (0, b""), args
    assert snapshot(tmp_path) == before


def test_a_full_disk_under_a_subcommand_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """Not a closed pipe: the listing was not delivered, and nothing claims a patch."""
    _log(tmp_path)
    before = snapshot(tmp_path)
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [executable(), "extract", "session.log"], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
            timeout=60,
        )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "apply_patch: the output could not be written: No space left on device (os error 28). "
        "No file was changed.\n"
    )
    assert snapshot(tmp_path) == before


INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"test","version":"1"}}}\n'
)


def test_serve_stops_quietly_when_the_client_closes_its_end(tmp_path: Path) -> None:
    result = _into_closed_pipe(["serve"], tmp_path, INITIALIZE)
    assert (result.returncode, result.stderr) == (0, b"")
    closed = subprocess.run(
        ["bash", "-c", 'exec "$AP" serve >&-'], cwd=tmp_path, input=INITIALIZE, capture_output=True,
        timeout=60, env={**os.environ, "AP": executable()},
    )  # fmt: skip
    assert closed.returncode == 2
    assert closed.stderr == (
        b"apply_patch serve: stdin or stdout is closed: an MCP client talks to the server through both\n"
    )
    assert snapshot(tmp_path) == {}
