"""The planner's one entry, for every format: a `Patch` in, a `Plan` out (`make_plan`).

Every format reaches here as the one model (`format/_model.py`): a Codex
patch as parsed, the other formats' calls lowered by `format.as_patch` (a
list of calls is lowered here). `run_operations` takes the planner of `_plan`
(its overlay, its path and file checks, its policy) and runs each operation in
order over the overlay: Add File and Delete File, and an update whose edits
apply one after the other, each to the result of the previous; nothing is
written here. How the formats differ is data: a `per_file` patch (the other
formats) gets one result per file (`A` if the patch created it, else `M`), as
their summaries list each file once; a Codex patch keeps one result per
operation, as the reference's summary does.

An edit whose format lets the planner undo a reply's slips (`Terms.slips`:
SEARCH/REPLACE) is read against the files as the edits before it leave them, in a
dry run as in a real one: a path naming no file, the one file it is a mangled name of
(`_written_names`); an old text not found whose first line is blank, found without
that line. Each with a warning.

An update's edits run by kind, each run of one kind at once: context chunks
by `_locate` (`Planner.update`, located together, as the reference does),
replacements and insertions by `_edits` on the file's text decoded once and
encoded once (1,000 SEARCH/REPLACE blocks of one file cost one decoding, their
searches and one encoding), a notebook's cell edits by `_notebook`.
"""

from __future__ import annotations

from ..._errors import ContextNotFoundError, EmptyPatchError, PatchError
from ...format import AddFile, Chunk, DeleteFile, Patch, UpdateFile
from ._plan import OperationResult, Plan, Planner, finished_plan
from ._tree import FileState

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from ...format import NotebookEdit, Change, EditOperation, HashlineEdits, Insert, Operation, StrReplace
    from ..matching import Decoded, PatchWarning, Placement
    from ._tree import Tree


def make_plan(operations: Patch | Sequence[Operation | EditOperation], tree: Tree) -> Plan:
    """Read and compute everything the patch needs in `tree`, in order, under the tree's
    policy; raise PatchError if anything fails. A list of operations (the other formats'
    calls, Codex operations) is lowered to a `per_file` patch first (`format.as_patch`).

    A failure of a Codex patch names the index of its operation (`PatchError.operation`,
    where line numbers cannot say); one of a `per_file` patch names its edit by its line
    and label.
    """
    if not isinstance(operations, Patch):
        from ...format import as_patch  # not on a Codex patch's way (start-up time)

        operations = as_patch(operations)
    if not operations.operations:
        raise EmptyPatchError()
    planner = Planner(tree, per_file=operations.per_file)
    results = run_operations(planner, operations.operations, indexed=not operations.per_file)
    return finished_plan(planner, _merged(results) if operations.per_file else results, tree)


def run_operations(planner: Planner, operations: Sequence[Operation], *, indexed: bool = False) -> list[OperationResult]:
    """Run every operation in order; one result each (`indexed`: a failure names the index
    of its operation)."""
    results: list[OperationResult] = []
    for index, operation in enumerate(operations):
        try:
            if isinstance(operation, AddFile):
                results.append(planner.add(operation))
            elif isinstance(operation, DeleteFile):
                results.append(planner.delete(operation))
            else:
                results.append(_update(planner, operation))
        except PatchError as error:
            if indexed:
                error.operation = index
            raise
    return results


def _update(planner: Planner, op: UpdateFile) -> OperationResult:
    """The update `op` run edit by edit, one result for all of them."""
    if all(isinstance(change, Chunk) for change in op.chunks):
        return planner.update(op)  # the Codex path: its chunks located together
    results = []
    for kind, run in _runs(op.chunks):
        if kind == "chunk":
            results.append(planner.update(UpdateFile(op.path, None, run, op.line)))
        elif kind == "cell":
            results.append(_notebook(planner, op.path, run[0]))  # type: ignore[arg-type]  # _runs
        else:
            results.append(_edit_file(planner, op.path, run))  # type: ignore[arg-type]  # _runs
    if op.move_to is not None:
        results.append(planner.update(UpdateFile(op.path, op.move_to, (), op.line)))
    total = results[0]
    for result in results[1:]:
        total = _sum(result, total, keep=result if result.source_target else total)
    return total


