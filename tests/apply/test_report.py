"""Machine output (--json), dry runs and diffs, from the executable and the library."""

import json
from pathlib import Path
from typing import Any

import pytest

from _support import run_cli, snapshot
from apply_patch import PatchError, apply_patch, history

SOURCE = "def area(r):\n    return 3.14 * r * r\n\n\ndef name():\n    return 'circle'  \n"
PATCH = """\
*** Begin Patch
*** Add File: docs/README.md
+# Shapes
+
+Circles only.
*** Update File: shapes.py
*** Move to: geometry/circle.py
@@ def area(r):
-    return 3.14 * r * r
+    return math.pi * r * r
@@
 def name():
-    return 'circle'
+    return "circle"
*** Update File: crlf.txt
 one
-two
+TWO
*** Delete File: old.txt
*** End Patch
"""


def _tree(root: Path) -> None:
    (root / "shapes.py").write_text(SOURCE)
    (root / "crlf.txt").write_bytes(b"one\r\ntwo")
    (root / "old.txt").write_text("a\nb\n")


def _json(root: Path, *args: str, patch: str = PATCH) -> tuple[int, dict[str, Any]]:
    result = run_cli(["--json", *args, patch], root)
    assert result.stderr == b""
    document: dict[str, Any] = json.loads(result.stdout)
    return result.returncode, document


def test_json_of_an_applied_patch(tmp_path: Path) -> None:
    _tree(tmp_path)
    code, document = _json(tmp_path)
    assert code == 0
    receipt = document.pop("receipt")  # the id of the commit's receipt (issue 26)
    assert [r.id for r in history(tmp_path)] == [receipt]
    assert document == {
        "schema": 2,
        "ok": True,
        "dry_run": False,
        "operations": [
            {"op": "add", "path": "docs/README.md", "move_to": None, "added": 3, "removed": 0},
            {
                "op": "update",
                "path": "shapes.py",
                "move_to": "geometry/circle.py",
                "added": 2,
                "removed": 2,
                "chunks": [
                    {"patch_line": 8, "file_line": 2, "tier": "exact", "added": 1, "removed": 1},
                    {"patch_line": 11, "file_line": 5, "tier": "trailing-whitespace",
                     "added": 1, "removed": 1},
                ],
            },
            {
                "op": "update",
                "path": "crlf.txt",
                "move_to": None,
                "added": 1,
                "removed": 1,
                "chunks": [
                    {"patch_line": 16, "file_line": 1, "tier": "exact", "added": 1, "removed": 1}
                ],
            },
            {"op": "delete", "path": "old.txt", "move_to": None, "added": 0, "removed": 2},
        ],
        "warnings": [
            {
                "kind": "fuzzy",
                "path": "shapes.py",
                "patch_line": 11,
                "file_line": 5,
                "tier": "trailing-whitespace",
                "candidates": [5],
                "message": "shapes.py: the chunk at patch line 11 matched line 5 only once "
                "trailing whitespace is ignored.",
            }
        ],
        "diff": None,
        "error": None,
    }
    assert (tmp_path / "geometry" / "circle.py").read_text().endswith("    return \"circle\"\n")


