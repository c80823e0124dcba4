"""The files under a root folder, as the planner sees them (reads, never writes).

It is also the door to the disk: a `DiskTree` is made before any folder is read
or written, so it is where a system that cannot keep the commit's guarantees is
refused (`check_platform`).

Every read that can show content (a file's bytes for the plan and its
messages, `view`, a folder's listing) goes through the walk the commit
writes through (`_dirs`): each folder opened from `/` one name at a time
with `O_NOFOLLOW | O_DIRECTORY`, the file opened relative to its folder with
`O_NOFOLLOW`. The paths read here had their symlinks resolved (and were
confined to the root) when they were resolved; a symlink met now was swapped
in since, and is a `FolderChanged`, never followed: content from outside the
root cannot appear, whatever renames race with the read.

Within one plan (`DiskTree.reading`) the folders' descriptors are kept and
shared by the files read in them: each folder is walked once, not once per
file. A folder swapped for a symlink after its descriptor was opened is then
not seen by the plan's later reads (they read the real folder it was, inside
the root); the commit walks every folder again from `/` and refuses it
(`ConcurrentChangeError`), so the patch is refused as before.
"""

import errno
import os
import signal
import stat

from ..._errors import PatchIOError
from ._dirs import FolderChanged, Folders
from ._paths import Location, Resolver, check_name, lstat
from ..._policy import Policy
from ._tree import FileState, Kind, Reading, State, Tree


_NOT_WALKED = (".git", ".hg", ".svn")  # version control data: never a file a patch means
# The largest file the plan reads whole (an edit holds it in memory several times over:
# bytes, text, lines); a larger one is refused before it is read. `view` streams instead.
MAX_FILE_BYTES = 256 * 1024 * 1024
# POSIX flags, read with a default so that the module imports where they are missing
# (Windows), where nothing is read before `check_platform` refuses.
_NOFOLLOW_CLOEXEC: int = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW_CLOEXEC
_LIST = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW_CLOEXEC
_LISTED = 100_000  # names of one folder read for a listing, at most (they are sorted)


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
        self.unshown = {}
        self._resolver = Resolver(root, policy, workdir)
        self._folders: Folders | None = None  # kept while `reading()`: one plan
        self._readings = 0
        # The last name the resolver looked at through a folder descriptor: its path, the
        # folder's descriptor, the name, and its status (None: nothing has that name). The
        # read that follows (the same name, the same descriptor) does not look again.
        self._looked: tuple[str, int, str, os.stat_result | None] | None = None
        self._unopened: set[str] = set()  # folders `_look` could not open: looked at by path

    @property
    def root(self) -> str:
        return self._resolver.root_shown

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        self._looked = None  # a look is only ever used by the read right after its resolution
        return self._resolver.resolve(written, follow_leaf=follow_leaf, line=line)

    def from_root(self, relative: str) -> Location:
        return self.resolve(os.path.join(self._resolver.root_shown, relative))

    def walk_files(self, limit: int) -> tuple[list[str], bool]:
        found: list[str] = []
        seen = 0
        root = self._resolver.root_shown
        # fwalk, not walk: folders are descended through descriptors, never through a
        # symlink swapped in meanwhile (the names listed stay those of the root's files).
        for folder, folders, names, _ in os.fwalk(root):
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
        looked, self._looked = self._looked, None
        if looked is None or looked[0] != key:
            return read_entry(key, follow=follow, folders=self._folders)
        _, fd, name, info = looked
        if info is None:
            return None  # the look found nothing there, just now (as the read would)
        return read_entry(key, follow=follow, folders=self._folders, looked=info, place=(fd, name))

    def _look(self, path: str) -> os.stat_result | None:
        """The resolver's look at the last name of `path` while reading: through the
        descriptor of its folder, kept for the read that follows (by path where the folder
        cannot be opened: one that does not exist yet)."""
        folders = self._folders
        folder, _, name = path.rpartition(os.sep)  # (an absolute path, its folder real: `os.path.split`)
        folder = folder or os.sep
        if folders is None or folder in self._unopened:
            return lstat(path)
        try:
            fd = folders.get(folder)
        except FolderChanged:
            self._unopened.add(folder)
            return lstat(path)
        try:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError):
            self._looked = (path, fd, name, None)  # nothing there: the read need not look again
            return None
        except OSError:
            return None  # as `lstat`; the read looks again, and says why it cannot
        self._looked = (path, fd, name, info)
        return info

    def reading(self) -> Reading:
        return _KeptFolders(self)

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

    def open_file(self, key: str) -> tuple[int, os.stat_result] | Kind | None:
        """For reading a file in parts (`view`): the regular file at `key`, open, and its status.

        The caller closes the descriptor. Otherwise what is there (a folder, a
        special file; None: nothing); FolderChanged when a symlink was swapped
        in on the way, OSError when it cannot be read.
        """
        with Folders() as folders:
            place = _walk_to(folders, key)
            if place is None:
                return None
            opened = _open(*place, key, follow=True)
        if isinstance(opened, tuple) and not stat.S_ISREG(opened[1].st_mode):
            os.close(opened[0])
            return Kind.SPECIAL
        assert not isinstance(opened, FileState)
        return opened

    def listing(self, key: str, depth: int, budget: int) -> tuple[list[str], bool, int]:
        """The files and folders under the folder `key`, `depth` levels deep, for `view`.

        Names starting with a dot are left out (and counted); a folder's name
        ends with `/` (a symlink to one does not, and is not entered). Read
        through folder descriptors, never through a symlink. Stops once the
        names take more than `budget` characters: (the names, whether all were
        listed, how many hidden names were left out in the folders read).
        """
        with Folders() as folders:
            place = _walk_to(folders, key)
            if place is None:
                return [], True, 0
            try:
                fd = os.open(place[1], _LIST, dir_fd=place[0]) if place[1] else os.open("/", _LIST)
            except OSError:
                return [], True, 0
        listed = _Listing(budget)
        try:
            listed.walk(fd, "", depth)
        finally:
            os.close(fd)
        return listed.entries, listed.complete, listed.hidden


