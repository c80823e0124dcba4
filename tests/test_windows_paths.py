"""A Windows absolute path applied on POSIX is refused, in every format, and writes nothing.

On POSIX, `C:\\Users\\me\\x.txt` is a relative name: written as it is, it would make a
file literally called so (or folders `c:` and `users`), and report success. The one
resolver of paths (apply/_paths.py) refuses it, whatever the policy: a one-line
error, the tree byte for byte as it was.
"""

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, run_cli, snapshot
from apply_patch import CODEX, FilePolicyError, PatchError, apply_patch, apply_to_mapping
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, StrReplace, apply_edits, apply_search_replace, apply_unified_diff

pytestmark = pytest.mark.skipif(os.sep != "/", reason="on Windows these are the absolute paths they say")

WINDOWS = [
    "C:\\Users\\me\\repo\\x.txt",  # a drive letter, backslashes
    "c:/users/me/x.txt",  # a drive letter, slashes, lower case
    "D:\\x.txt",
    "\\\\server\\share\\repo\\x.txt",  # UNC
    "\\\\?\\C:\\Users\\me\\x.txt",  # extended-length
    "//?/C:/Users/me/x.txt",
]


def _tree(root: Path) -> None:
    (root / "a.txt").write_text("one\n")
    (root / "sub").mkdir()
    (root / "sub" / "b.txt").write_text("two\n")


def _refused(root: Path, call: Callable[[], object]) -> PatchError:
    """`call()` raises a one-line PatchError naming the path and changes nothing under `root`."""
    before = snapshot(root)
    with pytest.raises(PatchError) as caught:
        call()
    assert snapshot(root) == before
    assert "\n" not in caught.value.message
    return caught.value


@pytest.mark.parametrize("path", WINDOWS)
@pytest.mark.parametrize("policy", ["default", "outside_root=allow", "codex"])
def test_a_codex_patch_naming_a_windows_path_is_refused(tmp_path: Path, path: str, policy: str) -> None:
    _tree(tmp_path)
    patches = [
        f"*** Begin Patch\n*** Add File: {path}\n+hi\n*** End Patch",
        f"*** Begin Patch\n*** Update File: a.txt\n*** Move to: {path}\n@@\n-one\n+ONE\n*** End Patch",
        f"*** Begin Patch\n*** Delete File: {path}\n*** End Patch",
    ]
    for patch in patches:
        if policy == "codex":
            error = _refused(tmp_path, lambda: apply_patch(patch, tmp_path, policy=CODEX))
        elif policy == "outside_root=allow":
            error = _refused(tmp_path, lambda: apply_patch(patch, tmp_path, outside_root="allow"))
        else:
            error = _refused(tmp_path, lambda: apply_patch(patch, tmp_path))
        assert isinstance(error, FilePolicyError)
        assert f"'{path}' is a Windows absolute path" in error.message


def test_the_executable_refuses_it_in_one_line(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    for dry_run in ([], ["--dry-run"]):
        result = run_cli([*dry_run], tmp_path, b"*** Begin Patch\n*** Add File: C:\\Users\\me\\x.txt\n+hi\n*** End Patch\n")
        assert result.returncode == 1
        first, rest = result.stderr.decode().split("\n", 1)
        assert "'C:\\Users\\me\\x.txt' is a Windows absolute path" in first
        assert rest == ("Dry run: the patch does not apply; nothing was written.\n" if dry_run else NOTHING_CHANGED)
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("path", WINDOWS)
def test_every_other_format_refuses_it(tmp_path: Path, path: str) -> None:
    _tree(tmp_path)
    _refused(tmp_path, lambda: apply_edits([CreateFile(path, "hi\n", overwrite=True)], tmp_path))
    _refused(tmp_path, lambda: apply_edits([StrReplace(path, "one", "ONE")], tmp_path))
    _refused(tmp_path, lambda: apply_search_replace(f"{path}\n<<<<<<< SEARCH\n=======\nhi\n>>>>>>> REPLACE\n", tmp_path))
    diff = f"--- /dev/null\n+++ {path}\n@@ -0,0 +1 @@\n+hi\n"
    _refused(tmp_path, lambda: apply_unified_diff(diff, tmp_path))
    before = snapshot(tmp_path)
    answer = TextEditor(tmp_path).run({"command": "create", "path": path, "file_text": "hi\n"})
    assert answer["is_error"] and "Windows absolute path" in answer["content"]
    assert snapshot(tmp_path) == before


def test_a_windows_working_folder_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path)
    error = _refused(tmp_path, lambda: apply_patch("*** Begin Patch\n*** Add File: x.txt\n+hi\n*** End Patch", tmp_path, workdir="C:\\Users\\me"))
    assert "Windows absolute path" in error.message


@pytest.mark.parametrize("path", WINDOWS)
def test_a_mapping_refuses_it_too(path: str) -> None:
    files = {"a.txt": "one\n"}
    with pytest.raises(FilePolicyError, match="Windows absolute path"):
        apply_to_mapping(f"*** Begin Patch\n*** Add File: {path}\n+hi\n*** End Patch", files)
    assert files == {"a.txt": "one\n"}


@pytest.mark.parametrize("path", ["C:x.txt", "c_drive/x.txt", "/c/Users/x.txt", "notes:C:\\x"])
def test_names_that_are_not_windows_absolute_paths_are_names(tmp_path: Path, path: str) -> None:
    """A drive-relative name, a Git Bash path, a colon inside a name: ordinary POSIX paths."""
    if path.startswith("/"):
        path = str(tmp_path) + path
    apply_patch(f"*** Begin Patch\n*** Add File: {path}\n+hi\n*** End Patch", tmp_path)
    assert Path(tmp_path, path).read_text() == "hi\n"
