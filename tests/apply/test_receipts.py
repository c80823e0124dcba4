"""Receipts, undo, history and show (issue #26): every commit leaves a receipt outside the
tree; `undo` puts back the bytes, modes and names it left, only when nothing changed since.

The suite's receipts go to a temporary state folder (`tests/conftest.py`); tests that
look at the folder itself give each its own through `XDG_STATE_HOME`.
"""

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from _support import Entry, run_cli, snapshot
from apply_patch import (
    PatchError,
    UndoError,
    apply_patch,
    history,
    show,
    undo,
)
from apply_patch.anthropic import TextEditor
from apply_patch.edits import StrReplace, apply_edits, apply_search_replace, apply_unified_diff
from apply_patch.responses import apply_calls


def _tree(root: Path) -> None:
    root.mkdir(exist_ok=True)
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    (root / "bom.txt").write_bytes(b"\xef\xbb\xbfalpha\nbeta\n")
    (root / "nonl.txt").write_bytes(b"x = 1\ny = 2")
    script = root / "run.sh"
    script.write_bytes(b"#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    private = root / "private.txt"
    private.write_bytes(b"secret\n")
    private.chmod(0o600)
    (root / "src").mkdir()
    (root / "src" / "mod.py").write_bytes(b"def f():\n    return 1\n")
    (root / "gone.txt").write_bytes(b"to be deleted\n")


Step = Callable[[Path], object]

STEPS: list[tuple[str, Step]] = [
    ("codex", lambda root: apply_patch(
        "*** Begin Patch\n*** Update File: crlf.txt\n@@\n one\n-two\n+TWO\n"
        "*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo hi\n+echo bye\n"
        "*** Delete File: gone.txt\n*** Add File: new/added.txt\n+added\n*** End Patch", root)),
    ("str_replace", lambda root: apply_edits([StrReplace("bom.txt", "beta", "BETA")], root)),
    ("search/replace", lambda root: apply_search_replace(
        "nonl.txt\n```\n<<<<<<< SEARCH\ny = 2\n=======\ny = 3\n>>>>>>> REPLACE\n```\n", root)),
    ("unified diff", lambda root: apply_unified_diff(
        "--- a/src/mod.py\n+++ b/src/mod.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n", root)),
    ("text editor", lambda root: TextEditor(root).run(
        {"command": "str_replace", "path": "private.txt", "old_str": "secret", "new_str": "public"})),
    ("responses", lambda root: apply_calls([{
        "type": "apply_patch_call", "call_id": "c1", "status": "completed",
        "operation": {"type": "delete_file", "path": "new/added.txt"}}], root)),
]


def test_every_format_undone_one_by_one_back_to_the_first_tree(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _tree(root)
    trees = [snapshot(root)]
    for name, step in STEPS:
        answer = step(root)
        assert not (isinstance(answer, dict) and answer.get("is_error")), (name, answer)
        assert snapshot(root) != trees[-1], name
        trees.append(snapshot(root))
    receipts = history(root)
    assert len(receipts) == len(STEPS)
    assert all(r.in_effect and r.undoes is None for r in receipts)
    for expected in reversed(trees[:-1]):
        result = undo(root)
        assert result.receipt is not None
        assert snapshot(root) == expected
    assert snapshot(root) == trees[0]
    with pytest.raises(UndoError, match="Nothing to undo"):
        undo(root)
    assert snapshot(root) == trees[0]


def test_undo_of_an_undo_redoes(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    applied = apply_patch("*** Begin Patch\n*** Update File: crlf.txt\n@@\n-three\n+3\n*** End Patch", tmp_path)
    after = snapshot(tmp_path)
    undone = undo(tmp_path, applied.receipt)
    assert snapshot(tmp_path) == before
    assert undone.summary.startswith(f"Undid {applied.receipt}.")
    redone = undo(tmp_path, undone.receipt)
    assert snapshot(tmp_path) == after
    assert [r.in_effect for r in history(tmp_path)] == [True, False, True]
    assert redone.receipt is not None


def test_an_undo_after_an_outside_change_refuses_and_changes_nothing(tmp_path: Path) -> None:
    _tree(tmp_path)
    apply_patch(
        "*** Begin Patch\n*** Update File: crlf.txt\n@@\n-three\n+3\n*** Add File: made.txt\n+m\n"
        "*** Delete File: gone.txt\n*** End Patch",
        tmp_path,
    )
    (tmp_path / "crlf.txt").write_bytes(b"someone else\n")
    (tmp_path / "gone.txt").write_bytes(b"back by hand\n")
    changed = snapshot(tmp_path)
    with pytest.raises(UndoError) as caught:
        undo(tmp_path)
    assert "crlf.txt" in str(caught.value) and "gone.txt" in str(caught.value)
    assert "made.txt" not in str(caught.value)
    assert snapshot(tmp_path) == changed
    assert caught.value.nothing_changed


def test_a_receipt_id_unknown_or_ambiguous_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(UndoError, match="Nothing to undo"):
        undo(tmp_path)
    apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", tmp_path)
    with pytest.raises(UndoError, match="No receipt 'nope'"):
        undo(tmp_path, "nope")
    with pytest.raises(UndoError, match="No receipt"):
        undo(tmp_path, "../x")
    assert snapshot(tmp_path) == {**before, "a.txt": snapshot(tmp_path)["a.txt"]}


def test_a_failed_commit_leaves_no_receipt_and_a_dry_run_none(tmp_path: Path) -> None:
    _tree(tmp_path)
    with pytest.raises(PatchError):
        apply_patch("*** Begin Patch\n*** Update File: crlf.txt\n@@\n-nowhere\n+x\n*** End Patch", tmp_path)
    dry = apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", tmp_path, dry_run=True)
    assert dry.receipt is None
    assert history(tmp_path) == ()


def _named(folder: Path, receipt: object) -> Path:
    """The receipt `receipt`'s record (`SEQUENCE-ID.json`); its saved files are in the folder
    of its stem."""
    (path,) = folder.glob(f"*-{receipt}.json")
    return path


def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


def test_the_receipts_are_private_outside_the_tree_and_hold_the_old_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    _tree(root)
    result = apply_patch("*** Begin Patch\n*** Update File: private.txt\n@@\n-secret\n+open\n*** End Patch", root)
    assert snapshot(root)["private.txt"].data == b"open\n"
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    for path in (state / "apply_patch", folder):
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
    receipt = json.loads(_named(folder, result.receipt).read_text())
    assert receipt["root"] == os.path.realpath(root)
    (entry,) = receipt["files"]
    assert entry["path"] == "private.txt" and entry["before"]["mode"] == 0o600
    assert (folder / _named(folder, result.receipt).stem / entry["before"]["blob"]).read_bytes() == b"secret\n"
    assert not [p for p in root.rglob("*") if "apply_patch" in p.name]


def test_without_a_journal_the_commit_happens_and_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(tmp_path, monkeypatch)
    state.write_text("a file where the state folder should be")
    root = tmp_path / "root"
    _tree(root)
    result = apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root)
    assert result.receipt is None
    assert (root / "a.txt").read_bytes() == b"a\n"
    assert [w.kind for w in result.warnings] == ["journal"]
    assert "undo is unavailable" in result.report()


def test_a_required_journal_that_cannot_be_written_refuses_the_patch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(tmp_path, monkeypatch)
    state.write_text("not a folder")
    root = tmp_path / "root"
    _tree(root)
    before = snapshot(root)
    with pytest.raises(PatchError, match="journal is required"):
        apply_patch("*** Begin Patch\n*** Update File: crlf.txt\n@@\n-two\n+2\n*** End Patch", root, journal="required")
    assert snapshot(root) == before


def test_a_state_folder_through_a_symlink_is_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    state.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (state / "apply_patch").symlink_to(elsewhere)
    root = tmp_path / "root"
    _tree(root)
    result = apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root)
    assert result.receipt is None and "undo is unavailable" in result.report()
    assert list(elsewhere.iterdir()) == []


def test_the_journal_off_writes_no_receipt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    _tree(root)
    result = apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root, journal="off")
    assert result.receipt is None and not result.warnings
    assert not state.exists()


