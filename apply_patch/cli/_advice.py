"""What to do next, for mistakes made on the command line rather than in the patch.

The library's messages speak to whoever wrote the patch (often a model); these
hints speak to whoever ran the executable: the input is in another format than
`--format` says (`apply_patch --format unified-diff`), an option came after the
patch, an option or a subcommand was misspelt. Imported only when something
failed (start-up time: `difflib`, regular expressions).
"""

from __future__ import annotations

from .._errors import PatchError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Iterable, Sequence

def seen_format(text: str) -> str | None:
    """The format whose sign comes first in `text`, or None when no line gives one away.

    Each format's `sign` (the registry's) is stricter than its marker for `--format auto`
    (`_formats.detect`): a hint must not mislead, so a unified diff needs its `---`/`+++`
    pair or an `@@ -1,2 +1,2 @@` line."""
    from ..format import FORMATS

    found = [(match.start(), f.name) for f in FORMATS if f.sign is not None and (match := f.sign.search(text))]
    return min(found)[1] if found else None


def with_format_hint(error: PatchError, text: str, asked: str) -> PatchError:
    """`error`, with a hint naming the right `--format` when the input is plainly in another
    format than the one `asked` for (it could not be read: a syntax error). The hint comes
    first in `error.hints` (the library's may tell a model how to rewrite the input; on the
    command line, the option is the quicker way), so that the text printed and `--json`'s
    `hints` both carry it. It takes the place of the library's own guess at the format
    (`FORMAT_GUESSES`), which would say the same thing a second time."""
    if asked == "auto" or error.kind not in ("syntax", "unified_diff"):
        return error
    seen = seen_format(text)
    if seen is not None and seen != asked:
        from ..format import FORMAT_GUESSES, format_named

        error.hints = (format_named(seen).hint, *(hint for hint in error.hints if hint not in FORMAT_GUESSES))
    return error


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice most like `word` (a misspelt option or command), if one is close enough."""
    import difflib

    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    return found[0] if found else None


def extra_arguments(arguments: Sequence[str], commands: Iterable[str]) -> str:
    """What to say after "accepts exactly one argument" about these `arguments`.

    Options after the patch: options go first. A first argument that is a
    misspelt command: the command. Otherwise nothing.
    """
    if any(a.startswith("-") and a != "-" for a in arguments[1:]):
        shown = " ".join(arguments[1:])
        return f"Options go before the patch: apply_patch {shown} 'PATCH'."
    command = closest(arguments[0], commands) if arguments else None
    if command is not None:
        return f"'{arguments[0]}' is no command: did you mean apply_patch {command}?"
    return ""
