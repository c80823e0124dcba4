"""The review gate: `apply_patch --stage`, `pending`, `accept`, `reject`.

`--stage` plans a patch as its options say, writes nothing in the tree, and keeps it
pending (`apply/_pending`) with its diff, the hash of each file it reads (as the plan
resolved it: links followed) and of each file's bytes it writes, and every option it
was planned with (`--encoding` too). `accept` plans it again under the root's lock
and commits it only if that plan reads and writes exactly those bytes (`_Review`): a
file changed since, a link pointing elsewhere, a convention or setting that would
change the bytes written (a `.gitattributes` added since) refuse it, nothing applied,
and it stays pending. What it prints is escaped on a terminal, as `--diff` is.
`accept` and `reject` hold the record while they decide it (`claim`): racing, each
says truly what it did, and an applied patch is never reported as refused.

Exit codes: 0 done, 1 refused (nothing changed), 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._errors import PatchError, UndoError, escaped
from ..apply import Seen
from . import _options, _output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ..apply import Staged

PENDING: Final = "List the patches kept by `apply_patch --stage`, oldest first, each with its diff."
ACCEPT: Final = """\
Apply a staged patch (ID, or the only one pending; --all: every one, oldest first).
Every file must still hold the bytes it was planned on, and the patch must write
exactly the bytes reviewed; otherwise nothing is applied, the files are named, and
the patch stays pending.
"""
REJECT: Final = "Drop a staged patch (ID, or the only one pending; --all: every one)."


def _shown(text: str) -> str:
    """`text` for stdout: escaped on a terminal (exact bytes into a file or a pipe)."""
    return escaped(text, keep="\n\t") if _output.is_terminal() else text


def _say(text: str) -> None:
    """`text` on stderr, its control characters escaped (it quotes lines and names from disk)."""
    sys.stderr.write(escaped(text, keep="\n\t"))


def stage_main(patch: str, options: Any) -> int:
    """`apply_patch --stage`: plan `patch` as the options say, keep it pending, print its diff."""
    from .._policy import CHOICES, NAMED
    from ..apply import Staged, Unavailable, failure, stage, state_hash, warnings_text

    policy = _options.policy(options)
    chosen = options.format
    try:
        if chosen == "auto":
            from ._formats import detect

            chosen = detect(patch)
        result = _apply(patch, chosen, options.root, policy, dry_run=True)
    except PatchError as error:
        _say(failure(error, dry_run=True))
        return 1
    real = os.path.realpath(options.root)
    files, written = {}, {}
    for change in result.changes:
        key = _key(change.path, real)
        if key is None:
            _say(f"apply_patch: {change.relative} is outside the root: a patch that writes there cannot be staged. No file was changed.\n")
            return 1
        files[key] = "" if change.before is None else state_hash(change.before.data, change.before.is_link)
        written[key] = "" if change.after is None else state_hash(change.after.data, change.after.is_link)
    frozen = {f: getattr(policy, f) for f in (*CHOICES, *NAMED) if isinstance(getattr(policy, f), str)}
    lines = result.summary.splitlines()[1:]
    staged = Staged("", "", chosen, patch, frozen, files, tuple(lines), result.diff, written)
    try:
        staged_id = stage(options.root, staged)
    except (OSError, Unavailable) as exc:
        _say(f"apply_patch: the patch could not be staged: {exc}. No file was changed.\n")
        return 1
    _output.write(_shown(
        f"Staged {staged_id}; nothing was written. `apply_patch accept {staged_id}` applies it. "
        f"It would update:\n" + "".join(f"{line}\n" for line in lines) + result.diff
    ))  # fmt: skip
    _say(warnings_text(result.warnings))
    return 0


def _key(path: str, real: str) -> str | None:
    """`path` (absolute, as a plan resolved it) relative to the root's real path, with `/`;
    None when it is outside."""
    prefix = real.rstrip(os.sep) + os.sep
    return path[len(prefix) :].replace(os.sep, "/") if path.startswith(prefix) else None


def _apply(patch: str, chosen: str, root: str, policy: Any, *, dry_run: bool) -> Any:
    from ._formats import apply_text

    return apply_text(patch, chosen, root, dry_run=dry_run, policy=policy)


def _parse(argv: Sequence[str], name: str, description: str, *, choose: bool) -> argparse.Namespace | int:
    def build() -> argparse.ArgumentParser:
        parser, group = _options.new_parser(prog=f"apply_patch {name}", description=description)
        _options.add_root(group, "the root the patches were staged under (default: .)")
        if choose:
            group.add_argument("--all", action="store_true", help="every pending patch, oldest first")
            group.add_argument("id", nargs="?", metavar="ID", help="a pending patch's id (or its start)")
        return parser

    return _options.parse(build, argv)


def _waiting(root: str) -> tuple[Staged, ...]:
    """The patches pending under `root`; each record skipped is said in one line."""
    from ..apply import pending

    waiting = pending(root)
    for line in waiting.skipped:
        _say(f"apply_patch: warning: {line}\n")
    return waiting.staged


def pending_main(argv: Sequence[str]) -> int:
    """Run `apply_patch pending` with `argv`; return the exit code."""
    options = _parse(argv, "pending", PENDING, choose=False)
    if isinstance(options, int):
        return options
    for staged in _waiting(options.root):
        text = f"{staged.id}  {staged.time}\n" + "".join(f"  {op}\n" for op in staged.operations) + staged.diff
        _output.write(_shown(text))
    return 0


def accept_main(argv: Sequence[str]) -> int:
    """Run `apply_patch accept` with `argv`; return the exit code."""
    return _decide(argv, "accept", ACCEPT)


def reject_main(argv: Sequence[str]) -> int:
    """Run `apply_patch reject` with `argv`; return the exit code."""
    return _decide(argv, "reject", REJECT)


def _decide(argv: Sequence[str], name: str, description: str) -> int:
    from ..apply import BadRecord, Taken, claim, drop_claimed, pending_matching

    options = _parse(argv, name, description, choose=True)
    if isinstance(options, int):
        return options
    waiting = _waiting(options.root)
    if options.all:
        chosen = list(waiting)
    else:
        chosen = list(waiting) if options.id is None else pending_matching(waiting, options.id)
        if len(chosen) != 1:
            many = "no" if not chosen else "more than one"
            _say(
                f"apply_patch {name}: {many} pending patch{' matches' if options.id else ' is pending' if not chosen else 'es are pending'}"
                f"{' ' + repr(options.id) if options.id else ''}: name one ID (apply_patch pending lists them) or --all\n"
            )
            return 1
    for listed in chosen:
        try:
            with claim(options.root, listed.id) as held:
                if name == "reject":
                    drop_claimed(held)
                    _output.write(f"Rejected {listed.id}.\n")
                elif not _accept(options.root, held):
                    return 1
        except (Taken, BadRecord) as exc:
            _say(f"apply_patch {name}: {exc}; {'nothing was applied' if name == 'accept' else 'nothing was dropped'}\n")
            return 1
        except OSError as exc:  # reject: the record could not be removed
            from .._errors import os_reason

            _say(f"apply_patch {name}: {listed.id} could not be dropped: {os_reason(exc)}\n")
            return 1
    return 0


def _accept(root: str, held: Any) -> bool:
    """Apply the staged patch `held` claims, as reviewed; whether it was applied (the
    reason it was not is said)."""
    from .._errors import os_reason
    from .._policy import DEFAULT
    from ..apply import drop_claimed, failure, warnings_text

    staged: Staged = held.staged
    real = os.path.realpath(root)
    try:
        policy = DEFAULT.with_options(**staged.policy)
        written = staged.written if staged.written is not None else _reviewed_writes(staged, root, policy, real)
        review = _Review(staged, real, written)
        with review.watching():
            result = _apply(staged.patch, staged.format, root, policy, dry_run=False)
    except PatchError as error:
        _say(failure(error, dry_run=False) if not isinstance(error, UndoError) else f"{error}\n")
        return False
    # Applied: from here on nothing may turn it into "not applied".
    try:
        drop_claimed(held)
        note = ""
    except OSError as exc:
        note = (
            f"apply_patch: warning: {staged.id} was applied, but its pending record could not be removed "
            f"({os_reason(exc)}): `apply_patch reject {staged.id}` removes it\n"
        )
    try:
        _output.write(_shown(f"Accepted {staged.id}.\n{result.summary}"))
        _output.flush()
    except _output.OutputError as exc:  # stdout on a full disk: still applied, and said so
        _output.drop()
        note += f"apply_patch: {staged.id} was accepted, but its summary could not be printed: {exc.reason}\n"
    _say(warnings_text(result.warnings) + note)
    return True


def _reviewed_writes(staged: Staged, root: str, policy: Any, real: str) -> dict[str, str]:
    """A record of the previous version keeps no hash of the bytes it writes: its patch is
    planned now (a dry run), and only if that plan's diff is the diff reviewed are the bytes
    it writes taken as those reviewed (the commit then holds to them)."""
    from ..apply import state_hash

    result = _apply(staged.patch, staged.format, root, policy, dry_run=True)
    if result.diff != staged.diff:
        raise _other_bytes(staged.id, [change.relative for change in result.changes] or ["its files"])
    written: dict[str, str] = {}
    for change in result.changes:
        key = _key(change.path, real)
        if key is not None:
            written[key] = "" if change.after is None else state_hash(change.after.data, change.after.is_link)
    return written


def _other_bytes(staged_id: str, names: list[str]) -> PatchError:
    return UndoError(
        f"Cannot accept {staged_id}: it would now write other than was reviewed in {', '.join(names)} "
        "(a file, link, setting or convention changed since it was staged); nothing was applied, "
        "and it stays pending",
        path=names[0],
    )


class _Review(Seen):
    """The check of `accept`'s plan, under the root's lock before its commit: it reads
    every file at the bytes it was staged on (each as the plan resolves it now, links
    included) and writes exactly the bytes reviewed, no file more or less."""

    def __init__(self, staged: Staged, real: str, written: dict[str, str]) -> None:
        super().__init__(lambda names: _changed(staged.id, names))
        self.staged, self.real, self.written = staged, real, written

    def check(self, plan: Any) -> None:  # an `apply` Plan
        from ..apply import state_hash

        files, changed, other, keys = self.staged.files, [], [], set()
        for change in plan.changes:
            key = _key(change.path, self.real)
            expected = None if key is None else files.get(key)
            if expected is None and self.staged.written is None:  # the previous version: as the patch named it
                expected = files.get(change.relative)
            if key is None or expected is None:
                other.append(change.relative)
                continue
            keys.add(key)
            before, after = change.before, change.after
            if expected != ("" if before is None else state_hash(before.data, before.is_link)):
                changed.append(change.relative)
            elif self.written.get(key) != ("" if after is None else state_hash(after.data, after.is_link)):
                other.append(change.relative)
        other.extend(sorted(set(self.written) - keys))  # a file reviewed that it no longer writes
        if changed:
            raise self.refuse(changed)
        if other:
            raise _other_bytes(self.staged.id, other)


def _changed(staged_id: str, names: list[str]) -> PatchError:
    return UndoError(
        f"Cannot accept {staged_id}: changed since it was staged: {', '.join(names)}; "
        "nothing was applied, and it stays pending",
        path=names[0],
    )
