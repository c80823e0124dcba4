"""The strict classifier against the reference's own test table, and our additions.

Data: `fixtures/classify/reference_table.json` (every row of the table of
`invocation.rs`, codex-reference.md §8.3) and `beyond_reference.json`.
"""

import difflib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES
from apply_patch import (
    CODEX,
    DEFAULT,
    AddFile,
    ApplyPatchCall,
    BrokenApplyPatchCall,
    Classification,
    ImplicitPatch,
    NotApplyPatch,
    apply_patch,
    classify_argv,
)

TABLES = FIXTURES / "classify"
REFERENCE = json.loads((TABLES / "reference_table.json").read_text(encoding="utf-8"))
BEYOND = json.loads((TABLES / "beyond_reference.json").read_text(encoding="utf-8"))
PATCH: str = REFERENCE["patch"]
KINDS = {
    "call": ApplyPatchCall,
    "broken": BrokenApplyPatchCall,
    "implicit": ImplicitPatch,
    "not": NotApplyPatch,
}


def _argv(row: dict[str, Any]) -> list[str]:
    heredoc = f"apply_patch <<'PATCH'\n{PATCH}\nPATCH"
    tabbed = "\n".join("\t" + line for line in PATCH.split("\n"))
    return [
        a.replace("<H>", heredoc).replace("<PATCH>", PATCH).replace("<TABBED>", tabbed)
        for a in row["argv"]
    ]


ROWS = REFERENCE["rows"] + BEYOND["rows"]


def test_every_row_of_the_reference_table_is_here() -> None:
    names = {row["test"].split(" (")[0] for row in REFERENCE["rows"] + REFERENCE["verified"]}
    assert len(names) == 30


@pytest.mark.parametrize("row", ROWS, ids=[r["test"] for r in ROWS])
def test_classification(row: dict[str, Any]) -> None:
    result = classify_argv(_argv(row), row.get("cwd"))
    assert type(result) is KINDS[row["expect"]]
    if isinstance(result, (ApplyPatchCall, BrokenApplyPatchCall)):
        assert result.workdir == row["workdir"]
    if isinstance(result, BrokenApplyPatchCall):
        assert result.error.headline == row["error"]
    if isinstance(result, (ApplyPatchCall, ImplicitPatch)):
        assert result.patch.operations == (AddFile("foo", ("hi",)),)


def test_the_implicit_message_is_the_references() -> None:
    result = classify_argv([PATCH])
    assert isinstance(result, ImplicitPatch)
    assert result.message == (
        'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]'
    )


def test_the_result_is_a_value_even_for_a_broken_patch() -> None:
    result: Classification = classify_argv(["apply_patch", "not a patch"])
    assert isinstance(result, BrokenApplyPatchCall)
    assert result.text == "not a patch"
    assert str(result.error) == (
        "Invalid patch: The first line of the patch must be '*** Begin Patch'\n"
        "Line 1 is 'not a patch'."
    )


VERIFIED = REFERENCE["verified"]


@pytest.mark.parametrize("row", VERIFIED, ids=[r["test"] for r in VERIFIED])
def test_verified_rows(row: dict[str, Any], tmp_path: Path) -> None:
    """The call is classified, then planned (dry run) in its folder: contents and diffs."""
    _lay_out(tmp_path, row["input"])
    cwd = str(tmp_path)
    result = classify_argv(row["argv"], cwd)
    assert isinstance(result, ApplyPatchCall)
    assert result.workdir == row.get("workdir", "<cwd>").replace("<cwd>", cwd)
    assert result.workdir is not None
    policy = CODEX if row.get("codex") else DEFAULT
    planned = apply_patch(result.text, result.workdir, dry_run=True, policy=policy)
    # The reference keys its changes by absolute path; ours name them relative to the root.
    changes = {os.path.join(result.workdir, c.relative): c for c in planned.changes}
    expected = {k.replace("<cwd>", cwd): v for k, v in row["changes"].items()}
    assert set(changes) == set(expected)
    for shown, want in expected.items():
        after = changes[shown].after
        assert (None if after is None else after.data.decode()) == want["after"]
        if "diff" in want:
            before = changes[shown].before
            assert before is not None and after is not None
            assert _diff(before.data.decode(), after.data.decode()) == want["diff"]


def _lay_out(root: Path, files: dict[str, Any]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        elif "hex" in content:
            path.write_bytes(bytes.fromhex(content["hex"]))
        else:
            os.symlink(content["symlink"], path)


def _diff(before: str, after: str) -> str:
    """A unified diff with one line of context and no file header, as the reference shows it."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), n=1
    )
    return "".join(list(lines)[2:])
