"""Edits in the other formats models write, applied by the same engine, all or nothing.

    >>> from apply_patch.edits import StrReplace, parse_search_replace
    >>> parse_search_replace("app.py\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n")
    [StrReplace(path='app.py', old='x = 1\\n', new='x = 2\\n', replace_all=False, expected=None, occurrence=None, near_line=None)]

- `StrReplace(path, old, new, replace_all=False, expected=None, occurrence=None,
  near_line=None)`: `old` must match exactly one place, or every place
  (`replace_all`), or exactly `expected` places; or, among several, the one
  chosen: the `occurrence`-th (from 1) or the one starting nearest line
  `near_line` (a tie is refused). An empty `old` creates the file. Claude Code's `Edit`,
  OpenCode's and Gemini CLI's edit tools, the text-editor tool's `str_replace`.
- `CreateFile(path, text, overwrite=False)`: a new file, refused when the
  file exists (policy `add_existing`) unless `overwrite` (Claude Code's `Write`).
- `Insert(path, after_line, text)`: whole lines after line `after_line` (0: the top).

`apply_edits(edits, root)` plans them all in order (several edits of one file
apply one after the other), then writes everything or nothing, and returns
the `ApplyResult` `apply_patch()` returns; errors are the same `PatchError`s.
`parse_search_replace(text)` reads Aider-style SEARCH/REPLACE blocks out of a
whole model reply; `apply_unified_diff(text, root)` applies a `git diff` or
`diff -u` by content; `view_hashline(path, root)` gives a file's lines as Hashline
anchors and `apply_hashline(edit, root)` applies an edit naming them
(docs/hashline.md). How each format is located and checked:
docs/edit-formats.md.
"""

from __future__ import annotations

import os

from dataclasses import replace
from ._gc import PausedCollector
from ._errors import (
    EditError,
    HashlineError,
    InputError,
    PatchError,
    ReplacementCountError,
    SearchReplaceError,
    StaleAnchorError,
    check_text,
)
from .apply import ApplyResult, Replay
from ._lazy import load as _load
from ._policy import DEFAULT, Policy, policy_of
from .format import PLAIN, CreateFile, Edit, Insert, NotebookEdit, StrReplace, Terms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Final

    from .apply import RepairRequest
    from .format import EditOperation, Operation, ReplyPart, parse_search_replace

    from collections.abc import Callable
    from typing import TypeAlias

    from .apply import PatchWarning
    from .apply import Tree

    Repair: TypeAlias = Callable[[RepairRequest], StrReplace | None]

# Offered here, imported when first asked for (`__getattr__`): applying a unified diff or
# edits needs neither the SEARCH/REPLACE reader nor the repair hook's types (start-up time).
# ("..": of the package above this module.)
_LAZY: Final = {"parse_search_replace": "..format", "RepairRequest": "..apply"}

__all__ = [
    "CreateFile",
    "Edit",
    "EditError",
    "HashlineError",
    "InputError",
    "Insert",
    "NotebookEdit",
    "RepairRequest",
    "ReplacementCountError",
    "SearchReplaceError",
    "StaleAnchorError",
    "StrReplace",
    "apply_edits",
    "apply_hashline",
    "apply_reply",
    "apply_search_replace",
    "apply_unified_diff",
    "parse_search_replace",
    "view_hashline",
]


