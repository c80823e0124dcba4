"""A file's encoding: which one, its bytes → text and back, untouched bytes kept (pure).

The encoding of a file that is edited comes, in this order, from: the option
(`encoding`, `--encoding NAME`); the repository's declaration (`.gitattributes`
`working-tree-encoding`, `.editorconfig` `charset`: `_conventions`); a
byte-order mark (UTF-8, UTF-16, UTF-32); UTF-8 if the bytes decode. The text is
matched and edited decoded, and written back in the same encoding, the
byte-order mark kept. A file whose bytes would not come back the same through
its encoding (a byte sequence two characters share) is refused before
anything is edited: every byte outside the edited lines stays as it was.

A file that is not UTF-8 and whose encoding is neither given nor declared is
read line by line: a line of ASCII bytes (below 0x80) is that text; any other
line stands as a mask no edit text can match (U+FFFD, its number in subscript
digits, U+FFFD: no ASCII in it), and comes back as its own bytes. In GBK, Shift-JIS or Big5 a line
with no byte above 0x7F holds no two-byte character, while a trail byte can look
like ASCII inside a line that has one: so an edit applies only when every line
it matches or replaces, and every line it writes, is ASCII; a masked line
changed, or a written line that is not ASCII, is refused, asking for the encoding.
"""

from __future__ import annotations

import codecs
import re

from dataclasses import dataclass
from ..._errors import EncodingError
from ..matching import TextFile, split_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._paths import Location

# Byte-order marks, longest first (UTF-32 LE starts with UTF-16 LE's).
_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_MARKS: Final = tuple(mark for mark, _ in _BOMS)
_MASK: Final = "\ufffd"  # around every masked line's number; never in an edit's text (not ASCII)
# The index of a masked line's bytes, in subscript digits: no character of a mask is ASCII,
# so no ASCII text can match a part of one.
_DIGITS: Final = str.maketrans("0123456789", "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089")
_UNDIGITS: Final = str.maketrans("\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089", "0123456789")
UNKNOWN: Final = ""  # the name of an encoding not known
_DETECTED: Final = 64 * 1024  # bytes of a file's non-ASCII lines a detector is shown, at most
ASK: Final = (
    "Give its encoding: --encoding NAME (in Python: encoding=\"NAME\"; gbk, shift_jis, big5, "
    "cp1252, latin-1...), or declare it in the repository (.gitattributes: "
    "working-tree-encoding=NAME; .editorconfig: charset)."
)


@dataclass(frozen=True, slots=True)
class Encoding:
    """How a file's text is stored: `name` the codec (`UNKNOWN`: not UTF-8, not known),
    `bom` the byte-order mark before the text (bytes, kept aside), `source` how it was
    chosen, for messages ("given: --encoding", "working-tree-encoding in .gitattributes:3", "a
    byte-order mark", ""), `lines` the bytes of each masked line of a file read line by
    line (unknown encoding), `sample` that file's first bytes."""

    name: str
    bom: bytes = b""
    source: str = ""
    lines: tuple[bytes, ...] = ()
    sample: bytes = b""  # an unknown encoding's file, its beginning: what a detector is shown

    @property
    def named(self) -> str:
        """The encoding as messages name it."""
        if self.name == UNKNOWN:
            return "an unknown encoding (not UTF-8)"
        return f"{self.name} ({self.source})" if self.source else self.name


UTF8: Final = Encoding("utf-8")


def bom_encoding(data: bytes) -> Encoding | None:
    """The encoding a byte-order mark at the start of `data` names, or None.
    (A UTF-8 mark is left to the UTF-8 path, which keeps it as the text's U+FEFF.)"""
    if not data.startswith(_MARKS):
        return None  # most files: no mark (one test, not five)
    for mark, name in _BOMS:
        if data.startswith(mark):
            return None if name == "utf-8" else Encoding(name, mark, "a byte-order mark")
    return None


