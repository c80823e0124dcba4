"""`apply_patch undo`, `history`, `show` and `prune`: the receipts of the patches applied under a root.

Every commit leaves a receipt in the user's state folder (`apply/_receipts`);
these commands list them, print one as a diff, undo one (all or nothing,
only when every file it touched still holds what it left), and prune the
state folder of every root. A receipt that fails a check is skipped with a
`warning:` line on stderr naming it; the others work.

Exit codes: 0 done, 1 refused (nothing changed), 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ..apply import Receipt, failure, list_receipts, show_receipt, undo, warnings_text
from .._errors import PatchError, escaped
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

UNDO: Final = """\
Undo the patch of receipt ID under the root (default: the newest patch still in
effect that is not itself an undo), all or nothing. ID is a receipt's id or its
start (at least 4 characters). Every file it touched must still hold the bytes
it left; otherwise nothing changes and the files changed since are named. Files
come back with their mode, owner and group (setuid and setgid dropped where the
owner cannot be given back). An undo has its own receipt: undoing it redoes the
patch.
"""
HISTORY: Final = """\
List the receipts of the patches applied under the root, oldest first: id, time,
and each file's operation (`undone` marks a receipt undone since, `undo of ID` an undo).
"""
SHOW: Final = """\
Print receipt ID (or a start of its id, at least 4 characters; default: the last
receipt) as a unified diff.
"""
PRUNE: Final = """\
Prune the state folder of every root: drop the receipts of roots that no longer
exist, the receipts older than --max-age, and the oldest ones while all roots'
saved bytes are over --max-size. A commit does the same once a day with the
defaults. Pending patches of roots that exist are kept.
"""


def undo_main(argv: Sequence[str]) -> int:
    """Run `apply_patch undo` with `argv`; return the exit code."""
    options = _parse(argv, "undo", UNDO, receipt=True, json=True, policies=True)
    if isinstance(options, int):
        return options
    try:
        result = undo(options.root, options.id, policy=_options.policy(options))
    except PatchError as error:  # its message says that nothing was undone
        sys.stderr.write(f"{error}\n")
        return 1
    if options.json:
        import json

        from ..apply import result_json

        document = result_json(result.operations, result.warnings, dry_run=False, diff=None, receipt=result.receipt)
        _output.write(_options.json_safe(json.dumps(document, indent=2)) + "\n")
    else:
        _output.write(result.summary)
        sys.stderr.write(warnings_text(result.warnings))
    return 0


def history_main(argv: Sequence[str]) -> int:
    """Run `apply_patch history` with `argv`; return the exit code."""
    options = _parse(argv, "history", HISTORY, json=True)
    if isinstance(options, int):
        return options
    listed = list_receipts(options.root)
    sys.stderr.write("".join(f"warning: {escaped(line)}\n" for line in listed.skipped))
    receipts = listed.receipts
    if options.json:
        import json

        from .._dataclass import asdict

        _output.write(_options.json_safe(json.dumps([asdict(r) for r in receipts], indent=2)) + "\n")
        return 0
    text = "".join(_line(r) for r in receipts)
    if _output.is_terminal():  # a path may hold control characters: escaped on a terminal
        text = escaped(text, keep="\n")
    _output.write(text)
    return 0


def _line(receipt: Receipt) -> str:
    notes = ([f"undo of {receipt.undoes}"] if receipt.undoes else []) + ([] if receipt.in_effect else ["undone"])
    head = f"{receipt.id}  {receipt.time}" + (f"  ({', '.join(notes)})" if notes else "")
    return head + "\n" + "".join(f"  {op}\n" for op in receipt.operations)


def show_main(argv: Sequence[str]) -> int:
    """Run `apply_patch show` with `argv`; return the exit code."""
    options = _parse(argv, "show", SHOW, receipt=True)
    if isinstance(options, int):
        return options
    try:
        shown = show_receipt(options.root, options.id)
    except PatchError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    sys.stderr.write("".join(f"warning: {escaped(line)}\n" for line in shown.skipped))
    text = shown.text
    if _output.is_terminal():  # exact bytes into a file or a pipe, escapes on a terminal
        text = escaped(text, keep="\n\t")
    _output.write(text)
    return 0


def prune_main(argv: Sequence[str]) -> int:
    """Run `apply_patch prune` with `argv`; return the exit code."""
    from ..apply import KEEP_ALL_BYTES, KEEP_DAYS, Unavailable, base_folder, sweep

    def build() -> argparse.ArgumentParser:
        parser, group = _options.new_parser(prog="apply_patch prune", description=PRUNE)
        group.add_argument(
            "--max-age", type=float, default=KEEP_DAYS, metavar="DAYS",
            help=f"drop receipts older than DAYS days (default: {KEEP_DAYS})",
        )
        group.add_argument(
            "--max-size", type=_size, default=KEEP_ALL_BYTES, metavar="SIZE",
            help=f"keep at most SIZE saved bytes across all roots, in bytes or with K, M, G (default: {KEEP_ALL_BYTES >> 20}M)",
        )
        return parser

    options = _options.parse(build, argv)
    if isinstance(options, int):
        return options
    base = base_folder()
    if not os.path.isdir(base):
        _output.write(f"Nothing to prune: there is no state folder ({base}).\n")
        return 0
    try:
        pruned = sweep(base, max_days=options.max_age, max_bytes=options.max_size)
    except (OSError, Unavailable) as exc:
        sys.stderr.write(f"apply_patch prune: the state folder cannot be pruned: {exc}\n")
        return 1
    gone = pruned.roots_gone
    _output.write(
        f"Pruned {base}: {pruned.receipts} receipt{'' if pruned.receipts == 1 else 's'} "
        f"({pruned.size} saved bytes) and {gone} folder{' of a root that no longer exists' if gone == 1 else 's of roots that no longer exist'}"
        f"; {pruned.roots - gone} root{'' if pruned.roots - gone == 1 else 's'} kept.\n"
    )
    return 0


def _size(text: str) -> int:
    """A size as `--max-size` takes it: bytes, or a number with K, M or G (powers of 1024)."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    unit = units.get(text[-1:].upper(), 1)
    number = text[:-1] if unit > 1 else text
    if not number.isdigit() or not number.isascii():
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (bytes, or a number with K, M or G)")
    return int(number) * unit


def _parse(
    argv: Sequence[str],
    name: str,
    description: str,
    *,
    receipt: bool = False,
    json: bool = False,
    policies: bool = False,
) -> argparse.Namespace | int:
    def build() -> argparse.ArgumentParser:
        parser, options = _options.new_parser(prog=f"apply_patch {name}", description=description)
        _options.add_root(options, "the root the patches were applied under (default: .)")
        if json:
            options.add_argument("--json", action="store_true", help="print JSON")
        if receipt:
            options.add_argument("id", nargs="?", metavar="ID", help="a receipt's id, or its start (4 characters at least)")
        if policies:
            _options.add_policies(parser, options)
        return parser

    return _options.parse(build, argv)

