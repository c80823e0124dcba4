"""The Responses API's native `apply_patch` tool, applied by this engine, all or nothing.

With the built-in tool `{"type": "apply_patch"}`, a model answers with
`apply_patch_call` output items, each holding one operation (`create_file`,
`update_file` or `delete_file`, see `apply_patch.format._operations`). Pass
them to `apply_calls` and append what it returns to the next request's
`input`:

    >>> outputs = apply_calls(response.output, root="project")   # doctest: +SKIP

Items are read as dicts (the API's JSON) or as the openai SDK's objects (by
attribute); the `openai` package is never imported here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ._errors import PatchError, RollbackError
from .apply import apply_patch
from ._policy import DEFAULT, Policy, policy_of
from .format import (
    AddFile,
    DeleteFile,
    Operation,
    Patch,
    item_field as field,
    printable,
    read_operation,
    parse_patch,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final, TypeAlias

    from .apply import ApplyResult, OperationResult, PatchWarning, RepairRequest
    from .format import StrReplace

    Repair: TypeAlias = Callable[[RepairRequest], StrReplace | None]


CALL_TYPE: Final = "apply_patch_call"
OUTPUT_TYPE: Final = "apply_patch_call_output"
NOT_APPLIED: Final = "No call of this response was applied (they apply all or nothing); no file was changed."
OTHER_FAILED: Final = (
    "Not applied: {} failed, and the calls of one response are applied all or nothing; "
    "no file was changed. Send this call again with the corrected one."
)

__all__ = ["apply_calls", "operation_to_patch", "patch_to_operations"]


def apply_calls(
    calls: Iterable[object],
    root: str | os.PathLike[str] = ".",
    *,
    atomic: bool = True,
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Callable[[RepairRequest], StrReplace | None] | None = None,
    **options: str,
) -> list[dict[str, Any]]:
    """Apply the `apply_patch_call` items among `calls` under `root`; one output item per call.

    Each returned dict is an `apply_patch_call_output` item (`type`,
    `call_id`, `status` "completed" or "failed", `output` text; the call's
    `caller`, if it has one), in the order of the calls, ready for the next
    request's `input`. Other items are ignored.

    `atomic` (the default): the calls are one patch, all or nothing; if one
    fails, every call is "failed" (the failing one with the diagnostic, the
    others saying which call failed) and no file changed. Not `atomic`: each
    call is applied on its own, in order, each all or nothing. `dry_run`
    writes nothing. `policy` and `options` are those of `apply_patch`; a bad
    option raises `PolicyValueError` before anything is read. `repair`: as for
    `apply_patch` (not asked when several operations change one file).
    """
    chosen = policy_of(policy, options)
    found = [_Call(item, number) for number, item in enumerate(_calls(calls), 1)]
    if not found:
        return []
    run = _atomic if atomic else _one_by_one
    return run(found, os.fspath(root), chosen, dry_run, repair)


def operation_to_patch(operation: object) -> str:
    """The `*** Begin Patch` text equivalent to one operation (a dict or an object).

    Raises PatchSyntaxError when the operation or its diff is malformed.
    """
    return str(Patch((read_operation(operation),)))


def patch_to_operations(patch: Patch | str) -> list[dict[str, str]]:
    """The native tool's operations equivalent to a patch (a `Patch`, or text to parse).

    The inverse of `operation_to_patch`: `{"type", "path"}`, with `diff` for
    `create_file` and `update_file`, and `move_to` for a move.
    """
    parsed = patch if isinstance(patch, Patch) else parse_patch(patch)
    return [_native(operation) for operation in parsed.operations]


def _native(operation: Operation) -> dict[str, str]:
    lines = str(Patch((operation,))).split("\n")[2:-2]  # inside the envelope, below the header
    if isinstance(operation, DeleteFile):
        return {"type": "delete_file", "path": operation.path}
    if isinstance(operation, AddFile):
        return {"type": "create_file", "path": operation.path, "diff": _joined(lines)}
    native = {"type": "update_file", "path": operation.path}
    if operation.move_to is not None:
        native["move_to"] = operation.move_to
        lines = lines[1:]  # the `*** Move to:` line
    native["diff"] = _joined(lines)
    return native


def _joined(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def _calls(items: Iterable[object]) -> Iterable[object]:
    return (item for item in items if field(item, "type") == CALL_TYPE)


class _Call:
    """One `apply_patch_call`: its number (from 1), id, caller, and operations or error."""

    def __init__(self, item: object, number: int) -> None:
        self.number = number
        self.call_id = field(item, "call_id")
        self.caller = _caller(field(item, "caller"))
        given = field(item, "operations")
        raw = list(given) if isinstance(given, list) else [field(item, "operation")]
        self.label = printable(", ".join(f"{field(r, 'type')} {field(r, 'path')}" for r in raw))
        self.operations: tuple[Operation, ...] = ()
        self.error: PatchError | None = None
        try:
            self.operations = tuple(read_operation(r) for r in raw)
        except PatchError as error:
            self.error = error

    @property
    def name(self) -> str:
        """How other calls' outputs name this one."""
        return f"call {self.number} ({self.label})"

    def output(self, status: str, text: str) -> dict[str, Any]:
        item: dict[str, Any] = {
            "type": OUTPUT_TYPE,
            "call_id": self.call_id,
            "status": status,
            "output": text,
        }
        if self.caller is not None:
            item["caller"] = self.caller
        return item


