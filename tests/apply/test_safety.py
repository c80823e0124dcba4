"""The commit's promises against a hostile or busy machine: deterministic reproductions.

Each test is one finding of issue #14, made deterministic: a symlink swapped
in between plan and commit, a writer appending while a file is replaced, a
signal in the middle of the commit, ownership and modes as root, read-only
files, odd inputs, long names, VCS folders, hard links. Whatever happens, the
tree (and the folder beside it, "outside") is byte for byte as before, or
wholly as the patch says.
"""

import fcntl
import json
import os
import pwd
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, executable, run_cli, snapshot
from apply_patch import (
    DEFAULT,
    ConcurrentChangeError,
    FilePolicyError,
    PatchError,
    apply_patch,
    parse_patch,
)
from apply_patch.apply.disk._commit import Disk, commit
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

ROOT_ONLY = pytest.mark.skipif(
    os.geteuid() != 0, reason="needs root: files of another owner (CI runs the suite as root)"
)
SWAP_PATCH = """\
*** Begin Patch
*** Add File: sub/new.txt
+new
*** Update File: sub/b.txt
-b
+B
*** End Patch
"""


def _plan(root: Path, patch: str, policy=DEFAULT):  # type: ignore[no-untyped-def]
    return make_plan(parse_patch(patch), DiskTree(str(root), policy))


def _swap_tree(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "b.txt").write_text("b\n")
    outside.mkdir()
    (outside / "b.txt").write_text("b\n")
    return root, outside


# 1. A folder swapped for a symlink between plan and commit is never followed.


def test_a_folder_swapped_for_a_symlink_after_planning_is_a_conflict(tmp_path: Path) -> None:
    root, outside = _swap_tree(tmp_path)
    plan = _plan(root, SWAP_PATCH)
    os.rename(root / "sub", root / "sub.real")
    os.symlink("../outside", root / "sub")
    before, outside_before = snapshot(root), snapshot(outside)
    with pytest.raises(ConcurrentChangeError) as caught:
        commit(plan)
    assert str(caught.value) == (
        "sub/new.txt changed on disk while the patch was being applied: "
        "the folder sub is now a symlink"
    )
    assert snapshot(root) == before and snapshot(outside) == outside_before


def test_a_parent_folder_swapped_for_a_symlink_is_not_followed_when_creating(tmp_path: Path) -> None:
    root, outside = _swap_tree(tmp_path)
    patch = "*** Begin Patch\n*** Add File: sub/x/y/new.txt\n+new\n*** End Patch\n"
    plan = _plan(root, patch)
    os.rename(root / "sub", root / "sub.real")
    os.symlink("../outside", root / "sub")
    before, outside_before = snapshot(root), snapshot(outside)
    with pytest.raises(ConcurrentChangeError):
        commit(plan)
    assert snapshot(root) == before and snapshot(outside) == outside_before


def test_a_leaf_swapped_for_a_symlink_is_not_written_through(tmp_path: Path) -> None:
    root, outside = _swap_tree(tmp_path)
    plan = _plan(root, SWAP_PATCH)
    os.rename(root / "sub" / "b.txt", root / "b.saved")
    os.symlink("../../outside/b.txt", root / "sub" / "b.txt")
    before, outside_before = snapshot(root), snapshot(outside)
    with pytest.raises(ConcurrentChangeError):
        commit(plan)
    assert snapshot(root) == before and snapshot(outside) == outside_before


# 2. Writers: re-checked under the lock, late bytes in the old file detected and kept.


class AppendingDisk(Disk):
    """Appends to the target's old inode right before replacing it (a writer that takes no lock)."""

    def replace(self, folder: int, source: bytes, target: bytes) -> None:
        fd = os.open(target, os.O_WRONLY | os.O_APPEND, dir_fd=folder)
        os.write(fd, b"late\n")
        os.close(fd)
        super().replace(folder, source, target)


