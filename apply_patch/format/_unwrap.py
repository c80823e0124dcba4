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
- after the first `*** End Patch`, only blank lines and more `*** End Patch`;
- *ours*, each with a note for the caller to pass on as a warning: a JSON
  string holding the patch, or a JSON object with one text field; the shell
  form of a call (`apply_patch <<'EOF' ... EOF`, `cd DIR && apply_patch <<'EOF'
  ... EOF`, either inside `bash -lc '...'`), by the strict classifier's rules
  (`_invocation.shell_form`, imported only when the text starts like a
  shell command); its `cd` becomes the working folder.

Line 1 of the result is the `*** Begin Patch` line; wrapper lines are not
counted, so error line numbers match the reference's.

The text is handled whole where it can be: only the lines that may be markers
(their first non-blank character is `*` or `@`, found by one regular
expression) are looked at one by one, so a large patch costs a few passes of C.
"""

from __future__ import annotations

import re

from . import _constants as C
from ._constants import EMPTY_ENVIRONMENT, FIRST_LINE_ERROR, LAST_LINE_ERROR
from .._errors import BareSyntaxError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Final

__all__ = ["EMPTY_ENVIRONMENT", "FIRST_LINE_ERROR", "LAST_LINE_ERROR", "BareSyntaxError", "Unwrapped", "unwrap"]

# The wrappers' patterns are compiled when a wrapped patch first needs them (`re`
# caches them), not at import: most patches have no wrapper (start-up time).
# <<EOF   <<'EOF'   <<"PATCH"   <<-EOF   << 'END'  (quotes must match)
HEREDOC_START: Final = r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2"
# ```   ```diff   ~~~patch
FENCE_START: Final = r"(`{3,}|~{3,})[\w.+-]*"

_MARKERS_IN_UPDATE: Final = (*C.FILE_HEADERS, C.MOVE_TO, C.CHUNK_HEADER_WITH_CONTEXT)
_EXACT_MARKERS_IN_UPDATE: Final = (C.END_OF_FILE, C.CHUNK_HEADER)
_ENVIRONMENT_ID: Final = C.ENVIRONMENT_ID.rstrip()
_BEGIN: Final = C.BEGIN_PATCH + "\n"
_END: Final = "\n" + C.END_PATCH
_MARKER_START: Final = ("*", "@")
# A line (after the first) whose first non-blank character may start a marker. `\s`
# is C.WHITESPACE and a few more (U+001C..U+001F), which `_canonical` then leaves
# as they are; a class of C.WHITESPACE itself takes three times as long to compile.
_MAYBE_MARKER: Final = re.compile(r"\n[^\S\n]*[*@]")


class Unwrapped:
    """The canonical text for the grammar, and the original lines for messages.

    `raw` is the patch without its wrappers, line for line with `text`.
    `text_after_end` is set when something other than blank lines and more
    `*** End Patch` follows the first `*** End Patch`: an error, reported only
    if the patch before it parses (the reference reports the first error).
    `origin` is the text the patch lines are counted in (the input, or the
    patch decoded from JSON or taken out of a shell command); `workdir` the
    folder of a shell form's `cd` (None: none); `notes` say what was decoded.
    """

    __slots__ = ("text", "raw", "text_after_end", "origin", "workdir", "notes")

    def __init__(
        self,
        text: str,
        raw: str,
        text_after_end: bool = False,
        origin: str = "",
        workdir: str | None = None,
        notes: tuple[str, ...] = (),
    ) -> None:
        self.text = text
        self.raw = raw
        self.text_after_end = text_after_end
        self.origin = origin
        self.workdir = workdir
        self.notes = notes

    @property
    def raw_lines(self) -> list[str]:
        """The lines of `raw` (computed: only error messages need them)."""
        return self.raw.split("\n")


def unwrap(text: str, *, decode: bool = False, reference: bool = False) -> Unwrapped:
    """Normalise `text` to canonical lines; raise a `BareSyntaxError` PatchSyntaxError on a bad envelope.

    With `decode`, JSON and the shell form are accepted too (see above). An
    error in a patch decoded from JSON or taken out of a shell command is
    raised complete (`with_facts`, counted in that patch), not bare. With
    `reference`, the only wrapper read is the reference's heredoc: a first line
    that is exactly `<<EOF`, `<<'EOF'` or `<<"EOF"`, a last line that ends with
    `EOF`, four lines at least.
    """
    origin = text
    text = text.strip(C.WHITESPACE)
    check_unicode(text)
    if "\r" in text:  # one `\r` off the end of every line (the last has none left)
        text = text.replace("\r\n", "\n")
    if _envelope_error(_first_and_last(text)) is not None:
        inner = _decoded(text) if decode else None
        if inner is not None:
            return _unwrap_inner(*inner)
        text = "\n".join(_strip_wrappers(text.split("\n") if text else [], reference))
    canonical, text_after_end = _canonical(text)
    return Unwrapped(canonical, text, text_after_end, origin)


def _unwrap_inner(text: str, workdir: str | None, note: str) -> Unwrapped:
    """The patch found inside JSON or a shell command, unwrapped in turn."""
    try:
        inner = unwrap(text, decode=True)
    except BareSyntaxError as bare:
        from ._syntax_hints import with_facts  # failures only: start-up time

        raise with_facts(text, bare) from None
    folder = inner.workdir if workdir is None else workdir
    return Unwrapped(
        inner.text, inner.raw, inner.text_after_end, inner.origin, folder, (note, *inner.notes)
    )


def _decoded(text: str) -> tuple[str, str | None, str] | None:
    """(patch text, working folder, note) when `text` is JSON or a shell form holding a patch."""
    if len(text) > 1 and (text[0], text[-1]) in (('"', '"'), ("{", "}")):
        return _from_json(text)
    from ._syntax_hints import looks_like_shell  # an envelope error: rarely on the way

    if looks_like_shell(text):
        from ._invocation import shell_form  # tree-sitter: only for shell-like text

        found = shell_form(text)
        if found is not None:
            patch, folder = found
            where = "" if folder is None else f", from the folder '{folder}' (the command's cd)"
            note = (
                "the input was a shell command running apply_patch with a heredoc; "
                f"the patch in the heredoc was used{where}."
            )
            return patch, folder, note
    return None


def _from_json(text: str) -> tuple[str, None, str] | None:
    """A JSON string, or an object with exactly one text field, holding a patch."""
    import json  # only for text that starts and ends like JSON

    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes
        return None
    if isinstance(value, str) and C.BEGIN_PATCH in value:
        return value, None, "the input was a JSON string; the patch was decoded from it."
    if isinstance(value, dict):
        texts = [(key, v) for key, v in value.items() if isinstance(v, str)]
        if len(texts) == 1 and C.BEGIN_PATCH in texts[0][1]:
            key, patch = texts[0]
            return patch, None, f'the input was a JSON object; the patch was taken from its "{key}" field.'
    return None


def check_unicode(text: str, subject: str = "The patch") -> None:
    """Refuse lone surrogates (a `str` from a library caller can hold them); `subject` names `text`."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise BareSyntaxError(
            f"{subject} is not valid Unicode text: U+{ord(text[exc.start]):04X} is a lone surrogate",
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


