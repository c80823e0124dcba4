"""A file name a reply wrote that names no file → the one file it is a mangled name of.

Models mangle names (`file1_py` for `file1.py`, `pkg/file-one_py`). Once separators,
dots, underscores and dashes are set aside (`name_key`), a written name that is the name
of exactly one file is taken as that file: matched by its path from the working folder,
else (a name without a separator) by its file name alone. Several matches, or none: no
file is guessed. A name ending with a separator names a folder, never a file.

The files looked among are those of the plan so far (`FileNames`): the tree's, walked
once when a name first needs them (at most `WALK_LIMIT` entries, hidden and VCS
folders skipped, as "did you mean" walks them), with the files the plan created and
without those it deleted. A dry run of several patches sees those before it
(`OverlayTree.walk_files`). Only formats whose terms say so (`Terms.slips`:
SEARCH/REPLACE) have their names read this way (`_edit_plan`), each with a warning.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Final

    from ._tree import Tree

WALK_LIMIT: Final = 20_000  # entries walked to read a reply's mangled names, at most
_SET_ASIDE: Final = str.maketrans("", "", "/\\._-")


def name_key(name: str) -> str:
    """`name` without separators, dots, underscores and dashes: how a mangled name is matched."""
    return name.translate(_SET_ASIDE)


def the_one(written: str, files: Iterable[str]) -> str | None:
    """The one file of `files` (paths from the working folder) that `written` is a mangled
    name of, or None (none, or several)."""
    if written.endswith(("/", "\\")):  # a folder's name: never a file's
        return None
    key = name_key(written)
    listed = list(files)
    found = [path for path in listed if name_key(path) == key]
    if len(found) != 1 and not any(c in written for c in "/\\"):
        found = [path for path in listed if name_key(path.rsplit("/", 1)[-1]) == key]
    return found[0] if len(found) == 1 else None


class FileNames:
    """The files of a tree from its working folder, walked once when first asked for, with
    the changes of a plan laid over them (`created`, `deleted`: paths from the root)."""

    def __init__(self, tree: Tree) -> None:
        self._tree = tree
        self._walked: list[str] | None = None
        self._prefix = ""

    def files(self, created: Iterable[str] = (), deleted: Iterable[str] = ()) -> list[str]:
        """The files from the working folder (paths with `/`), the plan's changes laid over."""
        if self._walked is None:
            paths, _ = self._tree.walk_files(WALK_LIMIT)
            folder = self._tree.resolve(".").relative.replace("\\", "/")
            self._prefix = "" if folder in (".", "") else folder.rstrip("/") + "/"
            self._walked = paths
        gone = set(deleted)
        every = [p for p in self._walked if p not in gone]
        known = set(every)
        every += [p for p in created if p not in known]
        return [p[len(self._prefix) :] for p in every if p.startswith(self._prefix)]
