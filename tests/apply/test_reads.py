"""Reads that show content hold the commit's promises: nothing from outside the root, no
shared file of another user, never the whole of a file `view` does not need.

Deterministic reproductions of issue #22's findings: a file or folder swapped
for a symlink to an outside file between resolving a path and reading it (the
campaign in `tests/test_hostile.py` does it with a racing thread); a hard link
to another user's file; files of any size seen through `view`.
"""

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _support import PROPERTY, Entry, snapshot
from apply_patch import DEFAULT, ConcurrentChangeError, PatchError, PatchIOError, apply_patch
from apply_patch.anthropic import TextEditor
from apply_patch.apply import DiskTree, FolderChanged, LineReader, split_text
from apply_patch.edits import CreateFile, StrReplace, apply_edits
from apply_patch.responses import apply_calls

ROOT_ONLY = pytest.mark.skipif(
    os.geteuid() != 0, reason="needs root: files of another owner (CI runs the suite as root)"
)
SECRET = "password=hunter2\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """A root with a file and a folder, and an outside file a symlink can lead to."""
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "a.txt").write_text("inside\n")
    (root / "d" / "f.txt").write_text("inside too\n")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    return root, secret


def _swap_for_a_symlink(path: Path, secret: Path) -> None:
    os.rename(path, path.with_name(path.name + ".real"))
    os.symlink(secret, path)


class SwappingTree(DiskTree):
    """Swaps what `swapped` names for a symlink to the secret right after resolving it."""

    swapped: Path
    secret: Path

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None):  # type: ignore[no-untyped-def]
        where = super().resolve(written, follow_leaf=follow_leaf, line=line)
        if self.swapped.exists() and not self.swapped.is_symlink():
            _swap_for_a_symlink(self.swapped, self.secret)
        return where


@pytest.fixture
def swapping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    root, secret = _tree(tmp_path)
    SwappingTree.secret = secret
    monkeypatch.setattr("apply_patch.apply._pipeline.DiskTree", SwappingTree)
    monkeypatch.setattr("apply_patch.apply.DiskTree", SwappingTree)
    return root, secret


# 1. A symlink swapped in after the path was resolved is never read through.


def test_a_file_swapped_for_a_symlink_after_resolving_is_not_read(tmp_path: Path) -> None:
    root, secret = _tree(tmp_path)
    tree = DiskTree(str(root), DEFAULT)
    where = tree.resolve("a.txt")
    _swap_for_a_symlink(root / "a.txt", secret)
    with pytest.raises(FolderChanged) as caught:
        tree.read(where.target)
    assert (caught.value.what, caught.value.why) == ("file", "is now a symlink")


def test_a_folder_swapped_for_a_symlink_after_resolving_is_not_read(tmp_path: Path) -> None:
    root, secret = _tree(tmp_path)
    tree = DiskTree(str(root), DEFAULT)
    where = tree.resolve("d/f.txt")
    os.rename(root / "d", root / "d.real")
    os.symlink(tmp_path, root / "d")  # d/f.txt would now be outside
    (tmp_path / "f.txt").write_text(SECRET)
    with pytest.raises(FolderChanged) as caught:
        tree.read(where.target)
    assert (caught.value.what, caught.value.why) == ("folder", "is now a symlink")


@pytest.mark.parametrize("surface", ["codex", "str_replace", "apply_calls", "text_editor"])
def test_a_failing_edit_never_quotes_a_file_swapped_in(swapping: tuple[Path, Path], surface: str) -> None:
    root, secret = swapping
    SwappingTree.swapped = root / "a.txt"
    before = snapshot(root)
    text = _failing(surface, root)
    assert "hunter2" not in text
    assert "a.txt changed on disk while the patch was being read: the file a.txt is now a symlink" in text
    swapped_only = {**before, "a.txt": Entry("link", os.fsencode(secret)), "a.txt.real": before["a.txt"]}
    assert snapshot(root) == swapped_only  # the swap, and nothing of the edit
    assert secret.read_text() == SECRET


def _failing(surface: str, root: Path) -> str:
    """The message of an edit of a.txt that matches nothing, through one surface."""
    if surface == "codex":
        with pytest.raises(ConcurrentChangeError) as caught:
            apply_patch("*** Begin Patch\n*** Update File: a.txt\n-nope\n+x\n*** End Patch", root)
        return str(caught.value)
    if surface == "str_replace":
        with pytest.raises(ConcurrentChangeError) as caught:
            apply_edits([StrReplace("a.txt", "nope", "x")], root)
        return str(caught.value)
    if surface == "apply_calls":
        call = {"type": "apply_patch_call", "call_id": "c", "operation": {
            "type": "update_file", "path": "a.txt", "diff": "-nope\n+x\n"}}
        [output] = apply_calls([call], root)
        assert output["status"] == "failed"
        return str(output["output"])
    answer = TextEditor(root).run({"command": "str_replace", "path": "a.txt", "old_str": "nope", "new_str": "x"})
    assert answer["is_error"]
    return str(answer["content"])


@pytest.mark.parametrize("swapped", ["a.txt", "d"])
def test_view_never_shows_a_file_or_folder_swapped_in(swapping: tuple[Path, Path], swapped: str) -> None:
    root, secret = swapping
    SwappingTree.swapped = root / swapped
    answer = TextEditor(root).run({"command": "view", "path": swapped})
    assert answer["is_error"], answer
    assert "hunter2" not in answer["content"]
    assert answer["content"] == (
        f"Error: {swapped} changed on disk while it was being read: the file {swapped} is now a symlink"
    )


def test_a_listing_does_not_enter_a_folder_swapped_for_a_symlink(tmp_path: Path) -> None:
    root, _ = _tree(tmp_path)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "leaked.txt").write_text(SECRET)
    os.symlink(tmp_path / "outside", root / "link")
    listing = TextEditor(root).run({"command": "view", "path": "."})["content"]
    assert listing.splitlines()[1:] == ["a.txt", "d/", "d/f.txt", "link"]


# 2. One hard-link rule: another user's shared file is never shown, the user's own are.


def _nobody() -> tuple[int, int]:
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A root holding a hard link to another user's file outside it."""
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("password=hunter2\nsecond line\n")
    os.chown(tmp_path / "secret.txt", *_nobody())
    os.link(tmp_path / "secret.txt", root / "shared.txt")
    return root


