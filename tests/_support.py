"""Helpers shared by the tests: run the installed executable, snapshot a tree."""

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from mcp.client.stdio import StdioServerParameters

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
NOTHING_CHANGED = "The patch was not applied; no file was changed.\n"
# Every policy option of the executable, written out (not derived from the policy's
# CHOICES, which the help is generated from: a test of the help must be able to fail).
POLICY_OPTIONS = (
    "--add-existing {error,overwrite}",
    "--move-existing {error,overwrite}",
    "--move-same-path {update,error}",
    "--final-newline {keep,add}",
    "--pure-addition {after-context,end}",
    "--outside-root {error,allow}",
    "--line-endings {keep,lf,crlf}",
    "--bom {keep,strip}",
    "--move-mode {keep,default}",
    "--binary {error,allow}",
    "--non-utf8 {ascii,error,preserve}",
    "--symlinks {follow,error}",
    "--ambiguous {error,first}",
    "--indentation {match,verbatim}",
    "--slips {undo,refuse}",
    "--message-paths {relative,absolute}",
    "--read-only {error,allow}",
    "--vcs-dir {error,allow}",
    "--conventions {read,ignore}",
    "--check-syntax {warn,refuse,off}",
    "--journal {on,off,required}",
    "--encoding NAME",
)


def executable() -> str:
    """The `apply_patch` console script installed beside the running interpreter."""
    path = Path(sys.executable).parent / "apply_patch"
    assert path.is_file(), f"apply_patch is not installed in {path.parent}: run `make test`"
    return str(path)


# The suite's state folder (conftest.py) as the environment names it: passed on to servers.
STATE_VARIABLES = ("XDG_STATE_HOME", "APPLY_PATCH_STATE_DIR")


def mcp_server(args: list[str], command: str | None = None, home: Path | None = None) -> "StdioServerParameters":
    """The MCP SDK's parameters that start `command` (the installed `apply_patch`) with
    `args`, in the suite's state folder. The SDK gives a server only a few variables of the
    environment (HOME, PATH...): without these, the receipts of its commits would go to
    the real home's state folder. `home`: the HOME it gets (a test's own)."""
    from mcp.client.stdio import StdioServerParameters  # (the tests without a server do without mcp)

    env = {name: os.environ[name] for name in STATE_VARIABLES if name in os.environ}
    if home is not None:
        env["HOME"] = str(home)
    return StdioServerParameters(command=command or executable(), args=args, env=env)


def run_cli(
    args: list[str], cwd: Path, stdin: bytes | None = None
) -> "subprocess.CompletedProcess[bytes]":
    """Run the installed executable in `cwd`; stdin is empty unless given."""
    return subprocess.run(
        [executable(), *args], cwd=cwd, input=stdin or b"", capture_output=True, timeout=120
    )


@dataclass(frozen=True)
class Entry:
    """One entry of a tree: a file (bytes, mode), a symlink (target) or a folder (mode)."""

    kind: str
    data: bytes = b""
    mode: int = 0


def snapshot(root: Path) -> dict[str, Entry]:
    """Every file, symlink and folder under `root`, with bytes and permission bits."""
    result: dict[str, Entry] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            key = path.relative_to(root).as_posix()
            if stat.S_ISLNK(info.st_mode):
                result[key] = Entry("link", os.fsencode(os.readlink(path)))
            elif stat.S_ISDIR(info.st_mode):
                result[key] = Entry("dir", mode=stat.S_IMODE(info.st_mode))
            else:
                result[key] = Entry("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
    return result


def files_of(tree: dict[str, Entry]) -> dict[str, bytes]:
    """Only the regular files and their bytes (the upstream scenario comparison)."""
    return {key: entry.data for key, entry in tree.items() if entry.kind == "file"}


def copy_tree(source: Path, target: Path) -> None:
    """Copy `source` into `target` (created if needed), keeping symlinks as symlinks."""
    target.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    # Shared fixtures may be kept read-only; the copies are ordinary, writable files
    # (a read-only file is refused by default: tests that want one make it so).
    for folder, dirs, files in os.walk(target):
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            if not stat.S_ISLNK(info.st_mode) and not info.st_mode & stat.S_IWUSR:
                path.chmod(stat.S_IMODE(info.st_mode) | stat.S_IWUSR)


# The property tests' settings: reproducible (derandomized, no example database), no deadline.
PROPERTY = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def benchmark_script(name: str) -> ModuleType:
    """The script `benchmarks/<name>.py` loaded as the module `name` (a script beside the
    others, not a package; registered first: its dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# A small Python file the oracle's tests (`test_robustness`, `test_ambiguity`) edit.
SMALL_PY = (
    "import os",
    "",
    "",
    "def area(width, height):",
    '    """The area of a rectangle."""',
    "    if width < 0:",
    "        raise ValueError('negative width')",
    "",
    "    return width * height",
    "",
    "",
    "def main():",
    '    print("hi")',
)
