"""What an edit format tells the rest of the package, as one record (`Format`).

Each format's module makes its own record (`FORMAT`: `_codex`, `_search_replace`,
`_unified`, `_hashline`, `_str_replace`, `_operations`); the registry
(`_registry.FORMATS`) is the tuple of them, and what detection (`--format auto`),
`--format`'s choices, a reply's parts and the command line's hints iterate. Adding a
format is adding its module and its record there (docs/architecture.md, "Adding a
format").
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence

    from ._edits import Edit
    from ._model import Operation

    Names = Callable[[str, int, bool], str | None]
    """Which file a name written in a reply means (`parse_search_replace`'s `names`)."""
    Reader = Callable[[str, Names | None], Sequence[Operation | Edit]]


@dataclass(frozen=True, slots=True)
class Format:
    """One edit format.

    `name`: its `--format` choice and a reply part's kind. `noun`: how a message names
    one input of it ("unified diff"), `some`: with its article ("a unified diff").
    `marker`: a line that says a text is one input of it (`--format auto`: the first
    line that is any format's marker decides, the formats tried in registry order on
    each line); `whole`: the whole text says so (tried before any line: Hashline's
    JSON). `sign`, `hint`: a stricter sign searched in a text that failed to read as
    another format, and the command-line hint then given (`cli/_advice`). `read`: text
    (and, for the names written in a reply, a `Names`) → the operations of the one
    model; None for a format that is not text (the native tool's JSON calls, the
    str_replace tools' inputs). `calls`: what it reads are a model's edit calls
    (`StrReplace`, `CreateFile`...), checked and refused as `apply_edits` checks them.
    `choice`: a `--format` choice.
    """

    name: str
    noun: str
    some: str
    marker: re.Pattern[str] | None = None
    whole: Callable[[str], bool] | None = None
    sign: re.Pattern[str] | None = None
    hint: str = ""
    read: Reader | None = None
    calls: bool = False
    choice: bool = True
