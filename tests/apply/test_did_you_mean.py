"""A missing Update/Delete target names the closest existing paths (issue 12 item 7)."""

from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import PatchIOError, apply_patch, apply_to_mapping
from apply_patch.apply.planning._did_you_mean import closest_paths, did_you_mean
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch._policy import DEFAULT


@pytest.mark.parametrize(
    ("missing", "paths", "expected"),
    [
        ("src/gret.py", ["src/greet.py", "src/other.py"], ["src/greet.py"]),  # a letter missing
        ("src/graet.py", ["src/greet.py"], ["src/greet.py"]),  # a letter changed
        ("src/gerat.py", ["src/great.py"], ["src/great.py"]),  # two letters swapped
        ("README.MD", ["README.md"], ["README.md"]),  # letter case
        ("app/main.js", ["app/main.ts", "lib/main.js"], ["app/main.ts", "lib/main.js"]),
        ("a/x.py", ["b/x.py", "c/x.py", "d/x.py", "e/x.py"], ["b/x.py", "c/x.py", "d/x.py"]),
        ("a/x.py", ["a/x.pyc", "z/x.txt"], ["a/x.pyc", "z/x.txt"]),  # one edit beats the folder
        ("notes.md", ["other.md", "docs/readme.md"], []),
    ],
)
def test_ranking(missing: str, paths: list[str], expected: list[str]) -> None:
    assert closest_paths(missing, paths) == expected


def test_the_walk_is_bounded_and_says_so(tmp_path: Path) -> None:
    for n in range(30):
        (tmp_path / f"f{n:02}.txt").write_text("x\n")
    (tmp_path / "zz" / "app.py").parent.mkdir()
    (tmp_path / "zz" / "app.py").write_text("x\n")
    tree = DiskTree(str(tmp_path), DEFAULT)
    assert did_you_mean("src/app.py", tree) == ("Did you mean 'zz/app.py'?",)
    assert did_you_mean("f1.txt", tree, limit=12) == (
        "Did you mean one of 'f01.txt', 'f10.txt', 'f11.txt'? "
        "(only the first 12 entries under the root were looked at)",
    )
    assert did_you_mean("src/app.py", tree, limit=12) == ()  # zz/ was not reached


def test_version_control_folders_are_not_walked(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("x\n")
    assert did_you_mean("config", DiskTree(str(tmp_path), DEFAULT)) == ()


def test_through_the_library_the_tree_is_unchanged(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "greet.py").write_text("a\n")
    before = snapshot(tmp_path)
    patch = "*** Begin Patch\n*** Update File: src/gret.py\n@@\n-a\n+b\n*** End Patch\n"
    with pytest.raises(PatchIOError) as caught:
        apply_patch(patch, tmp_path)
    assert caught.value.hints == ("Did you mean 'src/greet.py'?",)
    assert caught.value.to_dict()["hints"] == ["Did you mean 'src/greet.py'?"]
    assert snapshot(tmp_path) == before
    with pytest.raises(PatchIOError) as in_memory:
        apply_to_mapping(patch, {"src/greet.py": "a\n"})
    assert in_memory.value.hints == ("Did you mean 'src/greet.py'?",)