def test_json_of_a_chunk_not_found(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    code, document = _json(tmp_path, patch=PATCH.replace("-two", "-deux"))
    assert code == 1
    assert snapshot(tmp_path) == before
    error = document.pop("error")
    assert document == {
        "schema": 2, "ok": False, "dry_run": False, "operations": [], "warnings": [], "diff": None
    }
    message = error.pop("message")
    assert error == {
        "kind": "context_not_found",
        "path": "crlf.txt",
        "patch_line": 16,
        "hints": [],
        "expected": ["one", "deux"],
        "context": None,
        "closest": {"start_line": 1, "lines": ["one", "two"], "first_difference_line": 2},
        "nothing_changed": True,
    }
    assert message.startswith("Failed to find expected lines in crlf.txt:\none\ndeux\n")
    assert "  patch: 'deux'\n  file:  'two'" in message


def test_json_of_a_syntax_error(tmp_path: Path) -> None:
    code, document = _json(tmp_path, patch="*** Begin Patch\n*** Frob File: x\n*** End Patch")
    assert code == 1
    assert document["error"] == {
        "kind": "syntax",
        "path": None,
        "patch_line": 2,
        "message": "Invalid patch hunk on line 2: '*** Frob File: x' is not a valid hunk header. "
        "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', "
        "'*** Update File: {path}'",
        "hints": [],
        "nothing_changed": True,
    }


def test_dry_run_writes_nothing_and_says_what_would_change(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    result = run_cli(["--dry-run", PATCH], tmp_path)
    assert result.returncode == 0
    assert result.stdout.decode() == (
        "Dry run, nothing was written. The patch applies and would update:\n"
        "A docs/README.md\nM geometry/circle.py\nM crlf.txt\nD old.txt\n"
    )
    assert snapshot(tmp_path) == before
    failing = run_cli(["--dry-run", PATCH.replace("-two", "-deux")], tmp_path)
    assert failing.returncode == 1 and snapshot(tmp_path) == before


EXPECTED_DIFF = """\
--- /dev/null
+++ b/docs/README.md
@@ -0,0 +1,3 @@
+# Shapes
+
+Circles only.
--- a/shapes.py
+++ b/geometry/circle.py
@@ -1,6 +1,6 @@
 def area(r):
-    return 3.14 * r * r
+    return math.pi * r * r
 \n \n def name():
-    return 'circle'  \n+    return "circle"
--- a/crlf.txt
+++ b/crlf.txt
@@ -1,2 +1,2 @@
 one\r
-two
\\ No newline at end of file
+TWO
\\ No newline at end of file
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
"""


def test_diff_of_every_change_with_a_real_apply(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = run_cli(["--diff", PATCH], tmp_path)
    assert result.returncode == 0
    summary = "Success. Updated the following files:\nA docs/README.md\nM geometry/circle.py\nM crlf.txt\nD old.txt\n"
    assert result.stdout.decode() == summary + EXPECTED_DIFF
    assert (tmp_path / "crlf.txt").read_bytes() == b"one\r\nTWO"


def test_library_gives_the_same_diff_and_json_facts(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    dry = apply_patch(PATCH, tmp_path, dry_run=True)
    assert dry.dry_run and snapshot(tmp_path) == before
    assert dry.diff == EXPECTED_DIFF
    assert [w.kind for w in dry.warnings] == ["fuzzy"]
    done = apply_patch(PATCH, tmp_path)
    assert done.diff == EXPECTED_DIFF
    assert done.summary.startswith("Success. Updated the following files:\n")


def test_json_with_diff(tmp_path: Path) -> None:
    _tree(tmp_path)
    code, document = _json(tmp_path, "--diff", "--dry-run")
    assert code == 0 and document["dry_run"] is True
    assert document["diff"] == EXPECTED_DIFF


def test_per_file_results(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = apply_patch(PATCH, tmp_path)
    assert [(f.path, f.status, f.moved_from, f.added, f.removed) for f in result.files] == [
        ("docs/README.md", "added", None, 3, 0),
        ("geometry/circle.py", "moved", "shapes.py", 2, 2),
        ("crlf.txt", "updated", None, 1, 1),
        ("old.txt", "deleted", None, 0, 2),
    ]


ERRORS = {
    "syntax": "*** Begin Patch\n*** Delete File a.txt\n*** End Patch",
    "not found": "*** Begin Patch\n*** Update File: a.txt\n@@\n-nothing\n+x\n*** End Patch",
    "context": "*** Begin Patch\n*** Update File: a.txt\n@@ def nowhere():\n-one\n+x\n*** End Patch",
    "missing file": "*** Begin Patch\n*** Update File: b.txt\n@@\n-one\n+x\n*** End Patch",
    "policy": "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch",
    "outside": "*** Begin Patch\n*** Add File: ../x.txt\n+x\n*** End Patch",
    "empty": "*** Begin Patch\n*** End Patch",
}


@pytest.mark.parametrize("patch", ERRORS.values(), ids=ERRORS.keys())
def test_to_dict_is_the_json_error_object(patch: str, tmp_path: Path) -> None:
    """Issue 12 item 11: what a library caller gets is what `--json` prints."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    before = snapshot(tmp_path)
    printed = run_cli(["--json", patch], root)
    assert printed.returncode == 1
    with pytest.raises(PatchError) as caught:
        apply_patch(patch, root)
    assert json.loads(printed.stdout)["error"] == caught.value.to_dict()
    assert caught.value.to_dict()["nothing_changed"] is True
    assert snapshot(tmp_path) == before


def test_report_is_the_summary_and_every_warning(tmp_path: Path) -> None:
    """Issue 12 item 11: `report()` is what the executable prints; `summary` the reference's text."""
    (tmp_path / "a.txt").write_text("x = 1  \ny = 2\nx = 1  \n")
    patch = json.dumps("*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 3\n*** End Patch")
    printed = run_cli(["--ambiguous", "first", patch], tmp_path)
    (tmp_path / "a.txt").write_text("x = 1  \ny = 2\nx = 1  \n")
    result = apply_patch(patch, tmp_path, ambiguous="first")
    assert result.summary == "Success. Updated the following files:\nM a.txt\n"
    assert result.report() == (printed.stdout + printed.stderr).decode()
    assert result.report() == result.summary + "".join(f"warning: {w.message}\n" for w in result.warnings)
    assert [w.kind for w in result.warnings] == ["input", "fuzzy", "ambiguous"]
