"""Hashline, the whole format in one module: the view's rows, the edit's reader into the
model, its detection, its refusals and their wording (pure).

The dialect is oh-my-pi's per-line one (April-May 2026): a view prints each line as
`LINE#ID:TEXT`, where ID is two letters of `ZPMQVRWSNKTXJBYH` naming the low byte of
xxHash32 of the line (its CR and trailing white space dropped; seeded with the line
number when the line holds no letter or digit, else 0). An edit names lines by their
anchors (`LINE#ID`) instead of copying their text:

    {"path": "app.py", "edits": [
        {"loc": {"range": {"pos": "5#QX", "end": "7#ZP"}}, "content": ["new", "lines"]},
        {"loc": {"append": "9#MM"}, "content": ["after line 9"]},
        {"loc": {"prepend": "1#KT"}, "content": "before line 1"},
        {"loc": "append", "content": ["at the end"]},
        {"loc": {"range": {"pos": "12#VR", "end": "12#VR"}}, "content": null}]}

(`null` or `[]` content on a range deletes it; `"prepend"` alone is the top.) A list of
such objects edits several files. Every anchor of one object names a line of the file
as it was before any of its edits; each must hold its ID there now, else the edit is
refused, naming what the line holds now and its anchor (the ID is the stale check). An
ID found on another line is never taken for it: the edit is refused, not moved.

Accepted besides: an anchor copied with its row (`5#QX:text`, the text ignored), white
space around it. Refused, with what to send instead (`DIALECTS`): the first dialect's
`LINE:HASH` anchors (`5:a3`, Feb 2026), hexadecimal or longer IDs, and oh-my-pi's v4
text (`[PATH#TAG]` sections with SWAP/DEL/INS verbs, `¶PATH#TAG` headers): its 4-hex tag
names a whole-file snapshot kept by oh-my-pi's session store, which a stateless call
cannot check, so a stale file could not be told from a fresh one.
"""

from __future__ import annotations

import posixpath
import re
import struct
from dataclasses import dataclass

from .._errors import HashlineError, StaleAnchorError
from ._edits import Anchor, AnchoredEdit, HashlineEdits
from ._format import Format
from ._placeholders import introduced_placeholders

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from ._format import Names
    from ._model import UpdateFile

ALPHABET: Final = "ZPMQVRWSNKTXJBYH"  # an ID's letters: high nibble, low nibble
NAME: Final = "hashline"

# ------------------------------------------------------------------ the hash (xxHash32, its spec)

_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
_MASK = 0xFFFFFFFF


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & _MASK


def _round(acc: int, lane: int) -> int:
    return (_rotl((acc + lane * _P2) & _MASK, 13) * _P1) & _MASK


def xxh32(data: bytes, seed: int = 0) -> int:
    """xxHash32 of `data` (the algorithm as its specification states it; `seed` mod 2**32)."""
    seed &= _MASK
    size = len(data)
    words = struct.unpack_from(f"<{size // 4}I", data)  # the little-endian 32-bit words, at once
    stripes = size // 16
    if stripes:
        a, b, c, d = (seed + _P1 + _P2) & _MASK, (seed + _P2) & _MASK, seed, (seed - _P1) & _MASK
        for i in range(0, 4 * stripes, 4):
            a, b = _round(a, words[i]), _round(b, words[i + 1])
            c, d = _round(c, words[i + 2]), _round(d, words[i + 3])
        h = (_rotl(a, 1) + _rotl(b, 7) + _rotl(c, 12) + _rotl(d, 18)) & _MASK
    else:
        h = (seed + _P5) & _MASK
    h = (h + size) & _MASK
    for word in words[4 * stripes :]:
        h = (_rotl((h + word * _P3) & _MASK, 17) * _P4) & _MASK
    at = size - size % 4
    while at < size:
        h = (_rotl((h + data[at] * _P5) & _MASK, 11) * _P1) & _MASK
        at += 1
    h = ((h ^ (h >> 15)) * _P2) & _MASK
    h = ((h ^ (h >> 13)) * _P3) & _MASK
    return h ^ (h >> 16)


_SIGNIFICANT = re.compile(r"[^\W_]")  # a letter or a digit (Unicode), as `\p{L}\p{N}`


def line_id(number: int, text: str) -> str:
    """The two-letter ID of line `number` (from 1) holding `text` (without its ending)."""
    text = text.replace("\r", "").rstrip()
    seed = 0 if _SIGNIFICANT.search(text) else number
    low = xxh32(text.encode("utf-8", "surrogatepass"), seed) & 0xFF
    return ALPHABET[low >> 4] + ALPHABET[low & 0xF]


