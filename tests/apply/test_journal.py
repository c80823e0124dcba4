"""The crash journal is untrusted input (issue #33, class 1).

A journal someone else wrote, or anything else at the journal's name, is
never obeyed: no file outside the root is removed or overwritten, no folder
is removed, no commit hangs or is blocked; a one-line warning says what was
left alone. The journal lives in the root's private state folder when that
folder is usable, else in the root; the next run acts only on a regular file
of its own user, with one link, that no one else may write, and only on
records confined to the root whose files are the ones they name.

The attacks of another user are made by a child process that drops to a
numeric uid (CI runs as root, on a clean checkout: no second account needed).
"""

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from _support import executable, snapshot
from apply_patch import PatchError, apply_patch
from apply_patch.apply.disk import _receipts as written_receipts
from apply_patch.apply.records import _journal, _receipts
from apply_patch.apply.disk._commit import recover
from apply_patch.apply.records._recovery import Recovery

OTHER = 54321  # a user who is not us, with no account: a numeric uid is enough
JOURNAL = ".apply_patch.journal"
V1 = b"apply_patch journal 1\n"  # the previous version's journal, in the root
GOOD = "*** Begin Patch\n*** Add File: added.txt\n+added\n*** End Patch\n"
REFUSED = "*** Begin Patch\n*** Delete File: not-there.txt\n*** End Patch\n"
OPENED: dict[str, int] = {}  # the folders beside the root, open for the other user
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="making files of another user needs root")


def recovered(root: Path) -> Recovery:
    """What recovering `root`, which holds a journal, did (None would say it held none)."""
    recovery = recover(str(root))
    assert recovery is not None
    return recovery

def as_other_user(folder: Path, action: Callable[[int], None], uid: int = OTHER) -> None:
    """Run `action(descriptor of folder)` in a child process running as `uid` (the folder
    is opened first: the test's temporary folders above it are private to root; the
    attacker's own are opened as `folder`'s siblings are, through `OPENED`)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    OPENED.clear()
    OPENED.update({p.name: os.open(p, os.O_RDONLY | os.O_DIRECTORY) for p in folder.parent.iterdir() if p.is_dir()})
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        code = 1
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            action(fd)
            code = 0
        finally:
            os._exit(code)
    os.close(fd)
    for opened in OPENED.values():
        os.close(opened)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the other user's action failed"


def planted(data: bytes) -> Callable[[int], None]:
    """An action writing `data` as the journal in the folder, private to its writer."""

    def plant(folder: int) -> None:
        fd = os.open(JOURNAL, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=folder)
        os.write(fd, data)
        os.close(fd)

    return plant


def tree_of(root: Path) -> dict[str, object]:
    """`snapshot(root)`, with a FIFO shown as such (never opened: it would wait for a writer)."""
    fifos = sorted(p for p in root.rglob("*") if stat.S_ISFIFO(p.lstat().st_mode))
    aside = [root.parent / f"fifo-aside-{n}" for n in range(len(fifos))]
    for fifo, place in zip(fifos, aside):
        fifo.rename(place)
    try:
        tree: dict[str, object] = dict(snapshot(root))
    finally:
        for fifo, place in zip(fifos, aside):
            place.rename(fifo)
    tree.update({p.relative_to(root).as_posix(): ("fifo", p.lstat().st_ino) for p in fifos})
    return tree


def identity(path: Path) -> tuple[int, int]:
    info = path.lstat()
    return info.st_dev, info.st_ino


def shared_root(tmp_path: Path) -> Path:
    """A folder every user may write, as /tmp (sticky)."""
    root = tmp_path / "sticky"
    root.mkdir()
    root.chmod(0o1777)
    (root / "a.txt").write_text("a\n")
    return root


def outside_victims(tmp_path: Path) -> Path:
    """A sticky, world-writable folder outside the root, with the user's files in it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o1777)
    (outside / "precious.txt").write_text("precious\n")
    (outside / "empty").mkdir()
    return outside


def state_journal(root: Path) -> Path:
    """Where the commits on `root` write their journal when the state folder is usable."""
    real = os.path.realpath(root)
    return Path(_receipts.folder_of(real), os.fsdecode(_journal.state_name(os.stat(real))))


