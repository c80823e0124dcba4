"""Liberal search of one shell script (or argv) for apply_patch calls, following the folder.

The script is parsed with tree-sitter-bash and walked in execution order, as
a tiny shell would run it, but without running anything. It knows:

- the patch of `apply_patch`/`applypatch` (any path to it, our options):
  a heredoc (any delimiter, quoted or not, `<<-`), a here-string, a quoted
  argument (`'...'`, `"..."`, `$'...'`, `"$(cat <<'EOF' ... EOF)"`), or
  stdin from `cat <<EOF |`, `echo ... |`, or `< FILE` of a file the script
  wrote with `cat > FILE <<EOF`;
- calls anywhere: lists, sequences, pipelines, subshells, `if`/loop bodies,
  command substitutions, and nested `bash -c SCRIPT` (and the other shells);
- the working folder: `cd` (chains compose; `cd -`; no argument is `~`),
  `pushd`/`popd`, `apply_patch -C DIR`. A subshell, a pipeline stage or a
  nested shell keeps its `cd` to itself.

Values that depend on an expansion are not guessed: `apply_patch "$P"` is
skipped, `cd "$DIR"` keeps `$DIR` as written. ERROR regions are skipped.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from .._dataclass import dataclass, field, replace

from ..format import shell as _shell, is_apply_patch, liberal_arguments, liberal_script, program_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

    from tree_sitter import Node

    from ..format import Edit

_SHELLS: Final = ("bash", "sh", "zsh", "dash", "ksh", "pwsh", "powershell", "cmd")
_WRITE_OPERATORS: Final = (">", ">>", ">|", "&>", "&>>")
# Nodes never run as commands: data, or not valid shell.
_INERT: Final = frozenset({"comment", "ERROR", "heredoc_body", "heredoc_start", "heredoc_end"})
# Nodes whose commands run in a subshell: their `cd` does not outlive them.
_SUBSHELLS: Final = frozenset({"subshell", "process_substitution"})


@dataclass(frozen=True, slots=True)
class ShellState:
    """What the walk knows of the shell: folder, `cd -` folder, `pushd` stack, written files.

    `cwd` is relative to where the script started (`.`), or absolute, or
    starts with `~`; `files` maps such paths to the text the script wrote there.
    """

    cwd: str = "."
    previous: str | None = None
    stack: tuple[str, ...] = ()
    files: Mapping[str, str] = field(default_factory=dict)

    def path(self, written: str) -> str:
        """`written` (relative to `cwd`, absolute, or `~...`) as a path like `cwd`."""
        if written.startswith(("/", "~")):
            return posixpath.normpath(written)
        return posixpath.normpath(posixpath.join(self.cwd, written))

    def cd(self, folder: str) -> ShellState:
        """After `cd folder` (`folder` relative to `cwd`)."""
        return self.goto(self.path(folder))

    def goto(self, cwd: str) -> ShellState:
        """After changing to `cwd` (a path like `cwd`: relative to the start)."""
        return replace(self, cwd=cwd, previous=self.cwd)

    def write(self, written: str, text: str) -> ShellState:
        """After writing `text` to the file `written`."""
        return replace(self, files={**self.files, self.path(written): text})

    def read(self, written: str) -> str | None:
        """What the script wrote to `written`, if it did."""
        return self.files.get(self.path(written))


@dataclass(frozen=True, slots=True)
class ShellCall:
    """An apply_patch call: the patch text it was given, its folder, its 1-based line.

    A call of another edit tool (`_edit_calls`) has its `edits` instead, and
    `text` names the tool's kind (`claude-code`, `text-editor`, `search-replace`).
    `too_deep`: shell text nested too deep to walk, that may hold a call (`text`
    is the whole region). `outcome`: what a log records of the call in the call's own
    record (`applied`, `failed`), when it does.
    """

    text: str
    workdir: str
    line: int
    edits: tuple[Edit, ...] | None = None
    too_deep: bool = False
    base: str | None = None  # the session's folder, in a log: the patch's absolute paths are read against it
    call_id: str | None = None  # in a log: the id its result answers it by
    outcome: str | None = None  # in a log that says it in the call itself (OpenCode): applied, failed
    unified: bool = False  # `text` is a unified diff (a chat reply's), not a Codex patch


def script_calls(
    script: str, state: ShellState, first_line: int = 1, program: Node | None = None
) -> tuple[list[ShellCall], ShellState]:
    """The calls in `script` in execution order, and the state after it.

    `first_line` is the line number of the script's first line in its source;
    `program` its tree, when the caller has parsed it already.
    """
    walker = _Walker(script.split("\n"), first_line)
    after, _ = walker.run(_shell.parse(script) if program is None else program, state)
    return walker.calls, after


def argv_calls(argv: Sequence[str], state: ShellState, line: int) -> list[ShellCall]:
    """The calls of a command given as an argument vector (`["bash", "-lc", S]`...)."""
    if argv and is_apply_patch(argv[0], strict=False):
        arguments = liberal_arguments(argv[1:])
        if arguments is None or arguments.patch is None:
            return []
        folder = state.path(arguments.folder or ".")
        return [ShellCall(arguments.patch, folder, line)]
    script = liberal_script(argv)
    return [] if script is None else script_calls(script, state, line)[0]


_Step = tuple[ShellState, str | None]  # the state after a node, and what it wrote on stdout


class _Walker:
    """Walks one parsed script; each `run` returns the state after the node and its stdout."""

    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.first_line = first_line
        self.calls: list[ShellCall] = []

    def run(self, node: Node, state: ShellState, stdin: str | None = None) -> _Step:
        """Run `node` with `stdin` (known text or None)."""
        if node.type in _INERT:
            return state, None
        handler = _HANDLERS.get(node.type, _Walker._sequence)
        return handler(self, node, state, stdin)

    def _sequence(self, node: Node, state: ShellState, stdin: str | None) -> _Step:
        """Children in order; stdin goes to the last one (`cd x && apply_patch <<EOF`)."""
        stdout: str | None = None
        children = node.named_children
        for index, child in enumerate(children):
            last = index == len(children) - 1
            state, stdout = self.run(child, state, stdin if last else None)
        return state, stdout

    def _subshell(self, node: Node, state: ShellState, stdin: str | None) -> _Step:
        after, stdout = self._sequence(node, state, stdin)
        return replace(state, files=after.files), stdout

    def _pipeline(self, node: Node, state: ShellState, stdin: str | None) -> _Step:
        """Each stage in a subshell, stdout of one as stdin of the next."""
        files = state.files
        for stage in node.named_children:
            after, stdin = self.run(stage, replace(state, files=files), stdin)
            files = after.files
        return replace(state, files=files), stdin

    def _redirected(self, node: Node, state: ShellState, stdin: str | None) -> _Step:
        """A statement with redirections; tree-sitter hangs the rest of the line on a heredoc."""
        own = node.children_by_field_name("redirect")
        inner = [c for r in own if r.type == "heredoc_redirect" for c in r.named_children]
        redirects = [*own, *(c for c in inner if c.type == "file_redirect")]
        for redirect in redirects:  # the last input wins, as in the shell
            stdin = self._input(redirect, state, stdin)
        body = node.child_by_field_name("body")
        state, stdout = self.run(body, state, stdin) if body is not None else (state, None)
        for redirect in redirects:
            state, stdout = self._output(redirect, state, stdout)
        rest = [c for c in inner if c.type not in _INERT and c.type != "file_redirect"]
        for child in rest:  # `<<EOF | apply_patch`, `<<EOF && pytest`
            stdin = stdout if child.type == "pipeline" else None
            state, stdout = self.run(child, state, stdin)
        return state, stdout

    def _input(self, redirect: Node, state: ShellState, stdin: str | None) -> str | None:
        if redirect.type == "heredoc_redirect":
            return _shell.heredoc_text(redirect, self.lines)
        if redirect.type == "herestring_redirect":
            value = self._value(redirect.named_children[-1], state)
            return None if value is None else value + "\n"
        if redirect.type == "file_redirect" and _operator(redirect) == "<":
            target = self._target(redirect, state)
            return None if target is None else state.read(target)
        return stdin

    def _output(self, redirect: Node, state: ShellState, stdout: str | None) -> _Step:
        """`> FILE` keeps what was written to FILE; stdout is gone either way."""
        if redirect.type != "file_redirect" or _operator(redirect) not in _WRITE_OPERATORS:
            return state, stdout
        if redirect.child_by_field_name("descriptor") is not None:
            return state, stdout  # `2> FILE`: not stdout
        target = self._target(redirect, state)
        if target is None or stdout is None:
            return state, None
        return state.write(target, stdout), None

    def _target(self, redirect: Node, state: ShellState) -> str | None:
        destination = redirect.child_by_field_name("destination")
        return None if destination is None else self._value(destination, state)

    def _command(self, node: Node, state: ShellState, stdin: str | None) -> _Step:
        name_node = node.child_by_field_name("name")
        arguments = node.children_by_field_name("argument")
        values = [self._value(argument, state) for argument in arguments]
        for redirect in node.children_by_field_name("redirect"):
            stdin = self._input(redirect, state, stdin)
        words = [] if name_node is None else name_node.named_children
        name = self._value(words[0], state) if words else None
        if name is None:
            return state, None
        if is_apply_patch(name, strict=False):
            return self._apply_patch(node, values, state, stdin)
        if name in _BUILTINS:
            return _BUILTINS[name](state, values, arguments, stdin)
        if program_name(name) in _SHELLS and None not in values:
            return self._nested(name, values, arguments, state)
        return state, None

    def _apply_patch(
        self, node: Node, values: list[str | None], state: ShellState, stdin: str | None
    ) -> _Step:
        arguments = liberal_arguments(values)
        text = None if arguments is None else arguments.patch or stdin
        if arguments is not None and text is not None:
            folder = state.path(arguments.folder or ".")
            self.calls.append(ShellCall(text, folder, self.first_line + node.start_point.row))
        return state, None

    def _nested(
        self, name: str, values: list[str | None], arguments: list[Node], state: ShellState
    ) -> _Step:
        """`bash -lc SCRIPT`: the script runs in its own process (its `cd` stays there)."""
        argv = [name, *(v or "" for v in values)]
        script = liberal_script(argv)
        if script is None:
            return state, None
        where = next((a for a, v in zip(arguments, values) if v == script), arguments[-1])
        calls, _ = script_calls(script, state, self.first_line + where.start_point.row)
        self.calls.extend(calls)
        return state, None

    def _value(self, node: Node, state: ShellState) -> str | None:
        """The word's value; command substitutions are run (their calls found) for it."""
        if node.type == "command_substitution":
            _, stdout = self._sequence(node, state, None)
            return None if stdout is None else stdout.rstrip("\n")
        if node.type == "string":
            return self._double_quoted(node, state)
        if node.type == "concatenation":
            parts = [self._value(child, state) for child in node.named_children]
            return None if None in parts else "".join(p or "" for p in parts)
        return _shell.literal(node)

    def _double_quoted(self, node: Node, state: ShellState) -> str | None:
        """`"..."`: the text between the expansions is literal (tree-sitter leaves newlines out
        of its `string_content` nodes, so the text is taken from the source)."""
        raw, start = node.text or b"", node.start_byte
        parts: list[str | None] = []
        cursor = 1  # after the opening quote
        for child in node.named_children:
            if child.type == "string_content":
                continue
            literal = raw[cursor : child.start_byte - start]
            parts.append(_shell.decode_double_quoted(_shell.decode(literal)))
            parts.append(self._value(child, state))
            cursor = child.end_byte - start
        parts.append(_shell.decode_double_quoted(_shell.decode(raw[cursor:-1])))
        return None if None in parts else "".join(p or "" for p in parts)


