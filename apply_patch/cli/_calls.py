"""`apply_patch calls [FILE]`: apply the Responses API's `apply_patch_call` items, print the outputs.

The input (FILE, or stdin) is JSON: an array of Responses items, a whole
Response (its `output` is read), one item, or JSON lines of any of these.
Items other than `apply_patch_call` are ignored. The `apply_patch_call_output`
items are printed as a JSON array, one per call, in order. Exit code: 0 when
every call completed, 1 otherwise (and then, unless --no-atomic, no file
changed), 2 for a usage error or input that is not JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .._errors import PatchError
from ..responses import apply_calls
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch calls` with `argv`; return the exit code."""
    options = _options.parse(_argument_parser, argv)
    if isinstance(options, int):
        return options
    try:
        policy = _options.policy(options)
        items = read_items(_read(options.file))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        sys.stderr.write(f"apply_patch calls: {error}\n")
        return 2
    try:
        outputs = apply_calls(
            items, options.root, atomic=not options.no_atomic, dry_run=options.dry_run, policy=policy
        )
    except PatchError as error:  # not expected: every call's failure is in its output
        sys.stderr.write(f"apply_patch calls: {error}\n")
        return 2
    # A lone surrogate (a JSON input may hold one) becomes its JSON escape, `\udc80`;
    # C1 controls too (they drive a terminal).
    text = _options.json_safe(json.dumps(outputs, indent=2, ensure_ascii=False)) + "\n"
    _output.write_bytes(text.encode("utf-8", "backslashreplace"))
    return 0 if all(output["status"] == "completed" for output in outputs) else 1


def read_items(text: str) -> list[Any]:
    """The Responses items in `text` (see the module's docstring); ValueError if it is not JSON,
    or nested deeper than the decoder goes (a clear one-line error, never RecursionError)."""
    try:
        values = [_loaded(text)]
    except _TooDeep as error:
        raise ValueError(f"the input {error}") from None
    except ValueError:
        lines = [line for line in text.splitlines() if line.strip()]
        values = []
        for number, line in enumerate(lines, 1):
            try:
                values.append(_loaded(line))
            except ValueError as error:
                why = str(error) if isinstance(error, _TooDeep) else "is not JSON"
                raise ValueError(
                    f"the input is neither JSON nor JSON lines (line {number} {why})"
                ) from None
    items: list[Any] = []
    for value in values:
        if isinstance(value, dict) and isinstance(value.get("output"), list):
            value = value["output"]  # a whole Response
        items.extend(value if isinstance(value, list) else [value])
    return items


class _TooDeep(ValueError):
    """JSON nested deeper than the decoder goes."""


def _loaded(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise _TooDeep(
            f"is nested too deep: more than {sys.getrecursionlimit()} arrays or objects "
            "one inside the other"
        ) from None


def _read(file: str | None) -> str:
    if file is None or file == "-":
        return sys.stdin.buffer.read().decode("utf-8")
    with open(file, encoding="utf-8") as source:
        return source.read()


def _argument_parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch calls",
        description=(
            "Apply the apply_patch_call items of the Responses API's native apply_patch tool "
            "(a JSON array of output items, a Response, or JSON lines; stdin when no FILE) "
            "and print their apply_patch_call_output items as JSON. All calls are one patch, "
            "all or nothing, unless --no-atomic. Exit code 0 when every call completed, 1 "
            "otherwise."
        ),
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help="the JSON input (default: stdin)")
    _options.add_root(parser)
    _options.add_dry_run(parser, "do everything but write; report what would change")
    parser.add_argument(
        "--no-atomic",
        action="store_true",
        help="apply each call on its own, in order (default: all calls or none)",
    )
    _options.add_policies(parser)
    return parser
