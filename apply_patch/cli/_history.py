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
from .._errors import PatchError
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

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
    sys.stderr.write("".join(f"warning: {line}\n" for line in listed.skipped))
    receipts = listed.receipts
    if options.json:
        import json

        from .._dataclass import asdict

        _output.write(_options.json_safe(json.dumps([asdict(r) for r in receipts], indent=2)) + "\n")
        return 0
    _output.write("".join(_line(r) for r in receipts))
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
    sys.stderr.write("".join(f"warning: {line}\n" for line in shown.skipped))
    _output.write(shown.text)
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


# The review gate.

PENDING: Final = "List the patches kept by `apply_patch --stage`, oldest first, each with its diff."
ACCEPT: Final = """\
Apply a staged patch (ID, or the only one pending; --all: every one, oldest first).
Every file must still hold the bytes it was planned on; otherwise nothing is
applied, the files changed since are named, and the patch stays pending.
"""
REJECT: Final = "Drop a staged patch (ID, or the only one pending; --all: every one)."


def stage_main(patch: str, options: Any) -> int:
    """`apply_patch --stage`: plan `patch` as the options say, keep it pending, print its diff."""
    from ..apply import Staged, Unavailable, stage
    from .._policy import CHOICES

    policy = _options.policy(options)
    chosen = options.format
    try:
        if chosen == "auto":
            from ._formats import detect

            chosen = detect(patch)
        result = _apply(patch, chosen, options.root, policy, dry_run=True)
    except PatchError as error:
        sys.stderr.write(failure(error, dry_run=True))
        return 1
    files = {
        change.relative: "" if change.before is None else digest(change.before.data)
        for change in result.changes
    }
    lines = [line for line in result.summary.splitlines()[1:]]
    staged = Staged("", "", chosen, patch, {f: getattr(policy, f) for f in CHOICES}, files, tuple(lines), result.diff)
    try:
        staged_id = stage(options.root, staged)
    except (OSError, Unavailable) as exc:
        sys.stderr.write(f"apply_patch: the patch could not be staged: {exc}. No file was changed.\n")
        return 1
    _output.write(
        f"Staged {staged_id}; nothing was written. `apply_patch accept {staged_id}` applies it. "
        f"It would update:\n" + "".join(f"{line}\n" for line in lines) + result.diff
    )
    sys.stderr.write(warnings_text(result.warnings))
    return 0


def _apply(patch: str, chosen: str, root: str, policy: Any, *, dry_run: bool) -> Any:
    from ._formats import apply_text

    return apply_text(patch, chosen, root, dry_run=dry_run, policy=policy)


def digest(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def pending_main(argv: Sequence[str]) -> int:
    """Run `apply_patch pending` with `argv`; return the exit code."""
    from ..apply import pending

    options = _parse(argv, "pending", PENDING)
    if isinstance(options, int):
        return options
    for staged in pending(options.root):
        _output.write(f"{staged.id}  {staged.time}\n" + "".join(f"  {op}\n" for op in staged.operations) + staged.diff)
    return 0


def accept_main(argv: Sequence[str]) -> int:
    """Run `apply_patch accept` with `argv`; return the exit code."""
    return _decide(argv, "accept", ACCEPT)


def reject_main(argv: Sequence[str]) -> int:
    """Run `apply_patch reject` with `argv`; return the exit code."""
    return _decide(argv, "reject", REJECT)


def _decide(argv: Sequence[str], name: str, description: str) -> int:
    from ..apply import Seen, drop_pending, pending
    from .._errors import UndoError
    from .._policy import DEFAULT

    def build() -> argparse.ArgumentParser:
        parser, group = _options.new_parser(prog=f"apply_patch {name}", description=description)
        _options.add_root(group, "the root the patch was staged under (default: .)")
        group.add_argument("--all", action="store_true", help="every pending patch, oldest first")
        group.add_argument("id", nargs="?", metavar="ID", help="a pending patch's id (or its start)")
        return parser

    options = _options.parse(build, argv)
    if isinstance(options, int):
        return options
    waiting = pending(options.root)
    if options.all:
        chosen = list(waiting)
    else:
        chosen = [s for s in waiting if options.id is None or s.id.startswith(options.id)]
        if len(chosen) != 1:
            many = "no" if not chosen else "more than one"
            sys.stderr.write(
                f"apply_patch {name}: {many} pending patch{' matches' if options.id else ' is pending' if not chosen else 'es are pending'}"
                f"{' ' + repr(options.id) if options.id else ''}: name one ID (apply_patch pending lists them) or --all\n"
            )
            return 1
    for staged in chosen:
        if name == "reject":
            drop_pending(options.root, staged.id)
            _output.write(f"Rejected {staged.id}.\n")
            continue
        real = os.path.realpath(options.root)

        def refuse(names: list[str], staged_id: str = staged.id) -> PatchError:
            return UndoError(
                f"Cannot accept {staged_id}: changed since it was staged: {', '.join(names)}; "
                "nothing was applied, and it stays pending",
                path=names[0],
            )

        seen = Seen(refuse)
        seen.hashes = {os.path.join(real, path): value for path, value in staged.files.items()}
        try:
            with seen.watching():
                result = _apply(staged.patch, staged.format, options.root, DEFAULT.with_options(**staged.policy), dry_run=False)
        except PatchError as error:
            sys.stderr.write(f"{error}\n")
            return 1
        drop_pending(options.root, staged.id)
        _output.write(f"Accepted {staged.id}.\n{result.summary}")
        sys.stderr.write(warnings_text(result.warnings))
    return 0
