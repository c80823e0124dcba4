"""The planner's one entry, for every format: operations in, a `Plan` out (`make_plan`).

`run_operations` takes the planner of `_plan` (its overlay, its path and
file checks, its policy) and runs each operation in order over the overlay,
whatever format it came from (a Codex patch's Add/Delete/Update, the other
formats' replacements, created files, insertions and notebook edits):
several edits of one file apply one after the other, each to the result of
the previous, and nothing is written here. For the other formats the
results of one file are merged into one (`A` if the edits created it, else
`M`), as their summary lists each file once; a Codex patch keeps one result
per operation, as the reference's summary does.

Consecutive replacements and insertions of one path are run on the file's
text decoded once and encoded once (not once per edit): 1,000 SEARCH/REPLACE
blocks of one file cost one decoding, their searches and one encoding.
"""

from __future__ import annotations

from .._errors import EmptyPatchError, FilePolicyError, PatchError
from ..format import AddFile, DeleteFile, Patch, UpdateFile
from ._plan import OperationResult, Plan, Planner, encode_text, finished_plan
from ._textfile import TextFile
from ._tree import FileState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..format import CreateFile, EditOperation, Insert, NotebookEdit, Operation, StrReplace
    from ._paths import Location
    from ._tree import Tree


def make_plan(operations: Patch | Sequence[Operation | EditOperation], tree: Tree) -> Plan:
    """Read and compute everything the operations need in `tree`, in order, under the tree's
    policy; raise PatchError if anything fails.

    A Codex `Patch` gets one result per operation, and a failure names the index of its
    operation (`PatchError.operation`, where line numbers cannot say); the other formats'
    operations get one result per file, and their failures name the edit by its line and
    label (see the module).
    """
    per_file = not isinstance(operations, Patch)
    listed = list(operations.operations if isinstance(operations, Patch) else operations)
    if not listed:
        raise EmptyPatchError()
    planner = Planner(tree)
    results = run_operations(planner, listed, indexed=not per_file)
    return finished_plan(planner, _merged(results) if per_file else results, tree)


def run_operations(
    planner: Planner, operations: Sequence[Operation | EditOperation], *, indexed: bool = False
) -> list[OperationResult]:
    """Run every operation in order; one result each (`indexed`: a failure names the index
    of its operation)."""
    results: list[OperationResult] = []
    at = 0
    while at < len(operations):
        first = at
        operation = operations[at]
        at += 1
        try:
            at = _run(planner, operations, operation, at, results)
        except PatchError as error:
            if indexed:
                error.operation = first
            raise
    return results


def _run(
    planner: Planner,
    operations: Sequence[Operation | EditOperation],
    operation: Operation | EditOperation,
    at: int,
    results: list[OperationResult],
) -> int:
    """Run `operation` (and, for an edit in place, the edits of the same file right after it),
    its results appended to `results`; the index of the next operation to run (`at` is
    the one after `operation`)."""
    if isinstance(operation, AddFile):
        results.append(planner.add(operation))
    elif isinstance(operation, DeleteFile):
        results.append(planner.delete(operation))
    elif isinstance(operation, UpdateFile):
        results.append(planner.update(operation))
    else:
        return _run_edit(planner, operations, operation, at, results)
    return at


def _run_edit(
    planner: Planner,
    operations: Sequence[Operation | EditOperation],
    operation: EditOperation,
    at: int,
    results: list[OperationResult],
) -> int:
    """`_run` for an operation of the other formats."""
    from ..format import CreateFile, NotebookEdit, StrReplace  # not on a Codex patch's way

    if isinstance(operation, CreateFile) or (isinstance(operation, StrReplace) and not operation.old):
        results.append(_create_edit(planner, operation))
    elif isinstance(operation, NotebookEdit):
        results.append(_notebook(planner, operation))
    else:
        group = [operation]
        while at < len(operations) and _in_place(operations[at], operation.path):
            group.append(operations[at])  # type: ignore[arg-type]  # _in_place checked it
            at += 1
        results += _edit_file(planner, group)
    return at


def _in_place(operation: Operation | EditOperation, path: str) -> bool:
    """Whether `operation` edits the file `path` in place (a replacement or an insertion)."""
    from ..format import Insert, StrReplace

    if isinstance(operation, StrReplace):
        return bool(operation.old) and operation.path == path
    return isinstance(operation, Insert) and operation.path == path


def _create_edit(planner: Planner, op: CreateFile | StrReplace) -> OperationResult:
    from ..format import CreateFile

    where = planner._resolve(op.path, op.line)
    if isinstance(op, CreateFile):
        return _create(planner, where, op.path, op.text, op.line, op.label, overwrite=op.overwrite)
    return _create(planner, where, op.path, op.new, op.line, op.label, overwrite=False, empty_ok=True)


def _notebook(planner: Planner, op: NotebookEdit) -> OperationResult:
    where = planner._resolve(op.path, op.line)
    state = planner._readable(where, op.line)
    planner._refuse_read_only(state, where, op.line)
    return _notebook_edit(planner, where, state, op)


def _edit_file(planner: Planner, ops: list[StrReplace | Insert]) -> list[OperationResult]:
    """Replacements and insertions of one path, in order: one result each. The file is
    decoded before the first and encoded after the last (the plan fails as a whole if
    one fails, so the text between them is never seen by anything else). A file read as
    UTF-8 is edited as one string while its lines end with LF (`_edits.LfText`); one in
    another encoding, or not UTF-8, as its lines (`Planner.read_decoded`)."""
    from . import _edits as edits  # not on a Codex patch's way (start-up time)
    from ..format import StrReplace

    first = ops[0]
    where = planner._resolve(first.path, first.line)
    state = planner._readable(where, first.line)
    planner._refuse_read_only(state, where, first.line)
    policy = planner.policy
    decoded, encoding = planner.read_decoded(state.data, where, first.line)
    whole = isinstance(decoded, str)  # UTF-8: one string while its lines end with LF
    text = edits.file_text(decoded) if isinstance(decoded, str) else decoded
    results = []
    for op in ops:
        try:
            if isinstance(op, StrReplace):
                edited = edits.replace(text, op, policy, where)
            else:
                edited = edits.insert(text, op, policy, where)
        except PatchError as error:
            raise planner.explained(error, where, encoding) from None
        if not whole:  # its lines, as `write_text` takes them
            text = edited.text if isinstance(edited.text, TextFile) else edited.text.split()
        else:
            text = edits.as_lf_text(edited.text) if isinstance(edited.text, TextFile) else edited.text
        planner.warnings += edited.warnings
        results.append(OperationResult(
            "M",
            op.path,
            where.target,
            added=sum(p.added for p in edited.placements),
            removed=sum(p.removed for p in edited.placements),
            placements=edited.placements,
        ))  # fmt: skip
    if not whole:
        assert isinstance(text, TextFile)
        data = planner.write_text(text, encoding, where, ops[-1].line)
    else:
        data = encode_text(edits.final_text(text, policy), policy)
    planner.refuse_broken_notebook(state.data, data, where, ops[-1].line)
    planner.overlay.put(where.target, FileState(data, state.mode, owner=state.owner))
    return results


def _notebook_edit(planner: Planner, where: Location, state: FileState, op: NotebookEdit) -> OperationResult:
    """A cell of the notebook at `where` replaced, inserted or deleted (`_notebook`)."""
    from ._locate import Placement
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
    from . import _edits as edits  # not on a Codex patch's way (start-up time)

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
