"""A malformed hunk read strictly (`convert_unified_diff`): each way a hunk can be wrong
gives its own message and the diff line it is at (issue 24 rewrote the hunk reader for
speed; these say what it must keep), and a well-formed one with `\\ No newline` reads."""

import pytest

from apply_patch import UnifiedDiffError, convert_unified_diff

HEAD = "--- a/f.txt\n+++ b/f.txt\n"


@pytest.mark.parametrize(
    "hunk, message, line",
    [
        ("@@ -1,1 +1,2 @@\n-a\n-b\n+c\n", "the hunk at line 3 has more lines than its header says", 5),
        ("@@ -1,2 +1,2 @@\n a\n-b\n", "the hunk at line 3 has fewer lines than its header says", 6),
        ("@@ -1,2 +1,2 @@\n a\n@@ -5 +5 @@\n", "the hunk at line 3 has fewer lines than its header says", 5),
        ("@@ -1,2 +1,2 @@\n a\n*b\n", "'*b' is not a hunk line (' ', '-', '+' or '\\')", 5),
        ("@@ -1,2 +1,2 @@\n\\ No newline at end of file\n", "'\\ No newline at end of file' follows no line", 4),
        ("@@ -1,2 +1,2 @@\n-a\n-b\n-c\n", "the hunk at line 3 has more lines than its header says", 6),
    ],
)
def test_a_malformed_hunk_says_what_and_where(hunk: str, message: str, line: int) -> None:
    with pytest.raises(UnifiedDiffError) as raised:
        convert_unified_diff(HEAD + hunk)
    assert message in str(raised.value) and raised.value.line == line


def test_blank_lines_and_no_newline_markers_read() -> None:
    diff = HEAD + "@@ -1,3 +1,3 @@\n a\n\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
    patch = convert_unified_diff(diff)
    assert str(patch).splitlines()[2:] == ["@@", " a", " ", "-b", "+c", "*** End of File", "*** End Patch"]
