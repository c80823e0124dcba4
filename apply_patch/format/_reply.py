"""A chat reply → the patches it holds, in order, with where each starts (pure).

A reply is prose around patches. What is taken as a patch:

- a Codex envelope: a line that is `*** Begin Patch` (whitespace around it
  allowed) up to the next line that is `*** End Patch`, fenced or not, in a
  fence with any info string (none, `diff`, `patch`, `text`, `bash` around a
  heredoc...). An envelope with no `*** End Patch` before the next `*** Begin
  Patch` (or before the end of its fence, or of the reply) is incomplete: it is
  a part all the same, so that reading it says the patch looks truncated;
  unless the line after its `*** Begin Patch` (blank lines skipped) is no
  `*** ` header, in which case the line only mentions the marker (prose such as
  "start with *** Begin Patch" on a line of its own) and is no patch;
- a unified diff in a fence: a fenced block without an envelope that holds a
  `--- ` line, then a `+++ ` line right after it, then a `@@ -` hunk header;
- SEARCH/REPLACE blocks (a line that is a SEARCH marker, outside envelopes):
  one part, the whole reply, which `parse_search_replace` reads as a whole
  (its names are on the lines above the blocks), at the line of the first marker.

An envelope indented as a whole (in a Markdown list item) loses that indentation.
A marker inside a line of prose (`` `*** Begin Patch` ``) starts nothing. The
reply's line numbers count from 1; `\\r\\n` is read as `\\n`.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from . import _constants as C

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

# A part's kind is its format's name in the registry (`_registry.FORMATS`).
CODEX: Final = "codex"
CODEX_KIND: Final = CODEX
UNIFIED_DIFF: Final = "unified-diff"
SEARCH_REPLACE: Final = "search-replace"

# CommonMark: up to 3 spaces, then 3 or more backticks or tildes, then the info string.
_FENCE: Final = re.compile(r" {0,3}(`{3,}|~{3,})[^`]*")
_HUNK: Final = re.compile(r"@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@.*|@@ .*@@.*|@@")


@dataclass(frozen=True, slots=True)
class ReplyPart:
    """One patch of a reply: its `kind` (`codex`, `unified-diff` or `search-replace`),
    its `text` (a Codex part: from `*** Begin Patch` to `*** End Patch`, or to where an
    incomplete one stops), the reply `line` it starts on (1-based), whether it is
    `complete` (an envelope with its `*** End Patch`; always true for the other kinds),
    and whether it was in a Markdown fence (`fenced`)."""

    kind: str
    text: str
    line: int
    complete: bool = True
    fenced: bool = False


def reply_parts(text: str) -> tuple[ReplyPart, ...]:
    """The patches of the chat reply `text`, in order (see the module's rules); never raises.

    A text holding none gives `()`.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    parts: list[ReplyPart] = []
    search_line: int | None = None
    fence: tuple[str, int] | None = None  # the open fence's marker and the index of its line
    found_in_fence = False
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip(C.WHITESPACE)
        if stripped == C.BEGIN_PATCH:
            part, index = _envelope(lines, index, fence)
            if part is not None:
                parts.append(part)
                found_in_fence = fence is not None
            continue
        opened = _FENCE.fullmatch(line)
        if fence is not None and _closes(stripped, fence[0]):
            if not found_in_fence:
                parts.extend(_diff_in_fence(lines, fence[1], index))
            fence, found_in_fence = None, False
        elif fence is None and opened is not None:
            fence, found_in_fence = (opened.group(1), index), False
        elif search_line is None and _is_search(line):
            search_line = index + 1
        index += 1
    if fence is not None and not found_in_fence:  # a fence left open runs to the end
        parts.extend(_diff_in_fence(lines, fence[1], len(lines)))
    if search_line is not None:
        parts.append(ReplyPart(SEARCH_REPLACE, text, search_line))
        parts.sort(key=lambda part: part.line)
    return tuple(parts)


def _envelope(lines: Sequence[str], start: int, fence: tuple[str, int] | None) -> tuple[ReplyPart | None, int]:
    """The envelope opened at `start`, and the index to go on from.

    It ends at the next `*** End Patch`; it is incomplete when another `*** Begin
    Patch`, the end of its fence or of the reply comes first. An incomplete one whose
    next non-blank line is no `*** ` header only mentions the marker: None.
    """
    fenced = fence is not None
    for index in range(start + 1, len(lines)):
        stripped = lines[index].strip(C.WHITESPACE)
        if stripped == C.END_PATCH:
            text = "\n".join(_dedented(lines[start : index + 1]))
            return ReplyPart(CODEX, text, start + 1, True, fenced), index + 1
        if stripped == C.BEGIN_PATCH or (fence is not None and _closes(stripped, fence[0])):
            return _incomplete(lines, start, index, fenced), index
    return _incomplete(lines, start, len(lines), fenced), len(lines)


def _incomplete(lines: Sequence[str], start: int, stop: int, fenced: bool) -> ReplyPart | None:
    body = [line for line in lines[start + 1 : stop] if line.strip(C.WHITESPACE)]
    if not body or not body[0].strip(C.WHITESPACE).startswith("*** "):
        return None  # the marker mentioned on a line of its own, no patch after it
    end = stop
    while end > start + 1 and not lines[end - 1].strip(C.WHITESPACE):
        end -= 1
    return ReplyPart(CODEX, "\n".join(_dedented(lines[start:end])), start + 1, False, fenced)


def _dedented(lines: Sequence[str]) -> Sequence[str]:
    """An envelope indented as a whole (a fence inside a Markdown list item: every line
    starts with the indentation of its `*** Begin Patch`), without that indentation."""
    first = lines[0]
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent or not all(line.startswith(indent) or not line.strip() for line in lines):
        return lines
    return [line[len(indent) :] for line in lines]


def _closes(stripped: str, marker: str) -> bool:
    """Whether a line (stripped) closes a fence opened with `marker`."""
    return len(stripped) >= len(marker) and stripped == marker[0] * len(stripped)


def _diff_in_fence(lines: Sequence[str], opening: int, closing: int) -> list[ReplyPart]:
    """The fenced block between `opening` and `closing` as a unified diff, if it is one."""
    body = lines[opening + 1 : closing]
    for row in range(len(body) - 1):
        if body[row].startswith("--- ") and body[row + 1].startswith("+++ "):
            if any(_HUNK.fullmatch(line.rstrip()) for line in body[row + 2 :]):
                return [ReplyPart(UNIFIED_DIFF, "\n".join(body) + "\n", opening + 2, True, True)]
            break
    return []


def _is_search(line: str) -> bool:
    from ._search_replace import SEARCH

    return SEARCH.fullmatch(line) is not None
