"""`apply_patch view --hashline FILE`: a file's lines as Hashline rows (`LINE#ID:TEXT`).

Prints exactly one row a line of the file and nothing else (an empty file: nothing),
each row ended by LF whatever the file's line endings (a CR is never printed; the
ID is the same); what `--format hashline` edits take as anchors. Exit codes: 0
printed, 1 the file cannot be shown as text (the reason on stderr), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .._errors import PatchError
from . import _options, _output


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch view` with `argv`; return the exit code."""
    options = _options.parse(_parser, argv)
    if isinstance(options, int):
        return options
    if not options.hashline:
        sys.stderr.write("apply_patch view: give --hashline (the one view it prints)\n")
        return 2
    from ..edits import view_hashline

    try:
        rows = view_hashline(options.file, options.root, policy=_options.policy(options))
    except PatchError as error:
        sys.stderr.write(f"apply_patch view: {error}\n")
        return 1
    # The file's own text, as `cat` prints it; a line that is not UTF-8 as its bytes.
    _output.write_bytes("".join(row + "\n" for row in rows).encode("utf-8", "surrogateescape"))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch view",
        description="Print FILE's lines as LINE#ID:TEXT (Hashline anchors), one a line, nothing else.",
    )
    _options.add_root(parser, "FILE is under DIR; nothing outside it is read (default: .)")
    parser.add_argument("--hashline", action="store_true", help="print each line as LINE#ID:TEXT")
    parser.add_argument("file", metavar="FILE", help="the file, relative to the root")
    _options.add_policies(parser)
    return parser
