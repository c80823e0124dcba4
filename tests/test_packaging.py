"""What a new user meets around the code: the suite's own messages, the license, the
changelog, the package's metadata, the platforms."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, REPO, snapshot


def test_a_fresh_clone_runs_the_conformance_suite_with_nothing_skipped(tmp_path: Path) -> None:
    """Run from a copy of the tests and their fixtures with nothing beside it (no
    folder of the steering repository), the reference's scenarios run, none skipped."""
    shutil.copytree(REPO / "tests", tmp_path / "clone" / "tests")
    shutil.copytree(REPO / "fixtures" / "codex_scenarios", tmp_path / "clone" / "fixtures" / "codex_scenarios")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-rs", "-q", "-p", "no:cacheprovider",
         "tests/test_conformance.py"],
        cwd=tmp_path / "clone", capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "skipped" not in result.stdout.lower() and " passed" in result.stdout


# What Windows lacks, taken away before the package is imported (the platform cannot
# be had here: its absence of POSIX calls is what the package must survive).
WITHOUT_POSIX = """
import _signal, os, signal, sys
sys.modules["fcntl"] = None  # `import fcntl` raises ImportError
for name in ("O_NOFOLLOW", "O_DIRECTORY", "O_CLOEXEC", "O_NONBLOCK", "O_PATH"):
    if hasattr(os, name):
        delattr(os, name)
for name in ("SIGHUP", "pthread_sigmask", "sigpending", "sigtimedwait"):
    for module in (signal, _signal):  # `signal` and the C module behind it
        if hasattr(module, name):
            delattr(module, name)
os.supports_dir_fd = set()
"""
REFUSAL = (
    "Applying to a folder is not supported on this system: it lacks fcntl, os.O_NOFOLLOW, "
    "os.O_DIRECTORY, dir_fd, signal.pthread_sigmask, on which the all-or-nothing commit rests "
    "(docs/safety.md). Use Linux or macOS (on Windows: WSL), or apply_to_mapping() in memory.\n"
)
ADD = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"


def _without_posix(code: str, *args: str, cwd: Path) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_POSIX + code, *args], cwd=cwd, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


def test_without_posix_calls_every_module_imports(tmp_path: Path) -> None:
    code = (
        "import importlib, pkgutil, apply_patch\n"
        "names = [m.name for m in pkgutil.walk_packages(apply_patch.__path__, 'apply_patch.')]\n"
        "for name in names:\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "print(len(names))\n"
    )
    result = _without_posix(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 50


@pytest.mark.parametrize("args", [[], ["--dry-run"], ["--json"]], ids=["apply", "dry-run", "json"])
def test_without_posix_calls_applying_refuses_in_one_line(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("b\n")
    before = snapshot(tmp_path)
    run = "from apply_patch.cli._main import run\nraise SystemExit(run())\n"
    result = _without_posix(run, *args, ADD, cwd=tmp_path)
    assert result.returncode == 1
    if args == ["--json"]:
        error = json.loads(result.stdout)["error"]
        assert (error["kind"], error["message"]) == ("io", REFUSAL.rstrip("\n"))
    else:
        ending = "Dry run: the patch does not apply; nothing was written.\n" if args else NOTHING_CHANGED
        assert result.stderr == REFUSAL + ending
    assert snapshot(tmp_path) == before


def test_without_posix_calls_what_needs_no_folder_works(tmp_path: Path) -> None:
    code = (
        "from apply_patch import apply_to_mapping, make_patch, extract_patches, PatchError, apply_patch\n"
        "print(apply_to_mapping(" + repr(ADD) + ", {}))\n"
        "print(str(make_patch({'a.txt': 'a\\n'}, {'a.txt': 'b\\n'})).splitlines()[1])\n"
        "print(len(extract_patches(\"apply_patch <<'EOF'\\n" + ADD.replace("\n", "\\n") + "EOF\\n\")))\n"
        "try:\n    apply_patch(" + repr(ADD) + ")\n"
        "except PatchError as error:\n    print(error.kind, str(error).count(chr(10)))\n"
    )
    result = _without_posix(code, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "{'a.txt': 'a\\n'}\n*** Update File: a.txt\n1\nio 0\n"
    assert snapshot(tmp_path) == {}


def test_license_changelog_and_metadata() -> None:
    """The license file is Apache-2.0's text; the changelog starts with what is not released
    yet; the installed package says its license, URLs, keywords and Python versions."""
    from importlib import metadata

    license_text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License\n                           Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.split("\n## ")[1].startswith("Unreleased\n")
    meta = metadata.metadata("apply-patch")
    assert meta["License-Expression"] == "Apache-2.0"
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= set(urls)
    assert "apply_patch" in (meta["Keywords"] or "").split(",")
    classifiers = meta.get_all("Classifier") or []
    assert "Operating System :: POSIX :: Linux" in classifiers and "Typing :: Typed" in classifiers
    # Every version the README says was tested is a classifier, and the other way round.
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    platforms = readme[readme.index("## Platforms") :]
    tested = platforms[: platforms.index("(`make test-all`")]
    versions = {c.rsplit(" ", 1)[1] for c in classifiers if c.startswith("Programming Language :: Python :: 3.")}
    assert set(re.findall(r"\b(3\.\d+)\.\d+\b", tested)) == versions, tested
    assert "Windows" in platforms and "refuses" in platforms


@pytest.mark.parametrize("tool", ["pipx", "uv"])
def test_the_install_commands_of_the_readme(tool: str, tmp_path: Path) -> None:
    """`pipx install .` and `uv tool install .` themselves (both in the test extra, beside this
    interpreter), each in folders of this test's own, never the user's."""
    found = shutil.which(tool, path=str(Path(sys.executable).parent)) or shutil.which(tool)
    assert found is not None, f"{tool} is in the test extra: `make test` installs it beside {sys.executable}"
    home, bin_dir = tmp_path / "home", tmp_path / "bin"
    env = {**os.environ, "PIPX_HOME": str(home), "PIPX_BIN_DIR": str(bin_dir),
           "UV_TOOL_DIR": str(home), "UV_TOOL_BIN_DIR": str(bin_dir)}  # fmt: skip
    command = [found, "install", str(REPO)] if tool == "pipx" else [found, "tool", "install", str(REPO)]
    subprocess.run(command, env=env, capture_output=True, check=True, timeout=600)
    result = subprocess.run([bin_dir / "apply_patch", "-V"], capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("apply_patch ")
