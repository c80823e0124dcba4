"""The realistic corpus (fixtures/corpus/, made by its generate.py): every patch reproduces after/.

Each case is real source files with seeded edits, git's unified diff of them,
and that diff converted to a patch. Applying the patch to a copy of before/
must give after/ byte for byte: every case through the library, every
twelfth through the installed executable too.
"""

import json
from pathlib import Path

import pytest

from _support import FIXTURES, copy_tree, files_of, run_cli, snapshot
from apply_patch import apply_patch

CORPUS = FIXTURES / "corpus"
CASES = sorted(p for p in CORPUS.iterdir() if (p / "patch.txt").is_file())
SAMPLE = CASES[::12]


def _patch(case: Path) -> str:
    return (case / "patch.txt").read_bytes().decode("utf-8")


def _after(case: Path) -> dict[str, bytes]:
    return files_of(snapshot(case / "after"))


def test_the_corpus_is_large_and_varied() -> None:
    assert len(CASES) >= 100
    edits = {e for case in CASES for e in json.loads((case / "case.json").read_text())["edits"]}
    assert {"modify", "start", "end", "lookalike", "add", "delete", "rename"} <= edits
    patches = "".join(map(_patch, CASES))
    assert "\n@@ def " in patches and "\n@@ class " in patches
    assert "\n*** End of File\n" in patches and "\n*** Move to: " in patches


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_library_reproduces_after(case: Path, tmp_path: Path) -> None:
    copy_tree(case / "before", tmp_path)
    apply_patch(_patch(case), tmp_path)
    assert files_of(snapshot(tmp_path)) == _after(case)


@pytest.mark.parametrize("case", SAMPLE, ids=[c.name for c in SAMPLE])
def test_executable_reproduces_after(case: Path, tmp_path: Path) -> None:
    copy_tree(case / "before", tmp_path)
    result = run_cli([_patch(case)], tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().startswith("Success. Updated the following files:\n")
    assert files_of(snapshot(tmp_path)) == _after(case)
