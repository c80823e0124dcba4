"""`--codex` is the reference's behaviour: it adds no leniency the reference lacks (contract
§3 and §5). The three slips the default undoes (blank lines, a view's line numbers, an
elided middle) are refused under the `codex` preset and under `slips="refuse"`, the tree
byte for byte unchanged; the default applies each."""

from __future__ import annotations

from pathlib import Path

import pytest

from apply_patch import CODEX, DEFAULT, ContextNotFoundError, Policy, apply_patch
from apply_patch.edits import StrReplace, apply_edits

FILE = "def f():\n    x = 1\n\n    y = 2\n    return x + y\n"

CHUNKS = {
    # One blank line the file has, dropped.
    "blank-lines": (" def f():\n     x = 1\n     y = 2\n-    return x + y\n+    return x * y\n",
                    "def f():\n    x = 1\n\n    y = 2\n    return x * y\n"),
    # `view`'s line numbers copied in front of the expected lines.
    "line-numbers": (" 4:     y = 2\n-5:     return x + y\n+    return x * y\n",
                     "def f():\n    x = 1\n\n    y = 2\n    return x * y\n"),
    # The middle of the function elided.
    "elided-middle": (" def f():\n     ...\n-    return x + y\n+    return x * y\n",
                      "def f():\n    x = 1\n\n    y = 2\n    return x * y\n"),
}  # fmt: skip


def _patch(chunk: str) -> str:
    return f"*** Begin Patch\n*** Update File: f.py\n@@\n{chunk}*** End Patch\n"


@pytest.mark.parametrize("slip", sorted(CHUNKS))
def test_the_default_undoes_the_slip_with_a_warning(tmp_path: Path, slip: str) -> None:
    (tmp_path / "f.py").write_text(FILE)
    chunk, after = CHUNKS[slip]
    result = apply_patch(_patch(chunk), root=tmp_path, policy=DEFAULT)
    assert (tmp_path / "f.py").read_text() == after
    assert [w.tier for w in result.warnings if w.kind == "fuzzy"] == [slip]


@pytest.mark.parametrize("policy", [CODEX, DEFAULT.with_options(slips="refuse")], ids=["codex", "slips-refuse"])
@pytest.mark.parametrize("slip", sorted(CHUNKS))
def test_codex_refuses_the_slip_and_changes_nothing(tmp_path: Path, slip: str, policy: Policy) -> None:
    (tmp_path / "f.py").write_text(FILE)
    with pytest.raises(ContextNotFoundError):
        apply_patch(_patch(CHUNKS[slip][0]), root=tmp_path, policy=policy)
    assert (tmp_path / "f.py").read_bytes() == FILE.encode()
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]


