"""The registry of edit formats: one record each (`Format`, made by the format's own
module), in the order detection tries them (pure).

Detection (`--format auto`, `apply_reply` for a text that is one patch), `--format`'s
choices, a reply's parts (their readers and names) and the command line's hints
(`cli/_advice`) iterate `FORMATS`; none of them names a format itself.
"""

from __future__ import annotations

from ._codex import FORMAT as CODEX
from ._hashline import FORMAT as HASHLINE
from ._operations import FORMAT as NATIVE_OPERATIONS
from ._search_replace import FORMAT as SEARCH_REPLACE
from ._str_replace import FORMAT as STR_REPLACE
from ._unified import FORMAT as UNIFIED_DIFF

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._format import Format

# On each line, the markers are tried in this order: Cline's `--- SEARCH` is a SEARCH
# marker before it is a unified diff's `--- path`.
FORMATS: Final = (CODEX, SEARCH_REPLACE, UNIFIED_DIFF, HASHLINE, STR_REPLACE, NATIVE_OPERATIONS)
CHOICES: Final = tuple(f.name for f in FORMATS if f.choice)  # the formats `--format` names (and `auto`)


def format_named(name: str) -> Format:
    """The format whose name is `name`; KeyError if none is."""
    for known in FORMATS:
        if known.name == name:
            return known
    raise KeyError(name)


def detected_format(text: str) -> str:
    """The format of `text` read as one input: the first whose whole-text test says so
    (Hashline's JSON, or oh-my-pi's v4 text to be refused in its words), else the one
    whose marker line comes first (the formats tried in `FORMATS` order on each line),
    else codex."""
    for known in FORMATS:
        if known.whole is not None and known.whole(text):
            return known.name
    markers = [(known.name, known.marker) for known in FORMATS if known.marker is not None]
    for line in text.splitlines():
        for name, marker in markers:
            if marker.fullmatch(line):
                return name
    return CODEX.name