def _strip_wrappers(lines: list[str], reference: bool = False) -> list[str]:
    """Peel a fence and/or heredoc wrapper (`reference`: the reference's heredoc only); the
    innermost recognised error wins."""
    error = _envelope_error(lines)
    for _ in range(1 if reference else 2):  # a fence around a heredoc, or the reverse
        if error is None:
            return lines
        inner = _inside_reference_heredoc(lines) if reference else _inside_fence(lines) or _inside_heredoc(lines)
        if inner is None:
            break
        lines, error = inner, _envelope_error(inner)
    if error is None:
        return lines
    raise BareSyntaxError(error)


_REFERENCE_HEREDOCS: Final = ("<<EOF", "<<'EOF'", '<<"EOF"')


def _inside_reference_heredoc(lines: list[str]) -> list[str] | None:
    """The lines inside the reference's heredoc (its rule, `xEOF` as the last line included)."""
    if len(lines) < 4 or lines[0] not in _REFERENCE_HEREDOCS or not lines[-1].endswith("EOF"):
        return None
    return lines[1:-1]


def _inside_heredoc(lines: list[str]) -> list[str] | None:
    if len(lines) < 4:
        return None
    start = re.fullmatch(HEREDOC_START, lines[0].strip(C.WHITESPACE))
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
    start = re.fullmatch(FENCE_START, lines[0].strip(C.WHITESPACE))
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
                raise BareSyntaxError(EMPTY_ENVIRONMENT)
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
