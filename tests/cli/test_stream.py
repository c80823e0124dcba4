"""`apply_patch --stream`: verdicts printed while stdin is still open, through the installed executable."""

from __future__ import annotations

import json
import os
import select
import subprocess
import time
from pathlib import Path

from _support import executable, run_cli, snapshot

LINES = "".join(f"line{i}\n" for i in range(1, 10_001))
_DEADLINE = 60.0  # seconds for one verdict line: a bound on a loaded machine, never waited out


def _read_line(process: subprocess.Popen[bytes]) -> bytes:
    """The next line of the process's stdout, within the deadline (select, never a sleep)."""
    assert process.stdout is not None
    fd, data = process.stdout.fileno(), b""
    end = time.monotonic() + _DEADLINE
    while not data.endswith(b"\n"):
        left = end - time.monotonic()
        assert left > 0, f"no verdict within {_DEADLINE}s; read so far: {data!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            piece = os.read(fd, 1)
            assert piece, f"stdout closed before a verdict; read so far: {data!r}"
            data += piece
    return data


def test_the_failing_chunk_is_reported_before_the_rest_arrives_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(LINES)
    before = snapshot(tmp_path)
    with subprocess.Popen(
        [executable(), "--stream", "--json"], cwd=tmp_path,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    ) as process:  # fmt: skip
        assert process.stdin is not None
        process.stdin.write(b"*** Begin Patch\n*** Update File: big.py\n@@\n line5000\n-not there\n")
        process.stdin.flush()
        verdict = json.loads(_read_line(process))  # stdin still open: the chunk is not complete
        assert verdict["verdict"] == "not_found"
        assert (verdict["path"], verdict["patch_line"], verdict["file_lines"]) == ("big.py", 3, None)
        assert "Failed to find expected lines in big.py" in verdict["message"]
        assert process.poll() is None  # still reading the rest
        assert snapshot(tmp_path) == before
        out, _ = process.communicate(b"+new\n line5002\n*** End Patch\n", timeout=_DEADLINE)
    assert process.returncode == 1
    assert json.loads(out)["error"]["kind"] == "context_not_found"
    assert snapshot(tmp_path) == before


def test_placed_chunks_then_the_result(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("one\ntwo\nthree\n")
    patch = b"*** Begin Patch\n*** Update File: a.py\n@@\n one\n-two\n+2\n three\n*** End Patch\n"
    result = run_cli(["--stream", "--json"], tmp_path, stdin=patch)
    assert result.returncode == 0, result.stderr
    first, _, rest = result.stdout.partition(b"\n")
    assert json.loads(first) == {
        "verdict": "placed", "path": "a.py", "patch_line": 3, "file_lines": [1, 3],
        "message": "the chunk at patch line 3 placed at line 1 of a.py",
    }  # fmt: skip
    assert json.loads(rest)["ok"] is True
    assert (tmp_path / "a.py").read_text() == "one\n2\nthree\n"


def test_stream_refuses_a_patch_argument_and_other_formats(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("one\n")
    before = snapshot(tmp_path)
    for args in (["--stream", "PATCH"], ["--stream", "--format", "unified-diff"]):
        result = run_cli(args, tmp_path, stdin=b"*** Begin Patch\n*** End Patch\n")
        assert result.returncode == 2
        assert result.stderr.count(b"\n") == 1 and b"--stream" in result.stderr
    assert snapshot(tmp_path) == before


def test_stream_with_empty_stdin_is_a_usage_error(tmp_path: Path) -> None:
    result = run_cli(["--stream"], tmp_path)
    assert result.returncode == 2
    assert b"no patch" in result.stderr
