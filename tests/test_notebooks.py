"""Jupyter notebooks edited by cell (`NotebookEdit`, the shape of Claude Code's tool): replace,
insert, delete; every other cell, output and metadata stays, the JSON keeps the file's layout.
A text edit that would break a notebook is refused, pointing to the notebook edit. Every
refusal leaves the tree byte for byte as it was."""

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from _support import FIXTURES, run_cli, snapshot
from apply_patch import PatchError
from apply_patch.edits import EditError, NotebookEdit, StrReplace, apply_edits

SALES = FIXTURES / "transcripts" / "projects" / "analysis" / "sales.ipynb"


def _jupyter(notebook: dict[str, Any]) -> bytes:
    """A notebook as Jupyter (nbformat) writes it: indent 1, keys sorted, no ASCII escapes."""
    return (json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


@pytest.fixture
def sales(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "sales.ipynb"
    path.write_bytes(SALES.read_bytes())
    return path, json.loads(SALES.read_text(encoding="utf-8"))


def test_replace_a_cell_by_id_keeps_every_other_cell_and_output(sales: tuple[Path, dict[str, Any]]) -> None:
    path, notebook = sales
    result = apply_edits([NotebookEdit("sales.ipynb", "df = load()\ndf.tail()", cell_id="9c0d1e2f")], path.parent)
    expected = copy.deepcopy(notebook)
    cell = expected["cells"][2]
    cell.update(source=["df = load()\n", "df.tail()"], outputs=[], execution_count=None)
    assert path.read_bytes() == _jupyter(expected)  # the other cells' outputs (the figure) stay
    assert result.operations[0].placements[0].file_line == 3  # the cell changed, from 1


def test_replace_by_number_and_change_the_type(sales: tuple[Path, dict[str, Any]]) -> None:
    path, notebook = sales
    apply_edits([NotebookEdit("sales.ipynb", "Imports below.", cell_id="cell-1", cell_type="markdown")], path.parent)
    apply_edits([NotebookEdit("sales.ipynb", "# Title", cell_id=0)], path.parent)
    expected = copy.deepcopy(notebook)
    expected["cells"][1] = {"cell_type": "markdown", "id": "5e6f7a8b", "metadata": {}, "source": ["Imports below."]}
    expected["cells"][0]["source"] = ["# Title"]
    assert path.read_bytes() == _jupyter(expected)


def test_insert_after_a_cell_and_at_the_top(sales: tuple[Path, dict[str, Any]]) -> None:
    path, notebook = sales
    apply_edits([
        NotebookEdit("sales.ipynb", "## Load", cell_id="5e6f7a8b", cell_type="markdown", mode="insert"),
        NotebookEdit("sales.ipynb", "%load_ext autoreload", cell_type="code", mode="insert"),
    ], path.parent)  # fmt: skip
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert [c["source"] for c in cells] == [
        ["%load_ext autoreload"], *[c["source"] for c in notebook["cells"][:2]], ["## Load"],
        *[c["source"] for c in notebook["cells"][2:]],
    ]  # fmt: skip
    new_ids = [cells[0]["id"], cells[3]["id"]]
    assert all(len(i) == 8 and int(i, 16) >= 0 for i in new_ids)
    assert len({c["id"] for c in cells}) == len(cells)  # fresh: no id twice
    assert cells[0] == {"cell_type": "code", "execution_count": None, "id": new_ids[0], "metadata": {}, "outputs": [], "source": ["%load_ext autoreload"]}
    expected = copy.deepcopy(notebook)
    expected["cells"][2:2] = [cells[3]]
    expected["cells"].insert(0, cells[0])
    assert path.read_bytes() == _jupyter(expected)


def test_delete_a_cell(sales: tuple[Path, dict[str, Any]]) -> None:
    path, notebook = sales
    apply_edits([NotebookEdit("sales.ipynb", "", cell_id="3a4b5c6d", mode="delete")], path.parent)
    expected = copy.deepcopy(notebook)
    del expected["cells"][3]
    assert path.read_bytes() == _jupyter(expected)


def test_a_notebook_without_ids_and_another_layout(tmp_path: Path) -> None:
    notebook: dict[str, Any] = {
        "nbformat": 4, "nbformat_minor": 2, "metadata": {"authors": [{"name": "Zoë"}]},
        "cells": [{"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": [], "execution_count": None}],
    }  # fmt: skip
    text = json.dumps(notebook, indent=2, ensure_ascii=True)  # keys unsorted, \u00eb, no final newline
    (tmp_path / "a.ipynb").write_text(text)
    apply_edits([NotebookEdit("a.ipynb", "café = 2", cell_id="cell-0", cell_type="code", mode="insert")], tmp_path)
    expected = copy.deepcopy(notebook)
    expected["cells"].append({"cell_type": "code", "metadata": {}, "source": "café = 2", "execution_count": None, "outputs": []})
    assert (tmp_path / "a.ipynb").read_text() == json.dumps(expected, indent=2, ensure_ascii=True)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (NotebookEdit("sales.ipynb", "x", cell_id="nope"), "Failed to replace a cell of sales.ipynb: it has no cell 'nope' (it has 4 cells: a1b2c3d4 (markdown), 5e6f7a8b (code), 9c0d1e2f (code), 3a4b5c6d (code))"),
        (NotebookEdit("sales.ipynb", "x", cell_id="cell-9", mode="delete"), "Failed to delete a cell of sales.ipynb: it has no cell 'cell-9'"),
        (NotebookEdit("sales.ipynb", "x"), "Failed to replace a cell of sales.ipynb: no cell_id says which"),
        (NotebookEdit("sales.ipynb", "x", mode="insert"), "Edit 1 inserts a cell: give its cell_type (code, markdown, raw)"),
        (NotebookEdit("sales.ipynb", "x", cell_id="9c0d1e2f", mode="move"), "Edit 1 has mode 'move': it must be one of replace, insert, delete"),
        (NotebookEdit("sales.ipynb", "x", cell_id="9c0d1e2f", cell_type="python"), "Edit 1 has cell_type 'python': it must be one of code, markdown, raw"),
        (NotebookEdit("notes.txt", "x", cell_id=0), "Edit 1 edits a notebook cell of notes.txt, which is not a notebook (.ipynb)"),
    ],
)
def test_what_a_notebook_edit_refuses(sales: tuple[Path, dict[str, Any]], edit: NotebookEdit, message: str) -> None:
    path, _ = sales
    before = snapshot(path.parent)
    with pytest.raises(EditError) as caught:
        apply_edits([edit], path.parent)
    assert str(caught.value).startswith(message)
    assert snapshot(path.parent) == before


