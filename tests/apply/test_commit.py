"""All or nothing at commit time: a failing write is rolled back completely.

The commit's file-system calls go through a `Disk` object; here it fails on
its n-th call, for every n, and the tree must be byte for byte as before
(files, modes, symlinks, folders).
"""

import os
from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import (
    CODEX,
    DEFAULT,
    ConcurrentChangeError,
    PatchIOError,
    Policy,
    RollbackError,
    parse_patch,
)
from apply_patch.apply.disk._commit import Disk, commit, recover
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

PATCH = """\
*** Begin Patch
*** Add File: new/deep/added.txt
+added
*** Update File: tool.sh
@@
-echo old
+echo new
*** Update File: notes.txt
*** Move to: moved/notes.txt
@@
 keep
-drop
*** Delete File: gone.txt
*** Delete File: link
*** End Patch
"""


def _tree(root: Path) -> None:
    (root / "tool.sh").write_text("#!/bin/sh\necho old\n")
    (root / "tool.sh").chmod(0o755)
    (root / "notes.txt").write_text("keep\ndrop\n")
    (root / "gone.txt").write_text("bye\n")
    os.symlink("gone.txt", root / "link")


class FailingDisk(Disk):
    """Fails with an OS error on the `fail_at`-th call (counting every call)."""

    def __init__(self, fail_at: int) -> None:
        self.calls = 0
        self.fail_at = fail_at
        self.last_unlinked = b""

    def _tick(self) -> None:
        self.calls += 1
        if self.calls == self.fail_at:
            raise OSError(28, "No space left on device")

    def append(self, folder: int, name: bytes, data: bytes, *, new: bool = False) -> None:
        self._tick()
        super().append(folder, name, data, new=new)

    def mkdir(self, folder: int, name: bytes) -> None:
        self._tick()
        super().mkdir(folder, name)

    def write_temp(
        self, folder: int, name: bytes, data: bytes, mode: int | None, owner: tuple[int, int] | None
    ) -> bytes:
        self._tick()
        return super().write_temp(folder, name, data, mode, owner)

    def replace(self, folder: int, source: bytes, target: bytes) -> None:
        self._tick()
        super().replace(folder, source, target)

    def link(self, folder: int, source: bytes, target: bytes) -> None:
        self._tick()
        super().link(folder, source, target)

    def unlink(self, folder: int, name: bytes) -> None:
        self.last_unlinked = name
        self._tick()
        super().unlink(folder, name)


def _count_calls(tmp_path: Path) -> int:
    root = tmp_path / "count"
    root.mkdir()
    _tree(root)
    disk = FailingDisk(fail_at=0)
    commit(make_plan(parse_patch(PATCH), DiskTree(str(root), DEFAULT)), disk)
    assert (root / "moved" / "notes.txt").read_text() == "keep\n"
    assert (root / "tool.sh").stat().st_mode & 0o777 == 0o755
    return disk.calls


def test_every_failing_step_is_rolled_back(tmp_path: Path) -> None:
    calls = _count_calls(tmp_path)
    assert calls >= 15  # 2 journal writes, 3 folders, 3 temp files, 1 replace, 2 links, 3 deletions, 1 removal
    for fail_at in range(1, calls):  # the last call removes the journal: see below
        root = tmp_path / f"run{fail_at}"
        root.mkdir()
        _tree(root)
        before = snapshot(root)
        plan = make_plan(parse_patch(PATCH), DiskTree(str(root), DEFAULT))
        with pytest.raises(PatchIOError) as caught:
            commit(plan, FailingDisk(fail_at))
        assert not isinstance(caught.value, RollbackError)
        assert "No space left on device (os error 28)" in str(caught.value)
        assert snapshot(root) == before, f"not rolled back when call {fail_at} failed"
        assert not [p for p in os.listdir(root) if p.endswith(".apply_patch.tmp")]


def test_a_journal_that_cannot_be_removed_is_removed_by_the_next_run(tmp_path: Path) -> None:
    calls = _count_calls(tmp_path)
    _tree(tmp_path)
    disk = FailingDisk(fail_at=calls)  # the commit is complete; removing its journal fails
    commit(make_plan(parse_patch(PATCH), DiskTree(str(tmp_path), DEFAULT)), disk)
    assert disk.last_unlinked == b".apply_patch.journal"
    after = snapshot(tmp_path)
    assert (tmp_path / ".apply_patch.journal").exists()
    recovery = recover(str(tmp_path))
    assert recovery is not None and recovery.done == (
        "a commit interrupted before it was complete was finished first (0 steps)",
    )
    del after[".apply_patch.journal"]
    assert snapshot(tmp_path) == after  # replaying a complete commit changes nothing


def test_a_file_changed_after_planning_aborts_everything(tmp_path: Path) -> None:
    _tree(tmp_path)
    plan = make_plan(parse_patch(PATCH), DiskTree(str(tmp_path), DEFAULT))
    (tmp_path / "notes.txt").write_text("keep\ndrop\nsomeone else\n")
    before = snapshot(tmp_path)
    with pytest.raises(ConcurrentChangeError) as caught:
        commit(plan)
    assert str(caught.value) == "notes.txt changed on disk while the patch was being applied"
    assert snapshot(tmp_path) == before


