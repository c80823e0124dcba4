"""A repository's conventions for a new file: `.editorconfig` and `.gitattributes` (pure).

What a new file (Add File, CreateFile, the text editor's `create`) takes from
the files the repository declares its conventions in, looked up from the new
file's folder up to the root and never above it:

- `.editorconfig`: `end_of_line` (lf, crlf, cr), `insert_final_newline` (true:
  the text ends with a line break; false: it does not), `charset` (utf-8,
  utf-8-bom, latin1, utf-16le, utf-16be). Sections match by the EditorConfig
  rules (a glob without `/` matches the name in any folder below; `*`, `**`,
  `?`, `[seq]`, `[!seq]`, `{a,b}`, `{1..9}`); within a file the last section
  that sets a property wins; a file with `root = true` ends the lookup.
- `.gitattributes`: `eol=lf|crlf`, `-text`/`binary` (the text stays as
  written), `working-tree-encoding=NAME`; `text` and `text=auto` alone
  declare no ending (the working tree's is core.eol, the user's setting). Patterns as git
  reads them (a pattern without `/` matches the name at any depth); within a
  file the last matching line that sets an attribute wins.

Nearest first: a property declared in a folder closer to the file wins over
one declared further up; in one folder `.gitattributes` (what git checks out)
wins over `.editorconfig`. The reading itself is the caller's (`read`): these
functions see only the texts.

The texts are input someone else wrote: each glob is matched in time linear in the
name (`_glob`), and a section or pattern past one of its bounds is left out and
reported (`Conventions.ignored`, for the caller's warning); a declared charset is
returned as written, for the caller to check (`_policy.character_codec`).
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from ..._errors import EncodingError, check_text
from ..._policy import character_codec
from ..matching import ENDINGS, forced_ending
from ._glob import compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, TypeVar

    _T = TypeVar("_T")

    from ._paths import Location
    from ..._policy import Policy

GIVEN: Final = "given: --encoding"  # where an encoding came from, when the option gave it
EDITORCONFIG: Final = ".editorconfig"
GITATTRIBUTES: Final = ".gitattributes"
# EditorConfig's charset values → (Python codec, byte-order mark written).
_CHARSETS: Final = {
    "utf-8": ("utf-8", False),
    "utf-8-bom": ("utf-8", True),
    "latin1": ("latin-1", False),
    "utf-16le": ("utf-16-le", False),
    "utf-16be": ("utf-16-be", False),
}


@dataclass(frozen=True, slots=True)
class Ignored:
    """A section or pattern of a convention file that was not read: the file (relative to
    the root), its line, and the one-line warning saying why."""

    path: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Conventions:
    """What a new file follows. `ending`: every line break becomes it (None: as written);
    `final_newline`: True ends the text with a line break, False without (None: as
    written); `encoding`: the codec it is written in (None: UTF-8) and `bom` whether a
    byte-order mark goes first; `origin` names, for messages, where each came from (the
    file and its line: `.gitattributes:3`); `ignored` the sections and patterns past a
    bound, left out (the caller warns)."""

    ending: str | None = None
    final_newline: bool | None = None
    encoding: str | None = None
    bom: bool = False
    origin: tuple[tuple[str, str], ...] = ()
    ignored: tuple[Ignored, ...] = ()

    def source(self, what: str) -> str:
        """Where the property `what` ("ending", "final newline", "encoding") was declared, or ""."""
        return next((where for name, where in self.origin if name == what), "")


NONE: Final = Conventions()


def conventions_for(relative: str, read: Callable[[str], str | None]) -> Conventions:
    """The conventions of the new file at `relative` (relative to the root, `/`-separated),
    `read(path)` giving the text of the convention file at `path` (relative to the root)
    or None when there is none. Folders are read from the file's own up to the root."""
    parts = relative.split("/")
    found: dict[str, tuple[object, str]] = {}
    ignored: list[Ignored] = []
    editorconfig_done = False
    for depth in range(len(parts) - 1, -1, -1):
        folder = "/".join(parts[:depth])
        below = "/".join(parts[depth:])  # the file's path from `folder`
        prefix = folder + "/" if folder else ""
        text = read(prefix + GITATTRIBUTES)
        if text is not None:
            values, skipped = _gitattributes(text, below)
            _found(found, ignored, prefix + GITATTRIBUTES, values, skipped)
        if not editorconfig_done:
            text = read(prefix + EDITORCONFIG)
            if text is not None:
                is_root, values, skipped = _editorconfig(text, below)
                _found(found, ignored, prefix + EDITORCONFIG, values, skipped)
                editorconfig_done = is_root
    return _conventions(found, tuple(ignored))


