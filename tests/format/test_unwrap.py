"""`unwrap` works on the whole text; here is its definition line by line, to compare.

Random patches made of marker lines (with whitespace around them), change lines,
wrappers (heredoc, fence), CRLF, text after the end, and long lines (which take
another path through the text) must come out the same both ways: the same
canonical text, raw lines and text-after-end flag, or the same error.
"""

import random
import re

from apply_patch import PatchSyntaxError
from apply_patch.format import _constants as C
from apply_patch.format._unwrap import unwrap

MARKERS_IN_UPDATE = (*C.FILE_HEADERS, C.MOVE_TO, C.CHUNK_HEADER_WITH_CONTEXT)
EXACT_MARKERS_IN_UPDATE = (C.END_OF_FILE, C.CHUNK_HEADER)


# The wrappers, written here again (not imported: the reference must be able to
# disagree with the module): a heredoc (`<<EOF`, `<<'EOF'`, `<<-X`: tabs stripped)
# and a Markdown fence (three or more backticks or tildes, then a language).
_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")
_FENCE = re.compile(r"(`{3,}|~{3,})[A-Za-z0-9_.+-]*")


def _envelope_error(lines: list[str]) -> str | None:
    if lines and lines[0].strip(C.WHITESPACE) != "*** Begin Patch":
        return "The first line of the patch must be '*** Begin Patch'"
    if not lines or lines[-1].strip(C.WHITESPACE) != "*** End Patch":
        return "The last line of the patch must be '*** End Patch'"
    return None


def _inside_wrapper(lines: list[str]) -> list[str] | None:
    """The lines inside one heredoc or fence around all of `lines`, else None."""
    first = lines[0].strip(C.WHITESPACE) if lines else ""
    heredoc, fence = _HEREDOC.fullmatch(first), _FENCE.fullmatch(first)
    if heredoc and len(lines) >= 4:
        body = [line.lstrip("\t") for line in lines[1:]] if heredoc.group(1) else lines[1:]
        if body[-1].rstrip(C.WHITESPACE).endswith(heredoc.group(3)):
            return body[:-1]
    if fence and len(lines) >= 3:
        end, opening = lines[-1].strip(C.WHITESPACE), fence.group(1)
        if len(end) >= len(opening) and set(end) == {opening[0]}:
            return lines[1:-1]
    return None


def _without_wrappers(lines: list[str]) -> list[str]:
    """Peel up to two wrappers while the envelope is wrong; the innermost error wins."""
    for depth in range(3):
        error = _envelope_error(lines)
        if error is None:
            return lines
        inner = _inside_wrapper(lines) if depth < 2 else None
        if inner is None:
            raise PatchSyntaxError(error)
        lines = inner
    raise AssertionError("unreachable")


def _reference(text: str) -> tuple[str, list[str], bool]:
    """The canonical text, raw lines and text-after-end flag, one line at a time."""
    text = text.strip(C.WHITESPACE)
    lines = [line.removesuffix("\r") for line in text.split("\n")] if text else []
    lines = _without_wrappers(lines)
    out, in_update = [C.BEGIN_PATCH], False
    for number in range(1, len(lines) - 1):
        raw = lines[number]
        marker = raw.rstrip(C.WHITESPACE) if in_update else raw.strip(C.WHITESPACE)
        if marker == C.END_PATCH:
            after = any(line.strip(C.WHITESPACE) not in ("", C.END_PATCH) for line in lines[number + 1 :])
            out.append(C.END_PATCH)
            return "".join(line + "\n" for line in out), lines, after
        if marker.startswith(C.FILE_HEADERS):
            in_update = marker.startswith(C.UPDATE_FILE)
            out.append(marker)
        elif in_update and (
            marker.startswith(MARKERS_IN_UPDATE) or marker in EXACT_MARKERS_IN_UPDATE
        ):
            out.append(marker)
        elif not in_update and marker.startswith(C.ENVIRONMENT_ID.rstrip()):
            rest = marker[len(C.ENVIRONMENT_ID.rstrip()) :].strip(C.WHITESPACE)
            if number == 1 and not rest:
                raise PatchSyntaxError("apply_patch environment_id cannot be empty")
            out.append(C.ENVIRONMENT_ID + rest)
        else:
            out.append(raw)
    out.append(C.END_PATCH)
    return "".join(line + "\n" for line in out), lines, False


PIECES = [
    "*** Begin Patch", "*** End Patch", " *** End Patch ", "*** Update File: a",
    "*** Update File: a  ", "  *** Add File: b", "*** Delete File: c", "*** Move to: d ", "@@",
    "@@ ", "@@ ctx  ", " @@ x", "\t*** End of File", "*** End of File  ", "+x", "-y", " z", "",
    "  ", "\r", "*** Environment ID:  e1 ", "*** Environment ID:", "  *** Environment ID: x",
    "<<EOF", "EOF", "<<-'PATCH'", "\tPATCH", "```diff", "```", "~~~", "text", "*", "@", "** x",
    "\u2003*** End Patch", "*** End Patchx", "\x0b@@ a",
    "\x1c*** End Patch", "\x1f@@ b",  # \s, but not C.WHITESPACE: not markers
]


def _outcome(function: object, text: str) -> object:
    try:
        return function(text)  # type: ignore[operator]
    except PatchSyntaxError as error:
        return str(error)


def _unwrapped(text: str) -> tuple[str, list[str], bool]:
    result = unwrap(text)
    return result.text, result.raw_lines, result.text_after_end


def test_unwrap_is_its_line_by_line_definition() -> None:
    rng = random.Random(13)
    for number in range(20_000):
        long = number % 2 == 1  # long lines: unwrap skips from LF to LF instead
        lines = [
            rng.choice(PIECES) + (" " * 700 if long and rng.random() < 0.5 else "")
            for _ in range(rng.randint(0, 8))
        ]
        if rng.random() < 0.7:
            lines.insert(0, "*** Begin Patch")
        if rng.random() < 0.7:
            lines.append("*** End Patch")
        if rng.random() < 0.2:
            lines = [rng.choice(["<<EOF", "```", "<<-X"]), *lines, rng.choice(["EOF", "```", "\tX"])]
        text = rng.choice(["\n", "\r\n"]).join(lines) + rng.choice(["", "\n", " \n\n"])
        assert _outcome(_unwrapped, text) == _outcome(_reference, text), text
