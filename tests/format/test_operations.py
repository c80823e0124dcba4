"""The native tool's operations → the model: what is read leniently, what is refused, and how."""

import pytest

from apply_patch import AddFile, Chunk, DeleteFile, PatchSyntaxError, UpdateFile
from apply_patch._errors import OperationSyntaxError
from apply_patch.format._operations import to_operation


@pytest.mark.parametrize(
    ("diff", "chunks"),
    [
        (" a\n-b\n+c", (Chunk((), (" a", "-b", "+c")),)),
        (" a\r\n-b\r\n+c\r\n", (Chunk((), (" a", "-b", "+c")),)),
        ("@@ def f():  \t\n a\n\n-b\n+c\n", (Chunk(("def f():",), (" a", " ", "-b", "+c")),)),
        ("@@\n-x\n+y\n*** End of File \n*** End Patch\n", (Chunk((), ("-x", "+y"), True),)),
        (" keep trailing  \n-b\n+c\n", (Chunk((), (" keep trailing  ", "-b", "+c")),)),
        ("@@ class A:\n@@     def f(self):\n-    pass\n+    return 1\n",
         (Chunk(("class A:", "    def f(self):"), ("-    pass", "+    return 1")),)),
    ],
)
def test_update_diffs_are_read_as_an_envelopes_chunks(diff: str, chunks: tuple[Chunk, ...]) -> None:
    assert to_operation("update_file", "a.py", diff) == UpdateFile("a.py", None, chunks)


def test_create_and_delete() -> None:
    assert to_operation("create_file", "n.txt", "+a\n\n+b\n\n\n") == AddFile("n.txt", ("a", "", "b"))
    assert to_operation("create_file", "n.txt", None) == AddFile("n.txt", ())
    assert to_operation("delete_file", "old.txt", "ignored") == DeleteFile("old.txt")
    assert to_operation("update_file", "a", "", "b") == UpdateFile("a", "b", ())  # a pure rename


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("create_file", "a", "+x", "b"), "Invalid create_file operation for a: move_to is a non-empty path, and only update_file takes it"),
        (("update_file", "a\nb", ""), "Invalid update_file operation for a\\nb: a path cannot hold a line break"),
        (("update_file", "  ", ""), "Invalid update_file operation: the operation needs a path"),
        (("update_file", "a", 3), "Invalid update_file operation for a: the diff must be text"),
        ((None, "a"), "Invalid operation for a: unknown operation type None: use one of create_file, update_file, delete_file"),
        (("update_file", "a", " x\n+\ud800\n"), "Invalid update_file operation for a, diff line 2: The patch is not valid Unicode text: U+D800 is a lone surrogate"),
        (("update_file", "a", "@@\n*** End of File\n"), "Invalid update_file operation for a, diff line 2: Update hunk does not contain any lines"),
    ],
)
def test_refused_with_a_message_naming_the_operation(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(OperationSyntaxError) as caught:
        to_operation(*args)
    assert str(caught.value) == message
    assert isinstance(caught.value, PatchSyntaxError) and caught.value.kind == "syntax"
