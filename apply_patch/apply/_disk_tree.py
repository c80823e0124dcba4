"""The files under a root folder, as the planner sees them (reads, never writes).

It is also the door to the disk: a `DiskTree` is made before any folder is read
or written, so it is where a system that cannot keep the commit's guarantees is
refused (`check_platform`).
"""

import os
import signal
import stat

from .._errors import PatchIOError
from ._paths import Location, Resolver, check_name
from .._policy import Policy
from ._tree import FileState, Kind, State, Tree


_NOT_WALKED = (".git", ".hg", ".svn")  # version control data: never a file a patch means


def missing_calls() -> list[str]:
    """The POSIX calls this system lacks that applying to a folder needs (none on Linux, macOS).

    The guarantees of docs/safety.md rest on them: `fcntl.flock` (cooperating
    writers take turns), `O_NOFOLLOW` and `O_DIRECTORY` with the `*at()` calls
    (`dir_fd`: a folder swapped for a symlink cannot redirect a write),
    `pthread_sigmask` (Ctrl-C waits for the commit). Windows has none of them.
    The modules that use them read them when they run, or with a harmless
    default at import, so that the package imports everywhere.
    """
    try:
        import fcntl  # noqa: F401  (only its presence matters here; the commit imports it anyway)
    except ImportError:
        absent = ["fcntl"]
    else:
        absent = []
    absent += [f"os.{name}" for name in ("O_NOFOLLOW", "O_DIRECTORY") if not hasattr(os, name)]
    if os.open not in os.supports_dir_fd:
        absent.append("dir_fd")
    if not hasattr(signal, "pthread_sigmask"):
        absent.append("signal.pthread_sigmask")
    return absent


def check_platform() -> None:
    """Raise PatchIOError (one line, nothing read or written) where applying to a folder
    cannot keep its guarantees; elsewhere (in memory: `apply_to_mapping`) nothing is needed."""
    absent = missing_calls()
    if absent:
        raise PatchIOError(
            f"Applying to a folder is not supported on this system: it lacks {', '.join(absent)}, "
            "on which the all-or-nothing commit rests (docs/safety.md). Use Linux or macOS "
            "(on Windows: WSL), or apply_to_mapping() in memory."
        )


class DiskTree(Tree):
    """The tree under `root`; paths resolve from `workdir` as `_paths.Resolver` says."""

    def __init__(self, root: str, policy: Policy, workdir: str = ".") -> None:
        check_platform()  # before anything is read: where the commit cannot be safe, no folder is
        check_name(root, "root folder")
        if not os.path.isdir(root):
            raise PatchIOError(f"The root folder {os.path.abspath(root)} does not exist", path=root)
        self.policy = policy
        self._resolver = Resolver(root, policy, workdir)

    @property
    def root(self) -> str:
        return self._resolver.root_shown

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        return self._resolver.resolve(written, follow_leaf=follow_leaf, line=line)

    def from_root(self, relative: str) -> Location:
        return self._resolver.resolve(os.path.join(self._resolver.root_shown, relative))

    def walk_files(self, limit: int) -> tuple[list[str], bool]:
        found: list[str] = []
        seen = 0
        root = self._resolver.root_shown
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(f for f in folders if f not in _NOT_WALKED)
            for name in sorted(names):
                seen += 1
                if seen > limit:
                    return found, False
                found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
            seen += len(folders)
            if seen > limit:
                return found, False
        return found, True

    def name(self, key: str) -> str:
        return self._resolver.name(key)

    def read(self, key: str, *, follow: bool = True) -> State:
        return read_entry(key, follow=follow)

    def kind(self, key: str) -> str | None:
        try:
            mode = os.stat(key).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        if stat.S_ISDIR(mode):
            return "folder"
        return "file" if stat.S_ISREG(mode) else Kind.SPECIAL.value

    def parent(self, key: str) -> str | None:
        folder = os.path.dirname(key)
        return None if folder == key else folder

    def is_alias(self, one: Location, other: Location) -> bool:
        # On a case-insensitive file system `README.md` finds `Readme.md`: the
        # same entry, though its name is not listed in that spelling.
        try:
            same = os.path.samefile(one.target, other.target)
            listed = os.path.basename(one.target) in os.listdir(os.path.dirname(one.target))
        except OSError:
            return False
        return same and not listed


def read_entry(path: str, *, follow: bool) -> State:
    """What is at `path`: a file's bytes and mode, a symlink's target (when not
    following it), a folder or a special file, or None; OSError if unreadable."""
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        return FileState(os.fsencode(os.readlink(path)), is_link=True, info=info)
    if stat.S_ISDIR(info.st_mode):
        return Kind.FOLDER
    if not stat.S_ISREG(info.st_mode):  # never open a FIFO or a device
        return Kind.SPECIAL
    # The status of the open file, not of the path: the bytes and the identity
    # the commit checks again are those of one and the same file.
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    with open(os.open(path, flags), "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):  # swapped since the stat above
            return Kind.SPECIAL
        data = file.read()
    mode = stat.S_IMODE(info.st_mode)
    read_only = not mode & 0o222 or not os.access(path, os.W_OK)
    return FileState(data, mode, owner=(info.st_uid, info.st_gid), read_only=read_only, info=info)
