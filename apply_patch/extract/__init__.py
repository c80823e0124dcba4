"""Extraction: patches out of shell commands, argv arrays, transcripts and agent logs.

tree-sitter-bash is imported only when a shell text is parsed (`_shell`).
"""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._extract import BrokenPatch, Extracted, FoundEdits, FoundPatch, extract_patches
    from ..apply import is_windows_absolute
    from ..format import classify_argv

_NAMES = {
    "BrokenPatch": "._extract",
    "Extracted": "._extract",
    "FoundEdits": "._extract",
    "FoundPatch": "._extract",
    "extract_patches": "._extract",
    "is_windows_absolute": "..apply",
    "classify_argv": "..format",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES`, imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, {}, name)


__all__ = [
    "BrokenPatch", "Extracted", "FoundEdits", "FoundPatch", "classify_argv", "extract_patches",
    "is_windows_absolute",
]
