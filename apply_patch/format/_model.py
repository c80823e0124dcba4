"""The typed model of a parsed patch; `str()` gives canonical patch text.

Every node records the patch line where it starts (`line`, 1 = `*** Begin
Patch`). Line numbers do not take part in equality, so
`parse_patch(str(p)) == p` holds for every parsed patch `p`.

The model is one for every format: the Codex envelope, a unified diff, the
other formats' edits (`format/_edits.py`, lowered by `format/_lower.py`) and
the Responses API's operations all become a `Patch` of `AddFile`,
`DeleteFile` and `UpdateFile`; an update holds edits of one closed set
(`Change`): context chunks (`Chunk`), replacements of a given text
(`StrReplace`), insertions at a line (`Insert`) and notebook cell
edits (`NotebookEdit`). The three that only the other formats make are defined
beside their calls (`_edits.py`), imported when such an edit is made, so that
a Codex patch does not pay for making their classes at start-up; `Change`,
their union with `Chunk`, is `_lower`'s. Each edit carries its origin (`line`) and how messages
name it (`label`); only the Codex envelope's own nodes have patch text.

`endings` (of a Chunk or an AddFile) holds the `\\` lines beyond the
reference: `(i, ending)` pairs, in order, saying that `lines[i]` (a `+` line)
ends with `ending` in the new file ("\\n", "\\r\\n", "\\r", or "" for
`\\ No newline at end of file`, only on the last line). A unified diff's hunk
says more: the ending of the new file's last line, a context line, where the old
file had no final newline, and "" on its last `-` line (the old file's last line,
without a break) when it keeps no line (`apply/matching/_splice.written` reads both). Empty
for every patch that does not use them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from . import _constants as C

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._edits import HashlineEdits, Insert, NotebookEdit, StrReplace


@dataclass(frozen=True, slots=True)
class HeaderCounts:
    """The old and new lines a unified diff hunk's header counts (`@@ -a,old +c,new @@`)."""

    old: int
    new: int


@dataclass(frozen=True, slots=True)
class Chunk:
    """One located change inside an Update.

    `contexts` are the `@@` lines (outermost first), each narrowing where the
    chunk is searched. `lines` are the chunk's lines with their prefix kept:
    `" "` context, `"-"` removed, `"+"` added (a blank patch line is `" "`).
    `is_end_of_file` pins the chunk to the end of the file. `endings`: see
    the module's docstring.

    A chunk may come from another format (a unified diff's hunk); then
    `near` is the 0-based file line where its own numbers put it (a hint
    among several places, and where a chunk of added lines only goes),
    `label` how messages name it ("the hunk at line 7"; default "the chunk
    at patch line N") and `noun` how they name its side of a comparison
    ("hunk"; default "patch"). `counted`: the old and new lines its header
    counts where the hunk shows another number of them (the lines of an
    elision counted, or a blank line the model dropped): which of several
    readings its numbers name. None of the four is part of the patch text
    or of equality.
    """

    contexts: tuple[str, ...]
    lines: tuple[str, ...]
    is_end_of_file: bool = False
    line: int = field(default=0, compare=False, repr=False)
    endings: tuple[tuple[int, str], ...] = ()
    near: int | None = field(default=None, compare=False, repr=False)
    label: str = field(default="", compare=False, repr=False)
    noun: str = field(default="patch", compare=False, repr=False)
    counted: HeaderCounts | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """How messages name the chunk: its `label`, or "the chunk at patch line N"."""
        return self.label or f"the chunk at patch line {self.line}"

    @property
    def old_lines(self) -> list[str]:
        """The lines the chunk expects in the file: context and removed lines."""
        return [s[1:] for s in self.lines if s[0] != C.ADDED]

    @property
    def new_lines(self) -> list[str]:
        """The lines the chunk leaves in their place: context and added lines."""
        return [s[1:] for s in self.lines if s[0] != C.REMOVED]

    @property
    def added(self) -> int:
        """Number of added lines."""
        return sum(1 for s in self.lines if s[0] == C.ADDED)

    @property
    def removed(self) -> int:
        """Number of removed lines."""
        return sum(1 for s in self.lines if s[0] == C.REMOVED)

    @property
    def added_endings(self) -> tuple[str | None, ...]:
        """The explicit ending of each `+` line in order (None: as the policy says)."""
        explicit = dict(self.endings)
        return tuple(explicit.get(i) for i, s in enumerate(self.lines) if s[0] == C.ADDED)

    def _canonical(self) -> Iterator[str]:
        if not self.contexts:
            yield C.CHUNK_HEADER
        for context in self.contexts:
            yield C.CHUNK_HEADER_WITH_CONTEXT + context
        yield from _with_markers(self.lines, self.endings)
        if self.is_end_of_file:
            yield C.END_OF_FILE


