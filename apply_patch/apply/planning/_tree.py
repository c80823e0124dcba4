"""What the planner sees of a tree of files: the `Tree` interface and file states.

Two trees implement it: the files under a root folder (`_disk_tree`) and an
in-memory mapping of path → content (`_memory_tree`). Neither writes.
"""

from __future__ import annotations

import os

from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

    from ._paths import Location
    from ..._policy import Policy


@dataclass(frozen=True, slots=True)
class FileState:
    """A file's bytes and permission bits (None: as for a new file).

    For a symlink (`is_link`), `data` is the link's target path. The other
    fields are facts of the file on disk, not compared: `info` its status
    when read (identity, size, times, links), `owner` the (uid, gid) a
    written file should keep, `read_only` whether it has no write permission
    for us or at all.
    """

    data: bytes
    mode: int | None = None
    is_link: bool = False
    owner: tuple[int, int] | None = field(default=None, compare=False)
    read_only: bool = field(default=False, compare=False)
    info: os.stat_result | None = field(default=None, compare=False, repr=False)

    @property
    def links(self) -> int:
        """How many names the file has (1 when unknown)."""
        return 1 if self.info is None else self.info.st_nlink

    @property
    def hidden(self) -> bool:
        """Whether its content may not be shown (`hidden`)."""
        return self.info is not None and hidden(self.info)


def hidden(info: os.stat_result) -> bool:
    """The one hard-link rule of every place that shows content (`view`, diffs, messages).

    A file with more than one name whose owner is not the user running the
    engine is not shown: its other names may be outside the root, where the
    user may not read it. The user's own hard-linked files (pnpm stores,
    `cp -al` trees, Nix) stay usable: the user can read them anyway.
    """
    return info.st_nlink > 1 and info.st_uid != os.geteuid()


class Kind:
    """What a path is when it is not a regular file or a symlink: `Kind.FOLDER` or
    `Kind.SPECIAL`, the only two instances (compared with `is`); `value` names it.

    A class with two constants rather than an `enum.Enum`: making an Enum class costs
    start-up time, and nothing here iterates, looks up or pickles these.
    """

    __slots__ = ("value",)
    FOLDER: ClassVar[Kind]
    SPECIAL: ClassVar[Kind]

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"<Kind.{'FOLDER' if self is Kind.FOLDER else 'SPECIAL'}: {self.value!r}>"


Kind.FOLDER = Kind("folder")
Kind.SPECIAL = Kind("special file")


State = FileState | Kind | None  # None: nothing there


class Tree:
    """Read-only access to the files a patch touches (subclasses say where they are).

    `policy` is the one policy of a patch's application: the tree resolves
    paths under it, and the plan reads it from the tree (it is given once).
    """

    policy: Policy
    # Files read whose content may not be shown (`hidden`): their name in messages
    # (relative, as errors carry it) → their number of hard links.
    unshown: dict[str, int]

    @property
    def root(self) -> str:
        """How messages name the root."""
        raise NotImplementedError

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        """The location of a patch path (at patch `line`); FilePolicyError if it may not be touched."""
        raise NotImplementedError

    def from_root(self, relative: str) -> Location:
        """The location of `relative` (`/`-separated, relative to the root, not to the working
        folder), resolved as `resolve` resolves a patch path; FilePolicyError if it may not be read."""
        raise NotImplementedError

    def read(self, key: str, *, follow: bool = True) -> State:
        """The state of `key` (a Location's entry or target); OSError if unreadable."""
        raise NotImplementedError

    def kind(self, key: str) -> str | None:
        """"folder", "file", "special file", or None when nothing is at `key`."""
        raise NotImplementedError

    def parent(self, key: str) -> str | None:
        """The folder holding `key`, or None above the top."""
        raise NotImplementedError

    def walk_files(self, limit: int) -> tuple[list[str], bool]:
        """Up to `limit` entries under the root: (the files' paths relative to it, with `/`;
        whether every entry was seen). For "did you mean" only: an error path."""
        raise NotImplementedError

    def name(self, key: str) -> str:
        """How messages name `key` (relative to the root unless the policy says absolute)."""
        return key

    def is_alias(self, one: Location, other: Location) -> bool:
        """True when `one` names `other`'s own entry in another spelling (case)."""
        raise NotImplementedError

    def reading(self) -> Reading:
        """A context for one plan's reads: inside it a tree may keep what it opened (the
        disk: folder descriptors) for the next read, and releases it at the end. Re-entrant."""
        return Reading()


class Reading:
    """What `Tree.reading` returns; this one keeps nothing (a tree in memory opens nothing)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        return None
