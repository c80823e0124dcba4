"""A model's whole reply → its SEARCH/REPLACE blocks (Aider's, Reasonix's and Cline's format), as edits.

A block is three marker lines, each starting its line (leading characters
make it content, so a file holding a marker indented or after text is safe;
spaces after a marker are ignored):

    path/to/file.py
    <<<<<<< SEARCH          (5 to 9 `<`)
    lines the file has
    =======                 (5 to 9 `=`)
    lines to put instead
    >>>>>>> REPLACE         (5 to 9 `>`)

A block opened by Cline's marker is read by Cline's rules: `------- SEARCH`,
`=======`, `+++++++ REPLACE` (or `>>>>>>> REPLACE`), each 3 or more characters.

The file's path is written, as Aider reads it, on the line right above the
block or above its opening fence (blank lines skipped), or on a fence: the
last word of a fence's info string that looks like a path (```` ```python
app/main.py ````), or a line of its own in a fence above the block's fence
(as Deepseek writes it); going up, past fence lines only, at most 3 lines.
A line is a name when it is one word once Markdown decoration (`` ` ``, `*`,
`#`, quotes, a final `:`) is removed, and not prose (`...`, `Then.`, `Here:`).
A word with a separator, an extension or a dotfile name is a path; a bare
word (`Makefile`) only names a file that exists (`names` says, when a root is
known). A block with no name above it takes the previous block's path
(several blocks in one fence). Fences are optional; prose between blocks is
ignored. An empty SEARCH part creates the file (`CreateFile`). The SEARCH and
REPLACE parts are whole lines.

The format's record (`FORMAT`): a line that is a SEARCH marker detects it; each edit
carries its words (`Terms`: "the REPLACE part of the SEARCH block at line 14", "its
SEARCH part", "block") and lets the planner undo a reply's slips (`Terms.slips`: a
mangled file name, a blank first SEARCH line).
"""

from __future__ import annotations

import re

from .._errors import SearchReplaceError
from ._edits import CreateFile, StrReplace, Terms
from ._format import Format

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

    from ._format import Names

SEARCH: Final = re.compile(r"(?:<{5,9}|-{3,}) SEARCH>?[ \t]*")  # Aider's, or Cline's
DIVIDER: Final = re.compile(r"={5,9}[ \t]*")
REPLACE: Final = re.compile(r">{5,9} REPLACE[ \t]*")
_CLINE_DIVIDER: Final = re.compile(r"={3,}[ \t]*")
_CLINE_REPLACE: Final = re.compile(r"(?:\+{3,}|>{3,}) REPLACE>?[ \t]*")
# The divider and closing marker of a block, by the first character of its opening marker,
# each with the name errors give it.
_CLOSING: Final = {
    "<": ((DIVIDER, "======="), (REPLACE, ">>>>>>> REPLACE")),
    "-": ((_CLINE_DIVIDER, "======="), (_CLINE_REPLACE, "+++++++ REPLACE")),
}
_MARKERS: Final = (SEARCH, DIVIDER, REPLACE, _CLINE_DIVIDER, _CLINE_REPLACE)
_FENCE: Final = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*(.*)")
_DECORATION: Final = "`*#'\" \t"
_NAME: Final = re.compile(r"[\w./\\+@~-]+")  # the characters of a file name models write
_EXTENSION: Final = re.compile(r"[^./\\]\.[A-Za-z0-9_+-]+$")
_DOTFILE: Final = re.compile(r"\.[\w.+-]*\w")
_LOOKED: Final = 3  # non-blank lines looked at above a block (Aider looks at 3)


