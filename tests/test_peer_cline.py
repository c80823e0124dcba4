"""Cline's own tests of its SEARCH/REPLACE diff (replace_in_file), rewritten for this engine.

Cline's `replace_in_file` tool takes a path and a diff of blocks written
`------- SEARCH`, the old lines, `=======`, the new lines, `+++++++ REPLACE`
(3 or more `-`, `=`, `+`; Aider's `<<<<<<<`/`>>>>>>>` markers are read too).
Its tests (cline/cline, apps/vscode/src/core/assistant-message/diff.test.ts and
diff_edge_cases.test.ts, as of 6eeee7c, the last commit that has them; read for
behaviour: no code is copied) call `constructNewFileContent(diff, original)`;
here the path is written above the diff, as a reply names its file, and the
whole is applied with `apply_search_replace` to a tree holding `original`.
Cline's diff_edge_cases2.test.ts is commented out in full: not ported.

The same result, or the difference docs/edit-formats.md states ("What the
peers do, and what we do"):

- a block must be closed: a diff whose last block has no REPLACE marker is
  refused (Cline applies it when the diff is final), as a reply cut off
  mid-block may lack lines;
- a marker followed by spaces is still a marker (Cline refuses `======= `);
- new lines are re-indented as the file's matched lines are (Cline writes
  them as sent after a match that ignored whitespace);
- a file without a final newline stays without (`final_newline="keep"`):
  deleting its last line takes the line break of the line before;
- an empty SEARCH part makes a new file, refused when the file exists, even
  empty (Cline fills an empty file): `add_existing="overwrite"` permits it.
"""

from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import DEFAULT, ContextNotFoundError, FilePolicyError, PatchError
from apply_patch.edits import SearchReplaceError, apply_search_replace


def _applied(tmp_path: Path, original: str, diff: str, **options: str) -> tuple[str, list[str]]:
    """`diff` applied to a file holding `original` (its path written above the diff):
    the file's text afterwards, and the warnings."""
    path = tmp_path / "f.txt"
    path.write_bytes(original.encode())
    result = apply_search_replace(f"f.txt\n{diff}", tmp_path, policy=DEFAULT.with_options(**options))
    return path.read_bytes().decode(), [w.message for w in result.warnings]


def _refused(tmp_path: Path, original: str, diff: str) -> PatchError:
    """`diff` refused, and the tree byte for byte as it was."""
    (tmp_path / "f.txt").write_bytes(original.encode())
    before = snapshot(tmp_path)
    with pytest.raises(PatchError) as caught:
        apply_search_replace(f"f.txt\n{diff}", tmp_path)
    assert snapshot(tmp_path) == before
    return caught.value


def block(search: str, replace: str, *, opening: str = "------- SEARCH", divider: str = "=======") -> str:
    """One block in Cline's markers (`search`, `replace`: whole lines, each ending with a line break)."""
    return f"{opening}\n{search}{divider}\n{replace}+++++++ REPLACE"


# ------------------------------------------------------------ diff.test.ts: constructNewFileContent

SAME = [
    ("exact match replacement", "line1\nline2\nline3", block("line2\n", "replaced\n"), "line1\nreplaced\nline3"),
    ("block anchor match replacement", "line1\nstart\nmiddle\nend\nline5",
     block("start\nmiddle\nend\n", "replaced\n"), "line1\nreplaced\nline5"),
    ("incremental processing", "line1\nline2\nline3", block("line2\n", "replaced\n\n"), "line1\nreplaced\n\nline3"),
    ("final chunk with remaining content", "line1\nline2\nline3", block("line2\n", "replaced\n"), "line1\nreplaced\nline3"),
    ("multiple ordered replacements", "First\nSecond\nThird\nFourth",
     block("First\n", "1st\n") + "\n\n" + block("Third\n", "3rd\n"), "1st\nSecond\n3rd\nFourth"),
    ("delete then replace", "line1\nline2\nline3\nline4",
     block("line1\n", "") + "\n\n" + block("line3\n", "replaced\n"), "line2\nreplaced\nline4"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "original", "diff", "cline"), SAME, ids=[case[0] for case in SAME])
def test_blocks_give_clines_result(tmp_path: Path, name: str, original: str, diff: str, cline: str) -> None:
    text, warnings = _applied(tmp_path, original, diff)
    assert text == cline
    assert warnings == []


