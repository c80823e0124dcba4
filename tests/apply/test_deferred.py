"""Exact replacements of one file copied at once (`apply/_deferred.py`, issue 24).

What a call of several edits gives with the copies deferred must be exactly what it gives
with each edit made the usual way: the file's bytes, each placement (line, tier, counts),
the warnings, and on a failure the error (kind, text) with the tree unchanged. The edits
drawn here collide on purpose: texts of a few letters, old texts that occur several times,
that were written by an earlier edit, that overlap one, that reach the end of the file.
"""

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from apply_patch import DEFAULT, PatchError
from apply_patch.apply import matching
from apply_patch.apply.matching import _deferred, _edits
from apply_patch.edits import Edit, Insert, StrReplace, apply_edits

from _support import PROPERTY



def _outcome(edits: list[Edit], original: bytes, options: object) -> tuple[object, ...]:
    """What `apply_edits` leaves and says: the file, the placements and warnings, or the error."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        try:
            result = apply_edits(edits, folder, policy=options)  # type: ignore[arg-type]
        except PatchError as error:
            assert Path(folder, "f.txt").read_bytes() == original  # nothing changed
            return ("error", error.kind, str(error))
        placements = [(p.file_line, p.tier, p.added, p.removed) for p in result.operations[0].placements]
        warnings = [str(w) for w in result.warnings]
        return (Path(folder, "f.txt").read_bytes(), placements, warnings)


def _find_with(mp: pytest.MonkeyPatch, finding: tuple[tuple[int, int], int]) -> None:
    (index_after, tail), window = finding
    mp.setattr(_deferred, "INDEX_AFTER", index_after)
    mp.setattr(_deferred, "TAIL", tail)
    mp.setattr(_deferred, "UNIT_WINDOW", window)
    mp.setattr(_edits, "UNIT_WINDOW", window)


def _edit(text: str, data: st.DataObject) -> Edit:
    """An edit of `text`: mostly a replacement of a piece of it (maybe not unique), of a
    drawn text (maybe absent, maybe written by an earlier edit), sometimes with a count or
    a choice, sometimes an insertion."""
    kind = data.draw(st.sampled_from(["piece", "piece", "piece", "drawn", "count", "insert"]))
    if kind == "insert":
        return Insert("f.txt", data.draw(st.integers(0, text.count("\n") + 1)), "ins")
    if kind == "drawn" or not text:
        old = data.draw(PIECES)
    else:
        start = data.draw(st.integers(0, len(text) - 1))
        old = text[start : data.draw(st.integers(start + 1, min(len(text), start + 9)))]
    new = data.draw(st.one_of(PIECES, st.just(""), st.just(old + "x"), st.just("y" + old)))
    if new == old:
        new = old + "z"
    if kind == "count":
        choice = data.draw(st.sampled_from(["replace_all", "expected", "occurrence", "near_line"]))
        value = True if choice == "replace_all" else data.draw(st.integers(1, 3))
        return StrReplace("f.txt", old, new, **{choice: value})  # type: ignore[arg-type]
    return StrReplace("f.txt", old, new)


# How the batch finds an old text of two line breaks or more: searching the whole text
# (the index never built), or its lines' index from the first edit, each line told by the
# last 1 or 8 characters of the line before it (short lines: many told apart, or few);
# and the characters around a place read for the file's indentation unit (all, or a few:
# the window then cut inside the text, across pending replacements).
FINDING = st.tuples(st.sampled_from([(10**9, 8), (0, 1), (0, 8)]), st.sampled_from([16_000, 4, 9]))
LINES = st.lists(st.sampled_from(["a", "b", "ab", "", "  a", "ba b", "b  ", "\ta", "\t\tb"]), min_size=1, max_size=24)
PIECES = st.text("ab \t\n", min_size=1, max_size=7)


@PROPERTY
@given(LINES, st.booleans(), st.sampled_from(["keep", "add"]), st.integers(1, 4), FINDING, st.data())
def test_deferred_copies_give_what_each_edit_gives_the_usual_way(
    lines: list[str], final: bool, final_newline: str, limit: int, finding: tuple[tuple[int, int], int], data: st.DataObject
) -> None:
    text = "\n".join(lines) + ("\n" if final else "")
    edits = [_edit(text, data) for _ in range(data.draw(st.integers(2, 9)))]
    options = DEFAULT.with_options(final_newline=final_newline)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(matching, "DEFERRED_FROM", 10**9)
        mp.setattr(_edits, "UNIT_WINDOW", finding[1])
        usual = _outcome(edits, text.encode(), options)
        mp.setattr(matching, "DEFERRED_FROM", 2)
        mp.setattr(_deferred, "LIMIT", limit)  # copies every `limit` replacements: many flushes
        _find_with(mp, finding)
        deferred = _outcome(edits, text.encode(), options)
    finally:
        mp.undo()
    assert deferred == usual


def _near_edit(text: str, data: st.DataObject, last: int) -> tuple[Edit, int]:
    """A replacement of a piece of `text` near offset `last` (an earlier edit's place), whose
    new text may repeat a piece of the file: pending replacements close to each other, and
    old texts that an earlier new text writes again."""
    start = min(max(last + data.draw(st.integers(-40, 40)), 0), len(text) - 1)
    old = text[start : data.draw(st.integers(start + 1, min(len(text), start + 14)))]
    copied = data.draw(st.integers(0, len(text) - 1))
    new = data.draw(st.sampled_from(["", "X\n", old.upper(), text[copied : copied + 6], old + "\n" + old]))
    return StrReplace("f.txt", old, new if new != old else old + "!"), start


@PROPERTY
@given(st.integers(5, 40), st.sampled_from(["keep", "add"]), st.integers(1, 6), FINDING, st.data())
def test_deferred_copies_of_nearby_edits_in_a_file_of_distinct_lines(
    count: int, final_newline: str, limit: int, finding: tuple[tuple[int, int], int], data: st.DataObject
) -> None:
    text = "".join(f"row {i}: {'ab' * (i % 3)}\n" for i in range(count))
    last, edits = data.draw(st.integers(0, len(text) - 1)), []
    for _ in range(data.draw(st.integers(2, 12))):
        edit, last = _near_edit(text, data, last)
        edits.append(edit)
    options = DEFAULT.with_options(final_newline=final_newline)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(matching, "DEFERRED_FROM", 10**9)
        mp.setattr(_edits, "UNIT_WINDOW", finding[1])
        usual = _outcome(edits, text.encode(), options)
        mp.setattr(matching, "DEFERRED_FROM", 2)
        mp.setattr(_deferred, "LIMIT", limit)
        _find_with(mp, finding)
        deferred = _outcome(edits, text.encode(), options)
    finally:
        mp.undo()
    assert deferred == usual


def _numbered(count: int) -> str:
    return "".join(f"line {i}\n" for i in range(count))


def test_replacements_in_any_order_are_copied_once_per_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many unique replacements, backward and forward, past several flushes: the text and
    each placement's line (the line where its old text started as the file was then)."""
    monkeypatch.setattr(_deferred, "LIMIT", 4)
    order = [*range(40, 20, -2), *range(1, 20, 3)]
    edits: list[Edit] = [StrReplace("f.txt", f"line {i}\n", f"line {i}\nadded {i}\n") for i in order]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_text(_numbered(50))
        result = apply_edits(edits, folder)
        expected = _numbered(50)
        lines = []
        for i in order:
            lines.append(expected.count("\n", 0, expected.index(f"line {i}\n")) + 1)
            expected = expected.replace(f"line {i}\n", f"line {i}\nadded {i}\n")
        assert Path(folder, "f.txt").read_text() == expected
        assert [p.file_line for p in result.operations[0].placements] == lines
        assert (result.operations[0].added, result.operations[0].removed) == (len(order), 0)


def test_an_old_text_an_earlier_edit_wrote_is_found_where_it_wrote_it() -> None:
    """Edit 2's old text exists only once edit 1 is made (it spans edit 1's new text):
    declined by the deferral, found by the usual way."""
    edits: list[Edit] = [StrReplace("f.txt", "line 3\n", "line three\n"), StrReplace("f.txt", "2\nline three", "2\nLINE THREE")]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_text(_numbered(6))
        apply_edits(edits, folder)
        assert Path(folder, "f.txt").read_text() == "line 0\nline 1\nline 2\nLINE THREE\nline 4\nline 5\n"


def test_an_edit_made_ambiguous_by_an_earlier_one_is_refused_and_nothing_changes() -> None:
    """Edit 1 writes a second copy of edit 2's old text: edit 2 is refused (two places), as
    it is one edit at a time, and the file keeps its bytes."""
    edits: list[Edit] = [StrReplace("f.txt", "line 20\n", "line 20\nline 5\n"), StrReplace("f.txt", "line 5\n", "five\n")]
    _refused_as_two_places(_numbered(30).encode(), edits, "lines 6, 22")


def _refused_as_two_places(original: bytes, edits: list[Edit], lines: str) -> None:
    """`edits` refused: edit 2's old text matches two places (on `lines`), the file unchanged."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        with pytest.raises(PatchError) as caught:
            apply_edits(edits, folder)
        assert caught.value.kind == "count"
        assert str(caught.value).startswith(f"The old text of edit 2 matches 2 places in f.txt ({lines})")
        assert Path(folder, "f.txt").read_bytes() == original


def test_a_new_text_indented_in_another_unit_is_written_as_one_edit_at_a_time_writes_it() -> None:
    """The batch does not look at the indentation unit of a new text (`_edits._in_file_unit`):
    a tab-indented new line in a file indented with spaces was written with its tab by a
    call of two edits, with spaces by the same edits one call at a time (found by
    `tests/apply/test_place.py`). Such an edit is made the usual way."""
    original = b"    x = 1\na\n"
    edits: list[Edit] = [StrReplace("f.txt", "    x = 1\n", "\tz = 2\n"), StrReplace("f.txt", "a\n", "b\n")]
    together = _outcome(edits, original, DEFAULT)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "f.txt").write_bytes(original)
        for edit in edits:
            apply_edits([edit], folder)
        apart = Path(folder, "f.txt").read_bytes()
    assert together[0] == apart == b"    z = 2\nb\n"


def _filler(name: str) -> str:
    return "".join(f"{name} filler line {i}\n" for i in range(12))


@pytest.mark.parametrize("index_after", [0, 10**9], ids=["indexed", "searched"])
def test_an_old_text_written_over_a_pending_line_is_a_second_place(
    monkeypatch: pytest.MonkeyPatch, index_after: int
) -> None:
    """Edit 1 turns a line into the last line of edit 2's old text, whose other lines are
    there already: a second place, though the line that tells it apart in the kept text
    (the rarest pair of lines) is only at the first one. Refused, nothing changed."""
    monkeypatch.setattr(_deferred, "INDEX_AFTER", index_after)
    block = "the first\nthe second\nthe third\n"
    original = (_filler("a") + block + "stale fourth\n" + _filler("b") + block + "the fourth\n" + _filler("c")).encode()
    edits: list[Edit] = [StrReplace("f.txt", "stale fourth\n", "the fourth\n"),
                         StrReplace("f.txt", block + "the fourth\n", block + "THE FOURTH\n")]
    _refused_as_two_places(original, edits, "lines 13, 29")


@pytest.mark.parametrize("index_after", [0, 10**9], ids=["indexed", "searched"])
def test_an_old_text_whose_pair_of_lines_a_pending_edit_made_is_a_second_place(
    monkeypatch: pytest.MonkeyPatch, index_after: int
) -> None:
    """Edit 1 writes the line before an existing line, making the pair edit 2's old text is:
    found around edit 1's lines (`_written`), not in the kept text's index. Refused."""
    monkeypatch.setattr(_deferred, "INDEX_AFTER", index_after)
    original = (_filler("a") + "the header\nthe body\n" + _filler("b") + "stale header\nthe body\n" + _filler("c")).encode()
    edits: list[Edit] = [StrReplace("f.txt", "stale header\n", "the header\n"),
                         StrReplace("f.txt", "the header\nthe body\n", "the header\nTHE BODY\n")]
    _refused_as_two_places(original, edits, "lines 13, 27")


def test_a_batch_writes_the_file_unit_as_one_edit_does() -> None:
    """A new text indented with spaces in a file indented with tabs throughout: written with
    tabs and a warning, whether the edit is the only one or the second of a batch (the batch
    once wrote it as sent, without a word)."""
    text = "def f():\n\tx = 1\n\treturn x\n\ndef g():\n\ty = 2\n\treturn y\n"
    outcomes = []
    for edits in ([StrReplace("f.py", "\tx = 1\n", "\tx = 1\n    z = 3\n")],
                  [StrReplace("f.py", "\ty = 2\n", "\ty = 5\n"), StrReplace("f.py", "\tx = 1\n", "\tx = 1\n    z = 3\n")]):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "f.py").write_text(text)
            result = apply_edits(edits, folder)
            outcomes.append((Path(folder, "f.py").read_text(), [(w.kind, w.file_line) for w in result.warnings]))
    assert outcomes[0] == ("def f():\n\tx = 1\n\tz = 3\n\treturn x\n\ndef g():\n\ty = 2\n\treturn y\n", [("indentation", 3)])
    assert outcomes[1] == ("def f():\n\tx = 1\n\tz = 3\n\treturn x\n\ndef g():\n\ty = 5\n\treturn y\n", [("indentation", 3)])


def test_a_batch_writes_a_whitespace_only_line_of_tabs_as_one_edit_does() -> None:
    """Tabs alone on a new line, in a file with no tab, are written in its spaces (by the
    whole file's say, which the batch's check does not read): the same whether the edit is
    the only one or the second of a batch (found by the property test above)."""
    text = "def f():\n    x = 1\n\ndef g():\n    y = 2\n"
    new = "    x = 1\n\t\n    w = 0\n"
    outcomes = []
    for edits in ([StrReplace("f.py", "    x = 1\n", new)],
                  [StrReplace("f.py", "    y = 2\n", "    y = 5\n"), StrReplace("f.py", "    x = 1\n", new)]):
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "f.py").write_text(text)
            apply_edits(edits, folder)
            outcomes.append(Path(folder, "f.py").read_text())
    assert outcomes[0] == "def f():\n    x = 1\n    \n    w = 0\n\ndef g():\n    y = 2\n"
    assert outcomes[1] == outcomes[0].replace("y = 2", "y = 5")


@PROPERTY
@given(LINES, st.data())
def test_the_text_as_made_around_a_place_is_read_across_pending_replacements(lines: list[str], data: st.DataObject) -> None:
    """`made_window` (what the batch reads the indentation unit from, as one edit reads it
    from the text with the pending replacements made) is that text's stretch, cut where
    it is, whatever pending replacements lie in it or around it."""
    text = "\n".join(lines) + "\n"
    batch = _deferred.Deferred(matching.LfText(text, False), DEFAULT)
    for _ in range(data.draw(st.integers(0, 6))):
        start = data.draw(st.integers(0, len(text) - 1))
        old = text[start : data.draw(st.integers(start + 1, min(len(text), start + 6)))]
        batch.add(StrReplace("f.txt", old, data.draw(st.sampled_from(["", "X", "\tYY\n", old * 2]))))
    spans = [(p[0], p[1]) for p in batch._pending]
    free = [at for at in range(len(text)) if not any(s < at < e for s, e in spans)]
    at = data.draw(st.sampled_from(free))
    size = data.draw(st.integers(0, 3))
    if any(s < at + size and at < e for s, e in spans if e > s) or at + size > len(text):
        return
    reach = data.draw(st.integers(1, 12))
    window = batch.made_window(at, size, reach)
    shift = sum(len(p[2]) - (p[1] - p[0]) for p in batch._pending if p[1] <= at)
    made = batch.text().body
    at += shift
    assert window.text == made[max(at - reach, 0) : at + size + reach]
    assert (window.cut_before, window.cut_after) == (at - reach > 0, at + size + reach < len(made))
