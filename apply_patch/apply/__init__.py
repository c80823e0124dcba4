"""Applying: a parsed patch + a tree → a plan in memory → one commit, all or nothing.

The plan reads (paths, text files, seek, locate, diagnose) and writes nothing;
`_commit` is the only module that writes to disk.
"""

from ._pipeline import ApplyResult, FileResult, apply_patch, apply_to_mapping
from ._policy import CODEX, DEFAULT, Policy
from .._errors import PolicyValueError

__all__ = ["CODEX", "DEFAULT", "ApplyResult", "FileResult", "Policy", "PolicyValueError", "apply_patch", "apply_to_mapping"]
