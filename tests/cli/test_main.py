"""The executable's contract: arguments, stdin, exit codes and exact messages."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, POLICY_OPTIONS, executable, run_cli, snapshot

USAGE = "Usage: apply_patch 'PATCH'\n       echo 'PATCH' | apply_patch\n"
# Empty stdin and no argument: the reference prints its usage alone; we say what is missing first.
NO_PATCH = (
    "Error: no patch: there is no PATCH argument, and stdin is empty.\n" + USAGE
    + "Run 'apply_patch --help' for the options, examples and exit codes.\n"
)
SUCCESS = "Success. Updated the following files:\n"
ADD_A = "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch\n"


def test_patch_as_argument(tmp_path: Path) -> None:
    result = run_cli([ADD_A], tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{SUCCESS}A a.txt\n".encode(), b"")
    assert (tmp_path / "a.txt").read_bytes() == b"hello\n"


def test_patch_on_stdin(tmp_path: Path) -> None:
    result = run_cli([], tmp_path, stdin=ADD_A.encode())
    assert (result.returncode, result.stdout) == (0, f"{SUCCESS}A a.txt\n".encode())


def test_python_dash_m_is_the_same_program(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "apply_patch", ADD_A], cwd=tmp_path, capture_output=True
    )
    assert (result.returncode, result.stdout) == (0, f"{SUCCESS}A a.txt\n".encode())


@pytest.mark.parametrize(
    ("args", "stdin", "code", "stderr"),
    [
        ([], b"", 2, NO_PATCH),
        (["one", "two"], b"", 2, "Error: apply_patch accepts exactly one argument.\n"),
        (
            [ADD_A, "--codex"],
            b"",
            2,
            "Error: apply_patch accepts exactly one argument.\n"
            "Options go before the patch: apply_patch --codex 'PATCH'.\n",
        ),
        (
            [""],
            b"",
            1,
            "Invalid patch: The last line of the patch must be '*** End Patch'\n"
            "The patch text is empty.\n" + NOTHING_CHANGED,
        ),
        (
            [],
            b"  \n\t\n",
            1,
            "Invalid patch: The last line of the patch must be '*** End Patch'\n"
            "The patch text is empty.\n" + NOTHING_CHANGED,
        ),
        (
            [],
            b"\xff\xfe",
            1,
            "Error: Failed to read PATCH from stdin.\nstream did not contain valid UTF-8\n",
        ),
        ([], b"*** Begin Patch\n*** End Patch\n", 1, "No files were modified.\n" + NOTHING_CHANGED),
    ],
    ids=["empty-stdin", "two-arguments", "option-after-patch", "empty-argument", "blank-stdin",
         "stdin-not-utf8", "zero-hunks"],
)
def test_usage_and_input_errors(
    args: list[str], stdin: bytes, code: int, stderr: str, tmp_path: Path
) -> None:
    result = run_cli(args, tmp_path, stdin=stdin)
    assert (result.returncode, result.stdout, result.stderr.decode()) == (code, b"", stderr)
    assert snapshot(tmp_path) == {}


def test_argument_that_is_not_utf8(tmp_path: Path) -> None:
    result = subprocess.run([executable(), b"\xff*** Begin Patch"], cwd=tmp_path, capture_output=True)
    assert (result.returncode, result.stderr) == (
        1,
        b"Error: apply_patch requires a UTF-8 PATCH argument.\n",
    )


def test_root_option_and_its_alias(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for flag in ("--root", "-C"):
        result = run_cli([flag, "sub", ADD_A.replace("a.txt", f"{flag}.txt")], tmp_path)
        assert result.returncode == 0, result.stderr
        assert (tmp_path / "sub" / f"{flag}.txt").read_bytes() == b"hello\n"


def test_missing_root_folder(tmp_path: Path) -> None:
    result = run_cli(["-C", "nowhere", ADD_A], tmp_path)
    assert result.returncode == 1
    assert result.stderr.decode() == (
        f"The root folder {tmp_path}/nowhere does not exist\n" + NOTHING_CHANGED
    )
    assert snapshot(tmp_path) == {}


def test_codex_preset_and_an_option_overriding_it(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"old\n")
    refused = run_cli(["--codex", "--add-existing", "error", ADD_A], tmp_path)
    assert refused.returncode == 1 and (tmp_path / "a.txt").read_bytes() == b"old\n"
    applied = run_cli(["--codex", ADD_A], tmp_path)
    assert applied.returncode == 0 and (tmp_path / "a.txt").read_bytes() == b"hello\n"


def test_summary_groups_added_then_modified_then_deleted(tmp_path: Path) -> None:
    (tmp_path / "m.txt").write_bytes(b"x\n")
    (tmp_path / "d.txt").write_bytes(b"gone\n")
    patch = (
        "*** Begin Patch\n*** Delete File: d.txt\n*** Update File: m.txt\n-x\n+y\n"
        "*** Add File: d.txt\n+back\n*** Update File: ./m.txt\n-y\n+z\n*** End Patch\n"
    )
    result = run_cli([patch], tmp_path)
    assert result.stdout.decode() == f"{SUCCESS}A d.txt\nM m.txt\nM ./m.txt\nD d.txt\n"
    assert (tmp_path / "m.txt").read_bytes() == b"z\n"
    assert (tmp_path / "d.txt").read_bytes() == b"back\n"


def test_help_lists_every_policy_option(tmp_path: Path) -> None:
    result = run_cli(["--help"], tmp_path)
    assert result.returncode == 0
    text = result.stdout.decode()
    assert text.startswith("usage: apply_patch [OPTIONS] 'PATCH'")
    policies = text[text.index("\nfile policies (default first):\n"):]
    listed = [line.split()[0] + " " + line.split()[1] for line in policies.splitlines()
              if line.startswith("  --")]  # fmt: skip
    assert listed == list(POLICY_OPTIONS)
    for command in ("extract [FILE]", "diff OLD NEW", "convert [DIFF]", "serve"):
        assert f"apply_patch {command}" in text


def test_shell_form_and_json_on_stdin(tmp_path: Path) -> None:
    """Issue 12 items 1-2: the shell form and JSON are taken on stdin as in the argument."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("one\n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n"
    result = run_cli([], tmp_path, stdin=f"cd src && apply_patch <<'EOF'\n{patch}EOF\n".encode())
    assert result.returncode == 0, result.stderr
    assert result.stderr.decode().startswith("warning: the input was a shell command")
    assert (tmp_path / "src" / "a.txt").read_text() == "1\n"
    second = patch.replace("one", "1").replace("+1", "+2")
    result = run_cli(["-C", "src"], tmp_path, stdin=json.dumps({"patch": second}).encode())
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "src" / "a.txt").read_text() == "2\n"


