"""The operations of the other edit formats: replacements, created files, insertions.

What the Anthropic text-editor tool, Claude Code's `Edit`/`MultiEdit`/`Write`,
OpenCode's and Gemini CLI's edit tools, Aider's SEARCH/REPLACE blocks and
unified diffs say, as operations the same plan and commit run as the Codex
ones (`apply/_edit_plan.py`).

Each operation records where it came from, for messages: `line` (the reply
or diff line, or the edit's number in a list; 0: unknown) and `label`, how
the format names it ("old_string of edit 2", "the SEARCH block at line 14",
"the hunk at line 7"). Neither takes part in equality.
"""

from __future__ import annotations

from .._dataclass import dataclass, field


@dataclass(frozen=True, slots=True)
class StrReplace:
    """Replace `old` by `new` in the file `path`.

    How many places `old` must match: exactly one (the default), every place
    (`replace_all=True`, at least one), or exactly `expected`. An empty `old`
    creates the file with `new` (refused when it exists and is not empty, as
    Add File is). `$` and backslashes in `new` are literal.
    """

    path: str
    old: str
    new: str
    replace_all: bool = False
    expected: int | None = None
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)


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


@dataclass(frozen=True, slots=True)
class DiffHunk:
    """One hunk of a unified diff: the lines it expects and the lines it leaves.

    `old_start` is the header's 1-based old line (it only breaks ties between
    places where the hunk matches). `new_endings`, one per new line, give the
    explicit ending of each (None: the file's; "": `\\ No newline at end of
    file`). `added` and `removed` count its `+` and `-` lines; `line` is the
    diff line of the `@@` header.
    """

    old_lines: tuple[str, ...]
    new_lines: tuple[str, ...]
    old_start: int
    new_endings: tuple[str | None, ...] = ()
    old_ends_file: bool = False
    added: int = 0
    removed: int = 0
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class ApplyHunks:
    """Apply the hunks of one file of a unified diff, in order, each after the previous."""

    path: str
    hunks: tuple[DiffHunk, ...]
    line: int = field(default=0, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)


Edit = StrReplace | CreateFile | Insert
EditOperation = StrReplace | CreateFile | Insert | ApplyHunks
