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


class FileNames:
    """The files of a tree from its working folder, walked once when a name first needs
    them and indexed by their keys (`name_key`), with a plan's changes laid over them."""

    def __init__(self, tree: Tree | None) -> None:
        self._tree = tree
        self._prefix = ""
        self._by_path: dict[str, list[str]] | None = None
        self._by_name: dict[str, list[str]] = {}

    def index(self, files: Iterable[str]) -> None:
        """Index `files` (paths from the working folder): the tree's, once."""
        self._by_path = {}
        for path in files:
            self._by_path.setdefault(name_key(path), []).append(path)
            self._by_name.setdefault(name_key(path.rsplit("/", 1)[-1]), []).append(path)

    def the_one(self, written: str, created: Iterable[str] = (), deleted: Iterable[str] = ()) -> str | None:
        """The one file `written` is a mangled name of, among the tree's files with those the
        plan `created` and without those it `deleted` (paths from the root); None if none
        or several."""
        if written.endswith(("/", "\\")):  # a folder's name: never a file's
            return None
        if self._by_path is None:
            assert self._tree is not None  # (`index` was given the files otherwise)
            paths, _ = self._tree.walk_files(WALK_LIMIT)
            folder = self._tree.resolve(".").relative.replace("\\", "/")
            self._prefix = "" if folder in (".", "") else folder.rstrip("/") + "/"
            self.index(p[len(self._prefix) :] for p in paths if p.startswith(self._prefix))
        assert self._by_path is not None
        gone = {p[len(self._prefix) :] for p in deleted if p.startswith(self._prefix)}
        new = [p[len(self._prefix) :] for p in created if p.startswith(self._prefix)]
        key = name_key(written)
        found = self._matches(self._by_path.get(key, ()), new, gone, key, whole=True)
        if len(found) != 1 and not any(c in written for c in "/\\"):
            found = self._matches(self._by_name.get(key, ()), new, gone, key, whole=False)
        return found[0] if len(found) == 1 else None

    @staticmethod
    def _matches(indexed: Iterable[str], new: list[str], gone: set[str], key: str, *, whole: bool) -> list[str]:
        """The indexed paths not `gone`, with the `new` ones whose key (of the path, or of its
        file name) is `key`, each once."""
        found = [p for p in indexed if p not in gone]
        found += [p for p in new if p not in found and name_key(p if whole else p.rsplit("/", 1)[-1]) == key]
        return found
