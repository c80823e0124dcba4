"""Liberal extraction: every apply_patch call in a script, transcript or agent log, in order.

`extract_patches(text)` reads the text as `_transcript` says (JSON, JSON
lines, a script, a terminal transcript, Markdown), finds the calls in each
region (`_script` for shell, `_records` for JSON) and parses each patch.

The working folder follows the text: in shell text, `cd` lasts until the end
of the text (a transcript is one shell session, a Markdown file one reader's
shell), except inside subshells and nested shells; in a JSON log, each call
has its own folder. A folder is relative to where the session started (`.`),
unless it was given as an absolute path or from `~`.
"""

from __future__ import annotations

import posixpath

from dataclasses import dataclass

from .._errors import PatchSyntaxError
from ..format import Patch, parse_patch
from ._records import call_outcomes, is_argv, json_calls
from ._session import Session
from ._script import ShellCall, ShellState, script_calls
from ._transcript import ShellText, regions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..format import Edit


@dataclass(frozen=True, slots=True)
class FoundPatch:
    """A patch found in an apply_patch call, and parsed.

    `patch` is the text the call gave apply_patch; `workdir` the folder it ran
    in; `line` the 1-based line of the call in the text; `source` the kind of
    text around it: `script`, `terminal`, `markdown`, `argv` (a JSON argv
    array) or `log` (a JSON record of an agent log); `parsed` the patch, its
    absolute paths inside a log's session folder made relative to `workdir`;
    `envelope` False when `patch` is a reply's unified diff, not a Codex patch.
    """

    patch: str
    workdir: str
    line: int
    source: str
    parsed: Patch
    logged_outcome: str = "unknown"
    envelope: bool = True


@dataclass(frozen=True, slots=True)
class BrokenPatch:
    """An apply_patch call whose patch does not parse: `error` says why (fields as FoundPatch)."""

    patch: str
    workdir: str
    line: int
    source: str
    error: PatchSyntaxError
    logged_outcome: str = "unknown"


@dataclass(frozen=True, slots=True)
class FoundEdits:
    """The edits of another tool's call (fields as FoundPatch).

    `kind` is `claude-code` (Edit, MultiEdit, Write), `opencode` (its edit,
    multiedit and write tools), `text-editor` (Anthropic's text-editor tool) or
    `search-replace` (SEARCH/REPLACE blocks in a reply);
    `edits` what they do, applied with `apply_patch.edits.apply_edits`;
    `patch` the edits written as SEARCH/REPLACE blocks, for reading.
    """

    patch: str
    workdir: str
    line: int
    source: str
    kind: str
    edits: tuple[Edit, ...]
    logged_outcome: str = "unknown"


Extracted = FoundPatch | BrokenPatch | FoundEdits


def extract_patches(source: str) -> tuple[Extracted, ...]:
    """Every apply_patch call in `source`, and every patch of a chat reply, in order; never raises.

    A broken patch is a `BrokenPatch` and the calls after it are still found.
    In an agent log, every call is listed, each with its `logged_outcome`: a call
    whose result the log records as failed (an `is_error` tool result, a non-zero
    exit code, an OpenCode part in error) changed nothing, and a replay skips it.
    Text that is no apply_patch call (a patch written to a file, echoed, in a
    comment, `apply_patch --help`) gives nothing. A text that holds no call and is
    neither JSON nor a terminal transcript is read as a chat reply: its patches,
    fenced (any info string) or not, and its fenced unified diffs are found
    (`source` `reply`), but not those in a shell command's heredoc or string.
    """
    found: list[tuple[ShellCall, str]] = []
    outcomes: dict[str, str] = {}
    literal: list[tuple[int, set[int]]] = []  # each shell region's first line, and its rows of data
    session_text = False  # a terminal transcript or JSON: no chat reply in its own lines
    values: list[tuple[object, int]] = []  # the JSON values: their assistant texts may be replies
    state, session = ShellState(), Session()
    for region in regions(source):
        if isinstance(region, ShellText):
            try:
                calls, state = script_calls(region.text, state, region.first_line, region.program)
            except RecursionError:  # shell nested too deep to walk
                calls = _too_deep(region, state)
            literal.append((region.first_line, _data_rows(region)))
            label = region.source
            session_text = session_text or label == "terminal"
        else:
            calls, session = json_calls(region.value, region.line, session)
            outcomes.update(call_outcomes(region.value))
            label = "argv" if is_argv(region.value) else "log"
            session_text = True
            values.append((region.value, region.line))
        found.extend((call, label) for call in calls)
    blocks = _reply_blocks(source)  # in JSON, blocks are in strings: no line of the text is a marker
    if not found and not session_text:  # no call: a chat reply, whose patches are bare or fenced
        blocks += _reply_patches(source, literal)
    elif not found:  # JSON without a call: the assistant's texts may be replies
        blocks += _assistant_replies(values)
    if blocks:
        found = sorted(found + blocks, key=lambda pair: pair[0].line)
    return tuple(_parsed(call, label, _outcome(call, outcomes)) for call, label in found)


def _outcome(call: ShellCall, outcomes: dict[str, str]) -> str:
    if call.outcome is not None:
        return call.outcome
    return outcomes.get(call.call_id, "unknown") if call.call_id is not None else "unknown"


def _data_rows(region: ShellText) -> set[int]:
    """The lines of `region` (1-based in the source) inside heredocs and quoted strings."""
    from ..format import shell

    if "*** Begin Patch" not in region.text and "\n--- " not in region.text:
        return set()  # no patch in it to set aside: no second parse
    program = region.program if region.program is not None else shell.parse(region.text)
    return {region.first_line + row for row in shell.literal_rows(program)}