class _KeptFolders(Reading):
    """The folder descriptors of a `DiskTree`'s reads, kept from the outermost `with` to its end."""

    def __init__(self, tree: DiskTree) -> None:
        self._tree = tree

    def __enter__(self) -> None:
        tree = self._tree
        tree._readings += 1
        if tree._folders is None:
            tree._folders = Folders()
            tree._resolver.look = tree._look

    def __exit__(self, *exc_info: object) -> None:
        tree = self._tree
        tree._readings -= 1
        if tree._readings == 0 and tree._folders is not None:
            tree._resolver.look = lstat
            tree._looked = None
            tree._unopened.clear()
            tree._folders.close()
            tree._folders = None


class _Listing:
    """The names of a listing, within a budget of characters."""

    def __init__(self, budget: int) -> None:
        self.entries: list[str] = []
        self.complete = True
        self.hidden = 0  # names starting with a dot, left out
        self._left = budget

    def walk(self, fd: int, prefix: str, depth: int) -> None:
        for name, is_folder in _names(fd, self):
            entry = prefix + name + ("/" if is_folder else "")
            self._left -= len(entry) + 1
            if self._left < 0:
                self.complete = False
                return
            self.entries.append(entry)
            if is_folder and depth > 1:
                self._enter(fd, name, prefix + name + "/", depth - 1)
            if not self.complete:
                return

    def _enter(self, parent: int, name: str, prefix: str, depth: int) -> None:
        try:
            fd = os.open(name, _LIST, dir_fd=parent)
        except OSError:  # gone, not readable, or a symlink now: not entered
            return
        try:
            self.walk(fd, prefix, depth)
        finally:
            os.close(fd)


def _names(fd: int, listing: _Listing) -> list[tuple[str, bool]]:
    """The folder's names (hidden ones left out, counted in `listing`), sorted, each with
    whether it is a folder."""
    found: list[tuple[str, bool]] = []
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if len(found) == _LISTED:
                    listing.complete = False
                    break
                if entry.name.startswith("."):
                    listing.hidden += 1
                else:
                    found.append((entry.name, entry.is_dir(follow_symlinks=False)))
    except OSError:
        return []
    return sorted(found)


