"""A tree seen through the plans of earlier patches: what a dry run of a sequence sees.

`extract --apply --dry-run` plans each patch as if the ones before it had been
written: the files they change read as they would be after them, the folders
they would create are there. Nothing is written, and the tree below is only read.
"""

from __future__ import annotations

from ._tree import FileState, Kind, Reading, State, Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._paths import Location
    from ._plan import Plan


class OverlayTree(Tree):
    """`below`, with the net changes of `plans` (in order) laid over it."""

    def __init__(self, below: Tree, plans: list[Plan]) -> None:
        self.policy = below.policy
        self.unshown = below.unshown
        self._below = below
        self._files: dict[str, FileState | None] = {}
        self._folders: set[str] = set()
        self._listed: dict[str, bool] = {}  # a file's path from the root: whether the plans leave one there
        for plan in plans:
            self._folders.update(plan.new_folders)
            self._files.update((change.path, change.after) for change in plan.changes)
            self._listed.update((change.relative, change.after is not None) for change in plan.changes)

    @property
    def root(self) -> str:
        return self._below.root

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        return self._below.resolve(written, follow_leaf=follow_leaf, line=line)

    def from_root(self, relative: str) -> Location:
        return self._below.from_root(relative)

    def walk_files(self, limit: int) -> tuple[list[str], bool]:
        """The files below, as the patches before leave them: those they deleted left out,
        those they created listed after (beyond `limit` when the walk was cut short)."""
        found, complete = self._below.walk_files(limit)
        listed = [path for path in found if self._listed.get(path, True)]
        known = set(listed)
        listed += sorted(path for path, there in self._listed.items() if there and path not in known)
        return listed, complete

    def name(self, key: str) -> str:
        return self._below.name(key)

    def read(self, key: str, *, follow: bool = True) -> State:
        if key in self._files:
            return self._files[key]
        return Kind.FOLDER if key in self._folders else self._below.read(key, follow=follow)

    def kind(self, key: str) -> str | None:
        if key in self._files:
            return None if self._files[key] is None else "file"
        return "folder" if key in self._folders else self._below.kind(key)

    def parent(self, key: str) -> str | None:
        return self._below.parent(key)

    def is_alias(self, one: Location, other: Location) -> bool:
        return self._below.is_alias(one, other)

    def reading(self) -> Reading:
        return self._below.reading()
