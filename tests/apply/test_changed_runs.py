"""`_indent.changed_runs`: its line-for-line shortcut answers as `difflib` does."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from apply_patch.apply.matching._indent import ChangedRun, changed_runs

LINES = st.lists(st.sampled_from(["a", "b", "c", "\tx", "    x", ""]), max_size=8)


@settings(max_examples=400, deadline=None)
@given(LINES, LINES)
def test_the_runs_are_difflibs_with_or_without_the_shortcut(old: list[str], new: list[str]) -> None:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    expected = [ChangedRun(a1, a2, b1, b2) for op, a1, a2, b1, b2 in matcher.get_opcodes() if op != "equal"]
    assert changed_runs(old, new) == expected


def test_lines_changed_in_place_make_runs_without_a_comparison() -> None:
    old = ["a", "\tb", "\tc", "d", "\te"]
    new = ["a", "    b", "    c", "d", "    e"]
    assert changed_runs(old, new) == [ChangedRun(1, 3, 1, 3), ChangedRun(4, 5, 4, 5)]
