"""Plan → disk, all or nothing: the only module that writes.

Every file is named as (descriptor of its folder, name): folders are opened
one name at a time from `/` without following a symlink (`_dirs`), so a
folder swapped for a symlink after planning cannot redirect a write; it is a
ConcurrentChangeError. The commit runs holding the root's locks (`_lock`:
cooperating writers take turns) with SIGINT, SIGTERM and SIGHUP held
(`_signals`: they wait until it or its rollback is over).

Order: check every file against the plan (identity and bytes; each existing
file stays open); start the journal (`_journal`: what may be made); move a
file that is in the way of a new folder of the same name aside; create
missing folders; write every new content to a temporary file beside its
target (owner and group kept where the process may set them, else setuid and
setgid dropped); mark the journal `commit` (with the steps that follow);
check each target's identity once more and move the temporary file over it
(`os.replace`), or give a new file its name only if nothing has it
(`os.link`); delete the rest; check that no replaced file was written to
meanwhile (its old descriptor's size and mtime); remove the files set aside,
then the journal. If any step fails, every step already done is undone, a
replaced file from its old descriptor (so bytes written into it late are
kept), and the error is raised. A process killed at any moment leaves each
file entirely old or entirely new, never truncated, and the journal with
which the next run on the root finishes or undoes the commit
(`_recovery.recover`).
"""

import errno
import os
import stat
from collections.abc import Callable

from ..._errors import ConcurrentChangeError, PatchIOError, RollbackError, os_reason
from ..records import JOURNAL_COMMIT, JOURNAL_TEMP_SUFFIX, JournalPlace, begin_journal, journal_present, journal_record
from ..planning import FolderChanged, Folders, read_all
from ._lock import RootLock
from ..planning import FileChange, Plan
from ._signals import Held

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..records import Recovery
    from ._receipts import Recorder

TEMP_SUFFIX = JOURNAL_TEMP_SUFFIX.decode()
_NAME_BYTES = 100  # of the target's name in a temporary name: any legal name fits in 255
# POSIX flags, read with a default so that the module imports where they are missing
# (Windows), where no commit runs (`_disk_tree.check_platform`).
_NOFOLLOW_CLOEXEC: int = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _NOFOLLOW_CLOEXEC
_WRITE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW_CLOEXEC
_BLOCK = 1 << 20  # bytes compared at a time when a file is checked against the plan's copy
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS}


