"""One planner runs the one model, whatever format an edit came from.

An update may mix edits of the closed set (a library caller can build one): context
chunks, text replacements, line insertions; they run in order, each on the result of the
previous, and a move at the end takes the edited bytes. A failure leaves everything as it
was, on disk and in memory.
"""

from pathlib import Path

import pytest

from apply_patch import ContextNotFoundError, FilePolicyError, PatchError, apply_patch, apply_to_mapping
from apply_patch.edits import CreateFile, Edit, StrReplace, apply_edits
from apply_patch.format import Chunk, Insert, Patch, UpdateFile, as_patch

from _support import snapshot

FILES: dict[str, str | bytes] = {"app.py": "import sys\n\ndef main():\n    return 1\n"}


def _mixed(move_to: str | None = None) -> Patch:
    return Patch((
        UpdateFile("app.py", move_to, (
            Chunk(("def main():",), ("-    return 1", "+    return 2")),
            StrReplace("app.py", "return 2", "return 3", line=2, label="old_str"),
            Insert("app.py", 0, "#!/usr/bin/env python\n", line=3),
        )),
    ))  # fmt: skip


def test_an_update_mixing_chunks_replacements_and_insertions_runs_them_in_order() -> None:
    assert apply_to_mapping(_mixed(), FILES) == {
        "app.py": "#!/usr/bin/env python\nimport sys\n\ndef main():\n    return 3\n"
    }


def test_a_move_takes_the_bytes_every_edit_left(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(str(FILES["app.py"]))
    result = apply_patch(_mixed("main.py"), str(tmp_path))
    assert not (tmp_path / "app.py").exists()
    assert (tmp_path / "main.py").read_text() == "#!/usr/bin/env python\nimport sys\n\ndef main():\n    return 3\n"
    assert [(op.letter, op.path, op.added, op.removed) for op in result.operations] == [("M", "main.py", 3, 2)]  # each edit counted


def test_a_failing_edit_of_the_mix_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(str(FILES["app.py"]))
    before = snapshot(tmp_path)
    update = UpdateFile("app.py", "main.py", (
        Chunk((), ("-import sys", "+import os")),
        StrReplace("app.py", "return 9", "return 3", line=7, label="old_str"),
    ))  # fmt: skip
    with pytest.raises(ContextNotFoundError) as caught:
        apply_patch(Patch((update,)), str(tmp_path))
    assert caught.value.patch_line == 7 and "old_str" in caught.value.message
    assert snapshot(tmp_path) == before
    with pytest.raises(ContextNotFoundError):
        apply_to_mapping(Patch((update,)), FILES)


def test_a_lowered_patch_applies_as_its_calls_do(tmp_path: Path) -> None:
    """`as_patch` then `apply_patch` is `apply_edits`: same files, same summary."""
    calls: list[Edit] = [StrReplace("app.py", "return 1", "return 2"), CreateFile("README.md", "# app\n")]
    one, two = tmp_path / "one", tmp_path / "two"
    for root in (one, two):
        root.mkdir()
        (root / "app.py").write_text(str(FILES["app.py"]))
    by_calls = apply_edits(calls, str(one))
    by_patch = apply_patch(as_patch(calls), str(two))
    assert snapshot(one) == snapshot(two)
    assert by_calls.summary == by_patch.summary == "Success. Updated the following files:\nA README.md\nM app.py\n"


def test_a_created_file_over_an_existing_one_is_named_in_its_own_words(tmp_path: Path) -> None:
    """A created file is named as its format names it; a `CreateFile` without a label as
    such, never sent to `*** Update File:` (the Codex envelope's advice)."""
    (tmp_path / "app.py").write_text("x\n")
    before = snapshot(tmp_path)
    with pytest.raises(FilePolicyError) as caught:
        apply_edits([CreateFile("app.py", "y\n")], str(tmp_path))
    assert caught.value.message == (
        "Failed to add file app.py: it already exists (the new file of edit 1 creates a file, and only a new one)"
    )
    with pytest.raises(FilePolicyError, match=r"\(CreateFile creates a file, and only a new one\)$"):
        apply_to_mapping([CreateFile("app.py", "y\n")], {"app.py": "x\n"})
    with pytest.raises(PatchError, match=r"\(.* is empty, which creates a file, and only a new one\)"):
        apply_edits([StrReplace("app.py", "", "y\n")], str(tmp_path))
    assert snapshot(tmp_path) == before
    replaced = apply_edits([CreateFile("app.py", "y\n", overwrite=True)], str(tmp_path))
    assert [(op.letter, op.added, op.removed) for op in replaced.operations] == [("M", 1, 1)]