def chosen(name: str, source: str, data: bytes) -> Encoding:
    """The encoding `name` (given or declared, from `source`) for `data`: a UTF-16 or UTF-32
    without an order takes it from the byte-order mark if there is one (else little-endian)."""
    canonical = codecs.lookup(name).name
    if canonical in ("utf-16", "utf-32"):
        for mark, bom_name in _BOMS:
            if bom_name.startswith(canonical) and data.startswith(mark):
                return Encoding(bom_name, mark, source)
        return Encoding(canonical + "-le", b"", source)
    for mark, bom_name in _BOMS:
        if bom_name == canonical and data.startswith(mark) and canonical != "utf-8":
            return Encoding(canonical, mark, source)
    return Encoding(canonical, b"", source)


def is_utf8(encoding: Encoding) -> bool:
    """Whether `encoding` is read and written as the UTF-8 path does (its BOM as U+FEFF)."""
    return encoding.name in ("utf-8", "utf-8-sig") and not encoding.bom


def decoded(data: bytes, encoding: Encoding, where: Location, line: int) -> TextFile:
    """`data` in the known `encoding` (not UTF-8) → its text; EncodingError, naming the
    encoding and where it was given or declared, for bytes it does not hold, bytes that
    would not come back the same, or bytes it would read as other characters than they
    plainly are (`_contradiction`)."""
    failure = f"Failed to read file to update {where.shown}"
    body = data[len(encoding.bom) :]
    contradiction = _contradiction(body, encoding)
    if contradiction:
        raise EncodingError(
            f"{failure}: its encoding is {encoding.named}, but {contradiction}: read so, "
            "its text would be other characters than it holds",
            path=where.relative,
            patch_line=line,
            encoding=encoding.name,
            hints=("Give the encoding the file really has (--encoding NAME), or correct the declaration.",),
        )
    try:
        text = body.decode(encoding.name)
    except UnicodeDecodeError as exc:
        raise EncodingError(
            f"{failure}: its encoding is {encoding.named}, but the bytes from offset "
            f"{exc.start + len(encoding.bom)} are not {encoding.name} text",
            path=where.relative,
            patch_line=line,
            encoding=encoding.name,
            hints=(ASK,),
        ) from None
    if text.encode(encoding.name, "surrogatepass") != body:
        at = _first_difference(text.encode(encoding.name, "surrogatepass"), body) + len(encoding.bom)
        raise EncodingError(
            f"{failure}: its bytes would not come back the same through {encoding.named} "
            f"(from offset {at}): editing it would change bytes outside the edit",
            path=where.relative,
            patch_line=line,
            encoding=encoding.name,
            hints=("Give the encoding the file really has: --encoding NAME.",),
        )
    return split_text(text)


def _contradiction(body: bytes, encoding: Encoding) -> str:
    """Why the bytes `body` (after any byte-order mark) are plainly not text in `encoding`,
    though they may decode: UTF-8 with multi-byte sequences, declared as a single-byte
    charset (which decodes every byte, each as another character); no NUL byte, declared
    as UTF-16 or UTF-32 without a byte-order mark, where text of that length would have one
    (every character below U+0100 has one: a line break, a space, a digit; every UTF-32
    one has). "" when nothing contradicts it."""
    if not body or body.isascii() and encoding.name not in _WIDE:
        return ""
    if encoding.name in _WIDE:
        if encoding.bom or b"\0" in body:
            return ""
        if encoding.name.startswith("utf-32") or len(body) >= _WIDE_WITH_NUL or _is_utf8(body):
            return f"its {len(body)} bytes have no NUL byte, which {encoding.name} text of that length would have"
        return ""
    if _single_byte(encoding.name) and _is_utf8(body):
        at = next(i for i, byte in enumerate(body) if byte >= 0x80) + len(encoding.bom)
        return f"its bytes are UTF-8 (a multi-byte sequence at offset {at})"
    return ""