class Disk:
    """The file-system calls a commit makes, relative to folder descriptors.

    Tests override them to inject faults; names are bytes.
    """

    def mkdir(self, folder: int, name: bytes) -> None:
        os.mkdir(name, dir_fd=folder)

    def rmdir(self, folder: int, name: bytes) -> None:
        os.rmdir(name, dir_fd=folder)

    def write_temp(
        self, folder: int, temp: bytes, data: bytes, mode: int | None, owner: tuple[int, int] | None
    ) -> bytes:
        """Write `data` to the new file `temp` (`temp_name`: never an existing one); return its name."""
        # 0o666 lets the umask decide, as for any new file; a kept mode is set exactly: made
        # with its permission bits (the umask may take some away, never add any: the file is
        # never more open than it will be), then changed if it is not that.
        fd = os.open(temp, _WRITE, 0o666 if mode is None else mode & 0o777, dir_fd=folder)
        try:
            try:
                _write_all(fd, data)
                _keep_owner_and_mode(fd, mode, owner)
            finally:
                os.close(fd)
        except BaseException:
            os.unlink(temp, dir_fd=folder)
            raise
        return temp

    def replace(self, folder: int, source: bytes, target: bytes) -> None:
        os.replace(source, target, src_dir_fd=folder, dst_dir_fd=folder)

    def link(self, folder: int, source: bytes, target: bytes) -> None:
        """Give temporary file `source` the name `target` if no entry has it (else FileExistsError)."""
        try:
            os.link(source, target, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
        except OSError as exc:
            if exc.errno not in _NO_LINKS:
                raise
            # A file system without hard links: checked, then replaced (a narrow window).
            if _exists(folder, target):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST)) from exc
            os.replace(source, target, src_dir_fd=folder, dst_dir_fd=folder)
            return
        os.unlink(source, dir_fd=folder)

    def unlink(self, folder: int, name: bytes) -> None:
        os.unlink(name, dir_fd=folder)

    def symlink(self, target: bytes, folder: int, name: bytes) -> None:
        os.symlink(target, name, dir_fd=folder)

    def append(self, folder: int, name: bytes, data: bytes, *, new: bool = False) -> None:
        """Add `data` at the end of the file `name` (the journal); `new`: create it, or FileExistsError."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(name, flags | (os.O_CREAT | os.O_EXCL if new else 0), 0o600, dir_fd=folder)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)


def temp_name(name: bytes, token: bytes | None = None) -> bytes:
    """A new name for a temporary file beside `name`: `.NAME.XXXXXXXX.apply_patch.tmp`, with
    8 random hex digits (`token`: given; one read of the random source for many files)."""
    return b".%s.%s%s" % (_cut(name), token or os.urandom(4).hex().encode(), TEMP_SUFFIX.encode())


def recover(root: str, disk: Disk | None = None) -> "Recovery | None":
    """Finish or undo a commit under `root` that was killed (see `_journal`); hold `RootLock(root)`.

    What was done, a sentence per journal, and what was not obeyed, a warning each; None
    when there was no journal.
    """
    root_real = os.path.realpath(root)
    with _State(root_real) as state:
        if not journal_present(root_real, state.place):
            return None
        from ..records import recover as recover_journal  # (imported only when a journal is there)

        return recover_journal(root, disk or Disk(), state.place)


def commit(plan: Plan, disk: Disk | None = None, recorder: "Recorder | None" = None) -> str | None:
    """Make `plan` true on disk, or change nothing and raise PatchIOError; a warning when
    the commit could have no crash journal (its name in the root taken by what `recover`
    would not obey, and no usable state folder), else None.

    ConcurrentChangeError when a file or folder changed since planning;
    RollbackError (the only error after which the tree may differ) when a
    failure could not be undone. With a `recorder`, the receipt of the commit
    (`_receipts`) is written and synced once every file is checked, before
    the first change, and removed again if the commit undoes itself.
    """
    with RootLock(plan.root), Held():
        running = _Commit(plan, disk or Disk(), recorder)
        running.run()
        return running.journal_warning


class _Commit:
    """One commit: what it has done so far, to undo it in reverse order."""

    def __init__(self, plan: Plan, disk: Disk, recorder: "Recorder | None" = None) -> None:
        self.plan = plan
        self.disk = disk
        self.recorder = recorder
        self.root_real = os.path.realpath(plan.root)
        self.folders = Folders()
        self.undo: list[tuple[str, Callable[[], None]]] = []
        self.temps: list[tuple[int, bytes]] = []  # written, not yet moved into place
        self.old: dict[str, tuple[int, os.stat_result]] = {}  # path → old file, as checked
        self._names: dict[str, tuple[str, bytes]] = {}  # path → (its folder, its name), `_split`
        self.step = ("create folders for", plan.name(plan.root), ".")
        self.root_prefix = self.root_real.rstrip(os.sep) + os.sep
        self.journal: JournalPlace | None = None  # once the journal is there
        self.journal_warning: str | None = None  # why the commit has none, when it is worth saying
        self.set_aside: dict[str, tuple[int, int]] = {}  # path → (device, inode) of a file moved aside

    def run(self) -> None:
        try:
            self._steps()
        except BaseException as exc:
            self._fail(exc)
        finally:
            self._end_journal()
            for fd, _ in self.old.values():
                os.close(fd)
            self.folders.close()

    def _steps(self) -> None:
        changes, new_folders = self.plan.changes, set(self.plan.new_folders)
        if self.recorder is not None:
            self.recorder.prepare(self.plan)  # hashes computed while the files are checked
        for change in changes:
            self._check(change, new_folders)
        if not changes:
            return
        # A file deleted to make room for a folder of the same name is first set aside.
        in_the_way = [c for c in changes if c.after is None and c.path in new_folders]
        asides = [(c, temp_name(_split(c.path)[1])) for c in in_the_way]
        written = [c for c in changes if c.after is not None]
        random = os.urandom(4 * len(written)).hex().encode()
        staged = [(c, temp_name(self._split(c.path)[1], random[8 * n : 8 * n + 8])) for n, c in enumerate(written)]
        deleted = [c for c in changes if c.after is None and c not in in_the_way]
        if self.recorder is not None:
            self.step = ("write the receipt of", self.plan.name(self.root_real), ".")
            self.recorder.write(self.plan, self._where, self.old)
        self._begin_journal(asides, staged)
        for change, aside in asides:
            self._set_aside(change, aside)
        for folder in self.plan.new_folders:
            self._mkdir(folder)
        for change, temp in staged:
            self._write_temp(change, temp)
        self._mark_journal(asides, staged, deleted)
        for change, temp in staged:
            self._put(change, temp)
        for change in deleted:
            self._delete(change)
        for folder in self.plan.gone_folders:
            self._rmdir(folder)
        self._check_late_writes()
        for change, aside in asides:  # the commit is complete: what was set aside goes
            _quietly(self.disk.unlink, self._where(change)[0], aside)

    # The journal.

    def _begin_journal(
        self, asides: list[tuple[FileChange, bytes]], staged: list[tuple[FileChange, bytes]]
    ) -> None:
        """Before the first change: what the commit may make that was not there."""
        self.step = ("write the journal of the commit in", self.plan.name(self.root_real), ".")
        self.set_aside = {c.path: self._identity_of(c) for c, _ in asides}  # before it moves
        prepared = [
            journal_record("aside", self._in_journal(folder), name, aside, *self.set_aside[c.path])
            for c, aside in asides
            for folder, name in [_split(c.path)]
        ]
        prepared += [journal_record("folder", self._in_journal(folder)) for folder in self.plan.new_folders]
        prepared += [journal_record("temp", self._in_journal(os.path.dirname(c.path)), temp) for c, temp in staged]
        try:
            root = self.folders.get(self.root_real)
        except FolderChanged as exc:
            raise ConcurrentChangeError(
                f"The root folder changed on disk while the patch was being applied: "
                f"the folder {exc.folder} {exc.why}"
            ) from exc
        outside = any(not self._inside(c.path) for c in self.plan.changes) or any(
            not self._inside(folder) for folder in self.plan.new_folders
        )
        with _State(self.root_real) as state:
            fd = None if state.place is None else os.dup(state.place[0])  # the journal's own
        begun = begin_journal(self.disk, root, fd, prepared, outside=outside)
        self.journal, self.journal_warning = begun.place, begun.warning

    def _mark_journal(
        self,
        asides: list[tuple[FileChange, bytes]],
        staged: list[tuple[FileChange, bytes]],
        deleted: list[FileChange],
    ) -> None:
        """Every new content is written: from here a killed commit is finished, not undone.
        Each step names the files it moves or removes by device and inode (the temporary
        files', now that they are written, included)."""
        self.step = ("write the journal of the commit in", self.plan.name(self.root_real), ".")
        if self.journal is None:
            return
        steps = []
        for change, temp in staged:
            folder, name = self._split(change.path)
            where = self._in_journal(folder)
            made = os.stat(temp, dir_fd=self._where(change)[0], follow_symlinks=False)
            if change.before is None:
                steps.append(journal_record("link", where, temp, name, made.st_dev, made.st_ino))
            else:
                steps.append(
                    journal_record("replace", where, temp, name, made.st_dev, made.st_ino, *self._identity_of(change))
                )
        for change in deleted:
            folder, name = _split(change.path)
            steps.append(journal_record("delete", self._in_journal(folder), name, *self._identity_of(change)))
        for change, aside in asides:
            folder = _split(change.path)[0]
            steps.append(journal_record("drop", self._in_journal(folder), aside, *self.set_aside[change.path]))
        self.disk.append(self.journal.folder, self.journal.name, b"".join(steps) + JOURNAL_COMMIT)

    def _identity_of(self, change: FileChange) -> tuple[int, int]:
        """The (device, inode) of the file `change` replaces or deletes, as checked."""
        if change.path in self.old:
            info = self.old[change.path][1]
        else:  # a symlink: not opened
            fd, name = self._where(change)
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
        return info.st_dev, info.st_ino

    def _inside(self, path: str) -> bool:
        return path == self.root_real or path.startswith(self.root_prefix)

    def _in_journal(self, folder: str) -> str:
        """How the journal names `folder`: relative to the root (`.` for the root itself);
        absolute outside it (`--outside-root allow`)."""
        if folder == self.root_real:
            return "."
        return folder[len(self.root_prefix) :] if folder.startswith(self.root_prefix) else folder

    def _end_journal(self) -> None:
        """The commit is over (done, or undone in this process): the journal goes."""
        if self.journal is not None:
            _quietly(self.disk.unlink, self.journal.folder, self.journal.name)
            self.journal.close()
            self.journal = None

    # The steps.

    def _check(self, change: FileChange, new_folders: set[str]) -> None:
        """The file is still what the plan read (bytes and identity); keep it open."""
        self.step = ("read", change.shown, change.relative)
        folder, name = self._split(change.path)
        if folder in new_folders:  # its folder is made later: mkdir refuses one that appeared
            return
        fd = self._folder(folder, change)
        before = change.before
        if before is None:
            if _exists(fd, name):
                raise _conflict(change)
            return
        if before.is_link:
            if _link_text(fd, name) != before.data:
                raise _conflict(change)
            return
        try:
            old = os.open(name, _READ, dir_fd=fd)
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.ENXIO):
                raise _conflict(change) from exc
            raise
        info = os.fstat(old)
        self.old[change.path] = (old, info)
        if not stat.S_ISREG(info.st_mode):
            raise _conflict(change)
        if before.info is not None and _identity(info) != _identity(before.info):
            raise _conflict(change)
        if info.st_size != len(before.data) or not _holds(old, before.data):
            raise _conflict(change)

    def _recheck(self, change: FileChange, fd: int, name: bytes) -> None:
        """Right before replacing or deleting: the name still holds the file checked."""
        before = change.before
        assert before is not None
        if before.is_link:
            if _link_text(fd, name) != before.data:
                raise _conflict(change)
            return
        old, checked = self.old[change.path]
        try:
            now = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            raise _conflict(change) from None
        same = (now.st_dev, now.st_ino) == (checked.st_dev, checked.st_ino)
        if not same or _identity(os.fstat(old)) != _identity(checked):
            raise _conflict(change)

    def _delete(self, change: FileChange) -> None:
        self.step = ("delete file", change.shown, change.relative)
        fd, name = self._where(change)
        self._recheck(change, fd, name)
        self.disk.unlink(fd, name)
        self.undo.append((change.shown, lambda: self._restore(change)))

    def _set_aside(self, change: FileChange, aside: bytes) -> None:
        """Move a file in the way of a new folder to `aside` (removed once the commit is complete)."""
        self.step = ("delete file", change.shown, change.relative)
        fd, name = self._where(change)
        self._recheck(change, fd, name)
        self.disk.replace(fd, name, aside)
        self.undo.append((change.shown, lambda: self.disk.replace(fd, aside, name)))

    def _mkdir(self, folder: str) -> None:
        shown, relative = self._name(folder), self._relative(folder)
        self.step = ("create parent directories for", shown, relative)
        parent, name = _split(folder)
        try:
            parent_fd = self.folders.get(parent)
            self.disk.mkdir(parent_fd, name)
        except FolderChanged as exc:
            raise ConcurrentChangeError(
                f"{shown} changed on disk while the patch was being applied: "
                f"the folder {self._name(exc.folder)} {exc.why}",
                path=relative,
            ) from exc
        except FileExistsError as exc:
            raise ConcurrentChangeError(
                f"{shown} changed on disk while the patch was being applied: it exists now",
                path=relative,
            ) from exc

        def remove() -> None:
            self.folders.forget(folder)
            self.disk.rmdir(parent_fd, name)

        self.undo.append((shown, remove))

    def _rmdir(self, folder: str) -> None:
        """Remove `folder` if it is empty (an undo's: a folder its patch created); else keep it."""
        parent, name = _split(folder)
        try:
            parent_fd = self.folders.get(parent)
            self.folders.forget(folder)
            self.disk.rmdir(parent_fd, name)
        except (OSError, FolderChanged):  # not empty, or gone: left as it is
            return
        self.undo.append((self._name(folder), lambda: self.disk.mkdir(parent_fd, name)))

    def _write_temp(self, change: FileChange, temp: bytes) -> None:
        self.step = ("write file", change.shown, change.relative)
        after = change.after
        assert after is not None
        fd, _ = self._where(change)
        self.disk.write_temp(fd, temp, after.data, after.mode, after.owner)
        self.temps.append((fd, temp))

    def _put(self, change: FileChange, temp: bytes) -> None:
        self.step = ("write file", change.shown, change.relative)
        fd, name = self._where(change)
        if change.before is None:
            try:
                self.disk.link(fd, temp, name)
            except FileExistsError as exc:
                raise _conflict(change) from exc
            self.temps.remove((fd, temp))
            self.undo.append((change.shown, lambda: self.disk.unlink(fd, name)))
            return
        self._recheck(change, fd, name)
        self.disk.replace(fd, temp, name)
        self.temps.remove((fd, temp))
        self.undo.append((change.shown, lambda: self._restore(change)))

    def _check_late_writes(self) -> None:
        """A writer that took no lock and wrote into a file while it was replaced."""
        for change in self.plan.changes:
            if change.path in self.old:
                old, checked = self.old[change.path]
                if _identity(os.fstat(old))[2:] != _identity(checked)[2:]:
                    raise ConcurrentChangeError(
                        f"{change.shown} was written to while the patch replaced it: "
                        "the patch was rolled back, and the file keeps those bytes",
                        path=change.relative,
                    )

    # Undoing.

    def _restore(self, change: FileChange) -> None:
        """Put `change.path` back as it was: from its old descriptor, late bytes included."""
        before = change.before
        assert before is not None
        fd, name = self._where(change)
        if before.is_link:
            if _exists(fd, name):
                self.disk.unlink(fd, name)
            self.disk.symlink(before.data, fd, name)
            return
        data, mode, owner = before.data, before.mode, before.owner
        if change.path in self.old:
            old, _ = self.old[change.path]
            info = os.fstat(old)
            data, mode = read_all(old, info.st_size), stat.S_IMODE(info.st_mode)
            owner = (info.st_uid, info.st_gid)
        temp = self.disk.write_temp(fd, temp_name(name), data, mode, owner)
        try:
            self.disk.replace(fd, temp, name)
        except BaseException:
            _quietly(self.disk.unlink, fd, temp)
            raise

    def _fail(self, exc: BaseException) -> None:
        failed = []
        for fd, temp in self.temps:
            _quietly(self.disk.unlink, fd, temp)
        for shown, undo in reversed(self.undo):
            try:
                undo()
            except (OSError, ConcurrentChangeError):
                failed.append(shown)
        if self.recorder is not None and not failed:  # undone: no receipt (kept if not all was)
            self.recorder.discard()
        verb, shown, relative = self.step
        if failed:
            raise RollbackError(
                f"Failed to {verb} {shown}: {os_reason(exc)}; and these could not be "
                f"restored: {', '.join(failed)}",
                unrestored=tuple(failed),
            ) from exc
        if isinstance(exc, OSError):
            raise PatchIOError(
                f"Failed to {verb} {shown}: {os_reason(exc)}", path=relative, errno=exc.errno
            ) from exc
        raise exc

    # Names.

    def _where(self, change: FileChange) -> tuple[int, bytes]:
        folder, name = self._split(change.path)
        return self._folder(folder, change), name

    def _split(self, path: str) -> tuple[str, bytes]:
        """`_split(path)`, once per path: each file is named at every step of the commit."""
        split = self._names.get(path)
        if split is None:
            split = self._names[path] = _split(path)
        return split

    def _folder(self, folder: str, change: FileChange) -> int:
        try:
            return self.folders.get(folder)
        except FolderChanged as exc:
            raise _conflict(change, f"the folder {self._name(exc.folder)} {exc.why}") from exc

    def _name(self, path: str) -> str:
        """How messages name `path` (a real path): as the plan names files."""
        return path if self.plan.absolute_names else self._relative(path)

    def _relative(self, path: str) -> str:
        inside = path.startswith(self.root_real.rstrip(os.sep) + os.sep)
        return os.path.relpath(path, self.root_real) if inside else path


