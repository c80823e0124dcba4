"""Codex's "code mode": the patches an `exec` tool's body gives apply_patch (pure).

In code mode the model writes JavaScript that calls the other tools as
functions (`await tools.apply_patch("*** Begin Patch ...")`), and the body is
sent as the `exec` tool's input. The body may also be a patch alone (a model
sending the patch to the wrong tool). What is read here:

- a body whose first non-blank line is `*** Begin Patch`: the body is the patch;
- every `tools.apply_patch(ARG)` in the JavaScript (`tools["apply_patch"]` too),
  where ARG is a string literal (`'...'`, `"..."` with JavaScript's escapes, or
  a template literal without `${...}`), or an object literal whose `input` or
  `patch` property is one. A call whose argument is anything else (a variable,
  a template with substitutions) is not followed: its patch is not in the text.

Comments and strings are skipped while looking for calls, so a call written in
a comment or inside a string is none.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Final

EXEC_TOOLS: Final = ("exec",)
# `tools.apply_patch(`, `tools["apply_patch"](`, `tools.applypatch(`, with any spaces.
_CALL: Final = re.compile(r"""\btools\s*(?:\.\s*(?:apply_patch|applypatch)|\[\s*(['"])(?:apply_patch|applypatch)\1\s*\])\s*\(\s*""")
_PROPERTY: Final = re.compile(r"""\{\s*(?:(['"]?)(?:input|patch)\1)\s*:\s*""")
_SIMPLE_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_LIMIT: Final = 10_000  # calls read from one body, at most


def exec_patches(body: str) -> list[str]:
    """The patch texts an `exec` body gives apply_patch, in order (see the module's rules)."""
    if body.lstrip().startswith("*** Begin Patch"):
        return [body]
    patches: list[str] = []
    for start in _calls(body):
        if len(patches) >= _LIMIT:
            break
        value = _argument(body, start)
        if value is not None:
            patches.append(value)
    return patches


def _calls(code: str) -> Iterator[int]:
    """Where the argument of each `tools.apply_patch(` outside comments and strings starts."""
    index = 0
    while index < len(code):
        char = code[index]
        if code.startswith("//", index):
            newline = code.find("\n", index)
            index = len(code) if newline < 0 else newline + 1
        elif code.startswith("/*", index):
            end = code.find("*/", index + 2)
            index = len(code) if end < 0 else end + 2
        elif char in "'\"`":
            index = _string_end(code, index)
        else:
            found = _CALL.match(code, index) if char == "t" else None
            if found is not None and (index == 0 or not (code[index - 1].isalnum() or code[index - 1] in "_$.")):
                yield found.end()
                index = found.end()
            else:
                index += 1


def _argument(code: str, start: int) -> str | None:
    """The string the call's argument at `start` gives: a literal, or an object's `input`/`patch`."""
    found = _PROPERTY.match(code, start)
    if found is not None:
        start = found.end()
    return _literal(code, start)


def _literal(code: str, start: int) -> str | None:
    """The value of the string literal at `start`, or None (not a literal, or a template
    with substitutions, or unterminated)."""
    if start >= len(code) or code[start] not in "'\"`":
        return None
    end = _string_end(code, start)
    if end > len(code) or code[end - 1] != code[start] or end - start < 2:
        return None
    inner = code[start + 1 : end - 1]
    if code[start] == "`" and "${" in inner.replace("\\$", ""):
        return None
    return _unescaped(inner)


def _string_end(code: str, start: int) -> int:
    """The index just past the string literal opened at `start` (the end: unterminated)."""
    quote = code[start]
    index = start + 1
    while index < len(code):
        char = code[index]
        if char == "\\":
            index += 2
            continue
        if char == quote:
            return index + 1
        if char == "\n" and quote != "`":
            return index  # a quote left open on its line: no string
        index += 1
    return len(code) + 1


def _unescaped(text: str) -> str:
    """JavaScript's escapes undone (`\\n`, `\\t`, `\\xHH`, `\\uHHHH`, `\\u{H...}`, a line
    continuation); an unknown escape is the character itself, as JavaScript reads it."""
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 == len(text):
            out.append(char)
            index += 1
            continue
        following = text[index + 1]
        index += 2
        if following in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[following])
        elif following == "\n":
            pass  # a line continuation
        elif following == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", text[index : index + 2]):
            out.append(chr(int(text[index : index + 2], 16)))
            index += 2
        elif following == "u" and text.startswith("{", index) and (close := text.find("}", index)) > index:
            digits = text[index + 1 : close]
            out.append(_code_point(digits) if re.fullmatch(r"[0-9A-Fa-f]{1,6}", digits) else "u{" + digits + "}")
            index = close + 1
        elif following == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[index : index + 4]):
            out.append(chr(int(text[index : index + 4], 16)))
            index += 4
        else:
            out.append(following)
    joined = "".join(out)
    if any(0xD800 <= ord(c) <= 0xDFFF for c in joined):  # surrogate pairs written as two \\u escapes
        joined = joined.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return joined


def _code_point(digits: str) -> str:
    value = int(digits, 16)
    return chr(value) if value <= 0x10FFFF else "\ufffd"


def is_exec_tool(name: object) -> bool:
    """Whether a tool call's `name` is Codex's code-mode `exec` tool."""
    return isinstance(name, str) and name in EXEC_TOOLS


def body_of(given: object, arguments: object) -> str | None:
    """The JavaScript body of an `exec` call: its `input` text (a custom tool), its
    `arguments` when they are text that is no JSON, or the `input`/`code`/`source` field
    of its arguments (a function tool: `arguments` already decoded), else None."""
    for text in (given, arguments):
        if isinstance(text, str):
            return text
    for holder in (arguments, given):
        if isinstance(holder, dict):
            for key in ("input", "code", "source"):
                if isinstance(holder.get(key), str):
                    return str(holder[key])
    return None
