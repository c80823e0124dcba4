"""Options where a person puts them: before the subcommand, as git takes them
(`apply_patch -C DIR history` is `apply_patch history -C DIR`)."""

from pathlib import Path

import pytest

from _support import run_cli, snapshot

PATCH = b"*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch\n"


@pytest.mark.parametrize("before", [["-C", "{root}"], ["--root", "{root}"], ["--root={root}"]])
def test_options_before_history_show_and_undo(before: list[str], tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    assert run_cli(["-C", str(root)], tmp_path, stdin=PATCH).returncode == 0
    first = [word.format(root=root) for word in before]
    history = run_cli([*first, "history"], tmp_path)
    assert history.returncode == 0, history.stderr
    assert history.stdout == run_cli(["history", "-C", str(root)], tmp_path).stdout
    assert b"a.txt" in history.stdout
    undone = run_cli([*first, "undo"], tmp_path)
    assert undone.returncode == 0, undone.stderr
    assert snapshot(root) == {}


def test_a_patch_after_options_is_still_a_patch(tmp_path: Path) -> None:
    """Only a subcommand's name is moved: a patch argument after options is the patch, and a
    word that is no subcommand is read as one (here: refused, nothing written)."""
    assert run_cli(["--dry-run", PATCH.decode()], tmp_path).returncode == 0
    result = run_cli(["-C", str(tmp_path), "histroy"], tmp_path)
    assert result.returncode == 1 and b"Invalid patch" in result.stderr
    assert snapshot(tmp_path) == {}
