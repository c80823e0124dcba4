"""A file's text as the locator works on it: decoded in one step, encoded in one step (pure).

`decode` is the only place that looks at a decoded file's line breaks, final newline and
byte-order mark and decides what the edits see; `encode` is the only place that applies
the policy on them (`line_endings`, `final_newline`, `bom`) to the edited text. Between
the two, every edit keeps the facts found at decode (`Decoded`): a new line takes the
file's line break as it was read, whatever an earlier edit of the same call did to the
lines around it, so the same edits give the same bytes whichever representation of the
text (`LfText` or `TextFile`) they were made on. An `LfText` is held as a str, as the
file's UTF-8 bytes, or both (a unified diff's hunks are spliced in the bytes of a file
never decoded: memory).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ._endings import forced_ending
from ._textfile import BOM, TextFile, split_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..._policy import Policy
    from ._doubts import PatchWarning
    from ._placement import Placement


_UTF8_BOM: Final = BOM.encode()


@dataclass(frozen=True, slots=True, eq=False)
class LfText:
    """A file's text whose every line ends with LF (the last one may end with nothing),
    BOM aside: matched and replaced as one string, never split into lines.

    The text is held as a str (`string`), as its UTF-8 bytes (`utf8`), or both: the
    bytes of an ASCII file as read, or those a unified diff's hunks were spliced in
    (`_numbered`), are decoded only when an edit first reads `body` (a large file whose
    hunks are where their numbers say is never decoded: memory). Bytes that a file read
    with `non_utf8="preserve"` cannot decode are held as the planner decodes them, as
    lone surrogates (`surrogateescape`). Compared by what it writes (`encode`), not as a
    record (eq=False): one text may be held either way."""

    string: str | None
    bom: bool
    known: tuple[int, int] = (0, 0)  # a line start's offset and its line index (counting from there)
    utf8: bytes | None = None

    @property
    def body(self) -> str:
        """The text as a str, decoded from `utf8` on first use and kept."""
        string = self.string
        if string is None:
            assert self.utf8 is not None  # one of the two is always held
            string = self.utf8.decode("utf-8", "surrogateescape")
            object.__setattr__(self, "string", string)  # (a cache of the same text: the record stays what it was)
        return string

    def split(self) -> TextFile:
        """The same file as lines."""
        if not self.body:
            return TextFile([], [], self.bom)
        lines = self.body.split("\n")
        endings = ["\n"] * (len(lines) - 1)
        if lines[-1]:
            endings.append("")
        else:
            lines.pop()
        return TextFile(lines, endings, self.bom)


@dataclass(frozen=True, slots=True)
class Decoded:
    """A file's text between `decode` and `encode`: its body as the edits see it and what was
    found in the file when it was read.

    `body` is one string (`LfText`) or the file's lines (`TextFile`); `ending` is the line
    break a new line takes in the body (LF in an `LfText`, else the file's first line's,
    LF if none); `crlf` says the body's LF stand for the file's CRLF (every break of the
    file was CRLF: it is edited as LF and written with CRLF again); `bom` and
    `final_newline` say whether the file, as read, had them. The edits change `body`
    only; the policy is applied to the rest by `encode`."""

    body: LfText | TextFile
    ending: str = "\n"
    crlf: bool = False
    bom: bool = False
    final_newline: bool = True

    def with_body(self, body: LfText | TextFile) -> Decoded:
        """The same file with an edited `body`."""
        return replace(self, body=body)

    def lines(self) -> TextFile:
        """The body as lines (an `LfText` split; its endings stay LF when `crlf`)."""
        return self.body if isinstance(self.body, TextFile) else self.body.split()

    def joined(self) -> Decoded:
        """The same file as one string again when the edits made every line of its body end
        with LF (but maybe the last) and a new line takes LF; else itself."""
        body = self.body
        if isinstance(body, LfText) or self.ending != "\n":
            return self
        endings = body.endings
        lf = endings.count("\n")
        if lf == len(endings) or (lf == len(endings) - 1 and not endings[-1]):
            return replace(self, body=LfText(body.to_text(bom=False), body.bom))
        return self


@dataclass(frozen=True, slots=True)
class Edited:
    """A file's new text, where each edit (or chunk) landed, and the doubts."""

    text: Decoded
    placements: tuple[Placement, ...]
    warnings: tuple[PatchWarning, ...] = ()


