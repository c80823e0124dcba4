"""`apply_patch diff OLD NEW` and `make_patch`: the patch that turns OLD into NEW.

The executable runs in a temporary folder on two trees (or two files); its
output is then applied to a copy of OLD by the executable, which must give
NEW byte for byte. Errors: exact messages, exit codes, nothing on stdout.
"""

import os
from pathlib import Path

import pytest

from _support import FIXTURES, copy_tree, files_of, run_cli, snapshot
from apply_patch import (
    AddFile,
    BinaryFileError,
    Chunk,
    DeleteFile,
    Patch,
    UnsupportedChangeError,
    UpdateFile,
    apply_patch,
    convert_unified_diff,
    make_patch,
    parse_patch,
)

CORPUS = FIXTURES / "corpus"
UPDATE_A_TO_B = "*** Begin Patch\n*** Update File: {}\n@@\n-a\n+b\n*** End of File\n*** End Patch\n"
CORPUS_CASES = sorted(p for p in CORPUS.iterdir() if (p / "patch.txt").is_file())


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def _trees(tmp: Path, old: dict[str, bytes], new: dict[str, bytes]) -> tuple[Path, Path]:
    _write(tmp / "old", old)
    _write(tmp / "new", new)
    (tmp / "old").mkdir(exist_ok=True)
    (tmp / "new").mkdir(exist_ok=True)
    return tmp / "old", tmp / "new"


def _diff(tmp: Path, *args: str) -> str:
    result = run_cli(["diff", *args], tmp)
    assert (result.returncode, result.stderr) == (0, b""), result.stderr.decode()
    return result.stdout.decode("utf-8")


def _apply_to_copy(tmp: Path, source: Path, patch: str) -> dict[str, bytes]:
    work = tmp / "work"
    copy_tree(source, work)
    result = run_cli([patch], work)
    assert result.returncode == 0, result.stderr.decode()
    return files_of(snapshot(work))


TREE_OLD = {
    "src/app.py": b"import os\n\n\ndef main():\n    print('hi')\n    return 0\n",
    "src/util.py": b"".join(b"line %d\n" % i for i in range(30)),
    "docs/gone.md": b"# Gone\n",
    "win.bat": b"@echo off\r\necho one\r\necho two\r\n",
    "no_newline.txt": b"last line",
}
TREE_NEW = {
    "src/app.py": b"import os\n\n\ndef main():\n    print('hello')\n    return 0\n",
    "lib/util.py": b"".join(b"line %d\n" % i for i in range(30)).replace(b"line 29", b"line 29!"),
    "docs/new.md": b"# New\r\nwith CRLF",
    "win.bat": b"@echo off\r\necho one\r\necho 2\r\n",
    "no_newline.txt": b"last line\n",
}


def test_two_folders(tmp_path: Path) -> None:
    old, new = _trees(tmp_path, TREE_OLD, TREE_NEW)
    patch = _diff(tmp_path, "old", "new")
    assert patch == """\
*** Begin Patch
*** Delete File: docs/gone.md
*** Add File: docs/new.md
+# New
\\ Line ending: CRLF
+with CRLF
\\ No newline at end of file
*** Update File: no_newline.txt
@@
-last line
+last line
\\ Line ending: LF
*** End of File
*** Update File: src/app.py
@@
 
 
 def main():
-    print('hi')
+    print('hello')
     return 0
*** End of File
*** Update File: src/util.py
*** Move to: lib/util.py
@@
 line 26
 line 27
 line 28
-line 29
+line 29!
*** End of File
*** Update File: win.bat
@@
 @echo off
 echo one
-echo two
+echo 2
*** End of File
*** End Patch
"""
    assert _apply_to_copy(tmp_path, old, patch) == TREE_NEW


def test_the_hint_goes_where_it_makes_the_place_certain(tmp_path: Path) -> None:
    block = b"    total = 0\n    for item in items:\n        total += item\n    return total\n"
    old_text = b"def first():\n" + block + b"\n\ndef second():\n" + block
    new_text = old_text[: -len(block)] + block.replace(b"+= item", b"+= 2 * item")
    old, _ = _trees(tmp_path, {"m.py": old_text}, {"m.py": new_text})
    patch = _diff(tmp_path, "-U", "1", "old", "new")
    assert patch == (
        "*** Begin Patch\n*** Update File: m.py\n@@ def second():\n"
        "     for item in items:\n-        total += item\n+        total += 2 * item\n"
        "     return total\n*** End of File\n*** End Patch\n"
    )
    assert _apply_to_copy(tmp_path, old, patch) == {"m.py": new_text}


