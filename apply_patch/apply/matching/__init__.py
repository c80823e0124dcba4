"""Matching: where an edit lands in a file's text and the text it leaves (pure).

No I/O and no path objects: a file is its text and its name (`FileName`), an edit is
the model's operation; the answer is the new text and where each edit landed, or a
`PatchError` naming the place in the patch and the file.
"""

from __future__ import annotations

from ..._lazy import on_first_use
from ._endings import ENDINGS, forced_ending
from ._names import FileName
from ._textfile import BOM, common_ends, split_text, TextFile

# Imported when one of their names is first asked for (start-up time): names written once, here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._locate import locate, searched
    from ._placement import Placement
    from ._doubts import PatchWarning
    from ._seek import LineIndex
    from ._deferred import Deferred, DEFERRED_FROM
    from ._place import place, Strategy, STRATEGIES
    from ._text import as_lines, decode, Decoded, encode, LfText
    from ._notebook import CELL_TYPES, edit_notebook, MODES, text_edit_refusal
    from ._diagnose import prepare_refusals

__getattr__ = on_first_use(
    __name__, globals(),
    ("._locate", "._placement", "._doubts", "._seek", "._deferred", "._place", "._text", "._notebook", "._diagnose"),
)
