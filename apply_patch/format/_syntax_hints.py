"""Patch text that does not parse → the offending line and hints a model can act on (pure).

A patch that does not parse gets hints when it is JSON-escaped, has prose before
it, is cut short or is a unified diff.
"""

from __future__ import annotations

import re

from . import _constants as C
from .._errors import PatchSyntaxError
from ._unwrap import FIRST_LINE_ERROR, LAST_LINE_ERROR

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

SHOWN_WIDTH: Final = 160  # longer lines are cut when shown
_UNIFIED_DIFF: Final = re.compile(r"^(--- \S.*\n\+\+\+ \S|@@ -\d+(,\d+)? \+\d+(,\d+)? @@)", re.M)


def syntax_details(text: str, error: PatchSyntaxError) -> tuple[str, ...]:
    """The offending line, when the reference's message does not quote it."""
    if error.line is not None:
        if error.text is None or f"'{error.text}'" in error.message:
            return ()
        return (f"Line {error.line} is {quoted(error.text)}.",)
    lines = [line.removesuffix("\r") for line in text.strip(C.WHITESPACE).split("\n")]
    if lines == [""]:
        return ("The patch text is empty.",)
    if error.message == FIRST_LINE_ERROR:
        return (f"Line 1 is {quoted(lines[0])}.",)
    if error.message == LAST_LINE_ERROR:
        return (f"The last line, line {len(lines)}, is {quoted(lines[-1])}.",)
    return ()


def syntax_hints(text: str, error: PatchSyntaxError) -> tuple[str, ...]:
    """What probably went wrong with patch text that does not parse."""
    hints = []
    body = text.strip(C.WHITESPACE)
    if "\\n" in body and "\n" not in body:
        hints.append(
            "The patch text looks JSON-escaped: it holds the two characters \\n instead of "
            "line breaks. Send the patch itself, with real line breaks."
        )
    lines = body.split("\n")
    begin = next((n for n, line in enumerate(lines) if line.strip() == C.BEGIN_PATCH), None)
    if begin is not None and begin > 0 and error.line is None:
        hints.append(
            f"There is text before '{C.BEGIN_PATCH}' (which is on line {begin + 1}): send only "
            f"the patch, from '{C.BEGIN_PATCH}' to '{C.END_PATCH}'."
        )
    if C.BEGIN_PATCH in body and C.END_PATCH not in body and "\\n" not in body:
        hints.append(f"The patch looks truncated: '{C.END_PATCH}' is missing.")
    if _UNIFIED_DIFF.search(body):
        hints.append(
            "This looks like a unified diff (---/+++ and @@ -1,3 +1,4 @@ lines). This tool "
            "takes the apply_patch format: '*** Update File: path', then '@@', then lines "
            "starting with ' ' (context), '-' (removed) or '+' (added)."
        )
    return tuple(hints)


def quoted(line: str) -> str:
    """`line` cut to the shown width, as a Python literal."""
    return repr(cut(line))


def cut(line: str) -> str:
    """`line`, cut with an ellipsis when longer than the shown width."""
    return line if len(line) <= SHOWN_WIDTH else line[: SHOWN_WIDTH - 1] + "…"