def __getattr__(name: str) -> object:
    """A name of `_LAZY`, imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _LAZY, {}, name)


def apply_edits(
    edits: Iterable[Edit],
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Repair | None = None,
    **options: str,
) -> ApplyResult:
    """Apply `edits` in order to the files under `root`, all or nothing.

    Relative paths are taken from `workdir` (under `root`); every path stays
    confined to `root`. `policy` and keyword `options` as for `apply_patch`.
    Raises a PatchError subclass on any failure (ContextNotFoundError,
    ReplacementCountError, FilePolicyError, EditError...), and then no file
    changed. Messages name an edit by its number in `edits` (from 1). Refused
    before anything is read (EditError, one line saying what to send instead):
    a replacement whose new text is its old text, an insertion of no text, and
    new text or a whole file that brings in an omission placeholder
    (`// ... existing code ...`, `(rest of methods ...)`) the text or file it
    replaces does not hold.
    """
    replay = Replay(os.fspath(root), dry_run=dry_run, policy=policy_of(policy, options), repair=repair)
    return replay_edits(edits, replay, os.fspath(workdir))


def replay_edits(edits: Iterable[Edit], replay: Replay, workdir: str = ".") -> ApplyResult:
    """`edits` checked (`checked`), their whole-file texts checked against the files as
    `replay` sees them (`write_refusal`), then planned and committed by `replay`."""
    numbered = checked(edits)
    _refuse_placeholder_writes(numbered, replay.tree(workdir))
    return replay.apply_operations(numbered, workdir)


def checked(edits: Iterable[Edit]) -> list[Edit]:
    """`edits` numbered for messages (those that have no label yet), each checked:
    EditError for one that is malformed or that `refusal` refuses."""
    from .format import refusal

    numbered: list[Edit] = []
    for number, edit in enumerate(edits, 1):
        if not isinstance(edit, (StrReplace, CreateFile, Insert, NotebookEdit)):
            raise EditError(
                f"Edit {number} is a {type(edit).__name__}, not a StrReplace, CreateFile, Insert or NotebookEdit"
            )
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
        problem = _choice_problem(edit, number) if isinstance(edit, StrReplace) else None
        problem = _notebook_problem(edit, number) if isinstance(edit, NotebookEdit) else problem
        if problem is not None:
            raise EditError(problem, path=edit.path, patch_line=edit.line or number)
        if not edit.label:
            what = {StrReplace: "the old text", CreateFile: "the new file", Insert: "the insertion",
                    NotebookEdit: "the notebook edit"}  # fmt: skip
            edit = replace(edit, label=f"{what[type(edit)]} of edit {number}", line=edit.line or number)
            if isinstance(edit, StrReplace) and edit.terms == PLAIN:
                edit = replace(edit, terms=Terms(new=f"the new text of edit {number}"))
        why = refusal(edit)
        if why is not None:
            raise EditError(why, path=edit.path, patch_line=edit.line)
        numbered.append(edit)
    return numbered


def _choice_problem(edit: StrReplace, number: int) -> str | None:
    """Why the one place `edit` picks (`occurrence`, `near_line`) cannot be chosen, whatever
    the file holds; None when it can (or when it picks none)."""
    chosen = [(name, value) for name, value in (("occurrence", edit.occurrence), ("near_line", edit.near_line)) if value is not None]
    if not chosen:
        return None
    if len(chosen) == 2:
        return f"Edit {number} gives both occurrence and near_line: give one of them"
    name, value = chosen[0]
    if not isinstance(value, int) or isinstance(value, bool):
        return f"Edit {number} has {name} {value!r}: it must be an integer (from 1)"
    if value < 1 and name == "occurrence":
        return f"Edit {number} asks for occurrence {value}: occurrences count from 1"
    if value < 1:
        return f"Edit {number} asks for the match nearest line {value}: lines count from 1"
    if edit.replace_all:
        return f"Edit {number} replaces every place and picks one ({name}): give one of them"
    if edit.expected is not None:
        return f"Edit {number} expects {edit.expected} places and picks one ({name}): give one of them"
    if not edit.old:
        return f"Edit {number} creates a file (its old text is empty): {name} picks a match of an old text"
    return None


def _refuse_placeholder_writes(edits: list[Edit], tree: Tree) -> None:
    """EditError for a whole-file text bringing in a placeholder the file it replaces lacks.

    Only a text that holds a placeholder reads its file (rarely, then). A path
    that does not resolve is left to the plan, which says why.
    """
    from .format import omission_placeholders, whole_text, write_refusal
    from .apply import FileState

    for edit in edits:
        text = whole_text(edit)
        if text is None or not omission_placeholders(text):
            continue
        try:
            where = tree.resolve(edit.path, line=edit.line)
            state = tree.read(where.target)
        except (PatchError, OSError):
            continue
        existing = state.data.decode("utf-8", "replace") if isinstance(state, FileState) else ""
        why = write_refusal(edit, where.shown, existing)
        if why is not None:
            raise EditError(why, path=where.relative, patch_line=edit.line)


def _texts(edit: Edit) -> list[tuple[str, object]]:
    """The texts an edit writes or looks for, each with how a message names it."""
    if isinstance(edit, StrReplace):
        return [("The old text", edit.old), ("The new text", edit.new)]
    if isinstance(edit, NotebookEdit):
        return [("The new source", edit.new_source)]
    return [("The text", edit.text)]


def _notebook_problem(edit: NotebookEdit, number: int) -> str | None:
    """Why the notebook edit `edit` cannot mean anything, whatever the notebook holds; None if it can."""
    from .apply import CELL_TYPES, MODES

    if edit.mode not in MODES:
        return f"Edit {number} has mode {edit.mode!r}: it must be one of {', '.join(MODES)}"
    if edit.cell_type is not None and edit.cell_type not in CELL_TYPES:
        return f"Edit {number} has cell_type {edit.cell_type!r}: it must be one of {', '.join(CELL_TYPES)}"
    if edit.mode == "insert" and edit.cell_type is None:
        return f"Edit {number} inserts a cell: give its cell_type ({', '.join(CELL_TYPES)})"
    cell = edit.cell_id
    if cell is not None and (isinstance(cell, bool) or not isinstance(cell, (str, int))):
        return f"Edit {number} has cell_id {cell!r}: give a cell's id, or its number from 0"
    if not edit.path.endswith(".ipynb"):
        return f"Edit {number} edits a notebook cell of {edit.path}, which is not a notebook (.ipynb)"
    return None


def apply_search_replace(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Repair | None = None,
    **options: str,
) -> ApplyResult:
    """Apply every SEARCH/REPLACE block of the model reply `text`, all or nothing.

    The names the reply writes are read against the files under `root` (from
    `workdir`), as the blocks before leave them (in a dry run too): a bare word
    (`Makefile`) is a path only if it names a file or is a mangled name of one; a
    name that names no file but is, once separators, dots, underscores and dashes
    are set aside, the name of exactly one file (`file1_py` for `file1.py`, or one
    file of that name in a subfolder) is taken as that file, with a warning. A
    block whose SEARCH part starts with a blank line that is not in the file is
    matched without it, with a warning. InputError when `text` is not valid
    Unicode (a lone surrogate).
    """
    check_text(text, "The reply")
    replay = Replay(os.fspath(root), dry_run=dry_run, policy=policy_of(policy, options), repair=repair)
    from .format import parse_search_replace

    workdir = os.fspath(workdir)
    edits: list[Edit] = list(parse_search_replace(text, names=_names_in(replay.tree(workdir))))
    return replay_edits(edits, replay, workdir)


def _names_in(tree: Tree) -> Callable[[str, int, bool], str | None]:
    """Which file of `tree` a bare word written above a block names (`parse_search_replace`'s
    `names`): itself when it names a file there, or (`mangled`: the block edits a file) when
    it is the mangled name of one, which the planner then reads (`Terms.slips`); else None.
    A name with a separator or an extension is a path whatever the tree holds."""
    from .apply import FileNames

    files = FileNames(tree)  # walked once, if a bare word names no file

    def named(written: str, line: int, mangled: bool) -> str | None:
        try:
            where = tree.resolve(written, line=line)
            if tree.kind(where.target) == "file":  # (its kind only: nothing is read)
                return written
        except (PatchError, OSError):
            return None
        return written if mangled and files.the_one(written) is not None else None

    return named


def apply_unified_diff(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    strip: int | None = None,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    repair: Repair | None = None,
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
    from .apply import apply_operations
    from .format import unified_operations

    check_text(text, "The diff")
    with PausedCollector():  # a large diff's hunks, read then placed: no collection walks them between
        operations = unified_operations(text, strip)
        return apply_operations(
            operations, root, workdir=workdir, dry_run=dry_run, policy=policy, repair=repair, **options
        )


def apply_reply(
    text: str,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    codex_only: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply whatever a model wrote, in any format, all or nothing: one Codex patch, a
    unified diff, SEARCH/REPLACE blocks, or a chat reply holding any number of them
    with prose around (fenced with any info string or not: `format.reply_parts`).

    A text that is one patch is applied as its format's own entry applies it
    (`apply_patch`, with its JSON and shell forms; `apply_unified_diff`;
    `apply_search_replace`). A reply's patches are planned in order, each over the
    files as the ones before it leave them, then committed together: if any fails,
    none is applied, and the error names the patch (its line in the reply). With
    `codex_only`, only Codex patches are taken from a reply (the executable's default
    mode). Text holding no patch is read as one Codex patch, whose error says what is
    wrong. `policy` and `options` as for `apply_patch`; raises a PatchError subclass.
    """
    from .format import CODEX_KIND, reply_parts

    check_text(text, "The reply")
    chosen = policy_of(policy, options)
    found = reply_parts(text)
    parts = [p for p in found if p.kind == CODEX_KIND or not codex_only]
    whole = _whole_format(text, parts, codex_only)
    if whole is not None:
        return _apply_whole(text, whole, root, workdir, dry_run, chosen)
    result = _apply_parts(text, parts, os.fspath(root), os.fspath(workdir), dry_run, chosen)
    left = [part for part in found if part not in parts]
    return replace(result, warnings=(*_left_out(left), *result.warnings)) if left else result


