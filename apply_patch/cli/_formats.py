"""`apply_patch --format`: the other edit formats through the executable, and `auto` detection."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Final

    from ..apply import ApplyResult
    from .._policy import Policy

from ._options import FORMATS as FORMATS  # the executable's --format choices


def detect(text: str) -> str:
    """The format of `text` read as one patch: a Hashline edit (its JSON, or oh-my-pi's v4
    text, to be refused in its words) is hashline; else `format.detected_format`."""
    from ..format import detected_format, hashline

    if hashline.detect(text):
        return "hashline"
    return detected_format(text)


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
