"""`--color`: the summary and the `--diff` in colour on a terminal, as git colours them.

Whether to colour (`wanted`): `--color always` or `never` decide; `auto` (the
default) colours when stdout is a terminal, unless `NO_COLOR` is set (not
empty), or `FORCE_COLOR` is set (not empty) to colour a pipe too; `TERM=dumb`
means no colour. The same order as CPython's own (3.13): `NO_COLOR` wins over
`FORCE_COLOR`, and the command line over both. `--json` is never coloured
(the caller does not ask). Only what goes to stdout is coloured: errors and
warnings on stderr stay plain text.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Mapping
    from typing import Final, TextIO

RESET: Final = "\x1b[m"
BOLD: Final = "\x1b[1m"
RED: Final = "\x1b[31m"
GREEN: Final = "\x1b[32m"
YELLOW: Final = "\x1b[33m"
CYAN: Final = "\x1b[36m"
_LETTERS: Final = {"A": GREEN, "M": YELLOW, "D": RED}  # the summary's lines, by their letter


def wanted(choice: str, stream: TextIO | None, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether to colour what is printed on `stream` with `--color choice`."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb" or stream is None:
        return False
    try:
        return stream.isatty()
    except (OSError, ValueError):  # closed
        return False


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