def anchor(number: int, text: str) -> str:
    """`LINE#ID` of line `number` holding `text`."""
    return f"{number}#{line_id(number, text)}"


def view_rows(lines: Sequence[str], first: int = 1) -> list[str]:
    """One row `LINE#ID:TEXT` a line, numbered from `first` (the lines without endings)."""
    return [f"{anchor(n, text)}:{text}" for n, text in enumerate(lines, first)]


# ------------------------------------------------------------------ the placing's record
# (The edit's records, `Anchor`, `AnchoredEdit` and `HashlineEdits`, are the model's: `_edits`.)


@dataclass(frozen=True, slots=True)
class Splice:
    """Lines `start`..`stop` (0-based, `stop` excluded; equal: an insertion point) replaced
    by `lines`; `number` is the edit's."""

    start: int
    stop: int
    lines: tuple[str, ...]
    number: int


# ------------------------------------------------------------------ refusals and their wording, as data

SEND: Final = (
    "send a JSON object {\"path\": ..., \"edits\": [{\"loc\": ..., \"content\": [...]}]} whose anchors are "
    "LINE#ID as `apply_patch view --hashline FILE` prints them (e.g. \"5#PM\")"
)
# Other dialects, each recognised by a pattern and refused with what to send instead.
DIALECTS: Final = (
    (
        re.compile(r"\s*\d+\s*:\s*[0-9a-fA-F]{2,8}\s*(\|.*)?"),
        "is the first Hashline dialect's LINE:HASH (Feb 2026), which is not read: "
        "use LINE#ID as view --hashline prints it (e.g. \"5#PM\")",
    ),
    (
        re.compile(r"\s*\d+\s*#\s*[0-9A-Za-z]+(:.*)?", re.S),
        "has an ID other than two letters of ZPMQVRWSNKTXJBYH (hexadecimal or longer IDs are "
        "other tools' hashes): copy the anchor as view --hashline prints it",
    ),
)
_V4: Final = re.compile(r"\s*(\[[^\]\n]+#[0-9a-f]{4}\]|¶\S.*#[0-9a-f]{4})\s*", re.M)
V4_REFUSED: Final = (
    "this is oh-my-pi's v4 Hashline text ([PATH#TAG] sections, SWAP/DEL/INS verbs), which is "
    "not read: its TAG names a snapshot of oh-my-pi's session store, so a stale file cannot be "
    "told from a fresh one here; instead, " + SEND
)
_ANCHOR: Final = re.compile(r"\s*(?:>>>\s*)?([1-9][0-9]*)\s*#\s*([" + ALPHABET + r"]{2})(?::.*)?\s*", re.S)
_ROW: Final = re.compile(r"[1-9][0-9]*#[" + ALPHABET + r"]{2}:")


def detect(text: str) -> bool:
    """Whether `text` is a Hashline edit (its JSON: an object with `edits`, or a list of
    them) or oh-my-pi's v4 text (to be refused in its own words)."""
    import json  # here: the model's types import this module on every other format's way (start-up)

    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped)
        except (ValueError, RecursionError):
            value = None
        calls = value if isinstance(value, list) else [value]
        if calls and all(isinstance(c, dict) and "edits" in c and "path" in c for c in calls):
            return True
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_V4.fullmatch(first))


# ------------------------------------------------------------------ the reader


def read_text(text: str) -> list[HashlineEdits]:
    """The calls a Hashline text holds (its JSON); HashlineError if it
    is not one (oh-my-pi's v4 text refused with what to send instead)."""
    import json  # as in `detect`

    stripped = text.lstrip()
    first = next((line for line in text.splitlines() if line.strip()), "")
    if _V4.fullmatch(first):
        raise HashlineError(V4_REFUSED)
    if stripped[:1] not in ("{", "["):
        raise HashlineError(f"the input is not JSON: {SEND}")
    try:
        value = json.loads(stripped)
    except ValueError as error:
        raise HashlineError(f"the input is not valid JSON ({error}): {SEND}") from None
    except RecursionError:  # the decoder's own depth limit: no edit is nested so deep
        raise HashlineError(f"the input is nested too deep: {SEND}") from None
    return read_calls(value)


def read_calls(value: object) -> list[HashlineEdits]:
    """The calls of one call's JSON value (`{"path", "edits"}`) or of a list of them."""
    calls = value if isinstance(value, list) else [value]
    if not calls:
        raise HashlineError(f"the list of calls is empty: {SEND}")
    read = [read_call(call) for call in calls]
    named: set[str] = set()
    for call in read:
        # Every anchor names the file as viewed: a second object of one file would name it
        # as the first left it, which its view never showed.
        key = posixpath.normpath(call.path)
        if key in named:
            error = HashlineError(f"{call.path} is named by two objects: put all its edits in one")
            error.path = call.path
            raise error
        named.add(key)
    return read


