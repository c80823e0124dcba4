"""Extraction: patches out of shell commands, argv arrays, transcripts and agent logs.

tree-sitter-bash is imported only when a shell text is parsed (`_shell`).
"""

from ._classify import classify_argv
from ._extract import BrokenPatch, Extracted, FoundEdits, FoundPatch, extract_patches

__all__ = ["BrokenPatch", "Extracted", "FoundEdits", "FoundPatch", "classify_argv", "extract_patches"]
