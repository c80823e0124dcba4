"""A chosen occurrence: `StrReplace(..., occurrence=N)` and `near_line=L` pick one of several
matches on purpose, in the library, Claude's text editor and the MCP server's editor tool;
without them several matches are refused as before. Every refusal leaves the tree as it was."""

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client

from _support import mcp_server, snapshot
from apply_patch.anthropic import TextEditor
from apply_patch import PatchError
from apply_patch.edits import EditError, ReplacementCountError, StrReplace, apply_edits, apply_search_replace

# "x = 1" at lines 2, 5 and 9.
TEXT = "a\nx = 1\nb\nc\nx = 1\nd\ne\nf\nx = 1\n"


def _lines_of(path: Path) -> list[str]:
    return path.read_text().split("\n")


@pytest.mark.parametrize(("occurrence", "line"), [(1, 2), (2, 5), (3, 9)])
def test_occurrence_picks_the_nth_match(tmp_path: Path, occurrence: int, line: int) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    result = apply_edits([StrReplace("a.py", "x = 1", "x = 2", occurrence=occurrence)], tmp_path)
    lines = _lines_of(tmp_path / "a.py")
    assert [n + 1 for n, text in enumerate(lines) if text == "x = 2"] == [line]
    assert lines.count("x = 1") == 2
    # The answer says which line was changed.
    assert result.operations[0].placements[0].file_line == line


@pytest.mark.parametrize(("near", "line"), [(1, 2), (3, 2), (4, 5), (6, 5), (8, 9), (100, 9)])
def test_near_line_picks_the_nearest_match(tmp_path: Path, near: int, line: int) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    result = apply_edits([StrReplace("a.py", "x = 1", "x = 2", near_line=near)], tmp_path)
    lines = _lines_of(tmp_path / "a.py")
    assert [n + 1 for n, text in enumerate(lines) if text == "x = 2"] == [line]
    assert result.operations[0].placements[0].file_line == line


def test_a_multiline_old_text_at_a_fuzzy_tier_is_chosen_too(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("if a:\n    go()  \nif a:\n    go()  \n")
    apply_edits([StrReplace("a.py", "if a:\n    go()\n", "if b:\n    go()\n", occurrence=2)], tmp_path)
    assert (tmp_path / "a.py").read_text() == "if a:\n    go()  \nif b:\n    go()  \n"


def test_without_a_choice_several_matches_are_still_refused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    before = snapshot(tmp_path)
    with pytest.raises(ReplacementCountError) as caught:
        apply_edits([StrReplace("a.py", "x = 1", "x = 2")], tmp_path)
    assert caught.value.candidates == (2, 5, 9)
    assert caught.value.message.endswith("(lines 2, 5, 9); it must match exactly one")
    assert snapshot(tmp_path) == before


# Two copies, the first followed by a line of a tab only (as in requests' history).
TAB_BLANK = "\t# c\n\tp = 1\n\t\n\tsend()\n\t\n\t# c\n\tp = 1\n\t\n\tsend()\n"
WHOLE_LINES = "\t# c\n\tp = 1\n\t\n\tsend()\n"


@pytest.mark.parametrize("first_block", ["", "x = 0\n"])
@pytest.mark.parametrize("fmt", ["search_replace", "str_replace"])
def test_whole_lines_before_a_whitespace_only_line_are_found_there_too(
    tmp_path: Path, fmt: str, first_block: str
) -> None:
    # An old text ending with its line break ends at a line's start: the line after it is
    # not the rest of its last line. Taken for one (whitespace only: a last line that lost
    # its trailing whitespace), it passed the first copy over and the edit went to the
    # second, reported as an exact match. `first_block`: an edit before it, so that the
    # replacements of one file made without copying (`_deferred`) take it too.
    target = tmp_path / "t.py"
    target.write_text("x = 0\n" + TAB_BLANK)
    new = WHOLE_LINES.replace("p = 1", "p = 2")
    with pytest.raises(PatchError, match="2 places"):
        if fmt == "search_replace":
            blocks = [(old, old.replace("0", "1")) for old in [first_block] if old] + [(WHOLE_LINES, new)]
            text = "".join(f"t.py\n<<<<<<< SEARCH\n{o}=======\n{n}>>>>>>> REPLACE\n" for o, n in blocks)
            apply_search_replace(text, tmp_path)
        else:
            edits = [StrReplace("t.py", first_block, "x = 1\n")] if first_block else []
            apply_edits([*edits, StrReplace("t.py", WHOLE_LINES, new)], tmp_path)
    assert target.read_text() == "x = 0\n" + TAB_BLANK


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            StrReplace("a.py", "x = 1", "x = 2", occurrence=4),
            "The old text of edit 1 matches 3 places in a.py (lines 2, 5, 9); occurrence 4 is not "
            "one of them (1 to 3)",
        ),
        (
            StrReplace("a.py", "x = 1", "x = 2", near_line=7),
            "The old text of edit 1 matches 3 places in a.py (lines 2, 5, 9); occurrences 2 and 3 "
            "(lines 5 and 9) are both 2 lines from near_line 7",
        ),
    ],
)
def test_a_choice_that_picks_no_single_match_is_refused(tmp_path: Path, edit: StrReplace, message: str) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    before = snapshot(tmp_path)
    with pytest.raises(ReplacementCountError) as caught:
        apply_edits([edit], tmp_path)
    assert str(caught.value).startswith(message)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (StrReplace("a.py", "x = 1", "x = 2", occurrence=0), "Edit 1 asks for occurrence 0: occurrences count from 1"),
        (StrReplace("a.py", "x = 1", "x = 2", near_line=0), "Edit 1 asks for the match nearest line 0: lines count from 1"),
        (
            StrReplace("a.py", "x = 1", "x = 2", occurrence=1, near_line=3),
            "Edit 1 gives both occurrence and near_line: give one of them",
        ),
        (
            StrReplace("a.py", "x = 1", "x = 2", replace_all=True, occurrence=1),
            "Edit 1 replaces every place and picks one (occurrence): give one of them",
        ),
        (
            StrReplace("a.py", "x = 1", "x = 2", expected=2, near_line=3),
            "Edit 1 expects 2 places and picks one (near_line): give one of them",
        ),
        (StrReplace("a.py", "", "x = 2", occurrence=1), "Edit 1 creates a file (its old text is empty): occurrence picks a match of an old text"),
    ],
)
def test_contradictory_choices_are_refused_before_reading(tmp_path: Path, edit: StrReplace, message: str) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    before = snapshot(tmp_path)
    with pytest.raises(EditError) as caught:
        apply_edits([edit], tmp_path)
    assert str(caught.value).startswith(message)
    assert snapshot(tmp_path) == before