def _left_out(parts: list[ReplyPart]) -> list[PatchWarning]:
    """A warning for each part of a reply that `codex_only` did not apply: the result must
    not look like the whole reply's."""
    from .apply import PatchWarning

    from .format import format_named

    return [
        PatchWarning(
            "input", None, part.line, None, None, (),
            f"the reply also holds {format_named(part.kind).some} at line {part.line}, not applied: "
            "only its Codex patches are read (--format auto reads every format).",
        )
        for part in parts
    ]


def _whole_format(text: str, parts: list[ReplyPart], codex_only: bool) -> str | None:
    """The format `text` is one patch of, or None when it is a reply holding `parts`."""
    from .format import CODEX_KIND, detected_format

    if not parts:
        return CODEX_KIND if codex_only else detected_format(text)
    if len(parts) == 1 and parts[0].text.strip() == text.strip():
        return parts[0].kind
    from .format import looks_like_shell, parse_patch  # (Lark: not for a text that is one patch)

    if looks_like_shell(text):  # a script: the patch alone, or `apply_patch extract` (its hint)
        return CODEX_KIND
    try:  # a patch in JSON or a shell form (`cd DIR && apply_patch <<EOF`): its own rules
        parse_patch(text, decode=True)
    except PatchError:
        return None
    return CODEX_KIND


