"""StreamingPlan: chunks judged as the patch arrives, through the public API."""

from __future__ import annotations

from pathlib import Path

import pytest

from apply_patch import ConcurrentChangeError, ContextNotFoundError, StreamingPlan, Verdict, apply_patch
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