MALFORMED = [
    ("malformed search - mixed symbols", "<<-- SEARCH\nline2\n=======\nreplaced\n+++++++ REPLACE", "holds no block"),
    ("malformed search - insufficient dashes", "-- SEARCH\nline2\n=======\nreplaced\n+++++++ REPLACE", "holds no block"),
    ("malformed search - missing space", "-------SEARCH\nline2\n=======\nreplaced\n+++++++ REPLACE", "holds no block"),
    ("malformed diff - missing separator", "------- SEARCH\nline2\n+++++++ REPLACE\nreplaced", "no '=======' line"),
    ("malformed diff - double replace markers",
     "------- SEARCH\nline2\n+++++++ REPLACE\nfirst replacement\n+++++++ REPLACE", "no '=======' line"),
    ("malformed diff - malformed separator with dashes",
     "------- SEARCH\nline2\n------- =======\nreplaced\n+++++++ REPLACE", "no '=======' line"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "diff", "why"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_a_malformed_diff_is_refused_as_cline_refuses_it(tmp_path: Path, name: str, diff: str, why: str) -> None:
    error = _refused(tmp_path, "line1\nline2\nline3", diff)
    assert isinstance(error, SearchReplaceError) and why in error.message


def test_should_throw_error_when_no_match_found(tmp_path: Path) -> None:
    error = _refused(tmp_path, "line1\nline2\nline3", block("non-existent\n", "replaced\n"))
    assert isinstance(error, ContextNotFoundError)


def test_line_trimmed_match_replacement(tmp_path: Path) -> None:
    """Found ignoring the file's surrounding spaces, as Cline finds it; the new line takes the
    file's indentation (Cline writes `replaced` as sent), with a warning naming the tier."""
    text, warnings = _applied(tmp_path, "line1\n line2 \nline3", block("line2\n", "replaced\n"))
    assert text == "line1\n replaced\nline3"  # Cline: "line1\nreplaced\nline3"
    assert len(warnings) == 1 and "whitespace" in warnings[0]


def test_replace_then_delete(tmp_path: Path) -> None:
    """Deleting the last line of a file without a final newline: Cline leaves `line3\\n`; the file
    stays without a final newline here (final_newline="keep"), and "add" gives Cline's result."""
    diff = block("line2\n", "replaced\n") + "\n\n" + block("line4\n", "")
    assert _applied(tmp_path, "line1\nline2\nline3\nline4", diff)[0] == "line1\nreplaced\nline3"
    assert _applied(tmp_path, "line1\nline2\nline3\nline4", diff, final_newline="add")[0] == "line1\nreplaced\nline3\n"


def test_empty_file(tmp_path: Path) -> None:
    """An empty SEARCH part on an existing empty file: Cline fills it; here it makes a new file only,
    unless add_existing="overwrite"."""
    diff = block("", "new content\n")
    error = _refused(tmp_path, "", diff)
    assert isinstance(error, FilePolicyError) and "already exists" in error.message
    assert _applied(tmp_path, "", diff, add_existing="overwrite")[0] == "new content\n"


def test_an_empty_search_on_a_file_with_content_is_refused(tmp_path: Path) -> None:
    """Cline: "Empty SEARCH block detected with non-empty file" (diff.ts); the same refusal here."""
    error = _refused(tmp_path, "line1\n", block("", "new content\n"))
    assert isinstance(error, FilePolicyError)


def test_malformed_diff_trailing_space_on_separator(tmp_path: Path) -> None:
    """`======= `: Cline refuses the diff; a marker followed by spaces is a marker here."""
    text, _ = _applied(tmp_path, "line1\nline2\nline3", block("line2\n", "replaced\n", divider="======= "))
    assert text == "line1\nreplaced\nline3"


@pytest.mark.parametrize(
    ("name", "original", "diff"),
    [
        ("should handle missing final REPLACE marker when isFinal is true", "line1\nline2\nline3",
         "------- SEARCH\nline2\n=======\nreplaced"),
        ("should handle missing final REPLACE marker with multiple lines of replacement",
         "function test() {\n\tconst a = 1;\n\treturn a;\n}",
         "------- SEARCH\n\tconst a = 1;\n\treturn a;\n=======\n\tconst a = 42;\n\tconsole.log('updated');\n\treturn a;"),
    ],
)  # fmt: skip
def test_a_block_without_its_replace_marker_is_refused(tmp_path: Path, name: str, original: str, diff: str) -> None:
    """Cline applies a final diff whose last block is not closed; here it is refused: the reply
    may have been cut off in the middle of the REPLACE part."""
    error = _refused(tmp_path, original, diff)
    assert isinstance(error, SearchReplaceError) and "has no '+++++++ REPLACE' line" in error.message


# ------------------------------------------------------------ diff.test.ts: out-of-order blocks

OUT_OF_ORDER = [
    ("should handle out-of-order replacements with different positions", "first\nsecond\nthird\nfourth\n",
     block("fourth\n", "new fourth\n") + "\n" + block("second\n", "new second\n"),
     "first\nnew second\nthird\nnew fourth\n"),
    ("should handle multiple out-of-order replacements", "one\ntwo\nthree\nfour\nfive\n",
     block("four\n", "fourth\n") + "\n" + block("two\n", "second\n") + "\n" + block("five\n", "fifth\n"),
     "one\nsecond\nthree\nfourth\nfifth\n"),
    ("should handle out-of-order replacements with indentation",
     "function test() {\n\tconst a = 1;\n\tconst b = 2;\n\tconst c = 3;\n\n}",
     block("\tconst c = 3;\n", "\tconst c = 30;\n") + "\n" + block("\tconst a = 1;\n", "\tconst a = 10;\n"),
     "function test() {\n\tconst a = 10;\n\tconst b = 2;\n\tconst c = 30;\n\n}"),
    ("should handle out-of-order replacements with empty lines", "header\n\nbody\n\nfooter\n",
     block("footer\n", "new footer\n") + "\n" + block("\nbody\n\n", "new body content\n"),
     "header\nnew body content\nnew footer\n"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "original", "diff", "cline"), OUT_OF_ORDER, ids=[c[0] for c in OUT_OF_ORDER])
def test_blocks_in_any_order(tmp_path: Path, name: str, original: str, diff: str, cline: str) -> None:
    """Each block applies to the file as the blocks before it left it: their order does not matter."""
    text, warnings = _applied(tmp_path, original, diff)
    assert text == cline
    assert warnings == []


# ------------------------------------------------------------ diff_edge_cases.test.ts: marker lengths

EDGE = [
    ("should handle SEARCH prefix symbols - less than 7", "----- SEARCH", "=======", "+++++++ REPLACE"),
    ("should handle SEARCH prefix symbols - more than 7", "----------- SEARCH", "=======", "+++++++ REPLACE"),
    ("should handle SEARCH - less than 7 and REPLACE = less than 7", "----- SEARCH", "=====", "+++++++ REPLACE"),
    ("should handle SEARCH - less than 7 and REPLACE = more than 7", "----- SEARCH", "========", "+++++++ REPLACE"),
    ("should handle SEARCH - more than 7 and REPLACE = more than 7", "----------- SEARCH", "==========", "+++++++ REPLACE"),
    ("should handle SEARCH - more than 7 and REPLACE = less than 7", "----------- SEARCH", "=====", "+++++++ REPLACE"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "opening", "divider", "closing"), EDGE, ids=[c[0] for c in EDGE])
def test_marker_lengths(tmp_path: Path, name: str, opening: str, divider: str, closing: str) -> None:
    """Cline's markers are 3 or more characters; a block opened by its `-` marker is read by its rules."""
    diff = f"{opening}\ncontent\n{divider}\nnew content\n{closing}"
    assert _applied(tmp_path, "before\ncontent\nafter", diff)[0] == "before\nnew content\nafter"


@pytest.mark.parametrize(
    ("name", "divider"),
    [
        ("should handle consecutive SEARCH-REPLACE with second block SEARCH - less than 7", "======="),
        ("should handle consecutive SEARCH-REPLACE with second block SEARCH - less than 7 and REPLACE = less than 7", "====="),
    ],
)  # fmt: skip
def test_consecutive_blocks_with_short_markers(tmp_path: Path, name: str, divider: str) -> None:
    diff = (
        block("first content\n", "first new content\n")
        + "\n"
        + block("second content\n", "second new content\n", opening="----- SEARCH", divider=divider)
    )
    original = "before\nfirst content\nafter\nsecond content\nend"
    assert _applied(tmp_path, original, diff)[0] == "before\nfirst new content\nafter\nsecond new content\nend"


def test_clines_legacy_markers_mixed_with_its_own(tmp_path: Path) -> None:
    """diff.ts reads `<<<<<<< SEARCH` and `>>>>>>> REPLACE` as well (Aider's markers)."""
    diff = "<<<<<<< SEARCH\nline2\n=======\nreplaced\n>>>>>>> REPLACE"
    assert _applied(tmp_path, "line1\nline2\nline3", diff)[0] == "line1\nreplaced\nline3"
    mixed = "------- SEARCH\nline2\n=======\nreplaced\n>>>>>>> REPLACE"
    assert _applied(tmp_path, "line1\nline2\nline3", mixed)[0] == "line1\nreplaced\nline3"
