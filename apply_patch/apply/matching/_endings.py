"""The one table of line endings: their names (the policy's `line_endings`, EditorConfig's
`end_of_line`) and the break each stands for.

Every place that turns a name into a break reads it here, so the policy, the conventions
and the new lines of an edit cannot disagree on what `crlf` means.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ..._policy import Policy

ENDINGS: Final = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def forced_ending(policy: Policy) -> str | None:
    """The break the policy imposes on every line written (`lf`, `crlf`), or None when
    it keeps the file's own (`keep`)."""
    return ENDINGS.get(policy.line_endings)
