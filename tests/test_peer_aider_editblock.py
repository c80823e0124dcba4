"""Aider's own SEARCH/REPLACE tests (tests/basic/test_editblock.py), rewritten for this engine.

Aider wrote the format; its tests say what a reply in it means. Each case
below names the Aider test it comes from (Aider-AI/aider, read for behaviour:
no code is copied) and checks our answer through the public API, in a
temporary tree: the same result, or the difference docs/edit-formats.md
states ("What the peers do, and what we do"):

- a SEARCH text matching several places is refused (Aider replaces the first);
- the text of a block is taken literally: a fence or a file name inside
  SEARCH/REPLACE is content (Aider's `strip_quoted_wrapping`, a helper of its
  whole-file format, removes them).

Aider's two disabled tests (`__test_replace_most_similar_chunk*`, fuzzy
matching turned off in Aider 0.11.2) are not ported.
"""

from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import PatchError
from apply_patch.edits import ReplacementCountError, SearchReplaceError
from apply_patch.edits import CreateFile, StrReplace, apply_search_replace, parse_search_replace

BLOCK = "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
# test_find_filename's valid_fnames: "file1.py", "file2.py", "dir/file3.py", r"\windows\__init__.py"
# (a Windows path: here the file windows/__init__.py).
VALID = {"file1.py": "old\n", "file2.py": "old\n", "dir/file3.py": "old\n", "windows/__init__.py": "old\n"}


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _edited(root: Path, reply: str) -> tuple[list[str], list[str]]:
    """Apply `reply` under `root`: (the paths edited, in order; the warnings)."""
    result = apply_search_replace(reply, root)
    return [o.path for o in result.operations], [w.message for w in result.warnings]


# ------------------------------------------------------------ test_find_filename


@pytest.mark.parametrize(
    ("above", "path", "written"),
    [
        ("file1.py\n```\n", "file1.py", None),  # filename on a single line
        ("```python\nfile3.py\n```\n```\n", "dir/file3.py", "file3.py"),  # in its own fence; one file of that name
        ("```python\nfile1.py\n```\n```\nfile2.py\n```\n", "file2.py", None),  # several fences: the nearest
        ("# file1.py\n```\n", "file1.py", None),  # decorated
        ("file1_py\n```\n", "file1.py", "file1_py"),  # mangled: one file once separators and dots are set aside
        ("\\windows__init__.py\n```\n", "windows/__init__.py", "\\windows__init__.py"),  # mangled separators
    ],
)
def test_find_filename(tmp_path: Path, above: str, path: str, written: str | None) -> None:
    _tree(tmp_path, VALID)
    paths, warnings = _edited(tmp_path, f"{above}{BLOCK}```\n")
    assert paths == [path]
    if written is None:
        assert warnings == []
    else:  # taken, and said so
        assert len(warnings) == 1 and f"'{written}'" in warnings[0] and f"taken as {path}" in warnings[0]


def test_find_filename_no_valid_name_is_kept_as_written(tmp_path: Path) -> None:
    """`["```", "invalid_file.py", "```"]` → "invalid_file.py": a path that names no file stays as written."""
    _tree(tmp_path, VALID)
    assert parse_search_replace(f"```\ninvalid_file.py\n```\n```\n{BLOCK}```\n")[0].path == "invalid_file.py"
    with pytest.raises(PatchError, match="invalid_file.py"):
        apply_search_replace(f"```\ninvalid_file.py\n```\n```\n{BLOCK}```\n", tmp_path)


# ------------------------------------------------------------ find_original_update_blocks

HOPE = "\nHope you like it!\n"


def test_find_original_update_blocks() -> None:
    reply = "\nHere's the change:\n\n```text\nfoo.txt\n<<<<<<< SEARCH\nTwo\n=======\nTooooo\n>>>>>>> REPLACE\n```\n" + HOPE
    assert parse_search_replace(reply) == [StrReplace("foo.txt", "Two\n", "Tooooo\n")]


def test_find_original_update_blocks_quote_below_filename() -> None:
    reply = "\nHere's the change:\n\nfoo.txt\n```text\n<<<<<<< SEARCH\nTwo\n=======\nTooooo\n>>>>>>> REPLACE\n```\n" + HOPE
    assert parse_search_replace(reply) == [StrReplace("foo.txt", "Two\n", "Tooooo\n")]


def test_find_original_update_blocks_unclosed() -> None:
    reply = "\nHere's the change:\n\n```text\nfoo.txt\n<<<<<<< SEARCH\nTwo\n=======\nTooooo\n\n\noops!\n"
    with pytest.raises(SearchReplaceError, match="has no '>>>>>>> REPLACE' line"):
        parse_search_replace(reply)


