"""Applying: a parsed patch + a tree → a plan in memory → one commit, all or nothing.

In parts, top to bottom (each imports only itself and the parts below it):
the pipeline here (`_pipeline`, `_edit_pipeline`, `_streaming`: plan → commit →
result); `disk` (the commit: the only code that writes); `records` (the journal's and
receipts' records and how they are read back, the review gate's records); `planning`
(paths, reads, decoding, the plan in memory, reports); `syntax` (the syntax check and
outlines); `matching` (where an edit lands: pure, no I/O, no path objects). This
module names what the parts offer the rest of the package, each imported on first use.
"""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .planning import FolderChanged
    from .planning import MAX_FILE_BYTES, DiskTree
    from .matching import PatchWarning
    from ._edit_pipeline import apply_operations
    from .planning import LineReader, NotText
    from .matching import place
    from .matching import CELL_TYPES, MODES
    from .syntax import OUTLINE_BYTES, outline
    from .planning import Location, is_windows_absolute
    from ._pipeline import ApplyResult, FileResult, Replay, apply_patch, apply_to_mapping, undo
    from .planning import OperationResult, decode_file, file_encoding, file_text
    from .records import Unavailable, base_folder
    from .records import BadRecord, Staged, Taken, Waiting, claim, pending, pending_matching, state_hash
    from .records import Receipt, history, list_receipts, show, show_receipt
    from .disk import KEEP_ALL_BYTES, KEEP_DAYS, Pruned, sweep, drop_claimed, stage
    from .planning import RepairRequest
    from .planning import (
        MAX_CHARACTERS,
        NOTHING_CHANGED,
        SCHEMA,
        bounded,
        error_json,
        failure,
        not_shown,
        result_json,
        warnings_text,
    )
    from .matching import LineIndex
    from .records import Seen
    from ._streaming import StreamingPlan, Verdict
    from .matching import BOM, TextFile, common_ends, split_text
    from .planning import FileNames, FileState, Kind, Tree, hidden
    from .._errors import PolicyValueError
    from .._policy import CODEX, DEFAULT, Policy
    from .disk import signals

_NAMES = {
    "signals": ".disk",
    "StreamingPlan": "._streaming",
    "Verdict": "._streaming",
    "FolderChanged": ".planning",
    "OUTLINE_BYTES": ".syntax",
    "RepairRequest": ".planning",
    "outline": ".syntax",
    "DiskTree": ".planning",
    "FileNames": ".planning",
    "MAX_FILE_BYTES": ".planning",
    "LineReader": ".planning",
    "NotText": ".planning",
    "PatchWarning": ".matching",
    "apply_operations": "._edit_pipeline",
    "place": ".matching",
    "CELL_TYPES": ".matching",
    "MODES": ".matching",
    "Location": ".planning",
    "is_windows_absolute": ".planning",
    "ApplyResult": "._pipeline",
    "FileResult": "._pipeline",
    "Replay": "._pipeline",
    "apply_patch": "._pipeline",
    "apply_to_mapping": "._pipeline",
    "undo": "._pipeline",
    "Receipt": ".records",
    "history": ".records",
    "show": ".records",
    "BadRecord": ".records",
    "Staged": ".records",
    "Taken": ".records",
    "Waiting": ".records",
    "claim": ".records",
    "state_hash": ".records",
    "Unavailable": ".records",
    "list_receipts": ".records",
    "show_receipt": ".records",
    "KEEP_ALL_BYTES": ".disk",
    "KEEP_DAYS": ".disk",
    "Pruned": ".disk",
    "sweep": ".disk",
    "base_folder": ".records",
    "pending": ".records",
    "pending_matching": ".records",
    "stage": ".disk",
    "drop_claimed": ".disk",
    "OperationResult": ".planning",
    "decode_file": ".planning",
    "file_encoding": ".planning",
    "file_text": ".planning",
    "MAX_CHARACTERS": ".planning",
    "NOTHING_CHANGED": ".planning",
    "SCHEMA": ".planning",
    "bounded": ".planning",
    "error_json": ".planning",
    "failure": ".planning",
    "not_shown": ".planning",
    "result_json": ".planning",
    "warnings_text": ".planning",
    "LineIndex": ".matching",
    "Seen": ".records",
    "BOM": ".matching",
    "TextFile": ".matching",
    "common_ends": ".matching",
    "split_text": ".matching",
    "FileState": ".planning",
    "Kind": ".planning",
    "Tree": ".planning",
    "hidden": ".planning",
    "PolicyValueError": ".._errors",
    "CODEX": ".._policy",
    "DEFAULT": ".._policy",
    "Policy": ".._policy",
}
_MODULES: dict[str, str] = {}


def __getattr__(name: str) -> object:
    """A name of `_NAMES` (a module of `_MODULES`), imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, _MODULES, name)


__all__ = [
    "ApplyResult", "BOM", "KEEP_ALL_BYTES", "KEEP_DAYS", "Pruned", "base_folder", "list_receipts",
    "show_receipt", "sweep", "CELL_TYPES", "MODES", "CODEX", "DEFAULT", "DiskTree", "FileNames", "FileResult", "FileState",
    "FolderChanged", "Kind", "LineIndex", "LineReader", "Location", "MAX_CHARACTERS",
    "MAX_FILE_BYTES", "NOTHING_CHANGED", "NotText", "OUTLINE_BYTES", "OperationResult",
    "PatchWarning", "Policy", "PolicyValueError", "Receipt", "RepairRequest", "Replay",
    "BadRecord", "drop_claimed", "SCHEMA", "Seen", "Staged", "StreamingPlan", "Verdict", "Taken", "Waiting", "TextFile", "Tree", "Unavailable", "apply_operations",
    "apply_patch", "apply_to_mapping", "bounded", "claim", "common_ends", "decode_file",
    "error_json", "failure", "file_encoding", "file_text", "hidden", "history",
    "is_windows_absolute", "not_shown", "outline", "pending_matching", "pending", "result_json", "show", "signals",
    "split_text", "stage", "state_hash", "undo", "place", "warnings_text",
]