def test_a_single_match_satisfies_occurrence_one_and_any_near_line(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a\nb\n")
    apply_edits([StrReplace("a.py", "b", "c", near_line=1000), StrReplace("a.py", "a", "z", occurrence=1)], tmp_path)
    assert (tmp_path / "a.py").read_text() == "z\nc\n"


def test_the_text_editor_takes_occurrence_and_near_line(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    editor = TextEditor(tmp_path)
    before = snapshot(tmp_path)
    tie = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "y", "near_line": 7})
    bad = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "y", "occurrence": "2"})
    assert tie["is_error"] and "are both 2 lines from near_line 7" in tie["content"]
    assert bad == {"is_error": True, "content": "Error: occurrence must be an integer (1: the first match)"}
    assert snapshot(tmp_path) == before
    done = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "y", "occurrence": 3})
    assert done["is_error"] is False
    assert done["content"].startswith("Successfully replaced occurrence 3 of old_str, at line 9.\n")
    done = editor.run({"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "z", "near_line": 1})
    assert done["content"].startswith("Successfully replaced the match of old_str nearest line 1, at line 2.\n")
    assert _lines_of(tmp_path / "a.py")[:9] == ["a", "z", "b", "c", "x = 1", "d", "e", "f", "y"]


async def _serve(root: Path, calls: list[dict[str, Any]]) -> list[tuple[bool, str, dict[str, Any]]]:
    server = mcp_server(["serve", "--root", str(root)])
    results = []
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        schema = tools["str_replace_based_edit_tool"].input_schema["properties"]
        for arguments in calls:
            result = await session.call_tool("str_replace_based_edit_tool", arguments)
            (content,) = result.content
            assert content.type == "text"
            results.append((bool(result.is_error), content.text, schema))
    return results


def test_the_mcp_editor_tool_takes_occurrence_and_near_line(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(TEXT)
    edit = {"command": "str_replace", "path": "a.py", "old_str": "x = 1", "new_str": "x = 2"}
    results = asyncio.run(_serve(tmp_path, [edit, {**edit, "occurrence": 2}, {**edit, "near_line": 8}]))
    schema = results[0][2]
    assert schema["occurrence"]["type"] == "integer" and schema["near_line"]["type"] == "integer"
    assert results[0][0] and "Found 3 matches" in results[0][1]
    assert not results[1][0] and "occurrence 2 of old_str, at line 5." in results[1][1]
    assert not results[2][0] and "nearest line 8, at line 9." in results[2][1]
    assert _lines_of(tmp_path / "a.py")[:9] == ["a", "x = 1", "b", "c", "x = 2", "d", "e", "f", "x = 2"]