def test_find_original_update_blocks_missing_filename() -> None:
    reply = "\nHere's the change:\n\n```text\n<<<<<<< SEARCH\nTwo\n=======\nTooooo\n\n\noops!\n>>>>>>> REPLACE\n"
    with pytest.raises(SearchReplaceError, match="no file path before it"):
        parse_search_replace(reply)


def test_find_original_update_blocks_no_final_newline() -> None:
    one = '            self.console.print("[red]Skipped commit.")\n'
    reply = "\n" + "\n".join(
        f"aider/coder.py\n<<<<<<< SEARCH\n{one}=======\n{one.upper()}>>>>>>> REPLACE" for _ in range(4)
    )
    assert not reply.endswith("\n")
    assert [e.path for e in parse_search_replace(reply)] == ["aider/coder.py"] * 4


def test_incomplete_edit_block_missing_filename() -> None:
    """Two blocks in one fence, the path only above the first: the second reuses it."""
    reply = (
        "No problem! Here are the changes:\n\n```python\ntests/test_repomap.py\n"
        "<<<<<<< SEARCH\n    def a(self):\n=======\n    def b(self):\n>>>>>>> REPLACE\n\n"
        "<<<<<<< SEARCH\n    def c(self):\n=======\n    def d(self):\n>>>>>>> REPLACE\n```\n\nThese changes...\n"
    )
    assert [e.path for e in parse_search_replace(reply)] == ["tests/test_repomap.py"] * 2


def test_find_original_update_blocks_multiple_same_file() -> None:
    """A `...` line between two blocks is prose, not a path: the second block reuses foo.txt."""
    reply = (
        "\nHere's the change:\n\n```text\nfoo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\n"
        "...\n\n<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n```\n" + HOPE
    )
    assert parse_search_replace(reply) == [StrReplace("foo.txt", "one\n", "two\n"), StrReplace("foo.txt", "three\n", "four\n")]


def test_deepseek_coder_v2_filename_mangling() -> None:
    """The path in a fence of its own, the block in the next fence."""
    reply = "\nHere's the change:\n\n ```python\nfoo.txt\n```\n```python\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n" + HOPE
    assert parse_search_replace(reply) == [StrReplace("foo.txt", "one\n", "two\n")]


def test_new_file_created_in_same_folder(tmp_path: Path) -> None:
    _tree(tmp_path, {"path/to/a/file1.txt": "one\n"})
    reply = (
        "\nHere's the change:\n\npath/to/a/file2.txt\n```python\n<<<<<<< SEARCH\n=======\nthree\n>>>>>>> REPLACE\n```\n\n"
        "another change\n\npath/to/a/file1.txt\n```python\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n" + HOPE
    )
    assert parse_search_replace(reply) == [CreateFile("path/to/a/file2.txt", "three\n"), StrReplace("path/to/a/file1.txt", "one\n", "two\n")]
    apply_search_replace(reply, tmp_path)
    assert (tmp_path / "path/to/a/file2.txt").read_text() == "three\n"
    assert (tmp_path / "path/to/a/file1.txt").read_text() == "two\n"


def test_find_original_update_blocks_quad_backticks_with_triples_in_llm_reply() -> None:
    reply = "\nHere's the change:\n\nfoo.txt\n```text\n<<<<<<< SEARCH\n=======\nTooooo\n>>>>>>> REPLACE\n```\n" + HOPE
    assert parse_search_replace(reply) == [CreateFile("foo.txt", "Tooooo\n")]
    quad = reply.replace("```", "````")
    assert parse_search_replace(quad) == [CreateFile("foo.txt", "Tooooo\n")]


def test_find_original_update_blocks_with_sh_language_identifier() -> None:
    script = '#!/bin/bash\nif [ "$#" -ne 1 ]; then\n    echo "Usage: $0 <argument>" >&2\n    exit 1\nfi\necho "$1"\nexit 0\n'
    reply = f"\nHere's a shell script:\n\n```sh\ntest_hello.sh\n<<<<<<< SEARCH\n=======\n{script}>>>>>>> REPLACE\n```\n"
    assert parse_search_replace(reply) == [CreateFile("test_hello.sh", script)]


def test_find_original_update_blocks_with_csharp_language_identifier() -> None:
    old, new = 'Console.WriteLine("Hello World!");\n', 'Console.WriteLine("Hello, C# World!");\n'
    reply = f"\nHere's a C# code change:\n\n```csharp\nProgram.cs\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n```\n"
    assert parse_search_replace(reply) == [StrReplace("Program.cs", old, new)]


# ------------------------------------------------------------ replace_most_similar_chunk


def _replaced(tmp_path: Path, whole: str, part: str, replace: str) -> tuple[str, list[str]]:
    (tmp_path / "f.txt").write_text(whole)
    reply = f"f.txt\n<<<<<<< SEARCH\n{part}=======\n{replace}>>>>>>> REPLACE\n"
    result = apply_search_replace(reply, tmp_path)
    return (tmp_path / "f.txt").read_text(), [w.message for w in result.warnings]


