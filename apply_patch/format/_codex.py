"""The Codex envelope as a format (`*** Begin Patch` … `*** End Patch`): its record.

The envelope's reader is Lark's parser of `grammar/apply_patch.lark` (`_parse`, the
one reader; `_unwrap` before it, `_stream` for a patch still streaming), the model it
reads into is `_model`; here are its detection (the `*** Begin Patch` line), its
command-line hint and its reader as the registry calls it. Imported without Lark:
Lark is imported when a patch is read.
"""

from __future__ import annotations

import re

from ._format import Format

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from ._edits import Edit
    from ._format import Names
    from ._model import Operation


def read(text: str, names: Names | None = None) -> Sequence[Operation | Edit]:
    """The operations of the Codex patch `text` (`parse_patch`; `names` unused)."""
    from ._parse import parse_patch  # Lark: imported when a patch is read (start-up time)

    return parse_patch(text).operations


FORMAT: Final = Format(
    "codex",
    "patch",
    "a Codex patch",
    marker=re.compile(r"\s*\*\*\* Begin Patch\s*"),
    sign=re.compile(r"[ \t]*\*\*\* Begin Patch[ \t]*$", re.M),
    hint="The input is a Codex patch (it has a '*** Begin Patch' line): apply it with "
    "--format codex (the default) or --format auto.",
    read=read,
)
