"""A model's whole reply → its SEARCH/REPLACE blocks (Aider's and Reasonix's format), as edits.

A block is three marker lines, each starting its line (leading characters
make it content, so a file holding a marker indented or after text is safe):

    path/to/file.py
    <<<<<<< SEARCH          (5 to 9 `<`)
    lines the file has
    =======                 (5 to 9 `=`)
    lines to put instead
    >>>>>>> REPLACE         (5 to 9 `>`)

The file's path is, in order of preference: the last word of the fence's
info string that looks like a path (```` ```python app/main.py ````), else
the nearest non-blank line above the block (or above its fence), stripped of
Markdown decoration (`` ` ``, `*`, `#`, a final `:`) when it is one word (with a
dot or a slash, or else alone on its line: `Makefile`, not `Here:`); else
the path of the previous block (several blocks in one fence). Fences are
optional; prose between blocks is ignored. An empty SEARCH part creates the
file (`CreateFile`). The SEARCH and REPLACE parts are whole lines.
"""

from __future__ import annotations

import re

from .._errors import PatchError, SearchReplaceError
from ._edits import CreateFile, StrReplace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

SEARCH: Final = re.compile(r"<{5,9} SEARCH>?[ \t]*")
DIVIDER: Final = re.compile(r"={5,9}[ \t]*")
REPLACE: Final = re.compile(r">{5,9} REPLACE[ \t]*")
_FENCE: Final = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*(.*)")
_DECORATION: Final = "`*#'\" \t"


def parse_search_replace(text: str) -> list[StrReplace | CreateFile]:
    """The edits of every SEARCH/REPLACE block of `text`, in order.

    Raises SearchReplaceError when a block is not closed, has no path, or
    when `text` holds no block at all.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    edits: list[StrReplace | CreateFile] = []
    path: str | None = None
    index = 0
    while index < len(lines):
        if not SEARCH.fullmatch(lines[index]):
            index += 1
            continue
        start = index
        path = _path_above(lines, start) or path
        if path is None:
            raise SearchReplaceError(
                "no file path before it (write the path alone on the line above the block, "
                "or in the fence: ```python path/to/file.py)",
                line=start + 1,
            )
        divider = _find(lines, start + 1, DIVIDER, "=======", start)
        end = _find(lines, divider + 1, REPLACE, ">>>>>>> REPLACE", start)
        old, new = lines[start + 1 : divider], lines[divider + 1 : end]
        label = f"the SEARCH block at line {start + 1}"
        if not old:
            label = f"the empty SEARCH block at line {start + 1}"
            edits.append(CreateFile(path, _joined(new), line=start + 1, label=label))
        else:
            edits.append(StrReplace(path, _joined(old), _joined(new), line=start + 1, label=label))
        index = end + 1
    if not edits:
        raise SearchReplaceError(
            "the text holds no block (a line '<<<<<<< SEARCH', the old lines, '=======', "
            "the new lines, '>>>>>>> REPLACE')"
        )
    return edits


def _joined(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _find(lines: list[str], start: int, marker: re.Pattern[str], name: str, block: int) -> int:
    for index in range(start, len(lines)):
        if marker.fullmatch(lines[index]):
            return index
        if SEARCH.fullmatch(lines[index]) or (name.startswith("=") and REPLACE.fullmatch(lines[index])):
            break
    raise SearchReplaceError(
        f"the block that starts here has no '{name}' line (markers must start their line)",
        line=block + 1,
    )


def _path_above(lines: list[str], start: int) -> str | None:
    """The path written for the block at `start` (see the module), or None."""
    index = start - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    if index >= 0 and (fence := _FENCE.fullmatch(lines[index])):
        words = fence.group(2).split()
        named = [w for w in words if _looks_like_path(w)]
        if named:
            return named[-1]
        index -= 1
        while index >= 0 and not lines[index].strip():
            index -= 1
    if index < 0 or REPLACE.fullmatch(lines[index]) or _FENCE.fullmatch(lines[index]):
        return None
    line = lines[index].strip().strip(_DECORATION)
    candidate = line.removesuffix(":").strip(_DECORATION)
    if not candidate or any(c.isspace() for c in candidate):
        return None
    # A word without a dot or slash is a name (Makefile) only alone on its line: "Here:" is prose.
    return candidate if _looks_like_path(candidate) or candidate == line else None


def _looks_like_path(word: str) -> bool:
    """A fence info word with a dot or a slash (a word without is a language: `python`)."""
    return "/" in word or ("." in word.strip(".") and not word.startswith("{"))