def test_two_files(tmp_path: Path) -> None:
    _write(tmp_path, {"a.txt": b"one\ntwo\n", "b.txt": b"one\n2\n"})
    expected = "*** Begin Patch\n*** Update File: {}\n@@\n one\n-two\n+2\n*** End of File\n*** End Patch\n"
    assert _diff(tmp_path, "a.txt", "b.txt") == expected.format("a.txt")
    assert _diff(tmp_path, "--path", "x/y.txt", "a.txt", "b.txt") == expected.format("x/y.txt")


def test_the_same_trees_print_nothing(tmp_path: Path) -> None:
    _trees(tmp_path, TREE_OLD, TREE_OLD)
    assert _diff(tmp_path, "old", "new") == ""


def test_context_and_renames_options(tmp_path: Path) -> None:
    _trees(tmp_path, {"a.txt": b"1\n2\n3\n4\n5\n"}, {"b.txt": b"1\n2\n3\n4\nfive\n"})
    assert "*** Move to: b.txt\n@@\n 4\n-5\n+five\n" in _diff(tmp_path, "-U", "1", "old", "new")
    patch = _diff(tmp_path, "--no-renames", "old", "new")
    assert "*** Add File: b.txt\n" in patch and "*** Delete File: a.txt\n" in patch
    assert "Move to" not in _diff(tmp_path, "--similarity", "90", "old", "new")


def test_vcs_folders_and_excluded_names_are_left_out(tmp_path: Path) -> None:
    old = {".git/HEAD": b"ref: a\n", "keep.txt": b"a\n", "build/out.o": b"\0"}
    new = {".git/HEAD": b"ref: b\n", "keep.txt": b"b\n", "build/out.o": b"\0\1"}
    _trees(tmp_path, old, new)
    patch = _diff(tmp_path, "--exclude", "build", "old", "new")
    assert patch == UPDATE_A_TO_B.format("keep.txt")


