"""Issue 20: one locator for every format: never applied wrongly while reporting success.

Each rule of docs/edit-formats.md's decision table, through the public API of
each format: a Codex patch (`apply_patch`), str_replace (`apply_edits`),
SEARCH/REPLACE (`apply_search_replace`) and a unified diff (`apply_unified_diff`).
Every refusal leaves the tree byte for byte as it was.
"""

from pathlib import Path

import pytest

from apply_patch import DEFAULT, AmbiguousChunkError, ContextNotFoundError, PatchError, apply_patch
from apply_patch.edits import StrReplace, apply_edits, apply_search_replace, apply_unified_diff
from _support import snapshot

SHOP = "class Shop:\n    def total(self, items):\n        result = 0\n        for item in items:\n            result += item.price\n        return result\n"
SHALLOW_OLD = "def total(self, items):\n    result = 0\n    for item in items:\n        result += item.price\n"
SHALLOW_NEW = "def total(self, items):\n    result = 0\n    for item in items:\n        if item.price:\n            result += item.price\n"
REINDENTED = SHOP.replace(
    "            result += item.price\n", "            if item.price:\n                result += item.price\n"
)


def _chunk(old: str, new: str) -> str:
    """A Codex chunk (no @@ line) turning the lines `old` into `new` (same count, or added at the end)."""
    olds, news = old.splitlines(), new.splitlines()
    body = [f" {o}" if o == n else f"-{o}\n+{n}" for o, n in zip(olds, news)]
    body += [f"+{n}" for n in news[len(olds):]]
    return "\n".join(body)


def _apply(fmt: str, root: Path, path: str, old: str, new: str, indentation: str = "match") -> str:
    """Apply the edit `old` → `new` of `path` in format `fmt`; the file's text after."""
    policy = DEFAULT.with_options(indentation=indentation)
    if fmt == "codex":
        apply_patch(f"*** Begin Patch\n*** Update File: {path}\n@@\n{_chunk(old, new)}\n*** End Patch", root, policy=policy)
    elif fmt == "str_replace":
        apply_edits([StrReplace(path, old, new)], root, policy=policy)
    elif fmt == "search_replace":
        apply_search_replace(f"{path}\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n", root, policy=policy)
    else:
        olds, news = old.splitlines(), new.splitlines()
        body = "".join(f"{line}\n" for line in _chunk(old, new).split("\n"))
        apply_unified_diff(f"--- a/{path}\n+++ b/{path}\n@@ -2,{len(olds)} +2,{len(news)} @@\n{body}", root, policy=policy)
    return (root / path).read_text()