_WIDE: Final = frozenset({"utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"})
# Bytes of UTF-16 text that hold a NUL byte but in a file of one line of characters
# from U+0100 up, none of the form U+xx00: no space, no line break, no digit, no Latin letter.
_WIDE_WITH_NUL: Final = 64


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _single_byte(name: str) -> bool:
    """Whether the codec `name` (canonical) reads each byte as one character: latin-1, and
    the charmap codecs (a `decoding_table` of 256 characters: cp1252, iso8859-15, koi8-r...)."""
    if name == "iso8859-1":
        return True
    import importlib

    module = codecs.lookup(name).incrementaldecoder.__module__
    try:
        table = getattr(importlib.import_module(module), "decoding_table", None)
    except ImportError:
        return False
    return isinstance(table, str) and len(table) == 256


def _first_difference(one: bytes, other: bytes) -> int:
    return next((i for i, (a, b) in enumerate(zip(one, other)) if a != b), min(len(one), len(other)))


def encoded(text: TextFile, encoding: Encoding, where: Location, line: int) -> bytes:
    """`text` (as edited) in the known `encoding`, its byte-order mark first; EncodingError
    naming the characters it cannot represent and their first line."""
    from ._conventions import unrepresentable

    body = text.to_text(bom=False)
    try:
        return encoding.bom + body.encode(encoding.name)
    except UnicodeEncodeError:
        failure = f"Failed to write {where.shown}"
        raise unrepresentable(body, encoding.name, encoding.named, failure, where, line) from None


# ---------------------------------------------------------------- encoding unknown


def masked(data: bytes) -> tuple[TextFile, Encoding]:
    """`data` (not UTF-8, encoding unknown) read line by line: ASCII lines as text, the
    others as masks (`_MASK`, the line's number), their bytes kept in the `Encoding`."""
    raw = split_text(data.decode("latin-1"))  # one character per byte: splits where bytes do
    lines: list[str] = []
    kept: list[bytes] = []
    for number, text in enumerate(raw.lines, 1):
        if text.isascii():
            lines.append(text)
        else:
            lines.append(_MASK + str(len(kept)).translate(_DIGITS) + _MASK)
            kept.append(text.encode("latin-1"))
    return TextFile(lines, raw.endings, False), Encoding(UNKNOWN, b"", "", tuple(kept), data[:_DETECTED])


def unmasked(text: TextFile, encoding: Encoding, where: Location, line: int) -> bytes:
    """`text` (as edited, read by `masked`) → bytes: masks back to their bytes, the other
    lines ASCII. EncodingError when a masked line was changed, removed or repeated, or a
    written line is not ASCII: an edit that needs the encoding."""
    out: list[bytes] = []
    seen: list[int] = []
    for number, (body, ending) in enumerate(zip(text.lines, text.endings), 1):
        index = _mask_index(body, len(encoding.lines))
        if index is not None:
            seen.append(index)
            out.append(encoding.lines[index])
        elif body.isascii():
            out.append(body.encode("ascii"))
        else:
            raise _unknown_error(where, line, f"line {number} it would write is not ASCII", encoding)
        out.append(ending.encode("ascii"))
    if seen != list(range(len(encoding.lines))):
        raise _unknown_error(where, line, "the edit matches or changes a line that is not ASCII", encoding)
    return b"".join(out)


def _mask_index(body: str, count: int) -> int | None:
    """The index of the kept bytes the masked line `body` stands for; None if it is not one."""
    if len(body) < 3 or body[0] != _MASK or body[-1] != _MASK:
        return None
    number = body[1:-1].translate(_UNDIGITS)
    return int(number) if number.isascii() and number.isdigit() and int(number) < count else None


def _unknown_error(where: Location, line: int, what: str, encoding: Encoding) -> EncodingError:
    return EncodingError(
        f"Failed to update {where.shown}: it is not UTF-8 and its encoding is neither given nor "
        f"declared, so only lines of ASCII bytes may be matched, replaced or written; {what}",
        path=where.relative,
        patch_line=line,
        hints=(ASK + likely(encoding),),
    )