# 1. A journal another user planted in the root is never obeyed.


@needs_root
@pytest.mark.parametrize("patch", [GOOD, REFUSED], ids=["commit", "refused-patch"])
def test_another_users_journal_deletes_nothing_outside_the_root(tmp_path: Path, patch: str) -> None:
    root, outside = shared_root(tmp_path), outside_victims(tmp_path)
    precious = outside / "precious.txt"
    attack = V1 + _journal.record("delete", str(outside), "precious.txt", *identity(precious)) + _journal.COMMIT
    as_other_user(root, planted(attack))
    before = snapshot(outside)
    result = subprocess.run([executable(), "-C", str(root), patch], capture_output=True, timeout=60)
    assert snapshot(outside) == before
    assert (root / JOURNAL).read_bytes() == attack and (root / JOURNAL).stat().st_uid == OTHER
    stderr = result.stderr.decode()
    assert "Traceback" not in stderr
    assert result.returncode == (0 if patch == GOOD else 1), stderr
    assert (root / "added.txt").exists() == (patch == GOOD)
    lines = [line for line in stderr.splitlines() if "crash journal" in line]
    assert len(lines) == 1 and f"belongs to another user (uid {OTHER})" in lines[0], stderr
    assert "left as it is" in lines[0]


@needs_root
def test_another_users_journal_overwrites_nothing_outside_the_root(tmp_path: Path) -> None:
    root, outside = shared_root(tmp_path), outside_victims(tmp_path)
    temp = ".precious.txt.0badf00d.apply_patch.tmp"

    def attack(folder: int) -> None:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=OPENED["outside"])
        os.write(fd, b"the attacker's bytes\n")
        os.close(fd)
        precious = os.stat("precious.txt", dir_fd=OPENED["outside"])
        planted(
            V1
            + _journal.record("replace", str(outside), temp, "precious.txt", precious.st_dev, precious.st_ino)
            + _journal.COMMIT
        )(folder)

    as_other_user(root, attack)
    with pytest.raises(PatchError) as caught:
        apply_patch(REFUSED, root)
    assert (outside / "precious.txt").read_text() == "precious\n"
    assert (outside / temp).read_bytes() == b"the attacker's bytes\n"
    assert any("crash journal" in hint and "another user" in hint for hint in caught.value.hints)


@needs_root
def test_another_users_journal_without_commit_removes_no_folder(tmp_path: Path) -> None:
    root, outside = shared_root(tmp_path), outside_victims(tmp_path)
    (root / "empty").mkdir()
    attack = V1 + _journal.record("folder", str(outside / "empty")) + _journal.record("folder", str(root / "empty"))
    as_other_user(root, planted(attack))
    result = apply_patch(GOOD, root)
    assert (outside / "empty").is_dir() and (root / "empty").is_dir()
    assert [w.kind for w in result.warnings] == ["crash_journal"]


@needs_root
def test_a_journal_hard_linked_to_another_users_file_is_not_obeyed(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "keep.txt").write_text("keep\n")
    data = V1 + _journal.record("delete", str(root), "keep.txt", *identity(root / "keep.txt")) + _journal.COMMIT
    (root / JOURNAL).write_bytes(data)
    (root / JOURNAL).chmod(0o600)
    os.chown(root / JOURNAL, OTHER, OTHER)  # another user's file...
    os.link(root / JOURNAL, tmp_path / "theirs")  # ...with a second name
    result = apply_patch(GOOD, root)
    assert (root / "keep.txt").read_text() == "keep\n"
    assert "not obeyed" in result.warnings[0].message


# 2. Anything but a journal of ours at the name: left alone, never a hang, never a blocked commit.


