"""Making patches: two texts or trees → a patch; a unified diff → a patch."""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._convert import ConvertOptions, convert, convert_unified_diff, reader_of
    from ._folder_files import FolderFiles, VCS_FOLDERS, read_folder
    from ._make import Options, TreeDiff, diff_trees, make_patch
    from .._errors import BinaryFileError, UnifiedDiffError, UnsupportedChangeError

_NAMES = {
    "ConvertOptions": "._convert",
    "convert": "._convert",
    "convert_unified_diff": "._convert",
    "reader_of": "._convert",
    "FolderFiles": "._folder_files",
    "VCS_FOLDERS": "._folder_files",
    "read_folder": "._folder_files",
    "Options": "._make",
    "TreeDiff": "._make",
    "diff_trees": "._make",
    "make_patch": "._make",
    "BinaryFileError": ".._errors",
    "UnifiedDiffError": ".._errors",
    "UnsupportedChangeError": ".._errors",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES`, imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, {}, name)


__all__ = [
    "BinaryFileError", "ConvertOptions", "FolderFiles", "Options", "TreeDiff",
    "UnifiedDiffError", "UnsupportedChangeError", "VCS_FOLDERS", "convert",
    "convert_unified_diff", "diff_trees", "make_patch", "read_folder", "reader_of",
]