@ROOT_ONLY
def test_view_does_not_show_another_users_shared_file(shared: Path) -> None:
    for asked in ({}, {"view_range": [1, 1]}):
        answer = TextEditor(shared).run({"command": "view", "path": "shared.txt", **asked})
        assert answer == {
            "content": "Error: shared.txt has 2 hard links and another owner: its content is not shown",
            "is_error": True,
        }


@ROOT_ONLY
@pytest.mark.parametrize("surface", ["codex", "str_replace", "apply_calls", "text_editor"])
def test_messages_quote_no_line_of_another_users_shared_file(shared: Path, surface: str) -> None:
    (shared / "a.txt").unlink(missing_ok=True)
    os.link(shared / "shared.txt", shared / "a.txt")  # three names now
    before = snapshot(shared)
    text = _message_about_a_missing_line(surface, shared)
    assert "hunter2" not in text and "second line" not in text
    assert "a.txt has 3 hard links and another owner: its content is not shown." in text
    assert snapshot(shared) == before


def _message_about_a_missing_line(surface: str, root: Path) -> str:
    if surface == "codex":
        with pytest.raises(Exception) as caught:
            apply_patch("*** Begin Patch\n*** Update File: a.txt\n-password=hunter3\n+x\n*** End Patch", root)
        return str(caught.value)
    if surface == "str_replace":
        with pytest.raises(Exception) as caught:
            apply_edits([StrReplace("a.txt", "password=hunter3", "x")], root)
        return str(caught.value)
    if surface == "apply_calls":
        call = {"type": "apply_patch_call", "call_id": "c", "operation": {
            "type": "update_file", "path": "a.txt", "diff": "-password=hunter3\n+x\n"}}
        return str(apply_calls([call], root)[0]["output"])
    return str(TextEditor(root).run(
        {"command": "str_replace", "path": "a.txt", "old_str": "password=hunter3", "new_str": "x"}
    )["content"])


