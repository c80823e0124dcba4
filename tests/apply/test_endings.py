"""One table of line endings (issue 35 item 2b): the policy's `line_endings`, EditorConfig's
`end_of_line` and every writer of new lines (a Codex chunk, a str_replace, an Add File, an
Add File over an existing file, a new file's conventions) read the same break for a name."""

from pathlib import Path

import pytest

from apply_patch import apply_patch
from apply_patch._policy import Policy
from apply_patch.apply.matching import ENDINGS, forced_ending
from apply_patch.edits import CreateFile, StrReplace, apply_edits


def test_the_table_names_each_break_once() -> None:
    assert ENDINGS == {"lf": "\n", "crlf": "\r\n", "cr": "\r"}
    assert len(set(ENDINGS.values())) == len(ENDINGS)


@pytest.mark.parametrize(("name", "expected"), [("keep", None), ("lf", "\n"), ("crlf", "\r\n")])
def test_forced_ending_is_the_policys_break_or_none_when_it_keeps_the_files(name: str, expected: str | None) -> None:
    assert forced_ending(Policy(line_endings=name)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "brk"), [("lf", b"\n"), ("crlf", b"\r\n")])
def test_every_writer_gives_the_policys_break(tmp_path: Path, name: str, brk: bytes) -> None:
    (tmp_path / "chunk.txt").write_bytes(b"a\r\nb\nc\r\n")
    (tmp_path / "replace.txt").write_bytes(b"a\nb\r\nc\n")
    (tmp_path / "over.txt").write_bytes(b"old\r\n")
    patch = (
        "*** Begin Patch\n*** Update File: chunk.txt\n@@\n a\n-b\n+B\n+B2\n c\n"
        "*** Add File: new.txt\n+one\n+two\n*** End Patch\n"
    )
    apply_patch(patch, tmp_path, line_endings=name)
    apply_edits([StrReplace("replace.txt", "b", "B\nB2")], tmp_path, line_endings=name)
    apply_edits([CreateFile("over.txt", "x\ny\n", overwrite=True)], tmp_path, line_endings=name)
    assert (tmp_path / "chunk.txt").read_bytes() == b"a" + brk + b"B" + brk + b"B2" + brk + b"c" + brk
    assert (tmp_path / "replace.txt").read_bytes() == b"a" + brk + b"B" + brk + b"B2" + brk + b"c" + brk
    assert (tmp_path / "new.txt").read_bytes() == b"one" + brk + b"two" + brk
    assert (tmp_path / "over.txt").read_bytes() == b"x" + brk + b"y" + brk
