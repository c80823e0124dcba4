"""Every Python example of docs/edit-formats.md runs, and prints what the page says it prints.

As for README.md: the ```python blocks run in order, in one namespace, in an empty
folder; a block followed directly by a ```text block must print exactly that text.
"""

import contextlib
import io
import re
from pathlib import Path

import pytest

from _support import REPO

BLOCK = re.compile(r"^```(\w+)\n(.*?)^```\n", re.S | re.M)
PAGE = REPO / "docs" / "edit-formats.md"


def _examples() -> list[tuple[str, str | None]]:
    text = PAGE.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    examples = []
    for block, following in zip(blocks, [*blocks[1:], None]):
        if block.group(1) != "python":
            continue
        adjacent = following is not None and text[block.end() : following.start()].strip() == ""
        printed = following.group(2) if adjacent and following and following.group(1) == "text" else None
        examples.append((block.group(2), printed))
    return examples


def test_edit_formats_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    examples = _examples()
    assert len(examples) >= 6
    namespace: dict[str, object] = {}
    for number, (code, printed) in enumerate(examples, 1):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(code, f"docs/edit-formats.md python example {number}", "exec"), namespace)
        if printed is not None:
            assert output.getvalue() == printed, f"docs/edit-formats.md python example {number}"