def test_bytes_written_into_the_old_file_during_the_replace_are_kept(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    (tmp_path / "b.txt").write_text("b\n")
    patch = (
        "*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n"
        "*** Update File: b.txt\n-b\n+B\n*** End Patch\n"
    )
    plan = _plan(tmp_path, patch)
    with pytest.raises(ConcurrentChangeError) as caught:
        commit(plan, AppendingDisk())
    assert "was written to while the patch replaced it" in str(caught.value)
    assert (tmp_path / "a.txt").read_text() == "a\nlate\n"
    assert (tmp_path / "b.txt").read_text() == "b\nlate\n" or (tmp_path / "b.txt").read_text() == "b\n"
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"]


def test_a_file_replaced_by_another_inode_with_the_same_bytes_is_a_conflict(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    plan = _plan(tmp_path, "*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** End Patch\n")
    (tmp_path / "other").write_text("a\n")
    os.replace(tmp_path / "other", tmp_path / "a.txt")  # same bytes, another file
    with pytest.raises(ConcurrentChangeError):
        commit(plan)
    assert (tmp_path / "a.txt").read_text() == "a\n"


def test_a_file_created_where_the_patch_adds_one_is_never_overwritten(tmp_path: Path) -> None:
    plan = _plan(tmp_path, "*** Begin Patch\n*** Add File: a.txt\n+mine\n*** End Patch\n")

    class Racing(Disk):
        def link(self, folder: int, source: bytes, target: bytes) -> None:
            (tmp_path / "a.txt").write_text("theirs\n")  # appears after the last check
            super().link(folder, source, target)

    with pytest.raises(ConcurrentChangeError):
        commit(plan, Racing())
    assert os.listdir(tmp_path) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "theirs\n"


def test_overlapping_roots_share_one_lock(tmp_path: Path) -> None:
    from apply_patch.apply.disk._lock import RootLock

    (tmp_path / "repo" / "sub").mkdir(parents=True)
    probe = (
        "import sys\nfrom apply_patch.apply.disk._lock import RootLock\n"
        "print(RootLock(sys.argv[1]).try_acquire())\n"
    )
    with RootLock(str(tmp_path / "repo")):
        for root in ("repo", "repo/sub", "repo/sub/../sub"):
            busy = subprocess.run(
                [sys.executable, "-c", probe, str(tmp_path / root)], capture_output=True, text=True
            )
            assert busy.stdout == "False\n", (root, busy.stderr)
    with RootLock(str(tmp_path / "repo" / "sub")):
        parent = subprocess.run(
            [sys.executable, "-c", probe, str(tmp_path / "repo")], capture_output=True, text=True
        )
        assert parent.stdout == "False\n", parent.stderr
        sibling = tmp_path / "other"
        sibling.mkdir()
        free = subprocess.run([sys.executable, "-c", probe, str(sibling)], capture_output=True, text=True)
        assert free.stdout == "True\n", free.stderr
    assert not [p for p in snapshot(tmp_path) if "lock" in p]


# 3. Ownership and modes.


def _nobody() -> tuple[int, int]:
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


@ROOT_ONLY
@pytest.mark.parametrize("mode", [0o640, 0o4755, 0o2755])
def test_root_keeps_the_owner_group_and_mode_of_a_users_file(tmp_path: Path, mode: int) -> None:
    uid, gid = _nobody()
    path = tmp_path / "tool.sh"
    path.write_text("echo old\n")
    os.chown(path, uid, gid)
    os.chmod(path, mode)
    result = run_cli(["*** Begin Patch\n*** Update File: tool.sh\n-echo old\n+echo new\n*** End Patch"], tmp_path)
    assert result.returncode == 0, result.stderr
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (uid, gid, mode)
    assert path.read_text() == "echo new\n"


@ROOT_ONLY
def test_root_keeps_the_owner_of_a_moved_file(tmp_path: Path) -> None:
    uid, gid = _nobody()
    (tmp_path / "a.txt").write_text("a\n")
    os.chown(tmp_path / "a.txt", uid, gid)
    result = run_cli(["*** Begin Patch\n*** Update File: a.txt\n*** Move to: d/b.txt\n*** End Patch"], tmp_path)
    assert result.returncode == 0, result.stderr
    info = (tmp_path / "d" / "b.txt").stat()
    assert (info.st_uid, info.st_gid) == (uid, gid)


@ROOT_ONLY
def test_a_process_that_cannot_keep_the_owner_drops_setuid_and_setgid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uid, gid = _nobody()
    path = tmp_path / "tool.sh"
    path.write_text("echo old\n")
    os.chown(path, uid, gid)
    os.chmod(path, 0o6755)  # nobody's setuid, setgid file

    def refused(fd: int, uid: int, gid: int) -> None:  # as for a process that is not root
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", refused)
    apply_patch("*** Begin Patch\n*** Update File: tool.sh\n-echo old\n+echo new\n*** End Patch", tmp_path)
    info = path.stat()
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (os.geteuid(), 0o755)
    assert path.read_text() == "echo new\n"


# 4. Read-only files.

READ_ONLY_PATCH = "*** Begin Patch\n*** Update File: ro.txt\n-old\n+new\n*** End Patch"


@pytest.mark.parametrize("args", [[], ["--codex"]], ids=["default", "codex"])
def test_a_read_only_file_is_refused(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "ro.txt").write_text("old\n")
    (tmp_path / "ro.txt").chmod(0o444)
    before = snapshot(tmp_path)
    result = run_cli([*args, READ_ONLY_PATCH], tmp_path)
    assert result.returncode == 1
    shown = "ro.txt" if not args else str(tmp_path / "ro.txt")  # --codex: absolute, as the reference
    assert result.stderr.decode() == (
        f"Failed to write file {shown}: it is read-only (--read-only allow writes it)\n{NOTHING_CHANGED}"
    )
    assert snapshot(tmp_path) == before


def test_read_only_allow_writes_and_keeps_the_mode(tmp_path: Path) -> None:
    (tmp_path / "ro.txt").write_text("old\n")
    (tmp_path / "ro.txt").chmod(0o444)
    result = apply_patch(READ_ONLY_PATCH, tmp_path, read_only="allow")
    assert [f.status for f in result.files] == ["updated"]
    assert (tmp_path / "ro.txt").read_text() == "new\n"
    assert stat.S_IMODE((tmp_path / "ro.txt").stat().st_mode) == 0o444


def test_read_only_files_can_still_be_deleted_and_moved_away(tmp_path: Path) -> None:
    for name in ("gone.txt", "moved.txt"):
        (tmp_path / name).write_text("x\n")
        (tmp_path / name).chmod(0o444)
    apply_patch(
        "*** Begin Patch\n*** Delete File: gone.txt\n*** Update File: moved.txt\n"
        "*** Move to: there.txt\n*** End Patch",
        tmp_path,
    )
    assert os.listdir(tmp_path) == ["there.txt"]


# 5. Signals during the commit wait for its end.

INTERRUPTING = """
import os, signal, sys
# A process as a terminal starts it: SIGINT neither blocked nor ignored (a mask or an
# ignored SIGINT would be inherited from whatever started this test).
signal.pthread_sigmask(signal.SIG_SETMASK, [])
signal.signal(signal.SIGINT, signal.default_int_handler)
from apply_patch import DEFAULT, parse_patch
from apply_patch.apply.disk._commit import Disk, commit
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

class Interrupting(Disk):
    calls = 0
    def replace(self, folder, source, target):
        super().replace(folder, source, target)
        Interrupting.calls += 1
        if Interrupting.calls == 2:  # between a replace and the record of its undo step
            os.kill(os.getpid(), signal.SIG{name})

plan = make_plan(parse_patch(sys.stdin.read()), DiskTree(sys.argv[1], DEFAULT))
try:
    commit(plan, Interrupting())
except KeyboardInterrupt:
    print("interrupted after the commit")
"""
FOUR_FILES = "".join(f"*** Update File: f{i}.txt\n-old\n+new\n" for i in range(4))


@pytest.mark.parametrize("name", ["INT", "TERM", "HUP"])
def test_a_signal_during_the_commit_waits_for_its_end(tmp_path: Path, name: str) -> None:
    for i in range(4):
        (tmp_path / f"f{i}.txt").write_text("old\n")
    number = getattr(signal, f"SIG{name}")
    result = subprocess.run(
        [sys.executable, "-c", INTERRUPTING.replace("{name}", name), str(tmp_path)],
        input=f"*** Begin Patch\n{FOUR_FILES}*** End Patch\n", capture_output=True, text=True,
        timeout=60,
        # The signal's default action, whatever the suite inherited: under `nohup` SIGHUP
        # is ignored, and the commit rightly leaves an ignored signal ignored.
        preexec_fn=lambda: signal.signal(number, signal.SIG_DFL) and None,
    )
    if name == "INT":
        assert result.stdout == "interrupted after the commit\n", (result.returncode, result.stderr)
    else:
        assert result.returncode == -number
    assert sorted(os.listdir(tmp_path)) == [f"f{i}.txt" for i in range(4)]
    assert {(tmp_path / f"f{i}.txt").read_text() for i in range(4)} == {"new\n"}


# 6. Honest exit status once the commit has happened.


def test_a_summary_that_cannot_be_printed_still_exits_0(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [executable(), "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch"],
            cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, timeout=60,
        )
    assert result.returncode == 0
    assert result.stderr.decode() == (
        "apply_patch: the patch was applied, but its summary could not be printed: "
        "No space left on device (os error 28)\n"
    )
    assert (tmp_path / "a.txt").read_text() == "a\n"


def test_a_closed_pipe_after_the_commit_still_exits_0(tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)
    result = subprocess.run(
        [executable(), "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch"],
        cwd=tmp_path, stdout=write, stderr=subprocess.PIPE, timeout=60,
    )
    os.close(write)
    assert result.returncode == 0
    assert result.stderr == b""  # the reader left: nothing to say (tests/cli/test_output.py)
    assert (tmp_path / "a.txt").read_text() == "a\n"


# 7. Odd inputs are PatchErrors, never tracebacks.


@pytest.mark.parametrize("workdir", ["a\0b", "\ud800"])
def test_an_unusable_working_folder_is_a_patch_error(tmp_path: Path, workdir: str) -> None:
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", tmp_path, workdir=workdir)
    assert "working folder" in str(caught.value)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("root", ["a\0b", "\ud800"])
def test_an_unusable_root_is_a_patch_error(tmp_path: Path, root: str) -> None:
    with pytest.raises(PatchError) as caught:
        apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root)
    assert "root folder" in str(caught.value)


def test_a_closed_stdin_is_a_clean_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [executable()], cwd=tmp_path, capture_output=False, stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE, preexec_fn=lambda: os.close(0), timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr == b"Error: Failed to read PATCH from stdin.\nstdin is closed\n"


def test_extract_apply_with_an_unusable_workdir_in_a_log(tmp_path: Path) -> None:
    record = (
        '{"type":"custom_tool_call","name":"apply_patch","cwd":"/s",'
        '"input":"*** Begin Patch\\n*** Add File: a.txt\\n+a\\n*** End Patch"}\n'
        '{"type":"function_call","name":"shell","arguments":{"command":["apply_patch",'
        '"*** Begin Patch\\n*** Add File: b.txt\\n+b\\n*** End Patch"],"workdir":"/s/x\\u0000y"}}\n'
    )
    result = run_cli(["extract", "--apply"], tmp_path, stdin=record.encode())
    assert b"Traceback" not in result.stderr
    assert result.returncode == 1, result.stderr


@pytest.mark.parametrize("text", ["(" * 5000 + ")" * 5000, "if true; then\n" * 3000 + "fi\n" * 3000])
def test_deeply_nested_shell_without_a_call_is_no_call_not_a_crash(tmp_path: Path, text: str) -> None:
    result = run_cli(["extract"], tmp_path, stdin=text.encode())
    assert b"Traceback" not in result.stderr
    assert result.returncode == 1
    assert result.stderr == b"no apply_patch call found\n"


NESTED_CALL = "( " * 3000 + "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\nEOF\n" + ")" * 3000


def test_deeply_nested_shell_with_a_call_is_a_broken_region(tmp_path: Path) -> None:
    listed = run_cli(["extract", "--json"], tmp_path, stdin=NESTED_CALL.encode())
    assert b"Traceback" not in listed.stderr
    assert listed.returncode == 0, listed.stderr
    [entry] = json.loads(listed.stdout)
    assert (entry["line"], entry["source"]) == (1, "script")
    assert entry["error"] == (
        "Invalid patch: the shell text from line 1 is nested too deep to read "
        "(an apply_patch call in it cannot be found); write the call without so much nesting"
    )
    before = snapshot(tmp_path)
    applied = run_cli(["extract", "--apply"], tmp_path, stdin=NESTED_CALL.encode())
    assert applied.returncode == 1 and b"Traceback" not in applied.stderr
    assert snapshot(tmp_path) == before


def test_realpath_racing_a_symlink_loop_is_a_patch_error(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")  # realpath meets ELOOP
    with pytest.raises(PatchError):
        apply_patch("*** Begin Patch\n*** Add File: loop/a.txt\n+a\n*** End Patch", tmp_path)
    assert os.listdir(tmp_path) == ["loop"]


# 8. Names: any legal name can be updated.


def test_a_255_byte_name_can_be_updated(tmp_path: Path) -> None:
    name = "字" * 85  # 255 bytes in UTF-8
    (tmp_path / name).write_text("old\n")
    apply_patch(f"*** Begin Patch\n*** Update File: {name}\n-old\n+new\n*** End Patch", tmp_path)
    assert (tmp_path / name).read_text() == "new\n"
    assert os.listdir(tmp_path) == [name]


# 9. VCS folders and hard links.


@pytest.mark.parametrize(
    "patch",
    [
        "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch",
        "*** Begin Patch\n*** Update File: tool.sh\n*** Move to: .git/hooks/pre-commit\n*** End Patch",
        "*** Begin Patch\n*** Delete File: .git/config\n*** End Patch",
        "*** Begin Patch\n*** Add File: sub/.hg/hgrc\n+x\n*** End Patch",
        "*** Begin Patch\n*** Add File: .svn/x\n+x\n*** End Patch",
        "*** Begin Patch\n*** Add File: vcs/hooks/pre-commit\n+x\n*** End Patch",
    ],
    ids=["add-hook", "move-into", "delete", "hg", "svn", "through-symlink"],
)
def test_vcs_folders_are_refused_by_default(tmp_path: Path, patch: str) -> None:
    (tmp_path / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / ".git" / "config").write_text("[core]\n")
    (tmp_path / "tool.sh").write_text("echo hi\n")
    (tmp_path / "tool.sh").chmod(0o755)
    os.symlink(".git", tmp_path / "vcs")
    before = snapshot(tmp_path)
    result = run_cli([patch], tmp_path)
    assert result.returncode == 1
    assert "folder, which a patch may not change (--vcs-dir allow permits it)" in result.stderr.decode()
    assert snapshot(tmp_path) == before
    with pytest.raises(FilePolicyError):
        apply_patch(patch, tmp_path)


@pytest.mark.parametrize("args", [["--vcs-dir", "allow"], ["--codex"]])
def test_vcs_folders_can_be_allowed(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / ".git").mkdir()
    result = run_cli([*args, "*** Begin Patch\n*** Add File: .git/info\n+x\n*** End Patch"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert apply_patch(
        "*** Begin Patch\n*** Update File: .git/info\n-x\n+y\n*** End Patch", tmp_path, vcs_dir="allow"
    ).files[0].status == "updated"


@ROOT_ONLY
def test_the_diff_never_shows_a_file_of_another_owner_shared_by_a_hard_link(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("password=hunter2\n")
    os.chown(tmp_path / "secret.txt", *_nobody())
    os.link(tmp_path / "secret.txt", root / "innocent.txt")
    patch = "*** Begin Patch\n*** Update File: innocent.txt\n@@\n+appended\n*** End Patch"
    result = run_cli(["--dry-run", "--diff", patch], root)
    assert result.returncode == 0, result.stderr
    assert b"hunter2" not in result.stdout
    assert b"innocent.txt has 2 hard links and another owner: its content is not shown" in result.stdout
    assert (tmp_path / "secret.txt").read_text() == "password=hunter2\n"


def test_the_users_own_hard_linked_files_are_shown(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "store.txt").write_text("mine\n")  # a pnpm store, a `cp -al` tree
    os.link(tmp_path / "store.txt", root / "linked.txt")
    patch = "*** Begin Patch\n*** Update File: linked.txt\n@@\n+appended\n*** End Patch"
    result = run_cli(["--dry-run", "--diff", patch], root)
    assert result.returncode == 0, result.stderr
    assert b" mine\n+appended\n" in result.stdout


def test_locks_leave_nothing_in_the_tree(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    apply_patch("*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** End Patch", tmp_path)
    assert os.listdir(tmp_path) == ["a.txt"]
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released after the apply
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    ("raised", "code", "message"),
    [
        (RuntimeError("boom"), 1, "apply_patch: internal error: RuntimeError: boom. " + NOTHING_CHANGED),
        (KeyboardInterrupt(), 130, "apply_patch: interrupted. " + NOTHING_CHANGED),
    ],
    ids=["bug", "ctrl-c"],
)
def test_an_unexpected_exception_is_one_line_not_a_traceback(
    raised: BaseException, code: int, message: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from apply_patch import apply
    from apply_patch.apply.disk import _signals
    from apply_patch.cli import _main

    monkeypatch.setattr(_signals, "_commits", 0)  # no commit done before in this process

    def broken(*args: object, **kwargs: object) -> None:
        raise raised

    import apply_patch.apply

    # _main imports apply_patch from apply_patch.apply when it runs (start-up time): patched there
    monkeypatch.setattr(apply_patch.apply, "apply_patch", broken)
    assert _main.main(["*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch"]) == code
    assert capsys.readouterr().err == message
