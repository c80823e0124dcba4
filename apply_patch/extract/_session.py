"""The session's folders, as a log's records reveal them (shared by the record walkers).

A log records absolute paths of the machine it ran on: POSIX ones
(`/home/me/repo/src/a.py`), or, from Windows, ones with a drive letter
(`C:\\Users\\me\\repo\\src\\a.go`, `C:/Users/...`) or a UNC share
(`\\\\server\\share\\repo\\a.go`, `\\\\?\\C:\\...`). Either kind is absolute here,
whatever machine reads the log: a path inside the session's folder becomes
relative to it (with `/`), one outside stays as it is (and is refused when
replayed: it names no file under the root). Windows paths are compared
without regard to letter case, as Windows compares them.
"""

from __future__ import annotations

import ntpath
import posixpath
import re

from dataclasses import dataclass
from ..apply import is_windows_absolute


def is_absolute(path: str) -> bool:
    """Absolute on POSIX or on Windows (see the module)."""
    return posixpath.isabs(path) or is_windows_absolute(path)


@dataclass(frozen=True, slots=True)
class Session:
    """The agent session's folders: `base` (the first seen), `current` (the latest)."""

    base: str | None = None
    current: str | None = None

    def seen(self, cwd: str) -> "Session":
        """After a record saying the session is in `cwd`."""
        return Session(self.base or cwd, cwd)

    @property
    def on_windows(self) -> bool:
        """The session ran in a Windows folder: relative paths may use `\\` as separator."""
        return self.base is not None and is_windows_absolute(self.base)

    def folder(self, workdir: str | None) -> str:
        """A call's folder (`workdir` given, or the current one), relative to `base` if inside."""
        where = workdir if self.current is None else _join(self.current, workdir)
        return "." if where is None else self.relative(where)

    def relative(self, folder: str) -> str:
        """`folder` relative to `base` (with `/`) if it is an absolute path inside it, else as it is."""
        if self.base is None:
            return folder
        if is_windows_absolute(folder) and is_windows_absolute(self.base):
            return _windows_relative(folder, self.base)
        if not posixpath.isabs(folder) or not posixpath.isabs(self.base):
            return folder
        inside = posixpath.relpath(folder, self.base)
        return folder if inside == ".." or inside.startswith("../") else inside

    def written(self, path: str) -> str:
        """A relative path as the session wrote it, with `/` (a Windows session's `\\` too)."""
        return path.replace("\\", "/") if self.on_windows and not is_absolute(path) else path


def _join(folder: str, workdir: str | None) -> str:
    if workdir is None:
        return folder
    if is_windows_absolute(folder) or is_windows_absolute(workdir):
        return ntpath.normpath(ntpath.join(folder, workdir))
    return posixpath.normpath(posixpath.join(folder, workdir))


def _windows_relative(path: str, base: str) -> str:
    """`path` relative to `base` (both Windows absolute), with `/`; `path` itself if outside."""
    drive, rest = _split(path)
    base_drive, base_rest = _split(base)
    if drive != base_drive or base_rest != rest[: len(base_rest)]:
        return path
    original = _split(path, fold=False)[1]
    return "/".join(original[len(base_rest) :]) or "."


def _split(path: str, *, fold: bool = True) -> tuple[str, list[str]]:
    """The drive (or UNC share) and the folder names of a Windows absolute `path`,
    normalised (`.` and `..` resolved, `\\\\?\\` dropped); case-folded with `fold`."""
    if path.startswith(("\\\\?\\", "//?/", "\\\\.\\", "//./")):
        path = path[4:]
        if path[:4].upper() in ("UNC\\", "UNC/"):
            path = "\\\\" + path[4:]
    drive, rest = ntpath.splitdrive(ntpath.normpath(path))
    names = [name for name in re.split(r"[\\/]", rest) if name]
    if fold:
        return drive.replace("/", "\\").casefold(), [name.casefold() for name in names]
    return drive, names
