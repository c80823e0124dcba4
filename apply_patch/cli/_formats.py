"""`apply_patch --format`: the other edit formats through the executable, and `auto`
detection, both by the registry of formats (`format.FORMATS`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

    from ..apply import ApplyResult
    from .._policy import Policy

from ._options import FORMATS as FORMATS  # the executable's --format choices


def detect(text: str) -> str:
    """The format of `text` read as one input (`format.detected_format`: a Hashline edit's
    JSON, or oh-my-pi's v4 text, to be refused in its words, is hashline)."""
    from ..format import detected_format

    return detected_format(text)


def apply_text(
    text: str,
    chosen: str,
    root: str | os.PathLike[str],
    *,
    dry_run: bool,
    policy: Policy,
) -> ApplyResult:
    """Apply `text` read as the format `chosen` (not `auto`): its own entry (`edits.apply_format`)."""
    from ..edits import apply_format

    return apply_format(text, chosen, root, dry_run=dry_run, policy=policy)
