"""Start-up: the one timing guard of the suite, and what the executable leaves unimported.

The goal (issue 35): a tiny patch through the executable within 10x `python -c pass`
of the same interpreter, `--version` within 2.5x. The figure compared is the median,
over several rounds, of each round's ratio: the CPU time (user and system) the command
took over that of `python -c pass`, run just before and just after the round's commands
(the mean of the two). Waiting for a core is not counted; a slow spell weighs on the
commands of a round and on the runs of `python -c pass` around them alike; a round that
was slow for one of them only moves the median by one rank. (The least time of each over
the rounds, as this guard first took, is two outliers divided by each other: on a
2-core virtual machine the same code measured 7.5x to 12.2x from one run to the next.)
The tight figures, in instructions, are `make bench`'s.
"""

import resource
import statistics
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from _support import executable, run_cli
from apply_patch import _policy

PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n"
ROUNDS = 25


def _cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _ratios(commands: dict[str, tuple[list[str], str]], cwd: Path) -> dict[str, list[float]]:
    """For each command, its CPU time over the mean of those of `python -c pass` run just
    before and just after the commands of the same round, in each of ROUNDS rounds."""
    bare = [sys.executable, "-c", "pass"]
    ratios: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(ROUNDS):
        took = {}
        for name, (argv, stdin) in {"before": (bare, ""), **commands, "after": (bare, "")}.items():
            if name in commands:  # each command finds the file as it was (`python -c pass` leaves it)
                (cwd / "a.txt").write_text("one\ntwo\n")
            start = _cpu_seconds()
            result = subprocess.run(argv, input=stdin, cwd=cwd, capture_output=True, text=True, timeout=60)
            took[name] = _cpu_seconds() - start
            assert result.returncode == 0, (name, result.stderr)
        for name, values in ratios.items():
            values.append(round(took[name] / ((took["before"] + took["after"]) / 2), 2))
    return ratios


def test_a_tiny_patch_and_the_version_start_within_their_budgets(tmp_path: Path) -> None:
    ratios = _ratios({
        "--version": ([executable(), "--version"], ""),
        "tiny patch": ([executable()], PATCH),  # last: the file shows what it did
    }, tmp_path)  # fmt: skip
    assert (tmp_path / "a.txt").read_text() == "one\n2\n"
    medians = {name: statistics.median(values) for name, values in ratios.items()}
    assert medians["tiny patch"] <= 10 and medians["--version"] <= 2.5, (medians, ratios)


def _loaded_by_executable(args: list[str], text: str, cwd: Path) -> tuple[int, set[str]]:
    """The exit code, and every module the executable imports (from -X importtime)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", executable(), *args], input=text, cwd=cwd,
        capture_output=True, text=True,
    )  # fmt: skip
    return result.returncode, {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if "|" in line}


def _loaded_applying(text: str, cwd: Path) -> set[str]:
    """The modules the executable loads for patch `text` (it may fail)."""
    return _loaded_by_executable([], text, cwd)[1]


def test_the_version_is_said_without_lark_or_the_engine(tmp_path: Path) -> None:
    """`--version` prints the installed distribution's version; Lark is imported only to parse."""
    from importlib import metadata

    code, loaded = _loaded_by_executable(["--version"], "", tmp_path)
    assert code == 0 and not {"lark", "importlib.metadata", "apply_patch.apply._pipeline"} & loaded
    printed = run_cli(["--version"], tmp_path).stdout.decode()
    assert printed == f"apply_patch {metadata.version('apply-patch')}\n"


SEARCH_REPLACE_REPLY = "a.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n"
UNIFIED_DIFF = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"


@pytest.mark.parametrize(
    ("fmt", "text"),
    [("auto", SEARCH_REPLACE_REPLY), ("search-replace", SEARCH_REPLACE_REPLY), ("auto", UNIFIED_DIFF), ("unified-diff", UNIFIED_DIFF)],
)
def test_the_other_formats_are_read_without_lark(tmp_path: Path, fmt: str, text: str) -> None:
    """Lark reads the Codex envelope (and the native operations' V4A diffs) only: a
    SEARCH/REPLACE reply or a unified diff, named or detected, is applied without it."""
    options = ["--format", fmt]
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    code, loaded = _loaded_by_executable(options, text, tmp_path)
    assert (code, (tmp_path / "a.py").read_text()) == (0, "def f():\n    return 2\n")
    assert "lark" not in loaded


