"""Strict classification of a command's argv: is it an apply_patch call, and with which patch?

For an agent deciding whether to intercept a command before running it. The
rules are the reference's (`invocation.rs`), so a command is intercepted only
in the forms it was meant for:

- `["apply_patch", PATCH]` or `["applypatch", PATCH]`;
- a shell invocation (see `_argv.strict_script`) whose script is exactly
  `apply_patch <<DELIM ... DELIM` or `cd DIR && apply_patch <<DELIM ... DELIM`
  and nothing else (no comment, no second command, no extra redirect).

Beyond the reference: any heredoc delimiter and quoting, `<<-` with its
leading tabs stripped, and `cd DIR && apply_patch ARG <<...` is refused like
`apply_patch ARG <<...` is (the reference accepts it after a `cd`).

The answer is a value, never an exception: `NotApplyPatch`, `ApplyPatchCall`,
`BrokenApplyPatchCall` (the call is real, its patch does not parse), or
`ImplicitPatch` (a bare patch given as a command, without apply_patch).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._argv import APPLY_PATCH_NAMES, strict_script
from ._invocation import call_text
from .._errors import PatchSyntaxError
from ._model import Patch
from ._parse import parse_patch

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

IMPLICIT_INVOCATION: Final = (
    'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]'
)


@dataclass(frozen=True, slots=True)
class NotApplyPatch:
    """Not an apply_patch call: the command should run as it is."""


@dataclass(frozen=True, slots=True)
class ApplyPatchCall:
    """An apply_patch call: `patch` parsed from `text`, to apply in `workdir`.

    `workdir` is the given working folder joined with the script's `cd`
    folder, or None when neither was given (the current folder).
    """

    patch: Patch
    text: str
    workdir: str | None


@dataclass(frozen=True, slots=True)
class BrokenApplyPatchCall:
    """An apply_patch call whose patch `text` does not parse: `error` says why."""

    text: str
    error: PatchSyntaxError
    workdir: str | None


@dataclass(frozen=True, slots=True)
class ImplicitPatch:
    """A patch given as the command itself, without apply_patch: to refuse with `message`."""

    patch: Patch
    text: str
    message: str = IMPLICIT_INVOCATION


Classification = NotApplyPatch | ApplyPatchCall | BrokenApplyPatchCall | ImplicitPatch


def classify_argv(argv: Sequence[str], cwd: str | None = None) -> Classification:
    """Classify a command given as `argv`, run in the folder `cwd` (None: unknown).

    Never raises: a patch that does not parse inside a real call is a
    `BrokenApplyPatchCall` carrying the parser's `PatchSyntaxError`.
    """
    argv = list(argv)
    if not (len(argv) == 2 and argv[0] in APPLY_PATCH_NAMES):
        implicit = _implicit(argv[0] if len(argv) == 1 else strict_script(argv))
        if implicit is not None:
            return implicit
    found = call_text(argv, cwd)
    return NotApplyPatch() if found is None else _call(*found)


def _call(text: str, workdir: str | None) -> ApplyPatchCall | BrokenApplyPatchCall:
    try:
        return ApplyPatchCall(parse_patch(text), text, workdir)
    except PatchSyntaxError as error:
        return BrokenApplyPatchCall(text, error, workdir)


def _implicit(text: str | None) -> ImplicitPatch | None:
    """A patch where a command was expected (the reference refuses to guess the intent)."""
    if text is None:
        return None
    try:
        return ImplicitPatch(parse_patch(text), text)
    except PatchSyntaxError:
        return None


