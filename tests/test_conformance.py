"""The reference's own scenario suite, run against the installed executable.

Each scenario runs with the patch as the argument and on stdin, in the default
mode and with `--codex`. Where our contract diverges on purpose, the test says
which rule and asserts our behaviour: exit 1 and the tree unchanged.
"""

import json
from pathlib import Path

import pytest

from _support import (
    FIXTURES,
    NOTHING_CHANGED,
    copy_tree,
    files_of,
    run_cli,
    snapshot,
)

SCENARIOS = FIXTURES / "codex_scenarios"  # the reference's, copied: PROVENANCE.md there

ALL_OR_NOTHING = "semantics.md §4/§5: a later hunk fails → nothing changes (both modes)"
DIVERGENT = {
    ("010_move_overwrites_existing_destination", "default"): (
        "semantics.md §5: Move to an existing file is an error by default"
    ),
    ("011_add_overwrites_existing_file", "default"): (
        "semantics.md §5: Add File on an existing path is an error by default"
    ),
    ("015_failure_after_partial_success_leaves_changes", "default"): ALL_OR_NOTHING,
    ("015_failure_after_partial_success_leaves_changes", "codex"): ALL_OR_NOTHING,
}


def _manifest() -> dict[str, dict[str, object]]:
    data = json.loads((SCENARIOS / "MANIFEST.json").read_text(encoding="utf-8"))
    scenarios: dict[str, dict[str, object]] = data["scenarios"]
    return scenarios


MANIFEST = _manifest()


def test_suite_is_complete() -> None:
    folders = sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir())
    assert folders == sorted(MANIFEST) and len(folders) == 23


@pytest.mark.parametrize("via", ["argv", "stdin"])
@pytest.mark.parametrize("mode", ["default", "codex"])
@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_scenario(name: str, mode: str, via: str, tmp_path: Path) -> None:
    case = SCENARIOS / name
    work = tmp_path / "work"
    copy_tree(case / "input", work)
    before = snapshot(work)
    patch = (case / "patch.txt").read_bytes()
    args = ["--codex"] if mode == "codex" else []
    if via == "argv":
        result = run_cli([*args, patch.decode("utf-8")], work)
    else:
        result = run_cli(args, work, stdin=patch)
    stderr = result.stderr.decode("utf-8")

    rule = DIVERGENT.get((name, mode))
    if rule is not None:
        assert (result.returncode, result.stdout) == (1, b""), rule
        assert snapshot(work) == before, rule
        assert stderr.endswith(NOTHING_CHANGED), rule
        return

    expected = snapshot(case / "expected") if (case / "expected").is_dir() else {}
    assert files_of(snapshot(work)) == files_of(expected)
    reference = MANIFEST[name]["reference"]
    assert isinstance(reference, dict)
    assert result.returncode == reference["exit_status"]
    assert result.stdout.decode("utf-8") == reference["stdout"]
    if result.returncode == 0:
        assert stderr == ""
    else:
        # The reference's message comes first; ours may add the reason, and
        # always ends by saying that nothing changed.
        # Our messages name files relative to the root, but with --codex (absolute).
        cwd = f"{work}/" if mode == "codex" else ""
        assert stderr.startswith(str(reference["stderr"]).replace("<cwd>/", cwd).rstrip("\n"))
        assert stderr.endswith(NOTHING_CHANGED)
        assert snapshot(work) == before
