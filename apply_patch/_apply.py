"""The whole pipeline in one call: parse → plan → commit → result."""

import os
from ._dataclass import dataclass

from ._commit import commit
from ._gc import PausedCollector
from ._parse import parse_patch
from ._plan import FileChange, OperationResult, make_plan
from ._policy import DEFAULT, Policy
from ._report import summary


@dataclass(frozen=True, slots=True)
class ApplyResult:
    """What a patch did (or, with `dry_run`, would do).

    `summary` is exactly the executable's success text; `operations` the
    operations in patch order; `changes` the net change of every file.
    """

    summary: str
    operations: tuple[OperationResult, ...]
    changes: tuple[FileChange, ...]
    dry_run: bool = False


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
    with PausedCollector():  # the collector would walk large files' lines again and again
        plan = make_plan(parse_patch(text), os.fspath(root), chosen)
        if not dry_run:
            commit(plan)
    return ApplyResult(summary(plan.operations), plan.operations, plan.changes, dry_run)
