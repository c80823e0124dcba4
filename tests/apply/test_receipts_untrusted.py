"""Receipts read back are untrusted input (issue #33, classes 2 and 5), and undo a person can
type (issue #36): owners restored, saved copies that nobody else can change and that are
checked before use, ids that are short and ordered without the clock, every record validated
(a bad one skipped with a warning, the rest working), and one cap on the state folder.

Tests that look at the state folder give each its own through `XDG_STATE_HOME`; those that
need another user run a forked child under a numeric uid (the suite runs as root in CI).
"""

import json
import os
import stat
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _support import run_cli, snapshot
from apply_patch import UndoError, apply_patch, history, show, undo

OTHER = 12345  # a user and group nobody has: files of "another user"
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="makes files of another user (CI runs as root)")


def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


def _folder(state: Path) -> Path:
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    return folder


def _record(state: Path, receipt: str | None) -> Path:
    (path,) = _folder(state).glob(f"*{receipt}.json")
    return path


def _as_other(action: Callable[[], None], uid: int = OTHER, gid: int = OTHER) -> None:
    """Run `action` in a forked child as `uid`:`gid` (no other group); fail if it fails."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            action()
            code = 0
        except BaseException as exc:  # noqa: BLE001  (reported through the exit code)
            os.write(2, f"child failed: {exc!r}\n".encode())
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def _patch(*lines: str) -> str:
    return "*** Begin Patch\n" + "".join(f"{line}\n" for line in lines) + "*** End Patch"


# Class 2: undo restores the owner.


@ROOT_ONLY
@pytest.mark.parametrize("how", ["delete", "move"])
def test_roots_undo_gives_another_users_setuid_file_back_to_them(tmp_path: Path, how: str) -> None:
    tool = tmp_path / "tool"
    tool.write_bytes(b"#!/bin/sh\necho tool\n")
    os.chown(tool, OTHER, OTHER)
    tool.chmod(0o6755)
    if how == "delete":
        apply_patch(_patch("*** Delete File: tool"), tmp_path)
    else:
        apply_patch(_patch("*** Update File: tool", "*** Move to: bin/tool", "@@", "-echo tool", "+echo moved"), tmp_path)
    undo(tmp_path)
    info = tool.lstat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (OTHER, OTHER, 0o6755)
    assert tool.read_bytes() == b"#!/bin/sh\necho tool\n"


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temporary folder another user can reach (pytest's own are private to root)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@ROOT_ONLY
def test_an_undo_that_cannot_give_the_group_back_drops_setgid(open_tmp: Path) -> None:
    tmp_path = open_tmp
    root = tmp_path / "root"
    root.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    for folder in (root, state):
        os.chown(folder, OTHER, OTHER)
    tool = root / "tool"
    tool.write_bytes(b"x\n")
    os.chown(tool, OTHER, 0)  # the user's file, of a group they are not in
    tool.chmod(0o2755)
    os.environ["XDG_STATE_HOME"], saved = str(state), os.environ["XDG_STATE_HOME"]
    try:
        _as_other(lambda: (apply_patch(_patch("*** Delete File: tool"), root), undo(root)) and None)
    finally:
        os.environ["XDG_STATE_HOME"] = saved
    info = tool.lstat()
    assert (info.st_uid, info.st_gid) == (OTHER, OTHER)
    assert stat.S_IMODE(info.st_mode) == 0o755  # not setgid for a group it never had


# Class 5: saved copies nobody else can change, checked before use.


def test_a_file_with_other_links_is_saved_as_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old\n")
    sibling = tmp_path / "sibling.txt"
    os.link(root / "a.txt", sibling)
    result = apply_patch(_patch("*** Update File: a.txt", "@@", "-old", "+new"), root)
    saved = next((_folder(state) / _record(state, result.receipt).stem).iterdir())
    assert saved.stat().st_ino != sibling.stat().st_ino
    sibling.write_bytes(b"written through the other name\n")  # the old inode, still named there
    assert "-old\n+new\n" in show(root, result.receipt)
    undo(root)
    assert (root / "a.txt").read_bytes() == b"old\n"


def test_a_file_with_one_link_is_saved_as_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old\n")
    inode = (root / "a.txt").stat().st_ino
    result = apply_patch(_patch("*** Update File: a.txt", "@@", "-old", "+new"), root)
    saved = next((_folder(state) / _record(state, result.receipt).stem).iterdir())
    assert saved.stat().st_ino == inode and saved.stat().st_nlink == 1


def test_a_saved_copy_changed_since_is_neither_shown_nor_restored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old\n")
    result = apply_patch(_patch("*** Update File: a.txt", "@@", "-old", "+new"), root)
    saved = next((_folder(state) / _record(state, result.receipt).stem).iterdir())
    saved.write_bytes(b"planted\n")
    text = show(root, result.receipt)
    assert "planted" not in text and "saved copy" in text
    before = snapshot(root)
    with pytest.raises(UndoError, match="saved copy of a.txt was changed"):
        undo(root)
    assert snapshot(root) == before


@ROOT_ONLY
def test_show_hides_another_users_hard_linked_file_as_the_diff_does(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"secret one\nsecret two\n")
    os.chown(root / "a.txt", OTHER, OTHER)
    os.link(root / "a.txt", tmp_path / "elsewhere.txt")
    result = apply_patch(_patch("*** Update File: a.txt", "@@", " secret one", "+added"), root)
    shown = show(root, result.receipt)
    assert "secret" not in shown and "content is not shown" in shown
    undo(root)
    assert (root / "a.txt").read_bytes() == b"secret one\nsecret two\n"


# Ids and order.


def test_ids_are_short_and_a_prefix_of_four_characters_is_enough(tmp_path: Path) -> None:
    result = apply_patch(_patch("*** Add File: a.txt", "+a"), tmp_path)
    receipt = str(result.receipt)
    assert 4 <= len(receipt) <= 12 and receipt.isalnum()
    assert show(tmp_path, receipt[:4]).startswith(f"# receipt {receipt} ")
    before = snapshot(tmp_path)
    with pytest.raises(UndoError, match="at least 4 characters"):
        undo(tmp_path, receipt[:3])
    assert snapshot(tmp_path) == before
    undo(tmp_path, receipt[:4])
    assert not (tmp_path / "a.txt").exists()


def test_after_the_clock_steps_back_undo_reverts_the_newest_patch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    apply_patch(_patch("*** Add File: first.txt", "+1"), tmp_path)
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() - 86_400 * 10**9)  # a day back
    monkeypatch.setattr(time, "time", lambda: real() / 1e9 - 86_400)
    second = apply_patch(_patch("*** Add File: second.txt", "+2"), tmp_path)
    assert [r.id for r in history(tmp_path)][-1] == second.receipt
    undo(tmp_path)
    assert (tmp_path / "first.txt").exists() and not (tmp_path / "second.txt").exists()


def test_show_and_undo_without_an_id_take_the_last(tmp_path: Path) -> None:
    apply_patch(_patch("*** Add File: a.txt", "+a"), tmp_path)
    second = apply_patch(_patch("*** Add File: b.txt", "+b"), tmp_path)
    shown = run_cli(["show"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.decode().startswith(f"# receipt {second.receipt} ")
    assert show(tmp_path).startswith(f"# receipt {second.receipt} ")
    assert run_cli(["undo"], tmp_path).returncode == 0
    assert (tmp_path / "a.txt").exists() and not (tmp_path / "b.txt").exists()


# Records validated: a bad one skipped with a warning, the rest working.


def _two_receipts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, str, str]:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    first = str(apply_patch(_patch("*** Add File: a.txt", "+a"), root).receipt)
    second = str(apply_patch(_patch("*** Add File: b.txt", "+b"), root).receipt)
    return state, root, first, second


BAD: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "not json": lambda document: b"{",
    "deeply nested": lambda document: b"[" * 100_000,
    "no files": lambda document: json.dumps({k: v for k, v in document.items() if k != "files"}).encode(),
    "files not a list": lambda document: json.dumps({**document, "files": 7}).encode(),
    "a path with ..": lambda document: json.dumps(
        {**document, "files": [{**document["files"][0], "path": "../outside.txt"}]}).encode(),
    "a folder with ..": lambda document: json.dumps({**document, "folders": ["../gone"]}).encode(),
    "a bad digest": lambda document: json.dumps(
        {**document, "files": [{**document["files"][0], "after": {"sha256": "x", "mode": 420}}]}).encode(),
    "another root": lambda document: json.dumps({**document, "root": "/elsewhere"}).encode(),
}


@pytest.mark.parametrize("damage", list(BAD))
def test_a_bad_receipt_is_skipped_with_a_warning_and_the_rest_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    state, root, first, second = _two_receipts(tmp_path, monkeypatch)
    (tmp_path / "gone").mkdir()  # an empty folder outside the root, that a receipt names
    path = _record(state, second)
    path.write_bytes(BAD[damage](json.loads(path.read_text())))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert [r.id for r in history(root)] == [first]
    assert len(caught) == 1 and path.stem in str(caught[0].message)
    listed = run_cli(["history"], root)
    assert listed.returncode == 0 and listed.stdout.decode().startswith(first)
    (line,) = listed.stderr.decode().splitlines()
    assert line.startswith("warning: ") and path.stem in line and "skipped" in line
    assert run_cli(["show", first], root).returncode == 0
    result = undo(root)
    assert [w.kind for w in result.warnings] == ["journal"] and path.stem in result.warnings[0].message
    assert not (root / "a.txt").exists() and (root / "b.txt").exists()
    assert (tmp_path / "gone").is_dir()


def test_a_saved_copy_outside_the_store_is_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old\n")
    result = apply_patch(_patch("*** Update File: a.txt", "@@", "-old", "+new"), root)
    path = _record(state, result.receipt)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"old\n")  # its digest is the saved one's
    document = json.loads(path.read_text())
    document["files"][0]["before"]["blob"] = "../../../outside.txt"
    path.write_text(json.dumps(document))
    before = snapshot(root)
    with pytest.raises(UndoError, match="Nothing to undo"):
        undo(root)
    assert snapshot(root) == before
    os.unlink(next((path.parent / path.stem).iterdir()))
    (path.parent / path.stem / "0").symlink_to(outside)  # a symlink in its place
    document["files"][0]["before"]["blob"] = "0"
    path.write_text(json.dumps(document))
    with pytest.raises(UndoError, match="saved copy of a.txt"):
        undo(root)
    assert snapshot(root) == before


def test_a_receipt_of_the_previous_version_is_read_and_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib
    import shutil

    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    apply_patch(_patch("*** Add File: later.txt", "+later"), root)  # makes the folder
    folder = _folder(state)
    for path in list(folder.iterdir()):  # the new receipt goes: the old one is all there was
        if path.is_dir():
            shutil.rmtree(path)
        elif path.name[:1].isdigit():
            path.unlink()
    old_id = "20261125-224723-792949911-3339"
    (folder / old_id).mkdir()
    (folder / old_id / "0").write_bytes(b"before\n")
    (root / "a.txt").write_bytes(b"after\n")
    (root / "later.txt").unlink()
    document = {
        "version": 1, "id": old_id, "time": "2026-11-25T22:47:23Z", "time_ns": 1, "root": os.path.realpath(root),
        "undoes": None, "operations": [{"letter": "M", "path": "a.txt", "source": None}],
        "files": [{"path": "a.txt",
                   "after": {"sha256": hashlib.sha256(b"after\n").hexdigest(), "mode": 0o4755},
                   "before": {"sha256": hashlib.sha256(b"before\n").hexdigest(), "mode": 0o4755, "blob": "0"}}],
        "folders": [],
    }
    (folder / f"{old_id}.json").write_text(json.dumps(document))
    (root / "a.txt").chmod(0o4755)
    assert [r.id for r in history(root)] == [old_id]
    new = apply_patch(_patch("*** Add File: b.txt", "+b"), root).receipt
    assert [r.id for r in history(root)] == [old_id, new]  # the old one first, kept
    undo(root, new)
    undo(root, old_id[:8])
    assert (root / "a.txt").read_bytes() == b"before\n"
    assert stat.S_IMODE((root / "a.txt").stat().st_mode) == 0o755  # whose it was is not known


# Undo a person can type.


def test_an_undo_refused_by_a_hand_revert_says_what_to_do(tmp_path: Path) -> None:
    first = apply_patch(_patch("*** Add File: a.txt", "+a"), tmp_path).receipt
    second = apply_patch(_patch("*** Add File: b.txt", "+b"), tmp_path).receipt
    (tmp_path / "b.txt").unlink()  # reverted by hand
    with pytest.raises(UndoError) as caught:
        undo(tmp_path)
    assert f"apply_patch undo {first}" in str(caught.value) and str(second) in str(caught.value)
    (tmp_path / "b.txt").write_text("edited by hand\n")
    with pytest.raises(UndoError) as caught:
        undo(tmp_path)
    assert f"apply_patch show {second}" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_undo_from_another_root_names_the_receipts_root_and_minus_c(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    receipt = str(apply_patch(_patch("*** Add File: sub/a.txt", "+a"), root).receipt)
    for where, named in ((root / "sub", None), (tmp_path, receipt)):
        before = snapshot(tmp_path)
        with pytest.raises(UndoError) as caught:
            undo(where, named)
        assert f"-C {os.path.realpath(root)}" in str(caught.value)
        assert snapshot(tmp_path) == before
    refused = run_cli(["undo", receipt[:6]], root / "sub")
    assert refused.returncode == 1 and b"-C " in refused.stderr


# The state folder's one cap.


def test_prune_drops_gone_roots_and_old_receipts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    kept, gone = tmp_path / "kept", tmp_path / "gone"
    for root in (kept, gone):
        root.mkdir()
    old = apply_patch(_patch("*** Add File: a.txt", "+a"), kept).receipt
    new = apply_patch(_patch("*** Update File: a.txt", "@@", "-a", "+A"), kept).receipt  # saves 2 bytes
    apply_patch(_patch("*** Add File: c.txt", "+c"), gone)
    (gone / "c.txt").unlink()
    gone.rmdir()
    month_ago = time.time() - 40 * 86_400
    for path in (state / "apply_patch").glob(f"*/*{old}*"):
        os.utime(path, (month_ago, month_ago))
    pruned = run_cli(["prune"], tmp_path)
    assert pruned.returncode == 0, pruned.stderr
    assert "1 folder of a root that no longer exists" in pruned.stdout.decode()
    assert len(list((state / "apply_patch").iterdir())) == 2  # kept's folder, and when it was last pruned
    assert [r.id for r in history(kept)] == [new]
    assert run_cli(["prune", "--max-size", "1"], tmp_path).returncode == 0
    assert history(kept) == ()  # its 2 saved bytes are over the cap
    assert "prune" in run_cli(["--help"], tmp_path).stdout.decode()


def test_a_commit_drops_the_folders_of_roots_gone_once_a_day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    gone, root = tmp_path / "gone", tmp_path / "root"
    for folder in (gone, root):
        folder.mkdir()
    apply_patch(_patch("*** Add File: c.txt", "+c"), gone)
    (gone / "c.txt").unlink()
    gone.rmdir()
    day_ago = time.time() - 2 * 86_400
    stamp = state / "apply_patch" / "pruned"
    os.utime(stamp, (day_ago, day_ago))
    apply_patch(_patch("*** Add File: a.txt", "+a"), root)
    assert sorted(p.name for p in (state / "apply_patch").iterdir()) == sorted([_folder_name(root), "pruned"])


def _folder_name(root: Path) -> str:
    from apply_patch.apply.records._receipts import folder_of

    return os.path.basename(folder_of(os.path.realpath(root)))
