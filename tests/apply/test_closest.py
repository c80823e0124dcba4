"""`_closest`: the words of a line found in the file as `re` finds them, faster.

The file is case-folded once and each word looked up with str.find; the
reference here is the definition it replaced, a case-insensitive `\\bword\\b`
expression per word. They agree on any text but for letters whose case
folding is not one letter to one (ß, ı, İ...), where folding finds more.
"""

import random
import re

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
