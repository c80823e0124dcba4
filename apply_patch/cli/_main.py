"""The `apply_patch` executable: argv and stdin in; summary, errors and exit code out.

Exit codes, as the reference's: 0 applied, 1 not applied (nothing changed),
2 usage error. Our options come before the patch argument.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, TextIO

from ..apply import signals as _signals
from .._errors import InputError, PatchError, escaped, os_reason
from . import _options, _output

if TYPE_CHECKING:
    from ..apply import ApplyResult

USAGE: Final = "Usage: apply_patch 'PATCH'\n       echo 'PATCH' | apply_patch"
EXTRA_ARGUMENT: Final = "Error: apply_patch accepts exactly one argument."
NOT_UTF8_ARGUMENT: Final = "Error: apply_patch requires a UTF-8 PATCH argument."
STDIN_FAILED: Final = "Error: Failed to read PATCH from stdin."
NO_PATCH: Final = "Error: no patch: there is no PATCH argument, and stdin is empty."
SEE_HELP: Final = "Run 'apply_patch --help' for the options, examples and exit codes."

DESCRIPTION: Final = """\
Apply a patch in the Codex apply_patch format (*** Begin Patch ... *** End Patch)
to the files under the root folder, all or nothing: if any part fails, no file
is changed and the exit code is 1. The patch is the single argument, or stdin.
With --format, the input is SEARCH/REPLACE blocks, a unified diff or a Hashline edit instead.

other commands (each has --help):
  apply_patch extract [FILE]   find the patches in a command, transcript or agent log
  apply_patch diff OLD NEW     print the patch that turns OLD into NEW
  apply_patch convert [DIFF]   turn a unified diff into a patch
  apply_patch calls [FILE]     apply the Responses API's apply_patch_call items (JSON)
  apply_patch view --hashline FILE  print FILE's lines as LINE#ID:TEXT, for --format hashline
  apply_patch serve            run an MCP server over stdio (needs apply-patch[mcp])
  apply_patch history          list the receipts of the patches applied under the root
  apply_patch show [ID]        print the last receipt (or receipt ID) as a diff
  apply_patch undo [ID]        undo the last patch (or receipt ID), if its files are unchanged since
  apply_patch prune            cap the receipts of every root by age and size; drop those of roots gone
  apply_patch pending          list the patches kept by --stage, with their diffs
  apply_patch accept [ID|--all]  apply a staged patch, if its files are unchanged since
  apply_patch reject [ID|--all]  drop a staged patch
"""

EPILOG: Final = """\
examples:
  apply_patch < change.patch                      apply the patch in change.patch
  apply_patch --dry-run --diff < change.patch     show what it would change; write nothing
  apply_patch -C src "$(cat change.patch)"        the patch as the argument, under src/
  git diff | apply_patch --format unified-diff    apply a unified diff as it is
  apply_patch extract --apply session.log         replay the patches of an agent's log

exit codes:
  0    the patch was applied (--dry-run: it applies; nothing was written)
  1    the patch was not applied (--dry-run: it does not apply); no file was changed
  2    usage error: nothing was read or written
  130  interrupted (Ctrl-C) before the commit; no file was changed
  A reader of stdout that goes away (| head) changes neither the files nor the exit code.
"""


# `apply_patch NAME ...` runs the subcommand's module `main(argv) -> int` (or the function
# named after a colon); each is imported only when used, so applying a patch never loads
# what they need.
SUBCOMMANDS: Final[dict[str, str]] = {
    "calls": "._calls",
    "convert": "._convert",
    "diff": "._diff",
    "extract": "._extract",
    "accept": "._gate:accept_main",
    "history": "._history:history_main",
    "pending": "._gate:pending_main",
    "prune": "._history:prune_main",
    "reject": "._gate:reject_main",
    "serve": "._serve",
    "show": "._history:show_main",
    "undo": "._history:undo_main",
    "view": "._view",
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the executable with `argv` (default: sys.argv[1:]); return the exit code.

    Never a traceback: Ctrl-C before the commit ends with nothing changed
    (exit 130); any unexpected error is one line and exit 1 (nothing changed:
    the commit undoes itself on any exception). SIGINT, SIGTERM and SIGHUP
    during a commit wait for its end, and are honoured once the summary is
    printed (`apply._signals`); the handlers are put back on return. A reader of
    stdout that goes away (`| head`) changes nothing: the rest of the output
    is dropped quietly and the exit code is what it would have been (`_output`).
    """
    _signals.install(defer=True)
    try:
        return _guarded(argv)
    finally:
        _signals.uninstall()


