"""Any text → the regions that may hold commands: shell text, and JSON values, in order.

How a text is read (first rule that applies):

1. the whole text is one JSON value (an argv array, a record, a list of them);
2. its first non-blank line is a JSON object or array: JSON lines, one value
   per line (lines that are not JSON are skipped);
3. it is valid shell, and no line outside heredocs and quoted strings looks
   like a prompt, a Markdown fence or a JSON line: one script;
4. it is a transcript. A prompt line (`$ `, `% `, `❯ `, `user@host:~/dir$ `,
   `[user@host dir]$ `, `bash-5.2$ `, `PS C:\\dir> `, with an optional `(venv) `
   first) starts a command; the command goes on over the next lines for as
   long as tree-sitter says it is incomplete (a heredoc, a quote, `&&` at
   the end), `> ` continuation prompts removed. A fenced block whose info
   string is empty or a shell (```` ```bash ````, ```` ```console ````...)
   is read by these same rules, one whose info string is `json` (or `jsonl`)
   by rules 1 and 2. A JSON line is a value. Other lines (output,
   prose) are skipped; but if the text has no prompt, fence or JSON line at
   all, every line may start a command (a script with invalid regions).

Commands that never become valid shell are skipped, one line at a time.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..format import shell as _shell
from ._script import followed

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

    from tree_sitter import Node

# ESC [ ... letter (colours, cursor moves), ESC ] ... BEL/ST (window titles): terminal noise.
_ANSI: Final = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_PROMPT: Final = re.compile(
    r"""(?:\([^()\s]+\)\s+)?                           # (venv)
    (?: [\w.-]+@[\w.-]+:[^\s$#]*(?:\s\([^()]*\))?[$#]  # user@host:~/dir$  user@host:~/d (main)$
      | [\w.-]+@[\w.-]+\s+\S+\s+[%$#]                  # user@host dir %
      | \[[^\]\n]+\][$#]                               # [user@host dir]$
      | [\w.-]*sh-\d+(?:\.\d+)*[$#]                    # bash-5.2$
      | PS\s[^>\n]*>                                   # PS C:\repo>
      | [$%❯]                                          # $  %  ❯
    )\s(?P<command>\S.*)""",
    re.VERBOSE,
)
_CONTINUATION: Final = re.compile(r">(?: |$)")
_FENCE: Final = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})\s*(?P<info>[^\s`]*)[^`]*")
_SHELL_INFOS: Final = frozenset(
    {"", "sh", "bash", "zsh", "ksh", "dash", "shell", "console", "terminal", "shell-session",
     "sh-session", "shellsession", "bash-session"}
)  # fmt: skip
_COMPOUND: Final = frozenset(
    {"if_statement", "for_statement", "c_style_for_statement", "while_statement",
     "case_statement", "subshell", "compound_statement", "function_definition"}
)  # fmt: skip
_JSON_INFOS: Final = frozenset({"json", "jsonl", "ndjson"})
# In a text without prompts, a command goes on over at most this many lines: a bound on
# the time spent on a line that never becomes a valid command.
_LOOSE_LIMIT: Final = 1000


@dataclass(frozen=True, slots=True)
class ShellText:
    """Shell text whose first line is line `first_line` of the source.

    `source` says where it was: `script`, `terminal` (after a prompt) or
    `markdown` (in a fenced block). `program` is the tree of `text` when it
    was parsed to classify it, so that it is parsed once.
    """

    text: str
    first_line: int
    source: str
    program: Node | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class JsonValue:
    """A JSON value found at line `line` of the source."""

    value: object
    line: int


Region = ShellText | JsonValue


def regions(text: str) -> Iterator[Region]:
    """The regions of `text` that may hold commands, in order (see the module's rules)."""
    lines = _ANSI.sub("", text).replace("\r\n", "\n").split("\n")
    if _is_json(lines):
        yield from _json_regions(lines, 1)
    else:
        yield from _text_regions(lines, 1, None)


def _is_json(lines: Sequence[str]) -> bool:
    """Rules 1 and 2: one JSON value, or a first non-blank line that is one."""
    first = _first_nonblank(lines)
    return first < len(lines) and (
        _json(lines[first]) is not None or _json("\n".join(lines)) is not None
    )


def _json_regions(lines: Sequence[str], first_line: int) -> Iterator[Region]:
    """The JSON value of the whole of `lines`, or else of each line that is one."""
    whole = _json("\n".join(lines))
    if whole is not None:
        yield JsonValue(whole, first_line + _first_nonblank(lines))
        return
    for index, line in enumerate(lines):
        value = _json(line)
        if value is not None:
            yield JsonValue(value, first_line + index)


def _first_nonblank(lines: Sequence[str]) -> int:
    return next((i for i, line in enumerate(lines) if line.strip()), len(lines))


def _json(text: str) -> object:
    """The JSON object or array `text` holds, or None."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "[{" or stripped[-1] not in "]}":
        return None
    try:
        value: object = json.loads(stripped)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes
        return None
    return value if isinstance(value, (dict, list)) else None


def _is_marker(line: str) -> bool:
    """A line that makes a text a transcript: a prompt, a fence, a JSON line."""
    return bool(_PROMPT.fullmatch(line) or _FENCE.fullmatch(line)) or _json(line) is not None


def _text_regions(lines: Sequence[str], first_line: int, label: str | None) -> Iterator[Region]:
    """Rules 3 and 4 for `lines`; `label` is `markdown` inside a fence."""
    text = "\n".join(lines)
    markers = [i for i, line in enumerate(lines) if _is_marker(line)]
    program = _shell.parse(text)
    if not program.has_error:
        data = set(_shell.literal_rows(program))
        if all(i in data for i in markers):
            yield ShellText(text, first_line, label or "script", program)
            return
    yield from _scan(lines, first_line, label, loose=not markers)


def _scan(lines: Sequence[str], first_line: int, label: str | None, *, loose: bool) -> Iterator[Region]:
    """Rule 4: fences, prompt commands, JSON lines; other lines are commands only if `loose`."""
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.fullmatch(line)
        prompt = _PROMPT.fullmatch(line)
        value = None if fence or prompt else _json(line)
        if fence:
            end = _fence_end(lines, index, fence.group("fence"))
            info, inside = fence.group("info").lower(), lines[index + 1 : end]
            if info in _SHELL_INFOS:
                yield from _text_regions(inside, first_line + index + 1, "markdown")
            elif info in _JSON_INFOS:
                yield from _json_regions(inside, first_line + index + 1)
            index = end + 1
        elif prompt:
            used, command = _command(prompt.group("command"), lines[index + 1 :], prompts=True)
            if command is not None:
                yield ShellText(command, first_line + index, label or "terminal")
            index += used
        elif value is not None:
            yield JsonValue(value, first_line + index)
            index += 1
        elif loose:
            rest = lines[index + 1 : index + _LOOSE_LIMIT]
            used, command = _command(line, rest, prompts=False)
            if command is not None:
                yield ShellText(command, first_line + index, label or "script")
            index += used
        else:
            index += 1


def _fence_end(lines: Sequence[str], start: int, fence: str) -> int:
    """The index of the line closing the fence opened at `start` (or the end: unclosed)."""
    for index in range(start + 1, len(lines)):
        closing = lines[index].strip()
        if len(closing) >= len(fence) and closing == fence[0] * len(closing):
            return index
    return len(lines)


def _command(first: str, rest: Sequence[str], *, prompts: bool) -> tuple[int, str | None]:
    """The shortest valid command starting with `first` and going on over `rest`.

    Returns (lines used, command text), or (1, None) when no prefix is valid.
    With `prompts`, continuation lines may carry a `> ` prompt (then all do),
    and a line that looks like a prompt ends the command, unless the command
    is a heredoc still open there (its text may show a session).
    """
    following = _continuation(rest) if prompts else rest
    if not prompts and not _may_go_on(first):
        following = []
    barriers: set[int] = set()  # rows of prompt lines up to the window's end
    for row in itertools.chain(_prompt_rows(following, prompts), [len(following) + 1]):
        found, heredoc_open = _shortest(first, following[: row - 1], barriers)
        if found is not None:
            return found
        if not heredoc_open:
            break
        barriers.add(row)
    return 1, None


def _prompt_rows(following: Sequence[str], prompts: bool) -> Iterator[int]:
    """Rows (1 = the first of `following`) of lines that look like prompts, lazily."""
    if prompts:
        yield from (row for row, line in enumerate(following, 1) if _PROMPT.fullmatch(line))


def _shortest(
    first: str, following: Sequence[str], barriers: set[int]
) -> tuple[tuple[int, str] | None, bool]:
    """The shortest complete command of `first` and some of `following`, and whether
    a heredoc is still open with all of them.

    Tries 0, 1, 2, 4, 8... more lines, so a long heredoc costs linear time.
    A line that is not part of the command may spoil a longer parse (tree-sitter
    wraps what comes before an error in the error): if no try is complete, every
    size is tried in turn.
    """

    def lines_of(taken: int) -> tuple[int | None, bool]:
        return _complete("\n".join([first, *following[:taken]]), barriers)

    tried = {0}
    rows, heredoc_open = lines_of(0)
    taken = 0
    while rows is None and taken < len(following):
        taken = min(len(following), max(1, 2 * taken))
        tried.add(taken)
        rows, heredoc_open = lines_of(taken)
    others = (size for size in range(1, len(following)) if size not in tried)
    while rows is None:
        size = next(others, None)
        if size is None:
            return None, heredoc_open
        rows, _ = lines_of(size)
    return (rows, "\n".join([first, *following[: rows - 1]])), False


def _may_go_on(line: str) -> bool:
    """Whether a line of a text without prompts may start a command of several lines.

    Prose is full of apostrophes ("Here's the fix:"), each opening a quote that
    would swallow the lines after it. So a command goes on past its first line
    only if that line starts a compound command (`if`, `(`, `{`...) or runs a
    command the walk follows (apply_patch, cd, cat, a shell...).
    """
    program = _shell.parse(line)
    first = program.named_children[0] if program.named_children else None
    if first is not None and first.type in _COMPOUND:
        return True
    return any(followed(name) for name in _command_names(program))


def _command_names(node: Node) -> Iterator[str]:
    if node.type == "command_name":
        yield _shell.text_of(node)
    for child in node.named_children:
        yield from _command_names(child)


def _continuation(rest: Sequence[str]) -> Sequence[str]:
    """Lines after a prompt line: with `> ` continuation prompts removed, if the first has one."""
    if not rest or not _CONTINUATION.match(rest[0]):
        return rest
    taken: list[str] = []
    for line in rest:
        if not _CONTINUATION.match(line):
            break
        taken.append(line[2:])
    return taken


def _complete(text: str, barriers: set[int]) -> tuple[int | None, bool]:
    """How many lines the statements on the first line of `text` take if they are
    complete in it (else None), and whether a heredoc is left open.

    Not complete either if they take a row of `barriers` other than as a
    heredoc's line.
    """
    # With its newline, the last line is a line: tree-sitter takes the rest of an
    # unterminated last line for the end of an open heredoc.
    program = _shell.parse(text + "\n")
    # When nothing parses, the root itself is the ERROR node.
    heads = [program] if program.is_error else _first_statements(program)
    if not heads:
        return 1, False
    if any(head.has_error for head in heads):
        # A heredoc is open when its end is missing, or when it has no line yet.
        heredoc_open = any(
            e.type == "heredoc_end" or any(c.type == "heredoc_start" for c in e.children)
            for e in _errors(heads)
        )
        return None, heredoc_open
    rows = max(_last_row(head) for head in heads) + 1
    crossed = {row for row in barriers if row < rows}
    if crossed - set(_shell.heredoc_rows(program)):
        return None, False
    return rows, False


def _first_statements(program: Node) -> list[Node]:
    """The statements on the first line, and those that start on a line they reach
    (`cd a &&` newline `apply_patch <<EOF`: the heredoc's error starts on line 2)."""
    heads: list[Node] = []
    for child in program.named_children:
        if heads and child.start_point.row > max(_last_row(h) for h in heads):
            break
        if heads or child.start_point.row == 0:
            heads.append(child)
    return heads


def _last_row(node: Node) -> int:
    end = node.end_point
    return end.row - 1 if end.column == 0 and end.row > node.start_point.row else end.row


def _errors(nodes: Sequence[Node]) -> Iterator[Node]:
    # A loop, not recursion: shell nested thousands deep must not exhaust the stack.
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            yield node
        elif node.has_error:
            stack.extend(reversed(node.children))
