"""`apply_patch extract [FILE]`: list, or apply in order, the patches of a script, transcript or log.

Exit codes: 0 patches found (listed), or all applied; 1 no apply_patch call
found, FILE unreadable, or a patch not applied (`--apply` stops there: the
patches before it stay applied, it and the ones after it are not); 2 usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from ..apply._pipeline import apply_patch
from .._errors import PatchError
from ..extract._extract import BrokenPatch, Extracted, FoundEdits, extract_patches
from ..apply._policy import CODEX, DEFAULT, Policy
from ..apply._report import NOTHING_CHANGED, failure

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final, TextIO

NONE_FOUND: Final = "no apply_patch call found"
OUTSIDE_ROOT: Final = "Working folder '{}' is outside the root folder {}"
STOPPED: Final = "Stopped at patch {} of {}: {} applied, {} not applied."

DESCRIPTION: Final = """\
Find every apply_patch call in FILE (or stdin): a shell script, a JSON argv
array, a terminal transcript, Markdown with shell blocks, or the JSON lines of
an agent log; and the edits of other tools: Claude Code's Edit, MultiEdit and
Write, Anthropic's text-editor tool, SEARCH/REPLACE blocks in a reply. Print each patch with a header (its line, its working folder),
or list them as JSON, or apply them in order, each one all or nothing.
"""


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch extract` with `argv` (the arguments after `extract`); return the exit code."""
    try:
        options = _argument_parser().parse_args(list(argv))
    except SystemExit as exc:  # --help, or an argparse usage error
        return exc.code if isinstance(exc.code, int) else 2
    text = _read(options.file, sys.stderr)
    if text is None:
        return 1
    found = extract_patches(text)
    if options.json:
        sys.stdout.write(json.dumps([_as_json(item) for item in found], indent=2) + "\n")
    if not found:
        sys.stderr.write(NONE_FOUND + "\n")
        return 1
    if options.apply:
        return _apply_all(found, options.root, CODEX if options.codex else DEFAULT)
    if not options.json:
        for number, item in enumerate(found, 1):
            error = f": {item.error.headline}" if isinstance(item, BrokenPatch) else ""
            sys.stdout.write(_header(number, found, item, error) + _with_newline(item.patch))
    return 0


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="apply_patch extract",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help="the text to search (default: stdin)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--json", action="store_true", help="print a JSON list: patch, workdir, line, source, error"
    )
    mode.add_argument("--apply", action="store_true", help="apply the patches in order")
    parser.add_argument(
        "-C", "--root", default=".", metavar="DIR",
        help="with --apply: the folder the session started in (default: .)",
    )  # fmt: skip
    parser.add_argument(
        "--codex", action="store_true", help="with --apply: the reference's file policies"
    )
    return parser


def _read(path: str | None, stderr: TextIO) -> str | None:
    try:
        data = sys.stdin.buffer.read() if path is None else _read_file(path)
    except OSError as error:
        stderr.write(f"Error: Failed to read {path}: {error.strerror}\n")
        return None
    return data.decode("utf-8", "replace")


def _read_file(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _as_json(item: Extracted) -> dict[str, object]:
    error = str(item.error) if isinstance(item, BrokenPatch) else None
    document: dict[str, object] = {
        "patch": item.patch,
        "workdir": item.workdir,
        "line": item.line,
        "source": item.source,
        "error": error,
    }
    if isinstance(item, FoundEdits):  # another tool's edits: `patch` shows them as SEARCH/REPLACE
        from .._dataclass import asdict

        document["kind"] = item.kind
        document["edits"] = [{"type": type(e).__name__, **asdict(e)} for e in item.edits]
    return document


def _header(number: int, found: Sequence[Extracted], item: Extracted, note: str = "") -> str:
    """`# patch 2 of 5: line 40 (terminal), folder pkg`, then `note`."""
    return (
        f"# patch {number} of {len(found)}: line {item.line} ({item.source}), "
        f"folder {item.workdir}{note}\n"
    )


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _apply_all(found: Sequence[Extracted], root: str, policy: Policy) -> int:
    """Apply each patch in its folder under `root`; stop at the first one not applied."""
    for number, item in enumerate(found, 1):
        applied, report = _apply_one(item, root, policy)
        out = sys.stdout if applied else sys.stderr
        out.write(_header(number, found, item) + report)
        if not applied:
            stopped = STOPPED.format(number, len(found), number - 1, len(found) - number + 1)
            sys.stderr.write(stopped + "\n")
            return 1
    return 0


def _apply_one(item: Extracted, root: str, policy: Policy) -> tuple[bool, str]:
    """Apply `item`: (True, the summary), or (False, why it was not applied)."""
    if isinstance(item, BrokenPatch):
        return False, failure(item.error)
    folder = _folder(root, item.workdir)
    if folder is None:
        outside = OUTSIDE_ROOT.format(item.workdir, os.path.abspath(root))
        return False, f"{outside}\n{NOTHING_CHANGED}\n"
    try:  # the folder may not exist: the commit makes it if a file is written there
        if isinstance(item, FoundEdits):
            from ..edits import apply_edits

            return True, apply_edits(item.edits, root, workdir=folder, policy=policy).summary
        return True, apply_patch(item.patch, root, workdir=folder, policy=policy).summary
    except PatchError as error:
        return False, failure(error)


def _folder(root: str, workdir: str) -> str | None:
    """`workdir` (relative to `root`, absolute, or from `~`) as a folder inside `root`, else None."""
    base = os.path.abspath(root)
    folder = os.path.normpath(os.path.join(base, os.path.expanduser(workdir)))
    inside = folder == base or folder.startswith(base.rstrip(os.sep) + os.sep)
    return folder if inside else None


