"""The whole pipeline in one call: parse → plan → commit (to disk or a mapping) → result."""

from __future__ import annotations

import os

from dataclasses import dataclass, replace

from .._gc import PausedCollector
from .disk import RootLock, commit, recover
from .planning import DiskTree
from .records import running_session
from .._errors import (
    AmbiguousBlankLinesError,
    ContextNotFoundError,
    InputError,
    PatchError,
    PatchIOError,
    PatchSyntaxError,
    check_text,
    escaped,
)
from ..format import Patch
from .planning import make_plan
from .planning import FileChange, Plan, file_pairs, OperationResult
from .._policy import DEFAULT, Policy, policy_of
from .planning import (
    DRY_RUN_HEADER,
    SUCCESS_HEADER,
    summary,
    unified_diff,
    warnings_text,
    without_content,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Callable, Mapping, Sequence

    from ..format import EditOperation, Operation
    from typing import Literal

    from .matching import PatchWarning
    from .planning import Failure, Repair, RepairRequest, Unfound
    from .records import Recovery
    from .disk import Recorder
    from .planning import Tree


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file: `status` is "added", "updated", "deleted" or "moved".

    `path` is relative to the root (for a deleted file, where it was); a moved
    file has its old path in `moved_from`. `added`/`removed` count lines.
    """

    path: str
    status: Literal["added", "updated", "deleted", "moved"]
    moved_from: str | None = None
    added: int = 0
    removed: int = 0


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What a patch did (or, with `dry_run`, would do).

    `summary` is exactly the executable's success text (with a dry-run header
    in a dry run); `operations` the operations in patch order, with where each
    chunk landed; `changes` the net change of every file; `warnings` doubts
    about chunks placed by a fuzzy tier or at the first of several places.
    `receipt` is the id of the commit's receipt (`apply_patch.undo`), None in
    a dry run, with the journal off, or when it could not be written (then a
    warning says so).
    """

    summary: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    warnings: tuple[PatchWarning, ...] = ()
    dry_run: bool = False
    receipt: str | None = None

    def report(self) -> str:
        """The text to give back to a model: `summary`, then one `warning:` line per warning.

        Exactly what the executable prints (stdout, then stderr); a model that
        reads only `summary` never learns that a chunk was placed by a fuzzy
        tier, at the first of several places, or that its input was decoded.
        """
        return self.summary + warnings_text(self.warnings)

    @property
    def diff(self) -> str:
        """A unified diff (with file headers) of every change."""
        return unified_diff(file_pairs(self.changes, self.operations))

    @property
    def files(self) -> tuple[FileResult, ...]:
        """One result per file whose content or place changed, in the order of `changes`."""
        pairs = file_pairs(self.changes, self.operations)
        return tuple(_file_result(old, new, self.operations) for old, new in pairs)


def _file_result(
    old: FileChange, new: FileChange, operations: tuple[OperationResult, ...]
) -> FileResult:
    chosen = [op for op in operations if op.target == new.path]
    added, removed = sum(op.added for op in chosen), sum(op.removed for op in chosen)
    if old is not new:
        return FileResult(new.relative, "moved", old.relative, added, removed)
    if new.before is None:
        return FileResult(new.relative, "added", None, added, removed)
    if new.after is None:
        return FileResult(new.relative, "deleted", None, added, removed)
    return FileResult(new.relative, "updated", None, added, removed)


def apply_patch(
    text: str | Patch,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Repair | None = None,
    **options: str,
) -> ApplyResult:
    """Apply patch `text` (or a parsed `Patch`) to the files under `root`, all or nothing.

    Relative patch paths are taken from `workdir` (relative to `root`; it may
    not exist yet, and is created only if a file is written in it); every path
    stays confined to `root`. `text` may also be the patch as a JSON string,
    a JSON object with one text field, or the shell form of a call
    (`cd DIR && apply_patch <<'EOF' ... EOF`: DIR is taken from `workdir`);
    each is reported as a warning. `policy` is `DEFAULT` or `CODEX` (the reference's
    file handling); keyword `options` change single fields of it
    (`add_existing="overwrite"`...). Raises a PatchError subclass on any
    failure, and then no file changed. With `dry_run`, everything is computed
    and nothing is written. `repair` (docs/agents.md): when an edit's old text
    or a chunk's lines are not found, it is called once, after the lock is
    released, with a `RepairRequest` (the file's text, the failed edit, the
    diagnostic) and may return a corrected `StrReplace` of that file; the patch is
    planned again with it only if its old text is in the file exactly once (a
    `repaired` warning says so), else the error stands, with a hint saying why.
    """
    chosen = policy_of(policy, options)
    return Replay(os.fspath(root), dry_run=dry_run, policy=chosen, repair=repair).apply(text, os.fspath(workdir))


class Replay:
    """Patches applied one after the other under one `root`, each from its own folder.

    With `dry_run`, nothing is written, and each patch is planned as if the
    ones before it had been (their changes laid over the files: `OverlayTree`).
    """

    def __init__(
        self, root: str, *, dry_run: bool = False, policy: Policy = DEFAULT, repair: Repair | None = None
    ) -> None:
        self.root, self.dry_run, self.policy, self.repair = root, dry_run, policy, repair
        self._planned: list[Plan] = []

    def apply(self, patch: str | Patch, workdir: str = ".") -> ApplyResult:
        """`apply_patch(patch, root, workdir=workdir, ...)`, after the patches before it.

        Text may be JSON or a shell form (see `apply_patch`); a shell form's
        `cd` folder is taken from `workdir`.
        """
        folders = (os.path.join(self.root, workdir), ".")
        with PausedCollector():  # a patch's tokens and lines (and Lark, loaded with the first): no cycles
            parsed = patch if isinstance(patch, Patch) else _parsed(patch, folders, self.policy)
        if parsed.workdir is not None:
            workdir = os.path.normpath(os.path.join(workdir, parsed.workdir))
        # A repaired patch is planned as edits, one result per file: a repair is tried only
        # when that is one result per operation, as callers counting them expect.
        repairable = _one_file_each(parsed.operations)
        return self._run(lambda tree: make_plan(parsed, tree), workdir, parsed.notes, parsed.operations if repairable else None)

    def apply_operations(
        self, operations: Sequence[Operation | EditOperation], workdir: str = "."
    ) -> ApplyResult:
        """The same for the operations of the other edit formats (`apply_patch.edits`)."""
        return self._run(lambda tree: make_plan(operations, tree), workdir, (), operations)

    def tree(self, workdir: str = ".") -> Tree:
        """The files the next patch from `workdir` is planned over: the disk, with the
        patches planned before it laid over them in a dry run (read only)."""
        tree: Tree = DiskTree(self.root, self.policy, workdir)
        if self.dry_run:
            from .planning import OverlayTree  # only for a dry run of several patches

            tree = OverlayTree(tree, self._planned)
        return tree

    def _run(
        self,
        plan_in: Callable[[Tree], Plan],
        workdir: str,
        notes: tuple[str, ...] = (),
        operations: Sequence[Operation | EditOperation] | None = (),
    ) -> ApplyResult:
        tree = self.tree(workdir)
        recorder = _recorder(self.root, self.policy, None) if not self.dry_run else None
        try:
            plan, crash = _plan(plan_in, tree, commit_it=not self.dry_run, recorder=recorder)
        except (ContextNotFoundError, AmbiguousBlankLinesError) as error:
            if self.repair is None:
                raise
            if operations is None:
                error.hints = (
                    *error.hints,
                    "A repair was not asked for: the patch changes one file in several operations.",
                )
                raise
            # The lock is released here: the hook (a model call) never holds it.
            return self._repaired(error, operations, workdir, notes)
        self._planned.append(plan)
        return _result(plan, self.dry_run, notes, crash, recorder)

    def _repaired(
        self,
        error: Unfound,
        operations: Sequence[Operation | EditOperation],
        workdir: str,
        notes: tuple[str, ...],
    ) -> ApplyResult:
        """The operations planned again with the failed edit corrected by the repair hook
        (`_repair`), or `error` (with a hint saying why no correction was used)."""
        from .planning import ask, corrected, failure_of, refusal, warning
        from ..format import StrReplace

        assert self.repair is not None
        failure = failure_of(operations, error)
        request = None if failure is None else self._request(error, failure)
        if failure is None or request is None:
            raise error
        answer = ask(self.repair, request)
        why = refusal(request, answer)
        if why is not None:
            error.hints = (*error.hints, f"A repair was asked for and not used: {why}.")
            raise error
        assert isinstance(answer, StrReplace)
        fixed = corrected(operations, failure, answer)
        recorder = _recorder(self.root, self.policy, None) if not self.dry_run else None
        plan, crash = _plan(
            lambda tree: make_plan(fixed, tree), self.tree(workdir), commit_it=not self.dry_run, recorder=recorder
        )
        self._planned.append(plan)
        result = _result(plan, self.dry_run, notes, crash, recorder)
        used = warning(request, answer, error.patch_line)
        return replace(result, warnings=(used, *result.warnings))

    def _request(self, error: Unfound, failure: Failure) -> RepairRequest | None:
        """What the hook is asked: the file's text as it is now (read again, without the
        lock: the hook sees what the next plan will), or None when it may not be shown or
        is not text."""
        from .planning import RepairRequest
        from .planning import FileState

        tree = self.tree(".")  # the error names the file relative to the root
        try:
            state = tree.read(tree.resolve(error.path or "").target)
        except (OSError, PatchError):
            return None
        if not isinstance(state, FileState) or state.hidden or state.is_link:
            return None
        try:
            text = state.data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        return RepairRequest(error.path or "", text, failure.old, failure.new, str(error))


def _one_file_each(operations: Sequence[Operation]) -> bool:
    """Whether no two of `operations` touch the same path (a move: both of its paths)."""
    paths = [op.path for op in operations]
    paths += [move for op in operations if (move := getattr(op, "move_to", None)) is not None]
    return len(set(paths)) == len(paths)


def _recorder(root: str, policy: Policy, undoes: str | None) -> Recorder | None:
    """The receipt writer of a commit under `root` (None with the journal off)."""
    if policy.journal == "off":
        return None
    from .disk import Recorder

    return Recorder(os.path.realpath(root), policy.journal, undoes)


def _plan(
    plan_in: Callable[[Tree], Plan], tree: Tree, *, commit_it: bool, recorder: Recorder | None = None
) -> tuple[Plan, tuple[PatchWarning, ...]]:
    """Plan (and commit, with its receipt) with `plan_in`; every failure a PatchError (see `_boundary`).

    Before planning a commit, a commit under the root that was killed is
    finished or undone (`_commit.recover`): what was done, and any crash journal
    not obeyed, as warnings (on failure, hints of the error).
    """
    with _boundary():
        planned = _planned(plan_in, tree, commit_it=commit_it, recorder=recorder)
    _sweep_when_due(recorder)
    return planned


def _sweep_when_due(recorder: Recorder | None) -> None:
    """Once a day, after a commit that wrote a receipt (its locks released), prune the whole
    state folder (`_sweep`), within a budget; never that receipt. Best effort: a failure of
    it is silent (the commit is done, and said so)."""
    if recorder is None or recorder.name is None:
        return
    from .records import Unavailable, base_folder, folder_of, sweep_due

    base = base_folder()
    if not sweep_due(base):
        return
    from .disk import COMMIT_BUDGET, sweep

    keep = (os.path.basename(folder_of(recorder.root_real)), recorder.name)
    try:
        sweep(base, keep=keep, budget=COMMIT_BUDGET)
    except (OSError, Unavailable):
        pass


def _planned(
    plan_in: Callable[[Tree], Plan], tree: Tree, *, commit_it: bool, recorder: Recorder | None
) -> tuple[Plan, tuple[PatchWarning, ...]]:
    recovery = None
    try:
        with PausedCollector():  # the collector would walk large files' lines again and again
            if not commit_it:
                with tree.reading():
                    return plan_in(tree), ()
            with RootLock(tree.root):  # cooperating writers take turns: each plans what the last left
                recovery = recover(tree.root)
                with tree.reading():  # its folder descriptors, closed before the commit walks its own
                    plan = plan_in(tree)
                session = running_session()
                if session is not None:
                    session.check(plan)  # an editor session's: no edit on a stale view
                unjournaled = commit(plan, recorder=recorder)
                if session is not None:
                    session.wrote(plan.changes)
    except PatchError as error:
        without_content(error, tree.unshown)
        error.hints = (*error.hints, *(w.message for w in _crash_warnings(recovery)))
        raise
    return plan, _crash_warnings(recovery, unjournaled)


class _boundary:
    """What escapes a public call is a PatchError: files too large for the memory there
    is, text no encoder takes (a lone surrogate in a caller's own objects) become one.

    The commit undoes itself on any exception, so nothing changed either way.
    (A class, not `contextlib`: start-up time.)
    """

    def __enter__(self) -> None:
        pass

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, MemoryError):
            raise PatchIOError(
                "Not enough memory to apply the patch: the files it reads are too large"
            ) from None
        if isinstance(exc, UnicodeEncodeError):
            raise InputError(
                f"The input is not valid Unicode text: U+{ord(exc.object[exc.start]):04X} is a "
                "lone surrogate"
            ) from None


