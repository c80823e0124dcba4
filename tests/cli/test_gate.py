"""The review gate holds what it shows (issue 33, classes 3 and 5): no raw control
sequence on a terminal; `accept` checks each file as the plan resolves it (links
included) and writes exactly the bytes reviewed (`--encoding` kept, a `.gitattributes`
added since refused); `accept` racing `reject` tells the truth; a bad pending record is
skipped with a warning naming it, and the others work; a record of the previous version
is read."""

import json
import os
import pty
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from _support import executable, run_cli, snapshot

ESC_PATCH = "*** Begin Patch\n*** Add File: evil.txt\n+safe\x1b[2K\x1b[1Ahidden\n*** End Patch\n"


def _stage(root: Path, patch: bytes, *options: str) -> str:
    staged = run_cli(["--stage", *options], root, patch)
    assert staged.returncode == 0, staged.stderr
    return staged.stdout.decode("utf-8", "replace").split()[1].rstrip(";")


def _on_terminal(args: list[str], cwd: Path, stdin: bytes = b"") -> bytes:
    """What the executable writes to a terminal (a pseudo-terminal's other end)."""
    main, sub = pty.openpty()
    try:
        process = subprocess.Popen([executable(), *args], cwd=cwd, stdin=subprocess.PIPE, stdout=sub, stderr=subprocess.PIPE)
        os.close(sub)
        got: list[bytes] = []

        def drain() -> None:
            while True:
                try:
                    part = os.read(main, 65536)
                except OSError:  # the other end closed
                    return
                if not part:
                    return
                got.append(part)

        reader = threading.Thread(target=drain)
        reader.start()
        process.communicate(stdin, timeout=120)
        reader.join(timeout=30)
        return b"".join(got)
    finally:
        os.close(main)


def test_stage_pending_and_show_escape_control_sequences_on_a_terminal(tmp_path: Path) -> None:
    staged = _on_terminal(["--stage"], tmp_path, ESC_PATCH.encode())
    assert b"Staged " in staged and b"\x1b" not in staged and b"\\x1b[2K" in staged
    listed = _on_terminal(["pending"], tmp_path)
    assert b"+safe" in listed and b"\x1b" not in listed
    assert run_cli(["accept"], tmp_path).returncode == 0
    receipt = run_cli(["history"], tmp_path).stdout.decode().split()[0]
    shown = _on_terminal(["show", receipt], tmp_path)
    assert b"+safe" in shown and b"\x1b" not in shown
    # Into a pipe: the exact bytes, as --diff writes them.
    assert b"\x1b[2K" in run_cli(["show", receipt], tmp_path).stdout


