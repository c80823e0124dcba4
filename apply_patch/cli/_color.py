"""`--color`: the summary and the `--diff` in colour, as git colours them.

Whether to colour is `_output.colors_wanted` (a terminal, `NO_COLOR`,
`FORCE_COLOR`): this module is imported only to paint. Only what goes to
stdout is coloured: errors and warnings on stderr stay plain text, and
`--json` never is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

RESET: Final = "\x1b[m"
BOLD: Final = "\x1b[1m"
RED: Final = "\x1b[31m"
GREEN: Final = "\x1b[32m"
YELLOW: Final = "\x1b[33m"
CYAN: Final = "\x1b[36m"
_LETTERS: Final = {"A": GREEN, "M": YELLOW, "D": RED}  # the summary's lines, by their letter


def summary(text: str) -> str:
    """The summary (`Success. Updated the following files:` then `A`/`M`/`D` lines), coloured:
    the header bold, each line by its letter (added green, modified yellow, deleted red)."""
    lines = text.split("\n")
    return "\n".join(
        _paint(BOLD if number == 0 else _LETTERS.get(line[:1], ""), line) for number, line in enumerate(lines)
    )


def diff(text: str) -> str:
    """A unified diff coloured as git does: file headers bold, hunk headers cyan, removed
    lines red, added lines green. A hunk's own lines are told from file headers by its
    counts (a removed line `-- x` reads `--- x`, which is no header inside a hunk)."""
    old = new = 0  # lines of the current hunk still to come, on each side
    painted = []
    for line in text.split("\n"):
        color = ""
        if old > 0 or new > 0:
            color, old, new = _hunk_line(line, old, new)
        elif line.startswith("@@ -"):
            color, (old, new) = CYAN, _counts(line)
        elif line.startswith(("--- ", "+++ ")):
            color = BOLD
        painted.append(_paint(color, line))
    return "\n".join(painted)


def _hunk_line(line: str, old: int, new: int) -> tuple[str, int, int]:
    """The colour of a line inside a hunk, and the counts left after it."""
    if line.startswith("-"):
        return RED, old - 1, new
    if line.startswith("+"):
        return GREEN, old, new - 1
    if line.startswith("\\"):  # `\ No newline at end of file`
        return "", old, new
    return "", old - 1, new - 1  # context


def _counts(header: str) -> tuple[int, int]:
    """The old and new line counts of `@@ -a[,b] +c[,d] @@` (a missing count is 1)."""
    words = header.split(" ")
    try:
        return _count(words[1]), _count(words[2])
    except (IndexError, ValueError):  # not a header we made: colour no line as the hunk's
        return 0, 0


def _count(span: str) -> int:
    start, _, length = span[1:].partition(",")
    int(start)
    return int(length) if length else 1


def _paint(color: str, line: str) -> str:
    return f"{color}{line}{RESET}" if color and line else line
