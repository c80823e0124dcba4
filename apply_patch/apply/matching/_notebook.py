"""Jupyter notebooks edited by cell (`NotebookEdit`), and text edits that would break one (pure).

A `NotebookEdit` replaces, inserts or deletes one cell of an `.ipynb` file (the
shape of Claude Code's NotebookEdit tool). The cell is found by its `id`, or by
its number: an integer, or `cell-N` (Claude Code's name for the cell at index N,
from 0) when no cell has that id. Every other cell, output and metadata stays;
the JSON is written back in the layout the file had (its indent, its key order,
ASCII escapes or not, its final newline), found by writing the notebook as it
was until the bytes come out the same.

- replace: the cell's source becomes `new_source` (a code cell's outputs and
  execution count, which describe the code that is gone, are cleared);
  `cell_type`, if given and different, changes the cell's type.
- insert: a new cell of `cell_type` (required) after the cell named (at the
  top when none is), with a fresh `id` where the notebook's format has ids
  (nbformat 4.5 and later, or cells that have them).
- delete: the cell goes.

A text edit (a Codex patch, a str_replace) of a notebook that leaves it invalid
JSON, or JSON that is not a notebook, is refused, pointing to `NotebookEdit`.
"""

from __future__ import annotations

import json

from ..._errors import EditError
from ...format import NotebookEdit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final

    from ._names import FileName

MODES: Final = ("replace", "insert", "delete")
CELL_TYPES: Final = ("code", "markdown", "raw")
SUFFIX: Final = ".ipynb"


def edit_notebook(data: bytes, op: NotebookEdit, where: FileName) -> tuple[bytes, int, int]:
    """The notebook `data` with `op` applied, in the file's layout; (the new bytes, the
    number of the cell changed from 1, the lines of source added). EditError, naming the
    cell and what there is, when the notebook or the cell cannot be had."""
    notebook = _notebook(data, where, op.line)
    cells: list[Any] = notebook["cells"]
    index = _index(cells, op, where)
    if op.mode == "delete":
        assert index is not None
        del cells[index]
        changed = index
    elif op.mode == "insert":
        changed = 0 if index is None else index + 1
        cells.insert(changed, _new_cell(notebook, op))
    else:
        assert index is not None
        _replace(cells[index], op)
        changed = index
    added = 0 if op.mode == "delete" else len(op.new_source.splitlines())
    return _written(notebook, data), changed + 1, added


def _notebook(data: bytes, where: FileName, line: int) -> dict[str, Any]:
    """The notebook `data` holds; EditError if it is not JSON or not a notebook."""
    try:
        notebook = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise EditError(
            f"Failed to edit the notebook {where.shown}: it is not valid JSON ({exc})",
            path=where.relative,
            patch_line=line,
        ) from None
    if not is_notebook(notebook):
        raise EditError(
            f"Failed to edit the notebook {where.shown}: its JSON is not a notebook (no list of cells)",
            path=where.relative,
            patch_line=line,
        )
    return notebook  # type: ignore[no-any-return]


def is_notebook(value: object) -> bool:
    """Whether the JSON `value` has a notebook's shape: an object with a list of cell objects,
    each with a `cell_type` and a `source`."""
    if not isinstance(value, dict) or not isinstance(value.get("cells"), list):
        return False
    return all(isinstance(c, dict) and "cell_type" in c and "source" in c for c in value["cells"])


def _index(cells: list[Any], op: NotebookEdit, where: FileName) -> int | None:
    """The index of the cell `op` names (None: none named, for an insertion at the top)."""
    wanted = op.cell_id
    if wanted is None or wanted == "":
        if op.mode == "insert":
            return None
        raise EditError(
            f"Failed to {op.mode} a cell of {where.shown}: no cell_id says which "
            f"(the notebook has {_count(cells)}: {_listing(cells)})",
            path=where.relative,
            patch_line=op.line,
        )
    if isinstance(wanted, str):
        found = [i for i, cell in enumerate(cells) if cell.get("id") == wanted]
        if found:
            return found[0]
        number = wanted.removeprefix("cell-")
        at = int(number) if number.isdigit() and wanted.startswith("cell-") else None
    else:
        at = wanted
    if at is not None and 0 <= at < len(cells):
        return at
    raise EditError(
        f"Failed to {op.mode} a cell of {where.shown}: it has no cell {wanted!r} "
        f"(it has {_count(cells)}: {_listing(cells)})",
        path=where.relative,
        patch_line=op.line,
        hints=("Name a cell by its id, or by its number from 0 (cell-0 is the first).",),
    )


def _count(cells: list[Any]) -> str:
    return "1 cell" if len(cells) == 1 else f"{len(cells)} cells"


def _listing(cells: list[Any]) -> str:
    """The cells as a message names them: each one's id (or cell-N) and type, the first 20."""
    named = [f"{cell.get('id') or f'cell-{i}'} ({cell.get('cell_type')})" for i, cell in enumerate(cells[:20])]
    return ", ".join(named) + (", ..." if len(cells) > 20 else "") if named else "none"


