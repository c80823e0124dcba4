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
"""

import re
from dataclasses import dataclass
from typing import Final

from . import _constants as C
from ._errors import PatchSyntaxError

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


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """The canonical text for the grammar, and the original lines for messages.

    `text_after_end` is set when something other than blank lines and more
    `*** End Patch` follows the first `*** End Patch`: an error, reported only
    if the patch before it parses (the reference reports the first error).
    """

    text: str
    raw_lines: tuple[str, ...]
    text_after_end: bool = False


def unwrap(text: str) -> Unwrapped:
    """Normalise `text` to canonical lines; raise PatchSyntaxError on a bad envelope."""
    text = text.strip(C.WHITESPACE)
    _check_unicode(text)
    lines = _strip_wrappers(_split(text))
    canonical, text_after_end = _canonical(lines)
    return Unwrapped("".join(line + "\n" for line in canonical), tuple(lines), text_after_end)


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


def _split(text: str) -> list[str]:
    if not text:
        return []
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


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


def _canonical(lines: list[str]) -> tuple[list[str], bool]:
    """Rewrite marker lines to their canonical spelling; other lines stay as they are.

    `lines` starts with `*** Begin Patch` and ends with `*** End Patch`. Returns
    the canonical lines up to the first `*** End Patch`, and whether anything
    but blank lines and `*** End Patch` follows it.
    """
    out = [C.BEGIN_PATCH]
    in_update = False
    last = len(lines) - 1
    for number in range(1, last):
        raw = lines[number]
        marker = raw.rstrip(C.WHITESPACE) if in_update else raw.strip(C.WHITESPACE)
        if marker == C.END_PATCH:
            out.append(C.END_PATCH)
            return out, any(
                line.strip(C.WHITESPACE) not in ("", C.END_PATCH) for line in lines[number + 1 :]
            )
        if marker.startswith(C.FILE_HEADERS):
            in_update = marker.startswith(C.UPDATE_FILE)
            out.append(marker)
        elif in_update and (
            marker.startswith(_MARKERS_IN_UPDATE) or marker in _EXACT_MARKERS_IN_UPDATE
        ):
            out.append(marker)
        elif not in_update and marker.startswith(_ENVIRONMENT_ID):
            value = marker[len(_ENVIRONMENT_ID) :].strip(C.WHITESPACE)
            if number == 1 and not value:  # checked here, so that it comes before later errors
                raise PatchSyntaxError(EMPTY_ENVIRONMENT)
            out.append(C.ENVIRONMENT_ID + value)
        else:
            out.append(raw)
    out.append(C.END_PATCH)
    return out, False