@pytest.mark.parametrize(
    ("name", "whole", "part", "replace", "aider"),
    [
        (
            "test_replace_part_with_missing_varied_leading_whitespace",
            "\n    line1\n    line2\n        line3\n    line4\n",
            "line2\n    line3\n",
            "new_line2\n    new_line3\n",
            "\n    line1\n    new_line2\n        new_line3\n    line4\n",
        ),
        (
            "test_replace_part_with_missing_leading_whitespace",
            "    line1\n    line2\n    line3\n",
            "line1\nline2\n",
            "new_line1\nnew_line2\n",
            "    new_line1\n    new_line2\n    line3\n",
        ),
        (
            "test_replace_part_with_just_some_missing_leading_whitespace",
            "    line1\n    line2\n    line3\n",
            " line1\n line2\n",
            " new_line1\n     new_line2\n",
            "    new_line1\n        new_line2\n    line3\n",
        ),
        (
            "test_replace_part_with_missing_leading_whitespace_including_blank_line",
            "    line1\n    line2\n    line3\n",
            "\n  line1\n  line2\n",
            "  new_line1\n  new_line2\n",
            "    new_line1\n    new_line2\n    line3\n",
        ),
    ],
)
def test_missing_leading_whitespace_is_placed_with_a_warning(
    tmp_path: Path, name: str, whole: str, part: str, replace: str, aider: str
) -> None:
    """Placed where Aider places it, the REPLACE lines re-indented by the offset found (issue 20)."""
    text, warnings = _replaced(tmp_path, whole, part, replace)
    assert text == aider, name
    assert any("whitespace" in w for w in warnings), name


@pytest.mark.parametrize(
    ("name", "whole"),
    [
        ("test_replace_multiple_matches", "line1\nline2\nline1\nline3\n"),
        ("test_replace_multiple_matches_missing_whitespace", "    line1\n    line2\n    line1\n    line3\n"),
    ],
)
def test_several_matches_are_refused_where_aider_replaces_the_first(tmp_path: Path, name: str, whole: str) -> None:
    (tmp_path / "f.txt").write_text(whole)
    before = snapshot(tmp_path)
    with pytest.raises(ReplacementCountError) as caught:
        apply_search_replace("f.txt\n<<<<<<< SEARCH\nline1\n=======\nnew_line\n>>>>>>> REPLACE\n", tmp_path)
    assert caught.value.candidates == (1, 3), name
    assert snapshot(tmp_path) == before, name


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("test_strip_quoted_wrapping", "filename.ext\n```\nWe just want this content\nNot the filename and triple quotes\n```\n"),
        ("test_strip_quoted_wrapping_no_filename", "```\nWe just want this content\nNot the triple quotes\n```\n"),
        ("test_strip_quoted_wrapping_no_wrapping", "We just want this content\nNot the triple quotes\n"),
    ],
)
def test_block_text_is_taken_literally(tmp_path: Path, name: str, text: str) -> None:
    """Aider strips a file name and a fence wrapped around a whole-file text; a block's text is content here."""
    edits = parse_search_replace(f"new.md\n<<<<<<< SEARCH\n=======\n{text}>>>>>>> REPLACE\n")
    assert edits == [CreateFile("new.md", text)], name


# ------------------------------------------------------------ whole edits (Coder.run)


def test_create_new_file_with_other_file_in_chat(tmp_path: Path) -> None:
    _tree(tmp_path, {"file.txt": "one\ntwo\nthree\n"})
    apply_search_replace("\nDo this:\n\nnewfile.txt\n<<<<<<< SEARCH\n=======\ncreating a new file\n>>>>>>> REPLACE\n\n", tmp_path)
    assert (tmp_path / "file.txt").read_text() == "one\ntwo\nthree\n"
    assert (tmp_path / "newfile.txt").read_text() == "creating a new file\n"


def test_full_edit(tmp_path: Path) -> None:
    _tree(tmp_path, {"file1.txt": "one\ntwo\nthree\n"})
    apply_search_replace("\nDo this:\n\nfile1.txt\n<<<<<<< SEARCH\ntwo\n=======\nnew\n>>>>>>> REPLACE\n\n", tmp_path)
    assert (tmp_path / "file1.txt").read_text() == "one\nnew\nthree\n"


def test_full_edit_dry_run(tmp_path: Path) -> None:
    _tree(tmp_path, {"file1.txt": "one\ntwo\nthree\n"})
    before = snapshot(tmp_path)
    apply_search_replace("\nDo this:\n\nfile1.txt\n<<<<<<< SEARCH\ntwo\n=======\nnew\n>>>>>>> REPLACE\n\n", tmp_path, dry_run=True)
    assert snapshot(tmp_path) == before
