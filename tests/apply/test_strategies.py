"""A shortcut of the locator answers as the general search does, or declines (issue 35
item 2a). Each strategy of `locate` is switched off in turn (made to decline every time)
and the answer compared with the one it gives with the strategy on: the same
replacements, placements and warnings, or the same refusal (kind and text), under every
policy. The strategies: `_plain` (chunks found exactly, each holding a line the file has
once: no search at all) and `_at_numbers` (a hunk whose lines are exactly where its own
numbers put it). The files and chunks drawn here repeat lines on purpose (few distinct
lines), so that chunks fit at several places, overlap, run past the end or fit nowhere,
and a hunk's numbers are sometimes right, sometimes off.
"""

from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, PatchError, Policy
from apply_patch.apply.matching import FileName, _locate
from apply_patch.format import Chunk

from _support import PROPERTY

NAME = FileName("f.txt", "f.txt")
LINES = st.lists(st.sampled_from(["a", "b", "c", "", "  a", "d", "e"]), min_size=1, max_size=30)
POLICIES = st.sampled_from([DEFAULT, Policy(ambiguous="first"), Policy(line_endings="crlf")])


@st.composite
def file_and_chunks(draw: st.DrawFn) -> tuple[list[str], tuple[Chunk, ...]]:
    """A file and chunks taken from its lines in order (some kept, some removed, some
    added), or now and then a chunk written from nothing (found nowhere, or elsewhere)."""
    lines = draw(LINES)
    chunks: list[Chunk] = []
    at = 0
    for number in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 5)) == 0:
            old = draw(st.lists(st.sampled_from(["a", "b", "x", ""]), min_size=1, max_size=3))
        else:
            if at >= len(lines):
                break
            at = draw(st.integers(at, len(lines) - 1))
            size = draw(st.integers(1, min(4, len(lines) - at)))
            old = lines[at : at + size]
            at += size
        body = [(" " if draw(st.booleans()) else "-") + line for line in old]
        body.insert(draw(st.integers(0, len(body))), "+" + draw(st.sampled_from(["new", "a", ""])))
        near = draw(st.one_of(st.none(), st.none(), st.just(max(at - len(old), 0)), st.integers(0, len(lines))))
        chunks.append(Chunk((), tuple(body), line=number + 3, near=near))
    return lines, tuple(chunks)


STRATEGIES = ("_plain", "_at_numbers")


def _answer(lines: list[str], chunks: tuple[Chunk, ...], policy: Policy) -> object:
    try:
        return _locate.locate(list(lines), chunks, policy, NAME)
    except PatchError as error:
        return ("refused", error.kind, str(error))


@pytest.mark.parametrize("strategy", STRATEGIES)
@PROPERTY
@given(drawn=file_and_chunks(), policy=POLICIES)
def test_a_strategy_answers_as_the_search_without_it(
    strategy: str, drawn: tuple[list[str], tuple[Chunk, ...]], policy: Policy
) -> None:
    lines, chunks = drawn
    with_it = _answer(lines, chunks, policy)
    with mock.patch.object(_locate, strategy, lambda *args: None):  # declines every time
        without_it = _answer(lines, chunks, policy)
    assert with_it == without_it


@PROPERTY
@given(file_and_chunks(), POLICIES)
def test_the_plain_shortcut_answers_as_the_whole_search_or_declines(
    drawn: tuple[list[str], tuple[Chunk, ...]], policy: Policy
) -> None:
    lines, chunks = drawn
    shortcut = _locate._plain(list(lines), chunks)
    if shortcut is None:
        return  # declined: `locate` asks the whole search
    try:
        general = _locate.searched(list(lines), chunks, policy, NAME)
    except PatchError as error:  # the shortcut placed what the search refuses
        raise AssertionError(f"the shortcut placed {chunks} in {lines}; the search refused: {error}") from None
    assert shortcut == general


def test_the_plain_shortcut_is_taken_on_an_everyday_chunk() -> None:
    """Not a shortcut that always declines: a chunk holding a line the file has once."""
    lines = ["a", "b", "c", "a"]
    chunk = Chunk((), (" b", "-c", "+C"), line=3)
    answer = _locate._plain(lines, (chunk,))
    assert answer is not None
    assert answer == _locate.searched(lines, (chunk,), DEFAULT, NAME)
