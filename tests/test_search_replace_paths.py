"""Which file a SEARCH/REPLACE block means, and a blank first SEARCH line (issue 23, item 1).

Through the installed executable (`--format search-replace`) and the public
API: the path is on the line right above the block or its fence, or in the
fence; prose is never a path; a block without one reuses the previous
block's; a bare word must name a file; a mangled name of exactly one file is
taken with a warning. Every refusal leaves the tree byte for byte as it was.
"""

import json
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, Entry, run_cli, snapshot
from apply_patch.edits import CreateFile, SearchReplaceError, StrReplace, apply_search_replace, parse_search_replace
from apply_patch import PatchError

BLOCK = "<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"


def _tree(root: Path, files: dict[str, str]) -> dict[str, Entry]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return snapshot(root)


@pytest.mark.parametrize("prose", ["...", "Then.", "Here:", "Done!", "**Note**: see below", "---"])
def test_a_prose_line_is_not_a_path(prose: str) -> None:
    reply = f"a.py\n{BLOCK}\n{prose}\n\n{BLOCK}"
    assert [e.path for e in parse_search_replace(reply)] == ["a.py", "a.py"]
    with pytest.raises(SearchReplaceError, match="line 2: no file path before it"):
        parse_search_replace(f"{prose}\n{BLOCK}")


@pytest.mark.parametrize(
    ("reply", "paths"),
    [
        (f"src/app.py\n```python\n{BLOCK}```\n", ["src/app.py"]),  # the line right above the fence
        (f"```python src/app.py\n{BLOCK}```\n", ["src/app.py"]),  # on the fence
        (f"```\nsrc/app.py\n```\n```python\n{BLOCK}```\n", ["src/app.py"]),  # in its own fence
        (f".gitignore\n{BLOCK}", [".gitignore"]),  # a dotfile
        (f"src\\app.py\n{BLOCK}", ["src\\app.py"]),  # a Windows separator: still a path (as written)
        (f"a.py\n{BLOCK}```\n\n```python\n{BLOCK}```\n", ["a.py", "a.py"]),  # next fence, no path: reused
    ],
)
def test_where_the_path_is_written(reply: str, paths: list[str]) -> None:
    assert [e.path for e in parse_search_replace(reply)] == paths


def test_a_bare_word_is_a_path_only_if_it_names_a_file(tmp_path: Path) -> None:
    _tree(tmp_path, {"Makefile": "one\n", "a.py": "one\n"})
    apply_search_replace(f"Makefile\n{BLOCK}", tmp_path)
    assert (tmp_path / "Makefile").read_text() == "two\n"
    before = snapshot(tmp_path)
    # "Dockerfile" names no file: not a path; the first block has no other, so it is refused.
    create = "Dockerfile\n<<<<<<< SEARCH\n=======\nFROM scratch\n>>>>>>> REPLACE\n"
    with pytest.raises(SearchReplaceError, match="no file path before it"):
        apply_search_replace(create, tmp_path)
    assert snapshot(tmp_path) == before
    # Without a root to look in, the bare word is taken as written.
    assert parse_search_replace(create) == [CreateFile("Dockerfile", "FROM scratch\n")]
    # A path to create is written with a dot or a slash: ./Dockerfile.
    apply_search_replace(create.replace("Dockerfile\n", "./Dockerfile\n", 1), tmp_path)
    assert (tmp_path / "Dockerfile").read_text() == "FROM scratch\n"


def test_a_mangled_name_of_one_file_is_taken_with_a_warning(tmp_path: Path) -> None:
    _tree(tmp_path, {"pkg/file_one.py": "one\n"})
    result = run_cli(["--format", "search-replace"], tmp_path, stdin=f"pkg/file-one_py\n{BLOCK}".encode())
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"Success. Updated the following files:\nM pkg/file_one.py\n"
    assert result.stderr.decode() == (
        "warning: the SEARCH block at line 2 names 'pkg/file-one_py', taken as pkg/file_one.py: it is the "
        "one file with that name once separators, dots, underscores and dashes are set aside.\n"
    )
    assert (tmp_path / "pkg/file_one.py").read_text() == "two\n"


