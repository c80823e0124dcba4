"""The syntax check and the outline are bounded (issue 33, class 6): no recursion limit (a
deeply nested file), work linear in the file (the changed rows of a file of repeated
lines), one deadline for the whole call, and every quoted line cut to a budget."""

import sys
import time
from collections.abc import Callable
from pathlib import Path

from _support import snapshot
from apply_patch.anthropic import TextEditor
from apply_patch.apply.syntax import _outline, _syntax
from apply_patch.edits import StrReplace, apply_edits

NESTED = 20_000  # far deeper than Python's recursion limit


def _nested_json() -> bytes:
    return b'{"a": ' * NESTED + b"1" + b"}" * NESTED + b"\n"


def _nested_python() -> bytes:
    body = "".join("    " * depth + f"def f{depth}():\n" for depth in range(400))
    return (body + "    " * 400 + "pass\n" + "x = " + "(" * NESTED + "1" + ")" * NESTED + "\n").encode()


def test_the_outline_of_a_deeply_nested_file_raises_no_recursion_error() -> None:
    for name, data in (("deep.json", _nested_json()), ("deep.py", _nested_python())):
        entries = _outline.outline(name, data)
        assert entries is None or all(isinstance(entry, str) for entry in entries)


def test_view_of_a_deeply_nested_file_answers_without_an_exception(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_bytes(_nested_json())
    (tmp_path / "deep.py").write_bytes(_nested_python())
    editor = TextEditor(tmp_path, max_characters=500)
    for name in ("deep.json", "deep.py"):
        answer = editor.run({"command": "view", "path": name})
        assert answer["is_error"] is False, answer
        assert isinstance(answer["content"], str) and answer["content"]


def test_the_outline_stops_at_its_deadline() -> None:
    data = b"".join(b"def f%d():\n    return 1\n" % n for n in range(2000))
    assert _outline.outline("a.py", data) is not None
    assert _outline.outline("a.py", data, deadline=time.monotonic() - 1) is None


def _calls(work: Callable[[], object]) -> int:
    """How many calls (Python and C) `work` makes: a measure of work that no clock can flake."""
    count = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def _functions(count: int, head: bytes) -> list[bytes]:
    return [line for n in range(count) for line in (b"def f%d(%s):" % (n, head), b"    return 1")]


def test_the_changed_rows_of_repeated_lines_take_linear_work() -> None:
    # Issue 33: every function broken (`def f(:`), each body the same line: difflib's
    # matcher was quadratic in such a file (42 KB: 3.7 s; 112 KB: 29 s).
    small = _calls(lambda: _syntax._changed_rows(_functions(250, b""), _functions(250, b":")))
    large = _calls(lambda: _syntax._changed_rows(_functions(1000, b""), _functions(1000, b":")))
    assert large < 6 * small, (small, large)


def test_the_changed_rows_name_exactly_the_changed_lines() -> None:
    old = [b"a", b"b", b"same", b"c", b"same", b"d", b"e"]
    new = [b"a", b"B", b"same", b"c", b"same", b"inserted", b"d"]
    assert _syntax._changed_rows(old, new) == [(1, 1), (5, 5), (7, 7)]
    assert _syntax._changed_rows([b"x"] * 5, [b"x"] * 3) == [(3, 3)]
    assert _syntax._changed_rows([b"a", b"b"], [b"b", b"a"]) in ([(0, 0), (2, 2)], [(0, 0), (1, 1)], [(0, 1)])


def test_a_file_with_an_error_in_every_function_is_checked_in_linear_work() -> None:
    before, after = b"\n".join(_functions(1000, b"")) + b"\n", b"\n".join(_functions(1000, b":")) + b"\n"
    found, note = _syntax.check_file("a.py", before, after)
    assert note is None and found and found[0].line == 1


def test_a_files_parse_ends_at_the_whole_calls_deadline() -> None:
    found, note = _syntax.check_file("a.py", b"x = 1\n", b"x = (\n", deadline=time.monotonic() - 1)
    assert found == [] and note == f"not checked for syntax: the patch's check took over {_syntax.PATCH_SECONDS} s"


def test_a_quoted_line_is_cut_to_a_budget(tmp_path: Path) -> None:
    # A minified file: one line of 757 KB; the edit breaks it at its end.
    line = "var a=[" + ",".join(str(n) for n in range(130_000)) + "];"
    (tmp_path / "min.js").write_text(line + "\n")
    before = snapshot(tmp_path)
    result = apply_edits([StrReplace("min.js", "];", "];)")], tmp_path, check_syntax="warn")
    warnings = [w for w in result.warnings if w.kind == "code_syntax"]
    assert warnings and all(len(text) <= 2 * _syntax.LINE_CHARS for w in warnings for text in w.message.split("\n"))
    assert snapshot(tmp_path) != before  # warned, not refused: the edit was made
    refused = _syntax.check_file("min.js", line.encode(), (line + ")").encode())[0]
    assert refused and all(len(text) <= 2 * _syntax.LINE_CHARS for text in refused[0].snippet)
    assert "..." in refused[0].snippet[0]


def _broken_everywhere(count: int) -> tuple[bytes, bytes]:
    """An old content with one error (at its end) and a new one with an error in every
    function, each on a line of its own: many errors, each next to a changed line."""
    before = b"".join(b"def f%d():\n    return %d\n" % (n, n) for n in range(count)) + b"x = (\n"
    after = b"".join(b"def f%d(:\n    return %d\n" % (n, n) for n in range(count)) + b"x = (\n"
    return before, after


def test_errors_of_an_already_broken_file_are_placed_in_linear_work() -> None:
    # Each new error was compared with every changed range (8,000 functions: 8 s).
    small = _calls(lambda: _syntax.check_file("a.py", *_broken_everywhere(500)))
    large = _calls(lambda: _syntax.check_file("a.py", *_broken_everywhere(2000)))
    assert large < 6 * small, (small, large)
    found, note = _syntax.check_file("a.py", *_broken_everywhere(50))
    assert note is None and [f.line for f in found] == [1, 3, 5]
