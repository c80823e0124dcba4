"""The exception tree: one root, every error carries where it happened.

Whenever one of these is raised by `apply_patch`, nothing on disk was changed,
with one exception: RollbackError (a failed commit that could not be undone).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import ClassVar


class PatchError(ValueError):
    """Root of every error of this package.

    `message` is the reference implementation's wording; `path` the file
    concerned as written in the patch (or None); `patch_line` the 1-based line
    of the patch it concerns (or None); `kind` a stable machine-readable name.
    """

    kind: ClassVar[str] = "error"

    def __init__(
        self, message: str, *, path: str | None = None, patch_line: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.patch_line = patch_line

    def __str__(self) -> str:
        return self.message


class PatchSyntaxError(PatchError):
    """The patch text does not follow the format.

    `line` is the patch line (1 = `*** Begin Patch`) or None for an error of the
    whole patch (a missing envelope); `text` is the offending line.
    """

    kind = "syntax"

    def __init__(self, message: str, *, line: int | None = None, text: str | None = None) -> None:
        super().__init__(message, patch_line=line)
        self.line = line
        self.text = text

    def __str__(self) -> str:
        if self.line is None:
            return f"Invalid patch: {self.message}"
        return f"Invalid patch hunk on line {self.line}: {self.message}"


class EmptyPatchError(PatchError):
    """The patch has no operation at all."""

    kind = "empty"

    def __init__(self) -> None:
        super().__init__("No files were modified.")


class ContextNotFoundError(PatchError):
    """A chunk (or its `@@` context line) is not in the file.

    `expected` holds the lines that were searched for; `context` the `@@` line
    that was not found, or None when the chunk's own lines were not found.
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
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line)
        self.expected = expected
        self.context = context


class FilePolicyError(PatchError):
    """A file policy refuses the operation (file exists, path leaves the root, binary...)."""

    kind = "policy"


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
    ) -> None:
        super().__init__(message, path=path, patch_line=patch_line)
        self.errno = errno


class ConcurrentChangeError(PatchIOError):
    """A file changed on disk between planning and committing the patch."""

    kind = "conflict"


class RollbackError(PatchIOError):
    """Committing failed and some files could not be put back as they were.

    The only error after which the tree may differ from before: `unrestored`
    lists the paths that could not be restored.
    """

    kind = "rollback"

    def __init__(self, message: str, *, unrestored: tuple[str, ...]) -> None:
        super().__init__(message)
        self.unrestored = unrestored
