"""What applying a patch imports: nothing heavy (start-up time), no lark, no tree-sitter.

Not a timing test: it lists the modules a fresh interpreter has loaded. lark and
tree-sitter are design rules (the parser runs prebuilt tables; extraction alone
needs tree-sitter); the others cost the executable most of its start-up budget
(DEVELOPERS.md, "Start-up time").
"""

import subprocess
import sys
import typing
from pathlib import Path

import pytest

from _support import executable, run_cli
from apply_patch import _policy

HEAVY = {
    "lark": "the parser runs prebuilt tables (_tables.py) with _lalr",
    "tree_sitter": "only extraction needs it",
    "tree_sitter_bash": "only extraction needs it",
    "typing": "import it under TYPE_CHECKING (annotations are not evaluated)",
    "argparse": "built only when options are given",
    "importlib.metadata": "never: the version is written in apply_patch/_version.py",
    "secrets": "os.urandom does",
    "json": "import it where it is used",
    "pathlib": "os.path does",
    "shutil": "argparse imports it to format help: building the parser must not (_options.new_parser)",
    "apply_patch.cli._formats": "the other formats, for --format only",
    "apply_patch.cli._color": "only to paint (a terminal, --color always): _output says whether",
    "hashlib": "OpenSSL's: receipts and views hash small contents with apply/_digest's built-in SHA-256",
    "apply_patch.apply._syntax": "the syntax check, only for a file of a language it knows",
    "apply_patch.apply._grammars": "the syntax check's grammars, only for a file of a language it knows",
}


def _loaded_by(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(*sorted(sys.modules))"],
        capture_output=True, text=True, check=True,
    )
    return set(result.stdout.split())


def test_importing_the_package_loads_nothing_heavy() -> None:
    loaded = _loaded_by("import apply_patch, apply_patch.cli._main")
    assert {name: why for name, why in HEAVY.items() if name in loaded} == {}


# Loaded only when a patch fails: the explanations of a failure and what they need.
FAILURE_ONLY = {
    "apply_patch.apply._diagnose": "explains a chunk that failed",
    "apply_patch.apply._closest": "finds the closest region for _diagnose",
    "apply_patch.format._syntax_hints": "explains a syntax error",
    "apply_patch.cli._advice": "says what to do next on the command line",
    "difflib": "finds the option or command meant (and diffs, when asked)",
}
PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n"
BAD_CHUNK = "*** Begin Patch\n*** Update File: a.txt\n@@\n-three\n+3\n*** End Patch\n"

# Each way of running the executable, and what it may load of HEAVY: argparse for any
# option, json for --json; never lark, tree-sitter, typing, dataclasses or metadata.
PATHS = {
    "no option": ([], set()),
    "-C DIR": (["-C", "."], {"argparse"}),
    "--json": (["--json"], {"argparse", "json"}),
    "a policy option": (["--add-existing", "overwrite"], {"argparse"}),
    "--codex": (["--codex"], {"argparse"}),
}


def _imported_by_executable(args: list[str], patch: str, root: Path) -> tuple[int, set[str]]:
    """The exit code, and every module the executable imports (from -X importtime)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", executable(), *args], input=patch, cwd=root,
        capture_output=True, text=True,
    )  # fmt: skip
    loaded = {
        line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if "|" in line
    }
    return result.returncode, loaded


@pytest.mark.parametrize("args, allowed", PATHS.values(), ids=PATHS.keys())
def test_applying_a_patch_loads_nothing_heavy(args: list[str], allowed: set[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    code, loaded = _imported_by_executable(args, PATCH, tmp_path)
    assert code == 0 and (tmp_path / "a.txt").read_text() == "one\n2\n"
    assert loaded >= {"apply_patch.cli._main", "apply_patch.apply._commit"}  # it did see the imports
    heavy = {name: why for name, why in HEAVY.items() if name in loaded and name not in allowed}
    assert heavy == {}
    assert {name: why for name, why in FAILURE_ONLY.items() if name in loaded} == {}


def test_failure_only_modules_are_loaded_on_failure(tmp_path: Path) -> None:
    """The other side of the test above: a failing chunk does load them."""
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    code, loaded = _imported_by_executable([], BAD_CHUNK, tmp_path)
    assert code == 1 and (tmp_path / "a.txt").read_text() == "one\ntwo\n"
    assert {"apply_patch.apply._diagnose", "apply_patch.apply._closest"} <= loaded
    code, loaded = _imported_by_executable([], "*** Begin Patch\nno\n*** End Patch\n", tmp_path)
    assert code == 1 and "apply_patch.format._syntax_hints" in loaded


# Applying a unified diff (`--format unified-diff` alone, so no parser of options) loads none
# of these: the other formats' readers, the repair hook's types, the locator of a chunk
# that is not where its numbers say.
NOT_FOR_A_UNIFIED_DIFF = {
    "argparse": "--format alone is read without it (_options.format_only)",
    "apply_patch.format._parse": "the Codex patch parser",
    "apply_patch.format._lalr": "the Codex patch parser's tables",
    "apply_patch.format._search_replace": "SEARCH/REPLACE blocks",
    "apply_patch.apply._repair": "the repair hook",
    "apply_patch.apply._locate": "the locator: every hunk is where its numbers say (_numbered)",
    "apply_patch.apply._seek": "the locator's search",
}


def test_a_unified_diff_loads_no_other_format(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
    code, loaded = _imported_by_executable(["--format", "unified-diff"], diff, tmp_path)
    assert code == 0 and (tmp_path / "a.txt").read_text() == "one\n2\nthree\n"
    assert "apply_patch.format._unidiff" in loaded  # it did see the imports
    assert {name: why for name, why in {**HEAVY, **NOT_FOR_A_UNIFIED_DIFF}.items() if name in loaded
            and name != "apply_patch.cli._formats"} == {}  # fmt: skip


def test_version_is_known_without_the_metadata(tmp_path: Path) -> None:
    """`--version` prints the installed distribution's version, without `importlib.metadata`."""
    from importlib import metadata

    code, loaded = _imported_by_executable(["--version"], "", tmp_path)
    assert code == 0 and "importlib.metadata" not in loaded
    # Nor the engine or a parser of options: saying the version costs less than applying.
    assert not {"argparse", "apply_patch.apply._pipeline", "apply_patch.format._lalr"} & loaded
    printed = run_cli(["--version"], tmp_path).stdout.decode()
    assert printed == f"apply_patch {metadata.version('apply-patch')}\n"


