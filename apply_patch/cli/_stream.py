"""`apply_patch --stream`: a Codex patch read from stdin as it arrives, one JSON line a verdict.

Each line is handed to `StreamingPlan` as soon as it ends (stdin read line by line,
unbuffered), and each verdict is printed at once as one line of JSON (docs/cli.md). At the
end of stdin the whole patch is applied as without `--stream` (all or nothing), and the
usual summary, or with `--json` the usual document, follows the verdicts.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import BinaryIO

    from collections.abc import Callable

    from ..apply import ApplyResult, Verdict

@dataclass(frozen=True, slots=True)
class Texts:
    """The executable's messages for stdin that could not be read, or held nothing."""

    stdin_failed: str
    no_patch: str


_MAX_LINES = 10_000_000  # lines read from stdin at most (a bound, not a limit met in use)


def stream_main(
    options: argparse.Namespace,
    stdin: BinaryIO | None,
    print_result: Callable[[ApplyResult], None],
    texts: Texts,
) -> int:
    """Stream stdin's patch through a StreamingPlan; the exit code `apply_patch` gives.
    `print_result` prints an applied patch's result as `apply_patch` does; `texts` are the
    executable's messages (`_main`'s, passed in: `_main` imports this module)."""
    from .._errors import PatchError, escaped
    from ..apply import StreamingPlan, error_json, failure

    if stdin is None:
        sys.stderr.write(f"{texts.stdin_failed}\nstdin is closed\n")
        return 1
    plan = StreamingPlan(options.root, policy=_options.policy(options), on_verdict=_print_verdict)
    received = False
    try:
        for _ in range(_MAX_LINES):
            data = stdin.readline()
            if not data:
                break
            received = True
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                sys.stderr.write(f"{texts.stdin_failed}\nstream did not contain valid UTF-8\n")
                return 1
            plan.feed(text)
        if not received:
            sys.stderr.write(texts.no_patch)
            return 2
        result = plan.finish(dry_run=options.dry_run)
    except PatchError as error:
        if options.json:
            document = error_json(error, dry_run=options.dry_run)
            _output.write(_options.json_safe(json.dumps(document, indent=2, ensure_ascii=False)) + "\n")
            _output.flush()
        else:
            sys.stderr.write(escaped(failure(error, dry_run=options.dry_run), keep="\n\t"))
        from .._errors import InputError

        return 2 if isinstance(error, InputError) else 1
    print_result(result)
    return 0


def _print_verdict(verdict: Verdict) -> None:
    """One verdict, one line of JSON, out at once (the reader may stop the model on it)."""
    _output.write(_options.json_safe(json.dumps(verdict.as_json(), ensure_ascii=False)) + "\n")
    _output.flush()
