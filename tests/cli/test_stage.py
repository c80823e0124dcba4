"""The review gate (issue #26): `apply_patch --stage` keeps a patch pending with its diff;
`pending`, `accept`, `reject`; a staged patch lands only on accept, and not after an
outside change to a file it was planned on."""

from pathlib import Path

import pytest

from _support import run_cli, snapshot

PATCH = b"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Add File: b.txt\n+bee\n*** End Patch\n"
DIFF = b"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+bee\n"


def _stage(root: Path, patch: bytes = PATCH, *options: str) -> str:
    staged = run_cli(["--stage", *options], root, patch)
    assert staged.returncode == 0, staged.stderr
    head = staged.stdout.decode().splitlines()[0]
    assert head.startswith("Staged ") and head.endswith("It would update:")
    return head.split()[1].rstrip(";")


def test_a_staged_patch_lands_only_on_accept(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    before = snapshot(tmp_path)
    staged = run_cli(["--stage"], tmp_path, PATCH)
    assert staged.stdout.endswith(b"M a.txt\nA b.txt\n" + DIFF) or staged.stdout.endswith(b"A b.txt\nM a.txt\n" + DIFF)
    assert snapshot(tmp_path) == before
    listed = run_cli(["pending"], tmp_path)
    assert DIFF in listed.stdout
    staged_id = listed.stdout.decode().split()[0]
    accepted = run_cli(["accept", staged_id], tmp_path)
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.decode().startswith(f"Accepted {staged_id}.\nSuccess.")
    assert (tmp_path / "a.txt").read_bytes() == b"ONE\ntwo\n" and (tmp_path / "b.txt").read_bytes() == b"bee\n"
    assert run_cli(["pending"], tmp_path).stdout == b""
    undone = run_cli(["undo"], tmp_path)  # an accepted patch has its receipt
    assert undone.returncode == 0, undone.stderr
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("change", ["update", "create the added file"])
def test_accept_refuses_after_an_outside_change(tmp_path: Path, change: str) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    staged_id = _stage(tmp_path)
    if change == "update":
        (tmp_path / "a.txt").write_bytes(b"one\ntwo\nthree\n")  # the patch would still apply
    else:
        (tmp_path / "b.txt").write_bytes(b"mine\n")
    changed = snapshot(tmp_path)
    refused = run_cli(["accept"], tmp_path)
    assert refused.returncode == 1
    name = "a.txt" if change == "update" else "b.txt"
    message = f"Cannot accept {staged_id}: changed since it was staged: {name}; nothing was applied, and it stays pending\n"
    if change == "update":
        assert refused.stderr.decode() == message
    else:  # the plan itself refuses first: the file exists now
        assert b"b.txt" in refused.stderr
    assert snapshot(tmp_path) == changed
    assert staged_id.encode() in run_cli(["pending"], tmp_path).stdout


def test_reject_and_the_other_formats(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    before = snapshot(tmp_path)
    diff = b"--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
    first = _stage(tmp_path, diff, "--format", "unified-diff")
    second = _stage(tmp_path, b"a.txt\n```\n<<<<<<< SEARCH\none\n=======\nuno\n>>>>>>> REPLACE\n```\n", "--format", "auto")
    ambiguous = run_cli(["accept"], tmp_path)
    assert ambiguous.returncode == 1 and b"more than one" in ambiguous.stderr
    assert run_cli(["reject", second], tmp_path).stdout.decode() == f"Rejected {second}.\n"
    assert snapshot(tmp_path) == before
    assert run_cli(["accept", "--all"], tmp_path).returncode == 0
    assert (tmp_path / "a.txt").read_bytes() == b"one\nTWO\n"
    assert run_cli(["pending"], tmp_path).stdout == b""
    assert first


def test_a_patch_that_does_not_apply_is_not_staged(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"x\n")
    refused = run_cli(["--stage"], tmp_path, PATCH)
    assert refused.returncode == 1
    assert run_cli(["pending"], tmp_path).stdout == b""
    assert run_cli(["accept"], tmp_path).returncode == 1