def _found(
    found: dict[str, tuple[object, str]],
    ignored: list[Ignored],
    path: str,
    values: dict[str, tuple[object, int]],
    skipped: tuple[tuple[int, str], ...],
) -> None:
    """What the convention file at `path` says (`values`: name → (value, line)) added to
    `found` where nothing nearer said it; its `skipped` lines (line, why) to `ignored`."""
    for name, (value, line) in values.items():
        found.setdefault(name, (value, f"{path}:{line}"))
    ignored += (Ignored(path, line, f"{path}:{line}: {why}") for line, why in skipped)


def _conventions(found: dict[str, tuple[object, str]], ignored: tuple[Ignored, ...]) -> Conventions:
    """The properties found (name → (value, file and line)) as `Conventions`; unknown values ignored."""
    ending = final = encoding = None
    bom = False
    origin: list[tuple[str, str]] = []
    value, where = found.get("ending", (None, ""))
    if isinstance(value, str) and value in ENDINGS:
        ending = ENDINGS[value]
        origin.append(("ending", where))
    value, where = found.get("final_newline", (None, ""))
    if isinstance(value, bool):
        final = value
        origin.append(("final newline", where))
    value, where = found.get("charset", (None, ""))
    if isinstance(value, str) and value:
        encoding, bom = _CHARSETS.get(value.lower(), (value, False))
        origin.append(("encoding", where))
    return Conventions(ending, final, encoding, bom, tuple(origin), ignored)


# ---------------------------------------------------------------- .editorconfig


def _editorconfig(text: str, below: str) -> tuple[bool, dict[str, tuple[object, int]], tuple[tuple[int, str], ...]]:
    """(whether the file says `root = true`, the properties its sections give the file at
    `below`, relative to the file's folder: "ending", "final_newline", "charset", each with
    the line that set it (a value `unset` drops a property), and the sections ignored, past
    a bound of `_glob`: (their line, why))."""
    is_root, entries = _editorconfig_entries(text)
    values: dict[str, tuple[object, int]] = {}
    matched: dict[str, bool] = {}  # each section's answer for `below`
    skipped: dict[str, tuple[int, str]] = {}
    for section, start, name, lowered, line in entries:
        if section not in matched:
            matcher = _editorconfig_matcher(section)
            if isinstance(matcher, str):
                skipped[section] = (start, f"section [{_cut(section)}] ignored: {matcher}")
            matched[section] = not isinstance(matcher, str) and matcher(below)
        if not matched[section]:
            continue
        if lowered == "unset":
            values.pop(name, None)
        elif name == "final_newline":
            if lowered in ("true", "false"):
                values[name] = (lowered == "true", line)
        else:
            values[name] = (lowered, line)
    return is_root, values, tuple(skipped.values())


def _cut(glob: str) -> str:
    """A glob as a warning quotes it: its first 40 characters."""
    return glob if len(glob) <= 40 else glob[:40] + "..."


_PROPERTIES: Final = {"end_of_line": "ending", "insert_final_newline": "final_newline", "charset": "charset"}


