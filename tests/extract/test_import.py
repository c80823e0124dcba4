"""tree-sitter is loaded only by extraction: importing or applying a plain patch does not load it."""

import subprocess
import sys
from pathlib import Path

PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch"

LIBRARY = f"""
import sys
import apply_patch
apply_patch.apply_patch({PATCH!r}, ".")
print("tree_sitter" in sys.modules)
"""

EXECUTABLE = f"""
import sys
from apply_patch.cli._main import main
main([{PATCH!r}])
print("tree_sitter" in sys.modules)
"""

EXTRACTION = f"""
import sys
import apply_patch
apply_patch.extract_patches("apply_patch '" + {PATCH!r} + "'")
print("tree_sitter" in sys.modules)
"""


def _loaded(program: str, cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-1]


def test_applying_with_the_library_does_not_load_tree_sitter(tmp_path: Path) -> None:
    assert _loaded(LIBRARY, tmp_path) == "False"
    assert (tmp_path / "hello.txt").read_text() == "hi\n"


def test_applying_with_the_executable_does_not_load_tree_sitter(tmp_path: Path) -> None:
    assert _loaded(EXECUTABLE, tmp_path) == "False"
    assert (tmp_path / "hello.txt").read_text() == "hi\n"


def test_extraction_does_load_it(tmp_path: Path) -> None:
    """The check above would see it: extraction puts it in sys.modules."""
    assert _loaded(EXTRACTION, tmp_path) == "True"