def _operator(redirect: Node) -> str:
    return next((c.type for c in redirect.children if not c.is_named), "")


def _cd(state: ShellState, values: list[str | None], nodes: list[Node], _: str | None) -> _Step:
    """`cd DIR`, `cd` (home), `cd -` (back); options skipped; an expansion kept as written."""
    words = [v if v is not None else _as_written(n) for v, n in zip(values, nodes)]
    while words and words[0].startswith("-") and words[0] != "-":
        if words.pop(0) == "--":
            break
    if len(words) > 1:
        return state, None  # "too many arguments": the folder does not change
    folder = words[0] if words else "~"
    if folder == "-":
        return state.goto(state.previous or state.cwd), None
    return state.cd(folder), None


def _as_written(node: Node) -> str:
    """A word whose value is unknown, as written (`"$DIR"` → `$DIR`)."""
    text = _shell.text_of(node)
    return text[1:-1] if node.type == "string" else text


def _pushd(state: ShellState, values: list[str | None], nodes: list[Node], _: str | None) -> _Step:
    if not values:
        return state, None  # swaps the top two folders: not followed
    after, _ = _cd(state, values, nodes, None)
    return replace(after, stack=(*state.stack, state.cwd)), None


def _popd(state: ShellState, values: list[str | None], nodes: list[Node], _: str | None) -> _Step:
    if not state.stack:
        return state, None
    return replace(state.goto(state.stack[-1]), stack=state.stack[:-1]), None