def _caller(caller: object) -> object:
    """The call's `caller` as JSON data (the SDK copies it onto the output), or None."""
    dump = getattr(caller, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    return dict(caller) if isinstance(caller, Mapping) else None


def _atomic(
    calls: list[_Call], root: str, policy: Policy, dry_run: bool, repair: Repair | None = None
) -> list[dict[str, Any]]:
    """One patch of every call's operations: every output completed, or every one failed."""
    broken = {call.number for call in calls if call.error is not None}
    if broken:
        return _failed(calls, broken, None)
    owners = [call for call in calls for _ in call.operations]
    patch = Patch(tuple(op for call in calls for op in call.operations))
    try:
        result = apply_patch(patch, root, dry_run=dry_run, policy=policy, repair=repair)
    except PatchError as error:
        failing = {call.number for call in calls} if error.operation is None else {
            owners[error.operation].number
        }
        for call in calls:
            if call.number in failing:
                call.error = error
        return _failed(calls, failing, error)
    texts = operation_texts(result, len(patch.operations))
    outputs, start = [], 0
    for call in calls:
        end = start + len(call.operations)
        outputs.append(call.output("completed", "\n".join(texts[start:end])))
        start = end
    return outputs


def _failed(calls: list[_Call], failing: set[int], error: PatchError | None) -> list[dict[str, Any]]:
    first = next(call for call in calls if call.number in failing)
    outputs = []
    for call in calls:
        if call.number in failing:
            assert call.error is not None
            alone = NOT_APPLIED if len(calls) > 1 else NOT_APPLIED_ALONE
            outputs.append(call.output("failed", failure_text(call.error, alone)))
        else:
            outputs.append(call.output("failed", OTHER_FAILED.format(first.name)))
    return outputs


def _one_by_one(
    calls: list[_Call], root: str, policy: Policy, dry_run: bool, repair: Repair | None = None
) -> list[dict[str, Any]]:
    """Each call alone, in order; in a dry run each sees what the earlier ones would do."""
    outputs = []
    done: list[Operation] = []  # dry run: the operations of the calls that would apply
    for call in calls:
        if call.error is not None:
            outputs.append(call.output("failed", failure_text(call.error, NOT_APPLIED_ALONE)))
            continue
        patch = Patch((*done, *call.operations) if dry_run else call.operations)
        try:
            result = apply_patch(patch, root, dry_run=dry_run, policy=policy, repair=repair)
        except PatchError as error:
            outputs.append(call.output("failed", failure_text(error, NOT_APPLIED_ALONE)))
            continue
        texts = operation_texts(result, len(patch.operations))[len(patch.operations) - len(call.operations) :]
        outputs.append(call.output("completed", "\n".join(texts)))
        if dry_run:
            done.extend(call.operations)
    return outputs


def operations_patch(operations: Iterable[object]) -> Patch:
    """The patch of several operations (dicts or objects); PatchSyntaxError if one is malformed."""
    return Patch(tuple(read_operation(op) for op in operations))


# What the native tool's front ends answer (`apply_calls`, `openai_agents.Editor`,
# `apply_patch calls`, the MCP server's operations tool).
NOT_APPLIED_ALONE: Final = "This call was not applied; no file was changed."


def failure_text(error: PatchError, nothing_changed: str = NOT_APPLIED_ALONE) -> str:
    """The diagnostic, then `nothing_changed` (unless files may differ: a failed rollback)."""
    if isinstance(error, RollbackError):
        return str(error)
    return f"{error}\n{nothing_changed}"


def operation_texts(result: ApplyResult, count: int) -> list[str]:
    """What each operation did (one text per operation of the patch), with its warnings."""
    warned = _warnings_by_operation(result.operations, result.warnings, _targets(result))
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


def _targets(result: ApplyResult) -> dict[str, str]:
    """Each changed file's path relative to the root → its absolute path (`target`)."""
    return {change.relative: change.path for change in result.changes}


def _warnings_by_operation(
    operations: tuple[OperationResult, ...], warnings: tuple[PatchWarning, ...], targets: dict[str, str]
) -> list[list[PatchWarning]]:
    """Each operation's warnings: they come in operation order, each about one of its chunks;
    a file's syntax and repair warnings go to the last operation that wrote it (`targets`: relative
    path → absolute, as operations name what they write)."""
    found: list[list[PatchWarning]] = [[] for _ in operations]
    index = 0
    for warning in warnings:
        if warning.kind.startswith("code_syntax") or warning.kind == "repaired":
            target = targets.get(warning.path or "")
            writers = [n for n, op in enumerate(operations) if op.target == target] or [len(operations) - 1]
            found[writers[-1]].append(warning)
            continue
        key = (warning.patch_line, warning.file_line, warning.tier)
        while index < len(operations) and key not in {
            (p.patch_line, p.file_line, p.tier) for p in operations[index].placements
        }:
            index += 1
        index = min(index, len(operations) - 1)  # not expected: said on the last one
        found[index].append(warning)
    return found
