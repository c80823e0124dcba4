"""Argument vectors: which are shell invocations, which call apply_patch, and with what.

Two sets of rules. *Strict* is the reference's (`codex-rs/apply-patch`
`invocation.rs`), for agents deciding whether to intercept a command. *Liberal*
is for finding patches in logs: any path to the program, more shell flags,
and our own executable's options.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .._policy import CHOICES

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from typing import Final

APPLY_PATCH_NAMES: Final = ("apply_patch", "applypatch")

_POSIX_SHELLS: Final = ("bash", "sh", "zsh")
_MORE_POSIX_SHELLS: Final = (*_POSIX_SHELLS, "dash", "ksh")
_POWERSHELLS: Final = ("pwsh", "powershell")
# `-c`, `-lc`, `-ec`, `-xec`: a cluster of short options ending the options with `c`.
_SHORT_OPTIONS_WITH_C: Final = re.compile(r"-[A-Za-z]*c[A-Za-z]*")
_SHELL_OPTIONS_WITH_VALUE: Final = ("-o", "+o", "-O", "+O")
_FOLDER_OPTIONS: Final = ("-C", "--root")
_VALUE_OPTIONS: Final = (*_FOLDER_OPTIONS, *("--" + n.replace("_", "-") for n in CHOICES))


def program_name(program: str) -> str:
    """The name a program is known by: last path segment (`/` or `\\`), one extension off, lower case.

    `/bin/bash` → `bash`; `C:\\Program Files\\PowerShell\\7\\pwsh.exe` → `pwsh`.
    """
    base = re.split(r"[\\/]", program)[-1]
    stem, dot, _ = base.rpartition(".")
    return (stem if dot and stem else base).lower()


def strict_script(argv: Sequence[str]) -> str | None:
    """The script of a shell invocation the reference recognises, else None.

    `[bash|zsh|sh, -c|-lc, S]`, `[pwsh|powershell, (-NoProfile)?, -Command, S]`
    (flags in any case), `[cmd, /c, S]` (any case); the shell may be a path.
    """
    if len(argv) == 4 and program_name(argv[0]) in _POWERSHELLS:
        if argv[1].lower() != "-noprofile":
            return None
        argv = [argv[0], *argv[2:]]
    if len(argv) != 3:
        return None
    shell, flag, script = program_name(argv[0]), argv[1], argv[2]
    if shell in _POSIX_SHELLS and flag in ("-c", "-lc"):
        return script
    if shell in _POWERSHELLS and flag.lower() == "-command":
        return script
    if shell == "cmd" and flag.lower() == "/c":
        return script
    return None


def liberal_script(argv: Sequence[str]) -> str | None:
    """The script of a shell invocation, recognised liberally, else None.

    POSIX shells: options before a short-option cluster with `c` (`-e -c`,
    `-lc`, `-xec`, `-o pipefail -c`, `--login -c`); PowerShell: anything before
    `-Command` or `-c`; cmd: `/c` or `/k`, the rest joined by spaces.
    """
    if not argv:
        return None
    shell, rest = program_name(argv[0]), list(argv[1:])
    if shell in _MORE_POSIX_SHELLS:
        return _posix_script(rest)
    if shell in _POWERSHELLS:
        flags = [a.lower() for a in rest]
        found = next((i for i, f in enumerate(flags) if f in ("-command", "-c")), None)
        return rest[found + 1] if found is not None and found + 1 < len(rest) else None
    if shell == "cmd":
        found = next((i for i, a in enumerate(rest) if a.lower() in ("/c", "/k")), None)
        return None if found is None else " ".join(rest[found + 1 :]) or None
    return None


def _posix_script(args: list[str]) -> str | None:
    index = 0
    while index < len(args):
        arg = args[index]
        if _SHORT_OPTIONS_WITH_C.fullmatch(arg):
            return args[index + 1] if index + 1 < len(args) else None
        if arg in _SHELL_OPTIONS_WITH_VALUE:
            index += 2
        elif arg.startswith(("-", "+")):
            index += 1
        else:
            return None  # a script file, not a command string
    return None


@dataclass(frozen=True, slots=True)
class ApplyPatchArgs:
    """What an apply_patch command line asks for.

    `patch` is the patch argument, or None when the patch comes on stdin;
    `folder` the `-C`/`--root` folder (None: the current one).
    """

    patch: str | None
    folder: str | None


def liberal_arguments(args: Sequence[str | None]) -> ApplyPatchArgs | None:
    """The arguments after `apply_patch`, or None if they do not apply a patch we can know.

    Accepted: our executable's options (`-C DIR`, `--root[=]DIR`, `--codex`,
    the policy options), then at most one patch argument. None for `--help`,
    `--version`, an unknown option, several patches, or an argument whose value
    depends on an expansion (`None` in `args`).
    """
    folder: str | None = None
    rest = list(args)
    while rest and (option := rest[0]) is not None and option.startswith("-"):
        del rest[0]
        if option == "--":
            break
        if option == "--codex":
            continue
        name, equals, value = option.partition("=")
        if name not in _VALUE_OPTIONS:
            return None  # --help, --version, or an option we do not know
        if not equals:
            if not rest or rest[0] is None:
                return None
            value = rest.pop(0) or ""
        if name in _FOLDER_OPTIONS:
            folder = value
    if len(rest) > 1 or (rest and rest[0] is None):
        return None
    return ApplyPatchArgs(rest[0] if rest else None, folder)


def is_apply_patch(program: str, *, strict: bool) -> bool:
    """Whether `program` names apply_patch: exactly, or (liberal) as a path's last segment."""
    if strict:
        return program in APPLY_PATCH_NAMES
    return program_name(program) in APPLY_PATCH_NAMES
