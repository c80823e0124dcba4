"""What the native tool's front ends share: reading an operation, and the texts a model reads.

`responses.apply_calls`, `openai_agents.Editor`, `apply_patch calls` and the
MCP server's operations tool answer with these texts.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._errors import PatchError, RollbackError
from .format._model import Operation
from .format._operations import to_operation

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from .apply._doubts import PatchWarning
    from .apply._pipeline import ApplyResult
    from .apply._plan import OperationResult

NOT_APPLIED_ALONE: Final = "This call was not applied; no file was changed."


def field(holder: object, name: str) -> Any:
    """`holder[name]` of a mapping, `holder.name` of an object; None when absent."""
    if isinstance(holder, Mapping):
        return holder.get(name)
    return getattr(holder, name, None)


def read_operation(item: object) -> Operation:
    """The model's operation for a native one (dict or object); PatchSyntaxError if malformed."""
    return to_operation(field(item, "type"), field(item, "path"), field(item, "diff"), field(item, "move_to"))


def failure_text(error: PatchError, nothing_changed: str = NOT_APPLIED_ALONE) -> str:
    """The diagnostic, then `nothing_changed` (unless files may differ: a failed rollback)."""
    if isinstance(error, RollbackError):
        return str(error)
    return f"{error}\n{nothing_changed}"


def operation_texts(result: ApplyResult, count: int) -> list[str]:
    """What each operation did (one text per operation of the patch), with its warnings."""
    warned = _warnings_by_operation(result.operations, result.warnings)
    texts = []
    for operation, warnings in zip(result.operations, warned):
        lines = [describe(operation, dry_run=result.dry_run)]
        lines += (f"warning: {w.message}" for w in warnings)
        texts.append("\n".join(lines))
    assert len(texts) == count
    return texts


VERBS: Final = {
    "A": ("Created", "Would create"),
    "D": ("Deleted", "Would delete"),
    "M": ("Updated", "Would update"),
}


def describe(operation: OperationResult, *, dry_run: bool = False) -> str:
    """One line saying what an operation did (or would do, in a dry run), for a model to read."""
    verb = VERBS[operation.letter][dry_run]
    if operation.letter == "A":
        count = operation.added
        return f"{verb} {operation.path} ({count} line{'' if count == 1 else 's'})."
    if operation.letter == "D":
        return f"{verb} {operation.path}."
    moved = operation.source is not None
    subject = f"{operation.source}, moved to {operation.path}" if moved else operation.path
    if not operation.placements:
        return f"{'Would move' if dry_run else 'Moved'} {operation.source} to {operation.path}."
    where = ", ".join(str(p.file_line) for p in operation.placements)
    chunks = len(operation.placements)
    return (
        f"{verb} {subject}: {chunks} chunk{'' if chunks == 1 else 's'} at line"
        f"{'' if chunks == 1 else 's'} {where} (+{operation.added} -{operation.removed})."
    )


def _warnings_by_operation(
    operations: tuple[OperationResult, ...], warnings: tuple[PatchWarning, ...]
) -> list[list[PatchWarning]]:
    """Each operation's warnings: they come in operation order, each about one of its chunks."""
    found: list[list[PatchWarning]] = [[] for _ in operations]
    index = 0
    for warning in warnings:
        key = (warning.patch_line, warning.file_line, warning.tier)
        while index < len(operations) and key not in {
            (p.patch_line, p.file_line, p.tier) for p in operations[index].placements
        }:
            index += 1
        index = min(index, len(operations) - 1)  # not expected: said on the last one
        found[index].append(warning)
    return found


