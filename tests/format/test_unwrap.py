"""`unwrap` works on the whole text; here is its definition line by line, to compare.

Random patches made of marker lines (with whitespace around them), change lines,
wrappers (heredoc, fence), CRLF, text after the end, and long lines (which take
another path through the text) must come out the same both ways: the same
canonical text, raw lines and text-after-end flag, or the same error.
"""

import random

from apply_patch import PatchSyntaxError
from apply_patch.format import _constants as C
from apply_patch.format._unwrap import _strip_wrappers, unwrap

MARKERS_IN_UPDATE = (*C.FILE_HEADERS, C.MOVE_TO, C.CHUNK_HEADER_WITH_CONTEXT)
EXACT_MARKERS_IN_UPDATE = (C.END_OF_FILE, C.CHUNK_HEADER)


def _reference(text: str) -> tuple[str, list[str], bool]:
    """The canonical text, raw lines and text-after-end flag, one line at a time."""
    text = text.strip(C.WHITESPACE)
    lines = [line.removesuffix("\r") for line in text.split("\n")] if text else []
    lines = _strip_wrappers(lines)
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
