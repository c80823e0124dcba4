"""Operations of the other edit formats → plan → commit → the same `ApplyResult` as a patch's."""

from __future__ import annotations

import os

from ._commit import commit
from ._disk_tree import DiskTree
from ._gc import PausedCollector
from ._pipeline import ApplyResult
from ._plan import make_edit_plan
from ._policy import DEFAULT, Policy
from ._report import DRY_RUN_HEADER, SUCCESS_HEADER, summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..format._edits import EditOperation
    from ..format._model import Operation


def apply_operations(
    operations: Sequence[Operation | EditOperation],
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Plan every operation in order over the files under `root`, then commit them all, or raise.

    As `apply_patch`: paths confined to `root` (relative ones taken from
    `workdir`), every policy applying, nothing written on any error or with `dry_run`.
    """
    chosen = policy.with_options(**options) if options else policy
    with PausedCollector():
        tree = DiskTree(os.fspath(root), chosen, os.fspath(workdir))
        plan = make_edit_plan(operations, tree, chosen)
        if not dry_run:
            commit(plan)
    header = DRY_RUN_HEADER if dry_run else SUCCESS_HEADER
    return ApplyResult(
        summary(plan.operations, header=header), plan.operations, plan.changes, plan.warnings, dry_run
    )
