"""The exception tree: one root, every error carries where it happened.

Whenever one of these is raised by `apply_patch`, nothing on disk was changed,
with one exception: RollbackError (a failed commit that could not be undone).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    import re
    from typing import Any, ClassVar, Protocol

    class Region(Protocol):
        """A stretch of a file most like what was expected (`apply._closest.Region`)."""

        @property
        def start(self) -> int: ...
        @property
        def lines(self) -> tuple[str, ...]: ...
        @property
        def first_difference(self) -> int | None: ...


class PatchError(ValueError):
    """Root of every error of this package.

    `message` is the reference implementation's wording (the first line(s));
    `details` are our lines after it (where exactly, what the file holds);
    `hints` say what probably went wrong. `headline` is the first part alone.
    `path` is the file concerned,
    relative to the root as a patch would write it (or None); `patch_line`
    the 1-based patch line (or None); `kind` a stable machine-readable name.
    `str()` is the whole text: message, details, then `Hint:` lines.
    """

    kind: ClassVar[str] = "error"
    # The index of the operation that failed in its patch, set by the plan
    # (None: not known, or not one operation's fault).
    operation: int | None = None
    # The file's name as the failed edit wrote it, where the planner took that for a mangled
    # name of `path` (set by the plan; None: the edit named `path` itself).
    written_path: str | None = None

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        patch_line: int | None = None,
        details: tuple[str, ...] = (),
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.patch_line = patch_line
        self.details = details
        self.hints = hints

    @property
    def headline(self) -> str:
        """The first part of the text: the reference implementation's own message."""
        return self.message

    def __str__(self) -> str:
        return "\n".join((self.headline, *self.details, *(f"Hint: {h}" for h in self.hints)))

    @property
    def nothing_changed(self) -> bool:
        """Whether the tree is as it was before (always, but for a failed rollback)."""
        return True

    def to_dict(self) -> dict[str, Any]:
        """The facts of the error as JSON-ready data: exactly what `--json` prints as `error`."""
        return {
            "kind": self.kind,
            "path": self.path,
            "patch_line": self.patch_line,
            "message": str(self),
            "hints": list(self.hints),
            "nothing_changed": self.nothing_changed,
        }


class PatchSyntaxError(PatchError):
    """The patch text does not follow the format.

    `line` is the patch line (1 = `*** Begin Patch`) or None for an error of the
    whole patch (a missing envelope); `text` is the offending line.
    """

    kind = "syntax"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        text: str | None = None,
        details: tuple[str, ...] = (),
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, patch_line=line, details=details, hints=hints)
        self.line = line
        self.text = text

    @property
    def headline(self) -> str:
        where = "Invalid patch" if self.line is None else f"Invalid patch hunk on line {self.line}"
        return f"{where}: {self.message}"


class EmptyPatchError(PatchError):
    """The patch has no operation at all."""

    kind = "empty"

    def __init__(self) -> None:
        super().__init__("No files were modified.")


class ContextNotFoundError(PatchError):
    """A chunk (or its `@@` context line) is not in the file.

    `expected` holds the lines that were searched for; `context` the `@@` line
    that was not found, or None when the chunk's own lines were not found;
    `closest` the region of the file most like them (None if nothing is alike).
    """

    kind = "context_not_found"

    def __init__(
        self,
        message: str,
        *,
        path: str,
        patch_line: int,
        expected: tuple[str, ...],
        context: str | None = None,
        closest: Region | None = None,
        details: tuple[str, ...] = (),
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line, details=details, hints=hints)
        self.expected = expected
        self.context = context
        self.closest = closest

    def to_dict(self) -> dict[str, Any]:
        closest = self.closest
        region = None
        if closest is not None:
            first = closest.first_difference
            region = {
                "start_line": closest.start + 1,
                "lines": list(closest.lines),
                "first_difference_line": None if first is None else closest.start + first + 1,
            }
        return {
            **super().to_dict(),
            "expected": list(self.expected),
            "context": self.context,
            "closest": region,
        }


class AmbiguousChunkError(PatchError):
    """A chunk matches several places and the policy asks for a unique match.

    `candidates` are the 1-based file lines where it matches.
    """

    kind = "ambiguous"

    def __init__(
        self, message: str, *, path: str, patch_line: int, candidates: tuple[int, ...], details: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line, details=details)
        self.candidates = candidates

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "candidates": list(self.candidates)}


