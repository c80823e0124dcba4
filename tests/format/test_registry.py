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