def _guarded(argv: Sequence[str] | None) -> int:
    try:
        code = _main(argv)
    except KeyboardInterrupt:
        _say(f"apply_patch: interrupted{_outcome(argv)}\n")
        return 130
    except _output.OutputError as exc:  # a subcommand's result could not be printed
        _say(f"apply_patch: the output could not be written: {exc.reason}{_outcome(argv)}\n")
        return 1
    except Exception as exc:  # a bug of ours: one clean line, never a traceback
        _say(f"apply_patch: internal error: {type(exc).__name__}: {exc}{_outcome(argv)}\n")
        return 1
    code = _flushed(code, argv)
    if code == 0:  # after an error (its rollback done) the exit status is the error's
        _signals.honour()
    return code


def _outcome(argv: Sequence[str] | None) -> str:
    """What a run cut short by an exception leaves on disk, said truthfully.

    No commit has happened in this process, or the commit undid itself: no file
    changed. After a commit (`extract --apply`, `calls`: several patches, one
    after the other) the patches applied before stay applied. Applying one patch
    never gets here after its commit (`_print_result` catches everything).
    """
    from ..apply import NOTHING_CHANGED

    if _signals.commits_done():
        return "; the patches applied before stay applied."
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in SUBCOMMANDS:  # listing, making or serving: no patch was in question
        return ". No file was changed."
    return f". {NOTHING_CHANGED}"


def _flushed(code: int, argv: Sequence[str] | None) -> int:
    """`code`, once what is left of stdout is flushed (before the interpreter's own last flush,
    which would print a traceback-like error). A write error other than a closed pipe is
    said, and makes the exit code 1: the command's result was not printed."""
    try:
        _output.flush()
    except _output.OutputError as exc:
        _say(f"apply_patch: the output could not be written: {exc.reason}{_outcome(argv)}\n")
        return code or 1
    return code


def run(argv: Sequence[str] | None = None) -> int:
    """The executable's entry point: `main`, for a process that ends right after it.

    The objects of the run are frozen (`gc.freeze`) before the interpreter's
    own last collection, which then skips what dies with the process anyway:
    a tenth of the executable's time on a small patch. Everything else about
    the end is as usual (files closed, atexit, flushing). Callers whose process
    goes on call `main`, which leaves the collector as it was.
    """
    try:
        code = main(argv)
        gc.freeze()
    except KeyboardInterrupt:  # after main, which catches its own: end as the signal would
        return 130
    return code


