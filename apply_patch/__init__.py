"""Apply Codex-format patches all-or-nothing.

    >>> from apply_patch import parse_patch
    >>> patch = parse_patch("*** Begin Patch\\n*** Delete File: old.txt\\n*** End Patch")
    >>> patch.operations
    (DeleteFile(path='old.txt'),)

`apply_patch(text, root)` applies a patch to a folder and returns what it did;
every failure raises a `PatchError` subclass, and then no file was changed.
`make_patch(old, new)` makes the patch between two texts or two trees, and
`convert_unified_diff(text)` turns a unified diff into one. `apply_reply(text, root)`
applies whatever a model wrote: a patch, a unified diff, SEARCH/REPLACE blocks, or a
chat reply holding several of them with prose around, as one commit. `apply_patch.edits`
applies the other formats models write (str_replace edits, SEARCH/REPLACE
blocks, unified diffs, Hashline edits), `apply_patch.anthropic` runs Claude's text-editor tool.
"""

from ._errors import (
    AmbiguousBlankLinesError,
    AmbiguousChunkError,
    BinaryFileError,
    CodeSyntaxError,
    ConcurrentChangeError,
    ContextNotFoundError,
    EmptyPatchError,
    FilePolicyError,
    HashlineError,
    IndentUnitError,
    InputError,
    PatchError,
    PatchIOError,
    PatchSyntaxError,
    PolicyValueError,
    RollbackError,
    StaleAnchorError,
    StaleViewError,
    UndoError,
    UnifiedDiffError,
    UnsupportedChangeError,
)
from ._lazy import load as _load
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._policy import CODEX, DEFAULT, Policy
    from .apply import ApplyResult, FileResult, apply_patch, apply_to_mapping
    from .format import AddFile, Chunk, DeleteFile, Operation, Patch, UpdateFile, grammar_text, parse_patch
    from .extract import BrokenPatch, Extracted, FoundEdits, FoundPatch, extract_patches
    from .format import (
        ApplyPatchCall,
        BrokenApplyPatchCall,
        Classification,
        ImplicitPatch,
        LineRead,
        NotApplyPatch,
        PartialOperation,
        PartialPatch,
        PartialReader,
        classify_argv,
        parse_partial,
    )
    from .apply import RepairRequest, StreamingPlan, Verdict
    from .make import convert_unified_diff, make_patch
    from .tools import tool_definitions
    from .apply import Receipt, history, show, undo
    from .edits import apply_reply

# Every part is imported on first use of one of its names: applying a patch does not pay
# for extraction, making patches, streaming and tool definitions (tree-sitter, difflib,
# json...), and `apply_patch --version` not for the engine nor the records (`_policy`).
_LAZY = {
    **dict.fromkeys(("ApplyResult", "FileResult", "apply_patch", "apply_to_mapping"), ".apply"),
    **dict.fromkeys(
        ("AddFile", "Chunk", "DeleteFile", "Operation", "Patch", "UpdateFile", "grammar_text", "parse_patch"),
        ".format",
    ),
    **dict.fromkeys(("BrokenPatch", "Extracted", "FoundEdits", "FoundPatch", "extract_patches"), ".extract"),
    **dict.fromkeys(
        ("ApplyPatchCall", "BrokenApplyPatchCall", "Classification", "ImplicitPatch", "LineRead",
         "NotApplyPatch", "PartialOperation", "PartialPatch", "PartialReader", "classify_argv", "parse_partial"),
        ".format",
    ),
    **dict.fromkeys(("convert_unified_diff", "make_patch"), ".make"),
    "tool_definitions": ".tools",
    "RepairRequest": ".apply",
    **dict.fromkeys(("StreamingPlan", "Verdict"), ".apply"),
    **dict.fromkeys(("Receipt", "history", "show", "undo"), ".apply"),
    **dict.fromkeys(("CODEX", "DEFAULT", "Policy"), "._policy"),
    "apply_reply": ".edits",
}


def __getattr__(name: str) -> object:
    """A name of `_LAZY`, imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _LAZY, {}, name)


def __dir__() -> list[str]:
    """The public names (what `dir()` and completion offer), the lazy ones with them;
    not the module's own machinery (`TYPE_CHECKING`, `_load`)."""
    return sorted(__all__)


__all__ = [
    "CODEX",
    "DEFAULT",
    "AddFile",
    "AmbiguousBlankLinesError",
    "AmbiguousChunkError",
    "ApplyPatchCall",
    "ApplyResult",
    "BinaryFileError",
    "BrokenApplyPatchCall",
    "BrokenPatch",
    "Chunk",
    "Classification",
    "CodeSyntaxError",
    "ConcurrentChangeError",
    "ContextNotFoundError",
    "DeleteFile",
    "EmptyPatchError",
    "Extracted",
    "FilePolicyError",
    "FileResult",
    "FoundEdits",
    "FoundPatch",
    "HashlineError",
    "ImplicitPatch",
    "IndentUnitError",
    "InputError",
    "LineRead",
    "NotApplyPatch",
    "Operation",
    "PartialOperation",
    "PartialPatch",
    "PartialReader",
    "Patch",
    "PatchError",
    "PatchIOError",
    "PatchSyntaxError",
    "Policy",
    "PolicyValueError",
    "RepairRequest",
    "Receipt",
    "RollbackError",
    "StaleAnchorError",
    "StaleViewError",
    "StreamingPlan",
    "UndoError",
    "UnifiedDiffError",
    "UnsupportedChangeError",
    "UpdateFile",
    "Verdict",
    "apply_patch",
    "apply_reply",
    "apply_to_mapping",
    "classify_argv",
    "convert_unified_diff",
    "extract_patches",
    "grammar_text",
    "history",
    "make_patch",
    "parse_partial",
    "parse_patch",
    "show",
    "tool_definitions",
    "undo",
]
