"""Extraction over fixtures/transcripts/: every patch, in order, with its folder, line and source.

Each transcript `NAME.EXT` has `NAME.expected.json`: the list `apply_patch
extract --json` prints (an empty list for the negative cases: no call). The
same list must come from the library's `extract_patches`.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES, run_cli, snapshot
from apply_patch import BrokenPatch, Extracted, FoundEdits, extract_patches
from dataclasses import asdict

TRANSCRIPTS = FIXTURES / "transcripts"
FILES = sorted(
    p for p in TRANSCRIPTS.iterdir() if p.is_file() and not p.name.endswith(".expected.json")
)


def _expected(path: Path) -> list[dict[str, Any]]:
    expected = path.with_name(path.stem + ".expected.json")
    result: list[dict[str, Any]] = json.loads(expected.read_text(encoding="utf-8"))
    return result


def test_the_fixtures_cover_every_kind_of_text() -> None:
    sources = {item["source"] for path in FILES for item in _expected(path)}
    assert sources == {"terminal", "markdown", "script", "argv", "log", "reply"}
    negatives = [p.name for p in FILES if p.name.startswith("negative_")]
    assert len(negatives) == 5
    assert all(_expected(TRANSCRIPTS / name) == [] for name in negatives)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_executable_json(path: Path, tmp_path: Path) -> None:
    expected = _expected(path)
    result = run_cli(["extract", "--json", str(path)], tmp_path)
    assert json.loads(result.stdout) == [{"schema": 2, **item} for item in expected]
    assert result.stderr == (b"" if expected else b"no apply_patch call found\n")
    assert result.returncode == (0 if expected else 1)
    assert snapshot(tmp_path) == {}  # listing writes nothing


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_library(path: Path) -> None:
    found = extract_patches(path.read_text(encoding="utf-8"))
    assert [_as_dict(item) for item in found] == _expected(path)


def _as_dict(item: Extracted) -> dict[str, Any]:
    found = {
        "patch": item.patch,
        "workdir": item.workdir,
        "line": item.line,
        "source": item.source,
        "error": str(item.error) if isinstance(item, BrokenPatch) else None,
        "logged_outcome": item.logged_outcome,
    }
    if isinstance(item, FoundEdits):
        found["kind"] = item.kind
        # the format's words for its messages (`terms`) are not the edit's fields: as `--json` lists them
        found["edits"] = [
            {"type": type(e).__name__, **{k: v for k, v in asdict(e).items() if k != "terms"}} for e in item.edits
        ]
    return found
