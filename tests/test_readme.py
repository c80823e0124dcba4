"""Every Python example in README.md and docs/*.md runs, and prints what the page says.

A page's ```python blocks run in order, in one namespace, in an empty folder (each page
its own); a block followed directly by a ```text block must print exactly that text.
There is one test per block: it runs the page's blocks up to it and checks its output.
"""

import contextlib
import io
import re
from pathlib import Path

import pytest

from _support import REPO

BLOCK = re.compile(r"```(\w+)\n(.*?)```\n", re.S)
PAGES = ["README.md", *sorted(str(path.relative_to(REPO)) for path in (REPO / "docs").glob("*.md"))]
# Examples the pages held when the manual left the README; a page may gain more, never lose one.
AT_LEAST = {
    "README.md": 3, "docs/agents.md": 5, "docs/extraction.md": 2, "docs/making-patches.md": 1,
    "docs/native-tool.md": 5, "docs/edit-formats.md": 6,
}


def _examples(page: str) -> list[tuple[str, str | None]]:
    """The page's python blocks, each with the text block right after it (what it prints), if any."""
    text = (REPO / page).read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    examples = []
    for block, following in zip(blocks, [*blocks[1:], None]):
        if block.group(1) != "python":
            continue
        adjacent = following is not None and text[block.end() : following.start()].strip() == ""
        printed = following.group(2) if adjacent and following and following.group(1) == "text" else None
        examples.append((block.group(2), printed))
    return examples


CASES = [(page, number) for page in PAGES for number in range(1, len(_examples(page)) + 1)]


@pytest.mark.parametrize("page", sorted(AT_LEAST))
def test_pages_keep_their_examples(page: str) -> None:
    assert len(_examples(page)) >= AT_LEAST[page]


@pytest.mark.parametrize(("page", "number"), CASES, ids=[f"{page}:{number}" for page, number in CASES])
def test_python_example_prints_what_the_page_shows(
    page: str, number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for index, (code, printed) in enumerate(_examples(page)[:number], 1):
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile(code, f"{page} python example {index}", "exec"), namespace)
        if index == number and printed is not None:
            assert output.getvalue() == printed, f"{page} python example {number}"