def test_tree_sitter_only_for_text_that_starts_like_a_shell_command(tmp_path: Path) -> None:
    """The shell form is recognised with tree-sitter: only text that starts like one pays for it."""
    (tmp_path / "a.txt").write_text("one\n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n"
    for text in (f"Here is the patch:\n{patch}", '"*** Begin Patch\\n"', patch.replace("one", "two")):
        assert "tree_sitter" not in _loaded_applying(text, tmp_path), text
    assert "tree_sitter" in _loaded_applying(f"apply_patch <<'EOF'\n{patch}EOF\n", tmp_path)
    assert (tmp_path / "a.txt").read_text() == "1\n"


def test_policy_choices_are_those_of_the_annotations() -> None:
    hints = typing.get_type_hints(_policy.Policy, localns={"Literal": typing.Literal})
    assert _policy.CHOICES == {name: typing.get_args(hints[name]) for name in _policy.CHOICES}


# What a one-file Add through the executable never uses, so never imports (issue 35: the
# start-up budget buys the standard library and Lark, not modules of other paths).
UNUSED_BY_AN_ADD = (
    "apply_patch.apply.records._receipt_check",  # receipts read back; a commit only writes one
    "apply_patch.apply.matching._placement",  # where an edit landed in a file's text
    "apply_patch.apply.records._recovery",  # a crash journal read back: none is there
)


def test_a_tiny_add_leaves_unimported_what_it_does_not_use(tmp_path: Path) -> None:
    loaded = _loaded_applying("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n", tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"hi\n"
    assert "apply_patch.apply.records._receipts" in loaded  # the receipt was written: its module ran
    assert not set(UNUSED_BY_AN_ADD) & loaded


def test_a_crash_journal_is_read_back_where_there_is_one(tmp_path: Path) -> None:
    """The reading back of a journal (`_recovery`) is imported only when something is at a
    journal's name: here one killed while its header was written, removed before the Add."""
    journal = tmp_path / ".apply_patch.journal"
    journal.write_bytes(b"apply_patch journal 2\n")
    journal.chmod(0o600)
    loaded = _loaded_applying("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n", tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"hi\n" and not journal.exists()
    assert "apply_patch.apply.records._recovery" in loaded


def test_a_tiny_plain_update_leaves_the_general_search_and_the_indentation_unit_unimported(
    tmp_path: Path,
) -> None:
    # A chunk found exactly, holding a line the file has once, is placed by the plain
    # strategy (`_plain`) without the general search's index, tiers and doubts; `_indent`
    # reads the unit of added lines that are indented, and a line with none has no unit.
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    loaded = _loaded_applying(PATCH, tmp_path)
    assert (tmp_path / "a.txt").read_text() == "one\n2\n"
    assert "apply_patch.apply.matching._plain" in loaded  # the chunk was placed: its module ran
    general = {"apply_patch.apply.matching._locate", "apply_patch.apply.matching._seek", "apply_patch.apply.matching._doubts"}
    assert not (general | {"apply_patch.apply.matching._indent"}) & loaded


# The console script's entry in a fresh interpreter, `_main.run` replaced by a probe of the
# collector as the run finds it: on or off (as the process had it), and what was frozen.
_COLLECTOR_PROBE = """
import gc, sys
{before}
from apply_patch.cli import _entry, _main
_main.run = lambda: print(gc.isenabled(), gc.get_freeze_count() > 0) or 0
sys.argv = ["apply_patch"]
sys.exit(_entry.run())
"""


@pytest.mark.parametrize("before", ["", "gc.disable()"])
def test_the_engine_is_imported_without_collections_then_frozen(tmp_path: Path, before: str) -> None:
    """What the executable imports lives as long as the process: imported with the collector
    off and frozen, so that no collection of the run walks it; then the collector is as the
    process had it."""
    result = subprocess.run([sys.executable, "-c", _COLLECTOR_PROBE.format(before=before)],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("False True\n" if before else "True True\n")
