"""benchmarks/ambiguity.py sorts a refused blank-line case as it claims: ambiguous when two
plausible original edits give the model's text and different files, certain when every
one gives the same file, unexplained when the case's own edit is not among them
(issue 34, item 2). Synthetic cases only: nothing here reads the history."""

from _support import SMALL_PY, benchmark_script

am = benchmark_script("ambiguity")
rb = am.oracle
PRE = SMALL_PY


def _case(start: int, model: tuple[tuple[str, str], ...], expected: tuple[str, ...]) -> object:
    return rb.Case("blank-dropped", "context", "spaces", "0:f.py@1", "f.py", PRE, start, model, expected, expected)


def test_a_blank_line_dropped_amid_kept_lines_has_one_result() -> None:
    # One of the two blank lines under `import os` dropped, the change two lines below.
    model = ((" ", "import os"), (" ", ""), (" ", "def area(width, height):"),
             ("-", '    """The area of a rectangle."""'), ("+", '    """Area."""'))  # fmt: skip
    expected = (*PRE[:4], '    """Area."""', *PRE[5:])
    case = _case(0, model, expected)
    for fmt in ("codex", "str_replace", "unified_diff"):
        found = am.readings(case, fmt)
        assert {reading.result for reading in found} == {expected}
        assert am.kind(case, found) == "certain"


def test_a_blank_line_dropped_beside_a_removed_line_is_ambiguous() -> None:
    # Kept, or removed with the line below it: two files.
    model = ((" ", "        raise ValueError('negative width')"), ("-", "    return width * height"),
             ("+", "    return abs(width * height)"), (" ", ""))  # fmt: skip
    expected = (*PRE[:8], "    return abs(width * height)", *PRE[9:])
    case = _case(6, model, expected)
    found = am.readings(case, "unified_diff")
    assert expected in {reading.result for reading in found}
    assert (*PRE[:7], "    return abs(width * height)", *PRE[9:]) in {reading.result for reading in found}
    assert am.kind(case, found) == "ambiguous"


def test_a_blank_line_dropped_beside_added_lines_is_ambiguous_at_one_place() -> None:
    # One blank line shown where the file has two, a new line above it: it goes before both
    # blank lines or between them (or the blank line beside it was removed).
    model = ((" ", "    return width * height"), ("+", "    # done"), (" ", ""), (" ", "def main():"))
    expected = (*PRE[:9], "    # done", *PRE[9:])
    case = _case(8, model, expected)
    found = am.readings(case, "codex")
    between = (*PRE[:10], "    # done", *PRE[10:])
    removed = (*PRE[:9], "    # done", *PRE[10:])
    assert {reading.result for reading in found} == {expected, between, removed}
    assert {reading.at for reading in found} == {8}
    assert am.kind(case, found) == "ambiguous"


def test_a_diffs_header_counting_the_dropped_line_leaves_the_readings_that_make_its_counts() -> None:
    # blank-dropped-counted: the same model text, the header counting the blank line on the
    # old side and the new: only the kept reading makes those numbers, in the diff only.
    model = ((" ", "        raise ValueError('negative width')"), ("-", "    return width * height"),
             ("+", "    return abs(width * height)"), (" ", ""))  # fmt: skip
    expected = (*PRE[:8], "    return abs(width * height)", *PRE[9:])
    case = rb.replace(_case(6, model, expected), mistake="blank-dropped-counted", counts=(4, 4))
    found = am.readings(case, "unified_diff")
    assert {reading.result for reading in found} == {expected}
    assert am.kind(case, found) == "certain"
    assert am.kind(case, am.readings(case, "codex")) == "ambiguous"  # a Codex chunk has no header


def test_a_case_whose_own_edit_is_no_reading_is_unexplained() -> None:
    model = ((" ", "import os"), (" ", ""), (" ", "def area(width, height):"), ("+", "    pass"))
    case = _case(0, model, ("something else",))
    assert am.kind(case, am.readings(case, "codex")) == "unexplained"


def test_the_text_formats_are_paired_by_comparing_their_texts() -> None:
    model = ((" ", "a"), ("+", "b"), ("-", "c"), (" ", "d"))
    case = _case(0, model, PRE)
    assert am.tagged(case, "codex") == model
    assert am.tagged(case, "search_replace") == ((" ", "a"), ("-", "c"), ("+", "b"), (" ", "d"))


def test_the_text_formats_are_read_in_every_pairing_that_slides_a_kept_line() -> None:
    # Found on tmux/tmux's history: a kept `}` before lines that add another `}` pairs with
    # either, and a blank line the model dropped before it stands before the added lines or
    # among them. Each pairing is a reading, so the refusal is ambiguous, not certain.
    shown = ((" ", "a"), (" ", "b"), ("+", "x"), ("+", "b"))
    assert am.pairings(shown) == [shown, ((" ", "a"), ("+", "b"), ("+", "x"), (" ", "b"))]
    expected = ("f()", "a", "", "b", "x", "b", "g()")
    case = rb.replace(_case(1, shown, expected), pre=("f()", "a", "", "b", "g()"))
    found = am.readings(case, "str_replace")
    assert {reading.result for reading in found} >= {expected, ("f()", "a", "b", "x", "", "b", "g()")}
    assert am.kind(case, found) == "ambiguous"
    assert am.kind(case, am.readings(case, "codex")) == "certain"  # tagged: the first `b` is the kept one
