"""Applying: a parsed patch + a tree → a plan in memory → one commit, all or nothing.

The plan reads (paths, text files, seek, locate, diagnose) and writes nothing;
`_commit` is the only module that writes to disk.
"""

from .._lazy import exports

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._disk_tree import DiskTree
    from ._doubts import PatchWarning
    from ._edit_pipeline import apply_operations
    from ._locate import update_lines
    from ._paths import Location, is_windows_absolute
    from ._pipeline import ApplyResult, FileResult, Replay, apply_patch, apply_to_mapping
    from ._plan import OperationResult, decode_file, file_text
    from ._report import SCHEMA, NOTHING_CHANGED, error_json, failure, result_json, warnings_text
    from ._seek import LineIndex
    from ._textfile import BOM, TextFile, common_ends, split_text
    from ._tree import FileState, Kind, Tree
    from ._unified import unified_operations
    from .._errors import PolicyValueError
    from .._policy import CODEX, DEFAULT, Policy
    from . import _signals as signals

_NAMES = {
    "DiskTree": "._disk_tree",
    "PatchWarning": "._doubts",
    "apply_operations": "._edit_pipeline",
    "update_lines": "._locate",
    "Location": "._paths",
    "is_windows_absolute": "._paths",
    "ApplyResult": "._pipeline",
    "FileResult": "._pipeline",
    "Replay": "._pipeline",
    "apply_patch": "._pipeline",
    "apply_to_mapping": "._pipeline",
    "OperationResult": "._plan",
    "decode_file": "._plan",
    "file_text": "._plan",
    "NOTHING_CHANGED": "._report",
    "SCHEMA": "._report",
    "error_json": "._report",
    "failure": "._report",
    "result_json": "._report",
    "warnings_text": "._report",
    "LineIndex": "._seek",
    "BOM": "._textfile",
    "TextFile": "._textfile",
    "common_ends": "._textfile",
    "split_text": "._textfile",
    "FileState": "._tree",
    "Kind": "._tree",
    "Tree": "._tree",
    "unified_operations": "._unified",
    "PolicyValueError": ".._errors",
    "CODEX": ".._policy",
    "DEFAULT": ".._policy",
    "Policy": ".._policy",
}
_MODULES = {
    "signals": "._signals",
}
__getattr__ = exports(__name__, globals(), _NAMES, _MODULES)

__all__ = [
    "ApplyResult", "BOM", "CODEX", "DEFAULT", "DiskTree", "FileResult", "FileState", "Kind",
    "LineIndex", "Location", "NOTHING_CHANGED", "SCHEMA", "OperationResult", "PatchWarning", "Policy",
    "PolicyValueError", "Replay", "TextFile", "Tree", "apply_operations", "apply_patch",
    "apply_to_mapping", "common_ends", "decode_file", "error_json", "failure", "file_text", "is_windows_absolute",
    "result_json", "signals", "split_text", "unified_operations", "update_lines", "warnings_text",
]
