"""What a new user meets around the code: the suite's own messages, the license, the
changelog, the package's metadata, the platforms."""

import shutil
import subprocess
import sys
from pathlib import Path

from _support import REPO


def test_a_skipped_test_says_what_is_missing(tmp_path: Path) -> None:
    """Run from a copy of the tests with nothing beside it, the conformance suite is
    skipped, and the reason names what it needs (not where the checkout lives)."""
    shutil.copytree(REPO / "tests", tmp_path / "clone" / "tests")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-q", "-p", "no:cacheprovider",
         "tests/test_conformance.py"],
        cwd=tmp_path / "clone", capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SKIPPED" in result.stdout
    assert "needs the reference implementation's conformance scenarios" in result.stdout