def decode(decoded: bytes | str | TextFile, utf8: bytes | None = None) -> Decoded:
    """The one step from a decoded file to the text the edits work on.

    A string is one `LfText` if it has no CR, or if every line break is CRLF (then edited
    as LF, `crlf`); else its lines, each with its own ending. `utf8`, the bytes a string
    was decoded from as UTF-8, is kept beside it in an `LfText` without CR or BOM (a
    unified diff's hunks are spliced in them: `_numbered`). Bytes are a file's UTF-8,
    checked already (the planner gives an ASCII file so): one `LfText` holding them,
    decoded when first read as a str, if they have no CR and no BOM; else decoded now, as
    a string. Lines (`TextFile`, a file in another encoding or read line by line) are
    taken as they are."""
    if isinstance(decoded, TextFile):
        return Decoded(decoded, decoded.preferred_ending, False, decoded.bom, decoded.has_final_newline)
    if isinstance(decoded, bytes):
        if b"\r" in decoded or decoded.startswith(_UTF8_BOM):
            return decode(decoded.decode("utf-8", "surrogateescape"))
        return Decoded(LfText(None, False, utf8=decoded), "\n", False, False, not decoded or decoded.endswith(b"\n"))
    bom = decoded.startswith(BOM)
    body = decoded[1:] if bom else decoded
    final = not body or body.endswith("\n") or body.endswith("\r")
    if "\r" not in body:
        return Decoded(LfText(body, bom, utf8=None if bom else utf8), "\n", False, bom, final)
    if body.count("\r\n") == body.count("\r") == body.count("\n"):
        return Decoded(LfText(body.replace("\r\n", "\n"), bom), "\n", True, bom, final)
    lines = split_text(decoded)
    return Decoded(lines, lines.preferred_ending, False, bom, final)


def as_lines(text: Decoded) -> Decoded:
    """`text` with its body as lines, each with the file's own ending (a `crlf` body's LF
    made CRLF again): what a chunk's explicit line endings are written into."""
    if isinstance(text.body, TextFile) and not text.crlf:
        return text
    lines = text.lines()
    if text.crlf:
        lines = TextFile(lines.lines, ["\r\n" if e else e for e in lines.endings], lines.bom)
    return replace(text, body=lines, ending="\r\n" if text.crlf else text.ending, crlf=False)


def finished(text: Decoded, policy: Policy) -> Decoded:
    """`text` after an edit of the other formats (a replacement, an insertion, Hashline's):
    with `final_newline="add"`, a last line left without a line break gets the file's.
    Applied after each edit, so that the edits of one call give what they give one call
    at a time; a chunk decides its own (`_splice.splice`: a diff's `\\ No newline at end
    of file` wins over the policy)."""
    body = text.body
    if policy.final_newline != "add":
        return text
    if isinstance(body, LfText):
        if not body.body or body.body.endswith("\n"):
            return text
        return replace(text, body=LfText(body.body + "\n", body.bom, body.known))
    if not body.endings or body.endings[-1]:
        return text
    return replace(text, body=TextFile(body.lines, [*body.endings[:-1], text.ending], body.bom))


def encode(text: Decoded, policy: Policy) -> str | bytes:
    """The one step from the edited text to what is written, under the policy:
    `line_endings` (`keep`: the file's, CRLF again for a `crlf` body; `lf`, `crlf`: every
    break) and `bom` (`keep`: in front if the file had it; `strip`: never). A text held as
    UTF-8 bytes (`LfText.utf8`) gives the file's bytes (its encoding is UTF-8), any other a
    string to encode. (The final newline is the edits' own: `finished`.)"""
    forced = forced_ending(policy)
    keep_bom = text.bom and policy.bom == "keep"
    body = text.body
    if isinstance(body, LfText):
        crlf = forced == "\r\n" or (forced is None and text.crlf)
        if body.utf8 is not None:
            data = body.utf8.replace(b"\n", b"\r\n") if crlf else body.utf8
            return _UTF8_BOM + data if keep_bom else data
        string = body.body.replace("\n", "\r\n") if crlf else body.body
        return BOM + string if keep_bom else string
    endings = body.endings
    if forced is not None or text.crlf:
        endings = [(forced or "\r\n") if e else e for e in endings]
    return (BOM if keep_bom else "") + TextFile(body.lines, list(endings)).to_text(bom=False)
