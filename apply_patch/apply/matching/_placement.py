"""Where an edit landed (`Placement`), as every way of placing one reports it.

Apart from the general search (`_locate`, `_seek`, which defines the tiers): plain
chunks (`_plain`) and a unified diff placed by its numbers (`_numbered`) report
where they landed without loading it (start-up time).
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

EXACT: Final = "exact"  # the name of the first tier, the lines as they are (`_seek.TIERS`)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a chunk landed: its patch line, the 1-based file line, the tier,
    and the lines it added and removed."""

    patch_line: int
    file_line: int
    tier: str
    added: int
    removed: int
