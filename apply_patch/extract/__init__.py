"""Extraction: patches out of shell commands, argv arrays, transcripts and agent logs.

tree-sitter-bash is imported only when a shell text is parsed (`_shell`).
"""

import sys as _sys

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
    """A name of `_NAMES`, imported on first use and then kept in this namespace (PEP 562).

    A dict lookup and `__import__`: no helper module nor importlib on the way (start-up time).
    """
    where = _NAMES.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    relative = where.lstrip(".")  # "._x": a module of this package; ".._x": of the one above
    absolute = __name__.rsplit(".", len(where) - len(relative) - 1)[0] + "." + relative
    __import__(absolute)
    value = getattr(_sys.modules[absolute], name)
    globals()[name] = value
    return value


__all__ = [
    "BrokenPatch", "Extracted", "FoundEdits", "FoundPatch", "classify_argv", "extract_patches",
    "is_windows_absolute",
]
