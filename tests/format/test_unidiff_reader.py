"""The hunk reader's fast path (`_unidiff._plain_hunk`, a hunk read from the text with a few
passes of C) reads every diff exactly as the line-by-line reader does: the same file diffs,
hunks, lines and line numbers, or the same error; and the unified front end's chunks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from apply_patch import UnifiedDiffError
from apply_patch.format import _unidiff, unified_operations

# Hunk lines of every kind the reader meets: the usual three, lines a model strips empty,
# CRs, `\ No newline`, headers and text where a hunk line should be.
HUNK_LINE = st.sampled_from(
    [" a", " b", "-a", "-b", "+a", "+c", " ", "-", "+", "", " a\r", "-x\r", "\\ No newline at end of file",
     "@@ -1 +1 @@", "diff --git a/f b/f", "--- a/f", "+++ b/f", "-- ", "text", " @@", "-diff x", "+@@"]
)  # fmt: skip
PLAIN_LINE = st.sampled_from([" a", " b", " a b", "-a", "-b", "+a", "+c", "+--- x", "-- x"])


@st.composite
def hunks(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.one_of(PLAIN_LINE, PLAIN_LINE, PLAIN_LINE, HUNK_LINE), max_size=8))
    old = sum(1 for line in lines if line[:1] in (" ", "-", ""))
    new = sum(1 for line in lines if line[:1] in (" ", "+", ""))
    old += draw(st.sampled_from([0, 0, 0, 0, -1, 1]))  # counts mostly right
    new += draw(st.sampled_from([0, 0, 0, 0, -1, 1]))
    start = draw(st.integers(0, 30))
    old_part = f"{start},{old}" if old != 1 or draw(st.booleans()) else str(start)
    header = draw(st.sampled_from([f"@@ -{old_part} +{start},{new} @@", f"@@ -{old_part} +{start},{new} @@ def f():", "@@ ... @@", "@@"]))
    return "\n".join([header, *lines])


@st.composite
def diffs(draw: st.DrawFn) -> str:
    parts = []
    for n in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            parts.append(f"diff --git a/f{n} b/f{n}\nindex 1..2 100644")
        parts.append(f"--- a/f{n}\n+++ b/f{n}")
        parts += draw(st.lists(hunks(), min_size=1, max_size=4))
        if draw(st.integers(0, 5)) == 0:
            parts.append(draw(st.sampled_from(["-- ", "-- \n2.39.0", "", "Only text", "\\ No newline at end of file"])))
    text = "\n".join(parts)
    return text + draw(st.sampled_from(["\n", "\n", "", "\n\n"]))


def _read(text: str, loose: bool) -> object:
    try:
        return _unidiff.parse_unified_diff(text, 1, loose=loose)
    except UnifiedDiffError as error:
        return ("error", str(error), error.line)


def _front_end(text: str) -> object:
    try:
        return unified_operations(text)
    except UnifiedDiffError as error:
        return ("error", str(error), error.line)


@settings(max_examples=1500, deadline=None)
@given(diffs())
def test_the_fast_path_reads_as_the_line_by_line_reader(text: str) -> None:
    fast = [_read(text, False), _read(text, True), _front_end(text)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_unidiff, "_plain_hunk", lambda reader: None)
        slow = [_read(text, False), _read(text, True), _front_end(text)]
    assert fast == slow


def test_the_fast_path_takes_the_usual_hunks() -> None:
    # (Else the test above would compare the line-by-line reader with itself.)
    text = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n@@ -5 +5,2 @@\n-d\n+e\n+f\ndiff --git a/g b/g\n"
    with pytest.MonkeyPatch.context() as patch:
        taken = []
        real = _unidiff._plain_hunk

        def spy(reader: _unidiff._Reader) -> _unidiff.Hunk | None:
            hunk = real(reader)
            taken.append(hunk is not None)
            return hunk

        patch.setattr(_unidiff, "_plain_hunk", spy)
        (diff, _) = _unidiff.parse_unified_diff(text, 1)
    assert taken == [True, True] and [h.plain for h in diff.hunks] == [(" a", "-b", "+c"), ("-d", "+e", "+f")]
    assert [h.line for h in diff.hunks] == [3, 7]