@ROOT_ONLY
def test_another_users_shared_file_can_still_be_edited(shared: Path) -> None:
    apply_patch("*** Begin Patch\n*** Update File: shared.txt\n-second line\n+2nd line\n*** End Patch", shared)
    assert (shared / "shared.txt").read_text() == "password=hunter2\n2nd line\n"
    assert (shared.parent / "secret.txt").read_text() == "password=hunter2\nsecond line\n"


def test_the_users_own_shared_file_is_viewed(tmp_path: Path) -> None:
    (tmp_path / "store.txt").write_text("mine\n")
    os.link(tmp_path / "store.txt", tmp_path / "linked.txt")
    assert TextEditor(tmp_path).run({"command": "view", "path": "linked.txt"})["content"] == "1: mine"


# 3. Bounded reads.


@given(
    text=st.text(alphabet="ab\r\n\ufeffé", max_size=60),
    first=st.integers(1, 12),
    span=st.none() | st.integers(0, 6),
    cap=st.integers(1, 12),
    chunk=st.integers(3, 9),
)
@PROPERTY
def test_the_line_reader_splits_as_the_planner_does(
    text: str, first: int, span: int | None, cap: int, chunk: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import apply_patch.apply.planning._lines as lines_module

    path = tmp_path_factory.mktemp("lines") / "f"
    path.write_bytes(text.encode())
    expected = split_text(text).lines
    last = None if span is None else first + span
    fd = os.open(path, os.O_RDONLY)
    saved, lines_module.CHUNK = lines_module.CHUNK, chunk  # type: ignore[misc]
    try:
        reader = LineReader(fd, cap=cap)
        got = list(reader.lines(first, last))
        reader.skip(None)
    finally:
        lines_module.CHUNK = saved  # type: ignore[misc]
        os.close(fd)
    wanted = list(enumerate(expected, 1))[first - 1 : last]
    assert [number for number, _, _ in got] == [number for number, _ in wanted]
    for (_, line, cut), (_, whole) in zip(got, wanted):
        assert whole.startswith(line) if cut else line == whole
        assert len(line.encode()) <= cap
    assert reader.number == len(expected)


def test_view_of_a_range_reads_only_up_to_it(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    with path.open("w") as file:
        file.write("first\nsecond\n")
    os.truncate(path, 4 << 30)  # 4 GiB: the rest is zero bytes, never read
    editor = TextEditor(tmp_path)
    assert editor.run({"command": "view", "path": "big.txt", "view_range": [1, 1]}) == {
        "content": "1: first", "is_error": False,
    }
    whole = editor.run({"command": "view", "path": "big.txt"})
    assert whole == {
        "content": "Error: big.txt cannot be shown as text: it looks binary (a NUL byte at offset 13)",
        "is_error": True,
    }


def test_view_of_a_large_file_without_a_range_shows_its_first_lines(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("".join(f"line {n}\n" for n in range(1, 200_001)))
    answer = TextEditor(tmp_path, max_characters=40).run({"command": "view", "path": "long.txt"})
    assert answer["content"] == (
        "1: line 1\n2: line 2\n3: line 3\n4: line 4\n"
        "[Truncated at 40 characters: 199996 more lines; view them with view_range.]"
    )


def test_view_has_a_budget_by_default(tmp_path: Path) -> None:
    (tmp_path / "long.txt").write_text("x" * 100 + "\n" + "y\n" * 100_000)
    content = TextEditor(tmp_path).run({"command": "view", "path": "long.txt"})["content"]
    budget = TextEditor(tmp_path).max_characters
    assert isinstance(budget, int) and len(content) < budget + 100
    assert content.endswith("more lines; view them with view_range.]")


def test_one_huge_line_is_cut_not_held(tmp_path: Path) -> None:
    (tmp_path / "one.min.js").write_text("x" * 5_000_000)
    answer = TextEditor(tmp_path, max_characters=20).run({"command": "view", "path": "one.min.js"})
    assert answer["content"] == (
        "1: xxxxxxxxxxxxxxxxx\n[Truncated at 20 characters: 1 more line; view them with view_range.]"
    )


def test_a_file_over_the_edit_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from apply_patch.apply import MAX_FILE_BYTES

    path = tmp_path / "huge.txt"
    path.write_text("a\n")
    os.truncate(path, MAX_FILE_BYTES + 1)
    before = snapshot(tmp_path)
    with pytest.raises(PatchIOError) as caught:
        apply_patch("*** Begin Patch\n*** Update File: huge.txt\n-a\n+b\n*** End Patch", tmp_path)
    assert str(caught.value) == (
        "Failed to read file to update huge.txt: it is 256 MiB, more than the 256 MiB an edit "
        "may hold (view it in parts with a line range) (os error 27)"
    )
    assert snapshot(tmp_path) == before


PEAK = """
import resource, sys
from apply_patch.anthropic import TextEditor
editor = TextEditor(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
answer = editor.run({"command": "view", "path": "big.txt", "view_range": [int(sys.argv[2]), int(sys.argv[2])]})
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(answer["content"][:40].split("\\n")[0], (after - before) // 1024)
"""


def test_the_memory_of_a_range_view_does_not_grow_with_the_file(tmp_path: Path) -> None:
    line = "%08d " + "x" * 90 + "\n"
    with (tmp_path / "big.txt").open("w") as file:  # 1,000,000 lines, 100 MB
        for start in range(0, 1_000_000, 10_000):
            file.write("".join(line % n for n in range(start + 1, start + 10_001)))
    for number in (1, 999_999):
        result = subprocess.run(
            [sys.executable, "-c", PEAK, str(tmp_path), str(number)],
            capture_output=True, text=True, timeout=120,
        )
        shown, grown = result.stdout.split()[0:2], int(result.stdout.split()[-1])
        assert shown[0] == f"{number}:", result
        assert grown < 20, f"view_range [{number}, {number}] of a 100 MB file took {grown} MiB"


# The journal: no edit may write one, and recovery acts only on the commit's own files.


@pytest.mark.parametrize(
    "path", [".apply_patch.journal", "sub/../.apply_patch.journal", "loop/.apply_patch.journal"]
)
def test_no_edit_may_write_the_commit_journal(tmp_path: Path, path: str) -> None:
    os.symlink(".", tmp_path / "loop")
    before = snapshot(tmp_path)
    planted = "apply_patch journal 1\ncommit\n"
    with pytest.raises(PatchError) as caught:
        apply_edits([CreateFile(path, planted)], tmp_path)
    assert "is the commit journal's name, which no patch may touch" in str(caught.value)
    answer = TextEditor(tmp_path).run({"command": "create", "path": path, "file_text": planted})
    assert answer["is_error"]
    assert snapshot(tmp_path) == before


def test_recovery_never_removes_a_file_not_named_as_its_own(tmp_path: Path) -> None:
    from apply_patch.apply.disk._commit import recover
    from apply_patch.apply.records._journal import record

    (tmp_path / "precious.txt").write_text("keep\n")
    (tmp_path / ".x.0123abcd.apply_patch.tmp").write_text("a temporary file\n")
    journal = b"apply_patch journal 1\n" + record("temp", str(tmp_path), "precious.txt") + record(
        "temp", str(tmp_path), ".x.0123abcd.apply_patch.tmp"
    )
    (tmp_path / ".apply_patch.journal").write_bytes(journal)
    recovery = recover(str(tmp_path))
    assert recovery is not None
    assert recovery.done == ("a commit interrupted before it was complete was undone first (1 step)",)
    assert recovery.refused == (
        "1 record of the crash journal .apply_patch.journal in the root was not obeyed: "
        "a file not named as the commit's own",
    )
    assert sorted(os.listdir(tmp_path)) == ["precious.txt"]