class AmbiguousBlankLinesError(AmbiguousChunkError):
    """A chunk whose lines with text fit one place once blank lines are left out, and whose
    blank lines differ from the file's there in a way that reads more than one way (the
    file's kept or removed, before or after the lines it adds). `candidates` holds that
    place's first line; the message names the file's blank lines that differ."""


class FilePolicyError(PatchError):
    """A file policy refuses the operation (file exists, path leaves the root, binary...)."""

    kind = "policy"


class EncodingError(FilePolicyError):
    """A file's text and its encoding do not fit: text the encoding cannot represent, an
    encoding Python does not know, bytes that are not what the encoding says, or an
    edit that cannot be made safely without knowing the encoding. `encoding` names it
    (None: not known)."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        patch_line: int | None = None,
        encoding: str | None = None,
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line, hints=hints)
        self.encoding = encoding


class PatchIOError(PatchError):
    """Reading or writing a file failed; `errno` is the OS error number if any."""

    kind = "io"

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        patch_line: int | None = None,
        errno: int | None = None,
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line, hints=hints)
        self.errno = errno


class ConcurrentChangeError(PatchIOError):
    """A file changed on disk between planning and committing the patch."""

    kind = "conflict"


class UndoError(PatchError):
    """A receipt that cannot be undone: none of that id, a file changed since, a saved copy
    gone; or a staged patch that cannot be accepted (a file changed since it was planned).
    Nothing was changed."""

    kind = "undo"


class StaleViewError(PatchError):
    """An editor edit to a file that changed since the session last viewed or wrote it."""

    kind = "stale"


class RollbackError(PatchIOError):
    """Committing failed and some files could not be put back as they were.

    The only error after which the tree may differ from before: `unrestored`
    lists the paths that could not be restored.
    """

    kind = "rollback"
    nothing_changed = False

    def __init__(self, message: str, *, unrestored: tuple[str, ...]) -> None:
        super().__init__(message)
        self.unrestored = unrestored

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "unrestored": list(self.unrestored)}


class BareSyntaxError(PatchSyntaxError):
    """A syntax error as a step of the parser raises it: the reference's message and the
    lines; `_syntax_hints.with_facts` builds the error the caller sees from it (on
    failure only: that module is not imported on the way of a patch that parses)."""


class _UnreadableError(PatchError):
    """A text in one of the other formats that cannot be read; `line` is its line (or None).

    `what` names the format in the headline ("Invalid unified diff on line 3: ...").
    """

    what: ClassVar[str] = "text"

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message, patch_line=line)
        self.line = line

    @property
    def headline(self) -> str:
        where = "" if self.line is None else f" on line {self.line}"
        return f"Invalid {self.what}{where}: {self.message}"


class SearchReplaceError(_UnreadableError):
    """A reply whose SEARCH/REPLACE blocks are broken or missing; `line` is the reply line."""

    kind = "syntax"
    what = "SEARCH/REPLACE block"


class OperationSyntaxError(PatchSyntaxError):
    """A native tool operation that is malformed, or whose diff does not follow the format.

    `operation_type` is its type (`update_file`...), `path` its path;
    `line` the line of the diff (None: the operation as a whole).
    """

    def __init__(
        self,
        message: str,
        *,
        operation: str,
        path: str | None,
        line: int | None = None,
        text: str | None = None,
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, line=line, text=text, hints=hints)
        self.operation_type = operation
        self.path = path

    @property
    def headline(self) -> str:
        kind = self.operation_type
        where = f"Invalid {kind} operation" if kind else "Invalid operation"
        if self.path:
            where += f" for {self.path}"
        if self.line is not None:
            where += f", diff line {self.line}"
        return f"{where}: {self.message}"


class PolicyValueError(PatchError):
    """A policy option name or value that does not exist."""

    kind = "usage"


class EditError(PatchError):
    """An edit that cannot mean anything: a line number outside the file, a missing field."""

    kind = "edit"


class ReplacementCountError(PatchError):
    """A replacement matched a number of places other than the one it asked for.

    `found` is how many places matched (at `tier`), `wanted` what the edit
    asked for (None: at least one), `candidates` the 1-based line of each place.
    """

    kind = "count"

    def __init__(
        self,
        message: str,
        *,
        path: str,
        patch_line: int,
        found: int,
        wanted: int | None,
        candidates: tuple[int, ...],
        tier: str,
        hints: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line, hints=hints)
        self.found = found
        self.wanted = wanted
        self.candidates = candidates
        self.tier = tier

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "found": self.found,
            "wanted": self.wanted,
            "candidates": list(self.candidates),
            "tier": self.tier,
        }


class UnifiedDiffError(_UnreadableError):
    """The text is not a unified diff this reader understands; `line` is the diff line."""

    kind = "unified_diff"
    what = "unified diff"


class HashlineError(_UnreadableError):
    """A Hashline edit that cannot be read (not the JSON of the dialect, an anchor not
    `LINE#ID`, another dialect's text); `line` is the edit's number in its list."""

    kind = "syntax"
    what = "Hashline edit"

    @property
    def headline(self) -> str:
        where = "" if self.line is None else f" {self.line}"  # an edit's number in its list
        return f"Invalid {self.what}{where}: {self.message}"


class StaleAnchorError(PatchError):
    """A Hashline anchor whose ID is not that of its line now (the file changed since the
    view the model read), or whose line is past the end; `details` show each such line as
    it is now, with its current anchor. Never moved to another line whose ID matches."""

    kind = "stale_anchor"


class IndentUnitError(PatchError):
    """Lines an edit adds, sent indented with one unit (tabs, spaces) where the file around
    them is indented with the other throughout, and the width of one level cannot be told:
    refused rather than written in a unit the file does not use, or guessed. `lines` are
    the 1-based lines they would have in the new file."""

    kind = "indentation"

    def __init__(self, message: str, *, path: str, patch_line: int | None, lines: tuple[int, ...]) -> None:
        super().__init__(message, path=path, patch_line=patch_line)
        self.lines = lines

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "lines": list(self.lines)}


class InputError(PatchError):
    """Input the engine cannot take, whatever the files: text that is not valid Unicode
    (a lone surrogate, from JSON's `\\ud800` escapes or a caller's `str`), a path
    holding a control character or a line break, or too long for any file system,
    data nested too deep. The executable's exit code is 2, as for a usage error."""

    kind = "input"


class UnsupportedChangeError(PatchError):
    """A change the patch format cannot express (a folder turned into a file...)."""

    kind = "unsupported"


class BinaryFileError(UnsupportedChangeError):
    """A changed file that is not text: a NUL byte, or not UTF-8."""

    kind = "binary"


class CodeSyntaxError(PatchError):
    """The patch applies, but leaves a file that no longer parses in its language
    (`check_syntax="refuse"`); `lines` are the 1-based lines of its errors, the
    details the numbered lines around each."""

    kind = "code_syntax"

    def __init__(
        self, message: str, *, path: str, lines: tuple[int, ...], details: tuple[str, ...]
    ) -> None:
        hint = (
            "Fix the lines marked with `>` and send the whole edit again; "
            "nothing was written."
        )
        super().__init__(message, path=path, details=details, hints=(hint,))
        self.lines = lines

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "lines": list(self.lines)}


