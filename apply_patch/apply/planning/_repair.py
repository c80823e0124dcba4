"""The repair hook: an edit whose old text (or a chunk whose lines) is not in its file
as written (not found, or found only with blank lines that read several ways: `Unfound`),
corrected once by a callable the caller gives (a model, typically), then planned again.

The engine calls the hook after it has released its locks (a model call must never
hold the root's lock), with the file's text, the failed edit and the diagnostic; the
hook returns a corrected `StrReplace` of the same file, or None. The correction is
used only if its old text is in the file exactly once; the whole patch is then planned
and committed again, all or nothing, and a `repaired` warning says what was changed.
Answers are cached: an identical failure does not call the hook twice. The cache keeps
a digest of each request, never its text, and only answers of at most `ANSWER_CHARS`
characters, `_CACHED` of them: bounded in size whatever the files. The answer is
input like any other: a field of the wrong type is refused with a clear reason.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from ..matching import PatchWarning
from ..._errors import AmbiguousBlankLinesError, ContextNotFoundError
from ...format import Chunk, StrReplace, UpdateFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from ...format import EditOperation, Operation

from typing import TypeAlias

Repair: TypeAlias = "Callable[[RepairRequest], StrReplace | None]"  # the hook: a failed edit → its correction, or None
Unfound: TypeAlias = "ContextNotFoundError | AmbiguousBlankLinesError"  # what the hook is asked about

_CACHED: Final = 256  # answers kept (the oldest dropped first)
ANSWER_CHARS: Final = 64 * 1024  # an answer longer than this (old and new text) is used, not kept
_cache: dict[tuple[object, str], StrReplace | None] = {}


@dataclass(frozen=True, slots=True)
class RepairRequest:
    """What the repair hook is given: the file `path` (relative to the root) and its
    whole `text` now; the failed edit's `old` text (for a chunk, its context and removed
    lines) and `new` text (its context and added lines); the engine's `diagnostic`,
    as a model would read it (where, what the file holds instead, hints)."""

    path: str
    text: str
    old: str
    new: str
    diagnostic: str


@dataclass(frozen=True, slots=True)
class Failure:
    """Where the failed edit is: operation `index`, and for an Update its chunk `chunk`."""

    index: int
    chunk: int | None
    old: str
    new: str


def failure_of(
    operations: Sequence[Operation | EditOperation], error: Unfound
) -> Failure | None:
    """The edit of `operations` that `error` is about, or None if it is not one the hook
    can correct (an insertion, a chunk's `@@` line, an edit of another file...)."""
    if isinstance(error, ContextNotFoundError) and error.context is not None:
        return None  # an `@@` line not found: the chunk's lines were not even looked for
    for index, op in enumerate(operations):
        if isinstance(op, StrReplace) and op.line == error.patch_line and op.old and _same(op.path, error):
            return Failure(index, None, op.old, op.new)
        if isinstance(op, UpdateFile) and _same(op.path, error):
            for number, chunk in enumerate(op.chunks):
                if isinstance(chunk, Chunk) and chunk.line == error.patch_line:
                    return Failure(index, number, *_sides(chunk))
    return None


def _same(path: str, error: Unfound) -> bool:
    """Whether the edit of the file `path` is the one `error` names: by the file's path, or
    by the name the edit wrote where the planner took it for another's (`written_path`)."""
    named = (error.path, error.written_path)
    return any(name is not None and path.lstrip("./") == name.lstrip("./") for name in named)


def _sides(chunk: Chunk) -> tuple[str, str]:
    old = "".join(line[1:] + "\n" for line in chunk.lines if line[:1] in (" ", "-", ""))
    new = "".join(line[1:] + "\n" for line in chunk.lines if line[:1] in (" ", "+", ""))
    return old, new


def ask(repair: Repair, request: RepairRequest) -> StrReplace | None:
    """The hook's answer to `request`, asked once per identical request and hook (while
    the answer is kept: see the module's docstring)."""
    key = (repair, _digest(request))
    if key in _cache:
        return _cache[key]
    answer = repair(request)
    if _size(answer) <= ANSWER_CHARS:
        if len(_cache) >= _CACHED:
            del _cache[next(iter(_cache))]
        _cache[key] = answer
    return answer


def _digest(request: RepairRequest) -> str:
    """A SHA-256 of every field of `request`, each length-prefixed (no two requests alike)."""
    import hashlib

    digest = hashlib.sha256()
    for value in (request.path, request.text, request.old, request.new, request.diagnostic):
        data = value.encode("utf-8", "surrogatepass")
        digest.update(b"%d:" % len(data) + data)
    return digest.hexdigest()


def _size(answer: object) -> int:
    """How many characters `answer` holds, as far as it can say (anything else: too many)."""
    if answer is None:
        return 0
    if isinstance(answer, StrReplace) and isinstance(answer.old, str) and isinstance(answer.new, str):
        return len(answer.old) + len(answer.new) + len(answer.path if isinstance(answer.path, str) else "")
    return ANSWER_CHARS + 1


def refusal(request: RepairRequest, answer: object) -> str | None:
    """Why `answer` cannot be used (one sentence), or None when it can: a `StrReplace`
    of the same file whose old text is in it exactly once."""
    if answer is None:
        return "the repair hook gave no correction"
    if not isinstance(answer, StrReplace):
        return f"the repair hook gave a {type(answer).__name__}, not a StrReplace"
    for field, noun in (("path", "a path"), ("old", "an old text"), ("new", "a new text")):
        value = getattr(answer, field)
        if not isinstance(value, str):
            return f"the repair hook's correction has {noun} of type {type(value).__name__}, not str"
    if answer.path.lstrip("./") != request.path.lstrip("./"):
        return f"the repair hook's correction is for {answer.path}, not {request.path}"
    if not answer.old:
        return "the repair hook's correction has no old text"
    found = request.text.count(answer.old)
    if found != 1:
        where = "nowhere" if found == 0 else f"{found} places"
        return f"the repair hook's correction was not applied: its old text matches {where} in {request.path}"
    return None


def corrected(
    operations: Sequence[Operation | EditOperation], failure: Failure, answer: StrReplace
) -> list[Operation | EditOperation]:
    """`operations` with the failed edit replaced by `answer` (exactly one place).

    A failed chunk of an Update splits it: its chunks before, the correction, its
    chunks after (then its move), each applied to what the one before left.
    """
    op = operations[failure.index]
    fix = StrReplace(op.path, answer.old, answer.new, line=op.line)
    if isinstance(op, StrReplace):
        pieces: list[Operation | EditOperation] = [replace(fix, label=op.label, terms=op.terms)]
    else:
        assert isinstance(op, UpdateFile) and failure.chunk is not None
        before, after = op.chunks[: failure.chunk], op.chunks[failure.chunk + 1 :]
        pieces = [UpdateFile(op.path, None, before, line=op.line)] if before else []
        pieces.append(replace(fix, line=op.chunks[failure.chunk].line))
        if after or op.move_to is not None:
            pieces.append(UpdateFile(op.path, op.move_to, after, line=op.line))
    return [*operations[: failure.index], *pieces, *operations[failure.index + 1 :]]


def warning(request: RepairRequest, answer: StrReplace, line: int | None) -> PatchWarning:
    """The warning that says a repair was used, and what it changed."""
    first = request.old.split("\n", 1)[0]
    fixed = answer.old.split("\n", 1)[0]
    return PatchWarning(
        "repaired", request.path, line, None, None, (),
        f"{request.path}: an edit's old text was not found (it began {first!r}); the repair "
        f"hook's correction (beginning {fixed!r}) matched exactly one place and was applied",
    )  # fmt: skip
