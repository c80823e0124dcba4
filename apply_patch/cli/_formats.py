"""`apply_patch --format`: the other edit formats through the executable, and `auto` detection."""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Final

    from ..apply import ApplyResult
    from .._policy import Policy

from ._options import FORMATS as FORMATS  # the executable's --format choices
# Compiled by `detect` (`re` keeps them): a format given by name needs none (start-up time).
_MARKERS: Final = (
    ("codex", r"\s*\*\*\* Begin Patch\s*"),
    ("unified-diff", r"diff --git .*|--- \S.*|@@ -\d+(,\d+)? \+\d+(,\d+)? @@.*"),
)


def detect(text: str) -> str:
    """The format of `text`: the one whose marker comes first (none: codex); a line that is
    a SEARCH marker (Aider's `<<<<<<< SEARCH` or Cline's `------- SEARCH`) is search-replace."""
    from ..format import SEARCH, hashline

    if hashline.detect(text):
        return "hashline"
    markers = [(name, re.compile(pattern)) for name, pattern in _MARKERS]
    for line in text.splitlines():
        if SEARCH.fullmatch(line):
            return "search-replace"
        for name, marker in markers:
            if marker.fullmatch(line):
                return name
    return "codex"


def apply_text(
    text: str,
    chosen: str,
    root: str | os.PathLike[str],
    *,
    dry_run: bool,
    policy: Policy,
) -> ApplyResult:
    """Apply `text` read as the format `chosen` (not `auto`)."""
    if chosen == "search-replace":
        from ..edits import apply_search_replace

        return apply_search_replace(text, root, dry_run=dry_run, policy=policy)
    if chosen == "hashline":
        from ..edits import apply_hashline

        return apply_hashline(text, root, dry_run=dry_run, policy=policy)
    if chosen == "unified-diff":
        from ..edits import apply_unified_diff

        return apply_unified_diff(text, root, dry_run=dry_run, policy=policy)
    from ..apply import apply_patch

    return apply_patch(text, root, dry_run=dry_run, policy=policy)
