"""The built wheel carries the grammar: install it into a fresh venv and parse with it; its
executable runs by name from PATH, as after `pipx install` or `uv tool install` (README,
"Install as a tool on PATH": a venv of its own, its bin folder on PATH)."""

import subprocess
import sys
from pathlib import Path

from _support import FIXTURES, REPO

SCRIPT = """
import pathlib, sys
import apply_patch
from apply_patch import grammar_text, parse_patch
assert pathlib.Path(apply_patch.__file__).is_relative_to(sys.prefix), apply_patch.__file__
shipped = pathlib.Path(apply_patch.__file__).parent / "grammar" / "apply_patch.lark"
assert shipped.read_text(encoding="utf-8") == grammar_text()
print(str(parse_patch(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))), end="")
"""


def _run(*args: str | Path, cwd: Path | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_wheel_installs_into_a_fresh_venv_and_parses(tmp_path: Path) -> None:
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    _run(*pip, "wheel", "--no-deps", "-w", tmp_path / "dist", REPO)
    (wheel,) = (tmp_path / "dist").glob("apply_patch-*.whl")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    _run(*pip, "--python", venv / "bin" / "python", "install", wheel)

    sample = FIXTURES / "parse" / "valid" / "consecutive_chunk_headers.patch"
    canonical = sample.with_suffix(".canonical").read_text(encoding="utf-8")
    # Run from an empty folder so nothing but the installed wheel can be imported.
    assert _run(venv / "bin" / "python", "-c", SCRIPT, sample, cwd=tmp_path) == canonical
    (tmp_path / "work").mkdir()
    summary = _run(venv / "bin" / "apply_patch", sample.read_text(encoding="utf-8").replace(
        "*** Update File: a.py\n@@ class A:\n@@     def f(self):\n-        pass\n+        return 1\n",
        "*** Add File: a.py\n+pass\n",
    ), cwd=tmp_path / "work")
    assert summary == "Success. Updated the following files:\nA a.py\n"
    on_path = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin"}
    version = subprocess.run(["apply_patch", "-V"], capture_output=True, text=True, env=on_path, timeout=60)
    assert version.stdout.startswith("apply_patch ")


def test_a_module_removed_between_two_builds_is_not_in_the_second_wheel(tmp_path: Path) -> None:
    """Issue 36, "Install": a build leaves no `build/` folder that a later install (`pip
    install .`, `pipx install .`, `uv tool install .`) would take a removed module from."""
    import shutil
    import zipfile

    clone = tmp_path / "clone"
    shutil.copytree(REPO / "apply_patch", clone / "apply_patch", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "grammar", clone / "grammar")
    for name in ("pyproject.toml", "hatch_build.py", "README.md", "LICENSE"):
        shutil.copy(REPO / name, clone / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "wheel", "--no-deps",
           "--no-build-isolation"]  # fmt: skip
    removed = "apply_patch/format/_stream.py"

    def built(dist: str) -> set[str]:
        _run(*pip, "-w", tmp_path / dist, clone)
        (wheel,) = (tmp_path / dist).glob("apply_patch-*.whl")
        with zipfile.ZipFile(wheel) as archive:
            return set(archive.namelist())

    first = built("first")
    assert {removed, "apply_patch/grammar/apply_patch.lark", "apply_patch/grammar/apply_patch.lalr"} <= first
    (clone / removed).unlink()
    second = built("second")
    assert removed not in second and first - second == {removed}
    assert not (clone / "build").exists()
