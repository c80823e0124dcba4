"""The file policies: one field per row of the contract's table, with two presets.

`DEFAULT` is this project's behaviour; `CODEX` reproduces the reference
implementation's file handling where that loses no data (it never keeps a
partially applied patch, never deletes a file moved onto itself, never writes
outside the root unless `outside_root="allow"`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from ._errors import PolicyValueError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    import typing
    from typing import Final, Literal


def _option(default: str, help: str) -> typing.Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True, slots=True)
class Policy:
    """How files are treated and chunks placed; every field is also an option of the executable."""

    add_existing: Literal["error", "overwrite"] = _option(
        "error", "Add File on a path that exists"
    )
    move_existing: Literal["error", "overwrite"] = _option(
        "error", "Move to a path that exists"
    )
    move_same_path: Literal["update", "error"] = _option(
        "update", "Move to the file's own path"
    )
    final_newline: Literal["keep", "add"] = _option(
        "keep", "an updated file that had no final newline"
    )
    pure_addition: Literal["after-context", "end"] = _option(
        "after-context", "where '@@ ctx' followed only by '+' lines inserts them"
    )
    outside_root: Literal["error", "allow"] = _option(
        "error", "paths leaving the root (absolute, '..', symlinks)"
    )
    line_endings: Literal["keep", "lf", "crlf"] = _option(
        "keep", "keep: untouched lines keep theirs, new lines take the file's first one"
    )
    bom: Literal["keep", "strip"] = _option("keep", "a UTF-8 byte-order mark of an updated file")
    move_mode: Literal["keep", "default"] = _option(
        "keep", "permissions of a moved file: the source's (keep) or a new file's (default)"
    )
    binary: Literal["error", "allow"] = _option("error", "updating a file with NUL bytes")
    non_utf8: Literal["ascii", "error", "preserve"] = _option(
        "ascii",
        "updating a file that is not UTF-8, its encoding neither given nor declared (ascii: "
        "refused unless every line matched and written is ASCII; error: refused, whatever a "
        "declaration or byte-order mark says, unless --encoding names its encoding, as the "
        "reference; preserve: its bytes kept as they are)",
    )
    symlinks: Literal["follow", "error"] = _option(
        "follow", "paths through symlinks inside the root"
    )
    ambiguous: Literal["error", "first"] = _option(
        "error",
        "chunks that fit in more than one way, their order kept (error: refuse, naming the places; "
        "first: each at the first place that fits, with a warning)",
    )
    indentation: Literal["match", "verbatim"] = _option(
        "match",
        "added lines of a chunk matched only once leading or trailing whitespace was ignored "
        "(match: indented as the file's matched lines, without trailing whitespace copied from a "
        "removed line the file has without it; verbatim: as sent)",
    )
    slips: Literal["undo", "refuse"] = _option(
        "undo",
        "a model's slips the reference refuses: line numbers copied from a view, blank lines "
        "dropped or added, an elided middle, a chunk whose first line repeats its @@ line, "
        "a unified diff's context lines changed near its line numbers: one look-alike line "
        "anywhere, or up to two at each edge (undo: applied where exactly one reading fits, "
        "with a warning; refuse: refused, as the reference); and a Codex patch's text: "
        "consecutive @@ lines, a Move with no "
        "chunk, an empty line in an Add File, backslash lines, a fence or a heredoc other than <<EOF around "
        "it, JSON or a shell command holding it (undo: read; refuse: refused with the reference's message)",
    )
    message_paths: Literal["relative", "absolute"] = _option(
        "relative", "how messages name files: relative to the root, or absolute as the reference"
    )
    read_only: Literal["error", "allow"] = _option(
        "error", "replacing a file without write permission (allow: written, mode kept)"
    )
    vcs_dir: Literal["error", "allow"] = _option(
        "error", "writing, moving or deleting inside a .git, .hg or .svn folder"
    )
    conventions: Literal["read", "ignore"] = _option(
        "read",
        "a new file's line endings, final newline and charset: from the .editorconfig and "
        ".gitattributes files between its folder and the root (read), or as written (ignore)",
    )

    encoding: str = field(
        default="",
        metadata={
            "help": "the encoding of the files edited and created (a character encoding Python knows: gbk, "
            "shift_jis, cp1252, utf-16...), over what the repository declares and a byte-order mark",
            "metavar": "NAME",
        },
    )
    check_syntax: Literal["warn", "refuse", "off"] = _option(
        "warn",
        "changed files of a known language parsed with its tree-sitter grammar: syntax errors "
        "the patch brings in are warnings (warn), refuse the whole patch (refuse), or not "
        "looked for (off)",
    )
    journal: Literal["on", "off", "required"] = _option(
        "on",
        "a receipt of each commit in the user's state folder, for `apply_patch undo` (on: "
        "a warning when it cannot be written; required: no commit without it)",
    )

    def __post_init__(self) -> None:
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise PolicyValueError(
                    f"Invalid value {value!r} for {name}: choose one of {', '.join(choices)}"
                )
        if self.encoding:
            _check_encoding(self.encoding)

    def with_options(self, **options: str) -> Policy:
        """A copy with some fields changed (unknown names are refused)."""
        unknown = sorted(set(options) - set(CHOICES) - set(NAMED))
        if unknown:
            raise PolicyValueError(f"Unknown policy option: {', '.join(unknown)}")
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]


def _check_encoding(name: object) -> None:
    """PolicyValueError unless `name` is a character encoding Python knows (`character_codec`)."""
    if character_codec(name) is None:
        raise PolicyValueError(
            f"Invalid value {name!r} for encoding: not a character encoding Python knows "
            "(utf-8, latin-1, cp1252, gbk, shift_jis, big5, utf-16...)"
        )


# The codecs of Python's `encodings` package that are not character encodings: bytes to
# bytes or text to text transforms, and Python's own escapes and labels (several carry its
# "text encoding" flag, which is why the flag is not the test).
_NOT_CHARACTER_ENCODINGS: Final = frozenset({
    "base64_codec", "bz2_codec", "hex_codec", "quopri_codec", "uu_codec", "zlib_codec", "rot_13",
    "idna", "punycode", "unicode_escape", "raw_unicode_escape", "undefined", "charmap",
})  # fmt: skip


def character_codec(name: object) -> str | None:
    """The canonical name of `name` if it is one of the standard character encodings of
    Python's `codecs` (a module of its `encodings` package, not one of the transforms and
    escapes of `_NOT_CHARACTER_ENCODINGS`), else None: an unknown name, a codec some other
    package registered, or one that is not a character encoding."""
    import codecs

    if not isinstance(name, str) or not name or "\0" in name:
        return None
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    module, _, codec = getattr(info.incrementalencoder, "__module__", "").rpartition(".")
    if module != "encodings" or codec in _NOT_CHARACTER_ENCODINGS:
        return None
    return info.name


def _choices() -> dict[str, tuple[str, ...]]:
    # Read from the text of each `Literal["a", "b"]` annotation: evaluating it
    # would import typing, a good part of the executable's start-up time.
    # (Nor a regular expression: compiling one is more than the rest of this module.)
    return {
        f.name: tuple(choice.strip(" \"'") for choice in str(f.type)[len("Literal[") : -1].split(","))
        for f in dataclasses.fields(Policy)
        if str(f.type).startswith("Literal[")
    }


CHOICES: Final = _choices()
# The fields whose value is a name, not a choice (an option `--encoding NAME`): name → metavar.
NAMED: Final = {f.name: str(f.metadata["metavar"]) for f in dataclasses.fields(Policy) if f.name not in CHOICES}
HELP: Final = {f.name: str(f.metadata["help"]) for f in dataclasses.fields(Policy)}

DEFAULT: Final = Policy()
CODEX: Final = Policy(
    add_existing="overwrite",
    move_existing="overwrite",
    final_newline="add",
    pure_addition="end",
    message_paths="absolute",
    vcs_dir="allow",
    ambiguous="first",
    indentation="verbatim",
    slips="refuse",
    conventions="ignore",
    non_utf8="error",
)


def policy_of(policy: Policy, options: dict[str, str]) -> Policy:
    """The one policy a public call runs under: `policy` with its keyword `options` applied.

    Every public entry (apply functions, editors, adapters) takes a `policy` and
    `**options` and turns them into one `Policy` here; what it calls is passed
    that `Policy` alone.
    """
    return policy.with_options(**options) if options else policy