def _result(
    plan: Plan,
    dry_run: bool,
    notes: tuple[str, ...] = (),
    crash: tuple[PatchWarning, ...] = (),
    recorder: Recorder | None = None,
) -> ApplyResult:
    header = DRY_RUN_HEADER if dry_run else SUCCESS_HEADER
    return ApplyResult(
        summary(plan.operations, header=header),
        plan.operations,
        plan.changes,
        (
            *crash,
            *_input_warnings(notes),
            *plan.warnings,
            *_journal_warnings(recorder),
        ),
        dry_run,
        None if recorder is None else recorder.receipt,
    )


def _journal_warnings(recorder: Recorder | None) -> tuple[PatchWarning, ...]:
    """A warning saying that the commit has no receipt (undo is unavailable), and why."""
    if recorder is None or recorder.warning is None:
        return ()
    from .matching import PatchWarning

    return (PatchWarning("journal", None, None, None, None, (), recorder.warning),)


def _crash_warnings(recovery: Recovery | None, unjournaled: str | None = None) -> tuple[PatchWarning, ...]:
    """Warnings saying that a killed commit was finished or undone before this patch
    (`recovered`), that a crash journal was not obeyed, or that this commit had none
    (`crash_journal`)."""
    if (recovery is None or not (recovery.done or recovery.refused)) and unjournaled is None:
        return ()
    from .matching import PatchWarning

    done = () if recovery is None else recovery.done
    refused = () if recovery is None else recovery.refused
    return (
        *(PatchWarning("recovered", None, None, None, None, (), f"Before this patch, {what}.") for what in done),
        *(PatchWarning("crash_journal", None, None, None, None, (), f"Before this patch, {why}.") for why in refused),
        *([] if unjournaled is None else [PatchWarning("crash_journal", None, None, None, None, (), f"{unjournaled}.")]),
    )