def _apply_whole(
    text: str, kind: str, root: str | os.PathLike[str], workdir: str | os.PathLike[str], dry_run: bool, policy: Policy
) -> ApplyResult:
    return apply_format(text, kind, root, workdir=workdir, dry_run=dry_run, policy=policy)


def apply_format(
    text: str,
    name: str,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
) -> ApplyResult:
    """Apply `text` read as the format `name` (a `--format` choice of the registry, not
    `auto`) by that format's own entry: `apply_patch` (with its JSON and shell forms),
    `apply_search_replace`, `apply_unified_diff`, `apply_hashline`."""
    from .apply import apply_patch
    from .format import format_named

    entries: dict[str, Callable[..., ApplyResult]] = {
        "codex": apply_patch,
        "search-replace": apply_search_replace,
        "unified-diff": apply_unified_diff,
        "hashline": apply_hashline,
    }
    entry = entries[format_named(name).name]
    return entry(text, root, workdir=workdir, dry_run=dry_run, policy=policy)


def _apply_parts(
    text: str, parts: list[ReplyPart], root: str, workdir: str, dry_run: bool, policy: Policy
) -> ApplyResult:
    """The reply's `parts` planned one after the other (each over the files the ones before
    it leave, nothing written: an error names its part), then all committed as one."""
    trial = Replay(root, dry_run=True, policy=policy)
    operations: list[Operation | EditOperation] = []
    for number, part in enumerate(parts, 1):
        try:
            found = _part_operations(text, part, trial.tree(workdir))
            trial.apply_operations(found, workdir)
        except PatchError as error:
            error.hints = (*error.hints, _which_part(part, number, len(parts), dry_run))
            raise
        operations += found
    return Replay(root, dry_run=dry_run, policy=policy).apply_operations(operations, workdir)


