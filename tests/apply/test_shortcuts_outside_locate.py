"""Every shortcut of placing an edit answers as the general search does, or declines (issue 35).

A shortcut (`_numbered.placed_by_numbers`, `_deferred.Deferred`, the
CRLF file edited as LF by `_edits.file_text`, the exact substring of `_edits.replace` on
one string) may decline, but where it answers, its answer is the general search's: the
same placements and the same text, or a refusal of the same kind. One generic property
pins them all: each shortcut is a function from hypothesis' data to the pair (the
shortcut's outcome or None when it declined, the general search's outcome). `test_strategies`
pins the strategies inside `locate` by switching them off; `plain` here also compares texts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, PatchError
from apply_patch.apply.matching import FileName
from apply_patch.apply.matching import _deferred
from apply_patch.apply.matching._deferred import Deferred
from apply_patch.apply.matching._edits import LfText, file_text, final_text, replace
from apply_patch.apply.matching._locate import Replacement, _plain, searched
from apply_patch.apply.matching._numbered import placed_by_numbers, spliced_bytes
from apply_patch.apply.matching._placement import Placement
from apply_patch.apply.matching._textfile import TextFile, split_text
from apply_patch.format import Chunk, StrReplace

from _support import PROPERTY

WHERE = FileName("f.txt", "f.txt")
# Few distinct lines: repeated lines make the ambiguous and the misplaced cases common.
LINE = st.sampled_from(["a", "b", "c", "def f():", "    x = 1", "    return x", "\tx = 2", ""])
FILE_LINES = st.lists(LINE, min_size=0, max_size=12)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What placing edits came to: the new text and placements, or the refusal's kind."""

    text: str | None
    placements: tuple[tuple[int, int, int], ...]
    refused: str | None


def _placed(text: str, placements: Iterable[Placement]) -> Outcome:
    return Outcome(text, tuple((p.file_line, p.added, p.removed) for p in placements), None)


def _refused(error: PatchError) -> Outcome:
    return Outcome(None, (), type(error).__name__)


def _spliced_lines(lines: list[str], replacements: list[Replacement]) -> str:
    out, kept = [], 0
    for r in sorted(replacements, key=lambda r: r.start):
        out += lines[kept : r.start] + list(r.new_lines)
        kept = r.start + r.old_len
    out += lines[kept:]
    return "".join(line + "\n" for line in out)


def _chunks(data: st.DataObject, lines: list[str], numbered: bool) -> tuple[Chunk, ...]:
    """Chunks taken from the file (some lines changed, some added) or made up, in order."""
    chunks: list[Chunk] = []
    start = 0
    for _ in range(data.draw(st.integers(1, 3))):
        if lines and start < len(lines) and data.draw(st.booleans()):
            at = data.draw(st.integers(start, len(lines) - 1))
            size = data.draw(st.integers(1, min(4, len(lines) - at)))
            old = lines[at : at + size]
        else:
            at, old = start, data.draw(st.lists(LINE, min_size=1, max_size=3))
        body = [data.draw(st.sampled_from([" ", "-"])) + line for line in old]
        body.insert(data.draw(st.integers(0, len(body))), "+" + data.draw(LINE) + "!")
        near = data.draw(st.integers(max(at - 1, 0), at + 1)) if numbered else None
        chunks.append(Chunk((), tuple(body), line=len(chunks) + 1, near=near))
        start = at + len(old)
    return tuple(chunks)


def _searched(lines: list[str], chunks: tuple[Chunk, ...]) -> tuple[Outcome, bool]:
    """The general search's outcome for `chunks` in `lines`, and whether it warned."""
    try:
        replacements, placements, warnings = searched(lines, chunks, DEFAULT, WHERE)
    except PatchError as error:
        return _refused(error), False
    return _placed(_spliced_lines(lines, replacements), placements), bool(warnings)


def plain(data: st.DataObject) -> tuple[Outcome | None, Outcome]:
    lines = data.draw(FILE_LINES)
    chunks = _chunks(data, lines, numbered=False)
    general, general_warned = _searched(lines, chunks)
    short = _plain(lines, chunks)
    if short is None:
        return None, general
    assert not general_warned  # `_plain` answers without a warning: the search must have none
    return _placed(_spliced_lines(lines, short[0]), short[1]), general