def parse_patch(text: str, *, decode: bool = False, reference: bool = False) -> Patch:
    """`format.parse_patch`, imported with the first patch parsed: applying the other
    formats parses none, and loads neither the parser nor its tables (start-up time)."""
    from ..format import parse_patch as parse

    return parse(text, decode=decode, reference=reference)


def _parsed(text: str, folders: tuple[str, ...], policy: Policy) -> Patch:
    """The patch in `text` (decoded from JSON or a shell form if need be; read as the
    reference reads it under `slips="refuse"`, which is `--codex`'s).

    A one-line text naming a file in one of `folders` gets a hint: the text
    is the patch, not a file name (as in the reference).
    """
    try:
        return parse_patch(text, decode=True, reference=policy.slips == "refuse")
    except PatchSyntaxError as error:
        name = text.strip()
        if not name or "\n" in name or not any(os.path.isfile(os.path.join(f, name)) for f in folders):
            raise
        hint = (
            f"'{name}' names a file: the argument is the patch text itself. To apply the "
            f"patch in that file, run `apply_patch < {name}`."
        )
        raise PatchSyntaxError(
            error.message,
            line=error.line,
            text=error.text,
            details=error.details,
            hints=(*error.hints, hint),
        ) from None


def _input_warnings(notes: tuple[str, ...]) -> tuple[PatchWarning, ...]:
    """A warning for each thing decoded from the input (JSON, a shell command)."""
    if not notes:
        return ()
    from .matching import PatchWarning

    return tuple(PatchWarning("input", None, None, None, None, (), note) for note in notes)


