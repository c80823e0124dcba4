"""A patch judged while it streams in: each chunk located against its file as its lines arrive.

`StreamingPlan` is fed the patch text in pieces of any size (`feed`) and returns,
for each complete line that decides one, a `Verdict`:

- `not_found`: the old lines of the chunk received so far (trailing blank lines set
  aside; a partial last line is not judged until its line ends) match nowhere after the
  chunks before it, even with the engine's retries and slips; the message is the one the
  engine gives (`_diagnose.missing_chunk`, through `_locate.searched`). Also for an
  Update whose file cannot be read (its message the planner's), and for a complete chunk
  the locator refuses otherwise (indentation, ...).
- `placed`: a complete chunk (its next `@@` line, operation or `*** End Patch` arrived)
  located by `_locate.locate` with the file's chunks so far; provisional: a later chunk of
  the same file may make it `ambiguous`, which is then reported under its own line.
- `ambiguous`: the locator refuses a chunk as fitting several places (policy
  `ambiguous="error"`) or warns that it does (`"first"`).

After the first `not_found` of a file no more verdicts come for it (the engine stops
there too). Under `slips="refuse"` (`--codex`) a chunk the reference does not read
(several `@@` lines, `\\` lines) gets no verdict, as a chunk the grammar refuses gets
none. Nothing is locked and nothing written while the text streams: each file is read
once (through `DiskTree`, as the planner reads it) and searched through one `LineIndex`.
What explains a refusal, which a run imports at its first failure, is imported when
the plan is made (`planning.prepare_refusals`): the first `not_found` comes as soon as the next.
The text is read by the format's one streaming reader (`PartialReader`, the grammar's
parser fed line by line): the operations, each chunk's lines and patch line, and each
complete chunk as the grammar builds it come from what it reports (`LineRead`); no
marker is told here. `finish` applies the whole text through the one pipeline
(`apply_patch`: lock, plan, re-checks, all-or-nothing commit), refusing it
(`ConcurrentChangeError`) when a file judged while streaming holds other bytes at the
plan (the check of `_seen.Seen`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .._errors import AmbiguousChunkError, ConcurrentChangeError, ContextNotFoundError, PatchError
from .._policy import DEFAULT, Policy, policy_of
from ..format import Patch, PartialReader, constants as C, to_operation
from .records import hexdigest
from .planning import DiskTree
from .matching import locate, searched
from .planning import Planner, prepare_refusals
from .matching import LineIndex
from .records import Seen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable
    from typing import Literal

    from ..format import Chunk, LineRead
    from .planning import Location
    from ._pipeline import ApplyResult

@dataclass(frozen=True, slots=True)
class Verdict:
    """One chunk's verdict: `verdict` "placed", "ambiguous" or "not_found"; `path` as the
    patch names the file; `patch_line` the chunk's line (1-based, in the text fed);
    `file_lines` the first and last file lines it covers (None when it has no place)."""

    verdict: Literal["placed", "ambiguous", "not_found"]
    path: str
    patch_line: int
    file_lines: tuple[int, int] | None
    message: str

    def as_json(self) -> dict[str, object]:
        """The verdict as `apply_patch --stream` prints it (docs/cli.md)."""
        lines = None if self.file_lines is None else list(self.file_lines)
        return {"verdict": self.verdict, "path": self.path, "patch_line": self.patch_line,
                "file_lines": lines, "message": self.message}  # fmt: skip


class _File:
    """An Update being streamed: its file's lines and index, and its chunks so far."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []
        self.index: LineIndex | None = None
        self.where: Location | None = None
        self.dead = False  # a not_found was reported: nothing more is judged
        self.chunk_line = 0  # the open chunk's patch line (the reader's): its first `@@` line, else its first
        self.after = 0  # where the engine searches the file's next chunk from (-1: not known)
        self.counts: Counter[str] | None = None  # how often each line is in the file (read once)
        self.old: list[str] = []  # the open chunk's old lines
        self.elided = False  # one of them holds "...": an elision the engine may read as such
        self.at: int | None = None  # where its old lines so far were found
        self.chunks: tuple[Chunk, ...] = ()  # its complete chunks, as parsed
        self.reported: dict[int, str] = {}  # patch line → the verdict last given


