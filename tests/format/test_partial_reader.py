"""PartialReader's line reports: what the grammar made of each line, and the chunks it completed."""

from __future__ import annotations

from pathlib import Path

import pytest

from _support import FIXTURES
from apply_patch import parse_patch
from apply_patch.format import Chunk, LineRead, PartialOperation, PartialReader, UpdateFile

# Two lenient spellings are known only once the whole text is there, and are read as
# `parse_patch` reads them only then: the last line is `*** End Patch` however indented
# (inside an Update an indented line is a context line until the text ends), and a
# `<<-` heredoc strips the tabs of every line (known only at its closing delimiter).
WHOLE_TEXT_ONLY = {"whitespace_around_markers", "heredoc_dash_strips_tabs"}
VALID = [*sorted(p for p in (FIXTURES / "parse" / "valid").glob("*.patch") if p.stem not in WHOLE_TEXT_ONLY),
         FIXTURES / "demo" / "change.patch"]


def _chunks_read(reader: PartialReader, pieces: list[str]) -> list[Chunk]:
    reads = [read for piece in pieces for read in reader.read(piece)] + reader.end()
    return [read.complete for read in reads if read.complete is not None]


def _parsed_chunks(text: str) -> list[Chunk]:
    operations = parse_patch(text).operations
    return [chunk for op in operations if isinstance(op, UpdateFile) for chunk in op.chunks if isinstance(chunk, Chunk)]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_the_chunks_completed_are_the_parsers_with_their_patch_lines(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = _parsed_chunks(text)
    for size in (1, 4, len(text)):
        got = _chunks_read(PartialReader(), [text[i : i + size] for i in range(0, len(text), size)])
        assert got == expected
        assert [c.line for c in got] == [c.line for c in expected]


def test_each_line_is_reported_with_its_role() -> None:
    text = (
        "prose\n*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@ def f():\n@@\n x\n-y\n+z\n\n"
        "*** End of File\n\n*** Add File: n\n+new\n*** Update File: c\n-q\n*** End Patch\nafter\n"
    )
    reader = PartialReader()
    reads = reader.read(text)
    assert [r.number for r in reads] == list(range(1, 18))  # nothing after `*** End Patch`
    by_line = {r.number: r for r in reads}
    assert by_line[3].operation == PartialOperation("update", "a.py")
    assert by_line[4] == LineRead(4)  # the Move: no chunk yet
    assert [(by_line[n].chunk_line, by_line[n].old) for n in (7, 8, 9, 10)] == [(5, "x"), (5, "y"), (5, None), (5, "")]
    first = by_line[13].complete
    assert first is not None and (first.line, first.contexts, first.is_end_of_file) == (5, ("def f():",), True)
    assert by_line[13].operation == PartialOperation("add", "n")
    assert (by_line[14].chunk_line, by_line[14].old) == (0, None)  # an Add's line is no chunk's
    assert (by_line[16].chunk_line, by_line[16].old) == (16, "q")  # a first chunk without `@@`
    last = by_line[17].complete
    assert by_line[17].finished and last is not None and (last.line, last.lines) == (16, ("-q",))
    assert reader.end() == []


def test_a_chunk_with_a_line_the_grammar_refuses_is_never_completed() -> None:
    reads = PartialReader().read("*** Begin Patch\n*** Update File: a\n@@\n-x\nno prefix\n@@\n-y\n*** End Patch\n")
    completed = [r.complete for r in reads if r.complete is not None]
    assert [(c.line, c.lines) for c in completed] == [(6, ("-y",))]


def test_the_end_reads_the_last_line_and_completes_its_chunk() -> None:
    reader = PartialReader()
    assert [r.complete for r in reader.read("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y")] == [None] * 4
    (last, end) = reader.end()
    assert (last.number, last.old, last.chunk_line) == (5, None, 3)
    assert end.complete is not None and (end.number, end.complete.lines) == (5, ("-x", "+y"))
    assert reader.read("*** End Patch\n") == [] and reader.end() == []


def test_a_diff_of_one_update_is_read_from_its_first_line() -> None:
    reader = PartialReader(diff_of="a.py")
    reads = reader.read("@@\n-x\n+y\n*** Add File: not a marker here\n@@\n-z\n*** End of File\n")
    assert reader.partial.operations == (PartialOperation("update", "a.py", None, 3),)
    assert [r.old for r in reads] == [None, "x", None, None, None, "z", None]
    assert [r.complete for r in reads if r.complete] == []  # the first chunk holds a line the grammar refuses
    (end,) = reader.end()
    assert end.complete is not None and (end.complete.line, end.complete.is_end_of_file) == (5, True)


def test_a_diff_ends_at_end_patch_with_its_chunk_complete() -> None:
    """The parser's row takes `*** End Patch` only to reduce the chunk and then refuse it in a
    diff: the reader undoes that, completes the chunk and reads nothing after."""
    reader = PartialReader(diff_of="a.py")
    reads = reader.read("@@\n-a\n+b\n*** End Patch  \n-c\n")
    assert [(r.number, r.finished) for r in reads] == [(1, False), (2, False), (3, False), (4, True)]
    assert reads[-1].complete is not None and (reads[-1].complete.line, reads[-1].complete.lines) == (1, ("-a", "+b"))
    assert reader.partial.finished and reader.read("@@\n-d\n") == [] and reader.end() == []
