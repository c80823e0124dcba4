"""`apply_to_mapping` takes the operations of every edit format, as `apply_operations` does on disk.

One apply function per target: a Codex patch, or str_replace edits, created files and
insertions, planned by the same planner over an in-memory tree; all or nothing, the
mapping passed in never modified.
"""

import pytest

from apply_patch import ContextNotFoundError, PatchError, apply_to_mapping
from apply_patch.edits import CreateFile, Insert, StrReplace

FILES: dict[str, str | bytes] = {"src/app.py": "def main():\n    return 1\n", "notes.txt": b"one\r\ntwo\r\n"}


def test_edits_of_every_kind_apply_to_a_mapping() -> None:
    files = dict(FILES)
    result = apply_to_mapping(
        [
            StrReplace("src/app.py", "return 1", "return 2"),
            Insert("notes.txt", 1, "one and a half\n"),
            CreateFile("README.md", "# app\n"),
        ],
        files,
    )
    assert result == {
        "src/app.py": "def main():\n    return 2\n",
        "notes.txt": b"one\r\none and a half\r\ntwo\r\n",  # bytes stay bytes, the file's CRLF kept
        "README.md": "# app\n",
    }
    assert files == FILES  # the mapping passed in is not modified


def test_a_shifted_block_is_reindented_in_memory_too() -> None:
    """The same locator as on disk: the old text sent one level too deep still matches, and
    the new text lands at the file's indentation."""
    edit = StrReplace("src/app.py", "        return 1\n", "        return 3\n")
    assert apply_to_mapping([edit], FILES)["src/app.py"] == "def main():\n    return 3\n"


@pytest.mark.parametrize(
    "operations",
    [
        [StrReplace("src/app.py", "return 1", "return 2"), StrReplace("src/app.py", "absent", "x")],
        [StrReplace("missing.py", "a", "b")],
        [CreateFile("notes.txt", "clobber\n")],
    ],
    ids=["a later edit not found", "no such file", "a created file that exists"],
)
def test_a_failing_operation_changes_nothing(operations: list[StrReplace | CreateFile]) -> None:
    files = dict(FILES)
    with pytest.raises(PatchError) as caught:
        apply_to_mapping(operations, files)
    assert files == FILES
    if "absent" in str(operations):
        assert isinstance(caught.value, ContextNotFoundError)
