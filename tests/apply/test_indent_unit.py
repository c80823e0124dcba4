"""The width of a level read off a window of a file's lines (`_indent._unit`): steps that
align rather than indent are left out."""

from apply_patch.apply.matching._indent import _opens_in_a_comment, _unit


def test_a_window_cut_inside_a_doc_comment_leaves_its_lines_out() -> None:
    # (square/okio) no step seen, the comment's `   * ` lines made the deepest line three.
    window = ["   * Reads.", "   *", "   */", "  fun a(): Int", "", "  /**", "   * b", "   */", "  fun b(): Long", "}"]
    assert _opens_in_a_comment(window)
    assert _unit(window) == (" ", 2)


def test_a_comment_closed_after_code_or_in_a_string_says_nothing() -> None:
    # (fmtlib/fmt) `0x80284013L /*TBS_E_...*/;` is no comment's last line; nor a glob.
    assert not _opens_in_a_comment(["  const int x = 1 /*NOT_ALLOWED*/;"])
    assert not _opens_in_a_comment(['  paths = ["**/*.py"]'])
    assert not _opens_in_a_comment(["/*", " * doc", " */"])
    assert _opens_in_a_comment(["code();", " * text */"])


def test_a_step_of_more_than_eight_spaces_aligns() -> None:
    # (fmtlib/fmt) calls continued under their parenthesis: 2 to 12, three times.
    window = ["TEST(a) {"] + ["  EXPECT_EQ(f(1),", "            g(1));"] * 3 + ["}"]
    assert _unit(window) == (" ", 2)


def test_lines_of_tabs_with_no_deeper_step_are_a_tab_a_level() -> None:
    # (this repository's history, tabs-for-spaces) lines that only go shallower, two tabs
    # then one: their deepest line was taken for one level, two tabs wide, and the new
    # text's lines (steps of one tab) were then "in a different unit".
    assert _unit(["\t\tcommit(plan, disk)", "\tassert x", "\tassert y"]) == ("\t", 1)
    assert _unit(["\t\t\tx = 1"]) == ("\t", 1)
    assert _unit(["        x = 1", "    y = 2"]) == (" ", 8)  # spaces: no step, the deepest line