def _reply_patches(source: str, literal: list[tuple[int, set[int]]]) -> list[tuple[ShellCall, str]]:
    """The Codex patches and fenced unified diffs of a chat reply: not inside a shell
    command's heredoc or string (a patch written to a file, echoed)."""
    from ..format import CODEX_KIND, reply_parts

    if "*** Begin Patch" not in source and "--- " not in source:
        return []
    data = set().union(*(rows for _, rows in literal)) if literal else set()
    patches: list[tuple[ShellCall, str]] = []
    for part in reply_parts(source):
        if part.kind == "search-replace" or part.line in data:
            continue
        patches.append((ShellCall(part.text, ".", part.line, unified=part.kind != CODEX_KIND), "reply"))
    return patches


def _assistant_replies(values: list[tuple[object, int]]) -> list[tuple[ShellCall, str]]:
    """The Codex patches and fenced unified diffs in the assistant's texts of JSON values,
    each at the line of its value."""
    from ..format import CODEX_KIND, reply_parts
    from ._records import assistant_texts

    patches: list[tuple[ShellCall, str]] = []
    for value, line in values:
        for text in assistant_texts(value):
            parts = reply_parts(text) if "*** Begin Patch" in text or "--- " in text else ()
            patches += [
                (ShellCall(part.text, ".", line, unified=part.kind != CODEX_KIND), "reply")
                for part in parts if part.kind != "search-replace"
            ]  # fmt: skip
    return patches


def _too_deep(region: ShellText, state: ShellState) -> list[ShellCall]:
    """A region too deeply nested to walk: a broken call if it may hold one, else nothing."""
    if not any(name in region.text for name in ("apply_patch", "applypatch")):
        return []
    return [ShellCall(region.text, state.cwd, region.first_line, too_deep=True)]


def _reply_blocks(source: str) -> list[tuple[ShellCall, str]]:
    """The SEARCH/REPLACE blocks of a text that is not JSON, as one call at the first block."""
    from ..format import SEARCH, parse_search_replace
    from .._errors import SearchReplaceError

    lines = source.replace("\r\n", "\n").split("\n")
    first = next((i for i, line in enumerate(lines) if SEARCH.fullmatch(line)), None)
    if first is None:
        return []
    try:
        edits = tuple(parse_search_replace(source))
    except SearchReplaceError:
        return []
    return [(ShellCall("search-replace", ".", first + 1, edits=edits), "markdown")]


def _parsed(call: ShellCall, source: str, outcome: str = "unknown") -> Extracted:
    if call.edits is not None:
        from ._edit_calls import edits_text

        return FoundEdits(edits_text(call.edits), call.workdir, call.line, source, call.text, call.edits, outcome)
    if call.too_deep:
        error = PatchSyntaxError(
            f"the shell text from line {call.line} is nested too deep to read (an apply_patch "
            "call in it cannot be found); write the call without so much nesting"
        )
        return BrokenPatch(call.text, call.workdir, call.line, source, error, outcome)
    if call.unified:
        return _unified(call, source)
    try:
        patch = parse_patch(call.text)
        if call.base is not None:
            patch = _inside_session(patch, call.base, call.workdir)
    except PatchSyntaxError as error:
        return BrokenPatch(call.text, call.workdir, call.line, source, error, outcome)
    return FoundPatch(call.text, call.workdir, call.line, source, patch, outcome)


def _unified(call: ShellCall, source: str) -> Extracted:
    """A reply's unified diff: its operations as a `per_file` patch, or a BrokenPatch."""
    from .._errors import PatchError
    from ..format import as_patch, unified_operations

    try:
        patch = as_patch(unified_operations(call.text))
    except PatchError as error:
        broken = PatchSyntaxError(error.message, line=error.patch_line, details=error.details, hints=error.hints)
        return BrokenPatch(call.text, call.workdir, call.line, source, broken)
    return FoundPatch(call.text, call.workdir, call.line, source, patch, envelope=False)


def _inside_session(patch: Patch, base: str, workdir: str) -> Patch:
    """`patch` with its absolute paths inside the session's folder `base` made relative to
    the call's folder `workdir` (itself relative to `base`), as the agent meant them.

    An absolute Windows path outside the session's folder names nothing here:
    PatchSyntaxError rather than a file named `C:\\...` (a POSIX one outside is
    refused by the plan, as any path outside the root is).
    """
    from dataclasses import replace
    from ..format import AddFile, DeleteFile, Operation, UpdateFile
    from ..apply import is_windows_absolute
    from ._session import Session, is_absolute

    session = Session(base, base)

    def mapped(path: str) -> str:
        if not is_absolute(path):
            return path
        inside = session.relative(path)
        if is_windows_absolute(inside):
            raise PatchSyntaxError(
                f"the path {path} is a Windows absolute path outside the session's folder {base}: "
                "it names no file under the root"
            )
        if is_absolute(inside) or is_absolute(workdir):
            return inside
        return posixpath.relpath(inside, workdir)

    operations: list[Operation] = []
    for op in patch.operations:
        if isinstance(op, UpdateFile):
            move_to = None if op.move_to is None else mapped(op.move_to)
            operations.append(replace(op, path=mapped(op.path), move_to=move_to))
        elif isinstance(op, (AddFile, DeleteFile)):
            operations.append(replace(op, path=mapped(op.path)))
    return replace(patch, operations=tuple(operations))