def test_a_file_created_after_planning_aborts_everything(tmp_path: Path) -> None:
    _tree(tmp_path)
    plan = make_plan(parse_patch(PATCH), DiskTree(str(tmp_path), DEFAULT))
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "notes.txt").write_text("mine\n")
    before = snapshot(tmp_path)
    with pytest.raises(ConcurrentChangeError):
        commit(plan)
    assert snapshot(tmp_path) == before


def test_a_failed_restore_is_reported_as_such(tmp_path: Path) -> None:
    _tree(tmp_path)

    class BrokenRestore(FailingDisk):
        def write_temp(
            self, folder: int, name: bytes, data: bytes, mode: int | None, owner: tuple[int, int] | None
        ) -> bytes:
            if data == b"keep\ndrop\n":  # only the restore of notes.txt writes this
                raise OSError(5, "Input/output error")
            return super().write_temp(folder, name, data, mode, owner)

    calls = _count_calls(tmp_path)
    plan = make_plan(parse_patch(PATCH), DiskTree(str(tmp_path), DEFAULT))
    disk = BrokenRestore(fail_at=calls - 1)  # the last deletion fails; the rollback follows
    with pytest.raises(RollbackError) as caught:
        commit(plan, disk)
    assert caught.value.unrestored == ("notes.txt",)
    assert "could not be restored" in str(caught.value)


def test_a_folder_appearing_after_planning_aborts_everything(tmp_path: Path) -> None:
    _tree(tmp_path)
    plan = make_plan(parse_patch(PATCH), DiskTree(str(tmp_path), DEFAULT))
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "notes.txt").mkdir()  # where the moved file goes: not a file now
    before = snapshot(tmp_path)
    with pytest.raises(ConcurrentChangeError) as caught:
        commit(plan)
    assert str(caught.value) == "moved changed on disk while the patch was being applied: it exists now"
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("policy", [DEFAULT, CODEX], ids=["default", "codex"])
def test_a_failed_step_names_its_path_relative_to_the_root(tmp_path: Path, policy: Policy) -> None:
    """Issue 12 item 6: the error's `path` (the JSON `path`) is relative for every failing step;
    the message is relative too, but with --codex (the reference's absolute text)."""
    calls = _count_calls(tmp_path)
    for fail_at in range(1, calls):  # the last call, the journal's removal, fails quietly
        root = tmp_path / f"run{fail_at}"
        root.mkdir()
        _tree(root)
        plan = make_plan(parse_patch(PATCH), DiskTree(str(root), policy))
        with pytest.raises(PatchIOError) as caught:
            commit(plan, FailingDisk(fail_at))
        assert caught.value.path is not None and not os.path.isabs(caught.value.path)
        assert (str(root) in str(caught.value)) == (policy is CODEX), str(caught.value)


@pytest.mark.parametrize(
    ("on_disk", "planned", "same"),
    [
        (b"", b"", True),
        (b"abc\n", b"abc\n", True),
        (b"x" * (3 << 20) + b"\n", b"x" * (3 << 20) + b"\n", True),  # several blocks
        (b"x" * (2 << 20) + b"y", b"x" * (2 << 20) + b"z", False),  # differs in the last block
        (b"abc\nd", b"abc\n", False),  # grew
        (b"ab", b"abc\n", False),  # shrank
        (b"", b"a", False),
    ],
)
def test_the_commit_compares_a_file_with_its_planned_bytes_block_by_block(
    tmp_path: Path, on_disk: bytes, planned: bytes, same: bool
) -> None:
    """The check that a file still holds what the plan read compares it block by block
    (no second copy of a large file in memory), a file grown or shrunk not the same."""
    from apply_patch.apply.disk._commit import _holds

    path = tmp_path / "f"
    path.write_bytes(on_disk)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert _holds(fd, planned) is same
    finally:
        os.close(fd)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002, 0o777])
@pytest.mark.parametrize("mode", [0o644, 0o600, 0o755, 0o640, 0o664, 0o444, 0o1755])
def test_an_updated_file_keeps_its_mode_whatever_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mask: int, mode: int
) -> None:
    # The new content is made with the old file's permission bits, then given its mode only
    # when the umask took some away (issue #24: one call fewer a file, most of the time).
    path = tmp_path / "f.txt"
    path.write_text("one\n")
    os.chmod(path, mode)
    changed: list[int] = []
    original = os.fchmod

    def fchmod(fd: int, bits: int) -> None:
        changed.append(bits)
        original(fd, bits)

    monkeypatch.setattr(os, "fchmod", fchmod)
    old = os.umask(mask)
    try:
        patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n-one\n+uno\n*** End Patch\n"
        from apply_patch import apply_patch

        apply_patch(patch, tmp_path, read_only="allow", journal="off")
    finally:
        os.umask(old)
    assert path.read_text() == "uno\n"
    assert os.stat(path).st_mode & 0o7777 == mode
    assert changed == ([] if mode & 0o777 & ~mask == mode else [mode])