def test_binary_files_are_refused(tmp_path: Path) -> None:
    old = {"img.png": b"\x89PNG\0\1", "t.txt": b"a\n"}
    _trees(tmp_path, old, {"img.png": b"\x89PNG\0\2", "t.txt": b"b\n"})
    before = snapshot(tmp_path)
    result = run_cli(["diff", "old", "new"], tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert snapshot(tmp_path) == before  # diff only ever reads
    assert result.stderr.decode() == (
        "Error: Cannot make a patch for img.png: it is a binary file (a NUL byte at offset 4)"
        " (use --skip-binary to leave it out)\n"
    )


def test_binary_files_can_be_skipped(tmp_path: Path) -> None:
    _trees(tmp_path, {"img.png": b"\xff\xfe", "t.txt": b"a\n"}, {"img.png": b"\xff", "t.txt": b"b\n"})
    result = run_cli(["diff", "--skip-binary", "old", "new"], tmp_path)
    assert result.returncode == 0
    assert result.stderr == b"Skipped img.png: a binary file\n"
    assert result.stdout.decode() == UPDATE_A_TO_B.format("t.txt")


def test_removed_binary_files_and_symlinks_are_deleted(tmp_path: Path) -> None:
    old, new = _trees(tmp_path, {"img.png": b"\0\1", "t.txt": b"a\n"}, {"t.txt": b"a\n"})
    os.symlink("t.txt", old / "link")
    patch = _diff(tmp_path, "old", "new")
    assert patch == "*** Begin Patch\n*** Delete File: img.png\n*** Delete File: link\n*** End Patch\n"
    assert _apply_to_copy(tmp_path, old, patch) == {"t.txt": b"a\n"}


def test_unchanged_binary_files_are_fine(tmp_path: Path) -> None:
    _trees(tmp_path, {"img.png": b"\0", "t.txt": b"a\n"}, {"img.png": b"\0", "t.txt": b"b\n"})
    assert "t.txt" in _diff(tmp_path, "old", "new")


def test_symlinks_are_refused_or_skipped(tmp_path: Path) -> None:
    old, new = _trees(tmp_path, {"t.txt": b"a\n"}, {"t.txt": b"b\n"})
    os.symlink("t.txt", old / "link")
    os.symlink("u.txt", new / "link")
    result = run_cli(["diff", "old", "new"], tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.decode() == (
        "Error: Cannot make a patch for link: it is a symbolic link or a special file, and the "
        "format holds regular files only (use --skip-binary to leave it out)\n"
    )
    result = run_cli(["diff", "--skip-binary", "old", "new"], tmp_path)
    assert (result.returncode, result.stderr) == (0, b"Skipped link: a symbolic link or a special file\n")


def test_a_file_turned_into_a_folder_is_refused(tmp_path: Path) -> None:
    _trees(tmp_path, {"a": b"file\n"}, {"a/b.txt": b"file\n"})
    result = run_cli(["diff", "old", "new"], tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.decode() == (
        "Error: Cannot make a patch for a: it is a file on one side and a folder on the other "
        "(a patch cannot remove a folder)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["old", "missing"], "Error: missing: no such file or folder\n"),
        (["old", "old/t.txt"], "Error: OLD and NEW must be two folders or two files\n"),
    ],
)
def test_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    _trees(tmp_path, {"t.txt": b"a\n"}, {})
    result = run_cli(["diff", *args], tmp_path)
    assert (result.returncode, result.stdout, result.stderr.decode()) == (2, b"", message)


def test_argument_errors(tmp_path: Path) -> None:
    result = run_cli(["diff", "-U", "-1", "a", "b"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.decode().endswith("error: argument -U/--context: must be 0 or more\n")


# --- the library ---------------------------------------------------------------


def test_make_patch_of_two_texts() -> None:
    patch = make_patch("a\nb\nc\n", "a\nB\nc\n", path="f.txt")
    assert patch == Patch((UpdateFile("f.txt", None, (Chunk((), (" a", "-b", "+B", " c"), True),)),))
    assert make_patch("same\n", "same\n") == Patch(())


def test_make_patch_of_two_trees() -> None:
    patch = make_patch({"a.txt": "x\n", "gone.txt": "y\n"}, {"a.txt": b"x\n", "new.txt": b"z"})
    assert patch.operations == (
        DeleteFile("gone.txt"),
        AddFile("new.txt", ("z",), endings=((0, ""),)),
    )


def test_make_patch_of_a_byte_order_mark_removed() -> None:
    # An Update keeps the BOM (default policy): the file is written again.
    patch = make_patch("\ufeffa\n", "a\n", path="f")
    assert patch.operations == (DeleteFile("f"), AddFile("f", ("a",)))


@pytest.mark.parametrize("added", ["\tz = 1", "\t"])
def test_make_patch_of_a_line_in_another_unit_than_the_file_writes_it_whole(tmp_path: Path, added: str) -> None:
    # The default policy writes added lines in a spaces-only file's unit: an Update could
    # not give this tab back (it failed with an internal error). The file is written again.
    old, new = "def f(x):\n    return x\n", f"def f(x):\n{added}\n    return x\n"
    patch = make_patch(old, new, path="f.py")
    assert patch.operations == (DeleteFile("f.py"), AddFile("f.py", tuple(new.split("\n")[:-1])))
    (tmp_path / "f.py").write_text(old)
    apply_patch(str(patch), tmp_path)
    assert (tmp_path / "f.py").read_text() == new
    diff = f"--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,3 @@\n def f(x):\n+{added}\n     return x\n"
    assert convert_unified_diff(diff, old={"f.py": old}) == patch


def test_make_patch_errors() -> None:
    with pytest.raises(BinaryFileError) as binary:
        make_patch({"b": b"\xff"}, {"b": b"\xfe"})
    assert str(binary.value) == "Cannot make a patch for b: it is a binary file (not UTF-8 at offset 0)"
    with pytest.raises(UnsupportedChangeError) as path:
        make_patch({"a ": "x"}, {})
    assert str(path.value) == (
        "Cannot make a patch for 'a ': a path in a patch cannot be empty, hold a line break "
        "or end with whitespace"
    )
    with pytest.raises(TypeError):
        make_patch("text", {"a": "x"})
    with pytest.raises(ValueError):
        make_patch("a", "b", context=-1)


@pytest.mark.parametrize("case", CORPUS_CASES, ids=[c.name for c in CORPUS_CASES])
def test_corpus_trees(case: Path, tmp_path: Path) -> None:
    old = files_of(snapshot(case / "before"))
    new = files_of(snapshot(case / "after"))
    patch = make_patch(old, new)
    assert parse_patch(str(patch)) == patch
    copy_tree(case / "before", tmp_path)
    apply_patch(str(patch), tmp_path)
    assert files_of(snapshot(tmp_path)) == new


@pytest.mark.parametrize("case", CORPUS_CASES[7::15], ids=[c.name for c in CORPUS_CASES[7::15]])
def test_corpus_through_the_executable(case: Path, tmp_path: Path) -> None:
    patch = _diff(case, "before", "after")
    assert _apply_to_copy(tmp_path, case / "before", patch) == files_of(snapshot(case / "after"))
