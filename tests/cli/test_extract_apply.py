"""`apply_patch extract --apply` over fixtures/extract_apply/: the whole tree afterwards.

A case folder:

    case.json    {"rule", "transcript" (path from the case folder), "exit",
                  "input"? (default: input/), "args"? (default: ["--apply"]),
                  "stdin"? (the transcript on stdin, no FILE), "env"?,
                  "unchanged"? (the tree must be byte for byte as before)}
    input/       the tree the session started in (missing: empty)
    expected/    the tree afterwards, unless "unchanged"
    stdout.txt   exact stdout (missing: empty); likewise stderr.txt;
                 `<root>` stands for the folder the executable runs in

The transcripts of the realistic sessions live in fixtures/transcripts/, with
their starting tree in fixtures/transcripts/projects/.
"""

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES, copy_tree, executable, snapshot

CASES_DIR = FIXTURES / "extract_apply"


@dataclass(frozen=True)
class Case:
    folder: Path
    data: dict[str, Any]

    @property
    def transcript(self) -> Path:
        return (self.folder / str(self.data["transcript"])).resolve()

    @property
    def input(self) -> Path:
        return (self.folder / str(self.data.get("input", "input"))).resolve()

    def text(self, name: str, root: Path) -> str:
        path = self.folder / name
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        return text.replace("<root>", str(root))


CASES = [Case(p.parent, json.loads(p.read_text("utf-8"))) for p in sorted(CASES_DIR.glob("*/case.json"))]


def run_case(case: Case, root: Path) -> "subprocess.CompletedProcess[bytes]":
    """Run `apply_patch extract` as the case says, in `root` (already laid out)."""
    args = ["extract", *case.data.get("args", ["--apply"])]
    stdin = case.transcript.read_bytes() if case.data.get("stdin") else b""
    if not case.data.get("stdin"):
        args.append(str(case.transcript))
    env = dict(os.environ)
    env.update({k: v.replace("<root>", str(root)) for k, v in case.data.get("env", {}).items()})
    return subprocess.run(
        [executable(), *args], cwd=root, input=stdin, capture_output=True, env=env, timeout=120
    )


def test_there_are_cases() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c.folder.name for c in CASES])
def test_apply(case: Case, tmp_path: Path) -> None:
    root = tmp_path / "root"
    copy_tree(case.input, root)
    before = snapshot(root)
    result = run_case(case, root)
    rule = case.data["rule"]
    assert result.stderr.decode("utf-8") == case.text("stderr.txt", root), rule
    assert result.stdout.decode("utf-8") == case.text("stdout.txt", root), rule
    assert result.returncode == case.data["exit"], rule
    if case.data.get("unchanged"):
        assert snapshot(root) == before, rule
    else:
        assert snapshot(root) == snapshot(case.folder / "expected"), rule