class _State:
    """The root's state folder (`_receipts.Store`: the user's own, private), if it exists
    and may be used: `place` is its descriptor and path, else None. Never created here:
    receipts make it (with `--journal off` it is used only if it is there)."""

    def __init__(self, root_real: str) -> None:
        from ..records import Store, Unavailable

        try:
            self.store: Store | None = Store(root_real)
        except Unavailable:
            self.store = None
        self.place = None if self.store is None else (self.store.fd, self.store.path)

    def __enter__(self) -> "_State":
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.store is not None:
            self.store.close()


def _conflict(change: FileChange, detail: str = "") -> ConcurrentChangeError:
    return ConcurrentChangeError(
        f"{change.shown} changed on disk while the patch was being applied"
        + (f": {detail}" if detail else ""),
        path=change.relative,
    )


def _split(path: str) -> tuple[str, bytes]:
    folder, name = os.path.split(path)
    return folder, os.fsencode(name)


def _cut(name: bytes) -> bytes:
    """At most _NAME_BYTES of `name`, cut between characters where it is UTF-8."""
    cut = name[:_NAME_BYTES]
    while cut and len(cut) < len(name) and (name[len(cut)] & 0xC0) == 0x80:
        cut = cut[:-1]  # the next byte continues a character: do not split it
    return cut


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _exists(folder: int, name: bytes) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def _link_text(folder: int, name: bytes) -> bytes | None:
    try:
        return os.readlink(name, dir_fd=folder)
    except OSError:
        return None


