"""Every format parses into the one model: the other formats' calls lowered to a `Patch`.

`format.as_patch` turns str_replace edits, insertions, created files and notebook edits
into Add File and Update operations whose edits come from one closed set (context chunk,
and the calls themselves: `StrReplace`, `Insert`, `NotebookEdit`; no second class with the
same fields), each keeping its origin and label.
"""

import pytest

from apply_patch.edits import CreateFile, Insert, NotebookEdit, StrReplace
from apply_patch.format import (
    AddFile,
    Chunk,
    DeleteFile,
    Operation,
    Patch,
    UpdateFile,
    as_patch,
    parse_patch,
)


def test_edits_in_place_of_one_file_become_one_update_in_order() -> None:
    patch = as_patch([
        StrReplace("a.py", "x = 1\n", "x = 2\n", line=3, label="old_str"),
        Insert("a.py", 0, "import os\n", line=4),
        StrReplace("a.py", "y", "z", replace_all=True, line=5),
        StrReplace("b.py", "p", "q", expected=2, line=6),
    ])  # fmt: skip
    assert patch.per_file
    first, second = patch.operations
    assert first == UpdateFile("a.py", None, (
        StrReplace("a.py", "x = 1\n", "x = 2\n"),
        Insert("a.py", 0, "import os\n"),
        StrReplace("a.py", "y", "z", replace_all=True),
    ))  # fmt: skip
    assert isinstance(first, UpdateFile) and [c.line for c in first.chunks] == [3, 4, 5]
    assert isinstance(first.chunks[0], StrReplace) and first.chunks[0].label == "old_str"
    assert second == UpdateFile("b.py", None, (StrReplace("b.py", "p", "q", expected=2),))


def test_an_edit_of_another_file_between_two_edits_makes_two_updates() -> None:
    patch = as_patch([StrReplace("a", "1", "2"), StrReplace("b", "1", "2"), StrReplace("a", "2", "3")])
    assert [op.path for op in patch.operations] == ["a", "b", "a"]


@pytest.mark.parametrize(
    ("text", "lines", "endings"),
    [
        ("one\ntwo\n", ("one", "two"), ()),
        ("one\ntwo", ("one", "two"), ((1, ""),)),
        ("one\r\ntwo\rthree\n", ("one", "two", "three"), ((0, "\r\n"), (1, "\r"))),
        ("", (), ()),
        ("\n\n", ("", ""), ()),
    ],
)
def test_a_created_file_keeps_its_exact_text(text: str, lines: tuple[str, ...], endings: tuple[tuple[int, str], ...]) -> None:
    (added,) = as_patch([CreateFile("n.txt", text, overwrite=True)]).operations
    assert added == AddFile("n.txt", lines, 0, endings, "overwrite")
    assert isinstance(added, AddFile) and added.text() == text


def test_an_empty_old_text_is_an_add_that_may_fill_an_empty_file() -> None:
    (added,) = as_patch([StrReplace("n.txt", "", "hello\n", label="old_str")]).operations
    assert isinstance(added, AddFile) and added.existing == "empty" and added.text() == "hello\n"
    assert added.label == "old_str"


def test_a_notebook_edit_is_the_edit_of_its_own_update() -> None:
    edits = [NotebookEdit("n.ipynb", "x = 1", cell_id=0), NotebookEdit("n.ipynb", "y", cell_id=1)]
    patch = as_patch(edits)
    assert patch.operations == tuple(UpdateFile("n.ipynb", None, (edit,)) for edit in edits)


def test_the_calls_are_the_models_edits_themselves() -> None:
    """One class each: the call a format makes is the edit an update holds (the same object)."""
    edit = StrReplace("a.py", "x", "y", label="old_str")
    (update,) = as_patch([edit]).operations
    assert isinstance(update, UpdateFile) and update.chunks[0] is edit
    import apply_patch.format as format_

    assert not any(hasattr(format_, name) for name in ("TextReplacement", "LineInsertion", "CellEdit"))


def test_codex_operations_pass_as_they_are() -> None:
    chunk = Chunk((), ("-a", "+b"))
    operations: list[Operation] = [UpdateFile("a", None, (chunk,)), DeleteFile("b")]
    assert as_patch(operations).operations == tuple(operations)


def test_only_the_codex_envelope_has_patch_text() -> None:
    """A patch of replacements has no Codex text: str() says so rather than writing a wrong one."""
    patch = as_patch([StrReplace("a.py", "x", "y")])
    with pytest.raises(ValueError, match="cannot write this patch: StrReplace of 'a.py'"):
        str(patch)
    with pytest.raises(ValueError, match="overwrites an existing file"):
        str(as_patch([CreateFile("a.py", "x\n", overwrite=True)]))
    codex = parse_patch("*** Begin Patch\n*** Add File: a.py\n+x\n*** End Patch\n")
    assert parse_patch(str(codex)) == codex and not codex.per_file
    assert str(as_patch([CreateFile("a.py", "x\n")])) == str(codex)  # a new file's text is Add File's


def test_every_edit_of_the_set_is_a_real_frozen_dataclass() -> None:
    import dataclasses

    for edit in (StrReplace("a", "a", "b"), Insert("a", 1, "x\n"), NotebookEdit("n.ipynb", "s"), Chunk((), ("+a",))):
        assert dataclasses.is_dataclass(edit)
        with pytest.raises(dataclasses.FrozenInstanceError):
            edit.line = 3  # type: ignore[misc]
        assert dataclasses.replace(edit, line=7).line == 7
    assert Patch((), per_file=True) == Patch(())  # per_file is not part of equality
