"""Results and errors → the text the executable prints."""

from __future__ import annotations

from ._errors import PatchError, RollbackError
from ._plan import OperationResult

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Iterable
    from typing import Final

SUCCESS_HEADER: Final = "Success. Updated the following files:"
NOTHING_CHANGED: Final = "The patch was not applied; no file was changed."


def summary(operations: Iterable[OperationResult]) -> str:
    """The reference's success text: `A` lines, then `M`, then `D`, each in patch order."""
    ordered = list(operations)
    lines = [SUCCESS_HEADER]
    for letter in "AMD":
        lines.extend(f"{letter} {op.path}" for op in ordered if op.letter == letter)
    return "\n".join(lines) + "\n"


def failure(error: PatchError) -> str:
    """The error as printed on stderr, saying that nothing changed (when that is true)."""
    if isinstance(error, RollbackError):
        return f"{error}\n"
    return f"{error}\n{NOTHING_CHANGED}\n"
