"""`view_range` holding anything but two integers a file can have (`[1, 10**30]`, `1e30`,
`"3"`, `true`) is invalid input, refused in one line on every surface: the library's
TextEditor, the anthropic adapter's tool result; the clamp with a note is only for an end
past the last line within that range (issue 34). The MCP `view` is in tests/cli/test_serve.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _support import snapshot
from apply_patch.anthropic import TextEditor

INVALID: list[Any] = [
    [1, 10**30],
    [10**30, 10**30 + 1],
    [1, -(10**30)],
    [1, 2**63],
    [1e30, 2],
    [1, 1e30],
    ["3", 5],
    [True, 2],
    [1, True],
    "1-3",
    [1, 2, 3],
]


@pytest.mark.parametrize("view_range", INVALID, ids=repr)
def test_an_impossible_view_range_is_refused_in_one_line(tmp_path: Path, view_range: Any) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    before = snapshot(tmp_path)
    answer = TextEditor(tmp_path).run({"command": "view", "path": "a.txt", "view_range": view_range})
    assert answer["is_error"] is True
    text = str(answer["content"])
    assert "\n" not in text and text.startswith("Error: view_range must be two line numbers"), text
    result = TextEditor(tmp_path).tool_result("toolu_1", {"command": "view", "path": "a.txt", "view_range": view_range})
    assert result["is_error"] is True and result["content"] == text
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("end", [4, 1000, 2**63 - 1])
def test_an_end_past_the_last_line_a_file_can_have_is_clamped_with_a_note(tmp_path: Path, end: int) -> None:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    answer = TextEditor(tmp_path).run({"command": "view", "path": "a.txt", "view_range": [2, end]})
    assert answer["is_error"] is False
    assert answer["content"] == "Note: the file has 3 lines; lines 2-3 are shown.\n2: two\n3: three"
