"""The one reading of a unified diff's files (`format.read_changes`), and the rules applying
and converting now share (issue 35): each case once through `apply_unified_diff` and once
through `convert_unified_diff`, a refusal leaving the tree byte for byte as it was."""

from pathlib import Path

import pytest

from apply_patch import PatchError, apply_patch, convert_unified_diff
from apply_patch.edits import apply_unified_diff
from apply_patch.format import FileChange, read_changes

from _support import snapshot

BINARY_DELETED = """diff --git a/logo.png b/logo.png
deleted file mode 100644
index 87ae6b6..0000000
Binary files a/logo.png and /dev/null differ
"""
BINARY_CHANGED = """diff --git a/logo.png b/logo.png
index 87ae6b6..5d1f0e2 100644
Binary files a/logo.png and b/logo.png differ
"""
COPY = """diff --git a/t.txt b/u.txt
similarity index 100%
copy from t.txt
copy to u.txt
"""
AT_THE_START = """diff --git a/t.txt b/t.txt
--- a/t.txt
+++ b/t.txt
@@ -0,0 +1 @@
+first
"""
DELETED_STALE = """diff --git a/t.txt b/t.txt
deleted file mode 100644
--- a/t.txt
+++ /dev/null
@@ -1 +0,0 @@
-not what the file holds
"""


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\x00\x01")
    (tmp_path / "t.txt").write_bytes(b"one\ntwo\n")
    return tmp_path


def test_a_deleted_binary_file_is_deleted_by_applying_as_by_converting(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    apply_unified_diff(BINARY_DELETED, root, strip=1)
    assert not (root / "logo.png").exists()
    assert str(convert_unified_diff(BINARY_DELETED)) == "*** Begin Patch\n*** Delete File: logo.png\n*** End Patch\n"


def _refused(tmp_path: Path, verb: str, diff: str) -> PatchError:
    """The error applying (`verb` "apply") or converting `diff` raises; the tree is checked
    to be byte for byte as it was."""
    root = _tree(tmp_path)
    before = snapshot(root)
    with pytest.raises(PatchError) as caught:
        if verb == "apply":
            apply_unified_diff(diff, root, strip=1)
        else:
            convert_unified_diff(diff)
    assert snapshot(root) == before
    return caught.value


@pytest.mark.parametrize("verb", ["apply", "convert"])
def test_a_changed_binary_file_is_refused_alike(tmp_path: Path, verb: str) -> None:
    error = _refused(tmp_path, verb, BINARY_CHANGED)
    assert error.kind == "binary"
    assert str(error).startswith(f"Cannot {verb} the diff of logo.png: it is a binary file")
    assert error.patch_line == 1


@pytest.mark.parametrize("verb", ["apply", "convert"])
def test_a_copy_is_refused_alike_without_the_old_files(tmp_path: Path, verb: str) -> None:
    error = _refused(tmp_path, verb, COPY)
    assert error.kind == "unsupported"
    assert str(error).startswith(f"Cannot {verb} the copy of t.txt to u.txt: a copy needs the old file")


def test_a_copy_is_converted_with_the_old_files() -> None:
    patch = convert_unified_diff(COPY, old={"t.txt": b"one\ntwo\n"})
    assert str(patch) == "*** Begin Patch\n*** Add File: u.txt\n+one\n+two\n*** End Patch\n"


def test_lines_added_at_the_start_are_not_converted_to_the_end(tmp_path: Path) -> None:
    """`-0,0` puts its lines at the start; a chunk without context would append them."""
    root = _tree(tmp_path)
    apply_unified_diff(AT_THE_START, root, strip=1)
    assert (root / "t.txt").read_bytes() == b"first\none\ntwo\n"
    with pytest.raises(PatchError, match="Cannot convert a hunk without context lines"):
        convert_unified_diff(AT_THE_START)
    converted = convert_unified_diff(AT_THE_START, old={"t.txt": b"one\ntwo\n"})
    (root / "t.txt").write_bytes(b"one\ntwo\n")
    apply_patch(str(converted), root)
    assert (root / "t.txt").read_bytes() == b"first\none\ntwo\n"


def test_a_deleted_files_hunks_are_checked_with_the_old_files(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    with pytest.raises(PatchError):
        apply_unified_diff(DELETED_STALE, root, strip=1)
    assert snapshot(root) == before
    with pytest.raises(PatchError, match="does not match the old t.txt"):
        convert_unified_diff(DELETED_STALE, old={"t.txt": b"one\ntwo\n"})
    assert str(convert_unified_diff(DELETED_STALE)) == "*** Begin Patch\n*** Delete File: t.txt\n*** End Patch\n"


def test_read_changes_names_what_each_file_diff_does() -> None:
    text = COPY + BINARY_CHANGED + AT_THE_START + """diff --git a/a.txt b/a.txt
similarity index 100%
rename from a.txt
rename to a.txt
"""
    read = read_changes(text, 1, skip_binary=True, copies=True)
    assert read.skipped == ("logo.png",)
    assert [(c.old_path, c.new_path, c.move_to) for c in read.changes] == [
        ("t.txt", "u.txt", None),
        ("t.txt", "t.txt", None),
        ("a.txt", "a.txt", None),  # a rename to its own path moves nothing
    ]
    created = read_changes("--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n", 1)
    assert created.changes[0] == FileChange(created.changes[0].diff, None, "n.txt", None)
    assert created.changes[0].new_text == "a\nb"