def test_a_mangled_name_of_several_files_is_not_guessed(tmp_path: Path) -> None:
    before = _tree(tmp_path, {"a_b.py": "one\n", "ab.py": "one\n"})
    result = run_cli(["--format", "search-replace"], tmp_path, stdin=f"a-b_py\n{BLOCK}".encode())
    assert result.returncode == 1
    assert result.stderr.decode().endswith(NOTHING_CHANGED)
    assert snapshot(tmp_path) == before


def test_a_mangled_name_is_not_taken_for_a_new_file(tmp_path: Path) -> None:
    """An empty SEARCH creates the file it names: a name like an existing one is not changed."""
    before = _tree(tmp_path, {"notes.md": "one\n"})
    with pytest.raises(SearchReplaceError, match="no file path"):  # a bare word naming no file
        apply_search_replace("notes_md\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n", tmp_path)
    result = apply_search_replace("notes-2.md\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n", tmp_path)
    assert [o.path for o in result.operations] == ["notes-2.md"]
    assert snapshot(tmp_path) != before and (tmp_path / "notes.md").read_text() == "one\n"


def test_a_blank_first_search_line_is_tolerated_with_a_warning(tmp_path: Path) -> None:
    # Removed (REPLACE has no blank first line): not a blank edge the file lacks, which the
    # blank-line tolerance would leave out of both sides, so the block is tried without it.
    _tree(tmp_path, {"a.py": "one\nthree\n"})
    reply = "a.py\n<<<<<<< SEARCH\n\none\n=======\ntwo\n>>>>>>> REPLACE\n"
    result = run_cli(["--format", "search-replace", "--json"], tmp_path, stdin=reply.encode())
    document = json.loads(result.stdout)
    assert result.returncode == 0 and document["ok"], result.stderr
    assert [w["message"] for w in document["warnings"]] == [
        "a.py: the SEARCH block at line 2 starts with a blank line that is not in the file there; it was matched without it."
    ]
    assert (tmp_path / "a.py").read_text() == "two\nthree\n"


def test_a_blank_first_line_of_both_parts_is_a_blank_edge_the_file_lacks(tmp_path: Path) -> None:
    # Kept (both parts start with it): the blank-line tolerance matches the block without it.
    _tree(tmp_path, {"a.py": "one\nthree\n"})
    reply = "a.py\n<<<<<<< SEARCH\n\none\n=======\n\ntwo\n>>>>>>> REPLACE\n"
    result = run_cli(["--format", "search-replace", "--json"], tmp_path, stdin=reply.encode())
    document = json.loads(result.stdout)
    assert result.returncode == 0 and document["ok"], result.stderr
    assert [w["message"] for w in document["warnings"]] == [
        "a.py: the SEARCH block at line 2 matched line 1 only once blank lines are ignored (the file's are kept)."
    ]
    assert (tmp_path / "a.py").read_text() == "two\nthree\n"