def test_a_str_replace_slip_is_refused_under_slips_refuse(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(FILE)
    edit = StrReplace("f.py", "    x = 1\n    y = 2\n    return x + y", "    x = 1\n    y = 2\n    return x * y")
    with pytest.raises(ContextNotFoundError):
        apply_edits([edit], tmp_path, slips="refuse")
    assert (tmp_path / "f.py").read_bytes() == FILE.encode()
    apply_edits([edit], tmp_path)
    assert (tmp_path / "f.py").read_text() == "def f():\n    x = 1\n\n    y = 2\n    return x * y\n"


def test_the_codex_preset_refuses_slips_and_says_so_in_its_options() -> None:
    assert CODEX.slips == "refuse" and DEFAULT.slips == "undo"


# After a match that ignored trailing whitespace: removed lines the patch sends with
# trailing whitespace the file's lines have not, each replaced by an added line.
TRAILING_FILE = "def g():\n    return x\ny - z\na\n"
TRAILING_PATCH = (
    "*** Begin Patch\n*** Update File: f.py\n@@\n     return x\n-y - z \n-a \n"
    "+    \n+b \n*** End of File\n*** End Patch\n"
)


def test_the_default_drops_whitespace_copied_from_nowhere_but_writes_a_whitespace_only_line_as_sent(
    tmp_path: Path,
) -> None:
    """`b ` took the place of `a ` (whose trailing space the file's line has not): the
    copied space goes. `    ` took the place of `y - z `, but a whitespace-only line is
    all whitespace: written as sent, as the contract has every line the edit changed (§3)."""
    (tmp_path / "f.py").write_text(TRAILING_FILE)
    apply_patch(TRAILING_PATCH, root=tmp_path, policy=DEFAULT)
    assert (tmp_path / "f.py").read_text() == "def g():\n    return x\n    \nb\n"


@pytest.mark.parametrize("policy", [CODEX, DEFAULT.with_options(indentation="verbatim")], ids=["codex", "verbatim"])
def test_codex_writes_the_added_lines_as_sent_after_a_trailing_whitespace_match(tmp_path: Path, policy: Policy) -> None:
    """The reference (codex-cli 0.169.0) writes `    ` and `b ` as sent."""
    (tmp_path / "f.py").write_text(TRAILING_FILE)
    apply_patch(TRAILING_PATCH, root=tmp_path, policy=policy)
    assert (tmp_path / "f.py").read_text() == "def g():\n    return x\n    \nb \n"


AT_HEADER_FILE = "def f():\n    return 1\n"
AT_HEADER_PATCH = "*** Begin Patch\n*** Update File: f.py\n@@ def f():\n def f():\n-    return 1\n+    return 2\n*** End Patch\n"


def test_the_default_tries_a_chunk_at_its_at_at_line_too(tmp_path: Path) -> None:
    """A chunk whose first context line repeats its `@@` line is not found after that line;
    the default tries it at the line (models often repeat it)."""
    (tmp_path / "f.py").write_text(AT_HEADER_FILE)
    apply_patch(AT_HEADER_PATCH, root=tmp_path, policy=DEFAULT)
    assert (tmp_path / "f.py").read_text() == "def f():\n    return 2\n"


@pytest.mark.parametrize("policy", [CODEX, DEFAULT.with_options(slips="refuse")], ids=["codex", "slips-refuse"])
def test_codex_searches_a_chunk_only_after_its_at_at_line(tmp_path: Path, policy: Policy) -> None:
    """The reference (codex-cli 0.169.0) searches the chunk after its `@@` line only:
    "Failed to find expected lines", nothing changed."""
    (tmp_path / "f.py").write_text(AT_HEADER_FILE)
    with pytest.raises(ContextNotFoundError):
        apply_patch(AT_HEADER_PATCH, root=tmp_path, policy=policy)
    assert (tmp_path / "f.py").read_bytes() == AT_HEADER_FILE.encode()


def test_a_blank_line_slip_pinned_to_the_end_of_file_is_found_past_many_earlier_fits(tmp_path: Path) -> None:
    # The blank-line reading was looked for from the top and given up after ten places:
    # a chunk pinned to the end of the file (`*** End of File`) whose lines repeat above
    # was "not found" (then called ambiguous), though one place only ends the file.
    target = tmp_path / "log.txt"
    target.write_text("x\n" * 50)
    chunk = " x\n \n-x\n+y\n*** End of File\n"
    result = apply_patch(f"*** Begin Patch\n*** Update File: log.txt\n@@\n{chunk}*** End Patch\n", root=tmp_path)
    assert target.read_text() == "x\n" * 49 + "y\n"
    assert [w.kind for w in result.warnings] == ["fuzzy"], result.warnings


def test_an_elision_pinned_to_the_end_of_file_is_read_however_many_fits_above_it(tmp_path: Path) -> None:
    # As for blank lines: the readings were looked for from the top, cut short past ten,
    # and those that end the file kept only then; the one reading at the end was lost.
    target = tmp_path / "e.txt"
    target.write_text("a\n" + "b\n" * 50)
    chunk = " a\n ...\n-b\n+c\n*** End of File\n"
    result = apply_patch(f"*** Begin Patch\n*** Update File: e.txt\n@@\n{chunk}*** End Patch\n", root=tmp_path)
    assert target.read_text() == "a\n" + "b\n" * 49 + "c\n"
    assert [w.kind for w in result.warnings] == ["fuzzy"], result.warnings