def _loaded_applying(text: str, cwd: Path) -> set[str]:
    """The modules the executable loads for patch `text` (it may fail)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", executable()], input=text, cwd=cwd,
        capture_output=True, text=True,
    )
    return {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if "|" in line}


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


def test_options_without_argparse_are_what_argparse_gives() -> None:
    """With no option, the executable does not build its argparse parser (start-up time)."""
    from apply_patch.cli import _main, _options

    for args in ([], ["*** Begin Patch ..."]):
        parsed = vars(_main._argument_parser().parse_args(args))
        unparsed = _options.Defaults(_main._argument_parser, args)
        assert _options.format_only(args) is None
        assert {name: getattr(unparsed, name) for name in parsed} == parsed
        missing = set(parsed) - set(vars(unparsed))
        assert not missing, f"add the defaults of {sorted(missing)} to _options.Defaults.KNOWN"

        class Forgetful(_options.Defaults):  # an option added without its default in KNOWN
            KNOWN = {}  # type: ignore[misc]

        forgetful = Forgetful(_main._argument_parser, args)
        assert {name: getattr(forgetful, name) for name in parsed} == parsed  # argparse says


def test_format_alone_is_read_as_argparse_reads_it() -> None:
    """`--format F` alone (and the patch) builds no parser either; anything else does."""
    from apply_patch.cli import _main, _options

    for chosen in _options.FORMATS:
        for args in (["--format", chosen], [f"--format={chosen}"], ["--format", chosen, "PATCH"], ["--format", chosen, ""]):
            parsed = vars(_main._argument_parser().parse_args(args))
            found = _options.format_only(args)
            assert found is not None, args
            unparsed = _options.Defaults(_main._argument_parser, found[1], found[0])
            assert {name: getattr(unparsed, name) for name in parsed} == parsed, args
    for args in (["--format"], ["--format", "svn"], ["--format=svn"], ["--form", "auto"], ["--format", "auto", "-C", "x"],
                 ["--format", "auto", "--", "p"], ["--format", "auto", "p", "q"], ["-C", "x", "--format", "auto"],
                 ["--format", "auto", "--- a/f"]):  # fmt: skip
        assert _options.format_only(args) is None, args


def test_the_executable_ends_without_the_collectors_last_pass(tmp_path: Path) -> None:
    """`run`, the executable's entry point, freezes what the run made (`gc.freeze`) before
    the interpreter ends: its last collection skips objects that die with the process
    anyway (a tenth of the executable's time). `main`, which library callers and tests
    run in a process that goes on, leaves the collector as it was."""
    from importlib.metadata import entry_points

    (script,) = entry_points(group="console_scripts", name="apply_patch")
    assert script.value == "apply_patch.cli._main:run"
    # Counted from what the interpreter itself starts with frozen (CPython 3.12: a few hundred).
    code = (
        "import gc, sys\nfrom apply_patch.cli._main import main, run\n"
        "before = gc.get_freeze_count()\n"
        "print('main:', main(sys.argv[1:]), gc.get_freeze_count() - before)\n"
        "print('run:', run(sys.argv[1:]), gc.get_freeze_count() - before > 1000)\n"
    )
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    result = subprocess.run(
        [sys.executable, "-c", code, "--dry-run", PATCH], cwd=tmp_path, capture_output=True, text=True
    )
    said = [line for line in result.stdout.splitlines() if line.startswith(("main:", "run:"))]
    assert said == ["main: 0 0", "run: 0 True"], result.stdout + result.stderr
