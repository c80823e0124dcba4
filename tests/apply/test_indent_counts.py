"""The indentation unit of the lines around a change, counted once for a file with many
chunks (`_splice._IndentCounts`), is what counting that window gives (`_indent.indented_counts`)."""

from hypothesis import given
from hypothesis import strategies as st

from apply_patch.apply.matching._indent import indented_counts
from apply_patch.apply.matching._splice import _IndentCounts

from _support import PROPERTY

LINES = st.lists(
    st.sampled_from(["", "x", "\tx", "  x", " x", " * x", " \tx", " ", "\t", "\t ", " \t", "\u3000x", "\u3000", " \r"]), max_size=30
)


@PROPERTY
@given(LINES, st.data())
def test_the_counts_around_a_change_are_the_window_counted(lines: list[str], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(lines) + 2))  # (past the end: an insertion after a blank
    end = data.draw(st.integers(start, len(lines) + 3))  # line the file lacks at its end)
    reach = data.draw(st.integers(0, 8))
    window = [*lines[max(0, start - reach) : start], *lines[end : end + reach]]
    assert _IndentCounts(lines).around(start, end, reach) == indented_counts(window)
