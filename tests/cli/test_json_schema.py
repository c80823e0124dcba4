"""Every `--json` object carries `"schema": 2` (docs/cli.md), from the outside."""

import json
from pathlib import Path

import pytest

from _support import REPO, run_cli

ADD = "*** Begin Patch\n*** Add File: new.txt\n+new\n*** End Patch\n"
BAD = "*** Begin Patch\n*** Delete File: missing.txt\n*** End Patch\n"


@pytest.mark.parametrize(
    ("args", "patch", "code"),
    [
        ([], ADD, 0),
        (["--dry-run", "--diff"], ADD, 0),
        ([], BAD, 1),
        (["--format", "auto"], ADD, 0),
        (["--format", "search-replace"], ADD, 1),
    ],
    ids=["applied", "dry-run", "failed", "auto", "wrong-format"],
)
def test_apply_patch_json_has_the_schema(args: list[str], patch: str, code: int, tmp_path: Path) -> None:
    result = run_cli(["--json", *args], tmp_path, stdin=patch.encode())
    assert result.returncode == code
    assert json.loads(result.stdout)["schema"] == 2


def test_every_extract_object_has_the_schema(tmp_path: Path) -> None:
    log = tmp_path / "session.log"
    log.write_text("".join(f"apply_patch <<'EOF'\n{p}EOF\n" for p in (ADD, BAD, ADD)))
    for args in (["--json"], ["--apply", "--json"], ["--apply", "--dry-run", "--json"]):
        documents = json.loads(run_cli(["extract", *args, str(log)], tmp_path).stdout)
        assert len(documents) == 3 and {d["schema"] for d in documents} == {2}, args


def test_the_documented_example_shows_it() -> None:
    text = (REPO / "docs/cli.md").read_text(encoding="utf-8")
    example = text[text.index("## `--json`") :]
    assert example[example.index("```json\n") :].startswith('```json\n{\n  "schema": 2,\n')