FORMATS = ("codex", "str_replace", "search_replace", "unified_diff")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_block_one_level_too_shallow_is_reindented_as_the_file(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    old, new = SHALLOW_OLD, SHALLOW_NEW
    if fmt == "codex":  # a chunk needs one line per line: the added line goes after
        new = SHALLOW_OLD.replace("        result += item.price\n", "        result += item.price  # counted\n")
        expected = SHOP.replace("result += item.price\n", "result += item.price  # counted\n")
    else:
        expected = REINDENTED
    assert _apply(fmt, tmp_path, "shop.py", old, new) == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_tabs_where_the_file_has_spaces_are_written_as_the_files_spaces(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    old = "\n".join("\t" + line for line in SHALLOW_OLD.replace("    ", "\t").splitlines()) + "\n"
    new = old.replace("item.price\n", "item.price * 2\n")
    expected = SHOP.replace("result += item.price\n", "result += item.price * 2\n")
    assert _apply(fmt, tmp_path, "shop.py", old, new) == expected


@pytest.mark.parametrize("fmt", FORMATS)
def test_verbatim_indentation_writes_the_lines_as_sent(fmt: str, tmp_path: Path) -> None:
    """The reference's behaviour, kept by `--codex` / `indentation="verbatim"`."""
    (tmp_path / "f.py").write_text("def f():\n    return 1\n")
    after = _apply(fmt, tmp_path, "f.py", "def f():\n  return 1\n", "def f():\n  return 2\n", indentation="verbatim")
    assert after == "def f():\n  return 2\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_indentation_difference_not_the_same_on_every_line_is_refused(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    before = snapshot(tmp_path)
    old = "def total(self, items):\nresult = 0\n"  # flattened: +1 level on one line, 0 on the other
    with pytest.raises(ContextNotFoundError) as refused:
        _apply(fmt, tmp_path, "shop.py", old, "def total(self, items):\nresult = 1\n")
    assert "indentation" in str(refused.value) and "|         result = 0" in str(refused.value)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("fmt", ("str_replace", "search_replace", "unified_diff"))
def test_lines_only_matched_keep_the_files_bytes(fmt: str, tmp_path: Path) -> None:
    """Typographic quotes and trailing spaces the model lost stay as the file has them."""
    (tmp_path / "m.py").write_text("x = 1\nprint(\u201chi\u201d)  \ny = 2\n")
    after = _apply(fmt, tmp_path, "m.py", 'print("hi")\ny = 2\n', 'print("hi")\ny = 3\n')
    assert after == "x = 1\nprint(\u201chi\u201d)  \ny = 3\n"


def test_chunks_the_order_settles_go_each_to_its_place(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def foo():\n    return 1\n\ndef foo():\n    return 1\n")
    patch = (
        "*** Begin Patch\n*** Update File: m.py\n@@ def foo():\n-    return 1\n+    return 2\n"
        "@@ def foo():\n-    return 1\n+    return 3\n*** End Patch"
    )
    result = apply_patch(patch, tmp_path)
    assert (tmp_path / "m.py").read_text() == "def foo():\n    return 2\n\ndef foo():\n    return 3\n"
    assert result.warnings == ()


def test_a_chunk_that_fits_twice_is_refused_naming_the_places(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("a = 1\nb = 2\na = 1\n")
    before = snapshot(tmp_path)
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n-a = 1\n+a = 3\n*** End Patch"
    with pytest.raises(AmbiguousChunkError) as refused:
        apply_patch(patch, tmp_path)
    assert refused.value.candidates == (1, 3)
    assert "add context lines or an @@ line" in str(refused.value)
    assert snapshot(tmp_path) == before
    result = apply_patch(patch, tmp_path, ambiguous="first")  # the reference's: first, warned
    assert (tmp_path / "m.py").read_text() == "a = 3\nb = 2\na = 1\n"
    assert [w.kind for w in result.warnings] == ["ambiguous"]


def test_a_later_chunk_can_leave_an_earlier_one_no_choice(tmp_path: Path) -> None:
    """`a = 1` fits at lines 1 and 3, but the chunk after it needs line 2: only line 1 is left."""
    (tmp_path / "m.py").write_text("a = 1\nb = 2\na = 1\n")
    patch = "*** Begin Patch\n*** Update File: m.py\n@@\n-a = 1\n+a = 3\n@@\n-b = 2\n+b = 4\n*** End Patch"
    apply_patch(patch, tmp_path)
    assert (tmp_path / "m.py").read_text() == "a = 3\nb = 4\na = 1\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_line_numbers_copied_from_a_view_are_taken_off(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("a = 1\nb = 2\nc = 3\n")
    after = _apply(fmt, tmp_path, "m.py", "     2\tb = 2\n     3\tc = 3\n", "     2\tb = 2\n     3\tc = 4\n")
    assert after == "a = 1\nb = 2\nc = 4\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_blank_line_the_model_dropped_is_kept(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    old, new = "    return 1\ndef g():\n    return 2\n", "    return 1\ndef g():\n    return 3\n"
    assert _apply(fmt, tmp_path, "m.py", old, new) == "def f():\n    return 1\n\n\ndef g():\n    return 3\n"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_blank_line_dropped_beside_a_changed_line_is_refused(fmt: str, tmp_path: Path) -> None:
    """Kept before the new line or after it? The model's text does not say: ambiguous."""
    (tmp_path / "m.py").write_text("x = 1\n\ny = 2\n")
    before = snapshot(tmp_path)
    with pytest.raises(AmbiguousChunkError, match="line 2: 1 blank line in the file, none in the "):
        _apply(fmt, tmp_path, "m.py", "x = 1\ny = 2\n", "x = 1\ny = 5\n")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_blank_line_slip_that_fits_twice_is_refused(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("x = 1\n\ny = 2\nz = 3\n" * 2)
    before = snapshot(tmp_path)
    with pytest.raises(AmbiguousChunkError):
        _apply(fmt, tmp_path, "m.py", "x = 1\ny = 2\nz = 3\n", "x = 1\ny = 2\nz = 4\n")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("fmt", ("codex", "str_replace", "search_replace"))
def test_an_elided_middle_that_one_place_completes_is_kept(fmt: str, tmp_path: Path) -> None:
    text = "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n"
    (tmp_path / "m.py").write_text(text)
    old = "def f():\n    # ... existing code ...\n    return a\n"
    new = "def f():\n    # ... existing code ...\n    return c\n"
    assert _apply(fmt, tmp_path, "m.py", old, new) == text.replace("return a", "return c")


def test_an_elided_middle_the_new_text_drops_is_refused(tmp_path: Path) -> None:
    """Without the placeholder in the new text the middle would be deleted: no sure reading."""
    (tmp_path / "m.py").write_text("def f():\n    a = 1\n    return a\n")
    before = snapshot(tmp_path)
    with pytest.raises(PatchError):
        apply_edits([StrReplace("m.py", "def f():\n    ...\n    return a\n", "def f():\n    return 0\n")], tmp_path)
    assert snapshot(tmp_path) == before


def test_a_hunk_keeps_the_files_bytes_on_its_context_lines(tmp_path: Path) -> None:
    (tmp_path / "q.txt").write_text("say \u201chi\u201d\nold\n")
    diff = '--- a/q.txt\n+++ b/q.txt\n@@ -1,2 +1,2 @@\n say "hi"\n-old\n+new\n'
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "q.txt").read_text() == "say \u201chi\u201d\nnew\n"


def test_an_invented_blank_line_with_another_difference_is_refused_with_the_hint(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text("def f():\n    a = 1\n    b = 2\n    return a + b\n")
    before = snapshot(tmp_path)
    patch = (
        "*** Begin Patch\n*** Update File: f.py\n@@\n def f():\n     a = 1\n\n     b = 2\n"
        "-    return a - b\n+    return a * b\n*** End Patch"
    )
    with pytest.raises(ContextNotFoundError) as refused:
        apply_patch(patch, tmp_path)
    assert "The patch has an empty line where line 3 of the file is '    b = 2'" in str(refused.value)
    assert snapshot(tmp_path) == before


def test_old_text_whose_last_line_lost_its_trailing_spaces_replaces_the_whole_line(tmp_path: Path) -> None:
    """Matched as a substring, the file's trailing spaces would stay after the new text."""
    (tmp_path / "m.py").write_text("a = 1\nreturn x  \nb = 2\n")
    apply_edits([StrReplace("m.py", "a = 1\nreturn x", "a = 1\nreturn y")], tmp_path)
    assert (tmp_path / "m.py").read_text() == "a = 1\nreturn y\nb = 2\n"


def test_old_text_ending_inside_a_line_before_more_text_is_a_substring(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("f(a,\n  b)  # call\n")
    apply_edits([StrReplace("m.py", "f(a,\n  b)", "f(a,\n  c)")], tmp_path)
    assert (tmp_path / "m.py").read_text() == "f(a,\n  c)  # call\n"


def test_counts_of_a_whole_line_deletion_are_the_lines_it_deletes(tmp_path: Path) -> None:
    """Issue 23: deleting `b\\n` from a, b, c is 0 added and 1 removed (it said 1 and 2)."""
    (tmp_path / "m.txt").write_text("a\nb\nc\n")
    result = apply_edits([StrReplace("m.txt", "b\n", "")], tmp_path)
    assert (tmp_path / "m.txt").read_text() == "a\nc\n"
    assert [(f.added, f.removed) for f in result.files] == [(0, 1)]
    (tmp_path / "m.txt").write_text("x = 1\ny = 2\n")
    result = apply_edits([StrReplace("m.txt", "y = 2", "y = 3")], tmp_path)
    assert [(f.added, f.removed) for f in result.files] == [(1, 1)]


def test_a_kept_line_that_cannot_be_told_from_another_is_refused(tmp_path: Path) -> None:
    """Found only ignoring trailing spaces, with `a` twice in the old text and three times
    in the new: which `a` keeps the file's spaces cannot be told, so nothing is guessed."""
    (tmp_path / "m.py").write_text("a  \nb\na  \n")
    before = snapshot(tmp_path)
    with pytest.raises(ContextNotFoundError) as refused:
        apply_edits([StrReplace("m.py", "a\nb\na\n", "a\na\nc\na\n")], tmp_path)
    assert "cannot be told" in str(refused.value)
    assert snapshot(tmp_path) == before


def test_repeated_kept_lines_that_pair_in_order_keep_the_files_bytes(tmp_path: Path) -> None:
    """`a` twice on both sides, every copy kept: they pair in order (issue 34)."""
    (tmp_path / "m.py").write_text("a  \nb\na  \n")
    apply_edits([StrReplace("m.py", "a\nb\na\n", "a\nc\na\n")], tmp_path)
    assert (tmp_path / "m.py").read_text() == "a  \nc\na  \n"


def test_a_diff_removing_the_last_line_of_a_file_without_final_newline_ends_as_git_does(tmp_path: Path) -> None:
    """`-c` + `\\ No newline` after ` b`: the old file lacked a final line break, the new one
    (ending with b) has one, as `git apply` gives; the final-newline policy does not undo it."""
    (tmp_path / "f.txt").write_bytes(b"a\nb\nc")
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n a\n b\n-c\n\\ No newline at end of file\n"
    apply_unified_diff(diff, tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\n"
    (tmp_path / "g.txt").write_bytes(b"a\r\nb\r\nc")
    apply_unified_diff(diff.replace("f.txt", "g.txt"), tmp_path)
    assert (tmp_path / "g.txt").read_bytes() == b"a\r\nb\r\n"  # the file's own line break


def test_a_diff_removing_only_the_last_line_of_a_file_without_final_newline_ends_as_patch_does(tmp_path: Path) -> None:
    """`-a` + `\\ No newline`, no line of the new file in the hunk (`diff -U0`, or the
    context above left out): the new file's last line is one the hunk does not show, so it
    kept its line break (a line that lost it would be in the hunk). GNU `patch` gives
    `a\\na\\n`; the final-newline policy does not take the break away."""
    diffs = (
        "--- a/f.txt\n+++ b/f.txt\n@@ -3 +2,0 @@\n-a\n\\ No newline at end of file\n",
        "--- a/f.txt\n+++ b/f.txt\n@@ -2,2 +1,0 @@\n-b\n-a\n\\ No newline at end of file\n",
        "--- a/f.txt\n+++ b/f.txt\n@@ -9 +8,0 @@\n-a\n\\ No newline at end of file\n",  # numbers off
    )
    for diff, before, after in zip(diffs, (b"a\na\na", b"a\nb\na", b"a\na\na"), (b"a\na\n", b"a\n", b"a\na\n")):
        (tmp_path / "f.txt").write_bytes(before)
        apply_unified_diff(diff, tmp_path)
        assert (tmp_path / "f.txt").read_bytes() == after, diff
    (tmp_path / "f.txt").write_bytes(b"a\r\na\r\na")
    apply_unified_diff(diffs[0], tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == b"a\r\na\r\n"  # the file's own line break
    (tmp_path / "f.txt").write_bytes(b"a")
    apply_unified_diff("--- a/f.txt\n+++ b/f.txt\n@@ -1 +0,0 @@\n-a\n\\ No newline at end of file\n", tmp_path)
    assert (tmp_path / "f.txt").read_bytes() == b""  # no line left to end
