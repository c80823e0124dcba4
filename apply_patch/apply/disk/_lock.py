"""Locks that make cooperating writers take turns: threads of one process, and processes.

A patch is planned and committed holding `RootLock(root)`:

- a process-wide `threading.RLock`, so that threads (the MCP server's tool
  calls, library callers) apply one patch at a time;
- advisory `flock` locks on folders, never on files and never a lock file:
  shared on every folder above the root (from `/` down), exclusive on the
  root itself. Two roots that overlap (`-C repo` and `-C repo/sub`) meet on
  the upper one (one holds it exclusively, the other wants it shared); two
  separate roots only share their common ancestors and run side by side.
  Locks are taken top-down, the same order everywhere, so no two patches
  wait for each other in a cycle.

A folder that cannot be opened for reading (no permission) or locked (a file
system without `flock`) is skipped: the lock is then only as good as the
folders that could be locked. Writers that take no lock are not excluded;
the commit checks every file again (see `_commit`).
"""

import os
import threading

_THREADS = threading.RLock()
_held: list[str] = []  # roots this process holds (only touched with _THREADS held)


def _chain(root: str) -> list[str]:
    """`/`, then every folder down to `root` (symlinks resolved)."""
    real = os.path.realpath(root)
    chain = [real]
    while (parent := os.path.dirname(chain[-1])) != chain[-1]:
        chain.append(parent)
    return chain[::-1]


def _overlap(one: str, other: str) -> bool:
    def inside(path: str, folder: str) -> bool:
        return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)

    return inside(one, other) or inside(other, one)


class RootLock:
    """Hold while reading and writing under `root`; re-entrant within a thread."""

    def __init__(self, root: str) -> None:
        self.chain = _chain(root)
        self.root = self.chain[-1]
        self._fds: list[int] = []
        self._nested = False

    def __enter__(self) -> "RootLock":
        _THREADS.acquire()
        try:
            self._nested = any(_overlap(self.root, held) for held in _held)
            if not self._nested:
                self._lock(blocking=True)
            _held.append(self.root)
        except BaseException:
            self._release()
            _THREADS.release()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        _held.pop()
        self._release()
        _THREADS.release()

    def try_acquire(self) -> bool:
        """Take the folder locks without waiting; False if another holder has them."""
        try:
            self._lock(blocking=False)
        except BlockingIOError:
            self._release()
            return False
        return True

    def _lock(self, *, blocking: bool) -> None:
        import fcntl  # here, not at import: the package imports where there is none (Windows)

        for folder in self.chain:
            try:
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError:  # not readable by us: the locks below it still count
                continue
            self._fds.append(fd)
            kind = fcntl.LOCK_EX if folder == self.root else fcntl.LOCK_SH
            try:
                fcntl.flock(fd, kind | (0 if blocking else fcntl.LOCK_NB))
            except BlockingIOError:
                raise
            except OSError:  # no flock on this file system
                continue

    def _release(self) -> None:
        while self._fds:
            os.close(self._fds.pop())  # closing the last descriptor releases its lock
