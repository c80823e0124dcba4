"""The formats: every input format → the typed model (pure).

One module per edit format (`_codex`, `_search_replace`, `_unified`, `_hashline`,
`_str_replace`, `_operations`), each with its record in the registry (`FORMATS`), and
the model they read into (`_model`, `_edits`). Everything here is pure: text in,
`Patch` (or edits) or a `PatchError` out.
"""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._argv import is_apply_patch, liberal_arguments, liberal_script, program_name
    from ._classify import (
        ApplyPatchCall,
        BrokenApplyPatchCall,
        Classification,
        ImplicitPatch,
        NotApplyPatch,
        classify_argv,
    )
    from ._constants import WHITESPACE
    from ._edits import (
        HashlineEdits,
        PLAIN,
        Terms,
        CreateFile,
        Edit,
        EditOperation,
        Insert,
        NotebookEdit,
        StrReplace,
        refusal,
        whole_text,
        write_refusal,
    )
    from ._grammar import grammar_text
    from ._lower import Change, as_patch
    from ._model import AddFile, Chunk, DeleteFile, HeaderCounts, Operation, Patch, UpdateFile
    from ._operations import OPERATION_TYPES, item_field, printable, read_operation, to_operation
    from ._parse import parse_patch
    from ._placeholders import introduced_placeholders, omission_placeholders
    from ._format import Format
    from ._registry import CHOICES, FORMATS, detected_format, format_named
    from ._reply import CODEX_KIND, ReplyPart, reply_parts
    from ._search_replace import SEARCH, parse_search_replace
    from ._stream import LineRead, PartialOperation, PartialPatch, PartialReader, parse_partial
    from ._syntax_hints import FORMAT_GUESSES, cut, looks_like_shell, quoted
    from ._unidiff import FileDiff, Hunk, Line, parse_unified_diff
    from ._unified import DiffChanges, FileChange, change_operations, read_changes, unified_operations
    from . import _constants as constants, _hashline as hashline, _shell as shell, _str_replace as str_replace

_NAMES = {
    "is_apply_patch": "._argv",
    "liberal_arguments": "._argv",
    "liberal_script": "._argv",
    "program_name": "._argv",
    "ApplyPatchCall": "._classify",
    "BrokenApplyPatchCall": "._classify",
    "Classification": "._classify",
    "ImplicitPatch": "._classify",
    "NotApplyPatch": "._classify",
    "classify_argv": "._classify",
    "WHITESPACE": "._constants",
    "CreateFile": "._edits",
    "Edit": "._edits",
    "EditOperation": "._edits",
    "Insert": "._edits",
    "NotebookEdit": "._edits",
    "StrReplace": "._edits",
    "PLAIN": "._edits",
    "Terms": "._edits",
    "refusal": "._edits",
    "whole_text": "._edits",
    "write_refusal": "._edits",
    "grammar_text": "._grammar",
    "HashlineEdits": "._edits",
    "as_patch": "._lower",
    "AddFile": "._model",
    "Change": "._lower",
    "Chunk": "._model",
    "DeleteFile": "._model",
    "HeaderCounts": "._model",
    "Operation": "._model",
    "Patch": "._model",
    "UpdateFile": "._model",
    "OPERATION_TYPES": "._operations",
    "item_field": "._operations",
    "printable": "._operations",
    "read_operation": "._operations",
    "to_operation": "._operations",
    "parse_patch": "._parse",
    "introduced_placeholders": "._placeholders",
    "omission_placeholders": "._placeholders",
    "CODEX_KIND": "._reply",
    "ReplyPart": "._reply",
    "detected_format": "._registry",
    "CHOICES": "._registry",
    "FORMATS": "._registry",
    "format_named": "._registry",
    "Format": "._format",
    "reply_parts": "._reply",
    "SEARCH": "._search_replace",
    "parse_search_replace": "._search_replace",
    "LineRead": "._stream",
    "PartialOperation": "._stream",
    "PartialPatch": "._stream",
    "PartialReader": "._stream",
    "parse_partial": "._stream",
    "FORMAT_GUESSES": "._syntax_hints",
    "cut": "._syntax_hints",
    "looks_like_shell": "._syntax_hints",
    "quoted": "._syntax_hints",
    "FileDiff": "._unidiff",
    "Hunk": "._unidiff",
    "Line": "._unidiff",
    "parse_unified_diff": "._unidiff",
    "DiffChanges": "._unified",
    "FileChange": "._unified",
    "read_changes": "._unified",
    "change_operations": "._unified",
    "unified_operations": "._unified",
}
_MODULES = {
    "constants": "._constants",
    "hashline": "._hashline",
    "shell": "._shell",
    "str_replace": "._str_replace",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES` (a module of `_MODULES`), imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, _MODULES, name)


# (Every name is written twice: in the imports above, for the type checker, and in the table
# that imports it when first asked for; `__all__` is the table's.)
__all__ = sorted([*_NAMES, *_MODULES])
