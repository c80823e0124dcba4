"""`--color {auto,always,never}`, NO_COLOR and FORCE_COLOR: the summary and `--diff` in
colour on a terminal (from the outside: the executable on a pseudo-terminal or a pipe)."""

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from _support import PROPERTY, executable, snapshot

PATCH = (
    "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n--- x\n+2\n"
    "*** Add File: b.txt\n+b\n*** End Patch\n"
)
PLAIN = (
    "Dry run, nothing was written. The patch applies and would update:\nA b.txt\nM a.txt\n"
)
# What a terminal gets: git's colours; `--- x`, a removed line inside the hunk, is red, not a header.
COLOURED = (
    "\x1b[1mDry run, nothing was written. The patch applies and would update:\x1b[m\n"
    "\x1b[32mA b.txt\x1b[m\n\x1b[33mM a.txt\x1b[m\n"
)
COLOURED_DIFF = (
    "\x1b[1m--- a/a.txt\x1b[m\n\x1b[1m+++ b/a.txt\x1b[m\n\x1b[36m@@ -1,3 +1,2 @@\x1b[m\n one\n"
    "\x1b[31m-two\x1b[m\n\x1b[31m--- x\x1b[m\n\x1b[32m+2\x1b[m\n"
    "\x1b[1m--- /dev/null\x1b[m\n\x1b[1m+++ b/b.txt\x1b[m\n\x1b[36m@@ -0,0 +1 @@\x1b[m\n\x1b[32m+b\x1b[m\n"
)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("one\ntwo\n-- x\n")
    return tmp_path


def _environment(**variables: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    return {**env, "TERM": "xterm", **variables}


def _on_terminal(args: list[str], cwd: Path, **variables: str) -> tuple[int, str]:
    """The exit code and what the executable wrote on a pseudo-terminal as its stdout."""
    master, slave = pty.openpty()
    chunks = []
    try:
        with subprocess.Popen(
            [executable(), *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=slave,
            stderr=subprocess.PIPE, env=_environment(**variables),
        ) as process:  # fmt: skip
            os.close(slave)
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            code = process.wait(timeout=60)
            assert process.stderr is not None and process.stderr.read() == b""
    finally:
        os.close(master)
    return code, b"".join(chunks).decode().replace("\r\n", "\n")


def _into_pipe(args: list[str], cwd: Path, **variables: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [executable(), *args], cwd=cwd, capture_output=True, text=True, env=_environment(**variables),
        timeout=60,
    )  # fmt: skip


def test_a_terminal_gets_colours_by_default(tree: Path) -> None:
    assert _on_terminal(["--dry-run", PATCH], tree) == (0, COLOURED)
    assert _on_terminal(["--dry-run", "--diff", PATCH], tree) == (0, COLOURED + COLOURED_DIFF)


@pytest.mark.parametrize(
    ("args", "variables"),
    [
        ([], {"NO_COLOR": "1"}),
        ([], {"NO_COLOR": "1", "FORCE_COLOR": "1"}),
        ([], {"TERM": "dumb"}),
        (["--color", "never"], {}),
        (["--color", "never"], {"FORCE_COLOR": "1"}),
    ],
    ids=["NO_COLOR", "NO_COLOR-beats-FORCE_COLOR", "dumb-terminal", "never", "never-beats-FORCE_COLOR"],
)
def test_a_terminal_without_colours(args: list[str], variables: dict[str, str], tree: Path) -> None:
    assert _on_terminal([*args, "--dry-run", PATCH], tree, **variables) == (0, PLAIN)


@pytest.mark.parametrize(
    ("args", "variables", "coloured"),
    [
        ([], {}, False),
        ([], {"FORCE_COLOR": "1"}, True),
        (["--color", "always"], {}, True),
        (["--color", "always"], {"NO_COLOR": "1"}, True),
        (["--color", "auto"], {}, False),
    ],
    ids=["not-a-terminal", "FORCE_COLOR", "always", "always-beats-NO_COLOR", "auto"],
)
def test_a_pipe(args: list[str], variables: dict[str, str], coloured: bool, tree: Path) -> None:
    result = _into_pipe([*args, "--dry-run", "--diff", PATCH], tree, **variables)
    assert result.returncode == 0
    assert result.stdout == (COLOURED + COLOURED_DIFF if coloured else PLAIN + _plain(COLOURED_DIFF))


def _plain(text: str) -> str:
    for code in ("\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m", "\x1b[m"):
        text = text.replace(code, "")
    return text


def test_json_is_never_coloured(tree: Path) -> None:
    for args, variables in ((["--color", "always"], {}), ([], {"FORCE_COLOR": "1"})):
        result = _into_pipe([*args, "--json", "--dry-run", "--diff", PATCH], tree, **variables)
        assert "\x1b" not in result.stdout
        assert json.loads(result.stdout)["diff"] == _plain(COLOURED_DIFF)
    code, printed = _on_terminal(["--json", "--diff", "--dry-run", PATCH], tree)
    assert code == 0 and "\x1b" not in printed


def test_errors_stay_plain_and_change_nothing(tree: Path) -> None:
    before = snapshot(tree)
    result = _into_pipe(["--color", "always", PATCH.replace("-two", "-three")], tree)
    assert result.returncode == 1 and "\x1b" not in result.stderr + result.stdout
    assert snapshot(tree) == before


def test_a_bad_choice_is_a_usage_error(tree: Path) -> None:
    before = snapshot(tree)
    result = _into_pipe(["--color", "sometimes", PATCH], tree)
    assert result.returncode == 2 and "invalid choice: 'sometimes'" in result.stderr
    assert snapshot(tree) == before


def test_applying_on_a_terminal_applies(tree: Path) -> None:
    code, printed = _on_terminal([PATCH], tree)
    assert code == 0 and printed.startswith("\x1b[1mSuccess. Updated the following files:\x1b[m\n")
    assert (tree / "a.txt").read_text() == "one\n2\n" and (tree / "b.txt").read_text() == "b\n"


@PROPERTY
@given(st.text(alphabet=st.characters(blacklist_characters="\x1b")))
def test_colouring_only_adds_codes(text: str) -> None:
    """Whatever the text, taking the codes out gives it back: colour never changes a byte."""
    from apply_patch.cli import _color

    assert _plain(_color.diff(text)) == text
    assert _plain(_color.summary(text)) == text