def _holds(fd: int, data: bytes) -> bool:
    """Whether the open file `fd` holds exactly `data`: read and compared block by block, so a
    large file is never in memory twice (the plan's copy is `data`); a file that grew or
    shrank meanwhile does not."""
    offset = 0
    while True:
        want = min(_BLOCK, len(data) - offset + 1)  # one byte past the end: a file that grew
        chunk = os.pread(fd, want, offset)
        if not data.startswith(chunk, offset):
            return False
        offset += len(chunk)
        if not chunk or (len(chunk) < want and offset >= len(data)):
            return offset == len(data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _keep_owner_and_mode(fd: int, mode: int | None, owner: tuple[int, int] | None) -> None:
    """The old file's owner and group where we may set them; else no setuid/setgid bit.
    The mode is set unless the file has it already (it was made with its permission bits)."""
    info = None
    if owner is not None:
        info = os.fstat(fd)
        if (info.st_uid, info.st_gid) != owner:
            try:
                os.fchown(fd, *owner)
            except OSError:  # not root: the file stays ours
                pass
            info = os.fstat(fd)
        if mode is not None and info.st_uid != owner[0]:
            mode &= ~stat.S_ISUID
        if mode is not None and info.st_gid != owner[1]:
            mode &= ~stat.S_ISGID
    if mode is not None and (info is None or stat.S_IMODE(info.st_mode) != mode):
        os.fchmod(fd, mode)


def _quietly(action: Callable[[int, bytes], None], folder: int, name: bytes) -> None:
    try:
        action(folder, name)
    except OSError:
        pass