def test_apply_patch_state_dir_places_the_receipts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = tmp_path / "chosen"
    monkeypatch.setenv("APPLY_PATCH_STATE_DIR", str(chosen))
    root = tmp_path / "root"
    _tree(root)
    result = apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root)
    (folder,) = [p for p in chosen.iterdir() if p.is_dir()]
    assert _named(folder, result.receipt).is_file()


def test_receipts_are_pruned_by_count(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apply_patch.apply.disk import _receipts

    monkeypatch.setattr(_receipts, "KEEP_COUNT", 3)
    _tree(tmp_path)
    ids = [apply_patch(f"*** Begin Patch\n*** Add File: f{n}.txt\n+{n}\n*** End Patch", tmp_path).receipt for n in range(5)]
    assert [r.id for r in history(tmp_path)] == ids[-3:]


def test_show_prints_a_receipt_as_a_diff(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = apply_patch("*** Begin Patch\n*** Update File: src/mod.py\n@@\n-    return 1\n+    return 5\n*** End Patch", tmp_path)
    assert result.receipt is not None
    text = show(tmp_path, result.receipt[:20])
    assert text.startswith(f"# receipt {result.receipt} (")
    assert "--- a/src/mod.py\n+++ b/src/mod.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 5\n" in text
    (tmp_path / "src" / "mod.py").write_text("changed\n")
    assert "# src/mod.py: changed since" in show(tmp_path, result.receipt)


def test_the_executable_undoes_lists_and_shows(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    patch = b"*** Begin Patch\n*** Update File: bom.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n"
    applied = run_cli(["--json"], tmp_path, patch)
    assert applied.returncode == 0, applied.stderr
    receipt = json.loads(applied.stdout)["receipt"]
    listed = run_cli(["history", "--json"], tmp_path)
    assert [r["id"] for r in json.loads(listed.stdout)] == [receipt]
    assert run_cli(["history"], tmp_path).stdout.decode() == (
        f"{receipt}  {json.loads(listed.stdout)[0]['time']}\n  M bom.txt\n"
    )
    shown = run_cli(["show", receipt], tmp_path)
    assert b"-\xef\xbb\xbfalpha\n+\xef\xbb\xbfALPHA\n" in shown.stdout or b"+ALPHA" in shown.stdout
    (tmp_path / "bom.txt").write_bytes(b"edited\n")
    refused = run_cli(["undo"], tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.decode() == (
        f"Cannot undo {receipt}: changed since it was applied: bom.txt; nothing was undone. "
        f"`apply_patch show {receipt}` shows what it changed: put that file back as the patch left it "
        "and undo again, or undo it by hand\n"
    )
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfALPHA\nbeta\n")
    undone = run_cli(["undo", "-C", str(tmp_path)], tmp_path / "src")
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.decode() == f"Undid {receipt}. Updated the following files:\nM bom.txt\n"
    assert snapshot(tmp_path) == before


def test_an_interrupted_commit_left_half_done_is_undone_file_by_file(tmp_path: Path) -> None:
    """A receipt whose commit was cut short (a file at its before, another at its after)."""
    _tree(tmp_path)
    before = snapshot(tmp_path)
    result = apply_patch(
        "*** Begin Patch\n*** Update File: crlf.txt\n@@\n-two\n+2\n*** Update File: nonl.txt\n@@\n-x = 1\n+x = 0\n"
        "*** End Patch",
        tmp_path,
    )
    (tmp_path / "nonl.txt").write_bytes(before["nonl.txt"].data)  # as if never replaced
    undo(tmp_path, result.receipt)
    assert snapshot(tmp_path) == before
    assert isinstance(before["nonl.txt"], Entry)


def test_names_beyond_ascii_are_undone(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "caf\u00e9.txt").write_bytes(b"old\n")
    before = snapshot(tmp_path)
    apply_patch("*** Begin Patch\n*** Add File: \u00e9t\u00e9 \U0001f600.txt\n+new\n*** End Patch", tmp_path)
    apply_edits([StrReplace("caf\u00e9.txt", "old", "new")], tmp_path)
    undo(tmp_path)
    undo(tmp_path)
    assert snapshot(tmp_path) == before


def test_what_a_killed_writer_left_is_pruned_and_pending_patches_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    _tree(root)
    apply_patch("*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch", root)
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    (folder / "20200101-000000-000000000-abcd").mkdir()  # saved files of a receipt never written
    (folder / "20200101-000000-000000000-abcd" / "0").write_bytes(b"old")
    (folder / ".20200101-000000-000000000-abcd.tmp").write_bytes(b"{")
    (folder / "pending").mkdir()
    (folder / "pending" / "x.json").write_bytes(b"{}")
    apply_patch("*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch", root)
    names = sorted(p.name for p in folder.iterdir())
    assert "20200101-000000-000000000-abcd" not in names and ".20200101-000000-000000000-abcd.tmp" not in names
    assert (folder / "pending" / "x.json").read_bytes() == b"{}"
    assert len(history(root)) == 2


def test_old_files_are_linked_on_one_file_system_and_copied_across(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replaced file itself is kept (a hard link: no copy) where the state folder shares
    its file system; elsewhere (/dev/shm, a tmpfs) its bytes are copied."""
    import shutil
    import tempfile

    patch = "*** Begin Patch\n*** Update File: crlf.txt\n@@\n-two\n+2\n*** End Patch"
    elsewhere = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        _linked_or_copied(tmp_path, monkeypatch, patch, (tmp_path / "state", elsewhere / "state"))
    finally:
        shutil.rmtree(elsewhere)


def _linked_or_copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, patch: str, states: tuple[Path, ...]) -> None:
    for state in states:
        monkeypatch.setenv("APPLY_PATCH_STATE_DIR", str(state))
        root = tmp_path / f"root-{state.parent.name}"
        _tree(root)
        before = snapshot(root)
        old = (root / "crlf.txt").stat()
        result = apply_patch(patch, root)
        (folder,) = [p for p in state.iterdir() if p.is_dir()]
        saved = (folder / _named(folder, result.receipt).stem / "0").stat()
        linked = saved.st_dev == old.st_dev
        assert ((saved.st_dev, saved.st_ino) == (old.st_dev, old.st_ino)) is linked
        assert linked is (state.parent == tmp_path), state
        assert (folder / _named(folder, result.receipt).stem / "0").read_bytes() == before["crlf.txt"].data
        undo(root)
        assert snapshot(root) == before


def test_calls_and_extract_apply_leave_receipts_undone_one_by_one(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _tree(root)
    before = snapshot(root)
    call = {"type": "apply_patch_call", "call_id": "c1",
            "operation": {"type": "create_file", "path": "n.txt", "diff": "+n\n"}}
    assert run_cli(["calls"], root, json.dumps(call).encode()).returncode == 0
    log = tmp_path / "session.log"
    log.write_text(
        "$ apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: nonl.txt\n@@\n-x = 1\n+x = 9\n*** End Patch\nEOF\n"
        "Success. Updated the following files:\nM nonl.txt\n"
    )
    replayed = run_cli(["extract", "--apply", str(log)], root)
    assert replayed.returncode == 0, replayed.stderr
    assert (root / "nonl.txt").read_bytes() == b"x = 9\ny = 2"
    assert [r.operations for r in history(root)] == [("A n.txt",), ("M nonl.txt",)]
    for _ in range(2):
        assert run_cli(["undo"], root).returncode == 0
    assert snapshot(root) == before


def test_pruning_reads_the_sizes_index_not_every_saved_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each commit prunes by the saved bytes of every kept receipt: they are read from the
    index `sizes`, so an old receipt's saved files are measured once, not at every commit;
    an index lost or damaged is rebuilt, and pruning by bytes still keeps the newest."""
    from apply_patch.apply.disk import _receipts

    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    _tree(root)
    measured: list[str] = []
    from apply_patch.apply.records import saved_size as real_size

    def size(parent: int, receipt: str) -> int:
        measured.append(receipt)
        return real_size(parent, receipt)

    monkeypatch.setattr(_receipts, "saved_size", size)
    (root / "big.txt").write_bytes(b"x" * 1000 + b"\n")
    ids: list[str] = []
    for n in range(4):
        patch = f"*** Begin Patch\n*** Update File: big.txt\n@@\n-{'x' * 1000 if n == 0 else n - 1}\n+{n}\n*** End Patch"
        receipt = apply_patch(patch, root).receipt
        assert receipt is not None
        ids.append(receipt)
    assert measured == []  # each new receipt's size is known when written; the older ones are in the index
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    index = dict(line.split() for line in (folder / "sizes").read_text().splitlines())
    names = [_named(folder, receipt).stem for receipt in ids]
    assert sorted(index) == names and int(index[names[0]]) == 1001  # the first saved the 1,001-byte file whole

    (folder / "sizes").write_text("garbage\n" + f"{names[1]} not-a-number\n")
    ids.append(str(apply_patch("*** Begin Patch\n*** Add File: new.txt\n+n\n*** End Patch", root).receipt))
    assert sorted(measured) == names  # measured once each, the index being of no use
    measured.clear()
    monkeypatch.setattr(_receipts, "KEEP_BYTES", 10)  # the first's 1,001 bytes no longer fit: it goes
    ids.append(str(apply_patch("*** Begin Patch\n*** Add File: last.txt\n+l\n*** End Patch", root).receipt))
    assert measured == [] and [r.id for r in history(root)] == ids[1:]
    index = dict(line.split() for line in (folder / "sizes").read_text().splitlines())
    assert sorted(index) == sorted(_named(folder, receipt).stem for receipt in ids[1:])
    assert sum(map(int, index.values())) <= 10
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".")]


def test_large_contents_hashed_in_threads_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Contents over a megabyte are hashed beside the commit, several threads sharing them:
    # each digest in the receipt is still its own content's, and the patch is undone.
    import hashlib

    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    sizes = {"a.txt": 3_000_000, "b.txt": 1_500_000, "c.txt": 1_200_000, "d.txt": 100, "e.txt": 2_000_000}
    before = {name: b"".join(b"%s %d\n" % (name.encode(), n) for n in range(size // 12)) for name, size in sizes.items()}
    for name, data in before.items():
        (root / name).write_bytes(data)
    edits = [StrReplace(name, f"{name} 5\n", f"{name} five\n") for name in sizes]
    result = apply_edits(edits, root)
    after = {name: (root / name).read_bytes() for name in sizes}
    assert all(after[name] == data.replace(b" 5\n", b" five\n", 1) for name, data in before.items())
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    receipt = json.loads(_named(folder, result.receipt).read_text())
    for entry in receipt["files"]:
        name = entry["path"]
        assert entry["before"]["sha256"] == hashlib.sha256(before[name]).hexdigest()
        assert entry["after"]["sha256"] == hashlib.sha256(after[name]).hexdigest()
    undo(root)
    assert {name: (root / name).read_bytes() for name in sizes} == before


@pytest.mark.parametrize("failure", ["no thread", "a thread fails"])
def test_large_contents_hashed_without_their_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], failure: str
) -> None:
    # A thread that cannot be started, or whose hashing fails (no memory left): the commit
    # hashes those contents itself, and says nothing of it.
    import hashlib
    import threading

    from apply_patch.apply.records import _receipts

    main = threading.get_ident()
    real = _receipts.digest

    def failing(data: bytes) -> str:
        if threading.get_ident() != main:
            raise MemoryError
        return real(data)

    def no_thread(*_: object) -> None:
        raise RuntimeError("can't start new thread")

    if failure == "no thread":
        monkeypatch.setattr(threading.Thread, "start", no_thread)
    else:
        monkeypatch.setattr(_receipts, "digest", failing)
    state = _state(tmp_path, monkeypatch)
    root = tmp_path / "root"
    root.mkdir()
    old = b"line\n" * 400_000 + b"end\n"
    (root / "big.txt").write_bytes(old)
    result = apply_edits([StrReplace("big.txt", "end", "END")], root)
    (folder,) = [p for p in (state / "apply_patch").iterdir() if p.is_dir()]
    (entry,) = json.loads(_named(folder, result.receipt).read_text())["files"]
    assert entry["before"]["sha256"] == hashlib.sha256(old).hexdigest()
    assert entry["after"]["sha256"] == hashlib.sha256((root / "big.txt").read_bytes()).hexdigest()
    assert result.warnings == () and capfd.readouterr().err == ""  # no traceback from a thread