def test_a_blank_first_search_line_that_is_in_the_file_is_kept(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.py": "zero\n\none\n"})
    result = apply_search_replace("a.py\n<<<<<<< SEARCH\n\none\n=======\n\ntwo\n>>>>>>> REPLACE\n", tmp_path)
    assert result.warnings == ()
    assert (tmp_path / "a.py").read_text() == "zero\n\ntwo\n"


@pytest.mark.parametrize("head, tail", [("", "\n"), ("", "\r\n"), ("a = 0\n", "\n")], ids=["first", "mixed-endings", "second"])
def test_a_blank_first_search_line_the_file_has_with_whitespace_is_not_dropped(
    tmp_path: Path, head: str, tail: str
) -> None:
    # Found on pypa/pip's history (trailing-ws-lost): the file's first line holds two spaces,
    # the model's copy of it is empty, and the block removes it. Matched only once trailing
    # whitespace is ignored, with a second blank line in the block, it is refused (which
    # blank line keeps the file's bytes cannot be told); the retry without the blank first
    # line then matched from line 2, "a blank line that is not in the file there", and left
    # the file's line of spaces where the block removes it, with success. (A file whose
    # line endings mix is read as lines, not one string: both ways.)
    text = head + '  \n"""\nRoutines.\n"""\n\nfrom x import y  \nz = 1' + tail
    (tmp_path / "a.py").write_bytes(text.encode())
    before = snapshot(tmp_path)
    reply = (
        'a.py\n<<<<<<< SEARCH\n\n"""\nRoutines.\n"""\n\nfrom x import y\n=======\n'
        '"""\nParsing.\n"""\n\nfrom x import y\n>>>>>>> REPLACE\n'
    )
    with pytest.raises(PatchError) as caught:
        apply_search_replace(reply, tmp_path)
    line = 2 if head else 1
    assert f"line {line} of the file, '' in the edit and '  ' in the file" in str(caught.value)
    assert snapshot(tmp_path) == before


def test_a_block_not_found_without_its_blank_line_either_changes_nothing(tmp_path: Path) -> None:
    before = _tree(tmp_path, {"a.py": "one\n", "b.py": "one\n"})
    reply = f"b.py\n{BLOCK}a.py\n<<<<<<< SEARCH\n\nnothing\n=======\nx\n>>>>>>> REPLACE\n"
    result = run_cli(["--format", "search-replace"], tmp_path, stdin=reply.encode())
    assert result.returncode == 1
    assert "Failed to find the SEARCH block at line 8" in result.stderr.decode()
    assert snapshot(tmp_path) == before


def test_names_are_read_from_the_workdir(tmp_path: Path) -> None:
    _tree(tmp_path, {"pkg/Makefile": "one\n"})
    apply_search_replace(f"Makefile\n{BLOCK}", tmp_path, workdir="pkg")
    assert (tmp_path / "pkg/Makefile").read_text() == "two\n"


def test_parse_alone_still_reads_every_block() -> None:
    assert parse_search_replace(f"a.py\n{BLOCK}Makefile\n{BLOCK}") == [
        StrReplace("a.py", "one\n", "two\n"),
        StrReplace("Makefile", "one\n", "two\n"),
    ]


# ------------------------------------------------ extract --apply: the same reading of a reply's blocks

MANGLED = "pkg/file-one_py\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"
BLANK_FIRST = "a.py\n<<<<<<< SEARCH\n\nthree\n=======\nTHREE\n>>>>>>> REPLACE\n"


def _log(tmp_path: Path, reply: str, kind: str) -> Path:
    """`reply` as the model's text in a Markdown transcript or in a JSON log's text block."""
    if kind == "markdown":
        text = f"The model answered:\n\n{reply}"
    else:
        record = {"type": "assistant", "cwd": str(tmp_path / "root"),
                  "message": {"role": "assistant", "content": [{"type": "text", "text": reply}]}}  # fmt: skip
        text = json.dumps(record) + "\n"
    path = tmp_path / ("reply.md" if kind == "markdown" else "log.jsonl")
    path.write_text(text)
    return path


@pytest.mark.parametrize("kind", ["markdown", "json"])
def test_extract_apply_reads_a_reply_as_apply_search_replace_does(tmp_path: Path, kind: str) -> None:
    """A mangled name of one file is taken and a blank first SEARCH line dropped, each with the
    warning `apply_search_replace` gives."""
    root = tmp_path / "root"
    _tree(root, {"pkg/file_one.py": "one\n", "a.py": "three\n"})
    log = _log(tmp_path, MANGLED + "\n" + BLANK_FIRST, kind)
    result = run_cli(["extract", "--apply", str(log)], root)
    assert result.returncode == 0, result.stderr
    assert (root / "pkg/file_one.py").read_text() == "two\n"
    assert (root / "a.py").read_text() == "THREE\n"
    warnings = result.stderr.decode()
    assert "names 'pkg/file-one_py', taken as pkg/file_one.py" in warnings
    assert "starts with a blank line that is not in the file there; it was matched without it." in warnings


@pytest.mark.parametrize("kind", ["markdown", "json"])
def test_extract_apply_of_a_reply_that_still_fails_changes_nothing(tmp_path: Path, kind: str) -> None:
    root = tmp_path / "root"
    before = _tree(root, {"a_b.py": "one\n", "ab.py": "one\n", "a.py": "three\n"})
    for reply in (f"a-b_py\n{BLOCK}", "a.py\n<<<<<<< SEARCH\n\nnothing\n=======\nx\n>>>>>>> REPLACE\n"):
        log = _log(tmp_path, f"{BLANK_FIRST}\n{reply}", kind)
        for dry_run in ([], ["--dry-run"]):
            result = run_cli(["extract", "--apply", *dry_run, str(log)], root)
            assert result.returncode == 1, reply
            assert snapshot(root) == before


def test_a_name_ending_with_a_separator_is_no_mangled_file_name(tmp_path: Path) -> None:
    """`a.txt/` names a folder (the system refuses it as a file): it is not taken for a.txt,
    whatever it becomes once separators are set aside; the tree is unchanged."""
    before = _tree(tmp_path, {"a.txt": "one\n"})
    for written in ("a.txt/", "a.txt\\"):
        with pytest.raises(PatchError):
            apply_search_replace(f"{written}\n{BLOCK}", tmp_path)
        assert snapshot(tmp_path) == before


# ------------------------------------------------ names read against the plan: earlier blocks' files seen (issue 35)

CREATE_ONE = "pkg/file_one.py\n<<<<<<< SEARCH\n=======\none\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_mangled_name_of_a_file_an_earlier_block_creates(tmp_path: Path, dry_run: bool) -> None:
    """The second block names, mangled, the file the first creates: the planner reads the
    name against the files as the earlier blocks leave them, in a dry run as in a real one."""
    before = _tree(tmp_path, {"README.md": "x\n"})
    result = apply_search_replace(CREATE_ONE + "\n" + MANGLED, tmp_path, dry_run=dry_run)
    assert [o.path for o in result.operations] == ["pkg/file_one.py"]
    assert [w.message for w in result.warnings] == [
        "the SEARCH block at line 8 names 'pkg/file-one_py', taken as pkg/file_one.py: it is the "
        "one file with that name once separators, dots, underscores and dashes are set aside."
    ]
    if dry_run:
        assert snapshot(tmp_path) == before
    else:
        assert (tmp_path / "pkg/file_one.py").read_text() == "two\n"


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_blank_first_line_dropped_against_an_earlier_blocks_edit(tmp_path: Path, dry_run: bool) -> None:
    """The second block's SEARCH part (a blank line, then a line the first block wrote) is
    found without its blank line in the file as the first block leaves it."""
    before = _tree(tmp_path, {"a.py": "one\nfour\n"})
    reply = "a.py\n" + BLOCK + "a.py\n<<<<<<< SEARCH\n\ntwo\n=======\nthree\n>>>>>>> REPLACE\n"
    result = apply_search_replace(reply, tmp_path, dry_run=dry_run)
    assert [w.message for w in result.warnings] == [
        "a.py: the SEARCH block at line 8 starts with a blank line that is not in the file there; "
        "it was matched without it."
    ]
    if dry_run:
        assert snapshot(tmp_path) == before
    else:
        assert (tmp_path / "a.py").read_text() == "three\nfour\n"


def test_extract_dry_run_reads_a_reply_after_the_patch_that_creates_its_file(tmp_path: Path) -> None:
    """extract --apply --dry-run: a reply's mangled name of the file a Codex patch before it
    creates is read against the files as that patch leaves them (nothing written)."""
    root = tmp_path / "root"
    before = _tree(root, {"README.md": "x\n"})
    codex = "*** Begin Patch\n*** Add File: pkg/file_one.py\n+one\n*** End Patch\n"
    log = tmp_path / "reply.md"
    log.write_text(f"First:\n\n```\n{codex}```\n\nThen:\n\n{MANGLED}")
    result = run_cli(["extract", "--apply", "--dry-run", str(log)], root)
    assert result.returncode == 0, result.stderr
    assert "names 'pkg/file-one_py', taken as pkg/file_one.py" in result.stderr.decode()
    assert snapshot(root) == before
