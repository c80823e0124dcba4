"""Where an apply_patch call's patch text is, by the reference's strict rules (`invocation.rs`).

An argv (`["apply_patch", PATCH]`, or a shell invocation whose script is
exactly `apply_patch <<DELIM ... DELIM` or `cd DIR && apply_patch <<DELIM ...
DELIM`) or a shell text → the patch text and the `cd` folder. The patch is
not read here: `_classify` parses it for `classify_argv`, `_unwrap` for a
shell form given as the patch itself.
"""

from __future__ import annotations

import os

from . import _shell
from ._argv import APPLY_PATCH_NAMES, strict_script

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Sequence
    from typing import Final

    from tree_sitter import Node

# The only argument forms `cd` may take: a plain word or a quoted string without expansions.
_CD_ARGUMENTS: Final = ("word", "string", "raw_string")


def call_text(argv: Sequence[str], cwd: str | None = None) -> tuple[str, str | None] | None:
    """(patch text, folder) of the apply_patch call `argv` run in `cwd`, or None if it is none.

    The folder is `cwd` joined with the script's `cd` folder (None: neither given).
    """
    if len(argv) == 2 and argv[0] in APPLY_PATCH_NAMES:
        return argv[1], cwd
    script = strict_script(list(argv))
    found = None if script is None else _heredoc_call(script)
    if found is None:
        return None
    text, folder = found
    return text, _join(cwd, folder)


def shell_form(text: str) -> tuple[str, str | None] | None:
    """(patch text, cd folder) when `text` itself is an apply_patch call, by the strict rules.

    `text` is a shell command as a model types it: `apply_patch <<'EOF' ...
    EOF`, `cd DIR && apply_patch <<'EOF' ... EOF`, or one command of plain
    words whose argv `classify_argv` accepts (`bash -lc '...'`, `apply_patch
    '*** Begin Patch ...'`). Anything else in the script: None.
    """
    found = _heredoc_call(text)
    if found is not None:
        return found
    argv = _plain_argv(text)
    return None if argv is None else call_text(argv)


def _plain_argv(script: str) -> list[str] | None:
    """The words of `script` when it is one command of literal words, nothing else."""
    program = _shell.parse(script)
    if program.has_error or [c.type for c in program.named_children] != ["command"]:
        return None
    command = program.named_children[0]
    words: list[str] = []
    for child in command.named_children:
        node = child.named_children[0] if child.type == "command_name" and child.named_children else child
        value = _shell.literal(node)
        if value is None:
            return None
        words.append(value)
    return words


def _join(cwd: str | None, folder: str | None) -> str | None:
    if cwd is None or folder is None:
        return folder if cwd is None else cwd
    return os.path.join(cwd, folder)


def _heredoc_call(script: str) -> tuple[str, str | None] | None:
    """(heredoc text, cd folder) if `script` is exactly one of the two accepted forms.

    In tree-sitter terms (the reference's query, with its anchors):
    `(program . (redirected_statement body: B redirect: (heredoc_redirect .
    (heredoc_start) . (heredoc_body) . (heredoc_end) .)) .)` where B is
    `(command name: apply_patch .)` or `(list . (command name: cd . ARG .) . "&&" .
    (command name: apply_patch .) .)`.
    """
    program = _shell.parse(script)
    if program.has_error or [c.type for c in program.named_children] != ["redirected_statement"]:
        return None
    statement = program.named_children[0]
    redirects = statement.children_by_field_name("redirect")
    body = statement.child_by_field_name("body")
    if body is None or len(redirects) != 1 or not _plain_heredoc(redirects[0]):
        return None
    text = _shell.heredoc_text(redirects[0], script.split("\n")).rstrip("\n")
    if _bare_apply_patch(body):
        return text, None
    folder = _cd_then_apply_patch(body)
    return None if folder is None else (text, folder)


def _plain_heredoc(redirect: Node) -> bool:
    kinds = [c.type for c in redirect.named_children]
    return kinds == ["heredoc_start", "heredoc_body", "heredoc_end"]


def _bare_apply_patch(node: Node) -> bool:
    """`apply_patch` or `applypatch` as a plain word, alone: no argument, no assignment."""
    if node.type != "command" or len(node.named_children) != 1:
        return False
    name = node.named_children[0]
    return _plain_word(name) in APPLY_PATCH_NAMES


def _cd_then_apply_patch(node: Node) -> str | None:
    """The folder of `cd FOLDER && apply_patch`, else None."""
    if node.type != "list" or [c.type for c in node.children] != ["command", "&&", "command"]:
        return None
    cd, apply = node.named_children
    if not _bare_apply_patch(apply) or len(cd.named_children) != 2:
        return None
    name, argument = cd.named_children
    if _plain_word(name) != "cd" or argument.type not in _CD_ARGUMENTS:
        return None
    return _shell.literal(argument) or None


def _plain_word(name: Node) -> str | None:
    words = name.named_children
    if name.type != "command_name" or len(words) != 1 or words[0].type != "word":
        return None
    return _shell.text_of(words[0])
