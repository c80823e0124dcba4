"""Making patches: two texts or trees → a patch; a unified diff → a patch."""

from ._convert import convert_unified_diff
from .._errors import BinaryFileError, UnsupportedChangeError
from ._make import make_patch
from .._errors import UnifiedDiffError

__all__ = ["BinaryFileError", "UnifiedDiffError", "UnsupportedChangeError", "convert_unified_diff", "make_patch"]
