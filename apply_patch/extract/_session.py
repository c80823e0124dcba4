"""The agent session's folders, as a log's records reveal them (shared by the record walkers)."""

from __future__ import annotations

import posixpath

from .._dataclass import dataclass


@dataclass(frozen=True, slots=True)
class Session:
    """The agent session's folders: `base` (the first seen), `current` (the latest)."""

    base: str | None = None
    current: str | None = None

    def seen(self, cwd: str) -> "Session":
        """After a record saying the session is in `cwd`."""
        return Session(self.base or cwd, cwd)

    def folder(self, workdir: str | None) -> str:
        """A call's folder (`workdir` given, or the current one), relative to `base` if inside."""
        where = workdir if self.current is None else _join(self.current, workdir)
        return "." if where is None else self.relative(where)

    def relative(self, folder: str) -> str:
        """`folder` relative to `base` if it is an absolute path inside it, else as it is."""
        if self.base is None or not posixpath.isabs(folder):
            return folder
        inside = posixpath.relpath(folder, self.base)
        return folder if inside == ".." or inside.startswith("../") else inside


def _join(folder: str, workdir: str | None) -> str:
    return folder if workdir is None else posixpath.normpath(posixpath.join(folder, workdir))
