"""What the editor tools and the diff reader report (issue 23, item 3).

Through the public API (`TextEditor`, `apply_unified_diff`) and the installed
executable: success answers of the text editor show the edited lines,
numbered as `view` numbers them, bounded; folder listings say how many hidden
entries they leave out; a `view_range` past the end is clamped with a note; a
unified diff that creates a file (`--- /dev/null`) but removes lines, or
deletes one but adds lines, is refused instead of losing those lines.
"""

from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, Entry, run_cli, snapshot
from apply_patch.anthropic import TextEditor
from apply_patch.edits import apply_unified_diff
from apply_patch.format import parse_unified_diff
from apply_patch import UnifiedDiffError

NUMBERS = "".join(f"line {n}\n" for n in range(1, 21))


def _tree(root: Path, files: dict[str, str]) -> dict[str, Entry]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return snapshot(root)


def _numbered(first: int, last: int, changed: dict[int, str] | None = None) -> str:
    return "\n".join(f"{n}: {(changed or {}).get(n, f'line {n}')}" for n in range(first, last + 1))


# ------------------------------------------------------------ snippets of the edited lines


def test_str_replace_shows_the_edited_lines_with_four_around(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    answer = TextEditor(tmp_path).run({"command": "str_replace", "path": "n.txt", "old_str": "line 10\n", "new_str": "line ten\n"})
    assert answer == {
        "content": "Successfully replaced text at exactly one location.\nLines 6-14 of n.txt now:\n"
        + _numbered(6, 14, {10: "line ten"}),
        "is_error": False,
    }


def test_a_deletion_shows_the_lines_around_where_it_was(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    answer = TextEditor(tmp_path).run({"command": "str_replace", "path": "n.txt", "old_str": "line 2\nline 3\n", "new_str": ""})
    lines = answer["content"].split("\n")
    assert lines[0] == "Successfully replaced text at exactly one location."
    assert lines[1].startswith("Lines 1-") and lines[1].endswith(" of n.txt now:")
    assert lines[2:4] == ["1: line 1", "2: line 4"]


def test_insert_shows_the_inserted_lines(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    answer = TextEditor(tmp_path).run({"command": "insert", "path": "n.txt", "insert_line": 2, "new_str": "new a\nnew b\n"})
    assert answer["content"] == (
        "Successfully inserted text after line 2.\nLines 1-8 of n.txt now:\n"
        "1: line 1\n2: line 2\n3: new a\n4: new b\n5: line 3\n6: line 4\n7: line 5\n8: line 6"
    )


def test_create_shows_the_first_lines_and_says_how_many_more(tmp_path: Path) -> None:
    answer = TextEditor(tmp_path).run({"command": "create", "path": "big.txt", "file_text": "".join(f"row {n}\n" for n in range(1, 101))})
    lines = answer["content"].split("\n")
    assert lines[:3] == ["File created successfully at: big.txt", "Lines 1-24 of big.txt now:", "1: row 1"]
    assert lines[-2:] == ["24: row 24", "(76 more lines: view_range [25, 100] shows them.)"]
    assert TextEditor(tmp_path).run({"command": "create", "path": "empty.txt", "file_text": ""})["content"] == (
        "File created successfully at: empty.txt\n(the file is empty)"
    )


def test_a_long_replacement_is_cut_at_24_lines(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    new = "".join(f"new {n}\n" for n in range(1, 41))
    answer = TextEditor(tmp_path).run({"command": "str_replace", "path": "n.txt", "old_str": "line 10\n", "new_str": new})
    lines = answer["content"].split("\n")
    assert lines[1] == "Lines 6-29 of n.txt now:" and len(lines) == 2 + 24 + 1
    assert lines[-1] == "(24 more lines: view_range [30, 53] shows them.)"


def test_the_snippet_keeps_the_fuzzy_warning(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.py": "def f():\n    x = 1   \n    return x\n"})
    answer = TextEditor(tmp_path).run({"command": "str_replace", "path": "n.py", "old_str": "    x = 1\n    return x\n", "new_str": "    x = 2\n    return x\n"})
    content = answer["content"]
    assert content.startswith("Successfully replaced text at exactly one location.\nLines 1-3 of n.py now:\n1: def f():\n2:     x = 2")
    assert content.endswith("once trailing whitespace is ignored.")


# ------------------------------------------------------------ listings and view ranges


def test_a_listing_says_how_many_hidden_entries_it_left_out(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "", ".env": "", ".git/config": "", "src/.cache/x": "", "src/b.txt": ""})
    answer = TextEditor(tmp_path).run({"command": "view", "path": "."})
    assert answer["content"] == (
        "Files and folders in ., 2 levels deep, 3 hidden ones left out (view one by its path):\n"
        "a.txt\nsrc/\nsrc/b.txt"
    )
    assert TextEditor(tmp_path).run({"command": "view", "path": "src"})["content"] == (
        "Files and folders in src, 2 levels deep, 1 hidden one left out (view it by its path):\nb.txt"
    )
    (tmp_path / "src/.cache/x").unlink()
    (tmp_path / "src/.cache").rmdir()
    assert TextEditor(tmp_path).run({"command": "view", "path": "src"})["content"] == (
        "Files and folders in src, 2 levels deep, none hidden:\nb.txt"
    )


def test_a_view_range_past_the_end_is_clamped_with_a_note(tmp_path: Path) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    editor = TextEditor(tmp_path)
    assert editor.run({"command": "view", "path": "n.txt", "view_range": [18, 40]}) == {
        "content": "Note: the file has 20 lines; lines 18-20 are shown.\n" + _numbered(18, 20),
        "is_error": False,
    }
    assert editor.run({"command": "view", "path": "n.txt", "view_range": [18, -1]})["content"] == _numbered(18, 20)


@pytest.mark.parametrize("view_range", [[21, 30], [0, 3], [5, 4], [1], "1-3"])
def test_a_view_range_that_shows_nothing_is_still_refused(tmp_path: Path, view_range: object) -> None:
    _tree(tmp_path, {"n.txt": NUMBERS})
    answer = TextEditor(tmp_path).run({"command": "view", "path": "n.txt", "view_range": view_range})
    assert answer["is_error"] and answer["content"].startswith(("Error: Invalid view_range", "Error: view_range must be"))


# ------------------------------------------------------------ unified diffs from and to /dev/null

NEW_WITH_MINUS = "--- /dev/null\n+++ b/new.txt\n@@ -0,1 +1,2 @@\n-stray\n+one\n+two\n"
GONE_WITH_PLUS = "--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,1 @@\n-one\n+stray\n"


def test_a_new_file_diff_that_removes_lines_is_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, {"keep.txt": "x\n"})
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=NEW_WITH_MINUS.encode())
    assert result.returncode == 1
    assert result.stderr.decode() == (
        "Invalid unified diff on line 3: the hunk at line 3 removes lines from new.txt, which the diff "
        "creates (--- /dev/null): a new file has no lines to remove; write each of its lines with '+'\n"
        + NOTHING_CHANGED
    )
    assert snapshot(tmp_path) == before
    with pytest.raises(UnifiedDiffError):
        apply_unified_diff(NEW_WITH_MINUS, tmp_path)
    assert snapshot(tmp_path) == before


def test_a_deleting_diff_that_adds_lines_is_refused(tmp_path: Path) -> None:
    before = _tree(tmp_path, {"old.txt": "one\n"})
    result = run_cli(["--format", "unified-diff"], tmp_path, stdin=GONE_WITH_PLUS.encode())
    assert result.returncode == 1
    assert "adds lines to old.txt, which the diff deletes (+++ /dev/null)" in result.stderr.decode()
    assert snapshot(tmp_path) == before


def test_convert_refuses_it_too(tmp_path: Path) -> None:
    (tmp_path / "d.diff").write_text(NEW_WITH_MINUS)
    result = run_cli(["convert", "d.diff"], tmp_path)
    assert result.returncode == 1 and b"a new file has no lines to remove" in result.stderr
    with pytest.raises(UnifiedDiffError, match="creates"):
        parse_unified_diff(NEW_WITH_MINUS)


def test_a_new_file_diff_of_added_lines_still_applies(tmp_path: Path) -> None:
    apply_unified_diff("--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n", tmp_path)
    assert (tmp_path / "new.txt").read_text() == "one\ntwo\n"
