"""File bytes ⇄ lines, each line with its own ending, and the BOM kept aside.

A file is split at `\\r\\n`, lone `\\r` and `\\n` (as the reference does, and
not at the other separators `str.splitlines` knows). The matcher sees only
line texts; endings and the BOM never take part in matching.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

BOM: Final = "\ufeff"
_LINE_BREAK: Final = r"(\r\n|\r|\n)"  # compiled when a file first has a CR (re caches it)


@dataclass(slots=True)
class TextFile:
    """A decoded text file.

    `endings[i]` terminates `lines[i]`; only the last may be `""` (no final
    newline). `bom` says whether the file starts with U+FEFF (not in `lines`).
    """

    lines: list[str]
    endings: list[str]
    bom: bool = False

    @property
    def preferred_ending(self) -> str:
        """The ending of the first terminated line; LF if there is none."""
        return self.endings[0] if self.endings and self.endings[0] else "\n"

    @property
    def has_final_newline(self) -> bool:
        """False only for a non-empty file whose last line is unterminated."""
        return not self.endings or self.endings[-1] != ""

    def to_text(self, *, bom: bool) -> str:
        """The file's text, with the BOM in front if `bom`."""
        endings = self.endings
        lf = endings.count("\n")  # most files: every line ends with LF, but maybe the last
        if endings and lf == len(endings):
            body = "\n".join(self.lines) + "\n"
        elif endings and lf == len(endings) - 1 and endings[-1] == "":
            body = "\n".join(self.lines)
        else:
            body = "".join(map(str.__add__, self.lines, endings))
        return BOM + body if bom else body


def split_text(text: str) -> TextFile:
    """Split decoded text into lines and endings; a leading BOM is set aside."""
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    if not text:
        return TextFile([], [], bom)
    if "\r" not in text:  # the common case, at C speed
        lines = text.split("\n")
        endings = ["\n"] * (len(lines) - 1)
    else:
        parts = re.split(_LINE_BREAK, text)
        lines, endings = parts[0::2], parts[1::2]
    if lines[-1] == "":
        lines.pop()
    else:
        endings.append("")
    return TextFile(lines, endings, bom)


def common_ends(old: Sequence[str], new: Sequence[str]) -> tuple[int, int]:
    """(head, tail): how many lines `old` and `new` share at the top, then at the bottom
    (the bottom ones not counting any of the top ones)."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail
