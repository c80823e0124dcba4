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
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from .._errors import EncodingError, check_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, TypeVar

    _T = TypeVar("_T")

    from ._paths import Location
    from .._policy import Policy

EDITORCONFIG: Final = ".editorconfig"
GITATTRIBUTES: Final = ".gitattributes"
_ENDINGS: Final = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}
# EditorConfig's charset values → (Python codec, byte-order mark written).
_CHARSETS: Final = {
    "utf-8": ("utf-8", False),
    "utf-8-bom": ("utf-8", True),
    "latin1": ("latin-1", False),
    "utf-16le": ("utf-16-le", False),
    "utf-16be": ("utf-16-be", False),
}


@dataclass(frozen=True, slots=True)
class Conventions:
    """What a new file follows. `ending`: every line break becomes it (None: as written);
    `final_newline`: True ends the text with a line break, False without (None: as
    written); `encoding`: the codec it is written in (None: UTF-8) and `bom` whether a
    byte-order mark goes first; `origin` names, for messages, where each came from."""

    ending: str | None = None
    final_newline: bool | None = None
    encoding: str | None = None
    bom: bool = False
    origin: tuple[tuple[str, str], ...] = ()

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
    editorconfig_done = False
    for depth in range(len(parts) - 1, -1, -1):
        folder = "/".join(parts[:depth])
        below = "/".join(parts[depth:])  # the file's path from `folder`
        prefix = folder + "/" if folder else ""
        text = read(prefix + GITATTRIBUTES)
        if text is not None:
            for name, value in _gitattributes(text, below).items():
                found.setdefault(name, (value, prefix + GITATTRIBUTES))
        if not editorconfig_done:
            text = read(prefix + EDITORCONFIG)
            if text is not None:
                is_root, values = _editorconfig(text, below)
                for name, value in values.items():
                    found.setdefault(name, (value, prefix + EDITORCONFIG))
                editorconfig_done = is_root
    return _conventions(found)


def _conventions(found: dict[str, tuple[object, str]]) -> Conventions:
    """The properties found (name → (value, file)) as `Conventions`; unknown values ignored."""
    ending = final = encoding = None
    bom = False
    origin: list[tuple[str, str]] = []
    value, where = found.get("ending", (None, ""))
    if isinstance(value, str) and value in _ENDINGS:
        ending = _ENDINGS[value]
        origin.append(("ending", where))
    value, where = found.get("final_newline", (None, ""))
    if isinstance(value, bool):
        final = value
        origin.append(("final newline", where))
    value, where = found.get("charset", (None, ""))
    if isinstance(value, str) and value:
        encoding, bom = _CHARSETS.get(value.lower(), (value, False))
        origin.append(("encoding", where))
    return Conventions(ending, final, encoding, bom, tuple(origin))


# ---------------------------------------------------------------- .editorconfig


def _editorconfig(text: str, below: str) -> tuple[bool, dict[str, object]]:
    """(whether the file says `root = true`, the properties its sections give the file at
    `below`, relative to the file's folder: "ending", "final_newline", "charset"; a
    value `unset` drops a property)."""
    is_root, entries = _editorconfig_entries(text)
    values: dict[str, object] = {}
    matched: dict[str, bool] = {}  # each section's answer for `below`
    for section, name, lowered in entries:
        if section not in matched:
            matched[section] = _editorconfig_match(section, below)
        if not matched[section]:
            continue
        if lowered == "unset":
            values.pop(name, None)
        elif name == "final_newline":
            if lowered in ("true", "false"):
                values[name] = lowered == "true"
        else:
            values[name] = lowered
    return is_root, values


_PROPERTIES: Final = {"end_of_line": "ending", "insert_final_newline": "final_newline", "charset": "charset"}


def _editorconfig_entries(text: str) -> tuple[bool, tuple[tuple[str, str, str], ...]]:
    """An .editorconfig text read once (`_editorconfigs`): whether it says `root = true`, and each
    line setting a property of `_PROPERTIES` in a section, in order, as (section, property,
    value in lower case). The other lines decide nothing here."""
    cached = _editorconfigs.get(text)
    if cached is not None:
        return cached
    is_root = False
    section: str | None = None
    entries: list[tuple[str, str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
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
            entries.append((section, name, value.lower()))
    return _kept(_editorconfigs, text, (is_root, tuple(entries)))


def _editorconfig_match(glob: str, path: str) -> bool:
    """Whether the section `glob` matches `path` (relative to the .editorconfig's folder)."""
    if "/" in glob:
        glob = glob.removeprefix("/")
    else:
        glob = "**/" + glob
    return _matches(glob, True, path)


# A convention file's text → what it says (`_editorconfig_entries`, `_gitattributes_entries`),
# and a glob → its compiled expression's `fullmatch` (None: no path matches): every file of
# a patch reads the same few texts, each file once. Bounded (emptied when full; texts longer
# than _KEPT_CHARS are read each time), so a long-lived process keeps little.
_editorconfigs: dict[str, tuple[bool, tuple[tuple[str, str, str], ...]]] = {}
_gitattributes_files: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
_compiled: dict[tuple[str, bool], Callable[[str], object] | None] = {}
_KEPT: Final = 16  # texts of each kind
_KEPT_CHARS: Final = 64 * 1024
_KEPT_GLOBS: Final = 1024


def _kept(cache: dict[str, _T], text: str, value: _T) -> _T:
    """`value` (what `text` says) stored in `cache`, and returned."""
    if len(text) <= _KEPT_CHARS:
        if len(cache) >= _KEPT:
            cache.clear()
        cache[text] = value
    return value


def _matches(glob: str, braces: bool, path: str) -> bool:
    """Whether `glob` (`_glob_regex`) matches all of `path`; a glob that is not a valid
    expression matches nothing. Each glob is compiled once (`_compiled`)."""
    key = (glob, braces)
    if key in _compiled:
        match = _compiled[key]
    else:
        try:
            match = re.compile(_glob_regex(glob, braces=braces)).fullmatch
        except re.error:
            match = None  # a section or pattern no file matches
        if len(_compiled) >= _KEPT_GLOBS:
            _compiled.clear()
        _compiled[key] = match
    return match is not None and match(path) is not None


def _glob_regex(glob: str, *, braces: bool = True) -> str:
    """A glob as a regular expression over `/`-separated paths: `*` (not `/`), `**`
    (anything; `**/` any folders, none too), `?`, `[seq]`, `[!seq]`, `\\x`; with
    `braces` (EditorConfig; git's patterns have none) `{a,b}` and `{1..9}`."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        i += 1
        if c == "\\" and i < len(glob):
            out.append(re.escape(glob[i]))
            i += 1
        elif c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and "]" in glob[i:]:
            end = glob.index("]", i)
            inside = glob[i:end]
            negate = inside[:1] in ("!", "^")
            body = re.escape(inside[1:] if negate else inside).replace("\\-", "-")
            out.append(f"[{'^' if negate else ''}{body}]")
            i = end + 1
        elif braces and c == "{" and "}" in glob[i:]:
            end = _closing_brace(glob, i)
            inside = glob[i:end]
            numbers = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", inside)
            if numbers:
                low, high = sorted(map(int, numbers.groups()))
                out.append("(?:" + "|".join(str(n) for n in range(low, min(high, low + 10_000) + 1)) + ")")
            elif "," in inside:
                out.append("(?:" + "|".join(map(_glob_regex, _split_commas(inside))) + ")")
            else:
                out.append(re.escape("{" + inside + "}"))
            i = end + 1
        else:
            out.append(re.escape(c))
    return "".join(out)


def _closing_brace(glob: str, start: int) -> int:
    """The index of the `}` closing the `{` before `start` (nested braces counted)."""
    depth = 1
    for at in range(start, len(glob)):
        if glob[at] == "{":
            depth += 1
        elif glob[at] == "}":
            depth -= 1
            if depth == 0:
                return at
    return glob.rindex("}")


def _split_commas(text: str) -> list[str]:
    """`a,{b,c},d` → ["a", "{b,c}", "d"]: the commas outside braces."""
    parts, depth, last = [], 0, 0
    for at, c in enumerate(text):
        depth += (c == "{") - (c == "}")
        if c == "," and depth == 0:
            parts.append(text[last:at])
            last = at + 1
    parts.append(text[last:])
    return parts


# ---------------------------------------------------------------- .gitattributes


def _gitattributes(text: str, below: str) -> dict[str, object]:
    """The properties a .gitattributes file gives the file at `below` (relative to its
    folder): "ending" (lf, crlf; "" for as written), "charset" (working-tree-encoding)."""
    text_attr: object = None
    eol: object = None
    encoding: object = None
    for pattern, attributes in _gitattributes_entries(text):
        if not _gitattributes_match(pattern, below):
            continue
        for attribute in attributes:
            name, equals, value = attribute.partition("=")
            if name in ("text", "-text", "!text", "binary"):
                text_attr = {"text": value or True, "-text": False, "!text": None, "binary": False}[name]
            elif name == "eol" and equals:
                eol = value.lower()
            elif name in ("-eol", "!eol"):
                eol = None
            elif name == "working-tree-encoding" and equals:
                encoding = value
            elif name in ("-working-tree-encoding", "!working-tree-encoding"):
                encoding = None
    values: dict[str, object] = {}
    if text_attr is False:
        values["ending"] = ""  # -text: the text as written, whatever a folder further up says
    elif eol in ("lf", "crlf"):
        values["ending"] = eol
    # `text` and `text=auto` alone leave the working tree's ending to core.eol, a setting of
    # the user's, not of the repository: they declare none.
    if isinstance(encoding, str) and encoding:
        values["charset"] = encoding
    return values


# The attributes `_gitattributes` reads (the name before any `=`); the others decide nothing.
_ATTRIBUTES: Final = frozenset({
    "text", "-text", "!text", "binary", "eol", "-eol", "!eol",
    "working-tree-encoding", "-working-tree-encoding", "!working-tree-encoding",
})  # fmt: skip


def _gitattributes_entries(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A .gitattributes text read once (`_gitattributes_files`): each line's pattern and the attributes
    of `_ATTRIBUTES` it sets, in order (lines setting none of them, `[attr]` macros and
    comments left out)."""
    cached = _gitattributes_files.get(text)
    if cached is not None:
        return cached
    entries = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, *attributes = line.split()
        relevant = tuple(a for a in attributes if a.partition("=")[0] in _ATTRIBUTES)
        if not pattern.startswith("[attr]") and relevant:
            entries.append((pattern, relevant))
    return _kept(_gitattributes_files, text, tuple(entries))


def _gitattributes_match(pattern: str, path: str) -> bool:
    """Whether the gitattributes `pattern` matches `path` (relative to the file's folder)."""
    if pattern.startswith("!"):
        return False  # negative patterns are forbidden in .gitattributes
    pattern = pattern.removeprefix("\\")
    if "/" in pattern.rstrip("/"):
        glob = pattern.removeprefix("/")
    else:
        glob = "**/" + pattern.rstrip("/")
    return _matches(glob, False, path)


# ---------------------------------------------------------------- a new file's bytes


def new_file_bytes(text: str, conventions: Conventions, policy: Policy, where: Location, line: int) -> bytes:
    """`text` as the new file at `where` holds it: the policy's line endings, final
    newline and encoding where it gives them (an explicit option wins), else the
    `conventions`'; UTF-8 when neither names an encoding. EncodingError (naming the encoding,
    where it was declared, the characters and their line) for text it cannot hold, or
    an encoding Python does not know."""
    ending = _EXPLICIT_ENDINGS.get(policy.line_endings, conventions.ending)
    if ending is not None:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", ending)
    final = True if policy.final_newline == "add" else conventions.final_newline
    if text and final is True and not text.endswith(("\n", "\r")):
        text += ending or _first_ending(text)
    elif final is False:
        text = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith(("\n", "\r")) else text
    check_text(text, f"The new text of {where.shown}", line=line)  # no lone surrogate
    if policy.encoding:
        return encoded(text, policy.encoding, False, where, line, "given")
    if conventions.encoding is None:
        return text.encode("utf-8")
    return encoded(text, conventions.encoding, conventions.bom, where, line, _declared(conventions))


_EXPLICIT_ENDINGS: Final = {"lf": "\n", "crlf": "\r\n"}


def _first_ending(text: str) -> str:
    """The line break `text` uses first (LF when it has none)."""
    at = min((i for i in (text.find("\r"), text.find("\n")) if i >= 0), default=-1)
    if at < 0 or text[at] == "\n":
        return "\n"
    return "\r\n" if text.startswith("\r\n", at) else "\r"


def _declared(conventions: Conventions) -> str:
    source = conventions.source("encoding")
    name = "charset" if source.endswith(EDITORCONFIG) else "working-tree-encoding"
    return f"{name} in {source}" if source else ""


def encoded(text: str, encoding: str, bom: bool, where: Location, line: int, declared: str) -> bytes:
    """`text` in `encoding` (a byte-order mark first if `bom`); EncodingError naming the
    encoding (and `declared`: where it comes from), for text it cannot represent (the
    characters and the first line that has one) or a name Python does not know."""
    import codecs

    named = f"{encoding} ({declared})" if declared else encoding
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise EncodingError(
            f"Failed to write {where.shown}: its encoding is {named}, which is not an encoding Python knows",
            path=where.relative,
            patch_line=line,
            encoding=encoding,
            hints=("Name an encoding Python knows (utf-8, latin-1, cp1252, gbk, shift_jis, utf-16...).",),
        ) from None
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        raise unrepresentable(text, encoding, named, f"Failed to write {where.shown}", where, line) from None
    return ("\ufeff".encode(encoding) if bom else b"") + data


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
