"""`apply_patch extract [FILE]`: list, or apply in order, the patches of a script, transcript or log.

Exit codes: 0 patches found (listed), or all applied; 1 no apply_patch call
found, FILE unreadable, or a patch not applied (`--apply` stops there: the
patches before it stay applied, it and the ones after it are not); 2 usage.
`--apply` takes the main command's options (`--dry-run`, `--json`, `-C` and
every policy option) from the shared options layer (`_options`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .._errors import FilePolicyError, PatchError
from ..apply import SCHEMA, ApplyResult, Replay, error_json, failure, result_json, warnings_text
from ..extract import BrokenPatch, Extracted, FoundEdits, FoundPatch, extract_patches
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final, TextIO

    from ..format import Edit, Operation

NONE_FOUND: Final = "no apply_patch call found"
OUTSIDE_ROOT: Final = "Working folder '{}' is outside the root folder {}"
DRY_RUN_ALONE: Final = "apply_patch extract: error: --dry-run needs --apply"
STOPPED: Final = "Stopped at patch {} of {}: {} applied, {} not applied."
DRY_RUN_STOPPED: Final = "Stopped at patch {} of {}: {} would apply, {} would not be applied (dry run: nothing was written)."
REPLY_COMMIT: Final = "one commit"
REPLY_STOPPED: Final = "Stopped at patch {} of {}: a reply's patches are one commit, so none of its {} was applied."
# `--json`'s status of a patch that applied; in a dry run, nothing is: it would apply.
APPLIED: Final = "applied"
WOULD_APPLY: Final = "would apply"

DESCRIPTION: Final = """\
Find every apply_patch call in FILE (or stdin): a shell script, a JSON argv
array, a terminal transcript, Markdown with shell blocks, or the JSON lines of
an agent log; and the edits of other tools: Claude Code's Edit, MultiEdit and
Write, OpenCode's exports (its apply_patch, edit and write tools), Anthropic's
text-editor tool, SEARCH/REPLACE blocks in a reply; and the patches of a chat
reply (fenced or not, prose around). Print each patch with a header (its line, its
working folder), or list them as JSON, or apply them in order, each one all or
nothing (a chat reply's patches: all of them as one commit). A call the log records
as failed is listed by --json (logged_outcome) and skipped otherwise.
"""


def main(argv: Sequence[str]) -> int:
    """Run `apply_patch extract` with `argv` (the arguments after `extract`); return the exit code."""
    options = _options.parse(_argument_parser, argv)
    if isinstance(options, int):  # --help, or a usage error
        return options
    if options.dry_run and not options.apply:
        sys.stderr.write(DRY_RUN_ALONE + "\n")
        return 2
    text = _read(options.file, sys.stderr)
    if text is None:
        return 1
    listed = extract_patches(text)
    if options.json and not options.apply:  # every call, the failed ones with their outcome
        _output.write(json.dumps([_as_json(item) for item in listed], indent=2) + "\n")
        return 0 if listed else _none_found()
    found = [item for item in listed if item.logged_outcome != "failed"]  # they changed nothing
    if not found:
        if options.json and options.apply:
            _output.write("[]\n")
        return _none_found()
    if options.apply:
        replay = Replay(options.root, dry_run=options.dry_run, policy=_options.policy(options))
        if len(found) > 1 and all(_of_reply(item) for item in found) and any(i.source == "reply" for i in found):
            return _apply_reply(found, replay, as_json=options.json)
        return _apply_all(found, replay, as_json=options.json)
    if not options.json:
        for number, item in enumerate(found, 1):
            error = f": {item.error.headline}" if isinstance(item, BrokenPatch) else ""
            _output.write(_header(number, found, item, error) + _with_newline(item.patch))
    return 0


def _none_found() -> int:
    sys.stderr.write(NONE_FOUND + "\n")
    return 1


def _argument_parser() -> argparse.ArgumentParser:
    parser = _options.argument_parser(
        prog="apply_patch extract",
        usage="apply_patch extract [--json] [FILE]\n"
        "       apply_patch extract --apply [--json] [--dry-run] [-C DIR] [POLICY OPTIONS] [FILE]",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help="the text to search (default: stdin)")
    parser.add_argument(
        "--json",
        action="store_true",
        help="print a JSON list: patch, workdir, line, source, error, logged_outcome; with --apply, one "
        "object per patch: its status (applied, or with --dry-run would apply; not applied; "
        "skipped) and the --json object of apply_patch",
    )
    parser.add_argument("--apply", action="store_true", help="apply the patches in order")
    group = parser.add_argument_group("with --apply (as for apply_patch itself)")
    _options.add_root(group, "the folder the session started in (default: .)")
    _options.add_dry_run(group, "do everything but write; each patch sees the ones before it as if written")
    _options.add_policies(parser)
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
        "schema": SCHEMA,
        "patch": item.patch,
        "workdir": item.workdir,
        "line": item.line,
        "source": item.source,
        "error": error,
        "logged_outcome": item.logged_outcome,
    }
    if isinstance(item, FoundEdits):  # another tool's edits: `patch` shows them as SEARCH/REPLACE
        from dataclasses import asdict

        document["kind"] = item.kind
        # (a format's `terms` are its messages' words, not the edit's: not listed)
        document["edits"] = [
            {"type": type(e).__name__, **{k: v for k, v in asdict(e).items() if k != "terms"}} for e in item.edits
        ]
    return document


def _header(number: int, found: Sequence[Extracted], item: Extracted, note: str = "") -> str:
    """`# patch 2 of 5: line 40 (terminal), folder pkg`, then `note`."""
    return (
        f"# patch {number} of {len(found)}: line {item.line} ({item.source}), "
        f"folder {item.workdir}{note}\n"
    )


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _apply_all(found: Sequence[Extracted], replay: Replay, *, as_json: bool) -> int:
    """Apply each patch in its folder under the root; stop at the first one not applied."""
    documents: list[dict[str, object]] = []
    stopped = False
    for number, item in enumerate(found, 1):
        if stopped:
            documents.append({**_identity(number, item), "status": "skipped", **_skipped(replay)})
            continue
        outcome = _apply_one(item, replay)
        if isinstance(outcome, PatchError):
            stopped = True
            documents.append({**_identity(number, item), "status": "not applied",
                              **error_json(outcome, dry_run=replay.dry_run)})  # fmt: skip
            if not as_json:
                sys.stderr.write(_header(number, found, item) + failure(outcome, dry_run=replay.dry_run))
                stopped_at = DRY_RUN_STOPPED if replay.dry_run else STOPPED
                sys.stderr.write(stopped_at.format(number, len(found), number - 1, len(found) - number + 1) + "\n")
            continue
        status = WOULD_APPLY if replay.dry_run else APPLIED
        documents.append({**_identity(number, item), "status": status, **result_json(
            outcome.operations, outcome.warnings, dry_run=outcome.dry_run, diff=None)})  # fmt: skip
        if not as_json:
            _output.write(_header(number, found, item) + outcome.summary)
            sys.stderr.write(warnings_text(outcome.warnings))
    if as_json:
        text = json.dumps(documents, indent=2, ensure_ascii=False) + "\n"
        _output.write_bytes(text.encode("utf-8", "backslashreplace"))
    return 1 if stopped else 0


def _apply_reply(found: Sequence[Extracted], replay: Replay, *, as_json: bool) -> int:
    """A chat reply's patches, as one commit: each planned over the files the ones before it
    leave (nothing written), then all committed together; any failure applies none."""
    trial = Replay(replay.root, dry_run=True, policy=replay.policy)
    operations: list[Operation | Edit] = []
    for number, item in enumerate(found, 1):
        outcome = _apply_one(item, trial)
        if isinstance(outcome, PatchError):
            return _reply_failed(found, number, outcome, replay, as_json)
        if isinstance(item, FoundEdits):  # its SEARCH/REPLACE blocks, numbered and checked
            from ..edits import checked

            operations += checked(item.edits)
        else:
            assert isinstance(item, FoundPatch)  # a reply's patches are Codex patches and diffs
            operations += item.parsed.operations
    try:
        result = replay.apply_operations(operations)
    except PatchError as error:
        return _reply_failed(found, len(found), error, replay, as_json)
    status = WOULD_APPLY if replay.dry_run else APPLIED
    fields = result_json(result.operations, result.warnings, dry_run=result.dry_run, diff=None)
    if as_json:
        documents = [{**_identity(n, item), "status": status, **fields} for n, item in enumerate(found, 1)]
        _output.write(json.dumps(documents, indent=2, ensure_ascii=False) + "\n")
    else:
        _output.write(f"# patches 1 to {len(found)} of {len(found)}: a reply's patches, {REPLY_COMMIT}\n" + result.summary)
        sys.stderr.write(warnings_text(result.warnings))
    return 0


def _of_reply(item: Extracted) -> bool:
    """Whether `item` may be one of a chat reply's patches: a patch found in a reply, or
    SEARCH/REPLACE blocks in text (not another tool's edits in a log)."""
    if isinstance(item, FoundEdits):
        return item.kind == "search-replace" and item.source == "markdown"
    return item.source == "reply"


def _reply_failed(found: Sequence[Extracted], number: int, error: PatchError, replay: Replay, as_json: bool) -> int:
    """Patch `number` of a reply did not apply: none of the reply's was."""
    if as_json:
        documents = [
            {**_identity(n, item), "status": "not applied" if n <= number else "skipped",
             **(error_json(error, dry_run=replay.dry_run) if n == number else _skipped(replay))}
            for n, item in enumerate(found, 1)
        ]  # fmt: skip
        _output.write(json.dumps(documents, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(_header(number, found, found[number - 1]) + failure(error, dry_run=replay.dry_run))
        sys.stderr.write(REPLY_STOPPED.format(number, len(found), len(found)) + "\n")
    return 1


def _identity(number: int, item: Extracted) -> dict[str, object]:
    return {"number": number, "line": item.line, "source": item.source, "workdir": item.workdir}


def _skipped(replay: Replay) -> dict[str, object]:
    """The --json fields of a patch not tried (after one that was not applied)."""
    return {"schema": SCHEMA, "ok": False, "dry_run": replay.dry_run, "operations": [],
            "warnings": [], "diff": None, "error": None}  # fmt: skip


def _apply_one(item: Extracted, replay: Replay) -> ApplyResult | PatchError:
    """Apply `item` (the patch extraction parsed, not parsed again): the result, or why not."""
    if isinstance(item, BrokenPatch):
        return item.error
    folder = _folder(replay.root, item.workdir)
    if folder is None:
        outside = OUTSIDE_ROOT.format(item.workdir, os.path.abspath(replay.root))
        return FilePolicyError(outside, path=item.workdir)
    try:  # the folder may not exist: the commit makes it if a file is written there
        if isinstance(item, FoundEdits):  # another tool's edits, checked and planned as apply_edits does
            from ..edits import replay_edits

            # (a reply's blocks carry their format's terms: the planner undoes their slips,
            # as apply_search_replace does)
            return replay_edits(item.edits, replay, folder)
        if item.envelope and replay.policy.slips == "refuse":  # --codex: read as the reference reads it
            from ..format import parse_patch

            parse_patch(item.patch, reference=True)
        return replay.apply(item.parsed, folder)
    except PatchError as error:
        return error


def _folder(root: str, workdir: str) -> str | None:
    """`workdir` (relative to `root`, absolute, or from `~`) as a folder inside `root`, else None
    (a Windows absolute folder the session's did not hold, too: here it is a folder name)."""
    from ..apply import is_windows_absolute

    if os.sep == "/" and is_windows_absolute(workdir):
        return None
    base = os.path.abspath(root)
    folder = os.path.normpath(os.path.join(base, os.path.expanduser(workdir)))
    inside = folder == base or folder.startswith(base.rstrip(os.sep) + os.sep)
    return folder if inside else None