def apply_to_mapping(
    text: str | Patch | Sequence[Operation | EditOperation],
    files: Mapping[str, str | bytes],
    *,
    policy: Policy = DEFAULT,
    **options: str,
) -> dict[str, str | bytes]:
    """Apply patch `text` (or a parsed `Patch`, or the operations of any edit format:
    `StrReplace`, `CreateFile`, `Insert`... as `apply_operations` takes them) to an
    in-memory tree and return the new tree; no disk access.

    Keys are relative paths with `/` (`./a//b` is `a/b`). A file given as
    `str` is UTF-8 text and comes back as `str`; `bytes` stay `bytes`; added
    files come back as `str`; a moved file keeps its type under its new path;
    deleted files are absent. Raises PatchError as `apply_patch` does, and
    the mapping passed in is never modified.
    """
    from .planning import MemoryTree, normalise  # not on the executable's way

    chosen = policy_of(policy, options)
    with _boundary(), PausedCollector():
        files_in = {path: _as_bytes(path, content) for path, content in files.items()}
        if isinstance(text, (str, Patch)):
            patch = text if isinstance(text, Patch) else _parsed(text, (), chosen)
            tree = MemoryTree(files_in, chosen, patch.workdir)
            plan = make_plan(patch, tree)
        else:  # the other formats' operations, planned as `apply_operations` plans them
            tree = MemoryTree(files_in, chosen, None)
            plan = make_plan(list(text), tree)
    binary = {normalise(path) for path, content in files.items() if isinstance(content, bytes)}
    binary.update(op.target for op in plan.operations if op.source_target in binary)
    new_tree = dict(tree.files)
    for change in plan.changes:
        if change.after is None:
            del new_tree[change.path]
        else:
            new_tree[change.path] = change.after.data
    return {
        path: data if path in binary else data.decode("utf-8", "surrogateescape")
        for path, data in new_tree.items()
    }


