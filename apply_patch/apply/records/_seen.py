"""No edit on a stale view: what a session's model last saw of each file.

An editor session (`anthropic.TextEditor`, `openai_agents.Editor`, the MCP
server) keeps a `Seen`: the SHA-256 of each file as the model last viewed or
wrote it. While the session runs a command (`watching`), the pipeline checks
each plan against it, under the root's lock and before the commit (which
re-checks that the disk still holds the bytes planned on): a file whose
bytes are not those the model saw was changed by someone else since, and the
edit is refused (`StaleViewError`) with a message telling the model to view
it again. A file the model never viewed or wrote is not checked. Reads only.
"""

from __future__ import annotations

import contextvars
import os

from ..._errors import PatchError, StaleViewError
from . import _digest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from contextlib import AbstractContextManager

    from ..planning import FileChange, Plan

_ACTIVE: contextvars.ContextVar[Seen | None] = contextvars.ContextVar("apply_patch_seen", default=None)
_CHUNK = 1 << 20


class Seen:
    """The hash of each file (by the absolute path plans name it with) as last viewed or written."""

    def __init__(self, refuse: Callable[[list[str]], PatchError] | None = None) -> None:
        """`refuse`: the error for the files (relative names) found changed; default a
        StaleViewError naming the first. A hash "" stands for a file that was absent; with a
        `refuse` of its own (a staged patch), a file seen that is absent now is changed too."""
        self.hashes: dict[str, str] = {}
        self.refuse = refuse or _stale
        self.strict = refuse is not None

    def viewed(self, path: str, fd: int) -> None:
        """The model viewed (part of) the open file `fd` at `path`: remember all its bytes' hash
        (read in parts: bounded memory, whatever its size)."""
        digest, offset = _digest.new(os.fstat(fd).st_size), 0
        while chunk := os.pread(fd, _CHUNK, offset):
            digest.update(chunk)
            offset += len(chunk)
        self.hashes[path] = digest.hexdigest()

    def check(self, plan: Plan) -> None:
        """`refuse`'s error if a file the plan reads is not what was seen of it."""
        changed = [change.relative for change in plan.changes if self._changed(change)]
        if changed:
            raise self.refuse(changed)

    def _changed(self, change: FileChange) -> bool:
        seen, before = self.hashes.get(change.path), change.before
        if seen is None:
            return False
        if before is None or seen == "":
            return (before is None and seen != "" and self.strict) or (before is not None and seen == "")
        return not before.is_link and _digest.hexdigest(before.data) != seen

    def wrote(self, changes: Iterable[FileChange]) -> None:
        """The session wrote these changes: what the model knows of those files now."""
        for change in changes:
            if change.after is None or change.after.is_link:
                self.hashes.pop(change.path, None)
            else:
                self.hashes[change.path] = _digest.hexdigest(change.after.data)

    def watching(self) -> AbstractContextManager[None]:
        """While in it, the pipeline checks and records every plan against this session."""
        import contextlib

        @contextlib.contextmanager
        def scope() -> Iterator[None]:
            token = _ACTIVE.set(self)
            try:
                yield
            finally:
                _ACTIVE.reset(token)

        return scope()


def _stale(names: list[str]) -> PatchError:
    return StaleViewError(
        f"{names[0]} was changed on disk since you last viewed it: view it again, then redo the "
        "edit on what it holds now",
        path=names[0],
    )


def active() -> Seen | None:
    """The session running in this context (`watching`), if any."""
    return _ACTIVE.get()


def check(plan: Plan) -> None:
    """The running session's check of `plan` (none outside a session)."""
    seen = _ACTIVE.get()
    if seen is not None:
        seen.check(plan)


def wrote(changes: Iterable[FileChange]) -> None:
    """The running session records what was written (nothing outside a session)."""
    seen = _ACTIVE.get()
    if seen is not None:
        seen.wrote(changes)
