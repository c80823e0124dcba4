"""The command line's options, one definition shared by every command.

Each command builds its argparse parser from these pieces (`apply_patch`,
`extract --apply`, `calls`, `serve`...), so an option means the same thing
and says the same help everywhere. `--version` reads the version from
`_version`, the one place it is written.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, Final, NoReturn

from .._policy import CHOICES, CODEX, DEFAULT, HELP, NAMED, Policy


# `apply_patch --format`: the formats the executable reads (cli/_formats applies them).
FORMATS: Final = ("codex", "search-replace", "unified-diff", "hashline", "auto")
# `apply_patch --color`: when the summary and --diff are coloured (cli/_color says how).
COLORS: Final = ("auto", "always", "never")


def valued(option: str) -> bool:
    """Whether the main command's `option` (written without `=VALUE`) takes the next
    argument as its value: `-C`, `--root`, `--format`, `--color` and the policy options."""
    name = option.removeprefix("--").replace("-", "_")
    return option in ("-C", "--root", "--format", "--color") or (
        option.startswith("--") and (name in CHOICES or name in NAMED)
    )


def new_parser(**settings: Any) -> tuple[argparse.ArgumentParser, argparse._ArgumentGroup]:
    """An ArgumentParser and its "options" group, where the options are to be added.

    What it prints is what `argparse.ArgumentParser(**settings)` prints. It is
    built faster: argparse makes a help formatter (which imports `shutil` for
    the terminal's width) at every `parser.add_argument`, to check the
    metavar, but not at an argument group's. So `-h` and every option go in
    a group titled as argparse's own, which help shows in the same place.
    """

    parser = argument_parser(add_help=False, **settings)
    options = parser.add_argument_group("options")
    options.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                         help="show this help message and exit")  # fmt: skip
    return parser, options


def argument_parser(**settings: Any) -> argparse.ArgumentParser:
    """`argparse.ArgumentParser(**settings)`, whose usage errors also say what was probably
    meant: `unrecognized arguments: --dryrun (did you mean --dry-run?)`."""

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            super().error(message + _did_you_mean(self, message))

    return _Parser(**settings)


def _did_you_mean(parser: argparse.ArgumentParser, message: str) -> str:
    """` (did you mean --dry-run?)` for the options of an "unrecognized arguments" `message`
    that are close to one of `parser`'s, else ""."""
    prefix = "unrecognized arguments: "
    if not message.startswith(prefix):
        return ""
    from ._advice import closest  # an error: its imports cost nothing that matters

    known = [name for name in parser._option_string_actions if name.startswith("--")]
    guesses = [
        guess
        for word in message[len(prefix) :].split()
        if word.startswith("--") and (guess := closest(word.partition("=")[0], known))
    ]
    return f" (did you mean {' or '.join(guesses)}?)" if guesses else ""


def parse(build: Callable[[], argparse.ArgumentParser], argv: Sequence[str]) -> argparse.Namespace | int:
    """The options `build()`'s parser reads in `argv`, or the exit code of --help, --version
    or a usage error (argparse has printed what it says)."""
    try:
        return build().parse_args(list(argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2


def add_root(parser: argparse._ActionsContainer, help: str = "apply relative to DIR (default: .)") -> None:
    """`-C DIR` / `--root DIR`."""
    parser.add_argument("-C", "--root", default=".", metavar="DIR", help=help)


def add_dry_run(parser: argparse._ActionsContainer, help: str = "do everything but write; print what would change") -> None:
    """`--dry-run`."""
    parser.add_argument("--dry-run", action="store_true", help=help)


def add_policies(parser: argparse.ArgumentParser, options: argparse._ActionsContainer | None = None) -> None:
    """`--codex`, `--unique` (in `options`, default `parser`) and one option per policy
    field (in a group of their own); `policy(options)` reads them."""
    options = parser if options is None else options
    options.add_argument(
        "--codex",
        action="store_true",
        help="the reference implementation's file policies and reading of the patch text (the options below override it)",
    )
    options.add_argument(
        "--unique",
        action="store_true",
        help="chunks that fit in more than one way are refused (--ambiguous error, the default; with --codex too)",
    )
    policies = parser.add_argument_group("file policies (default first)")
    for name, choices in CHOICES.items():
        default, codex = getattr(DEFAULT, name), getattr(CODEX, name)
        note = f"; --codex: {codex}" if codex != default else ""
        policies.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            choices=choices,
            help=f"{HELP[name]} (default: {default}{note})",
        )
    for name, metavar in NAMED.items():
        help = f"{HELP[name]} (default: none: the declared one, else the byte-order mark's, else UTF-8)"
        policies.add_argument("--" + name.replace("_", "-"), dest=name, metavar=metavar, help=help)


def policy(options: argparse.Namespace) -> Policy:
    """The policy the options of `add_policies` describe."""
    base = CODEX if options.codex else DEFAULT
    overrides = {name: getattr(options, name) for name in (*CHOICES, *NAMED) if getattr(options, name)}
    if options.unique:
        overrides["ambiguous"] = "error"
    return base.with_options(**overrides)


def add_version(parser: argparse._ActionsContainer) -> None:
    """`-V`, `--version`: prints `PROG VERSION`; the version is read only then."""

    class _Version(argparse.Action):
        def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                             help="print the version and exit")  # fmt: skip

        def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:  # the parser, not a group
            print_version(parser.prog)
            parser.exit()

    parser.add_argument("-V", "--version", action=_Version, dest=argparse.SUPPRESS)


# Characters JSON text may hold raw in its strings that drive a terminal (C1 controls:
# U+009B is CSI), break a line in some readers (U+2028, U+2029) or stop an encoder
# (lone surrogates); ESC and the other C0 controls JSON escapes itself.
_JSON_UNSAFE = "[\x80-\x9f\u2028\u2029\ud800-\udfff]"


def json_safe(text: str) -> str:
    """JSON text (from `json.dumps(..., ensure_ascii=False)`) with those characters as
    `\\u` escapes: the same JSON value, safe to print and to encode."""
    if text.isascii():
        return text
    import re  # loaded already by the console script

    return re.sub(_JSON_UNSAFE, lambda found: f"\\u{ord(found.group()):04x}", text)


def print_version(prog: str) -> None:
    """Print `PROG VERSION` (`-V`, `--version`); a closed stdout drops the line quietly."""
    from . import _output

    _output.write(f"{prog} {version()}\n")


def version() -> str:
    """The package's version (`_version`: not `importlib.metadata`, which costs more
    start-up time than applying a small patch)."""
    from .._version import VERSION

    return VERSION
