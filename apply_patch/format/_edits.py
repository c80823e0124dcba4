"""The operations of the other edit formats: replacements, created files, insertions.

What the Anthropic text-editor tool, Claude Code's `Edit`/`MultiEdit`/`Write`,
OpenCode's and Gemini CLI's edit tools and Aider's SEARCH/REPLACE blocks say,
as operations the same plan and commit run as the Codex ones
(`apply/_edit_plan.py`). A unified diff's hunks are Codex chunks (`Chunk`,
with their line numbers as a hint).

Each operation records where it came from, for messages: `line` (the reply
or diff line, or the edit's number in a list; 0: unknown) and `label`, how
the format names it ("old_string of edit 2", "the SEARCH block at line 14").
Neither takes part in equality.
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


Edit = StrReplace | CreateFile | Insert
EditOperation = Edit
