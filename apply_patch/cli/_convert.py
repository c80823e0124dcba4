"""`apply_patch convert [DIFF]`: a unified diff (default: stdin) → the same patch in this format.

Exit codes: 0 the patch was printed (nothing for a diff without changes),
1 the diff cannot be converted (malformed, does not match --old, binary),
2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..make import ConvertOptions, convert, reader_of
from .._errors import PatchError
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

DESCRIPTION: Final = """\
Read a unified diff (git diff, git diff --no-index, diff -u, diff -ruN) from
DIFF or stdin and print the same change as a patch in the apply_patch format.
With --old, chunks get the exact `@@` lines, `*** End of File` markers and
line endings, and the diff is checked against the old files.
"""


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch convert` with `argv`; return the exit code."""
    try:
        options = _parser().parse_args(list(argv))
    except SystemExit as exc:  # --help, or a usage error already printed
        return exc.code if isinstance(exc.code, int) else 2
    try:
        data = _read(options.diff)
    except OSError as exc:
        return _fail(f"{options.diff}: {exc.strerror}", 2)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _fail(f"the diff is not UTF-8 text (byte {exc.start})", 1)
    settings = ConvertOptions(strip=options.strip, skip_binary=options.skip_binary)
    try:
        result = convert(text, reader_of(options.old), settings)
    except PatchError as error:
        hint = " (use --skip-binary to leave it out)" if error.kind == "binary" else ""
        return _fail(f"{error}{hint}", 1)
    for path in result.skipped:
        sys.stderr.write(f"Skipped {path}: binary\n")
    if result.patch.operations:
        _output.write_bytes(str(result.patch).encode("utf-8"))
    return 0


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as file:
        return file.read()


def _fail(message: str, code: int) -> int:
    sys.stderr.write(f"Error: {message}\n")
    return code


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch convert",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("diff", nargs="?", metavar="DIFF", help="the diff file (default: stdin)")
    parser.add_argument(
        "-p", "--strip", type=_count, default=1, metavar="N",
        help="leading path components to remove, as patch -pN (default: 1, for a/ and b/); "
        "a path left with none is refused, as git apply refuses it",
    )
    parser.add_argument(
        "--old", metavar="DIR", help="the folder holding the old files (exact hints, checks)"
    )
    parser.add_argument(
        "--skip-binary", action="store_true", help="leave out binary files instead of refusing them (a deleted one is still deleted)"
    )
    return parser
