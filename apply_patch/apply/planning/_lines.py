"""A text file's lines read in parts (`view`): never the whole file in memory.

Lines end at `\\r\\n`, a lone `\\r` or `\\n`, as `_textfile` splits a file, and
a BOM before the first line is not part of it. A NUL byte in the lines read
(or counted) makes the file binary, unless NULs are allowed as text; what
comes after the last line read is not looked at. A line is kept up to `cap`
bytes; the rest of a longer one is read past, not kept. Lines before the
ones asked for are counted a chunk at a time, not split. So reading any
range of any file, even a file of one line of gigabytes, holds one chunk
and `cap` bytes at most.
"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Final

CHUNK: Final = 1 << 16
_BOM: Final = b"\xef\xbb\xbf"
_BREAK: Final = re.compile(rb"\r\n|\r|\n")


class NotText(Exception):
    """The part of the file read is not text (a NUL byte, or not UTF-8): the reason."""


class LineReader:
    """The lines of the open file `fd`, from its start, one after the other.

    `number` is how many lines have been read (or counted) so far. With
    `binary`, NUL bytes are text; with `utf8` ("strict"), a line that is not
    UTF-8 is NotText, else ("replace") its bad bytes show as U+FFFD.
    """

    def __init__(self, fd: int, *, cap: int, binary: bool = False, utf8: str = "strict") -> None:
        self.number = 0
        self._fd = fd
        self._cap = cap
        self._binary = binary
        self._utf8 = utf8
        self._chunk = b""
        self._at = 0  # where the unread part of `_chunk` starts
        self._offset = 0  # of `_chunk` in the file
        self._after_cr = False  # the last chunk ended with `\r`: a `\n` next is its break
        self._open = False  # bytes of an unfinished line have been read

    def lines(self, first: int, last: int | None) -> Iterator[tuple[int, str, bool]]:
        """Lines `first` to `last` (None: to the end) as (number, text, cut): fewer at the end.

        `cut`: the line was longer than `cap` bytes, and `text` is its beginning.
        """
        if self.skip(first - 1 - self.number) < first - 1 - self.number:
            return
        while last is None or self.number < last:
            line = self._line()
            if line is None:
                return
            data, cut = line
            yield self.number, self._decode(data, cut), cut

    def skip(self, count: int | None) -> int:
        """Read past `count` more lines (None: all), counting them; how many there were."""
        skipped = 0
        while count is None or skipped < count:
            if not self._fill():
                if self._open:  # the last line, without a line break
                    self._open = False
                    self.number += 1
                    skipped += 1
                return skipped
            rest = self._chunk[self._at :]
            self._check(self._at, len(self._chunk))
            breaks = rest.count(b"\n") + rest.count(b"\r") - rest.count(b"\r\n")
            if count is not None and breaks >= count - skipped:
                while skipped < count and self._line(keep=False) is not None:
                    skipped += 1
                return skipped
            skipped += breaks
            self.number += breaks
            self._open = not rest.endswith((b"\n", b"\r"))  # `rest` is not empty
            self._after_cr = rest.endswith(b"\r")
            self._at = len(self._chunk)
        return skipped

    def _line(self, *, keep: bool = True) -> tuple[bytes, bool] | None:
        """The next line (its first `cap` bytes, whether it was cut); None at the end."""
        parts: list[bytes] = []
        kept, cut = 0, False
        while self._fill():
            found = _BREAK.search(self._chunk, self._at)
            end = found.start() if found is not None else len(self._chunk)
            self._check(self._at, end)
            if keep and end > self._at:
                room = self._cap - kept
                piece = self._chunk[self._at : min(end, self._at + max(room, 0))]
                parts.append(piece)
                kept += len(piece)
                cut = cut or end - self._at > room
            self._open = self._open or end > self._at
            if found is None:
                self._at = len(self._chunk)
                continue
            self._after_cr = found.group() == b"\r" and found.end() == len(self._chunk)
            self._at = found.end()
            self._open = False
            self.number += 1
            return b"".join(parts), cut
        if not self._open:
            return None
        self._open = False
        self.number += 1
        return b"".join(parts), cut

    def _fill(self) -> bool:
        """Make sure unread bytes are at hand; False at the end of the file."""
        while self._at >= len(self._chunk):
            self._offset += len(self._chunk)
            self._chunk = os.read(self._fd, CHUNK)
            self._at = 0
            if not self._chunk:
                return False
            if self._after_cr and self._chunk.startswith(b"\n"):
                self._at = 1  # the second half of a `\r\n` split between two chunks
            if self._offset == 0 and self._chunk.startswith(_BOM):
                self._at = len(_BOM)  # not part of the first line (a first read is whole: 3 bytes)
            self._after_cr = False
        return True

    def _check(self, start: int, end: int) -> None:
        """The bytes read from `start` to `end` of the chunk hold no NUL (unless NULs are text)."""
        if not self._binary and (nul := self._chunk.find(b"\0", start, end)) >= 0:
            raise NotText(f"it looks binary (a NUL byte at offset {self._offset + nul})")

    def _decode(self, data: bytes, cut: bool) -> str:
        if cut:  # a character may have been split where the line was cut
            data = _whole_characters(data)
        try:
            return data.decode("utf-8", self._utf8)
        except UnicodeDecodeError as exc:
            raise NotText(
                f"line {self.number} holds an invalid utf-8 sequence at byte {exc.start + 1} "
                "(the file is not UTF-8 text)"
            ) from None


def _whole_characters(data: bytes) -> bytes:
    """`data` without the start of a UTF-8 character cut at its end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return data
        if byte >= 0xC0:  # the lead byte of the last character: is it complete?
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data if back >= needed else data[:-back]
    return data
