"""`LineIndex.seek` finds what the plain definition of the four tiers finds.

The index searches joined text and per-line codes (see `_seek`); the reference
here compares keys line by line, place by place. Random files and patterns over
a small vocabulary make every tier, every kind of near miss and repeated lines
common; one index serves several searches, so its memory of the last place
found is exercised too (starts going forward and back).
"""

import random
from collections.abc import Sequence

from apply_patch.apply.matching._seek import TIERS, LineIndex, Tier, seek_sequence

VOCABULARY = [
    "a", "b", "a ", " a", "\ta", "a\u2014b", "a-b", "\u201cq\u201d", '"q"', "", " ", "x\u00a0y",
    "x y", "}", "  }", "a\u3000",
]


def _reference(
    lines: list[str], pattern: list[str], start: int, eof: bool, tiers: Sequence[Tier]
) -> tuple[int, str] | None:
    if not pattern:
        return start, "exact"
    last = len(lines) - len(pattern)
    if eof:
        start = max(start, last)
    for tier in tiers:
        keys = [tier.key(line) for line in pattern]
        for index in range(start, last + 1):
            if [tier.key(line) for line in lines[index : index + len(pattern)]] == keys:
                return index, tier.name
    return None


def test_seek_finds_what_the_definition_finds() -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(6000):
        lines = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 14))]
        index = LineIndex(lines)
        for _ in range(6):
            pattern = [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 3))]
            start = rng.randint(0, len(lines) + 1)
            eof = rng.random() < 0.2
            tiers = TIERS if rng.random() < 0.8 else tuple(rng.sample(TIERS, 2))
            match = index.seek(pattern, start, eof=eof, tiers=tiers)
            got = None if match is None else (match.index, match.tier.name)
            assert got == _reference(lines, pattern, start, eof, tiers), (lines, pattern, start)
            found += got is not None
    assert found > 5000


def test_lines_with_line_breaks_are_searched_too() -> None:
    lines = ["a", "b\nc", "d"]
    match = seek_sequence(lines, ["b\nc", "d"], 0)
    assert match is not None and (match.index, match.tier.name) == (1, "exact")
    assert seek_sequence(["b", "c"], ["b\nc"], 0) is None


def test_large_file_every_tier() -> None:
    lines = [f"line {n}" for n in range(100_000)]
    index = LineIndex(lines)
    assert index.seek(["line 5", "line 7"], 0) is None  # each line exists, not in a row
    found = [index.seek(["line 99998", "line 99999"], 0), index.seek(["line 99999  "], 0),
             index.seek(["  line 99999  "], 0), index.seek(["line\u00a099999"], 0)]
    assert [(m.index, m.tier.name) for m in found if m is not None] == [
        (99_998, "exact"), (99_999, "trailing-whitespace"), (99_999, "whitespace"),
        (99_999, "punctuation"),
    ]
    assert index.seek(["no such line"], 0) is None
    assert index.seek(["line 1"], 2) is None and index.seek(["line 2"], 0, eof=True) is None


def test_searching_the_rest_again_and_again_finds_the_same() -> None:
    """Is there another place after this one? (diagnostics ask it for every chunk.)

    After the searches have read the file a few times, lines are counted and
    runs with a line found once (or nowhere) are answered without searching.
    """
    rng = random.Random(3)
    lines = [f"line {rng.randint(0, 600)}" for _ in range(2000)]
    index = LineIndex(lines)
    for _ in range(400):
        at = rng.randrange(0, len(lines) - 3)
        pattern = lines[at : at + rng.randint(1, 3)]
        if rng.random() < 0.1:
            pattern = [*pattern, "no such line"]
        start = rng.randint(0, len(lines))
        for tiers in (TIERS, TIERS[:1]):
            match = index.seek(pattern, start, tiers=tiers)
            got = None if match is None else (match.index, match.tier.name)
            assert got == _reference(lines, pattern, start, False, tiers), (pattern, start)
            if match is not None:  # and after it
                later = index.seek(pattern, match.index + 1, tiers=(match.tier,))
                expected = _reference(lines, pattern, match.index + 1, False, (match.tier,))
                assert (None if later is None else (later.index, later.tier.name)) == expected
    assert index._joined is not None and index._joined._counts is not None  # the counts were used


def test_tolerant_tiers_by_the_longest_line_common_or_rare() -> None:
    """The tolerant tiers first try the places of the pattern's longest line (issue 24);
    a line with more places than they try (here `common line`, hundreds of times) sends
    them to the per-line codes. Both give what the definition gives, from any start."""
    rng = random.Random(11)
    words = ["common line", "  common line", "common line  ", "x", "  }", f"rare {rng.random()}", "a\u2014b"]
    lines = [rng.choice(words[:5]) if rng.random() < 0.97 else rng.choice(words[5:]) + " " * rng.randint(0, 2)
             for _ in range(3000)]
    index = LineIndex(lines)
    for _ in range(300):
        at = rng.randrange(0, len(lines) - 3)
        pattern = [line.strip() + rng.choice(["", " ", "\t"]) for line in lines[at : at + rng.randint(1, 3)]]
        start = rng.choice([0, rng.randint(0, len(lines)), max(at - 5, 0), at + 1])
        tiers = TIERS[1:] if rng.random() < 0.5 else TIERS
        match = index.seek(pattern, start, tiers=tiers)
        got = None if match is None else (match.index, match.tier.name)
        assert got == _reference(lines, pattern, start, False, tiers), (pattern, start)
