"""Edits in the other formats models write, applied by the same engine, all or nothing.

    >>> from apply_patch.edits import StrReplace, parse_search_replace
    >>> parse_search_replace("app.py\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n")
    [StrReplace(path='app.py', old='x = 1\\n', new='x = 2\\n', replace_all=False, expected=None)]

- `StrReplace(path, old, new, replace_all=False, expected=None)`: `old` must
  match exactly one place, or every place (`replace_all`), or exactly
  `expected` places; an empty `old` creates the file. Claude Code's `Edit`,
  OpenCode's and Gemini CLI's edit tools, the text-editor tool's `str_replace`.
- `CreateFile(path, text, overwrite=False)`: a new file, refused when the
  file exists (policy `add_existing`) unless `overwrite` (Claude Code's `Write`).
- `Insert(path, after_line, text)`: whole lines after line `after_line` (0: the top).

`apply_edits(edits, root)` plans them all in order (several edits of one file
apply one after the other), then writes everything or nothing, and returns
the `ApplyResult` `apply_patch()` returns; errors are the same `PatchError`s.
`parse_search_replace(text)` reads Aider-style SEARCH/REPLACE blocks out of a
whole model reply; `apply_unified_diff(text, root)` applies a `git diff` or
`diff -u` by content. How each format is located and checked:
docs/edit-formats.md.
"""

from __future__ import annotations

import os

from ._dataclass import replace
from ._errors import EditError, InputError, ReplacementCountError, SearchReplaceError, check_text
from .apply import ApplyResult
from ._policy import DEFAULT, Policy
from .format import CreateFile, Edit, Insert, StrReplace, parse_search_replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "CreateFile",
    "Edit",
    "EditError",
    "InputError",
    "Insert",
    "ReplacementCountError",
    "SearchReplaceError",
    "StrReplace",
    "apply_edits",
    "apply_search_replace",
    "apply_unified_diff",
    "parse_search_replace",
]


def apply_edits(
    edits: Iterable[Edit],
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply `edits` in order to the files under `root`, all or nothing.

    Relative paths are taken from `workdir` (under `root`); every path stays
    confined to `root`. `policy` and keyword `options` as for `apply_patch`.
    Raises a PatchError subclass on any failure (ContextNotFoundError,
    ReplacementCountError, FilePolicyError, EditError...), and then no file
    changed. Messages name an edit by its number in `edits` (from 1).
    """
    from .apply import apply_operations

    return apply_operations(
        checked(edits), root, workdir=workdir, dry_run=dry_run, policy=policy, **options
    )


def checked(edits: Iterable[Edit]) -> list[Edit]:
    """`edits` numbered for messages (those that have no label yet), each checked."""
    numbered: list[Edit] = []
    for number, edit in enumerate(edits, 1):
        if not isinstance(edit, (StrReplace, CreateFile, Insert)):
            raise EditError(f"Edit {number} is a {type(edit).__name__}, not a StrReplace, CreateFile or Insert")
        if not isinstance(edit.path, str) or not edit.path:
            raise EditError(f"Edit {number} has no path", patch_line=number)
        if isinstance(edit, StrReplace) and edit.expected is not None and edit.expected < 1:
            raise EditError(
                f"Edit {number} expects {edit.expected} replacements: at least 1", patch_line=number
            )
        for subject, text in _texts(edit):
            if not isinstance(text, str):
                raise EditError(f"{subject} of edit {number} is not text", patch_line=number)
            check_text(text, f"{subject} of edit {number}", line=number)
        if not edit.label:
            what = {StrReplace: "the old text", CreateFile: "the new file", Insert: "the insertion"}
            edit = replace(edit, label=f"{what[type(edit)]} of edit {number}", line=edit.line or number)
        numbered.append(edit)
    return numbered


def _texts(edit: Edit) -> list[tuple[str, object]]:
    """The texts an edit writes or looks for, each with how a message names it."""
    if isinstance(edit, StrReplace):
        return [("The old text", edit.old), ("The new text", edit.new)]
    return [("The text", edit.text)]


def apply_search_replace(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply every SEARCH/REPLACE block of the model reply `text`, all or nothing.

    InputError when `text` is not valid Unicode (a lone surrogate).
    """
    check_text(text, "The reply")
    return apply_edits(
        parse_search_replace(text), root, workdir=workdir, dry_run=dry_run, policy=policy, **options
    )


def apply_unified_diff(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    strip: int | None = None,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply the unified diff `text` (git diff, diff -u) by content, all or nothing.

    Each hunk is searched by its lines (exact, then the fuzzy tiers), after
    the previous hunk of its file; its header's line number only chooses
    between places that match equally well, and a hunk whose counts are wrong
    or whose header has no numbers (`@@ ... @@`) ends where its lines stop.
    `strip` leading path components are dropped (None: 1 for git's `a/`, `b/`
    and `diff -ruN old new`, 0 when both sides name the same path). Raises
    UnifiedDiffError for a malformed diff, InputError for text that is not valid
    Unicode or a path that cannot be one, the PatchErrors of `apply_patch` otherwise.
    """
    from .apply import apply_operations, unified_operations

    check_text(text, "The diff")

    return apply_operations(
        unified_operations(text, strip), root, workdir=workdir, dry_run=dry_run, policy=policy, **options
    )
