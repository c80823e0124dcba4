"""Syntax: the tree-sitter grammars, a patch's changed files checked for the syntax
errors it brings in, and a file's outline (pure but for loading a grammar)."""

from __future__ import annotations

from ..._lazy import on_first_use
from ._languages import language_of_content

# Imported when one of their names is first asked for (start-up time): names written once, here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._outline import outline, OUTLINE_BYTES
    from ._syntax import check_files, refusal, warnings_of

__getattr__ = on_first_use(__name__, globals(), ("._outline", "._syntax"))
