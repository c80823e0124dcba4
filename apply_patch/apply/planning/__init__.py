"""Planning: a patch and a tree → a plan in memory (paths resolved and confined, files
read through folder descriptors and decoded, edits placed by `matching`, results
reported); writes nothing."""

from __future__ import annotations

from ..._lazy import on_first_use
from ._dirs import FolderChanged, Folders
from ._disk_tree import DiskTree, MAX_FILE_BYTES, read_all
from ._edit_plan import make_plan
from ._paths import is_windows_absolute, JOURNAL, Location
from ._plan import (
    decode_file, file_encoding, file_pairs, file_text, FileChange, OperationResult, Plan, Planner,
    prepare_refusals,
)
from ._report import (
    bounded, DRY_RUN_HEADER, error_json, failure, MAX_CHARACTERS, not_shown, NOTHING_CHANGED,
    result_json, SCHEMA, SUCCESS_HEADER, summary, unified_diff, warnings_text, without_content,
)
from ._tree import FileState, hidden, Kind, Tree

# Imported when one of their names is first asked for (start-up time): names written once, here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._lines import LineReader, NotText
    from ._overlay_tree import OverlayTree
    from ._written_names import FileNames
    from ._memory_tree import MemoryTree, normalise
    from ._repair import Repair, ask, corrected, Failure, failure_of, refusal, RepairRequest, Unfound, warning

__getattr__ = on_first_use(__name__, globals(), ("._lines", "._memory_tree", "._repair", "._overlay_tree", "._written_names"))