def _say(text: str) -> None:
    """Write to stderr if it still works."""
    try:
        sys.stderr.write(shown(text))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _main(argv: Sequence[str] | None) -> int:
    args = _subcommand_first(list(sys.argv[1:] if argv is None else argv))
    if args and args[0] in SUBCOMMANDS:
        import importlib  # with warnings: only for a subcommand

        name, _, function = SUBCOMMANDS[args[0]].partition(":")
        module = importlib.import_module(name, __package__)
        exit_code: int = getattr(module, function or "main")(args[1:])
        return exit_code
    options = _options.parse(_argument_parser, args)
    if isinstance(options, int):  # --help, --version, or a usage error
        return options
    if options.stream:
        if options.patch or options.format != "codex" or options.stage:
            sys.stderr.write("apply_patch: --stream reads a Codex patch from stdin, without --format, --stage or a PATCH argument\n")
            return 2
        from ._stream import Texts, stream_main

        texts = Texts(STDIN_FAILED, f"{NO_PATCH}\n{USAGE}\n{SEE_HELP}\n")
        stdin = None if sys.stdin is None else sys.stdin.buffer
        return stream_main(options, stdin, lambda result: _print_result(result, options, "codex"), texts)
    patch = _read_patch(options.patch, sys.stdin, sys.stderr)
    if isinstance(patch, int):
        return patch
    # The engine, once the options are read: --help, --version and the subcommands go without.
    from ..apply import apply_patch, error_json, failure

    chosen = options.format
    if options.stage:  # the review gate: planned, kept pending, nothing written
        from ._gate import stage_main

        return stage_main(patch, options)
    try:
        if chosen == "codex" and (options.codex or _is_one_patch(patch)):  # --codex: as the reference
            result = apply_patch(patch, options.root, dry_run=options.dry_run, policy=_options.policy(options))
        elif chosen in ("codex", "auto"):  # a chat reply: the patches it holds, as one commit
            from ..edits import apply_reply

            if chosen == "auto":
                from . import _formats

                chosen = _formats.detect(patch)
            if chosen == "hashline":  # a Hashline edit is one JSON value, not a reply holding patches
                result = _formats.apply_text(
                    patch, chosen, options.root, dry_run=options.dry_run, policy=_options.policy(options)
                )
            else:
                result = apply_reply(
                    patch,
                    options.root,
                    dry_run=options.dry_run,
                    codex_only=options.format == "codex",
                    policy=_options.policy(options),
                )
        else:  # the other formats (--format): imported only when asked for
            from . import _formats

            result = _formats.apply_text(
                patch, chosen, options.root, dry_run=options.dry_run, policy=_options.policy(options)
            )
    except PatchError as error:
        from ._advice import with_format_hint  # what to do next, when it is about --format

        error = with_format_hint(error, patch, options.format)
        if options.json:
            _print_json(_with_format(error_json(error, dry_run=options.dry_run), options.format, chosen))
        else:
            sys.stderr.write(shown(failure(error, dry_run=options.dry_run)))
        return 2 if isinstance(error, InputError) else 1  # input no patch could hold: usage
    try:  # the patch is applied: nothing from here on may turn it into "not applied"
        _print_result(result, options, chosen)
    except Exception as exc:  # stdout on a full disk (a closed pipe is no error: `_output`)
        done = "applies (dry run: nothing was written)" if result.dry_run else "was applied"
        reason = exc.reason if isinstance(exc, _output.OutputError) else os_reason(exc)
        _output.drop()  # said once: the interpreter's last flush must not fail again
        _say(f"apply_patch: the patch {done}, but its summary could not be printed: {reason}\n")
    return 0


def _subcommand_first(args: list[str]) -> list[str]:
    """`args` with a subcommand that follows options moved before them, as git takes them:
    `apply_patch -C DIR history` is `apply_patch history -C DIR`. Only options (and the
    values of those that take one) may come before it: a first word that is neither is
    the patch, and stays where it is."""
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] not in ("-", "--"):
        option = args[index]
        index += 2 if "=" not in option and _options.valued(option) else 1
    if 0 < index < len(args) and args[index] in SUBCOMMANDS:
        return [args[index], *args[:index], *args[index + 1 :]]
    return args


def _is_one_patch(text: str) -> bool:
    """Whether `text` starts as one patch does (its first non-blank line `*** Begin Patch`) and
    ends as one does: the common case, applied without looking for a reply's parts."""
    stripped = text.strip()
    return stripped.startswith("*** Begin Patch") and stripped.endswith("*** End Patch")


