"""`apply_patch undo`, `history` and `show`: the receipts of the patches applied under a root.

Every commit leaves a receipt in the user's state folder (`apply/_receipts`);
these commands list them, print one as a diff, and undo one (all or nothing,
only when every file it touched still holds what it left).

Exit codes: 0 done, 1 refused (nothing changed), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..apply import Receipt, failure, history, show, undo, warnings_text
from .._errors import PatchError, escaped
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

UNDO: Final = """\
Undo the patch of receipt ID under the root (default: the newest patch still in
effect that is not itself an undo), all or nothing. Every file it touched must
still hold the bytes it left; otherwise nothing changes and the files changed
since are named. An undo has its own receipt: undoing it redoes the patch.
"""
HISTORY: Final = """\
List the receipts of the patches applied under the root, oldest first: id, time,
and each file's operation (`undone` marks a receipt undone since, `undo of ID` an undo).
"""
SHOW: Final = "Print receipt ID (or an unambiguous start of one) as a unified diff."


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
    receipts = history(options.root)
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
    options = _parse(argv, "show", SHOW, receipt=True, required=True)
    if isinstance(options, int):
        return options
    try:
        text = show(options.root, options.id)
        if _output.is_terminal():  # exact bytes into a file or a pipe, escapes on a terminal
            text = escaped(text, keep="\n\t")
        _output.write(text)
    except PatchError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    return 0


def _parse(
    argv: Sequence[str],
    name: str,
    description: str,
    *,
    receipt: bool = False,
    required: bool = False,
    json: bool = False,
    policies: bool = False,
) -> argparse.Namespace | int:
    def build() -> argparse.ArgumentParser:
        parser, options = _options.new_parser(prog=f"apply_patch {name}", description=description)
        _options.add_root(options, "the root the patches were applied under (default: .)")
        if json:
            options.add_argument("--json", action="store_true", help="print JSON")
        if receipt:
            options.add_argument("id", nargs=None if required else "?", metavar="ID", help="a receipt id")
        if policies:
            _options.add_policies(parser, options)
        return parser

    return _options.parse(build, argv)