def parse_search_replace(text: str, *, names: Names | None = None) -> list[StrReplace | CreateFile]:
    """The edits of every SEARCH/REPLACE block of `text`, in order.

    `names(written, line, mangled)` says which file of the root a name written
    in the reply means: itself if it names a file, else (when `mangled`: the
    block edits a file, which must exist) the one file it is a mangled name of,
    else None; without it, a bare
    word alone on its line (`Makefile`) is taken as written and a path that
    names no file stays as written. Raises SearchReplaceError when a block is
    not closed, has no path, or when `text` holds no block at all.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    edits: list[StrReplace | CreateFile] = []
    path: str | None = None
    index = 0
    while index < len(lines):
        if not SEARCH.fullmatch(lines[index]):
            index += 1
            continue
        start = index
        (divider_marker, divider_name), (replace_marker, replace_name) = _CLOSING[lines[start][0]]
        divider = _find(lines, start + 1, (divider_marker, divider_name), replace_marker, start)
        end = _find(lines, divider + 1, (replace_marker, replace_name), None, start)
        old, new = lines[start + 1 : divider], lines[divider + 1 : end]
        path = _block_path(lines, start, edits=bool(old), names=names) or path
        if path is None:
            raise SearchReplaceError(
                "no file path before it (write the path alone on the line above the block, "
                "or in the fence: ```python path/to/file.py)",
                line=start + 1,
            )
        label = f"the SEARCH block at line {start + 1}"
        if not old:
            label = f"the empty SEARCH block at line {start + 1}"
            edits.append(CreateFile(path, _joined(new), line=start + 1, label=label))
        else:
            terms = Terms(new=f"the REPLACE part of {label}", old="its SEARCH part", noun="block", slips=True)
            edits.append(StrReplace(path, _joined(old), _joined(new), line=start + 1, label=label, terms=terms))
        index = end + 1
    if not edits:
        raise SearchReplaceError(
            "the text holds no block (a line '<<<<<<< SEARCH', the old lines, '=======', "
            "the new lines, '>>>>>>> REPLACE')"
        )
    return edits


def _joined(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _find(
    lines: list[str], start: int, wanted: tuple[re.Pattern[str], str], stop: re.Pattern[str] | None, block: int
) -> int:
    """The index of the first line from `start` that is the marker `wanted` (its pattern, its
    name in the error); SearchReplaceError if a SEARCH marker, or a line `stop` matches,
    comes first, or none does (`block`: the index of the block's opening marker)."""
    marker, name = wanted
    for index in range(start, len(lines)):
        if marker.fullmatch(lines[index]):
            return index
        if SEARCH.fullmatch(lines[index]) or (stop is not None and stop.fullmatch(lines[index])):
            break
    raise SearchReplaceError(
        f"the block that starts here has no '{name}' line (markers must start their line)",
        line=block + 1,
    )


def _block_path(lines: list[str], start: int, *, edits: bool, names: Names | None) -> str | None:
    """The path written for the block at `start` (see the module), or None.

    `edits`: the block changes an existing file (a non-empty SEARCH part), so
    a written path that names no file may be a mangled name of one.
    """
    for written, sure in _written_names(lines, start):
        if sure:
            found = names(written, start + 1, True) if names is not None and edits else None
            return found or written
        # A bare word (no dot, no slash) is a name only if it names a file, when a root is known.
        found = written if names is None else names(written, start + 1, edits)
        if found is not None:
            return found
    return None


def _written_names(lines: list[str], start: int) -> list[tuple[str, bool]]:
    """The names written above the block at `start`, nearest first, each with whether it
    looks like a path (`sure`) or is a bare word.

    Looked at: the non-blank lines right above the block, going up past fence
    lines only (a fence's info string may hold the path; Deepseek writes the
    path in a fence of its own above the block's fence), at most `_LOOKED` of them.
    """
    names: list[tuple[str, bool]] = []
    index = start - 1
    for _ in range(_LOOKED):
        while index >= 0 and not lines[index].strip():
            index -= 1
        if index < 0 or any(m.fullmatch(lines[index]) for m in _MARKERS):
            break
        fence = _FENCE.fullmatch(lines[index])
        if fence is None:
            word = _line_name(lines[index])
            if word is not None:
                names.append((word, _looks_like_path(word)))
            break
        names += [(w, True) for w in reversed(fence.group(2).split()) if _looks_like_path(w)]
        index -= 1
    return names


def _line_name(line: str) -> str | None:
    """The one word of `line` that may be a file name, Markdown decoration removed, or None.

    Prose is not a name: several words, a word ending a sentence (`Then.`),
    punctuation alone (`...`), a bare word followed by a colon (`Here:`).
    """
    bare = line.strip().strip(_DECORATION)
    word = bare.removesuffix(":").strip(_DECORATION)
    if not _NAME.fullmatch(word) or word.endswith(".") or not any(c.isalnum() for c in word):
        return None
    return word if _looks_like_path(word) or word == bare else None


def _looks_like_path(word: str) -> bool:
    """A word with a separator, an extension (`app.py`) or a dotfile name (`.gitignore`);
    a word without is a language in a fence's info string (`python`) or a bare name."""
    if word.startswith("{"):  # ```{python} (an attribute list)
        return False
    return "/" in word or "\\" in word or bool(_EXTENSION.search(word)) or bool(_DOTFILE.fullmatch(word))


def read(text: str, names: Names | None = None) -> list[StrReplace | CreateFile]:
    """The registry's reader: `parse_search_replace`."""
    return parse_search_replace(text, names=names)


FORMAT: Final = Format(
    "search-replace",
    "SEARCH/REPLACE blocks",
    "SEARCH/REPLACE blocks",
    marker=SEARCH,
    sign=re.compile(r"<{5,9} SEARCH>?[ \t]*$", re.M),
    hint="The input holds SEARCH/REPLACE blocks ('<<<<<<< SEARCH' lines): apply "
    "them with --format search-replace (or --format auto).",
    read=read,
    calls=True,
)
