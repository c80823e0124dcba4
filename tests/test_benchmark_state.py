"""The benchmark scripts that commit (the oracle, its ambiguity classifier, the race and
hostile campaigns) keep their receipts out of the user's state folder: each run commits
in thousands of roots of its own, and each root would keep a folder there, with hard
links to the files it replaced (`make bench` left one per case in the real home)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _support import REPO

QUICK = {
    "robustness": ["--limit", "1", "--mistakes", "clean"],  # (every case applied: a commit each)
    "ambiguity": ["--limit", "1", "--mistakes", "clean"],
    "stress": ["--runs", "1", "--deadline", "2"],
    "hostile": ["--runs", "1", "--deadline", "2"],
}


@pytest.mark.parametrize("script", list(QUICK))
def test_a_run_leaves_the_users_state_folder_alone(tmp_path: Path, script: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "APPLY_PATCH_STATE_DIR"}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"))
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / f"{script}.py"), *QUICK[script]],
                            cwd=REPO, env=env, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert not list(home.rglob("*")), sorted(map(str, home.rglob("*")))[:5]