def check_text(text: str, subject: str, *, line: int | None = None) -> None:
    """InputError if `text` is not valid Unicode (a lone surrogate: no file can hold it).

    `subject` names the text in the message ("The new text of edit 2").
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        where = text.count("\n", 0, exc.start) + 1
        raise InputError(
            f"{subject} is not valid Unicode text: U+{ord(text[exc.start]):04X} (its line "
            f"{where}) is a lone surrogate",
            patch_line=line,
        ) from None


# What `escaped` shows as an escape: C0 controls, DEL, C1 controls (a terminal takes
# U+009B as CSI), the Unicode line and paragraph separators, lone surrogates (no
# encoder takes them).
_UNSAFE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escaped(text: str, *, keep: str = "") -> str:
    """`text` with its control characters (but those in `keep`) and lone surrogates
    written as escapes (`\\x1b`, `\\n`, `\\ud800`): safe on a terminal, in one line
    (unless `keep` has `\\n`), encodable as UTF-8."""
    if text.isascii() and text.isprintable():  # nearly always: nothing to do
        return text
    import re  # loaded already by the console script; imported here for the library

    pattern = f"(?![{keep}]){_UNSAFE}" if keep else _UNSAFE  # compiled once, cached by `re`
    return re.sub(pattern, _escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def os_reason(exc: BaseException) -> str:
    """An OS error as the reference words it (`No such file or directory (os error 2)`)."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} (os error {exc.errno})"
    return str(exc) or type(exc).__name__