class StreamingPlan:
    """A patch fed in pieces, its chunks judged as they arrive; applied by `finish`.

    `root`, `workdir`, `policy` and `**options` are `apply_patch`'s. `on_verdict`, if
    given, is called with each verdict as soon as it is made (`feed` returns them too).
    A text whose path is given (`path`) is the diff of one Update (the native tool's
    `apply_patch_call_operation_diff` deltas of an `update_file` operation): its patch
    lines are counted in the diff.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] = ".",
        *,
        workdir: str | os.PathLike[str] = ".",
        policy: Policy = DEFAULT,
        path: str | None = None,
        on_verdict: Callable[[Verdict], None] | None = None,
        **options: str,
    ) -> None:
        self.root, self.workdir = os.fspath(root), os.fspath(workdir)
        self.policy = policy_of(policy, options)
        self.on_verdict = on_verdict
        self._tree = DiskTree(self.root, self.policy, self.workdir)
        self._planner = Planner(self._tree)
        prepare_refusals()  # now, before any line: the first `not_found` no slower than the next
        self._pieces: list[str] = []
        self._reader = PartialReader(diff_of=path)  # a diff: the body of one Update, its lines counted in it
        self._file: _File | None = None
        self._seen: dict[str, str] = {}  # a file's key → the hash of its bytes as judged
        self._diff_path = path
        self._early: list[Verdict] = []
        if path is not None:
            self._early = self._open(path, 0)  # returned by the first `feed`

    def feed(self, text: str) -> list[Verdict]:
        """Take the next piece of the patch; the verdicts its complete lines decide."""
        self._pieces.append(text)
        found, self._early = self._early, []
        for line in self._reader.read(text):
            found += self._read(line)
        return found

    def finish(self, *, dry_run: bool = False) -> ApplyResult:
        """Apply the whole text fed, all or nothing (`apply_patch`), after the last verdicts
        (given to `on_verdict`); ConcurrentChangeError if a file judged while streaming
        changed since. Raises the engine's PatchError for a patch that does not apply."""
        from ._pipeline import apply_patch

        for line in self._reader.end():  # the last line, and the chunk it ends
            self._read(line)
        self._file = None
        text: str | Patch = "".join(self._pieces)
        if self._diff_path is not None:  # read as the native tool's operation is: its lines are chunks only
            text = Patch((to_operation("update_file", self._diff_path, text),))
        seen = Seen(refuse=_changed_while_streaming)
        seen.hashes.update(self._seen)
        with seen.watching():
            return apply_patch(text, self.root, workdir=self.workdir, dry_run=dry_run, policy=self.policy)

    # The lines, one at a time, as the reader read them.

    def _read(self, read: LineRead) -> list[Verdict]:
        current = self._file
        found: list[Verdict] = []
        if read.complete is not None and current is not None and not current.dead:
            if not self._unread(read.complete):
                found += self._close_chunk(current, read.complete)
        if read.operation is not None or read.finished:  # an operation's header, or the end
            self._file = None
            if read.operation is not None and read.operation.kind == "update":
                found += self._open(read.operation.path, read.number)
            return found
        if current is None or current.dead or read.old is None:
            return found
        if read.chunk_line != current.chunk_line:  # the first line of a chunk (or after a refused one)
            current.chunk_line, current.old, current.at, current.elided = read.chunk_line, [], None, False
        current.old.append(read.old)
        current.elided = current.elided or "..." in read.old
        return found + self._judge_prefix(current)

    def _unread(self, chunk: Chunk) -> bool:
        """Whether the reference does not read `chunk` (several `@@` lines, `\\` lines), under
        `slips="refuse"` (`--codex`): it then gets no verdict, as a chunk the grammar
        refuses gets none, and the result names the error."""
        return self.policy.slips == "refuse" and (len(chunk.contexts) > 1 or bool(chunk.endings))

    def _open(self, path: str, number: int) -> list[Verdict]:
        current = self._file = _File(path)
        try:
            where = self._tree.resolve(path, line=number)
            state = self._planner._readable(where, number)
            text, _ = self._planner.read_text(state.data, where, number)
        except PatchError as error:
            current.dead = True
            return self._tell(_verdict("not_found", path, number, None, error))
        current.where, current.lines = where, text.lines
        digest = hexdigest(state.data)
        for key in (where.target, where.entry):  # a moved file's source is its entry
            self._seen[key] = digest
        return []

    def _judge_prefix(self, current: _File) -> list[Verdict]:
        """`not_found` when the open chunk's old lines so far (trailing blanks set aside) are
        nowhere the engine would look for them, with its message."""
        size = len(current.old)
        while size and not current.old[size - 1].strip():
            size -= 1
        if not size or size != len(current.old) or current.elided:
            return []  # a blank line may be the reference's trailing one; "..." an elision
        at, lines = current.at, current.lines
        if at is not None and at + size <= len(lines) and lines[at + size - 1] == current.old[-1]:
            return []  # still where it was found: each line costs one comparison
        if current.index is None:
            current.index = LineIndex(lines)
        # A place anywhere means no verdict yet (never narrower than the engine). Searched
        # first after the place the shorter prefix had (in the tier it matched in, the longer
        # one matches nowhere before it), then where the engine looks (after the file's
        # chunks so far), then from the top. Chunks come in file order, so the index goes on
        # from its last place found: a file is searched about once in all, not once a line.
        after = max(current.after, 0)
        match = None
        for start in (*(() if at is None else (at + 1,)), after, *((0,) if after else ())):
            match = current.index.seek(current.old, start)
            if match is not None:
                break
        if match is not None:
            current.at = match.index
            return []
        chunk = self._prefix_chunk(current)
        try:  # the engine's own search and diagnosis (retries, slips) of the lines so far
            searched(lines, (*current.chunks, chunk), self.policy, _where(current), index=current.index)
        except ContextNotFoundError as error:
            current.dead = True
            return self._tell(_verdict("not_found", current.path, chunk.line, None, error))
        except PatchError:
            return []  # found in some other way (ambiguous, say): the complete chunk decides
        return []

    def _close_chunk(self, current: _File, last: Chunk) -> list[Verdict]:
        """The verdicts of the chunk just completed, `last` (and of the file's chunks before it).

        A chunk found exactly where its lines were seen arriving, with one place only after
        the file's chunks before it, is placed there (as the engine places it: one place, no
        doubt) without locating the others again; any other is located with the file's
        chunks so far (`_locate.locate`: its tiers, slips, and their order's other places).
        """
        at = current.at
        current.chunk_line, current.old, current.at, current.elided = 0, [], None, False
        chunks = current.chunks = (*current.chunks, last)
        if at is not None and self._alone(current, last, at):
            current.after = at + len(last.old_lines)
            span = (at + 1, at + len(last.old_lines))
            message = f"{last.name} placed at line {at + 1} of {_where(current).shown}"
            return self._once(current, Verdict("placed", current.path, last.line, span, message))
        try:
            replacements, placements, warnings = locate(current.lines, chunks, self.policy, _where(current))
        except AmbiguousChunkError as error:
            line = error.patch_line or last.line
            return self._once(current, _verdict("ambiguous", current.path, line, None, error))
        except PatchError as error:
            current.dead = True
            line = error.patch_line or last.line
            return self._tell(_verdict("not_found", current.path, line, None, error))
        current.after = -1  # a slip may have changed its length: the next chunk is located too
        found: list[Verdict] = []
        for warning in warnings:
            if warning.kind == "ambiguous" and warning.patch_line is not None:
                line = warning.patch_line
                found += self._once(current, Verdict("ambiguous", current.path, line, None, warning.message))
        if not any(v.patch_line == last.line for v in found):
            placement = placements[-1]
            first = placement.file_line
            # Its last line: after its old lines, or its last replacement's (an elided middle
            # covers more lines than it quotes); chunks are in order, so the later ones are its.
            ends = [r.start + r.old_len for r in replacements if r.start >= first - 1]
            span = (first, max(first + len(last.old_lines) - 1, *ends, first))
            message = f"{last.name} placed at line {first} of {_where(current).shown}"
            found += self._once(current, Verdict("placed", current.path, last.line, span, message))
        return found

    def _alone(self, current: _File, chunk: Chunk, at: int) -> bool:
        """Whether `chunk` is placed at `at` for certain, as the engine's plain strategy (`_plain`)
        decides: no `@@` line, not pinned to the end, its lines exactly the file's at `at`, at
        or after the chunks before it, and one of them found once in the whole file (so the
        chunk fits nowhere else, in any tier: the exact one is tried first)."""
        pattern = chunk.old_lines
        if chunk.contexts or chunk.is_end_of_file or chunk.endings or not pattern:
            return False
        if current.after < 0 or at < current.after or current.lines[at : at + len(pattern)] != pattern:
            return False
        if current.counts is None:
            from collections import Counter

            current.counts = Counter(current.lines)
        return any(current.counts[line] == 1 for line in pattern)

    def _once(self, current: _File, verdict: Verdict) -> list[Verdict]:
        """`verdict`, unless the same was already given for its line."""
        if current.reported.get(verdict.patch_line) == verdict.verdict:
            return []
        current.reported[verdict.patch_line] = verdict.verdict
        return self._tell(verdict)

    def _tell(self, verdict: Verdict) -> list[Verdict]:
        if self.on_verdict is not None:
            self.on_verdict(verdict)
        return [verdict]

    def _prefix_chunk(self, current: _File) -> Chunk:
        """The open chunk's old lines received so far as the engine's Chunk, each a removed
        line: no new line of it is judged yet (nor said to be in the file already). Without
        its `@@` lines: a wider search than the chunk's, never a narrower one."""
        from ..format import Chunk

        lines = tuple(C.REMOVED + s for s in current.old)
        return Chunk((), lines, line=current.chunk_line)


def _where(current: _File) -> Location:
    assert current.where is not None  # a dead file is judged no more
    return current.where


def _verdict(
    kind: Literal["placed", "ambiguous", "not_found"], path: str, line: int,
    span: tuple[int, int] | None, error: PatchError,
) -> Verdict:  # fmt: skip
    return Verdict(kind, path, line, span, str(error))


def _changed_while_streaming(names: list[str]) -> PatchError:
    return ConcurrentChangeError(
        f"{names[0]} changed on disk while the patch was streaming: nothing was written; "
        "read it again and send the patch again",
        path=names[0],
    )
