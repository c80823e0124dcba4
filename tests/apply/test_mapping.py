"""apply_to_mapping: the whole pipeline over an in-memory tree, no disk access."""

import builtins
import os
from pathlib import Path
from typing import Any

import pytest

from _support import snapshot
from apply_patch import (
    CODEX,
    PolicyValueError,
    apply_patch,
    ContextNotFoundError,
    FilePolicyError,
    PatchError,
    apply_to_mapping,
    parse_patch,
)

FILES: dict[str, str | bytes] = {
    "src/app.py": "def main():\n    print('hi')\n",
    "logo.bin": b"\x89PNG\x00\x01",
    "docs/old.md": "# Old\n",
}
PATCH = """\
*** Begin Patch
*** Add File: docs/new.md
+# New
*** Update File: src/app.py
*** Move to: src/main.py
@@ def main():
-    print('hi')
+    print('hello')
*** Update File: logo.bin
*** Move to: assets/logo.bin
*** Delete File: ./docs//old.md
*** End Patch
"""


def test_the_new_tree_is_returned_and_the_old_one_left_alone() -> None:
    original = dict(FILES)
    assert apply_to_mapping(PATCH, FILES) == {
        "docs/new.md": "# New\n",
        "src/main.py": "def main():\n    print('hello')\n",
        "assets/logo.bin": b"\x89PNG\x00\x01",
    }
    assert FILES == original


def test_no_disk_access_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    parse_patch(PATCH)  # the grammar is loaded once, before the disk disappears

    def no_disk(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"disk access: {args}")

    for name in ("stat", "lstat", "listdir", "open", "replace", "unlink", "mkdir", "readlink"):
        monkeypatch.setattr(os, name, no_disk)
    monkeypatch.setattr(os.path, "realpath", no_disk)
    monkeypatch.setattr(builtins, "open", no_disk)
    assert "src/main.py" in apply_to_mapping(PATCH, FILES)


@pytest.mark.parametrize(
    ("patch", "error", "message"),
    [
        (
            "*** Begin Patch\n*** Update File: src/app.py\n-    print('bye')\n*** End Patch",
            ContextNotFoundError,
            "Failed to find expected lines in src/app.py:\n    print('bye')",
        ),
        (
            "*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch",
            FilePolicyError,
            "Path '../escape.txt' is outside the tree: paths must be relative and stay inside it",
        ),
        (
            "*** Begin Patch\n*** Add File: /etc/passwd\n+x\n*** End Patch",
            FilePolicyError,
            "Path '/etc/passwd' is outside the tree: paths must be relative and stay inside it",
        ),
        (
            "*** Begin Patch\n*** Add File: src\n+x\n*** End Patch",
            PatchError,
            "Failed to write file src: it is a folder",
        ),
        (
            "*** Begin Patch\n*** Add File: src/app.py/x\n+x\n*** End Patch",
            PatchError,
            "Failed to write file src/app.py/x: src/app.py is a file, not a folder",
        ),
        (
            "*** Begin Patch\n*** Add File: docs/old.md\n+x\n*** End Patch",
            FilePolicyError,
            "Failed to add file docs/old.md: it already exists (use '*** Update File:' to change it)",
        ),
    ],
    ids=["not-found", "dot-dot", "absolute", "folder", "file-as-folder", "exists"],
)
def test_errors(patch: str, error: type[PatchError], message: str) -> None:
    original = dict(FILES)
    with pytest.raises(error) as caught:
        apply_to_mapping(patch, FILES)
    assert caught.value.headline == message
    assert FILES == original


def test_policies_apply_to_mappings() -> None:
    patch = "*** Begin Patch\n*** Add File: docs/old.md\n+x\n*** End Patch"
    assert apply_to_mapping(patch, FILES, policy=CODEX)["docs/old.md"] == "x\n"
    assert apply_to_mapping(patch, FILES, add_existing="overwrite")["docs/old.md"] == "x\n"
    no_newline = {"a.txt": "one\ntwo"}
    update = "*** Begin Patch\n*** Update File: a.txt\n-two\n+TWO\n*** End Patch"
    assert apply_to_mapping(update, no_newline) == {"a.txt": "one\nTWO"}
    assert apply_to_mapping(update, no_newline, policy=CODEX) == {"a.txt": "one\nTWO\n"}


def test_a_chunk_of_only_a_dropped_blank_line_inserts_at_the_start() -> None:
    # Found by the fuzzer: the trailing-blank retry leaves no expected line at all; as
    # in the reference, the empty pattern matches where the search starts.
    patch = "*** Begin Patch\n*** Update File: a\n@@\n \n+x\n*** End Patch"
    assert apply_to_mapping(patch, {"a": "q\n"}) == {"a": "\nx\nq\n"}


def test_policy_options_are_checked_before_anything_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    before = snapshot(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.txt\n-a\n+b\n*** End Patch"
    with pytest.raises(PolicyValueError) as bad_value:
        apply_patch(patch, tmp_path, add_existing="sometimes")
    assert str(bad_value.value) == (
        "Invalid value 'sometimes' for add_existing: choose one of error, overwrite"
    )
    with pytest.raises(PolicyValueError) as bad_name:
        apply_patch(patch, tmp_path, add_exists="error")
    assert str(bad_name.value) == "Unknown policy option: add_exists"
    assert snapshot(tmp_path) == before
    with pytest.raises(PolicyValueError):
        apply_to_mapping(patch, {"a.txt": "a\n"}, add_exists="error")


def test_workdir_is_where_relative_paths_start_confined_to_the_root(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# old\n")
    before = snapshot(tmp_path)
    failing = (
        "*** Begin Patch\n*** Add File: notes.md\n+n\n*** Update File: ../README.md\n"
        "-# nowhere\n+# new\n*** End Patch"
    )
    with pytest.raises(PatchError):
        apply_patch(failing, tmp_path, workdir="pkg/sub")
    assert snapshot(tmp_path) == before  # the working folder was not left behind
    result = apply_patch(failing.replace("# nowhere", "# old"), tmp_path, workdir="pkg")
    assert [(f.path, f.status) for f in result.files] == [
        ("pkg/notes.md", "added"), ("README.md", "updated")
    ]
    assert (tmp_path / "README.md").read_text() == "# new\n"
    with pytest.raises(FilePolicyError) as outside:
        apply_patch(failing, tmp_path / "pkg", workdir="..")
    assert outside.value.headline == (
        "The working folder '..' is outside the root folder: paths must stay inside it"
    )
    with pytest.raises(FilePolicyError) as outside:
        apply_patch(failing, tmp_path / "pkg", workdir="..", policy=CODEX)
    assert outside.value.headline == (
        f"The working folder {tmp_path} is outside the root folder {tmp_path}/pkg"
    )
