"""An ambiguity refusal names the places where the chunk itself fits, not the occurrences of
its `@@` line (which mislead the model about where to add context): issue 34."""

from __future__ import annotations

from pathlib import Path

import pytest

from apply_patch import AmbiguousChunkError, apply_patch

FILE = (
    "class A:\n    def foo(self):\n        return 1\n"
    "class B:\n    def foo(self):\n        return 2\n"
    "class C:\n    def foo(self):\n        return 1\n"
)


def _refused(tmp_path: Path, patch: str) -> AmbiguousChunkError:
    (tmp_path / "m.py").write_text(FILE)
    with pytest.raises(AmbiguousChunkError) as caught:
        apply_patch(patch, root=tmp_path)
    assert (tmp_path / "m.py").read_text() == FILE
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]
    return caught.value


def test_the_places_named_are_where_the_chunk_fits(tmp_path: Path) -> None:
    # `def foo` is at lines 2, 5 and 8; the chunk fits at lines 3 and 9 only.
    patch = "*** Begin Patch\n*** Update File: m.py\n@@     def foo(self):\n-        return 1\n+        return 3\n*** End Patch\n"
    error = _refused(tmp_path, patch)
    assert error.candidates == (3, 9)
    assert "(lines 3, 9)" in str(error) and "lines 2, 5" not in str(error)
    assert str(error).startswith("The chunk at patch line 3 fits 2 places in m.py")


def test_added_lines_only_name_where_they_would_go(tmp_path: Path) -> None:
    patch = '*** Begin Patch\n*** Update File: m.py\n@@     def foo(self):\n+        """Foo."""\n*** End Patch\n'
    error = _refused(tmp_path, patch)
    assert error.candidates == (3, 6, 9)