def numbered(data: st.DataObject) -> tuple[Outcome | None, Outcome]:
    lines = data.draw(FILE_LINES.filter(bool))
    chunks = _chunks(data, lines, numbered=True)
    general, general_warned = _searched(lines, chunks)
    raw = "".join(line + "\n" for line in lines).encode()
    short = placed_by_numbers(raw, chunks, DEFAULT)
    if short is None:
        return None, general
    assert not general_warned  # placed by its numbers without a warning: the search must have none
    return _placed(spliced_bytes(raw, short.spans).decode(), short.placements), general


def _replacements(data: st.DataObject, text: str) -> list[StrReplace]:
    """Replacements of pieces of `text` (whole lines or parts of one) or of made-up text."""
    ops = []
    for number in range(data.draw(st.integers(1, 4))):
        if text and data.draw(st.booleans()):
            begin = data.draw(st.integers(0, len(text) - 1))
            old = text[begin : data.draw(st.integers(begin + 1, min(len(text), begin + 20)))]
        else:
            old = "\n".join(data.draw(st.lists(LINE, min_size=1, max_size=2))) + "\n"
        old = old.replace("\r", "")
        if not old:
            continue
        new = data.draw(st.sampled_from(["", "y", "z\n", "    z = 2\n", old + "w\n"]))
        ops.append(StrReplace("f.txt", old, new, line=number + 1))
    return ops


def _in_turn(start: LfText | TextFile, ops: list[StrReplace], crlf: bool = False) -> Outcome:
    """`ops` made one after the other by `_edits.replace` (no batch)."""
    found: list[Placement] = []
    try:
        for op in ops:
            made = replace(start, op, DEFAULT, WHERE)
            start, found = made.text, found + list(made.placements)
    except PatchError as error:
        return _refused(error)
    return _placed(final_text(start, DEFAULT, crlf), found)


def deferred(data: st.DataObject) -> tuple[Outcome | None, Outcome]:
    text = "".join(line + "\n" for line in data.draw(FILE_LINES))
    ops = _replacements(data, text)
    general = _in_turn(LfText(text, False), ops)
    index_after, tail = data.draw(st.sampled_from([(10**9, 8), (0, 1), (0, 8)]))  # (as test_deferred)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_deferred, "INDEX_AFTER", index_after)
        patched.setattr(_deferred, "TAIL", tail)
        batch, used = Deferred(LfText(text, False), DEFAULT), False
        kept: list[Placement] = []
        for op in ops:  # as `_edit_plan` does: the pending ones made where the batch declines
            placement = batch.add(op)
            if placement is None:
                break
            kept.append(placement)
            used = True
        else:
            return (_placed(final_text(batch.text(), DEFAULT), kept) if used else None), general
    return None, general


def crlf_as_lf(data: st.DataObject) -> tuple[Outcome | None, Outcome]:
    decoded = "".join(line + "\r\n" for line in data.draw(FILE_LINES))
    ops = _replacements(data, decoded.replace("\r\n", "\n"))
    general = _in_turn(split_text(decoded), ops)
    one, crlf = file_text(decoded)
    if not isinstance(one, LfText):
        return None, general
    return _in_turn(one, ops, crlf), general


def one_string(data: st.DataObject) -> tuple[Outcome | None, Outcome]:
    """The exact substring over one string (`LfText`) against the same over the lines."""
    text = "".join(line + "\n" for line in data.draw(FILE_LINES))
    ops = _replacements(data, text)
    return _in_turn(LfText(text, False), ops), _in_turn(split_text(text), ops)


SHORTCUTS: list[Callable[[st.DataObject], tuple[Outcome | None, Outcome]]] = [
    plain, numbered, deferred, crlf_as_lf, one_string,
]


@pytest.mark.parametrize("shortcut", SHORTCUTS, ids=lambda f: f.__name__)
@PROPERTY
@given(st.data())
def test_a_shortcut_answers_as_the_general_search_or_declines(
    shortcut: Callable[[st.DataObject], tuple[Outcome | None, Outcome]], data: st.DataObject
) -> None:
    short, general = shortcut(data)
    if short is not None:
        assert short == general
