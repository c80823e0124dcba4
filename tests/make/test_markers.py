"""The `\\` lines beyond the reference: an added line's exact ending.

`\\ No newline at end of file` (git's line) after the last `+` line of a chunk
or of an Add File: that line ends the file without a line ending.
`\\ Line ending: CRLF|LF|CR` after a `+` line: that line ends so. They decide
over the final-newline policy and the file's own ending; patches without them
behave as before (the whole conformance suite runs unchanged).
"""

from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, run_cli, snapshot
from apply_patch import AddFile, Chunk, PatchError, UpdateFile, apply_patch, parse_patch

MARKED = """\
*** Begin Patch
*** Add File: new.txt
+one
\\ Line ending: CRLF
+two
\\ No newline at end of file
*** Update File: old.txt
@@
 a
-b
+B
\\ Line ending: CR
+c
\\ No newline at end of file
*** End of File
*** End Patch
"""


def _tree(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (root / name).write_bytes(data)


def _apply(root: Path, patch: str, *options: str) -> dict[str, bytes]:
    result = run_cli([*options, patch], root)
    assert result.returncode == 0, result.stderr.decode()
    return {name: entry.data for name, entry in snapshot(root).items()}


def test_the_model_holds_the_endings() -> None:
    add, update = parse_patch(MARKED).operations
    assert add == AddFile("new.txt", ("one", "two"), endings=((0, "\r\n"), (1, "")))
    assert isinstance(update, UpdateFile)
    assert update.chunks == (
        Chunk((), (" a", "-b", "+B", "+c"), True, endings=((2, "\r"), (3, ""))),
    )
    assert update.chunks[0].added_endings == ("\r", "")


def test_canonical_text_round_trips() -> None:
    assert str(parse_patch(MARKED)) == MARKED


def test_no_newline_pins_the_chunk_to_the_end() -> None:
    patch = parse_patch("*** Begin Patch\n*** Update File: f\n@@\n-x\n+y\n"
                        "\\ No newline at end of file\n*** End Patch")
    chunk = patch.operations[0].chunks[0]  # type: ignore[union-attr]
    assert isinstance(chunk, Chunk) and chunk.is_end_of_file
    assert str(patch).endswith("+y\n\\ No newline at end of file\n*** End of File\n*** End Patch\n")


def test_executable_applies_exact_endings(tmp_path: Path) -> None:
    _tree(tmp_path, {"old.txt": b"a\r\nb\r\n"})
    assert _apply(tmp_path, MARKED) == {"new.txt": b"one\r\ntwo", "old.txt": b"a\r\nB\rc"}


def test_line_ending_adds_a_final_newline_that_keep_would_not(tmp_path: Path) -> None:
    _tree(tmp_path, {"f.txt": b"a\nb"})
    patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+b\n\\ Line ending: LF\n*** End Patch"
    assert _apply(tmp_path, patch) == {"f.txt": b"a\nb\n"}


def test_unmarked_last_line_follows_the_policy(tmp_path: Path) -> None:
    _tree(tmp_path, {"f.txt": b"a\nb"})
    patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+c\n*** End Patch"
    assert _apply(tmp_path, patch) == {"f.txt": b"a\nc"}


def test_no_newline_wins_over_final_newline_add(tmp_path: Path) -> None:
    _tree(tmp_path, {"f.txt": b"x\nx\n"})
    patch = ("*** Begin Patch\n*** Update File: f.txt\n@@\n-x\n+y\n"
             "\\ No newline at end of file\n*** End Patch")
    assert _apply(tmp_path, patch, "--final-newline", "add") == {"f.txt": b"x\ny"}


def test_a_forced_line_ending_policy_still_rewrites_marked_lines(tmp_path: Path) -> None:
    _tree(tmp_path, {"f.txt": b"a\n"})
    patch = ("*** Begin Patch\n*** Update File: f.txt\n@@\n a\n+b\n\\ Line ending: CR\n"
             "+c\n\\ No newline at end of file\n*** Add File: g.txt\n+d\n\\ Line ending: LF\n"
             "+e\n\\ No newline at end of file\n*** End Patch")
    assert _apply(tmp_path, patch, "--line-endings", "crlf") == {
        "f.txt": b"a\r\nb\r\nc",
        "g.txt": b"d\r\ne",
    }


def test_mixed_endings_keep_untouched_lines(tmp_path: Path) -> None:
    _tree(tmp_path, {"f.txt": b"a\r\nb\rc\n"})
    patch = ("*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n\\ Line ending: CR\n"
             "+b2\n c\n*** End Patch")
    assert _apply(tmp_path, patch) == {"f.txt": b"a\r\nB\rb2\r\nc\n"}


def test_library_applies_the_same(tmp_path: Path) -> None:
    _tree(tmp_path, {"old.txt": b"a\nb\n"})
    apply_patch(MARKED, tmp_path)
    assert (tmp_path / "new.txt").read_bytes() == b"one\r\ntwo"
    assert (tmp_path / "old.txt").read_bytes() == b"a\nB\rc"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "*** Update File: f.txt\n@@\n+a\n\\ No newline at end of file\n+b",
            "Invalid patch hunk on line 6: Expected update hunk to start with a @@ "
            "context marker, got: '+b'",
        ),
        (
            "*** Update File: f.txt\n@@\n a\n\\ No newline at end of file",
            "Invalid patch hunk on line 5: Expected update hunk to start with a @@ "
            "context marker, got: '\\ No newline at end of file'",
        ),
        (
            "*** Add File: g.txt\n+a\n\\ No newline at end of file\n+b",
            "Invalid patch hunk on line 5: '+b' is not a valid hunk header. Valid hunk "
            "headers: '*** Add File: {path}', '*** Delete File: {path}', "
            "'*** Update File: {path}'",
        ),
        (
            "*** Add File: g.txt\n+a\n\\ Line ending: crlf",
            "Invalid patch hunk on line 4: '\\ Line ending: crlf' is not a valid hunk "
            "header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: "
            "{path}', '*** Update File: {path}'",
        ),
    ],
)
def test_misplaced_markers_are_refused(tmp_path: Path, body: str, message: str) -> None:
    _tree(tmp_path, {"f.txt": b"a\n"})
    before = snapshot(tmp_path)
    patch = f"*** Begin Patch\n{body}\n*** End Patch"
    result = run_cli([patch], tmp_path)
    assert (result.returncode, result.stdout) == (1, b"")
    assert result.stderr.decode() == f"{message}\n{NOTHING_CHANGED}"
    with pytest.raises(PatchError) as caught:
        apply_patch(patch, tmp_path)
    assert str(caught.value) == message
    assert snapshot(tmp_path) == before
