"""The fixed costs of a file (issue #24): the files of one folder share its walk, and
sharing it keeps every promise of docs/safety.md.

Counted, not timed: the folder descriptors opened and the `lstat` calls made while a
patch is planned and committed grow with the folders, not with the files in them
(before: a walk from `/` and dozens of `lstat` per file). And deterministic
reproductions of what the shared walk must still refuse: a folder swapped for a
symlink between two files of it, while planning and while committing.
"""

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from _support import Entry, snapshot
from apply_patch import ConcurrentChangeError, PatchError, apply_patch
from apply_patch.apply.planning import _dirs
from apply_patch.apply.disk._commit import Disk
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._tree import State

DEEP = "a/b/c"  # every file of the patch is in this folder


def _files(root: Path, count: int) -> str:
    """`count` files in DEEP under `root`, and the patch that changes a line of each."""
    (root / DEEP).mkdir(parents=True)
    parts = ["*** Begin Patch"]
    for n in range(count):
        (root / DEEP / f"f{n}.txt").write_text(f"one {n}\ntwo {n}\n")
        parts += [f"*** Update File: {DEEP}/f{n}.txt", "@@", f"-two {n}", f"+TWO {n}"]
    return "\n".join([*parts, "*** End Patch", ""])


class Counted:
    """Calls of one function, counted while the test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.calls = 0
        wrapped: Callable[..., object] = getattr(owner, name)

        def counting(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return wrapped(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)


def _costs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> tuple[int, int]:
    """(folders opened, lstat calls) to plan and commit an update of `count` files of one folder."""
    root = tmp_path / str(count)
    patch = _files(root, count)
    with monkeypatch.context() as patched:
        opened = Counted(patched, _dirs.Folders, "open_child")
        looked = Counted(patched, os, "lstat")
        apply_patch(patch, root, journal="off")
    assert (root / DEEP / f"f{count - 1}.txt").read_text() == f"one {count - 1}\nTWO {count - 1}\n"
    return opened.calls, looked.calls


def test_the_files_of_a_folder_share_its_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    few_opened, few_looked = _costs(tmp_path, monkeypatch, 5)
    many_opened, many_looked = _costs(tmp_path, monkeypatch, 45)
    # The same folders (the second root's name is as deep): opened as often for 45 files as for 5.
    assert many_opened == few_opened
    # No lstat for a file: its last name is looked at through its folder's descriptor, the
    # look the read then uses (on main: 6 folder opens and 93 lstat calls more for each file).
    assert many_looked == few_looked


def _swap_tree(tmp_path: Path) -> tuple[Path, Path, str]:
    """A root with two files in `sub`, a folder outside with files of the same names, and
    the patch changing both files of `sub`."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    for name in ("a.txt", "b.txt"):
        (root / "sub" / name).write_text("old\n")
        (outside / name).write_text("old\n")
    patch = (
        "*** Begin Patch\n*** Update File: sub/a.txt\n-old\n+new\n"
        "*** Update File: sub/b.txt\n-old\n+new\n*** End Patch\n"
    )
    return root, outside, patch


def _swap(root: Path) -> None:
    """`sub` renamed away, and a symlink to the outside folder in its place."""
    os.rename(root / "sub", root / "sub.real")
    os.symlink("../outside", root / "sub")


def _swapped(before: dict[str, Entry]) -> dict[str, Entry]:
    """The snapshot `before` of the root, with `_swap` done and nothing else."""
    after = {"sub": Entry("link", b"../outside")}
    for path, entry in before.items():
        after[path.replace("sub", "sub.real", 1) if path.startswith("sub") else path] = entry
    return after


class SwappingTree(DiskTree):
    """Swaps `sub` for a symlink right after the plan read the first file of it."""

    def read(self, key: str, *, follow: bool = True) -> State:
        state = super().read(key, follow=follow)
        root = Path(self.root)
        if key.endswith("a.txt") and not (root / "sub").is_symlink():
            _swap(root)
        return state


@pytest.fixture
def swapping(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr("apply_patch.apply._pipeline.DiskTree", SwappingTree)
    yield


@pytest.mark.usefixtures("swapping")
def test_a_folder_swapped_for_a_symlink_between_two_files_of_it_is_refused(tmp_path: Path) -> None:
    root, outside, patch = _swap_tree(tmp_path)
    before, outside_before = snapshot(root), snapshot(outside)
    with pytest.raises(PatchError) as caught:
        apply_patch(patch, root)
    # The plan resolved `sub` once and read b.txt through the descriptor it had opened for
    # a.txt (the real folder, inside the root: never the outside one); the commit walked
    # from `/` again and met the symlink. (Walked per file, the plan met it resolving b.txt.)
    assert isinstance(caught.value, ConcurrentChangeError)
    assert str(caught.value) == (
        "sub/a.txt changed on disk while the patch was being applied: the folder sub is now a symlink"
    )
    assert snapshot(root) == _swapped(before)
    assert snapshot(outside) == outside_before


class SwappingDisk(Disk):
    """Swaps `sub` for a symlink once the commit wrote the first new content into it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write_temp(
        self, folder: int, temp: bytes, data: bytes, mode: int | None, owner: tuple[int, int] | None
    ) -> bytes:
        written = super().write_temp(folder, temp, data, mode, owner)
        if not (self.root / "sub").is_symlink():
            _swap(self.root)
        return written


def test_a_folder_swapped_during_the_commit_never_redirects_a_write(tmp_path: Path) -> None:
    from apply_patch import DEFAULT, parse_patch
    from apply_patch.apply.disk._commit import commit
    from apply_patch.apply.planning._edit_plan import make_plan

    root, outside, patch = _swap_tree(tmp_path)
    outside_before = snapshot(outside)
    plan = make_plan(parse_patch(patch), DiskTree(str(root), DEFAULT))
    commit(plan, SwappingDisk(root))
    # The commit's descriptor of `sub` is the real folder: both files are written there,
    # through it, and nothing through the symlink that took its name.
    assert (root / "sub.real" / "a.txt").read_text() == (root / "sub.real" / "b.txt").read_text() == "new\n"
    assert snapshot(outside) == outside_before


def test_a_receipt_of_many_files_is_written_by_json_and_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apply_patch import undo

    monkeypatch.setenv("APPLY_PATCH_STATE_DIR", str(tmp_path / "state"))
    root = tmp_path / "root"
    patch = _files(root, 120)  # more than a receipt written by `_json`
    before = snapshot(root)
    result = apply_patch(patch, root)
    assert result.receipt is not None and snapshot(root) != before
    undo(root)
    assert snapshot(root) == before


@pytest.mark.parametrize(
    "written",
    ["a.txt", "a/b.txt", "./a.txt", "a/./b", "a//b", "a/../b", "../x/y", "a/b/..", "a/.", "a/", "/", "/abs",
     "/abs/x", "//x/y", ".", "..", "a/b/c/../../d/e.txt", "sub dir/na me", ".hidden/.x"],
)
def test_a_path_is_normalised_as_normpath_does(tmp_path: Path, written: str) -> None:
    # The resolver normalises each folder once for the names written in it (issue #24):
    # the same folder and name as os.path.split(os.path.normpath(...)) of the whole path.
    from apply_patch._policy import DEFAULT
    from apply_patch.apply.planning._paths import Resolver

    resolver = Resolver(str(tmp_path), DEFAULT, "w/x")
    expected = os.path.split(os.path.normpath(os.path.join(resolver.base, written)))
    assert resolver._shown(written) == expected
    assert resolver._shown(written) == expected  # from what it kept, the second time
