"""A commit killed (SIGKILL) at each of its steps, receipts included, leaves the receipt and the
tree consistent (issue #26): the tree is wholly before or after once the crash journal has
run; a tree after the patch always has its receipt; undoing that receipt gives the tree
before, byte for byte; a receipt whose commit was undone by the journal undoes nothing."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import UndoError, history, undo
from apply_patch.apply.disk._commit import recover

KILLER = """
import os, signal, sys
from apply_patch import DEFAULT, parse_patch
from apply_patch.apply.disk import _receipts
from apply_patch.apply.disk._commit import Disk, commit
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

calls = 0
def tick():
    global calls
    calls += 1
    if calls == int(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)

class Killer(Disk):
    def mkdir(self, *args): tick(); super().mkdir(*args)
    def write_temp(self, *args): tick(); return super().write_temp(*args)
    def replace(self, *args): tick(); super().replace(*args)
    def link(self, *args): tick(); super().link(*args)
    def unlink(self, *args): tick(); super().unlink(*args)
    def append(self, *args, **kwargs): tick(); super().append(*args, **kwargs)

def ticking(function):
    def wrapped(*args, **kwargs):
        tick()
        return function(*args, **kwargs)
    return wrapped

_receipts._save = ticking(_receipts._save)  # each saved file, then each sync of the receipt
_receipts.fsync = ticking(_receipts.fsync)
root = sys.argv[1]
plan = make_plan(parse_patch(sys.stdin.read()), DiskTree(root, DEFAULT))
commit(plan, Killer(), _receipts.Recorder(os.path.realpath(root)))
print(calls)
"""
PATCH = """\
*** Begin Patch
*** Add File: a/new.txt
+new file
*** Update File: one.txt
@@
-one
+ONE
*** Update File: two.txt
*** Move to: b/two.txt
@@
-two
+TWO
*** Delete File: three.txt
*** End Patch
"""


def _tree(root: Path) -> None:
    root.mkdir()
    (root / "one.txt").write_bytes(b"one\r\nline\r\n")
    (root / "two.txt").write_bytes(b"two\nline")
    (root / "three.txt").write_bytes(b"\xef\xbb\xbfthree\n")
    (root / "three.txt").chmod(0o640)


def _kill_at(root: Path, step: int) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(root), str(step)], input=PATCH, capture_output=True, text=True, timeout=60
    )


def test_a_kill_at_each_step_leaves_receipts_and_tree_consistent(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    _tree(whole)
    completed = _kill_at(whole, 0)
    assert completed.returncode == 0, completed.stderr
    steps = int(completed.stdout)
    assert steps >= 10  # the receipt's saves and syncs, then the commit's own steps
    after = snapshot(whole)
    outcomes = set()
    for step in range(1, steps + 1):
        root = tmp_path / f"killed{step}"
        _tree(root)
        before = snapshot(root)
        assert _kill_at(root, step).returncode == -signal.SIGKILL
        recover(str(root))
        now = snapshot(root)
        assert now in (before, after), f"a kill at step {step}"
        receipts = history(root)
        if now == after:
            assert len(receipts) == 1, f"a patch on disk without its receipt (step {step})"
            undo(root, receipts[0].id)
            outcomes.add("undone")
        elif receipts:
            with pytest.raises(UndoError, match="every file is as it was before"):
                undo(root, receipts[0].id)
            outcomes.add("receipt of a commit undone")
        else:
            outcomes.add("no receipt")
        assert snapshot(root) == before, f"a kill at step {step}, then undo"
    assert outcomes == {"undone", "receipt of a commit undone", "no receipt"}