def test_accept_checks_a_file_reached_through_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.txt").write_bytes(b"one\ntwo\n")
    (tmp_path / "link").symlink_to("real")
    staged_id = _stage(tmp_path, b"*** Begin Patch\n*** Update File: link/a.txt\n@@\n-one\n+ONE\n*** End Patch\n")
    (tmp_path / "real" / "a.txt").write_bytes(b"one\ntwo\nthree\n")  # the patch would still apply
    changed = snapshot(tmp_path)
    refused = run_cli(["accept", staged_id], tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.decode() == (
        f"Cannot accept {staged_id}: changed since it was staged: link/a.txt; nothing was applied, and it stays pending\n"
    )
    assert snapshot(tmp_path) == changed
    assert staged_id.encode() in run_cli(["pending"], tmp_path).stdout


def test_accept_refuses_a_link_pointed_elsewhere_since(tmp_path: Path) -> None:
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.txt").write_bytes(b"one\n")
    (tmp_path / "link").symlink_to("one")
    staged_id = _stage(tmp_path, b"*** Begin Patch\n*** Update File: link/a.txt\n@@\n-one\n+ONE\n*** End Patch\n")
    (tmp_path / "link").unlink()
    (tmp_path / "link").symlink_to("two")  # same bytes, another file
    changed = snapshot(tmp_path)
    refused = run_cli(["accept", staged_id], tmp_path)
    assert refused.returncode == 1 and b"it would now write other than was reviewed in link/a.txt" in refused.stderr
    assert snapshot(tmp_path) == changed


def test_accept_keeps_the_encoding_it_was_staged_with(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes("café\n".encode("latin-1"))
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-café\n+crème\n*** End Patch\n".encode()
    staged_id = _stage(tmp_path, patch, "--encoding", "latin-1")
    accepted = run_cli(["accept", staged_id], tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert (tmp_path / "a.txt").read_bytes() == "crème\n".encode("latin-1")


def test_a_gitattributes_added_after_the_review_does_not_change_the_bytes(tmp_path: Path) -> None:
    staged_id = _stage(tmp_path, b"*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** End Patch\n")
    (tmp_path / ".gitattributes").write_bytes(b"* text eol=crlf\n")
    changed = snapshot(tmp_path)
    refused = run_cli(["accept", staged_id], tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.decode() == (
        f"Cannot accept {staged_id}: it would now write other than was reviewed in new.txt (a file, link, "
        "setting or convention changed since it was staged); nothing was applied, and it stays pending\n"
    )
    assert snapshot(tmp_path) == changed
    (tmp_path / ".gitattributes").unlink()
    assert run_cli(["accept", staged_id], tmp_path).returncode == 0
    assert (tmp_path / "new.txt").read_bytes() == b"one\ntwo\n"


def test_accept_racing_reject_tells_the_truth(tmp_path: Path) -> None:
    for round_ in range(6):
        (tmp_path / "a.txt").write_bytes(b"one\n")
        staged_id = _stage(tmp_path, b"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n")
        accept = subprocess.Popen([executable(), "accept", staged_id], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        reject = subprocess.Popen([executable(), "reject", staged_id], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        accept_out, accept_err = accept.communicate(timeout=120)
        reject_out, reject_err = reject.communicate(timeout=120)
        applied = (tmp_path / "a.txt").read_bytes() == b"ONE\n"
        assert (accept.returncode == 0) == applied, (round_, accept_err)
        assert accept.returncode == 0 or b"Traceback" not in accept_err
        assert (accept.returncode == 0) + (reject.returncode == 0) == 1, (accept_err, reject_err)
        assert reject.returncode == 0 or b"nothing was dropped" in reject_err or b"no pending patch matches" in reject_err
        assert run_cli(["pending"], tmp_path).stdout == b""


def _pending_folder(root: Path) -> Path:
    """The root's pending folder (found by the record a probe stages, then rejected)."""
    staged = run_cli(["--stage"], root, b"*** Begin Patch\n*** Add File: probe.txt\n+x\n*** End Patch\n")
    probe = staged.stdout.decode().split()[1].rstrip(";")
    found = [f for f in Path(os.environ["XDG_STATE_HOME"], "apply_patch").glob("*/pending") if (f / f"{probe}.json").exists()]
    assert len(found) == 1
    assert run_cli(["reject", probe], root).returncode == 0
    return found[0]


def _valid_record(folder: Path, name: str) -> Path:
    """A record valid in every field, at `name` in `folder`."""
    path = folder / f"{name}.json"
    path.write_text(json.dumps({
        "version": 2, "id": name, "time": "t", "format": "codex", "patch": "", "policy": {}, "files": {},
        "written": {}, "operations": [], "diff": "",
    }))  # fmt: skip
    return path


def _foreign_record(folder: Path, name: str) -> None:
    """A valid record another user owns (CI runs as root: a numeric uid that has no name)."""
    os.chown(_valid_record(folder, name), 54321, 54321)


def _linked_record(folder: Path, name: str) -> None:
    """A record that is valid but for its other name, outside the pending folder."""
    elsewhere = folder.parent / "elsewhere.json"
    elsewhere.write_text(json.dumps({
        "version": 2, "id": name, "time": "t", "format": "codex", "patch": "", "policy": {}, "files": {},
        "written": {}, "operations": [], "diff": "",
    }))  # fmt: skip
    os.link(elsewhere, folder / f"{name}.json")


BAD_RECORDS: dict[str, Callable[[Path], object]] = {
    "truncated": lambda folder: (folder / "20260101-000000-000000000-0000.json").write_bytes(b'{"id": "2026'),
    "not an object": lambda folder: (folder / "20260101-000000-000000000-0001.json").write_bytes(b"[1, 2]"),
    "a path outside": lambda folder: (folder / "20260101-000000-000000000-0002.json").write_text(json.dumps({
        "version": 2, "id": "20260101-000000-000000000-0002", "time": "t", "format": "codex", "patch": "",
        "policy": {}, "files": {"../outside.txt": ""}, "written": {"../outside.txt": ""}, "operations": [], "diff": "",
    })),
    "a wrong type": lambda folder: (folder / "20260101-000000-000000000-0003.json").write_text(json.dumps({
        "version": 2, "id": "20260101-000000-000000000-0003", "time": None, "format": "codex", "patch": "",
        "policy": {}, "files": {}, "written": {}, "operations": [], "diff": "",
    })),
    "a bad policy": lambda folder: (folder / "20260101-000000-000000000-0004.json").write_text(json.dumps({
        "version": 2, "id": "20260101-000000-000000000-0004", "time": "t", "format": "codex", "patch": "",
        "policy": {"encoding": "rot13"}, "files": {}, "written": {}, "operations": [], "diff": "",
    })),
    "an unknown format": lambda folder: (folder / "20260101-000000-000000000-0009.json").write_text(json.dumps({
        "version": 2, "id": "20260101-000000-000000000-0009", "time": "t", "format": "auto", "patch": "",
        "policy": {}, "files": {}, "written": {}, "operations": [], "diff": "",
    })),
    "another user's": lambda folder: _foreign_record(folder, "20260101-000000-000000000-000a"),
    "group-writable": lambda folder: _valid_record(folder, "20260101-000000-000000000-000b").chmod(0o660),
    "a FIFO": lambda folder: os.mkfifo(folder / "20260101-000000-000000000-0005.json"),
    "a symlink": lambda folder: (folder / "20260101-000000-000000000-0006.json").symlink_to("/etc/passwd"),
    "a folder": lambda folder: (folder / "20260101-000000-000000000-0007.json").mkdir(),
    "a hard link": lambda folder: _linked_record(folder, "20260101-000000-000000000-0008"),
}


@pytest.mark.parametrize("kind", list(BAD_RECORDS))
def test_a_bad_pending_record_is_skipped_with_a_warning_and_the_others_work(tmp_path: Path, kind: str) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\n")
    folder = _pending_folder(tmp_path)
    good = _stage(tmp_path, b"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n")
    other = _stage(tmp_path, b"*** Begin Patch\n*** Add File: b.txt\n+bee\n*** End Patch\n")
    BAD_RECORDS[kind](folder)
    listed = run_cli(["pending"], tmp_path)
    assert listed.returncode == 0 and good.encode() in listed.stdout and other.encode() in listed.stdout
    warnings = listed.stderr.decode().splitlines()
    assert len(warnings) == 1, warnings
    assert all(line.startswith("apply_patch: warning: skipped the pending patch record ") for line in warnings)
    assert str(folder) in warnings[0]
    before = snapshot(tmp_path)
    rejected = run_cli(["reject", other], tmp_path)
    assert rejected.returncode == 0 and rejected.stdout.decode() == f"Rejected {other}.\n"
    assert snapshot(tmp_path) == before
    accepted = run_cli(["accept", good], tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert (tmp_path / "a.txt").read_bytes() == b"ONE\n"


def test_a_record_of_the_previous_version_is_read_and_accepted_when_its_diff_holds(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    folder = _pending_folder(tmp_path)
    import hashlib

    old: dict[str, Any] = {  # as version 1 wrote it: no version, no written, the policy's choices only
        "id": "20260101-000000-000000000-abcd", "time": "2026-01-01T00:00:00Z", "format": "codex",
        "patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n",
        "policy": {"add_existing": "error"}, "files": {"a.txt": hashlib.sha256(b"one\ntwo\n").hexdigest()},
        "operations": ["M a.txt"], "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n",
    }
    (folder / f"{old['id']}.json").write_text(json.dumps(old))
    listed = run_cli(["pending"], tmp_path)
    assert listed.stderr == b"" and old["id"].encode() in listed.stdout
    accepted = run_cli(["accept", str(old["id"])], tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert (tmp_path / "a.txt").read_bytes() == b"ONE\ntwo\n"
    # Its diff no longer what would be written: refused, nothing written.
    bad = dict(old, id="20260101-000000-000000000-abce", diff="--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+OTHER\n")
    bad["files"] = {"a.txt": hashlib.sha256(b"ONE\ntwo\n").hexdigest()}
    bad["patch"] = "*** Begin Patch\n*** Update File: a.txt\n@@\n-ONE\n+one\n*** End Patch\n"
    (folder / f"{bad['id']}.json").write_text(json.dumps(bad))
    before = snapshot(tmp_path)
    refused = run_cli(["accept", str(bad["id"])], tmp_path)
    assert refused.returncode == 1 and b"it would now write other than was reviewed" in refused.stderr
    assert snapshot(tmp_path) == before


def test_an_accepted_patch_exits_0_though_its_summary_cannot_be_printed(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\n")
    staged_id = _stage(tmp_path, b"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n")
    with open("/dev/full", "wb") as full:
        accepted = subprocess.run([executable(), "accept", staged_id], cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert accepted.returncode == 0, accepted.stderr
    assert (tmp_path / "a.txt").read_bytes() == b"ONE\n"
    assert f"{staged_id} was accepted, but its summary could not be printed: No space left on device".encode() in accepted.stderr
    assert run_cli(["pending"], tmp_path).stdout == b""
