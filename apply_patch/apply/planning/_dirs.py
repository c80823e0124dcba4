"""Folders opened one name at a time from `/`, never through a symlink.

The commit names every file it touches as (folder descriptor, name), and so
do the reads that show content (the plan, `view`, listings): a folder on the
way that was swapped for a symlink, or for a file, after the path was
resolved cannot redirect a write or a read; it is a `ConcurrentChangeError`,
reported by the caller with the folder's name. This module only opens and
closes descriptors.
"""

import errno
import os

# O_PATH: a descriptor for *at() calls that needs no read permission on the folder. The
# others are read with a default so that the module imports where they are missing
# (Windows), where nothing of this runs (`_disk_tree.check_platform`).
_FLAGS: int = (
    getattr(os, "O_PATH", os.O_RDONLY)
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


class FolderChanged(Exception):
    """`folder` is no longer the real folder the plan saw: `why` says what it is now.

    `what` is "folder", or "file" for the last name of a path read without
    following a symlink (`why`: "is now a symlink").
    """

    def __init__(self, folder: str, why: str, what: str = "folder") -> None:
        super().__init__(f"the {what} {folder} {why}")
        self.folder = folder
        self.why = why
        self.what = what


class Folders:
    """Descriptors of absolute folders (symlinks resolved), cached; `close()` releases them."""

    def __init__(self) -> None:
        self._fds: dict[str, int] = {}

    def __enter__(self) -> "Folders":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def get(self, folder: str) -> int:
        """The descriptor of `folder`, opened from its parent's; FolderChanged if it cannot be."""
        fd = self._fds.get(folder)
        if fd is not None:
            return fd
        parent = os.path.dirname(folder)
        if parent == folder:  # "/"
            fd = os.open(folder, _FLAGS)
        else:
            fd = self.open_child(self.get(parent), folder)
        self._fds[folder] = fd
        return fd

    def open_child(self, parent: int, folder: str) -> int:
        name = os.path.basename(folder)
        try:
            return os.open(name, _FLAGS, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                try:
                    os.readlink(name, dir_fd=parent)
                    why = "is now a symlink"
                except OSError:
                    why = "is no longer a folder"
                raise FolderChanged(folder, why) from exc
            if exc.errno == errno.ENOENT:
                raise FolderChanged(folder, "no longer exists") from exc
            raise

    def forget(self, folder: str) -> None:
        """Close `folder`'s descriptor (it is being removed)."""
        fd = self._fds.pop(folder, None)
        if fd is not None:
            os.close(fd)

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
