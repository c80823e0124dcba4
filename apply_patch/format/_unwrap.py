"""Lenient patch text → canonical lines, one for one, ready for the grammar.

What is accepted here beyond the canonical form (each rule the reference's,
unless marked *ours*):

- the whole text is trimmed; one `\\r` is removed from the end of every line;
- the envelope markers may carry surrounding whitespace;
- a heredoc around the whole patch (`<<EOF` ... `EOF`); *ours*: any delimiter,
  quoted or not, and `<<-` (leading tabs stripped, as the shell would);
- *ours*: a Markdown code fence around the whole patch (```` ``` ```` or `~~~`);
- file headers outside an Update may carry surrounding whitespace; inside an
  Update, markers (headers, `@@`, `*** Move to:`, `*** End of File`, `*** End
  Patch`) may carry trailing whitespace; the final `*** End Patch` any;
- after the first `*** End Patch`, only blank lines and more `*** End Patch`.

Line 1 of the result is the `*** Begin Patch` line; wrapper lines are not
counted, so error line numbers match the reference's.

The text is handled whole where it can be: only the lines that may be markers
(their first non-blank character is `*` or `@`, found by one regular
expression) are looked at one by one, so a large patch costs a few passes of C.
"""

from __future__ import annotations

import re

from . import _constants as C
from .._errors import PatchSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Final

FIRST_LINE_ERROR: Final = f"The first line of the patch must be '{C.BEGIN_PATCH}'"
LAST_LINE_ERROR: Final = f"The last line of the patch must be '{C.END_PATCH}'"
EMPTY_ENVIRONMENT: Final = "apply_patch environment_id cannot be empty"

# <<EOF   <<'EOF'   <<"PATCH"   <<-EOF   << 'END'  (quotes must match)
HEREDOC_START: Final = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
# ```   ```diff   ~~~patch
FENCE_START: Final = re.compile(r"(`{3,}|~{3,})[\w.+-]*")

_MARKERS_IN_UPDATE: Final = (*C.FILE_HEADERS, C.MOVE_TO, C.CHUNK_HEADER_WITH_CONTEXT)
_EXACT_MARKERS_IN_UPDATE: Final = (C.END_OF_FILE, C.CHUNK_HEADER)
_ENVIRONMENT_ID: Final = C.ENVIRONMENT_ID.rstrip()
_BEGIN: Final = C.BEGIN_PATCH + "\n"
_END: Final = "\n" + C.END_PATCH
_MARKER_START: Final = ("*", "@")
# A line (after the first) whose first non-blank character may start a marker.
_MAYBE_MARKER: Final = re.compile(rf"\n[{re.escape(C.WHITESPACE.replace(chr(10), ''))}]*[*@]")


class Unwrapped:
    """The canonical text for the grammar, and the original lines for messages.

    `raw` is the patch without its wrappers, line for line with `text`.
    `text_after_end` is set when something other than blank lines and more
    `*** End Patch` follows the first `*** End Patch`: an error, reported only
    if the patch before it parses (the reference reports the first error).
    """

    __slots__ = ("text", "raw", "text_after_end")

    def __init__(self, text: str, raw: str, text_after_end: bool = False) -> None:
        self.text = text
        self.raw = raw
        self.text_after_end = text_after_end

    @property
    def raw_lines(self) -> list[str]:
        """The lines of `raw` (computed: only error messages need them)."""
        return self.raw.split("\n")


def unwrap(text: str) -> Unwrapped:
    """Normalise `text` to canonical lines; raise PatchSyntaxError on a bad envelope."""
    text = text.strip(C.WHITESPACE)
    _check_unicode(text)
    if "\r" in text:  # one `\r` off the end of every line (the last has none left)
        text = text.replace("\r\n", "\n")
    if _envelope_error(_first_and_last(text)) is not None:
        text = "\n".join(_strip_wrappers(text.split("\n") if text else []))
    canonical, text_after_end = _canonical(text)
    return Unwrapped(canonical, text, text_after_end)


