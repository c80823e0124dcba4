"""Results and errors → the text and JSON the executable prints."""

from __future__ import annotations

from dataclasses import asdict
from ..._errors import PatchError, RollbackError
from ..matching import split_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Iterable, Mapping, Sequence
    from typing import Any, Final

    from ..matching import PatchWarning
    from ._plan import FileChange, OperationResult
    from ._tree import FileState

SUCCESS_HEADER: Final = "Success. Updated the following files:"
DRY_RUN_HEADER: Final = "Dry run, nothing was written. The patch applies and would update:"
NOTHING_CHANGED: Final = "The patch was not applied; no file was changed."
DRY_RUN_FAILED: Final = "Dry run: the patch does not apply; nothing was written."
_OPERATION_NAMES: Final = {"A": "add", "M": "update", "D": "delete"}
# The version of the `--json` objects (docs/cli.md): raised when a field is removed or
# changes meaning, not when one is added.
SCHEMA: Final = 2
# What one answer to a model may hold by default (about 12,500 tokens): `view`, and every
# text the model-facing surfaces return (`TextEditor`, `openai_agents.Editor`, `serve`).
MAX_CHARACTERS: Final = 50_000


def summary(operations: Iterable[OperationResult], *, header: str = SUCCESS_HEADER) -> str:
    """The reference's success text: `A` lines, then `M`, then `D`, each in patch order."""
    ordered = list(operations)
    lines = [header]
    for letter in "AMD":
        lines.extend(f"{letter} {op.path}" for op in ordered if op.letter == letter)
    return "\n".join(lines) + "\n"


def failure(error: PatchError, *, dry_run: bool = False) -> str:
    """The error as printed on stderr, saying that nothing changed (when that is true).

    A dry run was never going to change anything: it says the patch does not apply.
    """
    if isinstance(error, RollbackError):
        return f"{error}\n"
    return f"{error}\n{DRY_RUN_FAILED if dry_run else NOTHING_CHANGED}\n"


def bounded(text: str, limit: int | None) -> str:
    """`text`, or (longer than `limit` characters) its lines that fit and a note of how many did not.

    Cut at a line end; when not even the first line fits, its beginning is kept.
    """
    if limit is None or len(text) <= limit:
        return text
    cut = text[:limit]
    if "\n" in cut:
        cut = cut[: cut.rindex("\n")]
    left = text.count("\n", len(cut)) + (0 if "\n" in text[: len(cut) + 1] else 1)
    return f"{cut}\n[Truncated at {limit} characters: {left} more line{'' if left == 1 else 's'}.]"


def warnings_text(warnings: Iterable[PatchWarning]) -> str:
    """One `warning:` line per doubt, for stderr."""
    return "".join(f"warning: {w.message}\n" for w in warnings)


def unified_diff(pairs: Iterable[tuple[FileChange, FileChange]]) -> str:
    """A unified diff of each file's net change, with file headers, from the plan's
    (where it was, where it is) pairs (`_plan.file_pairs`); a move is one rename diff."""
    return "".join(
        _file_diff(old.relative, old.before, new.relative, new.after) for old, new in pairs
    )


def _file_diff(
    old_name: str, before: FileState | None, new_name: str, after: FileState | None
) -> str:
    old_label = "/dev/null" if before is None else f"a/{old_name}"
    new_label = "/dev/null" if after is None else f"b/{new_name}"
    if before is not None and before.hidden:
        # Its other names may be outside the root: what it holds is not ours to show.
        return f"Files {old_label} and {new_label} differ ({not_shown(old_name, before.links)})\n"
    old, new = _diff_lines(before), _diff_lines(after)
    if old is None or new is None:
        return f"Binary files {old_label} and {new_label} differ\n"
    if old == new and old_name != new_name:
        return f"--- {old_label}\n+++ {new_label}\n"  # a pure rename
    import difflib  # only when a diff is asked for: start-up time matters

    lines = difflib.unified_diff(old, new, old_label, new_label, n=3)
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        for line in lines
    )


def not_shown(name: str, links: int) -> str:
    """Why the content of `name` is not shown (`_tree.hidden`): the one wording of every surface."""
    return f"{name} has {links} hard links and another owner: its content is not shown"


def without_content(error: PatchError, unshown: Mapping[str, int]) -> None:
    """Make `error` quote no line of a file whose content may not be shown (`_tree.hidden`).

    The details and hints of an error about such a file quote its lines (the
    closest region, what differs): they give way to one line saying why.
    The message itself quotes only the patch (what was looked for).
    """
    links = unshown.get(error.path) if error.path is not None else None
    if links is None:
        return
    error.details = (not_shown(error.path or "", links) + ".",)
    error.hints = ()
    if getattr(error, "closest", None) is not None:
        error.closest = None  # type: ignore[attr-defined]


def _diff_lines(state: FileState | None) -> list[str] | None:
    """The file's lines with their endings; None when it is not text."""
    if state is None:
        return []
    if state.is_link or b"\0" in state.data:
        return None
    try:
        text = split_text(state.data.decode("utf-8", "surrogateescape"))
    except UnicodeDecodeError:
        return None
    return list(map(str.__add__, text.lines, text.endings))


def result_json(
    operations: Sequence[OperationResult],
    warnings: Sequence[PatchWarning],
    *,
    dry_run: bool,
    diff: str | None,
    receipt: str | None = None,
) -> dict[str, Any]:
    """The `--json` document of a patch that applied (or would, in a dry run); with
    `receipt` (the executable's, `undo`'s), the field `receipt`: its id, for `apply_patch undo ID`."""
    document = {
        "schema": SCHEMA,
        "ok": True,
        "dry_run": dry_run,
        "operations": [_operation_json(op) for op in operations],
        "warnings": [asdict(w) for w in warnings],
        "diff": diff,
        "error": None,
    }
    return document if receipt is None else {**document, "receipt": receipt}


def error_json(error: PatchError, *, dry_run: bool) -> dict[str, Any]:
    """The `--json` document of a patch that was not applied."""
    return {
        "schema": SCHEMA,
        "ok": False,
        "dry_run": dry_run,
        "operations": [],
        "warnings": [],
        "diff": None,
        "error": error.to_dict(),
    }


def _operation_json(op: OperationResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "op": _OPERATION_NAMES[op.letter],
        "path": op.source if op.source is not None else op.path,
        "move_to": op.path if op.source is not None else None,
        "added": op.added,
        "removed": op.removed,
    }
    if op.letter == "M":
        data["chunks"] = [asdict(p) for p in op.placements]
    return data
