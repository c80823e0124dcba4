"""Definition lines (def, class, function...) and the one enclosing a run of lines.

A heuristic over common languages: a line is a definition when, after its
indentation and optional modifiers (`pub`, `export`, `async`, `static`...),
it starts with a keyword that opens one (`def`, `class`, `fn`, `func`,
`function`, `interface`, `struct`, `impl`, `module`...). C-style function
signatures without such a keyword are not recognised.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

_MODIFIERS: Final = (
    r"(?:(?:export|default|public|private|protected|internal|static|final|abstract|async|"
    r"override|virtual|sealed|partial|unsafe|extern|inline|open|suspend|pub(?:\([\w\s:]*\))?)"
    r"\s+)*"
)
# A keyword, then a space and something that is not an assignment or a call
# (`class Foo:`, `def f(`, `impl<T>`, `function (`, but not `type = 3`).
_KEYWORD: Final = (
    r"(?:(?:def|class|fn|func|fun|function\*?|interface|struct|enum|trait|impl|module|"
    r"namespace|object|record|protocol|extension|mod|sub|proc|type)\s+[^\s=:,.)\]}]"
    r"|(?:function\*?|impl)\s*[(<])"
)
DEFINITION: Final = re.compile(r"[ \t]*" + _MODIFIERS + _KEYWORD)


def is_definition(line: str) -> bool:
    """Whether `line` opens a def, class, function or similar block."""
    return DEFINITION.match(line) is not None


def indentation(line: str) -> int:
    """The number of leading spaces and tabs."""
    return len(line) - len(line.lstrip(" \t"))


def enclosing_definition(lines: Sequence[str], start: int, stop: int, inner: int) -> int | None:
    """The index of the nearest definition above `start` that encloses indentation `inner`.

    Looks at `lines[stop:start]` from the bottom up. Each non-blank line less
    indented than what it encloses is either the definition sought, or (an
    `if`, a `for`...) the next thing to find the enclosing definition of.
    """
    for index in range(start - 1, stop - 1, -1):
        line = lines[index]
        if not line.strip() or indentation(line) >= inner:
            continue
        if is_definition(line):
            return index
        inner = indentation(line)
        if inner == 0:
            return None
    return None
