"""StreamingPlan: chunks judged as the patch arrives, through the public API."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from apply_patch import CODEX, ConcurrentChangeError, ContextNotFoundError, PatchError, StreamingPlan, Verdict, apply_patch
from _support import snapshot

LINES = "".join(f"line{i}\n" for i in range(1, 101))


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_text(LINES)
    (tmp_path / "twice.py").write_text("x = 1\ny = 2\nx = 1\ny = 2\n")
    return tmp_path


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def test_a_chunk_that_matches_nowhere_is_reported_before_it_is_complete(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@\n line4\n-nowhere\n+new\n line6\n"
        "*** Update File: a.py\n@@\n line9\n-line10\n+ten\n*** End Patch\n"
    )
    plan = StreamingPlan(root)
    seen: list[tuple[str, list[Verdict]]] = []
    for piece in _lines(patch):
        seen.append((piece, plan.feed(piece)))
    decided = [(piece, v) for piece, found in seen for v in found]
    assert decided[0][0] == "-nowhere\n"  # the line that decides it, not the chunk's end
    verdict = decided[0][1]
    assert (verdict.verdict, verdict.path, verdict.patch_line, verdict.file_lines) == ("not_found", "a.py", 3, None)
    with pytest.raises(ContextNotFoundError) as raised:
        plan.finish()
    # the engine's own diagnosis: its first line is the finished patch's
    assert verdict.message.splitlines()[0] == str(raised.value).splitlines()[0]
    assert "matches nowhere" in verdict.message
    assert snapshot(root) == before


def test_a_partial_last_line_and_trailing_blank_lines_are_not_judged(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root)
    assert plan.feed("*** Begin Patch\n*** Update File: a.py\n@@\n line4\n li") == []
    assert plan.feed("ne5") == []  # still no end of line: "li", "line5" are not judged
    assert plan.feed("\n \n\n") == []  # blank lines set aside (the reference's trailing retry)
    found = plan.feed("-line7\n")  # line4, line5, "", "", line7: matches nowhere
    assert [v.verdict for v in found] == ["not_found"]


def test_complete_chunks_are_placed_with_their_file_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    got: list[Verdict] = []
    plan = StreamingPlan(root, on_verdict=got.append)
    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n line4\n-line5\n+five\n line6\n@@\n-line50\n+fifty\n*** End Patch\n"
    returned = [v for piece in _lines(patch) for v in plan.feed(piece)]
    assert returned == got
    assert [(v.verdict, v.patch_line, v.file_lines) for v in got] == [("placed", 3, (4, 6)), ("placed", 8, (50, 50))]
    result = plan.finish()
    assert (root / "a.py").read_text() == LINES.replace("line5\n", "five\n").replace("line50\n", "fifty\n")
    assert result.files[0].path == "a.py"


def test_an_ambiguous_chunk_is_reported(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    plan = StreamingPlan(root, ambiguous="error")
    patch = "*** Begin Patch\n*** Update File: twice.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n"
    found = [v for piece in _lines(patch) for v in plan.feed(piece)]
    assert [(v.verdict, v.patch_line) for v in found] == [("ambiguous", 3)]
    with pytest.raises(Exception):
        plan.finish()
    assert snapshot(root) == before


def test_blank_lines_read_several_ways_are_an_ambiguous_verdict(tmp_path: Path) -> None:
    # One blank line where the file has two, beside the line the chunk adds: while the
    # chunk streams, no "not found" (its lines with text are there); once it is complete,
    # the engine's refusal, ambiguous, naming the file's two blank lines.
    (tmp_path / "m.py").write_text("import os\n\n\ndef area():\n    return 1\n")
    before = snapshot(tmp_path)
    plan = StreamingPlan(tmp_path)
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n import os\n \n+import sys\n def area():\n*** End Patch\n"
    found = [v for piece in _lines(patch) for v in plan.feed(piece)]
    assert [(v.verdict, v.patch_line) for v in found] == [("ambiguous", 3)]
    assert "lines 2-3: 2 blank lines in the file, 1 in the chunk" in found[0].message
    with pytest.raises(PatchError):
        plan.finish()
    assert snapshot(tmp_path) == before


def test_a_missing_file_is_not_found_at_its_header(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    plan = StreamingPlan(root)
    found = plan.feed("*** Begin Patch\n*** Update File: b.py\n")
    assert [(v.verdict, v.path, v.patch_line) for v in found] == [("not_found", "b.py", 2)]
    assert "b.py" in found[0].message
    plan.feed("@@\n-x\n+y\n*** End Patch\n")
    with pytest.raises(Exception):
        plan.finish()
    assert snapshot(root) == before


def test_a_file_changed_while_the_patch_streams_refuses_the_whole_patch(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "b.py").write_text("keep\n")
    plan = StreamingPlan(root)
    plan.feed("*** Begin Patch\n*** Update File: a.py\n@@\n-line5\n+five\n")
    (root / "a.py").write_text(LINES.replace("line90", "changed"))  # someone else writes it
    before = snapshot(root)
    plan.feed("*** Update File: b.py\n@@\n-keep\n+kept\n*** End Patch\n")
    with pytest.raises(ConcurrentChangeError, match="changed on disk while the patch was streaming"):
        plan.finish()
    assert snapshot(root) == before


def test_nothing_is_written_until_finish(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    plan = StreamingPlan(root)
    plan.feed("*** Begin Patch\n*** Update File: a.py\n@@\n-line5\n+five\n*** End Patch\n")
    assert snapshot(root) == before
    plan.finish()
    assert (root / "a.py").read_text() == LINES.replace("line5\n", "five\n")


def test_streamed_and_whole_patches_end_the_same(tmp_path: Path) -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n@@ line3\n line4\n-line5\n+five\n*** Add File: n.txt\n+new\n*** End Patch\n"
    one, two = tmp_path / "one", tmp_path / "two"
    for root in (one, two):
        root.mkdir()
        _tree(root)
    apply_patch(patch, one)
    plan = StreamingPlan(two)
    for size in range(0, len(patch), 7):  # pieces cutting lines anywhere
        plan.feed(patch[size : size + 7])
    plan.finish()
    assert {k: v for k, v in snapshot(one).items() if not k.startswith(".")} == {
        k: v for k, v in snapshot(two).items() if not k.startswith(".")
    }


def test_a_native_operation_diff_streams_by_its_deltas(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    plan = StreamingPlan(root, path="a.py")
    assert [v.verdict for v in plan.feed("@@\n line4\n-line5\n+five\n")] == []
    found = plan.feed(" nowhere\n")
    assert [(v.verdict, v.path, v.patch_line) for v in found] == [("not_found", "a.py", 1)]
    with pytest.raises(ContextNotFoundError):
        plan.finish()
    assert snapshot(root) == before


def test_a_native_operation_diff_applies_at_finish(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root, path="a.py")
    for piece in ("@@\n line4\n-li", "ne5\n+five\n"):
        plan.feed(piece)
    plan.finish()
    assert (root / "a.py").read_text() == LINES.replace("line5\n", "five\n")


def test_with_policy_first_an_ambiguous_chunk_is_reported_and_applies_at_the_first_place(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root, ambiguous="first")
    found = plan.feed("*** Begin Patch\n*** Update File: twice.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n")
    assert [(v.verdict, v.patch_line) for v in found] == [("ambiguous", 3)]
    assert "3" in found[0].message  # names the other place
    result = plan.finish()
    assert [w.kind for w in result.warnings] == ["ambiguous"]
    assert (root / "twice.py").read_text() == "x = 1\ny = 3\nx = 1\ny = 2\n"


def test_an_elision_waits_for_the_end_of_its_chunk(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root)
    assert plan.feed("*** Begin Patch\n*** Update File: a.py\n@@\n line4\n ...\n line9\n") == []
    found = plan.feed("-line10\n+ten\n*** End Patch\n")  # complete: the locator reads the elision
    assert [(v.verdict, v.patch_line, v.file_lines) for v in found] == [("placed", 3, (4, 10))]
    plan.finish()
    assert (root / "a.py").read_text() == LINES.replace("line10\n", "ten\n")


def test_a_native_operation_diff_of_a_missing_file_is_not_found_at_the_first_feed(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    got: list[Verdict] = []
    plan = StreamingPlan(root, path="gone.py", on_verdict=got.append)
    found = plan.feed("@@\n-x\n")
    assert [(v.verdict, v.path) for v in found] == [("not_found", "gone.py")] == [(v.verdict, v.path) for v in got]
    with pytest.raises(Exception):
        plan.finish()
    assert snapshot(root) == before


def test_a_context_line_holding_at_signs_is_not_a_chunk_header(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("a\n@@ b\nc\n")
    plan = StreamingPlan(tmp_path)
    found = plan.feed("*** Begin Patch\n*** Update File: m.py\n@@\n a\n @@ b\n-c\n+C\n*** End Patch\n")
    assert [(v.verdict, v.patch_line, v.file_lines) for v in found] == [("placed", 3, (1, 3))]
    plan.finish()
    assert (tmp_path / "m.py").read_text() == "a\n@@ b\nC\n"


# How the envelope is read while streaming (the reader's cases): each pins the verdicts.


def _verdicts(plan: StreamingPlan, pieces: list[str]) -> list[tuple[str, str, int, tuple[int, int] | None, str]]:
    return [(v.verdict, v.path, v.patch_line, v.file_lines, v.message) for p in pieces for v in plan.feed(p)]


def _placed(line: int, first: int, last: int, path: str = "a.py") -> tuple[str, str, int, tuple[int, int], str]:
    return ("placed", path, line, (first, last), f"the chunk at patch line {line} placed at line {first} of {path}")


TWO_CHUNKS = "*** Begin Patch\n*** Update File: a.py\n@@ line3\n line4\n-line5\n+five\n@@\n-line50\n+fifty\n*** End Patch\n"


def test_markers_cut_anywhere_across_pieces_give_the_verdicts_of_whole_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    whole = _verdicts(StreamingPlan(root), _lines(TWO_CHUNKS))
    assert whole == [_placed(3, 4, 5), _placed(7, 50, 50)]
    for size in (1, 2, 5, 11):
        pieces = [TWO_CHUNKS[i : i + size] for i in range(0, len(TWO_CHUNKS), size)]
        assert _verdicts(StreamingPlan(root), pieces) == whole
    cut = ["*** Begin Patch\n*** Upd", "ate File: a.py\n@", "@ line3\n line4\n-line5\n+five\n@", "@\n-line50\n+fifty\n*** End Pa", "tch\n"]
    assert _verdicts(StreamingPlan(root), cut) == whole


def test_crlf_lines_give_the_verdicts_of_lf_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    assert _verdicts(StreamingPlan(root), _lines(TWO_CHUNKS.replace("\n", "\r\n"))) == [_placed(3, 4, 5), _placed(7, 50, 50)]
    failing = "*** Begin Patch\r\n*** Update File: a.py\r\n@@\r\n line4\r\n-nowhere\r\n"
    found = _verdicts(StreamingPlan(root), _lines(failing))
    assert [v[:4] for v in found] == [("not_found", "a.py", 3, None)]


def test_a_move_line_before_the_chunks_is_no_chunk_line(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-line7\n+seven\n*** End Patch\n"
    plan = StreamingPlan(root)
    assert _verdicts(plan, _lines(patch)) == [_placed(4, 7, 7)]
    plan.finish()
    assert (root / "b.py").read_text() == LINES.replace("line7\n", "seven\n") and not (root / "a.py").exists()


def test_an_add_between_two_updates_is_not_judged_and_lines_count_on(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n-line2\n+two\n*** Add File: n.txt\n+nowhere\n line4\n"
        "*** Update File: twice.py\n@@\n x = 1\n-y = 2\n+y = 3\n x = 1\n*** Delete File: a.py\n*** End Patch\n"
    )
    found = _verdicts(StreamingPlan(root), _lines(patch))
    assert found == [_placed(3, 2, 2), _placed(9, 1, 3, "twice.py")]


def test_nothing_after_end_patch_is_read(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.py\n-line2\n+two\n*** End Patch\n*** Update File: gone.py\n-x\n"
    plan = StreamingPlan(root)
    assert _verdicts(plan, _lines(patch)) == [_placed(3, 2, 2)]
    assert _verdicts(plan, ["@@\n-nowhere\n"]) == []


def test_prose_before_the_patch_is_counted_in_patch_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = "Here it is:\n```\n" + TWO_CHUNKS + "```\n"
    assert _verdicts(StreamingPlan(root), _lines(patch)) == [_placed(5, 4, 5), _placed(9, 50, 50)]


def test_an_end_of_file_chunk_and_several_at_lines(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@ line1\n@@ line2\n line3\n-line4\n+four\n"
        "@@\n line99\n-line100\n+hundred\n*** End of File\n\n*** End Patch\n"
    )
    plan = StreamingPlan(root)
    assert _verdicts(plan, _lines(patch)) == [_placed(3, 3, 4), _placed(8, 99, 100)]
    plan.finish()
    assert (root / "a.py").read_text() == LINES.replace("line4\n", "four\n").replace("line100\n", "hundred\n")


def test_under_codex_a_chunk_the_reference_does_not_read_gets_no_verdict(tmp_path: Path) -> None:
    # Two `@@` lines, a `\` line: the reference refuses the patch there, so the stream says
    # nothing of the chunk (as of one the grammar refuses) and the result names the error.
    root = _tree(tmp_path)
    before = snapshot(root)
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n@@ line1\n@@ line2\n line3\n-line4\n+four\n"
        "@@\n line9\n-line10\n+ten\n\\ Line ending: CRLF\n@@\n line19\n-line20\n+twenty\n*** End Patch\n"
    )
    plan = StreamingPlan(root, policy=CODEX)
    assert [v[:4] for v in _verdicts(plan, _lines(patch))] == [("placed", "a.py", 13, (19, 20))]
    with pytest.raises(PatchError, match="Unexpected line found in update hunk: '@@ line2'"):
        plan.finish()
    assert snapshot(root) == before
    assert _verdicts(StreamingPlan(root), _lines(patch)) == [_placed(3, 3, 4), _placed(8, 9, 10), _placed(13, 19, 20)]


def test_the_last_chunk_is_judged_at_finish_when_the_text_stops_without_end_patch(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    got: list[Verdict] = []
    plan = StreamingPlan(root, on_verdict=got.append)
    assert plan.feed("*** Begin Patch\n*** Update File: a.py\n@@\n line4\n-line5\n+five") == []
    with pytest.raises(Exception):
        plan.finish()  # no `*** End Patch`: the engine refuses the patch
    assert [(v.verdict, v.patch_line, v.file_lines) for v in got] == [("placed", 3, (4, 5))]


def test_a_chunk_the_grammar_refuses_gets_no_verdict(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n-line5\nno prefix\n+five\n@@\n-line9\n+nine\n*** End Patch\n"
    assert _verdicts(StreamingPlan(root), _lines(patch)) == [_placed(7, 9, 9)]


def test_a_native_operation_diff_with_end_of_file(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root, path="a.py")
    diff = "@@\n-line1\n+one\n@@\n line99\n-line100\n+hundred\n*** End of File\n"
    assert _verdicts(plan, _lines(diff)) == [_placed(1, 1, 1)]
    got: list[Verdict] = []
    plan.on_verdict = got.append
    plan.finish()
    assert [(v.verdict, v.patch_line, v.file_lines) for v in got] == [("placed", 4, (99, 100))]
    assert (root / "a.py").read_text() == LINES.replace("line1\n", "one\n").replace("line100\n", "hundred\n")


def test_a_native_operation_diff_ending_with_end_patch_is_judged_as_without(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    plan = StreamingPlan(root, path="a.py")
    assert _verdicts(plan, _lines("@@ line1\n-line2\n@@\n-line9\n+nine\n*** End Patch  \n")) == [_placed(1, 2, 2), _placed(3, 9, 9)]
    plan.finish()  # the native tool's diff may end with `*** End Patch` (the SDK's parser stops there)
    assert (root / "a.py").read_text() == LINES.replace("line2\n", "").replace("line9\n", "nine\n")


def test_a_native_operation_diff_cannot_carry_other_operations(tmp_path: Path) -> None:
    """The diff of one `update_file` is that file's chunks: a header line in it is no header,
    as the native tool's reader (`to_operation`) reads it, and nothing else is touched."""
    root = _tree(tmp_path)
    (root / "b.py").write_text("keep\n")
    before = snapshot(root)
    for smuggled in ("*** Delete File: b.py", "*** Add File: new.py\n+x", "*** Update File: b.py\n@@\n-keep\n+kept"):
        plan = StreamingPlan(root, path="a.py")
        plan.feed(f"@@\n-line5\n+five\n{smuggled}\n")
        with pytest.raises(PatchError):
            plan.finish()
        assert snapshot(root) == before