def _source(text: str, like: object) -> str | list[str]:
    """`text` as a cell's source, in the form `like` has (a list of lines, as nbformat
    writes them, or one string)."""
    return text.splitlines(keepends=True) if isinstance(like, list) else text


def _replace(cell: dict[str, Any], op: NotebookEdit) -> None:
    cell["source"] = _source(op.new_source, cell.get("source"))
    kind = op.cell_type or cell.get("cell_type")
    if kind != cell.get("cell_type"):
        cell["cell_type"] = kind
        if kind == "code":
            cell.setdefault("execution_count", None)
            cell.setdefault("outputs", [])
        else:
            cell.pop("execution_count", None)
            cell.pop("outputs", None)
    if kind == "code":  # the outputs of code that is gone
        cell["execution_count"] = None
        cell["outputs"] = []


def _new_cell(notebook: dict[str, Any], op: NotebookEdit) -> dict[str, Any]:
    """A new cell of `op.cell_type`, keys in the order the file's cells have them."""
    cells = notebook["cells"]
    like: object = next((c.get("source") for c in cells), [])
    cell: dict[str, Any] = {"cell_type": op.cell_type, "metadata": {}, "source": _source(op.new_source, like)}
    if op.cell_type == "code":
        cell.update(execution_count=None, outputs=[])
    if _has_ids(notebook):
        cell["id"] = _fresh_id({c.get("id") for c in cells}, op.new_source)
    if _sorted_keys(notebook):
        cell = dict(sorted(cell.items()))
    return cell


def _has_ids(notebook: dict[str, Any]) -> bool:
    """Whether the notebook's format gives cells ids (nbformat 4.5 and later), or its cells have them."""
    major, minor = notebook.get("nbformat"), notebook.get("nbformat_minor")
    versioned = isinstance(major, int) and isinstance(minor, int) and (major, minor) >= (4, 5)
    return versioned or any("id" in c for c in notebook["cells"])


def _fresh_id(taken: set[object], source: str) -> str:
    """An id no cell has: 8 hexadecimal digits, as Jupyter makes them; made from the cell's
    source and the ids taken (not at random: a replay of the same edits gives the same file)."""
    import hashlib

    seed = source + "\0" + "\0".join(sorted(str(t) for t in taken))
    count = 0
    while (new := hashlib.sha256(f"{seed}\0{count}".encode("utf-8", "surrogatepass")).hexdigest()[:8]) in taken:
        count += 1
    return new


def _sorted_keys(notebook: dict[str, Any]) -> bool:
    """Whether the file's objects have their keys sorted (nbformat writes them so)."""
    keys = list(notebook)
    cells = notebook["cells"]
    return keys == sorted(keys) and all(list(c) == sorted(c) for c in cells)


def _written(notebook: dict[str, Any], original: bytes) -> bytes:
    """`notebook` as JSON in the layout of `original`: the first layout that writes the
    notebook `original` held back to the same bytes; else nbformat's (indent 1, no ASCII
    escapes) with the file's indent and final newline."""
    before = json.loads(original)
    ending = "\n" if original.endswith(b"\n") else ""
    for indent in (_indent(original), 1, 2, 4, None):
        for ascii_only in (False, True):
            text = json.dumps(before, indent=indent, ensure_ascii=ascii_only) + ending
            if text.encode("utf-8") == original:
                return (json.dumps(notebook, indent=indent, ensure_ascii=ascii_only) + ending).encode("utf-8")
    return (json.dumps(notebook, indent=_indent(original), ensure_ascii=False) + ending).encode("utf-8")


def _indent(original: bytes) -> int | None:
    """The indent of the first indented line of `original` (None: all on one line)."""
    lines = original.split(b"\n", 2)
    if len(lines) < 2:
        return None
    second = lines[1]
    return len(second) - len(second.lstrip(b" ")) or 1


def text_edit_refusal(before: bytes, after: bytes, where: FileName, line: int) -> EditError | None:
    """The error for a text edit that turns the notebook `before` into `after`, invalid JSON
    or not a notebook; None when `after` is still a notebook (or `before` was none)."""
    try:
        if not is_notebook(json.loads(before)):
            return None
    except (ValueError, RecursionError):
        return None
    try:
        value = json.loads(after)
        why = None if is_notebook(value) else "JSON that is not a notebook"
    except (ValueError, RecursionError) as exc:
        why = f"invalid JSON ({exc})"
    if why is None:
        return None
    return EditError(
        f"Failed to update the notebook {where.shown}: the edit would leave {why}",
        path=where.relative,
        patch_line=line,
        hints=(
            "Edit a notebook by cell: NotebookEdit(path, new_source, cell_id=..., cell_type=..., "
            "mode=\"replace\" | \"insert\" | \"delete\") (Claude Code's NotebookEdit tool).",
        ),
    )
