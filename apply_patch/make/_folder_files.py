"""A folder on disk → its files as a mapping of relative POSIX path to bytes (read only).

Version-control folders (`.git`, `.hg`, `.svn`) and names matching an
exclude pattern are left out. Symbolic links and other entries that are not
regular files are returned apart: the patch format cannot express them.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._errors import UnsupportedChangeError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

VCS_FOLDERS: Final = (".git", ".hg", ".svn")


@dataclass(frozen=True, slots=True)
class FolderFiles:
    """`files`: path → bytes; `others`: path → what it is (a symlink's target, "special")."""

    files: dict[str, bytes] = field(default_factory=dict)
    others: dict[str, str] = field(default_factory=dict)


def read_folder(root: str, exclude: Sequence[str] = ()) -> FolderFiles:
    """Every file under `root`, except VCS folders and names matching `exclude` (globs)."""
    tree = FolderFiles()
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs if not _excluded(d, exclude) and not _is_link(folder, d, tree, root)
        )
        for name in sorted(names):
            if not _excluded(name, exclude):
                _read(os.path.join(folder, name), root, tree)
    return tree


def _excluded(name: str, exclude: Sequence[str]) -> bool:
    return name in VCS_FOLDERS or any(fnmatch.fnmatchcase(name, pattern) for pattern in exclude)


def _relative(path: str, root: str) -> str:
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    try:
        relative.encode("utf-8")
    except UnicodeEncodeError:
        raise UnsupportedChangeError(
            f"Cannot make a patch for {relative.encode('utf-8', 'surrogateescape')!r}: "
            "its name is not UTF-8",
            path=relative,
        ) from None
    return relative


def _is_link(folder: str, name: str, tree: FolderFiles, root: str) -> bool:
    """A symlink to a folder is an entry of its own, not a folder to walk into."""
    path = os.path.join(folder, name)
    if os.path.islink(path):
        tree.others[_relative(path, root)] = "symlink:" + os.readlink(path)
        return True
    return False


def _read(path: str, root: str, tree: FolderFiles) -> None:
    relative = _relative(path, root)
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        tree.others[relative] = "symlink:" + os.readlink(path)
    elif not stat.S_ISREG(mode):
        tree.others[relative] = "special"
    else:
        with open(path, "rb") as file:
            tree.files[relative] = file.read()
