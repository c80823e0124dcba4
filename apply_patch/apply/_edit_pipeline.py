"""Operations of the other edit formats → plan → commit → the same `ApplyResult` as a patch's."""

from __future__ import annotations

import os

from ._pipeline import ApplyResult, Replay
from .._policy import DEFAULT, Policy, policy_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..format import EditOperation, Operation
    from .planning import Repair


def apply_operations(
    operations: Sequence[Operation | EditOperation],
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Repair | None = None,
    **options: str,
) -> ApplyResult:
    """Plan every operation in order over the files under `root`, then commit them all, or raise.

    As `apply_patch`: paths confined to `root` (relative ones taken from
    `workdir`), every policy applying, nothing written on any error or with `dry_run`;
    `repair` as for `apply_patch`.
    """
    chosen = policy_of(policy, options)
    replay = Replay(os.fspath(root), dry_run=dry_run, policy=chosen, repair=repair)
    return replay.apply_operations(operations, os.fspath(workdir))