def _cat(state: ShellState, values: list[str | None], nodes: list[Node], stdin: str | None) -> _Step:
    """`cat` passes stdin on; `cat FILE` gives what the script wrote to FILE."""
    if not values or values == ["-"]:
        return state, stdin
    if len(values) == 1 and values[0] is not None:
        return state, state.read(values[0])
    return state, None


def _echo(state: ShellState, values: list[str | None], nodes: list[Node], _: str | None) -> _Step:
    """`echo WORDS` and `echo -n WORDS` (other options, as escapes, are not interpreted)."""
    if None in values:
        return state, None
    words = [v or "" for v in values]
    newline = "\n"
    if words[:1] == ["-n"]:
        words, newline = words[1:], ""
    if words and words[0].startswith("-"):
        return state, None
    return state, " ".join(words) + newline


_Builtin = Callable[[ShellState, list[str | None], list["Node"], str | None], _Step]
_BUILTINS: Final[dict[str, _Builtin]] = {
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "cat": _cat,
    "echo": _echo,
}

_Handler = Callable[[_Walker, "Node", ShellState, str | None], _Step]
_HANDLERS: Final[dict[str, _Handler]] = {
    "command": _Walker._command,
    "redirected_statement": _Walker._redirected,
    "pipeline": _Walker._pipeline,
    "command_substitution": _Walker._subshell,
    **{kind: _Walker._subshell for kind in _SUBSHELLS},
}


def followed(name: str) -> bool:
    """Whether the walk follows a command of this name (others do nothing it can see)."""
    return is_apply_patch(name, strict=False) or name in _BUILTINS or program_name(name) in _SHELLS