def test_each_chunk_is_searched_from_the_last_place_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks in file order: the file is searched on from the last place found, never again
    from its top for each chunk (that cost the last tenth of the chunks of a 200k-line
    file 5× the first tenth). Counted, not timed: every search starts where the one
    before it started, or further down."""
    from apply_patch.apply.matching._seek import TIERS, LineIndex, Match, Tier

    count = 20_000
    (tmp_path / "big.py").write_text("".join(f"x{i} = {i}\n" for i in range(count)))
    chunks = [f"@@\n x{i} = {i}\n-x{i + 1} = {i + 1}\n+x{i + 1} = 0\n" for i in range(50, count - 100, 100)]
    plan = StreamingPlan(tmp_path)
    assert plan.feed("*** Begin Patch\n*** Update File: big.py\n") == []  # the file read
    starts: list[int] = []
    seek = LineIndex.seek

    def recorded(
        index: LineIndex, pattern: Sequence[str], start: int, *, eof: bool = False, tiers: Sequence[Tier] = TIERS
    ) -> Match | None:
        starts.append(start)
        return seek(index, pattern, start, eof=eof, tiers=tiers)

    monkeypatch.setattr(LineIndex, "seek", recorded)
    found = [v for line in "".join(chunks).splitlines(keepends=True) for v in plan.feed(line)]
    assert [v.verdict for v in found] == ["placed"] * (len(chunks) - 1)  # the last one: when the next line comes
    assert len(starts) >= len(chunks) and starts == sorted(starts), starts[:20]
    assert starts[-1] > count - 400  # the last chunk's search started near it, not at the top


def test_a_not_found_verdict_indexes_the_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict's own search (the engine's, for its retries and its message) reads the
    index the plan made for its quick searches: the file's lines, joined for the chunk's
    first line, are not joined again (counted, not timed)."""
    from apply_patch.apply.matching import _seek

    (tmp_path / "big.py").write_text("".join(f"x{i} = {i}\n" for i in range(2000)))
    plan = StreamingPlan(tmp_path)
    assert plan.feed("*** Begin Patch\n*** Update File: big.py\n@@\n x10 = 10\n") == []
    joined: list[int] = []
    made = _seek._Joined.__init__

    def counted(self: _seek._Joined, lines: list[str]) -> None:
        joined.append(len(lines))
        made(self, lines)

    monkeypatch.setattr(_seek._Joined, "__init__", counted)
    found = plan.feed(" not in the file\n")
    assert [v.verdict for v in found] == ["not_found"]
    assert "x11 = 11" in found[0].message  # the closest region, from the one index
    assert joined == []


_FIRST_REFUSAL = """
import sys
from apply_patch import StreamingPlan

plan = StreamingPlan(sys.argv[1])
assert plan.feed("*** Begin Patch\\n*** Update File: a.py\\n@@\\n line4\\n") == []
before = set(sys.modules)
found = plan.feed(" not in the file\\n")
assert [v.verdict for v in found] == ["not_found"], found
assert "line5" in found[0].message  # the closest region: the diagnosis ran
print(" ".join(sorted(set(sys.modules) - before)))
"""


def test_the_first_not_found_verdict_of_a_process_imports_nothing(tmp_path: Path) -> None:
    """A stream's first refusal comes as fast as the next: what explains a refusal (the
    diagnosis, its closest region, blank-line readings, difflib, the encodings), which
    a run imports at its first failure (start-up time), is imported when the plan is
    made, before any line arrives (counted in modules, in a fresh interpreter)."""
    import subprocess
    import sys

    root = _tree(tmp_path)
    result = subprocess.run([sys.executable, "-c", _FIRST_REFUSAL, str(root)], capture_output=True, text=True,
                            timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