def read_entry(
    path: str,
    *,
    follow: bool,
    folders: Folders | None = None,
    looked: os.stat_result | None = None,
    place: tuple[int, str] | None = None,
) -> State:
    """What is at `path`: a file's bytes and mode, a symlink's target (when not
    following it), a folder or a special file, or None; OSError if unreadable.

    `path` had its symlinks resolved: it is read through folder descriptors
    (see the module), and a symlink met on the way (or as the file itself,
    when `follow`) is a FolderChanged. A file larger than MAX_FILE_BYTES is
    an OSError (EFBIG) before it is read. `folders`: descriptors kept by the
    caller (one plan's); without, the folders are opened for this read alone.
    `looked`: the status of the last name, just taken through its folder's
    descriptor in `folders` (by the resolver), not taken again; `place`: that
    descriptor and the name (the folder is not looked up again).
    """
    if folders is None:
        with Folders() as fresh:
            return read_entry(path, follow=follow, folders=fresh)
    if place is None:
        place = _walk_to(folders, path)
        if place is None:
            return None
    opened = _open(*place, path, follow=follow, looked=looked)
    if not isinstance(opened, tuple):
        return opened
    fd, info = opened
    try:
        if not stat.S_ISREG(info.st_mode):  # swapped since the first look
            return Kind.SPECIAL
        if info.st_size > MAX_FILE_BYTES:
            raise OSError(errno.EFBIG, _too_large(info.st_size))
        data = read_all(fd, info.st_size)
    finally:
        os.close(fd)
    mode = stat.S_IMODE(info.st_mode)
    read_only = not mode & 0o222 or not os.access(place[1], os.W_OK, dir_fd=place[0])
    return FileState(data, mode, owner=(info.st_uid, info.st_gid), read_only=read_only, info=info)


def _walk_to(folders: Folders, path: str) -> tuple[int, str] | None:
    """The descriptor of `path`'s folder and its last name; None when a folder on
    the way is missing or not a folder (nothing is at `path`). FolderChanged when
    one is a symlink: it was swapped in after `path` was resolved."""
    try:
        return folders.get(os.path.dirname(path)), os.path.basename(path)
    except FolderChanged as exc:
        if exc.why == "is now a symlink":
            raise
        return None


def _open(
    folder: int, name: str, path: str, *, follow: bool, looked: os.stat_result | None = None
) -> tuple[int, os.stat_result] | State:
    """The entry `name` of `folder`: a regular file opened (with its status, the
    open file's), or the state of anything else (a symlink's target when not `follow`).
    `looked`: its status, already taken through `folder`."""
    try:
        info = looked or os.stat(name, dir_fd=folder, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISLNK(info.st_mode):
        if follow:
            raise FolderChanged(path, "is now a symlink", "file")
        return FileState(os.fsencode(os.readlink(name, dir_fd=folder)), is_link=True, info=info)
    if stat.S_ISDIR(info.st_mode):
        return Kind.FOLDER
    if not stat.S_ISREG(info.st_mode):  # never open a FIFO or a device
        return Kind.SPECIAL
    try:
        fd = os.open(name, _READ, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a symlink since the first look
            raise FolderChanged(path, "is now a symlink", "file") from exc
        raise
    # The status of the open file, not of the name: the bytes and the identity
    # the commit checks again are those of one and the same file.
    return fd, os.fstat(fd)


def read_all(fd: int, size: int) -> bytes:
    """All of the open file `fd`, `size` its size when last looked at (a guess: a file that
    grew since is read on to its end)."""
    chunks, offset = [], 0
    while chunk := os.pread(fd, max(size - offset, 0) + 65536, offset):
        chunks.append(chunk)
        offset += len(chunk)
        if offset == size:  # a short read, at the size the status said: the end (a file that
            break  # grew since returns more, and is read on to its end)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _too_large(size: int) -> str:
    mib = 1024 * 1024
    return (
        f"it is {size / mib:.0f} MiB, more than the {MAX_FILE_BYTES // mib} MiB an edit "
        "may hold (view it in parts with a line range)"
    )