@dataclass(frozen=True, slots=True)
class AddFile:
    """Create `path` with `lines` (each written with a line ending, see `text`).

    `existing` says what a file already at `path` means: "policy" (the Add File
    policy decides: refused, or overwritten as the reference does), "overwrite"
    (replaced whole, whatever the policy: Claude Code's `Write`), "empty" (the
    policy decides, but an empty file is filled: a replacement with an empty old
    text). `label` names the edit in messages ("" for the Codex envelope's Add
    File, whose message points to `*** Update File:`); not part of equality.
    """

    path: str
    lines: tuple[str, ...]
    line: int = field(default=0, compare=False, repr=False)
    endings: tuple[tuple[int, str], ...] = ()
    existing: str = "policy"
    label: str = field(default="", compare=False, repr=False)

    @property
    def content(self) -> str:
        """The new file's text under the default policy (`text()`)."""
        return self.text()

    def text(self, ending: str = "\n", *, force: bool = False) -> str:
        """The new file's text: each line ends with its explicit ending, or `ending`.

        With `force` (a policy rewriting every ending), every line that has
        an ending gets `ending`; `\\ No newline at end of file` still holds.
        """
        explicit = dict(self.endings)
        ends = (explicit.get(i, ending) for i in range(len(self.lines)))
        if force:
            ends = (e and ending for e in ends)
        return "".join(map(str.__add__, self.lines, ends))

    def _canonical(self) -> Iterator[str]:
        if self.existing != "policy":
            raise ValueError(f"{_NO_TEXT}: an Add File that {_EXISTING[self.existing]}")
        yield C.ADD_FILE + self.path
        yield from _with_markers(tuple(C.ADDED + text for text in self.lines), self.endings)


@dataclass(frozen=True, slots=True)
class DeleteFile:
    """Remove the file `path`."""

    path: str
    line: int = field(default=0, compare=False, repr=False)

    def _canonical(self) -> Iterator[str]:
        yield C.DELETE_FILE + self.path


@dataclass(frozen=True, slots=True)
class UpdateFile:
    """Change `path` edit by edit, in order, and rename it to `move_to` if given.

    `chunks` are its edits (`Change`, in order): only context chunks in a Codex patch or a
    unified diff; replacements, insertions and cell edits from the other formats.
    """

    path: str
    move_to: str | None
    chunks: tuple[Chunk | StrReplace | Insert | NotebookEdit | HashlineEdits, ...]
    line: int = field(default=0, compare=False, repr=False)

    def _canonical(self) -> Iterator[str]:
        yield C.UPDATE_FILE + self.path
        if self.move_to is not None:
            yield C.MOVE_TO + self.move_to
        for chunk in self.chunks:
            if not isinstance(chunk, Chunk):
                raise ValueError(f"{_NO_TEXT}: {type(chunk).__name__} of {self.path!r}")
            yield from chunk._canonical()


Operation = AddFile | DeleteFile | UpdateFile

_NO_TEXT = "The Codex envelope cannot write this patch"
_EXISTING = {"overwrite": "overwrites an existing file", "empty": "fills an empty file"}


def _with_markers(lines: tuple[str, ...], endings: tuple[tuple[int, str], ...]) -> Iterator[str]:
    """`lines`, each followed by its `\\` line if it has an explicit ending."""
    explicit = dict(endings)
    for i, line in enumerate(lines):
        yield line
        if i in explicit:
            ending = explicit[i]
            yield C.LINE_ENDING + C.ENDING_NAMES[ending] if ending else C.NO_NEWLINE


@dataclass(frozen=True, slots=True)
class Patch:
    """A whole patch: its operations in patch order.

    When the patch came inside a shell command or JSON (see `parse_patch`),
    `workdir` is the folder of the command's `cd` (patch paths are taken from
    there; None: none) and `notes` say what was decoded; neither is part of
    the patch text nor of equality.

    `per_file` (the other formats): the result lists each file once (`A` if
    the patch created it, else `M`; a failure names its edit by line and
    label); a Codex patch lists one result per operation, as the reference's
    summary does, and a failure names its operation's index.
    """

    operations: tuple[Operation, ...]
    environment_id: str | None = None
    workdir: str | None = field(default=None, compare=False, repr=False)
    notes: tuple[str, ...] = field(default=(), compare=False, repr=False)
    per_file: bool = field(default=False, compare=False, repr=False)

    def __str__(self) -> str:
        """The patch's Codex text; ValueError when it holds what only the other formats
        say (a replacement, an insertion at a line, a cell edit, a file overwritten)."""
        lines = [C.BEGIN_PATCH]
        if self.environment_id is not None:
            lines.append(C.ENVIRONMENT_ID + self.environment_id)
        for operation in self.operations:
            lines.extend(operation._canonical())
        lines.append(C.END_PATCH)
        return "\n".join(lines) + "\n"