def read_call(call: object) -> HashlineEdits:
    """One call, `{"path": ..., "edits": [...]}`."""
    if not isinstance(call, dict):
        raise HashlineError(f"a call must be an object: {SEND}")
    unknown = sorted(set(call) - {"path", "edits"})
    if unknown:
        raise HashlineError(
            f"unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}: a call has "
            "'path' and 'edits' only (to delete or rename a file, use the apply_patch tool)"
        )
    path, edits = call.get("path"), call.get("edits")
    if not isinstance(path, str) or not path:
        raise HashlineError(f"'path' must be the file's path, relative to the root: {SEND}")
    if not isinstance(edits, list) or not edits:
        raise HashlineError(f"'edits' of {path} must be a non-empty list: {SEND}")
    try:
        read = tuple(read_edit(edit, number) for number, edit in enumerate(edits, 1))
    except HashlineError as error:
        error.path = path  # which call's edit, when a list holds several
        raise
    return HashlineEdits(path, read)


def read_edit(edit: object, number: int) -> AnchoredEdit:
    """Edit `number` of a call: `{"loc": ..., "content": ...}`."""
    if not isinstance(edit, dict) or set(edit) - {"loc", "content"} or "loc" not in edit:
        raise HashlineError("an edit is {\"loc\": ..., \"content\": [...]}", line=number)
    loc, lines = edit["loc"], _content(edit.get("content"), number)
    if loc in ("append", "prepend"):
        return AnchoredEdit(loc, None, None, lines, number)
    if isinstance(loc, dict) and len(loc) == 1:
        (kind, where), = loc.items()
        if kind in ("append", "prepend"):
            return AnchoredEdit(kind, parse_anchor(where, number), None, lines, number)
        if kind == "range" and isinstance(where, dict) and set(where) == {"pos", "end"}:
            pos, end = parse_anchor(where["pos"], number), parse_anchor(where["end"], number)
            if end.number < pos.number:
                raise HashlineError(f"the range ends (line {end.number}) before it starts (line {pos.number})", line=number)
            return AnchoredEdit("range", pos, end, lines, number)
    raise HashlineError(
        "loc must be \"append\", \"prepend\", {\"append\": ANCHOR}, {\"prepend\": ANCHOR} or "
        "{\"range\": {\"pos\": ANCHOR, \"end\": ANCHOR}}",
        line=number,
    )


def parse_anchor(written: object, number: int) -> Anchor:
    """`LINE#ID` (a row copied whole, `LINE#ID:TEXT`, too) → its anchor; another dialect's
    anchor refused with what to send instead."""
    if not isinstance(written, str):
        raise HashlineError(f"an anchor is a string LINE#ID (e.g. \"5#PM\"), not {written!r}", line=number)
    matched = _ANCHOR.fullmatch(written)
    if matched:
        return Anchor(int(matched[1]), matched[2])
    if re.fullmatch(r"\s*0+\s*#.*", written, re.S):
        raise HashlineError(f"the anchor {written!r} names line 0: lines are numbered from 1", line=number)
    for pattern, why in DIALECTS:
        if pattern.fullmatch(written):
            raise HashlineError(f"the anchor {written!r} {why}", line=number)
    raise HashlineError(f"{written!r} is not an anchor: an anchor is LINE#ID (e.g. \"5#PM\")", line=number)


def _content(content: object, number: int) -> tuple[str, ...]:
    """The lines an edit writes: a list of lines, or one text (a final line break
    dropped), or null (none)."""
    if content is None:
        return ()
    if isinstance(content, str):
        text = content[:-1] if content.endswith("\n") else content
        lines = text.replace("\r\n", "\n").split("\n") if content else []
    elif isinstance(content, list) and all(isinstance(line, str) for line in content):
        lines = content
        if any("\n" in line or "\r" in line for line in lines):
            raise HashlineError("each item of content is one line, without a line break", line=number)
    else:
        raise HashlineError("content is a list of lines, one text, or null", line=number)
    if lines and all(_ROW.match(line) for line in lines if line):
        raise HashlineError(
            "every line of content starts with an anchor (LINE#ID:): send the lines' text alone", line=number
        )
    return tuple(lines)


def read(text: str, names: Names | None = None) -> list[UpdateFile]:
    """The registry's reader: each call of `read_text`, an update of its file."""
    from ._model import UpdateFile

    return [UpdateFile(call.path, None, (call,)) for call in read_text(text)]