def test_help_says_one_default_per_option(tmp_path: Path) -> None:
    """Issue 12 item 15: `--move-mode` once read `(default: as for a new file) (default: keep)`."""
    text = run_cli(["--help"], tmp_path).stdout.decode()
    # One entry per option: from its `--name` at the start of a line to the next one.
    entries = re.split(r"\n  (?=-)", text.split("file policies (default first):")[1])
    assert len(entries) > len(POLICY_OPTIONS)
    for entry in entries:
        words = " ".join(entry.split())
        assert words.count("default:") <= 1, words
    for option in POLICY_OPTIONS:
        entry = next(e for e in entries if e.startswith(option.split()[0] + " "))
        assert " ".join(entry.split()).count("(default: ") == 1, entry


@pytest.mark.parametrize(
    "args", [["--bogus", ADD_A], ["--final-newline", "maybe", ADD_A]], ids=["unknown", "bad-value"]
)
def test_bad_options_are_usage_errors(args: list[str], tmp_path: Path) -> None:
    result = run_cli(args, tmp_path)
    assert result.returncode == 2 and result.stdout == b""
    assert b"usage: apply_patch" in result.stderr
    assert snapshot(tmp_path) == {}


def test_version(tmp_path: Path) -> None:
    result = run_cli(["--version"], tmp_path)
    assert result.returncode == 0 and result.stdout.startswith(b"apply_patch ")
