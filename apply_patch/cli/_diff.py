"""`apply_patch diff OLD NEW`: print the patch that turns OLD into NEW (two folders or two files).

Exit codes: 0 the patch was printed (nothing when OLD and NEW are the same),
1 it cannot be made (a binary file, a symlink...), 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._errors import PatchError, UnsupportedChangeError
from . import _options, _output
from ..make import Options, TreeDiff, diff_trees, VCS_FOLDERS, FolderFiles, read_folder

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

DESCRIPTION: Final = f"""\
Print on stdout a patch in the apply_patch format that turns OLD into NEW:
two folders, or two files. Applied to OLD, it gives NEW byte for byte (line
endings, byte-order mark and final newline included). Version-control folders
({", ".join(VCS_FOLDERS)}) are left out.
"""
SKIP_HINT: Final = " (use --skip-binary to leave it out)"


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch diff` with `argv`; return the exit code."""
    try:
        options = _parser().parse_args(list(argv))
    except SystemExit as exc:  # --help, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else 2
    kinds = {os.path.isdir(p) for p in (options.old, options.new)}
    for path in (options.old, options.new):
        if not os.path.exists(path):
            return _fail(f"{path}: no such file or folder", 2)
    if len(kinds) != 1:
        return _fail("OLD and NEW must be two folders or two files", 2)
    try:
        result, others = _diff(options)
    except PatchError as error:
        hint = SKIP_HINT if error.kind == "binary" else ""
        return _fail(f"{error}{hint}", 1)
    for path in others:
        sys.stderr.write(f"Skipped {path}: a symbolic link or a special file\n")
    for path in result.skipped:
        sys.stderr.write(f"Skipped {path}: a binary file\n")
    if result.patch.operations:
        _output.write_bytes(str(result.patch).encode("utf-8"))
    return 0


def _diff(options: argparse.Namespace) -> tuple[TreeDiff, list[str]]:
    """The patch, and the symlinks and special files left out."""
    settings = Options(
        context=options.context,
        renames=not options.no_renames,
        similarity=options.similarity / 100,
        skip_binary=options.skip_binary,
    )
    if not os.path.isdir(options.old):
        name = options.path or options.old.replace(os.sep, "/")
        with open(options.old, "rb") as old, open(options.new, "rb") as new:
            return diff_trees({name: old.read()}, {name: new.read()}, settings), []
    old_tree = read_folder(options.old, options.exclude)
    new_tree = read_folder(options.new, options.exclude)
    others = _others(old_tree, new_tree, skip=options.skip_binary)
    return diff_trees(old_tree.files, new_tree.files, settings), others


def _others(old: FolderFiles, new: FolderFiles, *, skip: bool) -> list[str]:
    """Symlinks and special files that differ: refused, or skipped with `skip`.

    A symlink that is gone becomes a Delete File (it removes the link itself).
    """
    changed = sorted(
        p for p in {*old.others, *new.others} if old.others.get(p) != new.others.get(p)
    )
    for path in list(changed):
        link = old.others.get(path, "").startswith("symlink:")
        if link and path not in new.others and path not in new.files:
            old.files[path] = b""
            changed.remove(path)
    for path in changed:
        if not skip:
            raise UnsupportedChangeError(
                f"Cannot make a patch for {path}: it is a symbolic link or a special file, "
                f"and the format holds regular files only{SKIP_HINT}",
                path=path,
            )
        old.files.pop(path, None)
        new.files.pop(path, None)
    return changed


def _fail(message: str, code: int) -> int:
    sys.stderr.write(f"Error: {message}\n")
    return code


def _percent(text: str) -> float:
    value = float(text.removesuffix("%"))
    if not 0 < value <= 100:
        raise argparse.ArgumentTypeError("must be more than 0 and at most 100")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch diff",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("old", metavar="OLD", help="the folder or file before")
    parser.add_argument("new", metavar="NEW", help="the folder or file after")
    parser.add_argument(
        "-U", "--context", type=_count, default=3, metavar="N",
        help="lines of context around each change (default: 3)",
    )
    parser.add_argument(
        "--no-renames", action="store_true", help="never pair a removed and an added file as a Move"
    )
    parser.add_argument(
        "--similarity", type=_percent, default=50, metavar="PERCENT",
        help="how alike two files must be to make a Move (default: 50; 100: the same text)",
    )
    parser.add_argument(
        "--skip-binary", action="store_true",
        help="leave out binary files, symlinks and special files instead of refusing them",
    )
    parser.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB",
        help="leave out files and folders whose name matches GLOB (repeatable)",
    )
    parser.add_argument(
        "--path", metavar="NAME", help="with two files: the path the patch names (default: OLD)"
    )
    return parser
