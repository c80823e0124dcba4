"""Applying: a parsed patch + a tree → a plan in memory → one commit, all or nothing.

The plan reads (paths, text files, seek, locate, diagnose) and writes nothing;
`_commit` is the only module that writes to disk.
"""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._dirs import FolderChanged
    from ._disk_tree import MAX_FILE_BYTES, DiskTree
    from ._doubts import PatchWarning
    from ._edit_pipeline import apply_operations
    from ._lines import LineReader, NotText
    from ._locate import update_lines
    from ._notebook import CELL_TYPES, MODES
    from ._outline import OUTLINE_BYTES, outline
    from ._paths import Location, is_windows_absolute
    from ._pipeline import ApplyResult, FileResult, Replay, apply_patch, apply_to_mapping, undo
    from ._plan import OperationResult, decode_file, file_encoding, file_text
    from ._receipts import Unavailable, base_folder
    from ._pending import BadRecord, Staged, Taken, Waiting, claim, pending, stage, state_hash
    from ._receipts_read import Receipt, history, list_receipts, show, show_receipt
    from ._sweep import KEEP_ALL_BYTES, KEEP_DAYS, Pruned, sweep
    from ._repair import RepairRequest
    from ._report import (
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
    from ._seek import LineIndex
    from ._seen import Seen
    from ._streaming import StreamingPlan, Verdict
    from ._written_names import FileNames, the_one
    from ._textfile import BOM, TextFile, common_ends, split_text
    from ._tree import FileState, Kind, Tree, hidden
    from .._errors import PolicyValueError
    from .._policy import CODEX, DEFAULT, Policy
    from . import _signals as signals

_NAMES = {
    "StreamingPlan": "._streaming",
    "Verdict": "._streaming",
    "FolderChanged": "._dirs",
    "OUTLINE_BYTES": "._outline",
    "RepairRequest": "._repair",
    "outline": "._outline",
    "DiskTree": "._disk_tree",
    "FileNames": "._written_names",
    "the_one": "._written_names",
    "MAX_FILE_BYTES": "._disk_tree",
    "LineReader": "._lines",
    "NotText": "._lines",
    "PatchWarning": "._doubts",
    "apply_operations": "._edit_pipeline",
    "update_lines": "._locate",
    "CELL_TYPES": "._notebook",
    "MODES": "._notebook",
    "Location": "._paths",
    "is_windows_absolute": "._paths",
    "ApplyResult": "._pipeline",
    "FileResult": "._pipeline",
    "Replay": "._pipeline",
    "apply_patch": "._pipeline",
    "apply_to_mapping": "._pipeline",
    "undo": "._pipeline",
    "Receipt": "._receipts_read",
    "history": "._receipts_read",
    "show": "._receipts_read",
    "BadRecord": "._pending",
    "Staged": "._pending",
    "Taken": "._pending",
    "Waiting": "._pending",
    "claim": "._pending",
    "state_hash": "._pending",
    "Unavailable": "._receipts",
    "list_receipts": "._receipts_read",
    "show_receipt": "._receipts_read",
    "KEEP_ALL_BYTES": "._sweep",
    "KEEP_DAYS": "._sweep",
    "Pruned": "._sweep",
    "sweep": "._sweep",
    "base_folder": "._receipts",
    "pending": "._pending",
    "stage": "._pending",
    "OperationResult": "._plan",
    "decode_file": "._plan",
    "file_encoding": "._plan",
    "file_text": "._plan",
    "MAX_CHARACTERS": "._report",
    "NOTHING_CHANGED": "._report",
    "SCHEMA": "._report",
    "bounded": "._report",
    "error_json": "._report",
    "failure": "._report",
    "not_shown": "._report",
    "result_json": "._report",
    "warnings_text": "._report",
    "LineIndex": "._seek",
    "Seen": "._seen",
    "BOM": "._textfile",
    "TextFile": "._textfile",
    "common_ends": "._textfile",
    "split_text": "._textfile",
    "FileState": "._tree",
    "Kind": "._tree",
    "Tree": "._tree",
    "hidden": "._tree",
    "PolicyValueError": ".._errors",
    "CODEX": ".._policy",
    "DEFAULT": ".._policy",
    "Policy": ".._policy",
}
_MODULES = {
    "signals": "._signals",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES` (a module of `_MODULES`), imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, _MODULES, name)


__all__ = [
    "ApplyResult", "BOM", "KEEP_ALL_BYTES", "KEEP_DAYS", "Pruned", "base_folder", "list_receipts",
    "show_receipt", "sweep", "CELL_TYPES", "MODES", "CODEX", "DEFAULT", "DiskTree", "FileNames", "the_one", "FileResult", "FileState",
    "FolderChanged", "Kind", "LineIndex", "LineReader", "Location", "MAX_CHARACTERS",
    "MAX_FILE_BYTES", "NOTHING_CHANGED", "NotText", "OUTLINE_BYTES", "OperationResult",
    "PatchWarning", "Policy", "PolicyValueError", "Receipt", "RepairRequest", "Replay",
    "BadRecord", "SCHEMA", "Seen", "Staged", "StreamingPlan", "Verdict", "Taken", "Waiting", "TextFile", "Tree", "Unavailable", "apply_operations",
    "apply_patch", "apply_to_mapping", "bounded", "claim", "common_ends", "decode_file",
    "error_json", "failure", "file_encoding", "file_text", "hidden", "history",
    "is_windows_absolute", "not_shown", "outline", "pending", "result_json", "show", "signals",
    "split_text", "stage", "state_hash", "undo", "update_lines", "warnings_text",
]
