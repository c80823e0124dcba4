"""Patch paths → locations on disk, confined to the root folder (reads no file content).

A path may be relative to the root, or absolute; either way it must stay
inside the root, lexically (`..`) and for real (symlinked folders, a symlink
as the file itself), unless the policy says `outside_root="allow"`. With
`symlinks="error"`, a symlink anywhere below the root is refused. On POSIX, a
Windows absolute path (`C:\\Users\\...`, `c:/...`, `\\\\server\\share\\...`) is
refused whatever the policy: here it would name a file called so, never the
file it means.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import Final

from dataclasses import dataclass

from ..._errors import FilePolicyError, InputError, PatchIOError, escaped, os_reason
from ..._policy import Policy
from ..matching import FileName

JOURNAL: Final = b".apply_patch.journal"  # the crash journal's name in the root (`history`): no patch may touch a file of that name

VCS_FOLDERS = frozenset({".git", ".hg", ".svn"})
_VCS_NAMED = tuple(os.sep + folder + os.sep for folder in VCS_FOLDERS)  # in a path (+ os.sep) naming one
_DOT = os.sep + "."  # in a path where a name starts with a dot (absolute paths: every name follows a separator)
PATH_BYTES = 4096  # PATH_MAX: no longer path can be opened on Linux (1024 on macOS)
NAME_BYTES = 255  # NAME_MAX, of each name in a path
# Characters no path of a patch may hold: they would lie on a terminal (ESC, CSI) or make
# one line of a summary look like two (line breaks); lone surrogates are not text.
_UNUSABLE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]"
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def is_windows_absolute(path: str) -> bool:
    """A drive-letter path (`C:\\x`, `C:/x`) or a UNC one (`\\\\server\\share\\x`, `\\\\?\\C:\\x`,
    `//?/C:/x`); a drive-relative name (`C:x`) is not absolute."""
    # Without a regular expression: compiling one is most of this module's import (start-up).
    if len(path) >= 3 and path[1] == ":" and path[2] in "\\/" and path[0].isascii() and path[0].isalpha():
        return True
    if len(path) >= 3 and path.startswith("\\\\") and path[2] not in "\\/":
        return True
    return path.startswith(("//?/", "//./"))


def refuse_windows_absolute(path: str, what: str = "Path", line: int | None = None) -> None:
    """FilePolicyError, one line, if `path` is a Windows absolute path and this system is
    not Windows (where it would name a file or folder called so); `what` names it."""
    if os.sep == "/" and is_windows_absolute(path):
        raise FilePolicyError(
            f"{what} '{path}' is a Windows absolute path, which names nothing here: "
            "give it relative to the root",
            path=path,
            patch_line=line,
        )


@dataclass(frozen=True, slots=True)
class Location(FileName):
    """Where a patch path leads: its name (`FileName`, all that matching is given) and
    the paths the planner reads and the commit writes.

    `shown` is how messages name the file: `relative` by default, absolute and
    lexically normalised with `message_paths="absolute"` (the reference's
    text); `relative` is relative to the root when inside it (else absolute); `written`
    is the path as the patch wrote it; `entry` is the directory entry itself (its folder
    with symlinks resolved: a Delete removes this, a symlink included);
    `target` is what content is read from and written to (symlinks followed).
    """

    written: str
    entry: str
    target: str

    @classmethod
    def of(cls, written: str, shown: str, entry: str, target: str, relative: str) -> Location:
        """The location of a path: `written` as the patch gave it, named `shown` in titles
        and `relative` in errors, its directory `entry`, and the `target` read and written."""
        return cls(shown=shown, relative=relative, written=written, entry=entry, target=target)


class Resolver:
    """Resolves the paths of one patch against one root folder.

    Relative paths are taken from `workdir` (relative to the root, or absolute),
    a folder that may not exist yet; they must still stay inside the root.

    A resolver lives for one patch (one plan): it resolves each folder once
    (`os.path.realpath`, an `lstat` per name from `/`) and then only the last
    name of each path (one `lstat`), so the files of one folder share its
    walk. What it found is not trusted later: every read and write walks the
    resolved path again through folder descriptors (`_dirs`), where a symlink
    swapped in since is refused.
    """

    def __init__(self, root: str, policy: Policy, workdir: str = ".") -> None:
        check_name(root, "root folder")
        check_name(workdir, "working folder")
        refuse_windows_absolute(workdir, "The working folder")
        self.root_shown = os.path.abspath(root)
        self.root_real = os.path.realpath(root)
        # What a path inside each root starts with (`_inside`, once per root, not per path).
        self._shown_prefix = self.root_shown.rstrip(os.sep) + os.sep
        self._real_prefix = self.root_real.rstrip(os.sep) + os.sep
        self.base = os.path.normpath(os.path.join(self.root_shown, workdir))
        self._policy = policy
        self._absolute = policy.message_paths == "absolute"
        self._real: dict[str, str] = {}  # folder as written (normalised) -> its real path
        self._shown_folders: dict[str, str] = {}  # a path's folder as written -> normalised from `base`
        # How the last name of a path is looked at (its status, None if it cannot be): by
        # path here; a tree reading through folder descriptors looks through them instead.
        self.look: Callable[[str], os.stat_result | None] = lstat
        self._no_links: set[str] = set()  # folders seen with no symlink below the root (symlinks="error")
        if policy.outside_root == "error" and not _inside(self.base, self.root_shown):
            message = (
                f"The working folder {self.base} is outside the root folder {self.root_shown}"
                if self._absolute
                else f"The working folder '{workdir}' is outside the root folder: paths must stay inside it"
            )
            raise FilePolicyError(message, path=workdir)

    def name(self, path: str) -> str:
        """How messages name the absolute `path`: relative to the root unless the policy says absolute."""
        if self._absolute or not _inside(path, self.root_shown):
            return path
        return os.path.relpath(path, self.root_shown)

    def _root_named(self) -> str:
        """The root folder as messages name it (nothing, unless paths are absolute)."""
        return f" {self.root_shown}" if self._absolute else ""

    def resolve(self, written: str, *, follow_leaf: bool = True, line: int | None = None) -> Location:
        """The location of `written` (at patch `line`); FilePolicyError if it may not be touched,
        InputError if it cannot be a path (`check_path`)."""
        if not written:
            raise FilePolicyError(f"Invalid path {written!r}", path=written, patch_line=line)
        check_path(written, line)
        refuse_windows_absolute(written, line=line)
        folder, name = self._shown(written)
        shown = folder + name if folder.endswith(os.sep) else folder + os.sep + name
        inside = shown == self.root_shown or shown.startswith(self._shown_prefix)
        try:
            real = self._real_folder(folder)
            entry = real + name if real.endswith(os.sep) else real + os.sep + name
            target = self._followed(entry)
            if self._policy.symlinks == "error":
                self._refuse_symlinks(written, shown, line)
            if self._policy.outside_root == "error":
                self._confine(written, shown, inside, entry, target if follow_leaf else entry, line)
        except OSError as exc:  # a symlink swapped while it was being resolved
            raise PatchIOError(
                f"Failed to resolve path '{written}': {os_reason(exc)}",
                path=written,
                patch_line=line,
                errno=exc.errno,
            ) from exc
        if self._policy.vcs_dir == "error":
            self._refuse_vcs(written, (shown, entry, target), line)
        relative = _below(shown, self.root_shown) if inside else shown
        named = shown if self._absolute else relative
        return Location.of(written, named, entry, target if follow_leaf else entry, relative)

    def _shown(self, written: str) -> tuple[str, str]:
        """`os.path.split(os.path.normpath(os.path.join(self.base, written)))`, the folder
        normalised once for all the names written in it (the files of a folder share it)."""
        head, separator, name = written.rpartition(os.sep)
        if name in ("", ".", "..") or (separator and not head) or (os.altsep and os.altsep in written):
            return os.path.split(os.path.normpath(os.path.join(self.base, written)))
        folder = self._shown_folders.get(head)
        if folder is None:
            folder = os.path.normpath(os.path.join(self.base, head)) if head else self.base
            self._shown_folders[head] = folder
        return folder, name  # a plain last name: normalising leaves it as it is

    def _followed(self, entry: str) -> str:
        """What `entry` (its folder already real) leads to: itself, or where its symlink
        points (`os.path.realpath`, which resolves the folder again: only for a symlink).
        One look; as `realpath`, a name that cannot be looked at (missing, a loop) is taken
        as it is."""
        info = self.look(entry)
        return os.path.realpath(entry) if info is not None and stat.S_ISLNK(info.st_mode) else entry

    def _real_folder(self, folder: str) -> str:
        """`os.path.realpath(folder)`, computed once per folder of the patch."""
        real = self._real.get(folder)
        if real is None:
            real = self._real[folder] = os.path.realpath(folder)
        return real

    def _confine(
        self, written: str, shown: str, inside: bool, entry: str, target: str, line: int | None
    ) -> None:
        """FilePolicyError unless the path (`shown`, `inside` the root or not) and its `entry`
        and `target` (symlinks resolved) are inside the root."""
        if not inside:
            raise FilePolicyError(
                f"Path '{written}' is outside the root folder{self._root_named()}: "
                "paths must be relative and stay inside it",
                path=written,
                patch_line=line,
            )
        real, prefix = self.root_real, self._real_prefix
        if not ((entry == real or entry.startswith(prefix)) and (target == real or target.startswith(prefix))):
            raise FilePolicyError(
                f"Path '{written}' leads outside the root folder{self._root_named()} "
                f"through {self._escaping_link(shown)}",
                path=written,
                patch_line=line,
            )

    def _escaping_link(self, shown: str) -> str:
        """Names the first symlink on the way to `shown` that leads out of the root."""
        path = self.root_shown
        for part in os.path.relpath(shown, self.root_shown).split(os.sep):
            path = os.path.join(path, part)
            if os.path.islink(path) and not _inside(os.path.realpath(path), self.root_real):
                return f"the symlink {self.name(path)} (to {os.readlink(path)})"
        return f"a symlink (to {os.path.realpath(shown)})"

    def _refuse_vcs(self, written: str, paths: tuple[str, ...], line: int | None) -> None:
        """No patch path may lead into a VCS folder (hooks there run code), spelled or through links."""
        for path, root in zip(paths, (self.root_shown, self.root_real, self.root_real)):
            if _DOT not in path:
                continue  # no name in it starts with a dot (the common case)
            folded = path.casefold() + os.sep
            for named in _VCS_NAMED:
                if named in folded:
                    break
            else:
                continue  # no name in it is one (a `.gitattributes`, a `.github/` folder)
            below = path[len(root.rstrip(os.sep)) :] if _inside(path, root) else path
            if os.sep + "." not in below and not below.startswith("."):
                continue  # no name starts with a dot: the split below would find none
            for part in below.split(os.sep):
                if part.startswith(".") and part.casefold() in VCS_FOLDERS:
                    raise FilePolicyError(
                        f"Path '{written}' is inside a {part} folder, which a patch may not "
                        "change (--vcs-dir allow permits it)",
                        path=written,
                        patch_line=line,
                    )

    def _refuse_symlinks(self, written: str, shown: str, line: int | None) -> None:
        if _inside(shown, self.root_shown):
            path, below = self.root_shown, os.path.relpath(shown, self.root_shown)
        else:
            path, below = os.sep, shown.lstrip(os.sep)
        parts = below.split(os.sep)
        for depth, part in enumerate(parts, 1):
            path = os.path.join(path, part)
            folder = depth < len(parts)  # the last name is looked at every time: it is the file
            if folder and path in self._no_links:
                continue
            if os.path.islink(path):
                raise FilePolicyError(
                    f"Path '{written}' goes through the symlink {self.name(path)}, "
                    "and the policy refuses symlinks",
                    path=written,
                    patch_line=line,
                )
            if folder:
                self._no_links.add(path)


def lstat(path: str) -> os.stat_result | None:
    """`os.lstat(path)`, or None when it fails (missing, not searchable, a loop)."""
    try:
        return os.lstat(path)
    except OSError:
        return None


def check_path(written: str, line: int | None = None) -> None:
    """A path the engine can take, or InputError (one line, the path escaped).

    Refused whatever the policy: a control character or a line break (on a
    terminal or in a summary they lie about names), a lone surrogate (not
    text), more than PATH_BYTES bytes or a name of more than NAME_BYTES. Every
    path of every edit format is checked here, before it is resolved: so the
    time to resolve one is bounded too.
    """
    if written.isascii() and written.isprintable():  # nearly every path: none of `_UNUSABLE` is
        if len(written) <= NAME_BYTES:
            return  # and no name of it can be too long
        bad = None  # (the pattern, with its surrogates, is compiled only for another)
    else:
        import re  # already loaded by the console script

        bad = re.search(_UNUSABLE, written)
    shown = escaped(written[:200]) + ("..." if len(written) > 200 else "")
    if bad is not None:
        char = bad.group()
        what = (
            "a line break" if char in _LINE_BREAKS
            else "a lone surrogate, which is not text" if "\ud800" <= char <= "\udfff"
            else "a control character"
        )  # fmt: skip
        raise InputError(
            f"A path cannot hold {what} (U+{ord(char):04X}): '{shown}'", path=shown, patch_line=line
        )
    size = len(written.encode("utf-8"))
    longest = max(len(name.encode("utf-8")) for name in written.split("/"))
    if size > PATH_BYTES or longest > NAME_BYTES:
        raise InputError(
            f"A path is too long: '{shown}' ({size} bytes; at most {PATH_BYTES}, and {NAME_BYTES} "
            "for each name)",
            path=shown,
            patch_line=line,
        )


def check_name(path: str, what: str) -> None:
    """A folder named by the caller must be a path the OS can take (PatchIOError if not)."""
    try:
        os.fsencode(path)
        usable = "\0" not in path
    except UnicodeEncodeError:
        usable = False
    if not usable:
        raise PatchIOError(f"The {what} {path!r} is not a usable path", path=path)


def _below(path: str, root: str) -> str:
    """`os.path.relpath(path, root)` of a normalised absolute `path` inside `root` (`_inside`),
    by slicing: relpath makes both absolute and splits them again, for every file."""
    if path == root:
        return os.curdir
    return path[len(root.rstrip(os.sep)) + 1 :]


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
