"""Our own scenarios: one per contract rule and policy row (fixtures/scenarios/), and
one per input shape a model sends or message it reads back (fixtures/model/).

Layout of a case folder (the upstream layout, plus `case.json`):

    input/              the tree before (the root folder)
    outside/            optional: files beside the root (to catch writes leaving it)
    patch.txt           the patch
    expected/           the root afterwards (missing: empty), unless "unchanged"
    expected_outside/   optional: beside the root afterwards (default: outside/)
    case.json           {"rule", "args", "exit", "stdout", "stderr",
                         "unchanged"?, "modes"?: {"input"|"expected": {path: "0755"}},
                         "cli_only"?, "library_stderr"?}

`<root>` in stdout/stderr stands for the absolute root folder. Every case runs
through the installed executable and through the library API (where a patch
applies, `ApplyResult.report()` is the summary then every warning, one
`warning:` line each, as the executable prints them); the whole
temporary folder (root and beside it: files, symlinks, folders, modes) must
equal the expectation byte for byte. `library_stderr`, where given, is what the
library's error says when the executable says more (its command-line advice:
`--format unified-diff`).
"""

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from _support import FIXTURES, Entry, copy_tree, run_cli, snapshot
from apply_patch import CODEX, DEFAULT, PatchError, apply_patch

FOLDERS = (FIXTURES / "scenarios", FIXTURES / "model")
NOTHING_CHANGED = "The patch was not applied; no file was changed.\n"


@dataclass(frozen=True)
class Case:
    folder: Path
    rule: str
    args: list[str]
    exit: int
    stdout: str
    stderr: str
    unchanged: bool
    modes: dict[str, dict[str, str]]
    cli_only: bool
    library_stderr: str

    @property
    def patch(self) -> str:
        return (self.folder / "patch.txt").read_bytes().decode("utf-8")


def _load(folder: Path) -> Case:
    data = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    return Case(
        folder=folder,
        rule=data["rule"],
        args=data.get("args", []),
        exit=data["exit"],
        stdout=data["stdout"],
        stderr=data["stderr"],
        unchanged=data.get("unchanged", False),
        modes=data.get("modes", {}),
        cli_only=data.get("cli_only", False),
        library_stderr=data.get("library_stderr", data["stderr"]),
    )


CASES = [
    _load(p)
    for folder in FOLDERS
    for p in sorted(folder.iterdir())
    if (p / "case.json").is_file()
]


def _build(case: Case, base: Path, which: str) -> Path:
    """Lay out the tree `which` ("input" or "expected") under `base`; return the root."""
    root = base / "root"
    inside = case.folder / which
    outside = case.folder / ("outside" if which == "input" else "expected_outside")
    if which == "expected" and not outside.is_dir():
        outside = case.folder / "outside"
    copy_tree(outside, base)
    copy_tree(inside, root)
    for path, mode in case.modes.get(which, {}).items():
        (root / path).chmod(int(mode, 8))
    return root


def _expected(case: Case, tmp: Path, before: dict[str, Entry]) -> dict[str, Entry]:
    if case.unchanged:
        return before
    return snapshot(_build(case, tmp / "expected", "expected").parent)


def _text(template: str, root: Path) -> str:
    return template.replace("<root>", str(root))


def test_there_are_scenarios() -> None:
    assert len(CASES) >= 120


@pytest.mark.parametrize("case", CASES, ids=[c.folder.name for c in CASES])
def test_executable(case: Case, tmp_path: Path) -> None:
    root = _build(case, tmp_path / "run", "input")
    before = snapshot(root.parent)
    result = run_cli([*case.args, case.patch], root)
    assert result.returncode == case.exit, case.rule
    assert result.stdout.decode("utf-8") == _text(case.stdout, root), case.rule
    assert result.stderr.decode("utf-8") == _text(case.stderr, root), case.rule
    assert snapshot(root.parent) == _expected(case, tmp_path, before), case.rule


@pytest.mark.parametrize(
    "case", [c for c in CASES if not c.cli_only], ids=[c.folder.name for c in CASES if not c.cli_only]
)
def test_library(case: Case, tmp_path: Path) -> None:
    root = _build(case, tmp_path / "run", "input")
    before = snapshot(root.parent)
    base = CODEX if "--codex" in case.args else DEFAULT
    policy = base.with_options(**_options(case.args))
    if case.exit == 0:
        result = apply_patch(case.patch, root, policy=policy)
        assert result.summary == _text(case.stdout, root), case.rule
        assert result.report() == _text(case.stdout + case.stderr, root), case.rule
    else:
        with pytest.raises(PatchError) as caught:
            apply_patch(case.patch, root, policy=policy)
        assert f"{caught.value}\n{NOTHING_CHANGED}" == _text(case.library_stderr, root), case.rule
    assert snapshot(root.parent) == _expected(case, tmp_path, before), case.rule


FLAGS = {"--codex": {}, "--unique": {"ambiguous": "error"}}


def _options(args: list[str]) -> dict[str, str]:
    """`--final-newline keep` → {"final_newline": "keep"}; `--codex` is the policy."""
    options: dict[str, str] = {}
    for flag in set(args) & set(FLAGS):
        options.update(FLAGS[flag])
    words = [a for a in args if a not in FLAGS]
    for name, value in zip(words[0::2], words[1::2]):
        options[name.removeprefix("--").replace("-", "_")] = value
    return options