def _check_unicode(text: str) -> None:
    """Refuse lone surrogates (a `str` from a library caller can hold them)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise PatchSyntaxError(
            f"The patch is not valid Unicode text: U+{ord(text[exc.start]):04X} is a lone surrogate",
            line=line,
        ) from None


def _first_and_last(text: str) -> list[str]:
    """The first and last lines of `text` (what the envelope check looks at)."""
    if not text:
        return []
    newline = text.find("\n")
    return [text if newline < 0 else text[:newline], text[text.rfind("\n") + 1 :]]


def _envelope_error(lines: list[str]) -> str | None:
    if lines and lines[0].strip(C.WHITESPACE) != C.BEGIN_PATCH:
        return FIRST_LINE_ERROR
    if not lines or lines[-1].strip(C.WHITESPACE) != C.END_PATCH:
        return LAST_LINE_ERROR
    return None


def _strip_wrappers(lines: list[str]) -> list[str]:
    """Peel a fence and/or heredoc wrapper; the innermost recognised error wins."""
    error = _envelope_error(lines)
    for _ in range(2):  # a fence around a heredoc, or the reverse
        if error is None:
            return lines
        inner = _inside_fence(lines) or _inside_heredoc(lines)
        if inner is None:
            break
        lines, error = inner, _envelope_error(inner)
    if error is None:
        return lines
    raise PatchSyntaxError(error)


def _inside_heredoc(lines: list[str]) -> list[str] | None:
    if len(lines) < 4:
        return None
    start = HEREDOC_START.fullmatch(lines[0].strip(C.WHITESPACE))
    if start is None:
        return None
    strip_tabs, delimiter = start.group(1) == "-", start.group(3)
    body = [line.lstrip("\t") for line in lines[1:]] if strip_tabs else lines[1:]
    if not body[-1].rstrip(C.WHITESPACE).endswith(delimiter):
        return None
    return body[:-1]


def _inside_fence(lines: list[str]) -> list[str] | None:
    if len(lines) < 3:
        return None
    start = FENCE_START.fullmatch(lines[0].strip(C.WHITESPACE))
    if start is None:
        return None
    fence = start.group(1)
    end = lines[-1].strip(C.WHITESPACE)
    if len(end) < len(fence) or end != fence[0] * len(end):
        return None
    return lines[1:-1]


def _canonical(text: str) -> tuple[str, bool]:
    """`text` with its marker lines in their canonical spelling, each line ending with LF.

    `text` starts with a `*** Begin Patch` line and ends with an `*** End Patch`
    line (give or take whitespace); they become exactly those. Other lines stay
    as they are, but for markers (see the module docstring). Also returns
    whether anything but blank lines and `*** End Patch` follows the first
    `*** End Patch` (the canonical text stops there).
    """
    first_end, last_start = text.index("\n"), text.rindex("\n") + 1
    pieces = [C.BEGIN_PATCH]
    copied = first_end  # text[copied:] is what is left to copy
    in_update = False
    for start in _maybe_markers(text, first_end, last_start - 1):
        end = text.index("\n", start)
        raw = text[start:end]
        if in_update and not raw.startswith(_MARKER_START):
            continue  # inside an Update, only trailing whitespace is forgiven
        marker = raw.rstrip(C.WHITESPACE) if in_update else raw.strip(C.WHITESPACE)
        if marker == C.END_PATCH:
            text_after_end = any(
                line.strip(C.WHITESPACE) not in ("", C.END_PATCH)
                for line in text[end + 1 :].split("\n")
            )
            pieces += (text[copied:start], C.END_PATCH, "\n")
            return "".join(pieces), text_after_end
        canonical = raw
        if marker.startswith(C.FILE_HEADERS):
            in_update = marker.startswith(C.UPDATE_FILE)
            canonical = marker
        elif in_update and (
            marker.startswith(_MARKERS_IN_UPDATE) or marker in _EXACT_MARKERS_IN_UPDATE
        ):
            canonical = marker
        elif not in_update and marker.startswith(_ENVIRONMENT_ID):
            value = marker[len(_ENVIRONMENT_ID) :].strip(C.WHITESPACE)
            if start == first_end + 1 and not value:  # here, to come before later errors
                raise PatchSyntaxError(EMPTY_ENVIRONMENT)
            canonical = C.ENVIRONMENT_ID + value
        if canonical != raw:
            pieces += (text[copied:start], canonical)
            copied = end
    if len(pieces) == 1 and text.startswith(_BEGIN) and text.endswith(_END):
        return text + "\n", False  # already canonical: one copy of a text that may be large
    pieces += (text[copied:last_start], C.END_PATCH, "\n")
    return "".join(pieces), False


def _maybe_markers(text: str, start: int, end: int) -> Iterator[int]:
    """Where the lines that may be markers start, between `start` (an LF) and `end`."""
    if end - start < 256 * (text.count("\n", start, end) + 1):
        for candidate in _MAYBE_MARKER.finditer(text, start, end):
            yield candidate.start() + 1
        return
    newline = start  # long lines: the expression would read them all; str.find skips them
    while newline >= 0:
        if _MAYBE_MARKER.match(text, newline, end):
            yield newline + 1
        newline = text.find("\n", newline + 1, end)
