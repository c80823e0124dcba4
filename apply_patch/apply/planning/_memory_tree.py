"""An in-memory tree of files (path → bytes), as the planner sees it; no disk access.

Paths are relative and use `/`; folders are implied by the paths of their
files. A patch path that is absolute (a Windows one too: `C:\\x`) or leaves the
tree with `..` is refused, whatever the policy (there is nothing outside a
mapping to write to).
"""

from __future__ import annotations

import posixpath

from ..._errors import FilePolicyError
from ._paths import Location, check_path, refuse_windows_absolute
from ..._policy import DEFAULT, Policy
from ._tree import FileState, Kind, State, Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


class MemoryTree(Tree):
    """The files of a mapping; `files` keys are normalised with `normalise`."""

    root = "."

    def __init__(
        self, files: Mapping[str, bytes], policy: Policy = DEFAULT, workdir: str | None = None
    ) -> None:
        self.policy = policy
        self.workdir = workdir
        self.unshown = {}
        self.files = {normalise(path): data for path, data in files.items()}
        self._folders = {""}
        for path in self.files:
            while path := posixpath.dirname(path):
                self._folders.add(path)

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        if written:
            check_path(written, line)  # as on disk: InputError for what cannot be a path
        key = normalise(
            written if self.workdir is None else posixpath.join(self.workdir, written), line=line
        )
        return Location.of(written, key, key, key, key)

    def from_root(self, relative: str) -> Location:
        key = normalise(relative)
        return Location.of(relative, key, key, key, key)

    def walk_files(self, limit: int) -> tuple[list[str], bool]:
        return sorted(self.files)[:limit], len(self.files) <= limit

    def read(self, key: str, *, follow: bool = True) -> State:
        if key in self.files:
            return FileState(self.files[key])
        return Kind.FOLDER if key in self._folders else None

    def kind(self, key: str) -> str | None:
        if key in self.files:
            return "file"
        return "folder" if key in self._folders else None

    def parent(self, key: str) -> str | None:
        return None if key == "" else posixpath.dirname(key)

    def is_alias(self, one: Location, other: Location) -> bool:
        return False


def normalise(path: str, *, line: int | None = None) -> str:
    """`./src//a.py` → `src/a.py`; FilePolicyError for a path outside the tree."""
    refuse_windows_absolute(path, line=line)
    normal = posixpath.normpath(path) if path else ""
    if not normal or "\0" in path or normal.startswith("/") or normal.split("/")[0] == "..":
        raise FilePolicyError(
            f"Path '{path}' is outside the tree: paths must be relative and stay inside it",
            path=path,
            patch_line=line,
        )
    return "" if normal == "." else normal