def _runs(changes: tuple[Change, ...]) -> list[tuple[str, tuple[Change, ...]]]:
    """`changes` cut into runs of one kind, each with its kind: "chunk" (context chunks),
    "text" (replacements and insertions together), "cell" (a cell edit, always alone)."""
    from ...format import NotebookEdit  # not on a Codex patch's way (start-up time)

    runs: list[tuple[str, list[Change]]] = []
    for change in changes:
        kind = "chunk" if isinstance(change, Chunk) else "cell" if isinstance(change, NotebookEdit) else "text"
        if runs and kind != "cell" and runs[-1][0] == kind:
            runs[-1][1].append(change)
        else:
            runs.append((kind, [change]))
    return [(kind, tuple(run)) for kind, run in runs]


def _notebook(planner: Planner, path: str, cell: NotebookEdit) -> OperationResult:
    """A cell of the notebook `path` replaced, inserted or deleted (`_notebook`)."""
    from ..matching import Placement
    from ..matching import edit_notebook

    where = planner._resolve(path, cell.line)
    state = planner._readable(where, cell.line)
    planner._refuse_read_only(state, where, cell.line)
    data, index, added = edit_notebook(state.data, cell, where)
    planner.overlay.put(where.target, FileState(data, state.mode, owner=state.owner))
    removed = 0 if cell.mode == "insert" else 1
    placement = Placement(cell.line, index, "exact", added, removed)
    return OperationResult("M", path, where.target, added=added, removed=removed, placements=(placement,))


def _edit_file(
    planner: Planner, path: str, edits: tuple[StrReplace | Insert | HashlineEdits, ...]
) -> OperationResult:
    """Replacements and insertions of the file `path`, in order: one result for all. The
    file is decoded before the first and encoded after the last (the plan fails as a
    whole if one fails, so the text between them is never seen by anything else). A file
    read as UTF-8 is edited as one string while its lines end with LF, or all with CRLF
    (`LfText`); one in another encoding, or not UTF-8, as its lines
    (`Planner.read_decoded`). Its line breaks, final newline and BOM are read once
    (`matching.decode`) and the policy applied to them once (`matching.encode`)."""
    from ...format import StrReplace
    from ..matching import DEFERRED_FROM, Deferred, LfText, decode, encode, place  # not on a Codex patch's way (start-up time)

    first = edits[0]
    path = _named(planner, path, first)
    where = planner._resolve(path, first.line)
    state = planner._readable(where, first.line)
    planner._refuse_read_only(state, where, first.line)
    policy = planner.policy
    decoded, encoding = planner.read_decoded(state.data, where, first.line)
    whole = isinstance(decoded, (bytes, str))  # UTF-8: one string while its lines end with LF
    text = decode(decoded, state.data)
    del decoded  # only `text` holds the old text: it is freed as soon as an edit replaces it (peak memory)
    placements: list[Placement] = []
    deferred = None  # exact replacements made to one string, copied at once (`_deferred`)
    for edit in edits:
        if deferred is None and isinstance(text.body, LfText) and len(edits) >= DEFERRED_FROM:
            deferred = Deferred(text.body, policy)
        if deferred is not None:
            placement = deferred.add(edit) if isinstance(edit, StrReplace) else None
            if placement is not None:
                placements.append(placement)
                continue
            text, deferred = text.with_body(deferred.text()), None  # this edit, the usual way
        try:
            try:
                edited = place(text, edit, policy, where)
            except ContextNotFoundError:
                retried = _without_blank_first_line(edit)
                if retried is None:
                    raise
                edited = place(text, retried, policy, where)
                removes_blank = isinstance(edit, StrReplace) and not _blank_first(edit.new)
                if removes_blank and _blank_above(text, edited.placements):
                    raise  # the blank line it removes is in the file there: its own refusal stands
                planner.warnings.append(_blank_line_dropped(edit, where.relative))
        except PatchError as error:
            sought = edit.old if isinstance(edit, StrReplace) else ""
            if path != edit.path:  # a mangled name taken (`_named`): what the edit wrote
                error.written_path = edit.path
            raise planner.explained(error, where, encoding, sought, edit.line) from None
        text = edited.text.joined() if whole else edited.text  # lines read line by line stay lines
        planner.warnings += edited.warnings
        placements += edited.placements
    if deferred is not None:
        text = text.with_body(deferred.text())
    data = planner.write_text(encode(text, policy), encoding, where, edits[-1].line)
    planner.refuse_broken_notebook(state.data, data, where, edits[-1].line)
    planner.overlay.put(where.target, FileState(data, state.mode, owner=state.owner))
    added, removed = sum(p.added for p in placements), sum(p.removed for p in placements)
    return OperationResult("M", path, where.target, added=added, removed=removed, placements=tuple(placements))


