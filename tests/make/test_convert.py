"""`apply_patch convert` and `convert_unified_diff`: unified diffs → patches.

fixtures/unidiff/NN_name/ holds a diff made by git or GNU diff (`diff.txt`),
the arguments (`case.json`), the expected stdout (`expected.txt`), the exit
code and stderr, and the old files (`old/`) when `--old` is used. Each case
runs through the executable (every fourth also with the diff on stdin) and the library.
The corpus (fixtures/corpus/) checks the conversion of 120 real-looking diffs.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from _support import FIXTURES, copy_tree, files_of, run_cli, snapshot
from apply_patch import (
    BinaryFileError,
    PatchError,
    UnifiedDiffError,
    apply_patch,
    convert_unified_diff,
)

UNIDIFF = FIXTURES / "unidiff"
CORPUS = FIXTURES / "corpus"
CORPUS_CASES = sorted(p for p in CORPUS.iterdir() if (p / "unified.diff").is_file())


@dataclass(frozen=True)
class Case:
    folder: Path
    rule: str
    args: list[str]
    exit: int
    stderr: str

    @property
    def expected(self) -> bytes:
        return (self.folder / "expected.txt").read_bytes()

    @property
    def diff(self) -> bytes:
        return (self.folder / "diff.txt").read_bytes()


def _load(folder: Path) -> Case:
    data = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    return Case(folder, data["rule"], data["args"], data["exit"], data["stderr"])


CASES = [_load(p) for p in sorted(UNIDIFF.iterdir()) if (p / "case.json").is_file()]
IDS = [c.folder.name for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_executable_with_a_file(case: Case) -> None:
    result = run_cli(["convert", *case.args, "diff.txt"], case.folder)
    assert (result.returncode, result.stderr.decode()) == (case.exit, case.stderr), case.rule
    assert result.stdout == case.expected, case.rule


@pytest.mark.parametrize("case", CASES[::4], ids=IDS[::4])
def test_executable_with_stdin(case: Case) -> None:
    result = run_cli(["convert", *case.args], case.folder, stdin=case.diff)
    assert (result.returncode, result.stdout) == (case.exit, case.expected), case.rule


LIBRARY_CASES = [c for c in CASES if "--skip-binary" not in c.args]


@pytest.mark.parametrize("case", LIBRARY_CASES, ids=[c.folder.name for c in LIBRARY_CASES])
def test_library(case: Case) -> None:
    strip = next((int(a[2:]) for a in case.args if a.startswith("-p")), 1)  # "-p2"
    old = case.folder / "old" if "--old" in case.args else None
    text = case.diff.decode("utf-8")
    if case.exit == 0:
        assert str(convert_unified_diff(text, old=old, strip=strip)).encode() == case.expected
        return
    with pytest.raises(PatchError) as caught:
        convert_unified_diff(text, old=old, strip=strip)
    hint = " (use --skip-binary to leave it out)" if isinstance(caught.value, BinaryFileError) else ""
    assert f"Error: {caught.value}{hint}\n" == case.stderr


def test_the_fixtures_cover_the_inputs() -> None:
    diffs = b"".join(c.diff for c in CASES)
    for marker in (b"rename from", b"new file mode", b"deleted file mode", b"\\ No newline",
                   b'"a/', b"Binary files", b"GIT binary patch", b"\r\n", b"1970-01-01"):  # fmt: skip
        assert marker in diffs


@pytest.mark.parametrize("case", CORPUS_CASES, ids=[c.name for c in CORPUS_CASES])
def test_corpus_diffs_convert_to_the_committed_patches(case: Path, tmp_path: Path) -> None:
    diff = (case / "unified.diff").read_bytes().decode("utf-8")
    patch = convert_unified_diff(diff, old=case / "before", strip=2)
    assert str(patch).encode("utf-8") == (case / "patch.txt").read_bytes()
    # Without the old files, the patch is made from the diff alone: it must still fit.
    copy_tree(case / "before", tmp_path)
    apply_patch(str(convert_unified_diff(diff, strip=2)), tmp_path)
    assert files_of(snapshot(tmp_path)) == files_of(snapshot(case / "after"))


@pytest.mark.parametrize("case", CORPUS_CASES[5::20], ids=[c.name for c in CORPUS_CASES[5::20]])
def test_corpus_through_the_executable(case: Path) -> None:
    diff = (case / "unified.diff").read_bytes()
    result = run_cli(["convert", "-p2", "--old", "before"], case, stdin=diff)
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == (case / "patch.txt").read_bytes()


def test_a_diff_without_changes_prints_nothing(tmp_path: Path) -> None:
    result = run_cli(["convert"], tmp_path, stdin=b"just some text\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_not_utf8(tmp_path: Path) -> None:
    result = run_cli(["convert"], tmp_path, stdin=b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-\xff\n+y\n")
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr == b"Error: the diff is not UTF-8 text (byte 29)\n"


def test_usage_error(tmp_path: Path) -> None:
    result = run_cli(["convert", "--frobnicate"], tmp_path)
    assert result.returncode == 2
    assert b"unrecognized arguments: --frobnicate" in result.stderr


def test_missing_diff_file(tmp_path: Path) -> None:
    result = run_cli(["convert", "nowhere.diff"], tmp_path)
    assert (result.returncode, result.stderr) == (2, b"Error: nowhere.diff: No such file or directory\n")


def test_library_error_has_the_diff_line() -> None:
    with pytest.raises(UnifiedDiffError) as caught:
        convert_unified_diff("--- a/x\n+++ b/x\n@@ -1,2 +1 @@\n-x\n")
    assert caught.value.line == 5
    assert str(caught.value) == (
        "Invalid unified diff on line 5: the hunk at line 3 has fewer lines than its header says"
    )