def unknown_sought(where: Location, line: int, encoding: Encoding) -> EncodingError:
    """The error for an edit looking for text that is not ASCII in a file read by `masked`:
    the file's lines outside ASCII are masked, so that text cannot be found."""
    return EncodingError(
        f"Failed to update {where.shown}: it is not UTF-8 and its encoding is neither given nor "
        "declared, and the text the edit looks for is not ASCII: give its encoding with "
        "--encoding NAME (in Python: encoding=\"NAME\")",
        path=where.relative,
        patch_line=line,
        hints=(ASK + likely(encoding),),
    )


# ISO-2022's escape sequences that designate a character set of two bytes or of katakana
# (not a terminal's `ESC [`): the bytes after one are not ASCII text, though each is below 0x80.
_ISO_2022: Final = re.compile(rb"\x1b(?:\$[@AB]|\$[()*+][@-Z]|[()][IJ])")


def refuse_iso_2022(data: bytes, where: Location, line: int) -> None:
    """EncodingError if `data` (its encoding neither given nor declared) holds an escape of a
    7-bit ISO-2022 encoding (ISO-2022-JP, -KR, -CN): every byte of such a file is ASCII, so
    it would be edited as ASCII, and its characters written back as other ones."""
    found = _ISO_2022.search(data)
    if found is None:
        return
    raise EncodingError(
        f"Failed to read file to update {where.shown}: its bytes hold ISO-2022 escape sequences "
        f"(offset {found.start()}), a 7-bit encoding whose text is not what its bytes read as "
        "ASCII; give its encoding with --encoding NAME (iso2022_jp, iso2022_kr...)",
        path=where.relative,
        patch_line=line,
        hints=(ASK.replace("gbk, shift_jis, big5, cp1252, latin-1...", "iso2022_jp, iso2022_jp_2, iso2022_kr..."),),
    )


def unknown_hint(where: Location, encoding: Encoding) -> str:
    """The hint for an edit not found in a file read by `masked`."""
    return (
        f"{where.shown} is not UTF-8 and its encoding is neither given nor declared: its lines "
        f"with bytes outside ASCII cannot be matched. {ASK}{likely(encoding)}"
    )


def likely(encoding: Encoding) -> str:
    """Which encodings the bytes of a file read by `masked` point to, for its refusal:
    " charset-normalizer takes its bytes for NAME: check that before giving it.", when
    that detector is installed (an optional extra: `apply_patch[detect]`) and names one;
    else the encodings of `_CANDIDATES` that decode every line outside ASCII, the
    multi-byte ones first, cp1252 last (it decodes almost any bytes, so it proves
    little); else "". Never used to decode: a guess written back would be mojibake."""
    if not encoding.sample:
        return ""
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        return _candidates(encoding.lines)
    best = from_bytes(encoding.sample).best()
    if best is None or not best.encoding:
        return ""
    return f" charset-normalizer takes its bytes for {best.encoding}: check that before giving it."


# The legacy encodings named without a detector: the multi-byte ones first (their byte
# pairs seldom all decode by chance), then cp1252.
_CANDIDATES: Final = ("shift_jis", "gbk", "euc_kr", "big5")


def _candidates(lines: tuple[bytes, ...]) -> str:
    """" Its lines outside ASCII decode as NAME or NAME...", for the candidates that decode
    all of `lines` (their first `_DETECTED` bytes), or ""."""
    sample = b"\n".join(lines)[:_DETECTED]
    found = [name for name in _CANDIDATES if _decodes(sample, name)]
    if _decodes(sample, "cp1252"):
        found.append("cp1252 (which decodes almost any bytes, so this proves little)")
    if not found:
        return ""
    listing = found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1]
    return f" Its lines outside ASCII decode as {listing}: check before giving one."


def _decodes(sample: bytes, name: str) -> bool:
    try:
        sample.decode(name)
    except UnicodeDecodeError:
        return False
    return True
