"""Syntax errors an edit brings into a file, found with the file's tree-sitter grammar.

For each changed text file of a known language (`_languages`), the new content is
parsed; only when it has errors (ERROR or MISSING nodes) is the old content parsed
too, and an error counts only if the old content had no such error, and, when the
old content already had errors, only if it lies in or next to a changed line. A
file is never parsed with another language's grammar: a wrong grammar's error
recovery can take minutes. Files over `MAX_BYTES`, parses past their deadline (each
its own, and one for the whole call: `PATCH_SECONDS`) and languages whose grammar is
not installed are skipped with a note, never an error. The work after a parse is
linear in the file (no recursion, no quadratic diff), and every line quoted is cut to
`LINE_CHARS` characters (a minified file's one line is not quoted whole).
Pure: bytes in, findings and notes out; grammars are imported on first use.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..matching import PatchWarning
from ..._errors import CodeSyntaxError, escaped
from ._grammars import GRAMMARS, deadline_ms, grammar_of, parse
from ._languages import language_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Final

    from tree_sitter import Language, Node

MAX_BYTES: Final = 1_000_000
PATCH_SECONDS: Final = 10  # the whole check of one patch, at most (then the files left are skipped)
CONTEXT: Final = 2  # numbered lines shown on each side of an error
MOST: Final = 3  # errors shown per file
LINE_CHARS: Final = 200  # characters of a line quoted, at most (then "...")
_ERROR_BYTES: Final = 4096  # bytes of an error node read to say what it is
_BOM: Final = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class SyntaxFinding:
    """One syntax error the edit brought into `path` (relative), at 1-based `line`.

    `language` is the grammar's name, `what` says what the parser found
    ("missing `)`", "unexpected `else`"), `snippet` the numbered lines of the
    new content around it, the error's line marked with `>`.
    """

    path: str
    line: int
    language: str
    what: str
    snippet: tuple[str, ...]

    @property
    def message(self) -> str:
        """The finding as a model reads it: where, what, then the lines."""
        head = f"{escaped(self.path)}:{self.line}: the file no longer parses as {self.language}: {escaped(self.what)}"
        return "\n".join((head, *self.snippet))


@dataclass(frozen=True, slots=True)
class SyntaxReport:
    """What the check of one patch found: `findings`, and `notes` on files it skipped."""

    findings: tuple[SyntaxFinding, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()  # (path, why it was not checked)


@dataclass(frozen=True, slots=True)
class _Error:
    row: int  # 0-based, where it starts
    end_row: int
    what: str
    signature: tuple[str, str]  # what an old error must match to be the same one


def check_files(files: Iterable[tuple[str, bytes | None, bytes]]) -> SyntaxReport:
    """Check each (relative path, old content or None, new content) of a patch; once
    `PATCH_SECONDS` have gone (the check runs while the root's lock is held), the files
    left are skipped with a note, and a file whose parse reaches that deadline too."""
    findings: list[SyntaxFinding] = []
    notes: list[tuple[str, str]] = []
    deadline = time.monotonic() + PATCH_SECONDS
    for path, before, after in files:
        if time.monotonic() > deadline:
            notes.append((path, f"not checked for syntax: the patch's check took over {PATCH_SECONDS} s"))
            continue
        found, note = check_file(path, before, after, deadline=deadline)
        findings.extend(found)
        if note is not None:
            notes.append((path, note))
    return SyntaxReport(tuple(findings), tuple(notes))


def warnings_of(report: SyntaxReport) -> tuple[PatchWarning, ...]:
    """One `code_syntax` warning per finding, one `code_syntax_unchecked` per note."""
    return (
        *(PatchWarning("code_syntax", f.path, None, f.line, None, (), f.message) for f in report.findings),
        *(PatchWarning("code_syntax_unchecked", path, None, None, None, (), f"{path}: {note}")
          for path, note in report.notes),
    )  # fmt: skip


def refusal(findings: Sequence[SyntaxFinding]) -> CodeSyntaxError:
    """The error refusing a patch that brings in `findings` (not empty)."""
    first = findings[0]
    where = ", ".join(sorted({f"{f.path} ({f.language})" for f in findings}))
    details = tuple(line for f in findings for line in f.message.split("\n"))
    return CodeSyntaxError(
        f"The patch applies but leaves syntax errors in {where}; it was not applied.",
        path=first.path,
        lines=tuple(f.line for f in findings if f.path == first.path),
        details=details,
    )


def check_file(
    path: str, before: bytes | None, after: bytes, *, deadline: float | None = None
) -> tuple[list[SyntaxFinding], str | None]:
    """The syntax errors `after` has that `before` did not, and a note if the file was skipped.

    `deadline` (a `time.monotonic()` value) is the whole call's: a parse that reaches it
    stops, and the file is skipped with the note `check_files` gives. A file that is not text (a NUL byte), not UTF-8 (a file in another encoding: the
    grammars read UTF-8) or of no known language is skipped silently.
    """
    if b"\0" in after[:8192]:
        return [], None
    body = after.removeprefix(_BOM)
    if not body.isascii():  # ASCII is UTF-8: no decoded copy of a large file made for nothing
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return [], None
    language = language_of(path, body[: body.find(b"\n")] if b"\n" in body else body)
    if language is None:
        return [], None
    grammar = GRAMMARS[language]
    if len(after) > MAX_BYTES:
        return [], f"not checked for syntax: over {MAX_BYTES // 1_000_000} MB"
    loaded = grammar_of(language)
    if isinstance(loaded, str):
        return [], f"not checked for syntax: {loaded}"
    late = f"not checked for syntax: the patch's check took over {PATCH_SECONDS} s"
    if deadline is not None and time.monotonic() > deadline:
        return [], late
    new_errors = _errors_of(loaded, body, deadline)
    if new_errors is None:
        if deadline is not None and time.monotonic() > deadline:
            return [], late
        return [], f"not checked for syntax: the {grammar.name} parse took over {deadline_ms(body)} ms"
    if not new_errors:
        return [], None
    old_body = None if before is None else before.removeprefix(_BOM)
    # An old content that cannot be parsed (too big, too slow) counts as without errors.
    old_errors = None if old_body is None or len(old_body) > MAX_BYTES else _errors_of(loaded, old_body, deadline)
    lines = body.split(b"\n")
    changed = [] if old_body is None else _changed_rows(old_body.split(b"\n"), lines)
    fresh = _fresh(new_errors, old_errors or [], changed)
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the final line break ends the last line: no line after it
    rows = sorted({_row(e, changed): _what(e, _row(e, changed)) for e in reversed(fresh)}.items())
    return [
        SyntaxFinding(path, row + 1, grammar.name, what, _snippet(lines, row)) for row, what in rows[:MOST]
    ], None


def _fresh(new: list[_Error], old: list[_Error], changed: list[tuple[int, int]]) -> list[_Error]:
    """The errors of `new` not in `old`; if `old` has any, only those in or next to a
    `changed` row range."""
    left: dict[tuple[str, str], int] = {}
    for error in old:
        left[error.signature] = left.get(error.signature, 0) + 1
    kept = []
    for error in new:
        if left.get(error.signature, 0) > 0:
            left[error.signature] -= 1
        else:
            kept.append(error)
    if not old:
        return kept
    return [e for e in kept if _near(e, changed)]


def _near(error: _Error, changed: list[tuple[int, int]]) -> bool:
    """Whether `error` lies in or next to a range of `changed` (sorted, disjoint): the
    first range not ending before it decides (a binary search: linear work in all)."""
    import bisect

    at = bisect.bisect_left(changed, error.row - 1, key=lambda span: span[1])
    return at < len(changed) and changed[at][0] - 1 <= error.end_row


def _row(error: _Error, changed: list[tuple[int, int]]) -> int:
    """The row to show for `error`: the first changed row it spans (where the edit broke
    it, not where the statement it broke starts), else the last changed row just before
    it (a token found missing only on the next line), else where it starts. `changed` is
    sorted and disjoint: binary searches."""
    import bisect

    at = bisect.bisect_left(changed, error.row, key=lambda span: span[1])
    if at < len(changed) and changed[at][0] <= error.end_row:
        return max(changed[at][0], error.row)
    before = bisect.bisect_left(changed, error.row - 1, key=lambda span: span[1])
    if before < len(changed) and changed[before][1] == error.row - 1:
        return changed[before][1]
    return error.row


def _what(error: _Error, row: int) -> str:
    if row == error.row:
        return error.what
    if row < error.row:  # a token found missing on the line after the edit
        return f"{error.what} on line {error.row + 1}"
    return f"the code from line {error.row + 1} on no longer parses"


def _changed_rows(old: Sequence[bytes], new: Sequence[bytes]) -> list[tuple[int, int]]:
    """The 0-based row ranges of `new` (inclusive) that differ from `old` (an empty range
    for lines removed: the row after them).

    Linear (and a log): the lines found once in each side anchor the two in order (the
    longest rising run of them), and each gap between anchors is trimmed of the lines
    its two sides share at its ends. A matcher that searches every pair of lines (difflib)
    is quadratic on files of repeated lines, and this runs under the root's lock.
    """
    import bisect

    once_old, once_new = _once(old), _once(new)
    pairs = sorted((i, once_new[line]) for line, i in once_old.items() if line in once_new)
    # The longest run of pairs rising in `new` too (patience: tails and back links).
    tails: list[int] = []  # tails[k]: index in `pairs` of the smallest end of a run of k + 1
    ends: list[int] = []  # that end (its row in `new`)
    back: list[int] = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(ends, j)
        back[index] = tails[k - 1] if k else -1
        tails[k : k + 1], ends[k : k + 1] = [index], [j]
    anchors: list[tuple[int, int]] = []
    at = tails[-1] if tails else -1
    while at >= 0:
        anchors.append(pairs[at])
        at = back[at]
    anchors.reverse()
    ranges: list[tuple[int, int]] = []
    i0 = j0 = 0
    for i, j in (*anchors, (len(old), len(new))):
        while i0 < i and j0 < j and old[i0] == new[j0]:
            i0, j0 = i0 + 1, j0 + 1
        i1, j1 = i, j
        while i1 > i0 and j1 > j0 and old[i1 - 1] == new[j1 - 1]:
            i1, j1 = i1 - 1, j1 - 1
        if i0 < i1 or j0 < j1:
            ranges.append((j0, max(j0, j1 - 1)))
        i0, j0 = i + 1, j + 1
    return ranges


def _once(lines: Sequence[bytes]) -> dict[bytes, int]:
    """The lines found exactly once in `lines`, each with its index."""
    index: dict[bytes, int] = {}
    for n, line in enumerate(lines):
        index[line] = -1 if line in index else n
    return {line: n for line, n in index.items() if n >= 0}


def _errors_of(language: Language, body: bytes, deadline: float | None) -> list[_Error] | None:
    """The syntax errors of `body` in document order, or None if its parse timed out."""
    tree = parse(language, body, deadline)
    if tree is None:
        return None
    if not tree.root_node.has_error:
        return []
    return [_error(node, body) for node in _error_nodes(tree.root_node)]


def _error_nodes(root: Node) -> list[Node]:
    """The ERROR and MISSING nodes under `root`, outermost only, in document order."""
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            found.append(node)
        elif node.has_error:
            stack.extend(reversed(node.children))
    return found


def _error(node: Node, body: bytes) -> _Error:
    if node.is_missing:
        what = f"missing `{node.type}`"
        return _Error(node.start_point.row, node.start_point.row, what, ("missing", node.type))
    # Its start only: an error node may span the rest of the file, and there may be many.
    start = node.start_byte
    raw = body[start : min(node.end_byte, start + _ERROR_BYTES)].decode("utf-8", "replace")
    text = raw.lstrip()
    row = node.start_point.row + raw[: len(raw) - len(text)].count("\n")  # where its text starts
    first = text.split("\n", 1)[0].strip()[:LINE_CHARS]
    shown = first if len(first) <= 40 else first[:37] + "..."
    what = f"unexpected `{shown}`" if shown else "unexpected end of file"
    return _Error(row, max(row, node.end_point.row), what, ("error", first))


def _snippet(lines: Sequence[bytes], row: int) -> tuple[str, ...]:
    """Numbered lines `CONTEXT` around `row` (0-based), that one marked."""
    first, last = max(0, row - CONTEXT), min(len(lines) - 1, row + CONTEXT)
    width = len(str(last + 1))
    return tuple(
        f"{'>' if n == row else ' '} {n + 1:>{width}} | " + _cut(lines[n]) for n in range(first, last + 1)
    )


def _cut(line: bytes) -> str:
    """`line` as quoted: decoded, escaped, at most `LINE_CHARS` characters (then "...")."""
    text = line[: 4 * LINE_CHARS + 4].decode("utf-8", "replace").rstrip("\r")
    if len(text) > LINE_CHARS or len(line) > 4 * LINE_CHARS + 4:
        text = text[: LINE_CHARS - 3] + "..."
    return escaped(text, keep="\t")[: 4 * LINE_CHARS]