def _unusable_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A state folder that cannot be made (a file is in the way): the journal goes in the root."""
    blocker = tmp_path / "state-blocked"
    blocker.write_text("a file where the state folder should be")
    monkeypatch.setenv("APPLY_PATCH_STATE_DIR", str(blocker / "apply_patch"))


def _occupy(root: Path, kind: str) -> None:
    journal = root / JOURNAL
    if kind == "fifo":
        os.mkfifo(journal)
    elif kind == "symlink":
        journal.symlink_to("../elsewhere")
    elif kind == "folder":
        journal.mkdir()
        (journal / "inside").write_text("kept\n")
    elif kind == "group-writable":
        journal.write_bytes(V1 + _journal.record("delete", str(root), "a.txt", *identity(root / "a.txt")) + _journal.COMMIT)
        journal.chmod(0o660)
    elif kind == "world-writable":
        journal.write_bytes(V1 + _journal.record("delete", str(root), "a.txt", *identity(root / "a.txt")) + _journal.COMMIT)
        journal.chmod(0o606)
    elif kind == "two-links":
        journal.write_bytes(V1 + _journal.record("delete", str(root), "a.txt", *identity(root / "a.txt")) + _journal.COMMIT)
        journal.chmod(0o600)
        os.link(journal, root.parent / "second-name")


KINDS = ["fifo", "symlink", "folder", "group-writable", "world-writable", "two-links"]
WHY = {
    "fifo": "it is a named pipe, not a regular file",
    "symlink": "it is a symlink",
    "folder": "it is a folder, not a regular file",
    "group-writable": "others may write it (mode 0660)",
    "world-writable": "others may write it (mode 0606)",
    "two-links": "it has 2 links",
}


@pytest.mark.parametrize("state", ["usable", "unusable"])
@pytest.mark.parametrize("kind", KINDS)
def test_anything_else_at_the_journals_name_is_left_alone_and_the_commit_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, state: str
) -> None:
    if state == "unusable":
        _unusable_state(monkeypatch, tmp_path)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    _occupy(root, kind)
    occupant = tree_of(root)
    result = subprocess.run([executable(), "-C", str(root), GOOD], capture_output=True, timeout=30)
    stderr = result.stderr.decode()
    assert result.returncode == 0, stderr
    assert (root / "added.txt").read_text() == "added\n"
    now = tree_of(root)
    del now["added.txt"]
    assert now == occupant  # the occupant, and a.txt it names, as they were
    assert f"{JOURNAL} in the root was not obeyed: {WHY[kind]}; it was left as it is" in stderr, stderr
    if state == "unusable":
        assert "this commit had no crash journal" in stderr, stderr
    assert "Traceback" not in stderr


def test_a_fifo_at_the_journals_name_never_hangs_a_refused_patch(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / JOURNAL)
    result = subprocess.run([executable(), "-C", str(tmp_path), REFUSED], capture_output=True, timeout=30)
    assert result.returncode == 1
    assert b"not obeyed: it is a named pipe" in result.stderr


# 3. Where the journal lives, and what the next run checks.


KILLER = """
import os, signal, sys
from apply_patch import DEFAULT, parse_patch
from apply_patch.apply.disk import _receipts as written_receipts
from apply_patch.apply.disk._commit import Disk, commit
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

class Killer(Disk):
    def replace(self, *args):  # the first step after the journal is marked `commit`
        os.kill(os.getpid(), signal.SIGKILL)