def _part_operations(text: str, part: ReplyPart, tree: Tree) -> list[Operation | EditOperation]:
    """The operations of one part of a reply, read by its format's reader (the names it
    writes read against the files of `tree`); a format whose reader gives a model's edit
    calls has them numbered and checked against `tree` as `apply_edits` checks them."""
    from .format import format_named

    known = format_named(part.kind)
    assert known.read is not None  # a reply's parts are of formats read from text
    found = list(known.read(part.text, _names_in(tree)))
    if not known.calls:
        return found
    edits = checked(found)  # type: ignore[arg-type]  # `calls`: its reader gives edits only
    _refuse_placeholder_writes(edits, tree)
    return list(edits)


def _which_part(part: ReplyPart, number: int, count: int, dry_run: bool) -> str:
    """The hint naming the part of a reply an error is about."""
    from .format import format_named

    what = format_named(part.kind).noun
    none = "would be applied" if dry_run else "was applied"
    return (
        f"This is the {what} at line {part.line} of the reply ({number} of {count} found in it; "
        f"its own line numbers count from its first line). None of the reply's patches {none}."
    )


def apply_hashline(
    edit: str | object,
    root: str | os.PathLike[str] = ".",
    *,
    workdir: str | os.PathLike[str] = ".",
    dry_run: bool = False,
    policy: Policy = DEFAULT,
    **options: str,
) -> ApplyResult:
    """Apply a Hashline edit, all or nothing: its JSON text, or the decoded value (one
    `{"path", "edits"}` object or a list of them; docs/hashline.md).

    Every anchor (`LINE#ID`, as `view_hashline` prints it) must name a line that holds
    its ID now, in the file as it was before any edit of its call: else StaleAnchorError,
    naming what the line holds now and its anchor (never moved to another line whose ID
    matches). HashlineError for an edit that cannot be read (another dialect's refused
    with what to send instead); the PatchErrors of `apply_patch` otherwise.
    """
    from .apply import apply_operations
    from .format import UpdateFile, hashline

    if isinstance(edit, str):
        check_text(edit, "The Hashline edit")
        calls = hashline.read_text(edit)
    else:
        calls = hashline.read_calls(edit)
    operations = [UpdateFile(call.path, None, (call,)) for call in calls]
    return apply_operations(
        operations, root, workdir=workdir, dry_run=dry_run, policy=policy, repair=None, **options
    )


def view_hashline(
    path: str,
    root: str | os.PathLike[str] = ".",
    *,
    policy: Policy = DEFAULT,
    **options: str,
) -> list[str]:
    """The rows of a Hashline view of the file `path` (under `root`, never outside it):
    one `LINE#ID:TEXT` a line of the file, read as an edit reads it (its encoding given,
    declared, marked by a BOM, or UTF-8; the BOM set aside; each line without its ending,
    a CR included). An empty file has no rows. A file that cannot be shown as text (not
    UTF-8 and no encoding known, a folder, one whose mode hides it) raises
    PatchError: its text is not shown, and it cannot be edited by anchors.
    """
    from .apply import DiskTree, FileState, file_text, not_shown
    from .format import hashline

    chosen = policy_of(policy, options)
    tree = DiskTree(os.fspath(root), chosen)
    where = tree.resolve(path)
    state = tree.read(where.target)
    if not isinstance(state, FileState):
        what = "does not exist" if state is None else "is not a file"
        raise EditError(f"Cannot view {where.shown}: it {what}", path=where.shown)
    if state.hidden:
        raise EditError(not_shown(where.shown, state.links), path=where.shown)
    text, _ = file_text(tree, state.data, where)
    return hashline.view_rows(text.lines)
