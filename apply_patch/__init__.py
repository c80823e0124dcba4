"""Apply Codex-format patches all-or-nothing.

    >>> from apply_patch import parse_patch
    >>> patch = parse_patch("*** Begin Patch\\n*** Delete File: old.txt\\n*** End Patch")
    >>> patch.operations
    (DeleteFile(path='old.txt'),)

`apply_patch(text, root)` applies a patch to a folder and returns what it did;
every failure raises a `PatchError` subclass, and then no file was changed.
`make_patch(old, new)` makes the patch between two texts or two trees, and
`convert_unified_diff(text)` turns a unified diff into one. `apply_patch.edits`
applies the other formats models write (str_replace edits, SEARCH/REPLACE
blocks, unified diffs), `apply_patch.anthropic` runs Claude's text-editor tool.
"""

from .apply._pipeline import ApplyResult, FileResult, apply_patch, apply_to_mapping
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
from .format._grammar import grammar_text
from .format._model import AddFile, Chunk, DeleteFile, Operation, Patch, UpdateFile
from .format._parse import parse_patch
from .apply._policy import CODEX, DEFAULT, Policy
from ._errors import PolicyValueError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .extract._classify import (
        ApplyPatchCall,
        BrokenApplyPatchCall,
        Classification,
        ImplicitPatch,
        NotApplyPatch,
        classify_argv,
    )
    from .make._convert import convert_unified_diff
    from .extract._extract import BrokenPatch, Extracted, FoundEdits, FoundPatch, extract_patches
    from ._errors import BinaryFileError, UnsupportedChangeError
    from .make._make import make_patch
    from .format._stream import PartialOperation, PartialPatch, parse_partial
    from ._tools import tool_definitions
    from ._errors import UnifiedDiffError

# Extraction, making patches, streaming and tool definitions need more (tree-sitter,
# difflib, json...): imported on first use only, so that applying a patch does not
# pay for them.
_LAZY = {
    "ApplyPatchCall": ".extract._classify",
    "BrokenApplyPatchCall": ".extract._classify",
    "Classification": ".extract._classify",
    "ImplicitPatch": ".extract._classify",
    "NotApplyPatch": ".extract._classify",
    "classify_argv": ".extract._classify",
    "BrokenPatch": ".extract._extract",
    "Extracted": ".extract._extract",
    "FoundEdits": ".extract._extract",
    "FoundPatch": ".extract._extract",
    "extract_patches": ".extract._extract",
    "BinaryFileError": "._errors",
    "UnsupportedChangeError": "._errors",
    "make_patch": ".make._make",
    "UnifiedDiffError": "._errors",
    "convert_unified_diff": ".make._convert",
    "PartialOperation": ".format._stream",
    "PartialPatch": ".format._stream",
    "parse_partial": ".format._stream",
    "tool_definitions": "._tools",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # with warnings: only when a lazy name is asked for

    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "CODEX",
    "DEFAULT",
    "AddFile",
    "ApplyPatchCall",
    "ApplyResult",
    "BinaryFileError",
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
    "FoundEdits",
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
    "UnifiedDiffError",
    "UnsupportedChangeError",
    "UpdateFile",
    "apply_patch",
    "apply_to_mapping",
    "classify_argv",
    "convert_unified_diff",
    "extract_patches",
    "grammar_text",
    "make_patch",
    "parse_partial",
    "parse_patch",
    "tool_definitions",
]