def _editorconfig_entries(text: str) -> tuple[bool, tuple[tuple[str, int, str, str, int], ...]]:
    """An .editorconfig text read once (`_editorconfigs`): whether it says `root = true`, and each
    line setting a property of `_PROPERTIES` in a section, in order, as (section, the
    section's line, property, value in lower case, line). The other lines decide nothing here."""
    cached = _editorconfigs.get(text)
    if cached is not None:
        return cached
    is_root = False
    section: str | None = None
    start = 0
    entries: list[tuple[str, int, str, str, int]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section, start = line[1:-1], number
            continue
        key, equals, value = line.partition("=")
        if not equals:
            continue
        key, value = key.strip().lower(), value.strip()
        if section is None:
            is_root = is_root or (key == "root" and value.lower() == "true")
            continue
        name = _PROPERTIES.get(key)
        if name is not None:
            entries.append((section, start, name, value.lower(), number))
    return _kept(_editorconfigs, text, (is_root, tuple(entries)))


def _editorconfig_matcher(glob: str) -> Callable[[str], bool] | str:
    """The matcher of the section `glob` over paths relative to the .editorconfig's folder
    (or why it is ignored)."""
    if "/" in glob:
        glob = glob.removeprefix("/")
    else:
        glob = "**/" + glob
    return _matcher(glob, True)


# A convention file's text → what it says (`_editorconfig_entries`, `_gitattributes_entries`),
# and a glob → its matcher (`_glob.compiled`): every file of a patch reads the same few
# texts, each file once. Bounded (emptied when full; texts longer than _KEPT_CHARS are
# read each time, and the planner reads no more of a file), so a long-lived process keeps little.
_editorconfigs: dict[str, tuple[bool, tuple[tuple[str, int, str, str, int], ...]]] = {}
_gitattributes_files: dict[str, tuple[tuple[str, int, tuple[str, ...]], ...]] = {}
_compiled: dict[tuple[str, bool], Callable[[str], bool] | str] = {}
_KEPT: Final = 16  # texts of each kind
_KEPT_CHARS: Final = 64 * 1024
_KEPT_GLOBS: Final = 8192  # (a text of _KEPT_CHARS holds at most some thousands)


def _kept(cache: dict[str, _T], text: str, value: _T) -> _T:
    """`value` (what `text` says) stored in `cache`, and returned."""
    if len(text) <= _KEPT_CHARS:
        if len(cache) >= _KEPT:
            cache.clear()
        cache[text] = value
    return value


def _matcher(glob: str, braces: bool) -> Callable[[str], bool] | str:
    """`_glob.compiled(glob)`, each glob compiled once (`_compiled`)."""
    key = (glob, braces)
    found = _compiled.get(key)
    if found is None:
        found = compiled(glob, braces=braces)
        if len(_compiled) >= _KEPT_GLOBS:
            _compiled.clear()
        _compiled[key] = found
    return found


# ---------------------------------------------------------------- .gitattributes


def _gitattributes(text: str, below: str) -> tuple[dict[str, tuple[object, int]], tuple[tuple[int, str], ...]]:
    """The properties a .gitattributes file gives the file at `below` (relative to its
    folder): "ending" (lf, crlf; "" for as written), "charset" (working-tree-encoding),
    each with the line that set it; and the patterns ignored, past a bound of `_glob`
    ((their line, why))."""
    text_attr: tuple[object, int] = (None, 0)
    eol: tuple[object, int] = (None, 0)
    encoding: tuple[object, int] = (None, 0)
    skipped: list[tuple[int, str]] = []
    for pattern, line, attributes in _gitattributes_entries(text):
        matcher = _gitattributes_matcher(pattern)
        if isinstance(matcher, str):
            skipped.append((line, f"pattern {_cut(pattern)} ignored: {matcher}"))
            continue
        if not matcher(below):
            continue
        for attribute in attributes:
            name, equals, value = attribute.partition("=")
            if name in ("text", "-text", "!text", "binary"):
                text_attr = ({"text": value or True, "-text": False, "!text": None, "binary": False}[name], line)
            elif name == "eol" and equals:
                eol = (value.lower(), line)
            elif name in ("-eol", "!eol"):
                eol = (None, line)
            elif name == "working-tree-encoding" and equals:
                encoding = (value, line)
            elif name in ("-working-tree-encoding", "!working-tree-encoding"):
                encoding = (None, line)
    values: dict[str, tuple[object, int]] = {}
    if text_attr[0] is False:
        values["ending"] = ("", text_attr[1])  # -text: the text as written, whatever a folder further up says
    elif eol[0] in ("lf", "crlf"):
        values["ending"] = eol
    # `text` and `text=auto` alone leave the working tree's ending to core.eol, a setting of
    # the user's, not of the repository: they declare none.
    if isinstance(encoding[0], str) and encoding[0]:
        values["charset"] = encoding
    return values, tuple(skipped)


# The attributes `_gitattributes` reads (the name before any `=`); the others decide nothing.
_ATTRIBUTES: Final = frozenset({
    "text", "-text", "!text", "binary", "eol", "-eol", "!eol",
    "working-tree-encoding", "-working-tree-encoding", "!working-tree-encoding",
})  # fmt: skip


def _gitattributes_entries(text: str) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """A .gitattributes text read once (`_gitattributes_files`): each line's pattern, its line
    number and the attributes of `_ATTRIBUTES` it sets, in order (lines setting none of
    them, `[attr]` macros and comments left out)."""
    cached = _gitattributes_files.get(text)
    if cached is not None:
        return cached
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, *attributes = line.split()
        relevant = tuple(a for a in attributes if a.partition("=")[0] in _ATTRIBUTES)
        if not pattern.startswith("[attr]") and relevant:
            entries.append((pattern, number, relevant))
    return _kept(_gitattributes_files, text, tuple(entries))


def _never(path: str) -> bool:
    return False


def _gitattributes_matcher(pattern: str) -> Callable[[str], bool] | str:
    """The matcher of the gitattributes `pattern` over paths relative to the file's folder
    (or why it is ignored)."""
    if pattern.startswith("!"):
        return _never  # negative patterns are forbidden in .gitattributes
    pattern = pattern.removeprefix("\\")
    if "/" in pattern.rstrip("/"):
        glob = pattern.removeprefix("/")
    else:
        glob = "**/" + pattern.rstrip("/")
    return _matcher(glob, False)


# ---------------------------------------------------------------- a new file's bytes


def new_file_bytes(text: str, conventions: Conventions, policy: Policy, where: Location, line: int) -> bytes:
    """`text` as the new file at `where` holds it: the policy's line endings, final
    newline and encoding where it gives them (an explicit option wins), else the
    `conventions`'; UTF-8 when neither names an encoding. EncodingError (naming the encoding,
    where it was declared, the characters and their line) for text it cannot hold, or
    an encoding Python does not know."""
    ending = forced_ending(policy) or conventions.ending
    if ending is not None:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", ending)
    final = True if policy.final_newline == "add" else conventions.final_newline
    if text and final is True and not text.endswith(("\n", "\r")):
        text += ending or _first_ending(text)
    elif final is False:
        text = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith(("\n", "\r")) else text
    check_text(text, f"The new text of {where.shown}", line=line)  # no lone surrogate
    if policy.encoding:
        return encoded(text, policy.encoding, False, where, line, GIVEN)
    if conventions.encoding is None:
        return text.encode("utf-8")
    return encoded(text, conventions.encoding, conventions.bom, where, line, _declared(conventions))


def _first_ending(text: str) -> str:
    """The line break `text` uses first (LF when it has none)."""
    at = min((i for i in (text.find("\r"), text.find("\n")) if i >= 0), default=-1)
    if at < 0 or text[at] == "\n":
        return "\n"
    return "\r\n" if text.startswith("\r\n", at) else "\r"


def _declared(conventions: Conventions) -> str:
    source = conventions.source("encoding")
    name = "charset" if source.rpartition(":")[0].endswith(EDITORCONFIG) else "working-tree-encoding"
    return f"{name} in {source}" if source else ""


def encoded(text: str, encoding: str, bom: bool, where: Location, line: int, declared: str) -> bytes:
    """`text` in `encoding` (a byte-order mark first if `bom`); EncodingError naming the
    encoding (and `declared`: where it comes from), for text it cannot represent (the
    characters and the first line that has one) or a name that is not one of Python's
    character encodings (`character_codec`)."""
    named = f"{encoding} ({declared})" if declared else encoding
    if character_codec(encoding) is None:
        raise not_an_encoding(f"Failed to write {where.shown}", encoding, declared, where, line)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        raise unrepresentable(text, encoding, named, f"Failed to write {where.shown}", where, line) from None
    return ("\ufeff".encode(encoding) if bom else b"") + data


def not_an_encoding(failure: str, encoding: str, declared: str, where: Location, line: int) -> EncodingError:
    """The error for an `encoding` (`declared` says where) that is not one of Python's
    character encodings: unknown, or a transform such as rot13 or base64."""
    named = f"{encoding} ({declared})" if declared else encoding
    return EncodingError(
        f"{failure}: its encoding is {named}, which is not a character encoding Python knows",
        path=where.relative,
        patch_line=line,
        encoding=encoding,
        hints=("Name a character encoding Python knows (utf-8, latin-1, cp1252, gbk, shift_jis, utf-16...).",),
    )


def unrepresentable(text: str, encoding: str, named: str, failure: str, where: Location, line: int) -> EncodingError:
    """The error for `text` that `encoding` cannot represent: the characters (the first
    few) and the line of the first one."""
    bad: list[str] = []
    first_line = 0
    for number, one in enumerate(text.splitlines() or [text], 1):
        for char in one:
            try:
                char.encode(encoding)
            except UnicodeEncodeError:
                first_line = first_line or number
                if char not in bad:
                    bad.append(char)
    shown = [f"{c!r} (U+{ord(c):04X})" for c in bad[:5]]
    listing = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    more = f" ({len(bad)} characters in all)" if len(bad) > 5 else ""
    return EncodingError(
        f"{failure}: its encoding, {named}, cannot represent {listing}{more}, on line {first_line}",
        path=where.relative,
        patch_line=line,
        encoding=encoding,
        hints=(f"Write the text with characters {encoding} has (an escape, or another spelling).",),
    )