def _named(planner: Planner, path: str, edit: StrReplace | Insert | HashlineEdits) -> str:
    """`path`, or, when it names no file in the plan so far and `edit`'s format lets the
    planner undo a reply's slips (`Terms.slips`), the one file it is a mangled name of
    (`_written_names`), with a warning."""
    from ...format import StrReplace

    if not isinstance(edit, StrReplace) or not edit.terms.slips:
        return path
    where = planner._resolve(path, edit.line)
    if planner.overlay.look(where.target, where, "Failed to read file to update") is not None:
        return path
    from ..matching import PatchWarning

    found = planner.mangled_name(path)
    if found is None:
        return path
    message = (
        f"{edit.label} names '{path}', taken as {found}: it is the one file with that name "
        "once separators, dots, underscores and dashes are set aside."
    )
    planner.warnings.append(PatchWarning("input", found, edit.line, None, None, (), message))
    return found


def _without_blank_first_line(edit: StrReplace | Insert | HashlineEdits) -> StrReplace | None:
    """`edit` without the blank first line of its old text (and of its new text: the same
    slip), when its format lets the planner undo a reply's slips and its old text starts
    with a blank line followed by another (models add one; Aider drops it too); else None."""
    from dataclasses import replace

    from ...format import StrReplace

    if not isinstance(edit, StrReplace) or not edit.terms.slips or not _blank_first(edit.old):
        return None
    new = edit.new.partition("\n")[2] if _blank_first(edit.new) else edit.new
    return replace(edit, old=edit.old.partition("\n")[2], new=new)


def _blank_above(text: Decoded, placements: Sequence[Placement]) -> bool:
    """Whether the line of `text` right above the first of `placements` is blank (spaces or
    tabs at most): a blank first line of the old text that was left out stands for it (a
    line the edit removes, where its new text does not start with one too)."""
    above = placements[0].file_line - 2 if placements else -1  # the line above, 0-based
    return above >= 0 and not text.lines().lines[above].strip()  # (a retry's way only: split once)


def _blank_first(text: str) -> bool:
    """A first line that is blank, followed by at least one other line."""
    first, newline, rest = text.partition("\n")
    return bool(newline) and not first.strip() and bool(rest.strip())


def _blank_line_dropped(edit: StrReplace | Insert | HashlineEdits, shown: str) -> PatchWarning:
    from ..matching import PatchWarning

    message = f"{shown}: {edit.label} starts with a blank line that is not in the file there; it was matched without it."
    return PatchWarning("input", shown, edit.line, None, None, (), message)


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
    from dataclasses import replace

    return replace(
        keep or one,
        added=one.added + other.added,
        removed=one.removed + other.removed,
        placements=other.placements + one.placements,
    )