root = sys.argv[1]
policy = DEFAULT.with_options(outside_root=sys.argv[2])
plan = make_plan(parse_patch(sys.stdin.read()), DiskTree(root, policy))
commit(plan, Killer(), written_receipts.Recorder(os.path.realpath(root)))
"""
UPDATE = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** End Patch\n"


def _killed(root: Path, patch: str = UPDATE, outside: str = "error") -> None:
    """A commit of `patch` killed once every new content is written (it is finished next)."""
    killed = subprocess.run(
        [sys.executable, "-c", KILLER, str(root), outside], input=patch, capture_output=True, text=True, timeout=60
    )
    assert killed.returncode == -9, killed.stderr


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    return root


def test_the_journal_lives_in_the_private_state_folder(tmp_path: Path) -> None:
    root = _root(tmp_path)
    _killed(root)
    assert not (root / JOURNAL).exists()
    journal = state_journal(root)
    info = journal.lstat()
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    real = os.stat(os.path.realpath(root))
    assert journal.read_bytes().startswith(b"apply_patch journal 2\nroot %d %d\n" % (real.st_dev, real.st_ino))
    assert recovered(root).done == ("a commit interrupted before it was complete was finished first (1 step)",)
    assert (root / "a.txt").read_text() == "A\n"
    assert not journal.exists() and sorted(os.listdir(root)) == ["a.txt"]


def test_without_a_usable_state_folder_the_journal_lives_in_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unusable_state(monkeypatch, tmp_path)
    root = _root(tmp_path)
    _killed(root)
    assert (root / JOURNAL).read_bytes().startswith(b"apply_patch journal 2\n")
    result = apply_patch(GOOD, root)
    assert [w.kind for w in result.warnings] == ["recovered", "journal"], [w.message for w in result.warnings]
    assert (root / "a.txt").read_text() == "A\n" and sorted(os.listdir(root)) == ["a.txt", "added.txt"]


def test_a_journal_written_for_another_folder_at_the_roots_path_is_not_obeyed(tmp_path: Path) -> None:
    root = _root(tmp_path)
    _killed(root)
    journal = state_journal(root)
    data = journal.read_bytes()
    lines = data.split(b"\n")
    forged = b"\n".join([lines[0], b"root 1 2", *lines[2:]])  # the root's device and inode, not these
    journal.write_bytes(forged)
    recovery = recovered(root)
    assert recovery.done == ()
    (refused,) = recovery.refused
    assert "was not obeyed: it was written for another folder at this path" in refused
    assert (root / "a.txt").read_text() == "a\n" and journal.read_bytes() == forged


def test_a_temporary_file_swapped_since_is_not_moved_in(tmp_path: Path) -> None:
    root = _root(tmp_path)
    _killed(root)
    (temp,) = [name for name in os.listdir(root) if name.endswith(".apply_patch.tmp")]
    (root / "theirs").write_text("someone else's bytes\n")
    os.replace(root / "theirs", root / temp)  # same name, another file (made first: another inode)
    recovery = recovered(root)
    assert (root / "a.txt").read_text() == "a\n"
    assert recovery.refused and "1 record" in recovery.refused[0] and "not the one it names" in recovery.refused[0]
    assert not state_journal(root).exists()  # recovered once (what passed its checks), then removed


def _own_journal(root: Path, records: bytes, *, private: bool = True, outside: bool = False) -> Path:
    """A journal of ours for `root` with `records` (in the state folder, else in the root)."""
    real = os.path.realpath(root)
    data = _journal.header(os.stat(real), outside=outside) + records
    if private:
        with written_receipts.made_store(real):
            pass
        path = state_journal(root)
    else:
        path = root / JOURNAL
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, data)
    os.close(fd)
    return path


@pytest.mark.parametrize("private", [True, False], ids=["state-folder", "root"])
@pytest.mark.parametrize(
    "folder",
    ["..", "../outside", "sub/../..", "/", "link", "link/deeper", "./sub", "sub//x", "a\0b"],
)
def test_records_not_confined_to_the_root_are_not_obeyed(tmp_path: Path, folder: str, private: bool) -> None:
    root = _root(tmp_path)
    (root / "sub").mkdir()
    outside = outside_victims(tmp_path)
    (outside / "deeper").mkdir()
    (root / "link").symlink_to(outside)
    for place in (outside, outside / "deeper", tmp_path):
        (place / "victim.txt").write_text("victim\n")
    identities = [identity(p / "victim.txt") for p in (outside, outside / "deeper", tmp_path)]
    before = snapshot(tmp_path)
    records = b"".join(_journal.record("delete", folder, "victim.txt", *i) for i in identities)
    records += _journal.record("folder", f"{folder}/empty")
    journal = _own_journal(root, records + _journal.COMMIT, private=private)
    recovery = recovered(root)
    assert snapshot(tmp_path) == before
    assert not journal.exists()  # ours: recovered once (nothing passed its checks), removed
    assert recovery.refused and "not obeyed" in recovery.refused[0]


def test_records_inside_the_root_are_obeyed_when_their_files_match(tmp_path: Path) -> None:
    root = _root(tmp_path)
    (root / "sub").mkdir()
    (root / "sub" / "gone.txt").write_text("gone\n")
    (root / "sub" / "kept.txt").write_text("kept\n")
    records = _journal.record("delete", "sub", "gone.txt", *identity(root / "sub" / "gone.txt"))
    records += _journal.record("delete", "sub", "kept.txt", 1, 2)  # another file than this one
    _own_journal(root, records + _journal.COMMIT)
    recovery = recovered(root)
    assert recovery.done == ("a commit interrupted before it was complete was finished first (1 step)",)
    assert sorted(os.listdir(root / "sub")) == ["kept.txt"]


# 4. --outside-root allow: outside records only from the state folder, for the files they name.


OUTSIDE = "*** Begin Patch\n*** Update File: {path}\n@@\n-precious\n+PRECIOUS\n*** End Patch\n"


def test_an_outside_root_commit_is_finished_from_the_state_folder(tmp_path: Path) -> None:
    root, outside = _root(tmp_path), outside_victims(tmp_path)
    _killed(root, OUTSIDE.format(path=outside / "precious.txt"), outside="allow")
    assert b"\noutside allow\n" in state_journal(root).read_bytes()
    recovery = recovered(root)
    assert recovery.done and not recovery.refused
    assert (outside / "precious.txt").read_text() == "PRECIOUS\n"
    assert not [n for n in os.listdir(outside) if n.endswith(".apply_patch.tmp")]


def test_an_outside_root_journal_in_the_root_is_not_obeyed_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unusable_state(monkeypatch, tmp_path)
    root, outside = _root(tmp_path), outside_victims(tmp_path)
    _killed(root, OUTSIDE.format(path=outside / "precious.txt"), outside="allow")
    assert b"\noutside allow\n" in (root / JOURNAL).read_bytes()
    recovery = recovered(root)
    assert (outside / "precious.txt").read_text() == "precious\n"
    assert recovery.refused and "outside the root" in recovery.refused[0]


def test_outside_records_need_the_policy_recorded(tmp_path: Path) -> None:
    root, outside = _root(tmp_path), outside_victims(tmp_path)
    record = _journal.record("delete", str(outside), "precious.txt", *identity(outside / "precious.txt"))
    _own_journal(root, record + _journal.COMMIT, outside=False)
    assert recovered(root).refused
    assert (outside / "precious.txt").exists()


# 5. The previous version's journal: recovered once under the same checks, then removed.


def test_the_previous_versions_journal_is_recovered_once_then_removed(tmp_path: Path) -> None:
    root = _root(tmp_path)
    outside = outside_victims(tmp_path)
    (root / "gone.txt").write_text("gone\n")
    temp = ".b.txt.0123abcd.apply_patch.tmp"
    (root / temp).write_text("b\n")
    legacy = (
        V1
        + _journal.record("delete", str(root), "gone.txt", *identity(root / "gone.txt"))
        + _journal.record("delete", str(outside), "precious.txt", *identity(outside / "precious.txt"))
        + _journal.record("link", str(root), temp, "b.txt")
        + _journal.COMMIT
    )
    (root / JOURNAL).write_bytes(legacy)
    (root / JOURNAL).chmod(0o600)
    recovery = recovered(root)
    assert recovery.done == ("a commit interrupted before it was complete was finished first (2 steps)",)
    assert recovery.refused and "outside the root" in recovery.refused[0]
    assert sorted(os.listdir(root)) == ["a.txt", "b.txt"] and (root / "b.txt").read_text() == "b\n"
    assert (outside / "precious.txt").exists()
    assert recover(str(root)) is None  # the journal is gone: nothing to recover, `_recovery` not asked


def test_the_journals_name_stays_refused_as_an_edit_target(tmp_path: Path) -> None:
    with pytest.raises(PatchError, match="is the commit journal's name"):
        apply_patch(f"*** Begin Patch\n*** Add File: {JOURNAL}\n+apply_patch journal 1\n*** End Patch\n", tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("private", [True, False], ids=["state-folder", "root"])
@pytest.mark.parametrize("written", [b"", b"apply_patch jour", b"apply_patch journal 2\nroot "])
def test_a_journal_killed_while_its_header_was_written_is_removed(
    tmp_path: Path, written: bytes, private: bool
) -> None:
    root = _root(tmp_path)
    with written_receipts.made_store(os.path.realpath(root)):
        pass
    journal = state_journal(root) if private else root / JOURNAL
    journal.write_bytes(written)  # the process killed before the commit changed anything
    journal.chmod(0o600)
    assert recover(str(root)) == Recovery()  # (read back: nothing done)
    assert not journal.exists() and (root / "a.txt").read_text() == "a\n"
