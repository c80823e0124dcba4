"""The whole pipeline in one call: parse → plan → commit → result."""

import os
from dataclasses import dataclass

from ._commit import commit
from ._diagnose import PatchWarning
from ._parse import parse_patch
from ._plan import FileChange, OperationResult, make_plan
from ._policy import DEFAULT, Policy
from ._report import DRY_RUN_HEADER, SUCCESS_HEADER, summary, unified_diff


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What a patch did (or, with `dry_run`, would do).

    `summary` is exactly the executable's success text (with a dry-run header
    in a dry run); `operations` the operations in patch order, with where each
    chunk landed; `changes` the net change of every file; `warnings` doubts
    about chunks placed by a fuzzy tier or at the first of several places.
    """

    summary: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    warnings: tuple[PatchWarning, ...] = ()
    dry_run: bool = False

    @property
    def diff(self) -> str:
        """A unified diff (with file headers) of every change."""
        return unified_diff(self.changes, self.operations)


def apply_patch(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply patch `text` to the files under `root`, all or nothing.

    `policy` is `DEFAULT` or `CODEX` (the reference's file handling); keyword
    `options` change single fields of it (`add_existing="overwrite"`...).
    Raises a PatchError subclass on any failure, and then no file changed.
    With `dry_run`, everything is computed and nothing is written.
    """
    chosen = policy.with_options(**options) if options else policy
    plan = make_plan(parse_patch(text), os.fspath(root), chosen)
    if not dry_run:
        commit(plan)
    header = DRY_RUN_HEADER if dry_run else SUCCESS_HEADER
    return ApplyResult(
        summary(plan.operations, header=header),
        plan.operations,
        plan.changes,
        plan.warnings,
        dry_run,
    )
