"""Unified diff text → the files it changes, with their hunks (nothing is applied here).

Reads what `git diff` (also `--no-index`, renames, copies, quoted paths) and
`diff -u` / `diff -ruN` print: `diff --git` and its extended headers,
`---`/`+++` headers (`/dev/null` for a new or deleted file, a tab and a time
stamp after the path), `@@ -a,b +c,d @@ section` hunks, and `\\ No newline at
end of file`. Text around the file diffs (a commit message, `index` lines,
`diff -r` command lines) is skipped. The diff is split at `\\n` only: a `\\r`
before it is part of the line, as in the file (CRLF files).

A file diff that creates its file (`--- /dev/null`) but removes lines, or
deletes it (`+++ /dev/null`) but adds lines, is refused: those lines would
otherwise be dropped without a word.

Paths lose their first `strip` components (`a/`, `b/`, or the folder names of
`diff -ruN old new`), as with `patch -p1`. A path with no more components
than that is refused, as `git apply` refuses it (`-p5` on `a/x.txt`), but
for a path of one component with `strip` 1, kept as it is (`diff -u old.txt
new.txt`). `rename from`/`copy from` lines carry no `a/`, so they lose one
component fewer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import _constants as C
from .._errors import UnifiedDiffError
from ._model import HeaderCounts

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

# Numbers of at most 15 digits: no file has more lines, and int() takes longer ones slowly
# (it refuses more than 4300 digits: a ValueError, not a message).
HUNK_HEADER: Final = re.compile(r"@@ -(\d{1,15})(?:,(\d{1,15}))? \+(\d{1,15})(?:,(\d{1,15}))? @@ ?(.*)")
NO_NEWLINE: Final = "\\"  # \ No newline at end of file (the text after it varies by locale)
_LINE_BREAK: Final = re.compile(r"(\r\n|\r|\n)")  # as `_textfile` splits files
_ESCAPES: Final = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_SHORT_HUNK: Final = "the hunk at line {} has fewer lines than its header says"
_GIT_HEADERS: Final = (
    "old mode ", "new mode ", "deleted file mode ", "new file mode ", "similarity index ",
    "dissimilarity index ", "rename from ", "rename to ", "copy from ", "copy to ", "index ",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a draft: prefix (`" "`, `"-"`, `"+"`), text, and its ending in its file.

    The ending of a `-` line is the old file's, of a `+` line the new file's
    (the one it must get), of a context line both ("" only for a last line).
    """

    prefix: str
    text: str
    ending: str

    @property
    def is_old(self) -> bool:
        """A line of the old file: context or removed."""
        return self.prefix != C.ADDED

    @property
    def is_new(self) -> bool:
        """A line of the new file: context or added."""
        return self.prefix != C.REMOVED


@dataclass(frozen=True, slots=True)
class Hunk:
    """One `@@` hunk: its header numbers and its diff lines.

    A hunk whose diff lines are each one file line ending with LF (no CR, no
    `\\ No newline`: nearly every hunk) keeps them in `plain` as the diff wrote
    them (prefix and text, a blank line as `" "`): the diff's own strings, no
    copies (a large diff's memory); any other keeps them in `pairs` as `raw`
    gives them. One of the two is empty.

    `counted`: the old and new lines its header counts where the hunk shows another
    number of them on either side (a hunk read by its lines' prefixes: a miscount, the
    lines an elision stands for, or a line the model dropped); None where they agree.
    """

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    section: str
    pairs: tuple[tuple[str, str], ...]
    line: int
    plain: tuple[str, ...] = ()
    counted: HeaderCounts | None = None

    @property
    def raw(self) -> tuple[tuple[str, str], ...]:
        """Each diff line as (prefix, text with its `\\n` unless a `\\ No newline` line
        followed it); `lines` the same split into file lines."""
        if self.plain:
            return tuple([(line[0], line[1:] + "\n") for line in self.plain])
        return self.pairs

    @property
    def lines(self) -> tuple[Line, ...]:
        """The file lines of the hunk (a diff line with lone `\\r` in it is several)."""
        return tuple(
            Line(prefix, text, ending) for prefix, raw in self.raw for text, ending in _split(raw)
        )

    @property
    def lead(self) -> int:
        """Context diff lines before the first change."""
        return next((i for i, (p, _) in enumerate(self.raw) if p != C.CONTEXT), len(self.raw))

    @property
    def trail(self) -> int:
        """Context diff lines after the last change."""
        ends = reversed(self.raw)
        return next((i for i, (p, _) in enumerate(ends) if p != C.CONTEXT), len(self.raw))

    @property
    def marks_an_end(self) -> bool:
        """A `\\ No newline` line: the hunk reaches the end of a file."""
        return any(not raw.endswith("\n") for _, raw in self.raw)


