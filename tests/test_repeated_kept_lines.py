"""Issue 34, the peer-table rows "shifted indentation" and "trailing whitespace stripped" for
str_replace and SEARCH/REPLACE: a kept line the file holds with other whitespace than the
model's copy, whose text occurs more than once in the old or new text, keeps the file's bytes
when its pairing is certain, and is refused (the tree byte for byte unchanged) when it is not.
Through the public API: `apply_edits` with `StrReplace`, `apply_search_replace`."""

from pathlib import Path

import pytest

from apply_patch import PatchError
from apply_patch.edits import StrReplace, apply_edits, apply_search_replace

FORMATS = ("str_replace", "search_replace")


def _apply(fmt: str, root: Path, old: list[str], new: list[str]) -> None:
    """Replace the lines `old` by `new` in `root/m.py`, as format `fmt` carries them."""
    if fmt == "str_replace":
        apply_edits([StrReplace("m.py", "\n".join(old), "\n".join(new))], root)
    else:
        block = "".join(f"{t}\n" for t in old) + "=======\n" + "".join(f"{t}\n" for t in new)
        apply_search_replace(f"m.py\n<<<<<<< SEARCH\n{block}>>>>>>> REPLACE\n", root)


def _file(tmp_path: Path, fmt: str, text: str) -> Path:
    target = tmp_path / fmt / "m.py"
    target.parent.mkdir(parents=True)
    target.write_text(text)
    return target


TWO_CALLS = "def f(x):\n    g(\n        x,\n    )\n    h(\n        x,\n    )\n    return x\n"
TWO_CALLS_OLD = ["def f(x):", "    g(", "        x,", "    )", "    h(", "        x,", "    )", "    return x"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_block_one_level_deeper_with_repeated_kept_lines_applies(tmp_path: Path, fmt: str) -> None:
    # `x,` and `)` occur twice on each side; each copy lies between lines the two texts
    # hold once (`g(`, `h(`), so each pairs with one copy only.
    target = _file(tmp_path, fmt, TWO_CALLS)
    deeper = ["    " + line for line in TWO_CALLS_OLD]
    _apply(fmt, tmp_path / fmt, deeper, [*deeper[:-1], "        return x + 1"])
    assert target.read_text() == TWO_CALLS.replace("return x\n", "return x + 1\n")


@pytest.mark.parametrize("fmt", FORMATS)
def test_repeated_kept_lines_keep_the_files_trailing_whitespace(tmp_path: Path, fmt: str) -> None:
    text = "a = [\n    1,\n]  \nb = [\n    2,\n]  \nc = 3\n"
    target = _file(tmp_path, fmt, text)
    old = ["a = [", "    1,", "]", "b = [", "    2,", "]"]
    _apply(fmt, tmp_path / fmt, old, ["a = [", "    1,", "]", "b = [", "    3,", "]"])
    assert target.read_text() == text.replace("2,", "3,")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_repeated_kept_line_with_an_added_copy_beside_it_is_refused(tmp_path: Path, fmt: str) -> None:
    # The new text adds a second `]` between the same anchors: which `]` is the file's
    # (with its trailing spaces) and which the model's cannot be told.
    text = "a = [\n    1,\n]  \nb = 2\n"
    target = _file(tmp_path, fmt, text)
    with pytest.raises(PatchError, match="cannot be told"):
        _apply(fmt, tmp_path / fmt, ["a = [", "    1,", "]", "b = 2"], ["a = [", "    1,", "]", "]", "b = 2"])
    assert target.read_bytes() == text.encode()


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_repeated_kept_line_amid_replaced_lines_is_refused(tmp_path: Path, fmt: str) -> None:
    # The whitespace-only line stands between removed and added lines: kept, or removed
    # with them and written again by the new text? Either reading fits.
    text = "x = 1\n    \ny = 2\nz = 3\n    \nw = 4\n"
    target = _file(tmp_path, fmt, text)
    old = ["x = 1", "", "y = 2", "z = 3", "", "w = 4"]
    new = ["x = 1", "", "y = 5", "", "z = 6", "w = 4"]
    with pytest.raises(PatchError, match="cannot be told") as refused:
        _apply(fmt, tmp_path / fmt, old, new)
    assert target.read_bytes() == text.encode()
    # The model cannot see trailing whitespace in what it read: the refusal shows the
    # file's bytes of that line, so that one retry can send them.
    assert "'' in the edit and '    ' in the file, occurs more than once" in str(refused.value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_repeated_kept_lines_between_two_changes_are_refused(tmp_path: Path, fmt: str) -> None:
    # The two blank lines between the replaced functions may be kept (the file's spaces)
    # or removed with `b` and written again with `d` (empty): no line the two texts hold
    # once ties them to the file.
    text = "def a():\n    return 1\n    \n    \ndef b():\n    return 2\n    \n    \ndef c():\n    pass\n"
    target = _file(tmp_path, fmt, text)
    old = ["def a():", "    return 1", "", "", "def b():", "    return 2", "", "", "def c():"]
    new = ["def a():", "    return 10", "", "", "def d():", "    return 4", "", "", "def c():"]
    with pytest.raises(PatchError, match="cannot be told"):
        _apply(fmt, tmp_path / fmt, old, new)
    assert target.read_bytes() == text.encode()


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_blank_line_beside_a_moved_line_is_refused(tmp_path: Path, fmt: str) -> None:
    # The import moves into a new function; the comparison pairs it (and the blank line
    # after it) rather than `merged = {}`, `for result in results:`, ... which the two texts
    # also hold once each: a crossing choice, so the blank line's partner (after the moved
    # import, or inside the new docstring) is not certain.
    old = [
        "def _merged(results):", '\t"""One result per target."""', "\tfrom .._dataclass import replace", "",
        "\tmerged = {}", "\tfor result in results:", "\t\tkey = result.target", "\t\tfirst = merged.get(key)",
        "\t\tif first is None:", "\t\t\tmerged[key] = result", "\t\telse:",
        "\t\t\tmerged[key] = replace(first, added=result.added)", "\treturn list(merged.values())",
    ]  # fmt: skip
    new = [
        "def _merged(results):", '\t"""One result per file.', "", "\tEdits before a deletion are part of it.",
        '\t"""', "\tmerged = {}", "\tfor result in results:", '\t\tif result.letter == "D":', "\t\t\tcontinue",
        "\t\tmerged[result.target] = result", "\treturn list(merged.values())", "", "",
        "def _sum(one, other):", '\t"""`one` with the counts of both."""', "\tfrom .._dataclass import replace",
        "", "\treturn replace(one, added=one.added + other.added)",
    ]  # fmt: skip
    text = "".join((line or "\t") + "\n" for line in old)
    target = _file(tmp_path, fmt, text)
    with pytest.raises(PatchError, match="cannot be told"):
        _apply(fmt, tmp_path / fmt, old, new)
    assert target.read_bytes() == text.encode()
