"""Aider's own unified-diff tests (tests/basic/test_udiff.py), rewritten for this engine.

Aider's udiff format is a unified diff in a ```diff fence of the model's
reply, with `@@ ... @@` hunk headers that carry no line numbers. Its tests
(Aider-AI/aider, read for behaviour: no code is copied) check `find_diffs`,
which reads the file path and the hunks out of a reply; here each reply is
applied with `apply_unified_diff` to a tree that holds the file, and the
result checked: the same edit, or the difference docs/edit-formats.md states
("What the peers do, and what we do"):

- a file diff from `--- /dev/null` creates its file, and one that also has
  `-` lines is refused (Aider takes the path of the `+++` line and edits the
  existing file as if the diff had named it on both lines).
"""

from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import UnifiedDiffError
from apply_patch.edits import apply_unified_diff

PROSE = "\nSome text...\n\n"


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("test_find_diffs_single_hunk", "file.txt"),
        ("test_find_diffs_dirname_with_spaces", "dir name with spaces/file.txt"),
    ],
)
def test_one_hunk_in_a_fence_after_prose(tmp_path: Path, name: str, path: str) -> None:
    """The path of the `---`/`+++` lines (spaces and all), one `@@ ... @@` hunk: -Original +Modified."""
    _tree(tmp_path, {path: "Original\n"})
    reply = f"{PROSE}```diff\n--- {path}\n+++ {path}\n@@ ... @@\n-Original\n+Modified\n```\n"
    result = apply_unified_diff(reply, tmp_path)
    assert [f.path for f in result.files] == [path], name
    assert (tmp_path / path).read_text() == "Modified\n", name
    assert (result.files[0].added, result.files[0].removed) == (1, 1), name


def test_find_diffs_dev_null(tmp_path: Path) -> None:
    """`--- /dev/null` with a `-` line: Aider edits file.txt; a new file has no line to remove, so it is refused."""
    _tree(tmp_path, {"file.txt": "Original\n"})
    before = snapshot(tmp_path)
    reply = f"{PROSE}```diff\n--- /dev/null\n+++ file.txt\n@@ ... @@\n-Original\n+Modified\n```\n"
    with pytest.raises(UnifiedDiffError, match="which the diff creates"):
        apply_unified_diff(reply, tmp_path)
    assert snapshot(tmp_path) == before


VERSIONCHECK = """\
def check_version():
    try:
        pass
    except Exception as err:
        print_cmd(f"Error checking pypi for new version: {err}")

    return True
"""
MAIN = """\
def get_parser():
    other_group.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help="Show the version number and exit",
    )
    other_group.add_argument(
        "--apply",
        metavar="FILE",
        help="Apply the changes from the given file instead of running the chat (debug)",
    )
"""
MULTI = """
To implement the `--check-update` option, I will make the following changes:

1. Add the `--check-update` argument to the argument parser in `aider/main.py`.
2. Modify the `check_version` function in `aider/versioncheck.py` to return a boolean.

Here are the diffs for those changes:

```diff
--- aider/versioncheck.py
+++ aider/versioncheck.py
@@ ... @@
     except Exception as err:
         print_cmd(f"Error checking pypi for new version: {err}")
+        return False

--- aider/main.py
+++ aider/main.py
@@ ... @@
     other_group.add_argument(
         "--version",
         action="version",
         version=f"%(prog)s {__version__}",
         help="Show the version number and exit",
     )
+    other_group.add_argument(
+        "--check-update",
+        action="store_true",
+        help="Check for updates and return status in the exit code",
+        default=False,
+    )
     other_group.add_argument(
         "--apply",
         metavar="FILE",
```

These changes will add the `--check-update` option to the command-line interface.
"""


def test_find_multi_diffs(tmp_path: Path) -> None:
    """Two files in one fence, a blank line between them: two edits, the first of 3 lines (one added)."""
    _tree(tmp_path, {"aider/versioncheck.py": VERSIONCHECK, "aider/main.py": MAIN})
    result = apply_unified_diff(MULTI, tmp_path)
    assert [(f.path, f.added, f.removed) for f in result.files] == [
        ("aider/versioncheck.py", 1, 0),
        ("aider/main.py", 6, 0),
    ]
    assert [len(op.placements) for op in result.operations] == [1, 1]
    assert (tmp_path / "aider/versioncheck.py").read_text() == VERSIONCHECK.replace(
        "{err}\")\n", "{err}\")\n        return False\n"
    )
    assert '"--check-update",\n        action="store_true",' in (tmp_path / "aider/main.py").read_text()
    assert result.warnings == ()
