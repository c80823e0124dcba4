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

from _support import executable
from apply_patch.apply import _policy

HEAVY = {
    "lark": "the parser runs prebuilt tables (_tables.py) with _lalr",
    "tree_sitter": "only extraction needs it",
    "tree_sitter_bash": "only extraction needs it",
    "typing": "import it under TYPE_CHECKING (annotations are not evaluated)",
    "dataclasses": "use apply_patch._dataclass",
    "inspect": "imported by dataclasses",
    "argparse": "built only when options are given",
    "importlib.metadata": "imported by --version only",
    "secrets": "os.urandom does",
    "json": "import it where it is used",
    "pathlib": "os.path does",
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


def test_applying_a_patch_loads_nothing_heavy(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\n")
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", executable()], input=patch, cwd=tmp_path,
        capture_output=True, text=True, check=True,
    )
    assert (tmp_path / "a.txt").read_text() == "one\n2\n"
    loaded = {
        line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if "|" in line
    }
    assert {name: why for name, why in HEAVY.items() if name in loaded} == {}


def test_policy_choices_are_those_of_the_annotations() -> None:
    hints = typing.get_type_hints(_policy.Policy, localns={"Literal": typing.Literal})
    assert _policy.CHOICES == {name: typing.get_args(hints[name]) for name in _policy.CHOICES}


def test_options_without_argparse_are_what_argparse_gives() -> None:
    """With no option, the executable does not build its argparse parser (start-up time)."""
    from apply_patch.cli import _main as _cli

    for args in ([], ["*** Begin Patch ..."]):
        parsed = vars(_cli._argument_parser().parse_args(args))
        unparsed = _cli._Unparsed(args)
        assert {name: getattr(unparsed, name) for name in parsed} == parsed
        missing = set(parsed) - set(vars(unparsed))
        assert not missing, f"add the defaults of {sorted(missing)} to _cli._Unparsed.KNOWN"

        class Forgetful(_cli._Unparsed):  # an option added without its default in KNOWN
            KNOWN = {}  # type: ignore[misc]

        forgetful = Forgetful(args)
        assert {name: getattr(forgetful, name) for name in parsed} == parsed  # argparse says