def _as_bytes(path: str, content: str | bytes) -> bytes:
    if isinstance(content, bytes):
        return content
    check_text(content, f"The content of {escaped(path)}")
    return content.encode("utf-8")


def undo(
    root: str | os.PathLike[str] = ".",
    receipt: str | None = None,
    *,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Undo the commit of `receipt` under `root` (an id from `history`, or a start of one of
    at least 4 characters; None: the newest patch in effect that is not itself an undo),
    all or nothing.

    Every file the receipt touched must still hold the bytes that commit left
    (or, for a commit that was interrupted, those it replaced); otherwise
    UndoError names each file changed since and what to do, and nothing
    changes. Files come back with their mode, owner and group (where those
    cannot be given back, without setuid and setgid). The undo is a commit
    like any other (locks, signals held, its own receipt: undoing it redoes).
    A receipt that fails a check is skipped, with a `journal` warning naming
    it in the result; UndoError for a receipt of another root names that
    root.
    """
    from .records import open_store, pick, read_records, undo_plan

    chosen = policy_of(policy, options)
    where = os.fspath(root)
    recorder = _recorder(where, chosen, None)
    with _boundary(), PausedCollector(), RootLock(where):
        recovery = recover(where)
        real = os.path.realpath(where)
        with open_store(real, receipt, "undo") as store:
            records = read_records(store)
            target = pick(records, receipt, real)
            plan = undo_plan(store, target, records, named=receipt is not None)
        if recorder is not None:
            recorder.undoes = target.id
        unjournaled = commit(plan, recorder=recorder)
        session = running_session()
        if session is not None:
            session.wrote(plan.changes)
    _sweep_when_due(recorder)
    from .matching import PatchWarning

    result = _result(plan, False, (), _crash_warnings(recovery, unjournaled), recorder)
    skipped = tuple(PatchWarning("journal", None, None, None, None, (), line) for line in records.skipped)
    header = f"Undid {target.id}. Updated the following files:"
    return replace(
        result, summary=summary(plan.operations, header=header), warnings=skipped + result.warnings
    )