def _print_result(result: ApplyResult, options: argparse.Namespace, chosen: str) -> None:
    from ..apply import result_json, warnings_text

    if options.json:
        diff = result.diff if options.diff else None
        document = result_json(
            result.operations, result.warnings, dry_run=result.dry_run, diff=diff, receipt=result.receipt
        )
        _print_json(_with_format(document, options.format, chosen))
    else:
        summary, diff = result.summary, result.diff if options.diff else ""
        if diff and _output.is_terminal():  # exact bytes into a file or a pipe, escapes on a terminal
            diff = shown(diff)
        if _output.colors_wanted(options.color):
            from . import _color  # only to paint: start-up time

            summary, diff = _color.summary(summary), _color.diff(diff)
        _output.write(summary + diff)
        _say(warnings_text(result.warnings))
    _output.flush()


def shown(text: str) -> str:
    """`text` for a terminal: control characters (ESC sequences...) as escapes, lines kept.

    Messages quote file lines and names from disk: none may drive the terminal.
    """
    return escaped(text, keep="\n\t")


def _with_format(document: dict[str, Any], asked: str, chosen: str) -> dict[str, Any]:
    """With `--format` other than codex, the document says which format was read."""
    return document if asked == "codex" else {**document, "format": chosen}


def _print_json(document: dict[str, object]) -> None:

    _output.write(_options.json_safe(json.dumps(document, indent=2, ensure_ascii=False)) + "\n")


def _read_patch(arguments: list[str], stdin: TextIO | None, stderr: TextIO) -> str | int:
    """The patch text, or the exit code after printing the reference's message (and, for a
    usage error, what to do instead)."""
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    if len(arguments) > 1:
        from ._advice import extra_arguments

        advice = extra_arguments(arguments, SUBCOMMANDS)
        stderr.write(EXTRA_ARGUMENT + "\n" + (advice and advice + "\n"))
        return 2
    if arguments:
        try:
            arguments[0].encode("utf-8")
        except UnicodeEncodeError:  # undecodable bytes in argv arrive as lone surrogates
            stderr.write(NOT_UTF8_ARGUMENT + "\n")
            return 1
        return arguments[0]
    if stdin is None:  # started with stdin closed
        stderr.write(f"{STDIN_FAILED}\nstdin is closed\n")
        return 1
    data = stdin.buffer.read()
    if not data:  # the reference prints its usage alone
        stderr.write(f"{NO_PATCH}\n{USAGE}\n{SEE_HELP}\n")
        return 2
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        stderr.write(f"{STDIN_FAILED}\nstream did not contain valid UTF-8\n")
        return 1


def _argument_parser() -> argparse.ArgumentParser:

    parser, options = _options.new_parser(
        prog="apply_patch",
        usage="apply_patch [OPTIONS] 'PATCH'\n       echo 'PATCH' | apply_patch [OPTIONS]",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _options.add_root(options)
    _options.add_dry_run(options)
    options.add_argument(
        "--stage",
        action="store_true",
        help="plan the patch and keep it pending with its diff, writing nothing in the tree "
        "(apply_patch pending, accept, reject)",
    )
    options.add_argument(
        "--diff", action="store_true", help="also print a unified diff of every change"
    )
    options.add_argument(
        "--json", action="store_true", help="print one JSON object on stdout (schema in docs/cli.md)"
    )
    options.add_argument(
        "--stream",
        action="store_true",
        help="read the patch from stdin as it arrives and print one line of JSON per chunk as "
        "soon as it is placed, ambiguous or not found (schema in docs/cli.md); the patch is "
        "applied at the end of stdin, all or nothing",
    )
    options.add_argument(
        "--format",
        default="codex",
        choices=_options.FORMATS,
        help="what the input is: a Codex patch, SEARCH/REPLACE blocks (Aider), a unified diff "
        "(git diff, diff -u), a Hashline edit (JSON naming lines by the anchors of "
        "'apply_patch view --hashline'), or auto (the first marker says; --json names it) "
        "(default: codex)",
    )
    options.add_argument(
        "--color",
        default="auto",
        choices=_options.COLORS,
        help="colour the summary and --diff: auto (when stdout is a terminal; NO_COLOR set: "
        "never, FORCE_COLOR set: always), always, never; --json never is (default: auto)",
    )
    _options.add_policies(parser, options)
    _options.add_version(options)
    options.add_argument("patch", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser
