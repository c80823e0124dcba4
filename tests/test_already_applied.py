"""An edit sent again after it applied is refused saying it looks already applied, in every
format, also where its first lines (shared by the old and the new text) were matched by a
tolerant tier the first time and so kept the file's bytes: the new text as sent is then
not in the file byte for byte (issue 34, from a user's report)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from _support import snapshot
from apply_patch import ContextNotFoundError, apply_patch
from apply_patch.edits import StrReplace, apply_edits, apply_search_replace, apply_unified_diff

OLD = ["def f():", "    a = 1", "    return a"]
NEW = ["def f():", "    x = 10", "    return x"]


def _str_replace(root: Path) -> None:
    apply_edits([StrReplace("m.py", "\n".join(OLD), "\n".join(NEW))], root)


def _search_replace(root: Path) -> None:
    apply_search_replace("m.py\n<<<<<<< SEARCH\n" + "".join(f"{s}\n" for s in OLD) + "=======\n"
                         + "".join(f"{s}\n" for s in NEW) + ">>>>>>> REPLACE\n", root)  # fmt: skip


def _codex(root: Path) -> None:
    apply_patch("*** Begin Patch\n*** Update File: m.py\n@@\n def f():\n-    a = 1\n-    return a\n"
                "+    x = 10\n+    return x\n*** End Patch\n", root=root)  # fmt: skip


def _unified(root: Path) -> None:
    apply_unified_diff("--- a/m.py\n+++ b/m.py\n@@ -3,3 +3,3 @@\n def f():\n-    a = 1\n-    return a\n"
                       "+    x = 10\n+    return x\n", root)  # fmt: skip


FORMATS: dict[str, Callable[[Path], None]] = {
    "str_replace": _str_replace, "search_replace": _search_replace, "codex": _codex, "unified_diff": _unified,
}  # fmt: skip

FILES = {
    # The shared first line has trailing spaces in the file: kept by the first application.
    "trailing-whitespace": "import os\n\ndef f():  \n    a = 1\n    return a\n\nprint(f())\n",
    # Tab-indented: the new lines were written with the file's tabs the first time.
    "tabs": "import os\n\ndef f():\n\ta = 1\n\treturn a\n\nprint(f())\n",
}


@pytest.mark.parametrize("file", sorted(FILES))
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_edit_sent_again_is_refused_as_already_applied(tmp_path: Path, fmt: str, file: str) -> None:
    (tmp_path / "m.py").write_text(FILES[file])
    FORMATS[fmt](tmp_path)
    assert "x = 10" in (tmp_path / "m.py").read_text()
    before = snapshot(tmp_path)
    with pytest.raises(ContextNotFoundError) as caught:
        FORMATS[fmt](tmp_path)
    assert snapshot(tmp_path) == before
    assert "looks already applied" in str(caught.value) and "at line 3" in str(caught.value)
