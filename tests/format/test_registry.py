"""One module per edit format, and the registry of their records (issue 35, item 3).

Detection, `--format`'s choices, a reply's parts and the command line's hints iterate
`format.FORMATS`; each record is made by its format's own module. A format's words reach
the messages as data (`Terms`), never read back out of a label.
"""

import importlib

import pytest

from apply_patch import format as fmt
from apply_patch.edits import EditError, StrReplace, apply_edits
from apply_patch.format import FORMATS, Terms, detected_format, format_named, reply_parts

from _support import snapshot

MODULES = {
    "codex": "_codex",
    "search-replace": "_search_replace",
    "unified-diff": "_unified",
    "hashline": "_hashline",
    "str-replace": "_str_replace",
    "native-operations": "_operations",
}


def test_each_format_is_one_record_made_by_its_own_module() -> None:
    assert [f.name for f in FORMATS] == list(MODULES)
    for known in FORMATS:
        module = importlib.import_module(f"apply_patch.format.{MODULES[known.name]}")
        assert module.FORMAT is known
        assert format_named(known.name) is known
    with pytest.raises(KeyError):
        format_named("auto")


def test_the_executables_choices_are_the_registrys() -> None:
    """`--format` lists the registry's text formats and auto (written out in `cli/_options`
    so that a run does not import every format's module to build its parser)."""
    from apply_patch.cli._options import FORMATS as CHOICES

    assert CHOICES == (*fmt.CHOICES, "auto")
    assert fmt.CHOICES == ("codex", "search-replace", "unified-diff", "hashline")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n", "codex"),
        ("a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", "search-replace"),
        ("a.py\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n", "search-replace"),  # not `--- path`
        ("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n", "unified-diff"),
        ('{"path": "a.py", "edits": [{"loc": "append", "content": ["x"]}]}', "hashline"),
        ("[a.py#1a2b]\nSWAP 1\n", "hashline"),  # oh-my-pi's v4, refused in its own words
        ("prose, and no patch at all\n", "codex"),  # read as a patch, whose error says why
    ],
)
def test_detection_iterates_the_registry(text: str, name: str) -> None:
    assert detected_format(text) == name


def test_every_reply_part_is_of_a_registered_text_format() -> None:
    reply = (
        "First:\n\n```\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n```\n\n"
        "```diff\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-x\n+y\n```\n\n"
        "c.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
    )
    kinds = [part.kind for part in reply_parts(reply)]
    assert kinds == ["codex", "unified-diff", "search-replace"]
    assert all(format_named(kind).read is not None for kind in kinds)


def test_a_formats_words_are_data_not_read_out_of_its_label(tmp_path: object) -> None:
    """The label names the edit; how its sides are called is its `terms` alone: a label that
    looks like another format's changes nothing, and the tree is unchanged."""
    from pathlib import Path

    root = Path(str(tmp_path))
    (root / "a.py").write_text("x = 1\n")
    before = snapshot(root)
    looks_like_search = StrReplace("a.py", "x = 1\n", "x = 1\n", label="the SEARCH block at line 3")
    with pytest.raises(EditError) as plain:
        apply_edits([looks_like_search], root)
    assert plain.value.message.startswith("The new text of the SEARCH block at line 3 is identical to its old text")
    worded = StrReplace("a.py", "x = 1\n", "x = 1\n", label="old_str", terms=Terms("new_str", "old_str", "old_str"))
    with pytest.raises(EditError) as text_editor:
        apply_edits([worded], root)
    assert text_editor.value.message.startswith("new_str is identical to old_str")
    assert snapshot(root) == before


def test_the_diagnosis_takes_the_formats_noun_from_its_terms(tmp_path: object) -> None:
    from pathlib import Path

    from apply_patch import ContextNotFoundError

    root = Path(str(tmp_path))
    (root / "a.py").write_text("def f():\n    return 1\n")
    before = snapshot(root)
    edit = StrReplace("a.py", "def f():\n    return 2\n", "def f():\n    return 3\n", label="old_str",
                      terms=Terms("new_str", "old_str", "old_str"))  # fmt: skip
    with pytest.raises(ContextNotFoundError) as caught:
        apply_edits([edit], root)
    assert "old_str:" in "\n".join(caught.value.details)  # the side by side names the format's field
    assert snapshot(root) == before


DIFF = (
    "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n"
    "diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n"
    "diff --git a/old.txt b/moved.txt\nsimilarity index 50%\nrename from old.txt\nrename to moved.txt\n"
    "--- a/old.txt\n+++ b/moved.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
)


def test_a_diffs_files_become_operations_by_one_function_for_applying_and_converting() -> None:
    """`format.change_operations` decides, once, what each file diff does: applying gets a
    created file's exact text and its hunks as chunks, converting an Add File and its own
    chunks, in the same order, with the same deletions and moves."""
    from apply_patch import convert_unified_diff
    from apply_patch.format import AddFile, CreateFile, DeleteFile, UpdateFile, unified_operations

    applying = unified_operations(DIFF)
    converting = convert_unified_diff(DIFF).operations
    assert [type(op).__name__ for op in applying] == ["CreateFile", "UpdateFile", "DeleteFile", "UpdateFile"]
    assert [type(op).__name__ for op in converting] == ["AddFile", "DeleteFile", "UpdateFile"]
    created, converted = applying[0], converting[0]
    assert isinstance(created, CreateFile) and isinstance(converted, AddFile)
    assert (created.path, created.text) == (converted.path, converted.text())
    for ops in (applying, converting):
        deleted = [op.path for op in ops if isinstance(op, DeleteFile)]
        moved = [(op.path, op.move_to) for op in ops if isinstance(op, UpdateFile) and op.move_to]
        assert deleted == ["gone.txt"] and moved == [("old.txt", "moved.txt")]


def test_a_reply_that_is_one_hashline_edit_is_applied_by_its_format(tmp_path: object) -> None:
    """`apply_reply` applies a whole text by the format the registry detects: a Hashline
    edit's JSON by `apply_hashline` (a stale anchor refused, the tree unchanged)."""
    import json
    from pathlib import Path

    from apply_patch import StaleAnchorError
    from apply_patch.edits import apply_reply, view_hashline

    root = Path(str(tmp_path))
    (root / "f.py").write_text("a\nb\n")
    anchor = view_hashline("f.py", root)[0].split(":")[0]
    edit = {"path": "f.py", "edits": [{"loc": {"range": {"pos": anchor, "end": anchor}}, "content": ["A"]}]}
    before = snapshot(root)
    stale = {"path": "f.py", "edits": [{"loc": {"range": {"pos": "1#ZZ", "end": "1#ZZ"}}, "content": ["A"]}]}
    with pytest.raises(StaleAnchorError):
        apply_reply(json.dumps(stale), root)
    assert snapshot(root) == before
    apply_reply(json.dumps(edit), root)
    assert (root / "f.py").read_text() == "A\nb\n"