def test_a_notebook_that_is_not_json_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.ipynb").write_text("{not json")
    before = snapshot(tmp_path)
    with pytest.raises(EditError) as caught:
        apply_edits([NotebookEdit("a.ipynb", "x", cell_id=0)], tmp_path)
    assert str(caught.value).startswith("Failed to edit the notebook a.ipynb: it is not valid JSON")
    assert snapshot(tmp_path) == before


def test_a_text_edit_that_breaks_a_notebook_is_refused(sales: tuple[Path, dict[str, Any]]) -> None:
    path, _ = sales
    before = snapshot(path.parent)
    with pytest.raises(PatchError) as caught:
        apply_edits([StrReplace("sales.ipynb", '    "df.head()"\n', '    "df.head()",\n')], path.parent)
    assert str(caught.value).startswith("Failed to update the notebook sales.ipynb: the edit would leave invalid JSON")
    assert "NotebookEdit(path, new_source, cell_id=" in str(caught.value)
    patch = '*** Begin Patch\n*** Update File: sales.ipynb\n@@\n- "cells": [\n+ "cels": [\n*** End Patch\n'
    done = run_cli([patch], path.parent)
    assert done.returncode == 1
    assert "the edit would leave JSON that is not a notebook" in done.stderr.decode()
    assert snapshot(path.parent) == before
    # a text edit that leaves a notebook applies
    apply_edits([StrReplace("sales.ipynb", '"df.head()"', '"df.tail()"')], path.parent)
    assert json.loads(path.read_text(encoding="utf-8"))["cells"][2]["source"][1] == "df.tail()"
