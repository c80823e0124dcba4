"""The calls of the other edit formats (replacements, created files, insertions, notebook
cells): one class each, both what the formats say and the edit of the model an update holds.

What the Anthropic text-editor tool, Claude Code's `Edit`/`MultiEdit`/`Write`,
OpenCode's and Gemini CLI's edit tools and Aider's SEARCH/REPLACE blocks say,
as operations the same plan and commit run as the Codex ones
(`apply/_edit_plan.py`). Lowered (`_lower`), a `StrReplace`, an `Insert` or a
`NotebookEdit` is itself the edit an `UpdateFile` of its path holds: the model has
no second class with the same fields. A unified diff's hunks are Codex chunks (`Chunk`,
with their line numbers as a hint).

Each operation records where it came from, for messages: `line` (the reply
or diff line, or the edit's number in a list; 0: unknown), `label`, how
the format names it ("old_string of edit 2", "the SEARCH block at line 14"),
and `terms`, the format's other words for it (its new text, its old text, its
noun), given by the format's reader as data: no message reads them back out of
the label. None of them takes part in equality.

`refusal` and `write_refusal` say why an edit must not be applied whatever
the file holds (it changes nothing, or writes an omission placeholder for
code), in the format's own terms; the adapters refuse such edits before
planning (`apply_patch.edits`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final


@dataclass(frozen=True, slots=True)
class Terms:
    """How messages name an edit's parts in its format's own words: data the format's reader
    gives with the edit (never read back out of its label).

    `new`: the new text, as a sentence names it ("new_str", "new_string of edit 2", "the
    REPLACE part of the SEARCH block at line 14"; "": "the new text of" the label; for an
    insertion, the field its text is sent in, "" for none). `old`: the old text, named after
    the new ("old_str", "its SEARCH part"). `noun`: what the diagnosis calls the edit's lines
    ("old_str", "block", "edit"). `slips`: the edit was written in a reply whose slips the
    planner undoes, each with a warning (SEARCH/REPLACE: a file name that names no file
    but is the mangled name of exactly one, a blank first line of the old text that is not
    in the file).
    """

    new: str = ""
    old: str = "its old text"
    noun: str = "edit"
    slips: bool = False


PLAIN: Final = Terms()  # the terms of an edit made by a library call


@dataclass(frozen=True, slots=True)
class StrReplace:
    """Replace `old` by `new` in the file `path`.

    How many places `old` must match: exactly one (the default), every place
    (`replace_all=True`, at least one), or exactly `expected`. Or one place
    chosen among several on purpose: the `occurrence`-th (from 1, in file
    order), or the one whose first line is nearest line `near_line` (a tie is
    refused); either alone, without `replace_all` or `expected`. An empty `old`
    creates the file with `new` (refused when it exists and is not empty, as
    Add File is). `$` and backslashes in `new` are literal.
    """

    path: str
    old: str
    new: str
    replace_all: bool = False
    expected: int | None = None
    occurrence: int | None = None
    near_line: int | None = None
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)
    terms: Terms = field(default=PLAIN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class CreateFile:
    """Create the file `path` holding `text` exactly.

    Refused when the file exists, by the Add File policy (`add_existing`),
    unless `overwrite` (the semantics of Claude Code's `Write`).
    """

    path: str
    text: str
    overwrite: bool = False
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Insert:
    """Insert `text` as whole lines after line `after_line` of `path` (0: at the top)."""

    path: str
    after_line: int
    text: str
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)
    terms: Terms = field(default=PLAIN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class NotebookEdit:
    """Replace, insert or delete one cell of the Jupyter notebook `path` (Claude Code's
    NotebookEdit tool: `notebook_path`, `new_source`, `cell_id`, `cell_type`, `edit_mode`).

    `cell_id` names the cell by its id, or by its number from 0 (an integer, or
    `cell-N`); an insertion goes after it (at the top without one) and needs a
    `cell_type` (code, markdown, raw); `mode` is replace, insert or delete.
    """

    path: str
    new_source: str
    cell_id: str | int | None = None
    cell_type: str | None = None
    mode: str = "replace"
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)


# ---------------------------------------------------------------- Hashline's edits (read by `_hashline`)


@dataclass(frozen=True, slots=True)
class Anchor:
    """A line named by the model: its number (from 1) and the ID it expects there."""

    number: int
    id: str


@dataclass(frozen=True, slots=True)
class AnchoredEdit:
    """One edit of a Hashline call: `kind` is "range" (lines `pos`..`end` replaced by
    `lines`; none: deleted), "append" (after `pos`; none: at the end of the file) or
    "prepend" (before `pos`; none: at the top). `number` is its place in the call (from 1)."""

    kind: str
    pos: Anchor | None
    end: Anchor | None
    lines: tuple[str, ...]
    number: int


@dataclass(frozen=True, slots=True)
class HashlineEdits:
    """One call: the file `path` and its edits, every anchor naming the file as it was
    before any of them; itself the change of an update of `path` (`UpdateFile(path,
    None, (call,))`), made at once (`placed`)."""

    path: str
    edits: tuple[AnchoredEdit, ...]
    line: int = 0
    label: str = "the Hashline edit"


Edit = StrReplace | CreateFile | Insert | NotebookEdit
EditOperation = Edit


# ---------------------------------------------------------------- edits refused whatever the file holds

_RETRY: Final = "Send the text the file should have there instead (or no edit if it already has it)."
_WRITE_OUT: Final = "written as is, the file would lose the code it stands for."


def refusal(edit: Edit) -> str | None:
    """Why `edit` must not be applied, whatever the file holds, as one line that tells
    the model what to send instead; None when it may be applied.

    Refused: a replacement whose new text is its old text (nothing would change;
    line endings aside; both empty too, which would write no text over an empty
    file or make one), an insertion of no text, and a replacement or an
    insertion whose new text holds an omission placeholder (`// ... existing
    code ...`) its old text does not (`_placeholders`). A whole-file text is
    checked against the file it replaces: `write_refusal`. Messages name the
    sides as the edit's format does (`label`: old_str, old_string, SEARCH block).
    """
    from ._placeholders import introduced_placeholders

    if isinstance(edit, StrReplace) and _lf(edit.old) == _lf(edit.new):
        new, old = _sides(edit)
        if not edit.old:
            return (
                f"{_capital(new)} is identical to {old}, both empty: nothing would change. Send the "
                "text to write (an empty file is made by creating it with no text)."
            )
        return f"{_capital(new)} is identical to {old}: nothing would change. {_RETRY}"
    if isinstance(edit, StrReplace) and edit.old:
        new, old = _sides(edit)
        introduced = introduced_placeholders(edit.new, edit.old)
        if introduced:
            return (
                f"{_capital(new)} holds an omission placeholder ({introduced[0]!r}) that {old} does not: "
                f"{_WRITE_OUT} Send the complete text, every line written out."
            )
    if isinstance(edit, Insert):
        label = edit.label or "the insertion"
        if not edit.text:
            to = f" in {edit.terms.new}" if edit.terms.new else ""
            return f"{_capital(label)} has no text: nothing would be inserted. Send the lines to insert{to}."
        introduced = introduced_placeholders(edit.text, "")
        if introduced:
            return (
                f"The text of {label} holds an omission placeholder ({introduced[0]!r}): {_WRITE_OUT} "
                "Send the lines to insert, every line written out."
            )
    return None


def whole_text(edit: Edit) -> str | None:
    """The text `edit` writes as a whole file (a created file, an empty old text), else None."""
    if isinstance(edit, CreateFile):
        return edit.text
    if isinstance(edit, StrReplace) and not edit.old:
        return edit.new
    return None


def write_refusal(edit: Edit, shown: str, existing: str) -> str | None:
    """`refusal` for the whole-file text of `edit` (see `whole_text`), written over
    `existing` (the file's text, "" for a new file) of the file named `shown`."""
    from ._placeholders import introduced_placeholders

    text = whole_text(edit)
    introduced = [] if text is None else introduced_placeholders(text, existing)
    if not introduced:
        return None
    label = _sides(edit)[0] if isinstance(edit, StrReplace) else edit.label or "the new file"
    return (
        f"{_capital(label)} holds an omission placeholder ({introduced[0]!r}) that {shown} does not: "
        f"{_WRITE_OUT} Send the whole file, every line written out."
    )


def _sides(edit: StrReplace) -> tuple[str, str]:
    """How messages name the new and the old text of `edit`: its format's `terms`."""
    return edit.terms.new or f"the new text of {edit.label or 'the edit'}", edit.terms.old


def _capital(text: str) -> str:
    """`text` starting a sentence: "the ..." capitalised, a field name (new_str) as it is."""
    return "T" + text[1:] if text.startswith("the ") else text


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
