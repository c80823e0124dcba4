"""A unified diff → operations the plan runs: hunks applied by content, files added or deleted.

The diff is read by `format/_unidiff` (git diff, diff -u, diff -ruN). Each file
diff becomes:

- a new file (`--- /dev/null`): `CreateFile` with the hunks' new lines;
- a deleted file: its hunks (so that its content is checked), then `DeleteFile`;
- a changed file: `ApplyHunks`, located by content (`_edits.apply_hunks`);
- a git rename: its hunks on the old path, then a pure rename (`UpdateFile` + `Move to`);
  other diffs naming two paths (`diff -u a.orig a`) change the old one;
- a mode change alone: nothing. A binary diff or a copy is refused.
"""

from __future__ import annotations

import re

from ..format import (
    ApplyHunks,
    CreateFile,
    DiffHunk,
    DeleteFile,
    UpdateFile,
    FileDiff,
    Hunk,
    parse_unified_diff,
)
from .._errors import UnifiedDiffError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..format import EditOperation, Operation


def unified_operations(text: str, strip: int | None = None) -> list[Operation | EditOperation]:
    """The operations of the unified diff `text`; UnifiedDiffError if it is malformed.

    `strip` leading path components are dropped; None: as `auto_strip` says.
    """
    chosen = auto_strip(text) if strip is None else strip
    files = parse_unified_diff(text, chosen, loose=True)
    if not files:
        raise UnifiedDiffError("the text holds no file diff ('--- old' and '+++ new' lines, then '@@' hunks)")
    operations: list[Operation | EditOperation] = []
    for diff in files:
        operations += _file_operations(diff)
    return operations


def auto_strip(text: str) -> int:
    """1 when the diff's paths carry a prefix to drop, else 0.

    git writes `a/` and `b/`, `diff -ruN old new` the two folders: the two
    paths of a file differ in their first component. A model writing the same
    path twice (`--- src/app.py`, `+++ src/app.py`, as Aider's do) means it as it is.
    """
    if re.search(r"^diff --git ", text, re.MULTILINE):
        return 1
    pairs = re.findall(r"^--- ([^\t\n]+).*\n\+\+\+ ([^\t\n]+)", text, re.MULTILINE)
    for old, new in pairs:
        old, new = old.strip(), new.strip()
        if "/dev/null" in (old, new):
            if (old if new == "/dev/null" else new).startswith(("a/", "b/")):
                return 1
            continue
        if old.split("/")[0] != new.split("/")[0] or old.startswith(("a/", "b/")):
            return 1
    return 0


def _file_operations(diff: FileDiff) -> list[Operation | EditOperation]:
    if diff.binary:
        raise UnifiedDiffError(
            f"the diff of {diff.shown} is binary: it holds no lines to apply", line=diff.line
        )
    if diff.copied:
        raise UnifiedDiffError(
            f"the diff copies a file to {diff.shown}: copies are not applied (write it as a new file)",
            line=diff.line,
        )
    old, new = diff.old_path, diff.new_path
    if old is None:
        if new is None:
            return []
        content = "".join(line.text + line.ending for h in diff.hunks for line in h.lines if line.is_new)
        label = f"the new file of the diff at line {diff.line}"
        return [CreateFile(new, content, line=diff.line, label=label)]
    operations: list[Operation | EditOperation] = []
    if diff.hunks:
        label = f"the diff of {old} at line {diff.line}"
        hunks = tuple(_hunk(h) for h in diff.hunks)
        operations.append(ApplyHunks(old, hunks, line=diff.line, label=label))
    if new is None:
        operations.append(DeleteFile(old, line=diff.line))
    elif diff.renamed and new != old:  # only git says a file moved: diff -u names differ anyway
        operations.append(UpdateFile(old, new, (), line=diff.line))
    return operations


def _hunk(hunk: Hunk) -> DiffHunk:
    lines = hunk.lines
    old = tuple(line.text for line in lines if line.is_old)
    new_side = [line for line in lines if line.prefix != "-"]
    ends_file = any(not line.ending for line in lines if line.is_old)
    # Explicit endings only where the diff says how the file ends: without a final
    # newline, or with one where the old file had none.
    endings: list[str | None] = ["" if not line.ending else None for line in new_side]
    if ends_file and new_side and new_side[-1].ending:
        endings[-1] = new_side[-1].ending
    return DiffHunk(
        old,
        tuple(line.text for line in new_side),
        hunk.old_start,
        tuple(endings) if any(e is not None for e in endings) else (),
        ends_file,
        added=sum(1 for line in lines if line.prefix == "+"),
        removed=sum(1 for line in lines if line.prefix == "-"),
        line=hunk.line,
    )
