"""Apply Codex-format patches all-or-nothing.

    >>> from apply_patch import parse_patch
    >>> patch = parse_patch("*** Begin Patch\\n*** Delete File: old.txt\\n*** End Patch")
    >>> patch.operations
    (DeleteFile(path='old.txt'),)

`apply_patch(text, root)` applies a patch to a folder and returns what it did;
every failure raises a `PatchError` subclass, and then no file was changed.
"""

from ._apply import ApplyResult, FileResult, apply_patch, apply_to_mapping
from ._classify import (
    ApplyPatchCall,
    BrokenApplyPatchCall,
    Classification,
    ImplicitPatch,
    NotApplyPatch,
    classify_argv,
)
from ._errors import (
    ConcurrentChangeError,
    ContextNotFoundError,
    EmptyPatchError,
    FilePolicyError,
    PatchError,
    PatchIOError,
    PatchSyntaxError,
    RollbackError,
)
from ._extract import BrokenPatch, Extracted, FoundPatch, extract_patches
from ._grammar import grammar_text
from ._model import AddFile, Chunk, DeleteFile, Operation, Patch, UpdateFile
from ._parse import parse_patch
from ._policy import CODEX, DEFAULT, Policy, PolicyValueError
from ._stream import PartialOperation, PartialPatch, parse_partial
from ._tools import tool_definitions

__all__ = [
    "CODEX",
    "DEFAULT",
    "AddFile",
    "ApplyPatchCall",
    "ApplyResult",
    "BrokenApplyPatchCall",
    "BrokenPatch",
    "Chunk",
    "Classification",
    "ConcurrentChangeError",
    "ContextNotFoundError",
    "DeleteFile",
    "EmptyPatchError",
    "Extracted",
    "FilePolicyError",
    "FileResult",
    "FoundPatch",
    "ImplicitPatch",
    "NotApplyPatch",
    "Operation",
    "PartialOperation",
    "PartialPatch",
    "Patch",
    "PatchError",
    "PatchIOError",
    "PatchSyntaxError",
    "Policy",
    "PolicyValueError",
    "RollbackError",
    "UpdateFile",
    "apply_patch",
    "apply_to_mapping",
    "classify_argv",
    "extract_patches",
    "grammar_text",
    "parse_partial",
    "parse_patch",
    "tool_definitions",
]
