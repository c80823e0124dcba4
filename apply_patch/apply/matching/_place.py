"""The one entry that places an edit in a file's text: `place` (pure).

Every edit of the model (an Update's chunks, Codex's or a unified diff's numbered
hunks; a replacement, `StrReplace`; an insertion, `Insert`; Hashline's anchored edits)
is placed in the one text record `_text.decode` made (`Decoded`) by the general search
(`_locate.update_lines`, `_edits.replace`, `_edits.insert`, `_edits.anchored`: one
ambiguity rule, the tiers of `_seek`), unless a shortcut of `STRATEGIES`, tried in
order, answers first. A strategy answers exactly as the general search would (the
same new text, placements and warnings, or the same refusal) or declines (None); each
is pinned to the search by one property test that switches it off
(`tests/apply/test_place.py`).

Each kind of edit's machinery is imported when an edit of that kind is first placed
(the replacements' `_edits`, the numbered hunks' `_numbered`): a Codex patch, the
executable's everyday call, loads neither (start-up time).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...format import Chunk, UpdateFile
from ._plain import plain_update
from ._text import Decoded, Edited, LfText, as_lines, finished

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from ...format import HashlineEdits, Insert, StrReplace
    from ..._policy import Policy
    from ._names import FileName

    Edit = UpdateFile | StrReplace | Insert | HashlineEdits  # what `place` places
    Lines = Callable[[], Decoded]  # the text as lines (`_text.as_lines`), made on first call
    Answer = Callable[[Decoded, Edit, Policy, FileName, Lines], Edited | None]


@dataclass(frozen=True, slots=True)
class Strategy:
    """A shortcut of the general search for the edits whose model class is named `kind`:
    `answer(text, edit, policy, where, lines)` gives what the search would, or None; a
    strategy that reads the file's lines, each with its own ending, calls `lines` (they
    are split once for every strategy, and the search, that read them)."""

    name: str
    kind: str
    answer: Answer


def _by_numbers(text: Decoded, edit: Edit, policy: Policy, where: FileName, lines: Lines) -> Edited | None:
    """A unified diff's hunks where their numbers say, spliced in the text's UTF-8 bytes
    (`_numbered`): those it holds (an ASCII file as read), else its str encoded. The new
    text is held as those bytes alone (decoded only if a later edit reads it)."""
    body = text.body
    assert isinstance(edit, UpdateFile)
    if not isinstance(body, LfText) or text.crlf or text.bom:
        return None
    hunks = tuple(c for c in edit.chunks if isinstance(c, Chunk) and c.near is not None)
    if not hunks or len(hunks) != len(edit.chunks):
        return None
    from ._numbered import placed_by_numbers, spliced_bytes  # a unified diff's hunks only

    data = body.utf8
    if data is None:
        try:
            data = body.body.encode()
        except UnicodeEncodeError:
            return None  # a lone surrogate (bytes a file read with non_utf8="preserve" could not decode): the locator's
    numbered = placed_by_numbers(data, hunks, policy)
    if numbered is None:
        return None
    return Edited(text.with_body(LfText(None, False, utf8=spliced_bytes(data, numbered.spans))), numbered.placements)


def _plain(text: Decoded, edit: Edit, policy: Policy, where: FileName, lines: Lines) -> Edited | None:
    """Chunks each found exactly and holding a line the file has once (`_plain.plain_update`)."""
    assert isinstance(edit, UpdateFile)
    return plain_update(text, edit, policy, where, lines)


def _at_numbers(text: Decoded, edit: Edit, policy: Policy, where: FileName, lines: Lines) -> Edited | None:
    """The whole search, each hunk first tried where its numbers say (`_locate._at_numbers`)."""
    assert isinstance(edit, UpdateFile)
    if not any(isinstance(c, Chunk) and c.near is not None for c in edit.chunks):
        return None
    from ._locate import update_lines  # the general search: not on a plain update's way

    return update_lines(lines(), edit, policy, where, at_numbers=True)


def _exact(text: Decoded, edit: Edit, policy: Policy, where: FileName, lines: Lines) -> Edited | None:
    """A replacement found exactly in the one string (`_edits.exact_in_string`)."""
    from ...format import StrReplace  # (loaded already: `edit` is one)
    from ._edits import exact_in_string

    assert isinstance(edit, StrReplace)
    return exact_in_string(text, edit, policy, where)


def _tolerant(text: Decoded, edit: Edit, policy: Policy, where: FileName, lines: Lines) -> Edited | None:
    """Whole lines found by a tolerant tier in the one string (`_edits.tolerant_in_string`)."""
    from ...format import StrReplace  # (loaded already: `edit` is one)
    from ._edits import tolerant_in_string

    assert isinstance(edit, StrReplace)
    return tolerant_in_string(text, edit, policy, where)


STRATEGIES: Final[tuple[Strategy, ...]] = (
    Strategy("numbered", "UpdateFile", _by_numbers),
    Strategy("plain", "UpdateFile", _plain),  # (it splits the file, once it may answer)
    Strategy("at numbers", "UpdateFile", _at_numbers),
    Strategy("exact in one string", "StrReplace", _exact),
    Strategy("tolerant in one string", "StrReplace", _tolerant),
)


def place(
    text: Decoded, edit: Edit, policy: Policy, where: FileName, strategies: Sequence[Strategy] = STRATEGIES
) -> Edited:
    """`edit` placed in `text`: the new text, where it (each chunk) landed, the warnings; or
    the PatchError saying why it cannot be placed. The first strategy that answers
    decides, else the general search."""
    made: list[Decoded] = []  # the file's lines, once made for a strategy that reads them

    def lines() -> Decoded:
        if not made:
            made.append(as_lines(text))
        return made[0]

    answer, kind = None, type(edit).__name__
    for strategy in strategies:
        if strategy.kind != kind:
            continue
        answer = strategy.answer(text, edit, policy, where, lines)
        if answer is not None:
            break
    if answer is None:
        answer = by_search(made[0] if made else text, edit, policy, where)
    if isinstance(edit, UpdateFile):
        return answer  # chunks write their own final newline (`_splice.splice`)
    return Edited(finished(answer.text, policy), answer.placements, answer.warnings)


def by_search(text: Decoded, edit: Edit, policy: Policy, where: FileName) -> Edited:
    """`edit` placed by the general search alone."""
    if isinstance(edit, UpdateFile):
        from ._locate import update_lines

        return update_lines(text, edit, policy, where, at_numbers=False)
    from ...format import Insert, StrReplace
    from ._edits import anchored, insert, replace

    if isinstance(edit, StrReplace):
        return replace(text, edit, policy, where)
    if isinstance(edit, Insert):
        return insert(text, edit, policy, where)
    return anchored(text, edit, policy, where)
