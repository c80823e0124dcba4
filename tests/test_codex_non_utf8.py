"""`--codex` keeps the reference's refusal of every file that is not UTF-8 (semantics.md §5).

The default reads a legacy file's ASCII lines, a declaration or a UTF-16 byte-order
mark; the reference reads UTF-8 only, so the preset (`non_utf8="error"`) refuses all
of them unless `--encoding` names the file's encoding. The tree is unchanged.
"""

import codecs
from pathlib import Path

import pytest

from _support import run_cli, snapshot
from apply_patch import CODEX, FilePolicyError, apply_patch

LEGACY = "# Auteur : J\u00e9r\u00f4me\nNAME = 'demo'\n".encode("cp1252")
PATCH = "*** Begin Patch\n*** Update File: legacy.py\n@@\n-NAME = 'demo'\n+NAME = 'demo-2'\n*** End Patch\n"


@pytest.mark.parametrize(
    ("files", "what"),
    [
        ({"legacy.py": LEGACY}, "undeclared"),
        ({"legacy.py": LEGACY, ".gitattributes": b"*.py working-tree-encoding=cp1252\n"}, "declared"),
        ({"legacy.py": codecs.BOM_UTF16_LE + "NAME = 'demo'\n".encode("utf-16-le")}, "byte-order mark"),
    ],
)
def test_codex_refuses_every_file_that_is_not_utf8(tmp_path: Path, files: dict[str, bytes], what: str) -> None:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    before = snapshot(tmp_path)
    # UTF-16 text holds NUL bytes: refused as binary before its bytes are decoded.
    why = "looks binary" if what == "byte-order mark" else "invalid utf-8 sequence"
    with pytest.raises(FilePolicyError, match=why):
        apply_patch(PATCH, tmp_path, policy=CODEX)
    result = run_cli(["--codex"], tmp_path, stdin=PATCH.encode())
    assert result.returncode == 1 and why.encode() in result.stderr, what
    assert snapshot(tmp_path) == before
    # The default edits each of them (the ASCII line; the declared or marked encoding).
    apply_patch(PATCH, tmp_path)
    assert snapshot(tmp_path) != before


def test_codex_with_an_encoding_given_edits_in_it(tmp_path: Path) -> None:
    (tmp_path / "legacy.py").write_bytes(LEGACY)
    apply_patch(PATCH, tmp_path, policy=CODEX, encoding="cp1252")
    assert (tmp_path / "legacy.py").read_bytes() == LEGACY.replace(b"'demo'", b"'demo-2'")


def test_codex_refuses_a_str_replace_in_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    """The other formats' path (one string for a UTF-8 file) refuses as the Codex one does."""
    from apply_patch.edits import StrReplace, apply_edits

    (tmp_path / "legacy.py").write_bytes(LEGACY)
    before = snapshot(tmp_path)
    with pytest.raises(FilePolicyError, match="invalid utf-8 sequence"):
        apply_edits([StrReplace("legacy.py", "NAME = 'demo'", "NAME = 'x'")], tmp_path, policy=CODEX)
    assert snapshot(tmp_path) == before
    apply_edits([StrReplace("legacy.py", "NAME = 'demo'", "NAME = 'x'")], tmp_path)  # the default: an ASCII line
    assert (tmp_path / "legacy.py").read_bytes() == LEGACY.replace(b"'demo'", b"'x'")
