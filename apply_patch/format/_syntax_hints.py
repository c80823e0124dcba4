"""Patch text that does not parse → the offending line and hints a model can act on (pure).

A patch that does not parse gets hints when it is JSON-escaped, has prose before
it, is cut short, is a unified diff, is a shell script, or has decorated
envelope markers (`*** Begin Patch ***`).

The parser's steps raise `BareSyntaxError` errors (the reference's message, the patch
line, the offending line); `with_facts` builds the one error the caller sees,
with its details and hints, from the text the line numbers refer to.
"""

from __future__ import annotations

import re

from . import _constants as C
from .._errors import PatchSyntaxError
from ._constants import FIRST_LINE_ERROR, LAST_LINE_ERROR

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

SHOWN_WIDTH: Final = 160  # longer lines are cut when shown
# Patterns, not compiled patterns: `re` compiles each the first time it is used (and keeps
# it), and only text that does not parse uses them (a patch that parses compiles none).
_UNIFIED_DIFF: Final = r"(?m)^(--- \S.*\n\+\+\+ \S|@@ -\d+(,\d+)? \+\d+(,\d+)? @@)"
# The first line of a shell command that may call apply_patch: `apply_patch <<'EOF'`,
# `cd src && ...`, `bash -lc "..."`, `/bin/sh -c '...'`.
_SHELL_START: Final = r"[ \t]*(?:\S*/)?(?:apply_?patch|applypatch|cd|bash|sh|zsh|dash|ksh)(?:[ \t]|$)"
# ... or any first line that runs apply_patch with a heredoc (`echo hi && apply_patch <<EOF`).
_HEREDOC_CALL: Final = r"\b(?:apply_patch|applypatch)\b[^\n]*<<"
UNIFIED_DIFF_GUESS: Final = (
    "This looks like a unified diff (---/+++ and @@ -1,2 +1,2 @@ lines). This tool "
    "takes the apply_patch format: '*** Update File: path', then '@@', then lines "
    "starting with ' ' (context), '-' (removed) or '+' (added)."
)
# The hints above that guess the input's format: the command line's own hint, which names
# the `--format` that reads it, takes their place (`cli._advice.with_format_hint`).
FORMAT_GUESSES: Final = frozenset({UNIFIED_DIFF_GUESS})
SHELL_SCRIPT_HINT: Final = (
    "The text is a shell script that does more than call apply_patch with a heredoc "
    "(`cd DIR && apply_patch <<'EOF'` is the most it may hold): send the patch alone, "
    "or find and apply the patches in the script with `apply_patch extract --apply`."
)


def with_facts(text: str, bare: PatchSyntaxError) -> PatchSyntaxError:
    """The error the caller sees: `bare`'s message and line, with details and hints from `text`."""
    return PatchSyntaxError(
        bare.message,
        line=bare.line,
        text=bare.text,
        details=syntax_details(text, bare),
        hints=(*bare.hints, *syntax_hints(text, bare.line)),
    )


def looks_like_shell(text: str) -> bool:
    """Whether `text`'s first line starts like a shell command that may call apply_patch."""
    first = text[: text.find("\n")] if "\n" in text else text
    if re.search(_HEREDOC_CALL, first):
        return True
    return re.match(_SHELL_START, first) is not None and "apply" in text


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


def syntax_hints(text: str, line: int | None) -> tuple[str, ...]:
    """What probably went wrong with patch text that does not parse."""
    hints = []
    body = text.strip(C.WHITESPACE)
    if "\\n" in body and "\n" not in body:
        hints.append(
            "The patch text looks JSON-escaped: it holds the two characters \\n instead of "
            "line breaks. Send the patch itself, with real line breaks."
        )
    lines = body.split("\n")
    shell = line is None and looks_like_shell(body)
    if shell:
        hints.append(SHELL_SCRIPT_HINT)
    if line is None:
        hints += _decorated(lines)
    begin = next((n for n, line in enumerate(lines) if line.strip() == C.BEGIN_PATCH), None)
    if begin is not None and begin > 0 and line is None and not shell:
        hints.append(
            f"There is text before '{C.BEGIN_PATCH}' (which is on line {begin + 1}): send only "
            f"the patch, from '{C.BEGIN_PATCH}' to '{C.END_PATCH}'."
        )
    if C.BEGIN_PATCH in body and C.END_PATCH not in body and "\\n" not in body:
        hints.append(f"The patch looks truncated: '{C.END_PATCH}' is missing.")
    if re.search(_UNIFIED_DIFF, body):
        hints.append(UNIFIED_DIFF_GUESS)
    return tuple(hints)


def _decorated(lines: list[str]) -> list[str]:
    """Hints for envelope markers with text after them (`*** Begin Patch ***`)."""
    found = []
    for where, line, marker in (("Line 1", lines[0], C.BEGIN_PATCH), ("The last line", lines[-1], C.END_PATCH)):
        line = line.strip(C.WHITESPACE)
        rest = line[len(marker) :]
        if line.startswith(marker) and rest and len(rest) <= 20 and "\\n" not in rest:
            found.append(
                f"{where} has {quoted(rest)} after '{marker}': "
                "the marker must be alone on its line."
            )
    return found


def quoted(line: str) -> str:
    """`line` cut to the shown width, as a Python literal."""
    return repr(cut(line))


def cut(line: str) -> str:
    """`line`, cut with an ellipsis when longer than the shown width."""
    return line if len(line) <= SHOWN_WIDTH else line[: SHOWN_WIDTH - 1] + "…"