FORMAT: Final = Format("hashline", "Hashline edit", "a Hashline edit", whole=detect, read=read)


# ------------------------------------------------------------------ placing the edits (the stale check)


def placed(lines: Sequence[str], edits: HashlineEdits, path: str) -> list[Splice]:
    """Where each edit of `edits` goes in the file of `lines` (without endings), in file
    order; StaleAnchorError when an anchor's line does not hold its ID now (every such
    anchor named, with the line as it is now), HashlineError when edits overlap or one
    would change nothing.

    An ID is only ever checked at its own line: one that another line holds is said in
    the message, never followed (the edit is refused, not moved)."""
    stale: list[str] = []
    first: tuple[int, Anchor] | None = None
    for edit in edits.edits:
        for mark in (edit.pos, edit.end):
            if mark is None or (mark.number <= len(lines) and line_id(mark.number, lines[mark.number - 1]) == mark.id):
                continue
            first = first or (edit.number, mark)
            row = _stale_row(lines, mark)
            if row not in stale:
                stale.append(row)
    if first is not None:
        number, mark = first
        raise StaleAnchorError(
            f"The anchor {mark.number}#{mark.id} of edit {number} is stale: {path} changed since it was viewed",
            path=path,
            patch_line=number,
            details=tuple(stale),
            hints=("Nothing was changed. View the file again (view --hashline) and send the edits with its anchors.",),
        )
    splices = sorted((_splice(lines, edit, path) for edit in edits.edits), key=lambda s: (s.start, s.stop > s.start))
    for before, after in zip(splices, splices[1:]):
        if after.start < before.stop:  # it starts inside the range before it
            raise _refused(
                f"edits {before.number} and {after.number} of {path} change the same lines: make them one edit",
                after.number,
                path,
            )
    return splices


def _refused(message: str, number: int, path: str) -> HashlineError:
    """The refusal of edit `number` of the file `path` (named, relative to the root)."""
    error = HashlineError(message, line=number)
    error.path = path
    return error


def _stale_row(lines: Sequence[str], mark: Anchor) -> str:
    """What the line an anchor names holds now, and where its ID is, if anywhere near."""
    if mark.number > len(lines):
        return f"{mark.number}#{mark.id}: line {mark.number} does not exist (the file has {len(lines)} lines)"
    now = lines[mark.number - 1]
    row = f"{mark.number}#{mark.id}: line {mark.number} now holds {now!r}, anchor {anchor(mark.number, now)}"
    near = [
        n for n in range(max(1, mark.number - 20), min(len(lines), mark.number + 20) + 1)
        if n != mark.number and line_id(n, lines[n - 1]) == mark.id
    ]
    if near:
        row += f" (the ID {mark.id} is that of line {near[0]}, but an anchor is never moved to another line)"
    return row


def _splice(lines: Sequence[str], edit: AnchoredEdit, path: str) -> Splice:
    """The splice `edit` makes (its anchors checked); a range replaced by its own lines refused."""
    if edit.kind == "range":
        assert edit.pos is not None and edit.end is not None  # the reader's rule
        start, stop = edit.pos.number - 1, edit.end.number
        if tuple(lines[start:stop]) == edit.lines:
            raise _refused(
                f"the content is the lines it replaces in {path}: nothing would change. Send the lines "
                "the file should have there instead (or no edit if it already has them)",
                edit.number,
                path,
            )
        _refuse_placeholders(edit, lines[start:stop], path)
        return Splice(start, stop, edit.lines, edit.number)
    _refuse_placeholders(edit, (), path)
    if not edit.lines:
        raise _refused(f"the {edit.kind} to {path} has no content: nothing would be inserted", edit.number, path)
    if edit.pos is None:
        at = len(lines) if edit.kind == "append" else 0
    else:
        at = edit.pos.number if edit.kind == "append" else edit.pos.number - 1
    return Splice(at, at, edit.lines, edit.number)


def _refuse_placeholders(edit: AnchoredEdit, old: Sequence[str], path: str) -> None:
    """An edit writing an omission placeholder (`// ... existing code ...`) the lines it
    replaces do not hold is refused: written as is, the file would lose that code."""
    introduced = introduced_placeholders("\n".join(edit.lines), "\n".join(old))
    if introduced:
        raise _refused(
            f"the content holds an omission placeholder ({introduced[0]!r}) that the lines it replaces in "
            f"{path} do not: written as is, the file would lose the code it stands for. Send every line written out",
            edit.number,
            path,
        )