@dataclass(frozen=True, slots=True)
class FileDiff:
    """The diff of one file: paths (None: /dev/null), hunks, and what git said about it."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...] = ()
    binary: bool = False
    renamed: bool = False
    copied: bool = False
    line: int = 0

    @property
    def shown(self) -> str:
        """The path to name in messages."""
        return self.new_path or self.old_path or "?"


def _split(raw: str) -> list[tuple[str, str]]:
    if "\r" not in raw:  # nearly every line: one line, LF or nothing after it
        return [(raw[:-1], "\n")] if raw.endswith("\n") else [(raw, "")]
    parts = _LINE_BREAK.split(raw)
    pairs = list(zip(parts[0::2], parts[1::2]))
    if parts[-1]:
        pairs.append((parts[-1], ""))
    return pairs


class _Reader:
    """The diff's lines with a cursor: `at` the index of the line `peek()` gives, `number`
    its 1-based number, `offset` where it starts in `text`. Only `take` and `seek` move
    it (`at` cannot be set), keeping the two together: a hunk is read from the text
    itself at `offset` (`_plain_hunk`), its lines from `lines` at `at`."""

    __slots__ = ("text", "lines", "_at", "offset", "loose")

    def __init__(self, text: str, loose: bool = False) -> None:
        self.text = text
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self._at = 0
        self.offset = 0
        self.loose = loose

    @property
    def at(self) -> int:
        return self._at

    @property
    def number(self) -> int:
        return self._at + 1

    def seek(self, at: int, offset: int | None = None) -> None:
        """The cursor to line `at`, which starts at `offset` in the text (None: counted over
        the lines in between, in C)."""
        if offset is None:
            here = self._at
            if at >= here:
                offset = self.offset + sum(map(len, self.lines[here:at])) + at - here
            else:
                offset = self.offset - sum(map(len, self.lines[at:here])) - (here - at)
        self._at, self.offset = at, offset

    def peek(self) -> str | None:
        return self.lines[self._at] if self._at < len(self.lines) else None

    def header(self) -> str | None:
        """The current line without a `\\r` (header lines of a diff saved with CRLF)."""
        line = self.peek()
        return None if line is None else line.removesuffix("\r")

    def take(self) -> str:
        line = self.lines[self._at]
        self._at += 1
        self.offset += len(line) + 1
        return line


def parse_unified_diff(text: str, strip: int = 1, *, loose: bool = False) -> list[FileDiff]:
    """The file diffs of `text`, in order; UnifiedDiffError if it is malformed.

    `loose` (a diff applied by content, whose numbers only break ties): a hunk
    whose line counts are wrong, or whose header has no numbers (`@@ ... @@`,
    as Aider's models write them), ends where its lines stop starting with
    ` `, `-`, `+` or `\\` (empty lines at its end are taken as separators).
    """
    reader = _Reader(text, loose)
    files: list[FileDiff] = []
    while (line := reader.header()) is not None:
        if line.startswith("diff --git "):
            files.append(_git_file(reader, strip))
        elif _at_file_headers(reader):
            files.append(_plain_file(reader, strip))
        elif line.startswith("Binary files ") and line.endswith(" differ"):
            names = line[len("Binary files ") : -len(" differ")]
            old, new = _binary_names(names, strip)
            files.append(FileDiff(old, new, binary=True, line=reader.number))
            reader.take()
        elif line.startswith("Only in "):
            raise UnifiedDiffError(
                f"'{line}': the diff does not hold that file's content (make it with diff -N)",
                line=reader.number,
            )
        else:
            reader.take()
    return files


def _at_file_headers(reader: _Reader) -> bool:
    """At a `--- path` line followed by a `+++ path` line."""
    pair = reader.lines[reader.at : reader.at + 2]
    return len(pair) == 2 and pair[0].startswith("--- ") and pair[1].startswith("+++ ")


def _plain_file(reader: _Reader, strip: int) -> FileDiff:
    number = reader.number
    old = _header_path(reader.take().removesuffix("\r")[4:], strip, number)
    new = _header_path(reader.take().removesuffix("\r")[4:], strip, number + 1)
    return _one_sided(FileDiff(old, new, _hunks(reader), line=number))


def _one_sided(diff: FileDiff) -> FileDiff:
    """`diff`, unless it creates its file but removes lines, or deletes it but adds lines.

    Such a hunk cannot be applied as written: a new file has no line to remove
    and a deleted file keeps none, so reading it would silently drop those lines.
    """
    sides = ((diff.old_path, C.REMOVED, "removes lines from", "creates (--- /dev/null)", "a new file has no lines to remove; write each of its lines with '+'"),
             (diff.new_path, C.ADDED, "adds lines to", "deletes (+++ /dev/null)", "a deleted file keeps none; write each of its lines with '-'"))  # fmt: skip
    for path, prefix, does, which, why in sides:
        if path is not None or diff.old_path == diff.new_path:
            continue
        hunk = next((h for h in diff.hunks if any(p == prefix for p, _ in h.raw)), None)
        if hunk is not None:
            raise UnifiedDiffError(
                f"the hunk at line {hunk.line} {does} {diff.shown}, which the diff {which}: {why}",
                line=hunk.line,
            )
    return diff


def _git_file(reader: _Reader, strip: int) -> FileDiff:
    number = reader.number
    first = reader.take().removesuffix("\r")
    old, new = _git_line_paths(first[len("diff --git ") :], strip, number)
    info, binary = _git_headers(reader)
    if _at_file_headers(reader):
        old = _header_path(reader.take().removesuffix("\r")[4:], strip, reader.number - 1)
        new = _header_path(reader.take().removesuffix("\r")[4:], strip, reader.number - 1)
    old, new = _git_paths(info, old, new, strip, number)
    renamed, copied = "rename from" in info, "copy from" in info
    return _one_sided(FileDiff(old, new, _hunks(reader), binary, renamed, copied, line=number))


def _git_headers(reader: _Reader) -> tuple[dict[str, str], bool]:
    """The extended headers after `diff --git` (name → value), and whether it is binary."""
    info: dict[str, str] = {}
    binary = False
    while (line := reader.header()) is not None:
        if line.startswith(_GIT_HEADERS):
            name = next(h for h in _GIT_HEADERS if line.startswith(h))
            info[name.strip()] = line[len(name) :]
        elif line.startswith("Binary files ") or line == "GIT binary patch":
            binary = True
        elif line.startswith(("--- ", "@@ ", "diff --git ")):
            break
        elif not binary and line.strip():
            break  # not a header: whatever follows the file diff
        reader.take()  # a header, the data of a binary patch, or a blank line
    return info, binary


def _git_paths(
    info: dict[str, str], old: str | None, new: str | None, strip: int, number: int
) -> tuple[str | None, str | None]:
    for kind in ("rename", "copy"):
        if f"{kind} from" in info:
            old = _strip(_unquote(info[f"{kind} from"], number)[0], strip - 1, number)
            new = _strip(_unquote(info[f"{kind} to"], number)[0], strip - 1, number)
    if "new file mode" in info:
        old = None
    if "deleted file mode" in info:
        new = None
    return old, new


def _hunks(reader: _Reader) -> tuple[Hunk, ...]:
    hunks = []
    while (line := reader.header()) is not None and (line.startswith("@@ ") or line == "@@"):
        hunk = _plain_hunk(reader)  # nearly every hunk
        if hunk is not None:
            hunks.append(hunk)
            continue
        start = reader.at
        try:
            hunk = _hunk(reader)
        except UnifiedDiffError:
            if not reader.loose:
                raise
            hunk = None
        if reader.loose and (hunk is None or _hunk_line_next(reader)):  # the counts were wrong
            reader.seek(start)
            hunk = _loose_hunk(reader)
        assert hunk is not None
        hunks.append(hunk)
    return tuple(hunks)


def _plain_hunk(reader: _Reader) -> Hunk | None:
    """The hunk whose header is the reader's line, read from the text with a few passes
    of C, when it is what nearly every hunk is: lines of ` `, `-` and `+` (none empty,
    no CR) up to the next `@@` or `diff ` line or the end, exactly as many as its header
    counts. None for any other (the reader left where it was): `_hunk` reads it line by
    line, and refuses what it must.

    Where this answers, `_hunk` gives the same hunk: lines that are each counted by one
    side or both end the hunk only once both counts are used up, so a stretch holding
    exactly the header's counts is the hunk, and a line of `@@` or `diff ` (never a
    hunk line) after it is no `\\ No newline` line.
    """
    line = reader.lines[reader.at]
    match = HUNK_HEADER.fullmatch(line)
    if match is None or line.endswith("\r"):
        return None
    first, old_size, second, new_size, section = match.groups()
    old_count = 1 if old_size is None else int(old_size)
    new_count = 1 if new_size is None else int(new_size)
    text = reader.text
    start = reader.offset + len(line) + 1  # the hunk's first line
    stop = text.find("\n@@", start - 1) + 1 or len(text)  # the next header, or the end
    stop = text.find("\ndiff ", start - 1, stop) + 1 or stop  # or the next file's
    body = text[start:stop]
    size = body.count("\n")  # (the last line of a text without a final LF is not taken)
    if not size or body[-1] != "\n" or "\r" in body:
        return None
    added = body.count("\n+") + (body[0] == C.ADDED)
    removed = body.count("\n-") + (body[0] == C.REMOVED)
    context = body.count("\n ") + (body[0] == C.CONTEXT)
    if added + removed + context != size or size - added != old_count or size - removed != new_count:
        return None
    number = reader.at + 1  # the header's 1-based line, the index of the hunk's first line
    plain = tuple(reader.lines[number : number + size])
    reader.seek(number + size, stop)
    return Hunk(int(first), old_count, int(second), new_count, section, (), number, plain)


def _hunk_line_next(reader: _Reader) -> bool:
    """At a line that goes on a hunk (not a header, not a mail signature `-- `)."""
    line = reader.peek()
    if not line or line[0] not in (C.CONTEXT, C.REMOVED, C.ADDED) or line.rstrip("\r") == "-- ":
        return False
    return not _at_file_headers(reader)


def _loose_hunk(reader: _Reader) -> Hunk:
    """A hunk read by its lines' prefixes (see `parse_unified_diff`'s `loose`)."""
    number = reader.number
    match = HUNK_HEADER.fullmatch(reader.take().removesuffix("\r"))
    raw: list[list[str]] = []
    empty: list[bool] = []  # a line written empty (not " "): maybe a separator
    while (line := reader.peek()) is not None:
        if line.startswith(("@@", "diff ")) or _at_file_headers(reader):
            break
        if line.startswith(NO_NEWLINE) and raw:
            raw[-1][1] = raw[-1][1].removesuffix("\n")
        elif line and line[0] not in (C.CONTEXT, C.REMOVED, C.ADDED):
            break
        else:
            raw.append([line[0], line[1:] + "\n"] if line else [C.CONTEXT, "\n"])
            empty.append(not line)
        reader.take()
    while empty and empty[-1]:
        raw.pop()
        empty.pop()
    if not raw:
        raise UnifiedDiffError(f"the hunk at line {number} has no lines", line=number)
    old_start = int(match.group(1)) if match else 0
    pairs = tuple((p, t) for p, t in raw)
    old_count = sum(1 for p, _ in pairs if p != C.ADDED)
    new_count = sum(1 for p, _ in pairs if p != C.REMOVED)
    counted = None
    if match is not None:
        header = HeaderCounts(*(1 if size is None else int(size) for size in match.group(2, 4)))
        counted = None if header == HeaderCounts(old_count, new_count) else header
    return Hunk(old_start, old_count, old_start, new_count, "", pairs, number, counted=counted)


def _hunk(reader: _Reader) -> Hunk:
    number = reader.number
    match = HUNK_HEADER.fullmatch(reader.take().removesuffix("\r"))
    if match is None:
        raise UnifiedDiffError("a hunk header must read '@@ -a,b +c,d @@'", line=number)
    first, old_size, second, new_size, section = match.groups()
    old_start, new_start = int(first), int(second)
    old_count = 1 if old_size is None else int(old_size)
    new_count = 1 if new_size is None else int(new_size)
    section = section.removesuffix("\r")
    end = _plain_hunk_end(reader.lines, reader.at, old_count, new_count)
    if end is not None:  # each line counted, none odd (an empty line, or a CR, or the last hunk of a file)
        body = reader.lines[reader.at : end]
        reader.seek(end)
        if "\r" in "".join(body):
            pairs = tuple([(line[:1] or C.CONTEXT, line[1:] + "\n") for line in body])
            return Hunk(old_start, old_count, new_start, new_count, section, pairs, number)
        plain = tuple([line or C.CONTEXT for line in body])
        return Hunk(old_start, old_count, new_start, new_count, section, (), number, plain)
    return _checked_hunk(reader, number, old_start, old_count, new_start, new_count, section)


def _plain_hunk_end(lines: list[str], at: int, old_left: int, new_left: int) -> int | None:
    """Where the hunk from `at` ends when its lines are only ` `, `-`, `+` (or empty) lines
    that its counts take exactly, no `\\` line after them; None for any other hunk (which
    `_checked_hunk` reads, and refuses if it must, line by line)."""
    size = len(lines)
    while old_left > 0 or new_left > 0:
        if at >= size:
            return None
        prefix = lines[at][:1]
        if prefix == C.CONTEXT or not prefix:
            old_left -= 1
            new_left -= 1
        elif prefix == C.REMOVED:
            old_left -= 1
        elif prefix == C.ADDED:
            new_left -= 1
        else:
            return None
        at += 1
    if old_left < 0 or new_left < 0 or (at < size and lines[at].startswith(NO_NEWLINE)):
        return None
    return at


def _checked_hunk(
    reader: _Reader, number: int, old_start: int, old_count: int, new_start: int, new_count: int, section: str
) -> Hunk:
    """The hunk whose header was line `number`, read line by line: `\\ No newline` lines, and
    UnifiedDiffError for lines its counts do not take or that are no hunk lines."""
    raw: list[tuple[str, str]] = []
    old_left, new_left = old_count, new_count
    lines, at = reader.lines, reader.at
    while old_left > 0 or new_left > 0 or (at < len(lines) and lines[at].startswith(NO_NEWLINE)):
        if at >= len(lines):
            raise UnifiedDiffError(_SHORT_HUNK.format(number), line=at + 1)
        line = lines[at]
        prefix = line[:1] or C.CONTEXT  # "": a stripped blank line
        if prefix == C.CONTEXT:  # the usual lines first, each side counted down
            old_left, new_left = old_left - 1, new_left - 1
        elif prefix == C.REMOVED:
            old_left -= 1
        elif prefix == C.ADDED:
            new_left -= 1
        else:
            reader.seek(at)
            _odd_hunk_line(reader, raw, number)
            at += 1
            continue
        if old_left < 0 or new_left < 0:
            raise UnifiedDiffError(
                f"the hunk at line {number} has more lines than its header says", line=at + 1
            )
        raw.append((prefix, line[1:] + "\n"))
        at += 1
    reader.seek(at)
    return Hunk(old_start, old_count, new_start, new_count, section, tuple(raw), number)


def _odd_hunk_line(reader: _Reader, raw: list[tuple[str, str]], number: int) -> None:
    """A hunk line that is not ` `, `-` or `+`: `\\ No newline` (the line before it has no
    line break), else UnifiedDiffError (a header or text where a hunk line should be)."""
    line = reader.lines[reader.at]
    if line.startswith(NO_NEWLINE):
        if not raw:
            raise UnifiedDiffError(f"'{line}' follows no line", line=reader.number)
        raw[-1] = (raw[-1][0], raw[-1][1].removesuffix("\n"))
        return
    if line.startswith(("@@ ", "diff ")):  # never a hunk line: the next hunk or file
        raise UnifiedDiffError(_SHORT_HUNK.format(number), line=reader.number)
    raise UnifiedDiffError(f"'{line}' is not a hunk line (' ', '-', '+' or '\\')", line=reader.number)


def _header_path(value: str, strip: int, number: int) -> str | None:
    """The path of a `---`/`+++` line: quoted, or up to a tab (a time stamp follows).

    None for a file that does not exist on that side: `/dev/null`, or (`diff
    -N`) a time stamp at the epoch.
    """
    path, rest = _unquote(value, number) if value.startswith('"') else value.partition("\t")[::2]
    if path == "/dev/null" or _is_epoch(rest.strip()):
        return None
    return _strip(path, strip, number)


def _is_epoch(stamp: str) -> bool:
    """`1970-01-01 00:00:00.000000000 +0000`, or the same instant in another zone."""
    if not stamp.startswith(("1970-01-01 ", "1969-12-31 ")):  # strptime costs 40 us a header
        return False
    from datetime import datetime  # such a stamp only (start-up time: 3 ms)

    try:
        when = datetime.strptime(re.sub(r"(\.\d{6})\d+", r"\1", stamp), "%Y-%m-%d %H:%M:%S.%f %z")
    except ValueError:
        try:
            when = datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S %z")
        except ValueError:
            return False
    return when.timestamp() == 0


def _git_line_paths(value: str, strip: int, number: int) -> tuple[str | None, str | None]:
    """The two paths of `diff --git A B`; used when no other header names them."""
    if value.startswith('"'):
        old, rest = _unquote(value, number)
        new = _unquote(rest[1:], number)[0] if rest.startswith(' "') else rest[1:]
        return _strip(old, strip, number), _strip(new, strip, number)
    half = (len(value) - 1) // 2  # `a/P b/P`: the same path twice, split in the middle
    if len(value) % 2 == 1 and value[half] == " ":
        return _strip(value[:half], strip, number), _strip(value[half + 1 :], strip, number)
    old, _, new = value.partition(" ")
    return _strip(old, strip, number), _strip(new, strip, number)


def _unquote(value: str, number: int) -> tuple[str, str]:
    """A C-quoted path (git's, for names with special bytes) and what follows it."""
    if not value.startswith('"'):
        return value, ""
    data, i = bytearray(), 1
    while i < len(value) and value[i] != '"':
        char = value[i]
        if char != "\\":
            data += char.encode("utf-8")
            i += 1
        elif value[i + 1 : i + 2] in _ESCAPES:
            data.append(_ESCAPES[value[i + 1]])
            i += 2
        elif re.fullmatch(r"[0-7]{3}", value[i + 1 : i + 4]):
            data.append(int(value[i + 1 : i + 4], 8))
            i += 4
        else:
            raise UnifiedDiffError(f"bad escape in the quoted path {value}", line=number)
    if i >= len(value):
        raise UnifiedDiffError(f"unterminated quoted path {value}", line=number)
    try:
        return data.decode("utf-8"), value[i + 1 :]
    except UnicodeDecodeError:
        raise UnifiedDiffError(f"the path {value} is not UTF-8", line=number) from None


def _binary_names(names: str, strip: int) -> tuple[str | None, str | None]:
    """The old and new path of `Binary files OLD and NEW differ` (None: /dev/null).

    Names with " and " in them are ambiguous: unless one side is /dev/null, both
    paths are the whole text, as before.
    """
    if names.endswith(" and /dev/null"):
        return _strip(names[: -len(" and /dev/null")], strip), None
    if names.startswith("/dev/null and "):
        return None, _strip(names[len("/dev/null and ") :], strip)
    return names, names


def _strip(path: str, count: int, line: int | None = None) -> str:
    """`path` without its first `count` components; UnifiedDiffError if nothing would be left
    (at diff `line`), but for a one-component path and `count` 1, kept as it is."""
    parts = path.split("/")
    if len(parts) > count:
        return "/".join(parts[count:])
    if len(parts) == 1 and count == 1:  # `diff -u old.txt new.txt`: no a/ nor b/ to drop
        return path
    have = f"{len(parts)} component{'s' if len(parts) > 1 else ''}"
    raise UnifiedDiffError(
        f"removing {count} leading path components (-p{count}) from '{path}' leaves no file "
        f"name: it has {have} (use -p{len(parts) - 1} or less)",
        line=line,
    )
