"""The operations of the other edit formats, run by the plan as the Codex ones are.

`run_operations` takes the planner of `_plan` (its overlay, its path and
file checks, its policy) and runs each operation in order over the overlay:
several edits of one file apply one after the other, each to the result of
the previous, and nothing is written here. The results of one file are
merged into one (`A` if the edits created it, else `M`), as the summary
lists each file once.
"""

from __future__ import annotations

from .._errors import EmptyPatchError, FilePolicyError, PatchError
from ..format import AddFile, CreateFile, DeleteFile, Insert, NotebookEdit, StrReplace, UpdateFile
from . import _edits as edits
from ._plan import OperationResult, Plan, Planner, finished_plan
from ._locate import Placement
from ._tree import FileState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..format import EditOperation, Operation
    from ._paths import Location
    from ._tree import Tree


def make_edit_plan(operations: Sequence[Operation | EditOperation], tree: Tree) -> Plan:
    """`make_plan` for the operations of the other edit formats (and Codex ones), in order.

    The same planner, overlay, checks and policies (`run_operations`).
    """
    if not operations:
        raise EmptyPatchError()
    planner = Planner(tree)
    results = run_operations(planner, operations)
    return finished_plan(planner, results, tree)


def run_operations(
    planner: Planner, operations: Sequence[Operation | EditOperation]
) -> list[OperationResult]:
    """Run every operation in order; one result per file touched, in first-touched order."""
    results: list[OperationResult] = []
    for operation in operations:
        if isinstance(operation, AddFile):
            results.append(planner.add(operation))
        elif isinstance(operation, DeleteFile):
            results.append(planner.delete(operation))
        elif isinstance(operation, UpdateFile):
            results.append(planner.update(operation))
        else:
            results.append(_edit(planner, operation))
    return _merged(results)


def _edit(planner: Planner, op: EditOperation) -> OperationResult:
    where = planner._resolve(op.path, op.line)
    if isinstance(op, CreateFile):
        return _create(planner, where, op.path, op.text, op.line, op.label, overwrite=op.overwrite)
    if isinstance(op, StrReplace) and not op.old:
        return _create(planner, where, op.path, op.new, op.line, op.label, overwrite=False, empty_ok=True)
    state = planner._readable(where, op.line)
    planner._refuse_read_only(state, where, op.line)
    if isinstance(op, NotebookEdit):
        return _notebook_edit(planner, where, state, op)
    policy = planner.policy
    text, encoding = planner.read_text(state.data, where, op.line)
    try:
        if isinstance(op, StrReplace):
            edited = edits.replace(text, op, policy, where)
        else:
            edited = edits.insert(text, op, policy, where)
    except PatchError as error:
        raise planner.explained(error, where, encoding) from None
    planner.warnings += edited.warnings
    data = planner.write_text(edited.text, encoding, where, op.line)
    planner.refuse_broken_notebook(state.data, data, where, op.line)
    planner.overlay.put(where.target, FileState(data, state.mode, owner=state.owner))
    return OperationResult(
        "M",
        op.path,
        where.target,
        added=sum(p.added for p in edited.placements),
        removed=sum(p.removed for p in edited.placements),
        placements=edited.placements,
    )


def _notebook_edit(planner: Planner, where: Location, state: FileState, op: NotebookEdit) -> OperationResult:
    """A cell of the notebook at `where` replaced, inserted or deleted (`_notebook`)."""
    from ._notebook import edit_notebook

    data, cell, added = edit_notebook(state.data, op, where)
    planner.overlay.put(where.target, FileState(data, state.mode, owner=state.owner))
    removed = 0 if op.mode == "insert" else 1
    placement = Placement(op.line, cell, "exact", added, removed)
    return OperationResult("M", op.path, where.target, added=added, removed=removed, placements=(placement,))


def _create(
    planner: Planner,
    where: Location,
    path: str,
    content: str,
    line: int,
    label: str,
    *,
    overwrite: bool,
    empty_ok: bool = False,
) -> OperationResult:
    """Write `content` as the whole file; an existing file is refused as Add File refuses it."""
    existing = planner._writable(where, line)
    policy = planner.policy
    refused = existing is not None and not overwrite and policy.add_existing == "error"
    if refused and not (empty_ok and existing is not None and not existing.data):
        what = f"{label} is empty, which" if empty_ok else label
        why = f"{what} creates a file, and only a new one" if label else "only a new file may be created"
        raise FilePolicyError(
            f"Failed to add file {where.shown}: it already exists ({why})",
            path=where.relative,
            patch_line=line,
        )
    if existing is None:
        data = planner.new_file_bytes(where, content, line)
    else:  # a file replaced whole keeps no conventions but the policy's, and its encoding
        if policy.line_endings != "keep":
            ending = "\r\n" if policy.line_endings == "crlf" else "\n"
            content = edits.as_lf(content).replace("\n", ending)
        data = planner.replaced_file_bytes(where, content, existing.data, line)
    mode, owner = (existing.mode, existing.owner) if existing is not None else (None, None)
    planner.overlay.put(where.target, FileState(data, mode, owner=owner))
    letter = "A" if existing is None else "M"
    added = len(edits.text_lines(content))
    removed = 0 if existing is None else existing.data.count(b"\n")
    return OperationResult(letter, path, where.target, added=added, removed=removed)


def _merged(results: list[OperationResult]) -> list[OperationResult]:
    """One result per file: counts and placements of its edits summed into the first.

    A file's edits before its deletion (a unified diff's check of what it
    removes) are part of the deletion; edits of a file before its move, part
    of the move.
    """
    merged: dict[str, OperationResult] = {}
    for result in results:
        if result.letter == "D":
            merged.pop(result.target, None)
            merged[f"\0{len(merged)}"] = result  # every deletion listed
            continue
        earlier = [merged.pop(result.source_target, None)] if result.source_target else []
        earlier.append(merged.get(result.target))
        for first in filter(None, earlier):
            result = _sum(result, first, keep=None if result.source_target else first)
        merged[result.target] = result
    return list(merged.values())


def _sum(one: OperationResult, other: OperationResult, keep: OperationResult | None = None) -> OperationResult:
    """`keep` (default `one`) with the counts and placements of both, `other`'s first."""
    from .._dataclass import replace

    return replace(
        keep or one,
        added=one.added + other.added,
        removed=one.removed + other.removed,
        placements=other.placements + one.placements,
    )
