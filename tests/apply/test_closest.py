"""`_closest`: the words of a line found in the file as `re` finds them, faster.

The file is case-folded once and each word looked up with str.find; the
reference here is the definition it replaced, a case-insensitive `\\bword\\b`
expression per word. They agree on any text but for letters whose case
folding is not one letter to one (ß, ı, İ...), where folding finds more.
"""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apply_patch.apply.matching import _closest

PIECES = ["item", "Item", "ITEM", "items", "item_2", "x_item", "é", "É", "σ", "Σ", "ς", "42", "_", " ", "\n",
          ".", "-", "(", "\t", "ǅ", "Ⅻ", "٣"]  # fmt: skip


def _reference(text: str, word: str) -> list[int]:
    """The lines where `word` occurs as a whole word in any letter case: the former definition."""
    return [text.count("\n", 0, m.start()) for m in re.finditer(rf"\b{re.escape(word)}\b", text, re.IGNORECASE)]


def _folded(text: str, word: str) -> list[int]:
    folded = text.casefold()
    places = _closest._word_places(folded, word.casefold())
    numbers = _closest._line_numbers(folded, places)
    return [numbers[at] for at in places]


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.sampled_from(PIECES[:6] + ["σσ", "ΣΣ", "éé"]))
def test_words_are_found_where_the_expression_finds_them(pieces: list[str], word: str) -> None:
    text = "".join(pieces)
    assert _folded(text, word) == _reference(text, word)


def test_past_the_cap_a_word_says_nothing() -> None:
    text = "\n".join(["word"] * (_closest._CAP + 50))
    assert len(_closest._word_places(text, "word")) == _closest._CAP + 1


def test_similar_lines_finds_lines_by_their_rarest_words_in_any_case() -> None:
    rng = random.Random(3)
    lines = [f"    value_{i} = compute(item_{rng.randrange(10**6)})" for i in range(5000)]
    lines[1234] = "    TOTAL_PRICE = Compute_Total(Basket, DISCOUNT)"
    assert _closest.similar_lines(lines, "total_price = compute_total(basket, discount, tax)")[0] == 1234
    assert _closest.similar_lines(lines, "nothing_like_it_anywhere(here)") == []


def _reference_region(lines: list[str], expected: list[str]) -> _closest.Region | None:
    """The closest region as it was defined before the file's lines were searched joined:
    every line stripped, every hit kept, the first line's hits read for the anchor."""
    wanted: dict[str, list[int]] = {}
    for index, line in enumerate(expected):
        if key := line.strip():
            wanted.setdefault(key, []).append(index)
    hits: dict[str, list[int]] = {key: [] for key in wanted}
    for position, key in enumerate(map(str.strip, lines)):
        if key in hits:
            hits[key].append(position)
    votes = _closest._tally(hits, wanted)
    if not votes:
        return None
    first = next((k for k, line in enumerate(expected) if line.strip()), 0)
    anchored = [p - first for p in hits.get(expected[first].strip(), ()) if p - first in votes]
    offset = max(anchored or votes, key=lambda o: (votes[o], -o))
    first, last = max(0, offset), min(len(lines), offset + len(expected))
    if first >= last:
        return None
    shown = tuple(lines[first:last])
    skip = first - offset
    differs = next((k for k, line in enumerate(shown) if line != expected[skip + k]), None)
    return _closest.Region(first, shown, differs, skip)


LINE_PIECES = ["x", "y", "}", " ", "\t", "\u2028", "\x0b", "x}", "\n"]  # an LF: a line that holds one
LINES = st.lists(st.lists(st.sampled_from(LINE_PIECES), max_size=4).map("".join), max_size=30)


@settings(max_examples=600, deadline=None, derandomize=True, database=None)
@given(LINES, LINES, st.sampled_from([2, 3, 1000]), st.sampled_from([2, 8]))
def test_the_closest_region_is_the_one_every_line_stripped_gives(
    lines: list[str], expected: list[str], cap: int, find_lines: int
) -> None:
    """Found in the joined lines, past the cap (a small cap: hits cut short, a line inside
    too many lines searched by stripping every line), with more expected lines than are
    looked up one by one, with lines that hold an LF, and with the search's own index:
    the same region as stripping every line."""
    from apply_patch.apply.matching._seek import LineIndex

    original = _closest._CAP, _closest._FIND_LINES
    _closest._CAP, _closest._FIND_LINES = cap, find_lines  # type: ignore[misc]  # (Final constants, made small)
    try:
        assert _closest.closest_region(lines, expected) == _reference_region(lines, expected)
        assert _closest.closest_region(lines, expected, LineIndex(lines)) == _reference_region(lines, expected)
    finally:
        _closest._CAP, _closest._FIND_LINES = original  # type: ignore[misc]


def test_a_line_inside_many_lines_is_found_by_stripping_them_all() -> None:
    lines = ["call(x)" for _ in range(800)] + ["    x", "  y  "]
    region = _closest.closest_region(lines, ["x", "y", "z"])
    assert region is not None and region.start == 800


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), max_size=20), st.sampled_from(PIECES[:6]))
def test_similar_lines_read_the_search_index_as_they_read_the_lines(lines: list[str], text: str) -> None:
    from apply_patch.apply.matching._seek import LineIndex

    assert _closest.similar_lines(lines, text, index=LineIndex(lines)) == _closest.similar_lines(lines, text)


def test_a_chunk_of_many_lines_strips_the_file_once_rather_than_reading_it_once_a_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each line looked up reads the whole joined text: a chunk of hundreds of lines would
    read it hundreds of times. Past `_FIND_LINES` distinct lines none is looked up so; the
    lines are stripped once (counted, not timed)."""
    looked: list[str] = []
    whole_lines = _closest._whole_lines

    def counted(text: str, key: str, visits: int) -> list[int] | None:
        looked.append(key)
        return whole_lines(text, key, visits)

    monkeypatch.setattr(_closest, "_whole_lines", counted)
    lines = [f"line {i}" for i in range(1000)]
    few = lines[500:500 + _closest._FIND_LINES]
    assert _closest.closest_region(lines, few) == _closest.Region(500, tuple(few), None)
    assert looked == few
    looked.clear()
    many = [*lines[500:700], "not in the file"]
    region = _closest.closest_region(lines, many)
    assert region is not None and region.start == 500 and region.first_difference == 200
    assert looked == []
