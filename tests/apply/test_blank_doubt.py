"""`_gaps.blank_doubt` alone (pure): where a chunk's lines with text fit, and which runs of
the file's blank lines its own blank lines differ from, at its edges and between."""

from apply_patch.apply.matching._gaps import BlankDoubt, BlankRun, blank_doubt
from apply_patch.apply.matching._seek import LineIndex

FILE = ["x = 0", "", "", "a = 1", "b = 2", "", "", "", "c = 3", "", "d = 4"]


def _doubt(lines: list[str]) -> BlankDoubt | None:
    return blank_doubt(LineIndex(FILE), FILE, lines, 0)


def test_runs_at_both_edges_and_between_are_named_in_the_files_order() -> None:
    lines = [" ", "-a = 1", "+A = 1", " b = 2", " ", " c = 3", " ", " "]
    assert _doubt(lines) == BlankDoubt(3, 8, (BlankRun(1, 2, 1), BlankRun(5, 3, 1), BlankRun(9, 1, 2)))


def test_an_edge_the_file_has_no_blank_line_at_counts_for_nothing() -> None:
    # `a = 1` follows blank lines in the file, but `d = 4` ends it: the chunk's two blank
    # lines after it are no run of the file's (a str_replace's final line break reads so).
    assert _doubt([" c = 3", " ", " d = 4", "-", "-"]) is None


def test_blank_lines_as_the_file_has_them_are_no_doubt_and_a_line_found_nowhere_no_place() -> None:
    assert _doubt([" a = 1", " b = 2", " ", " ", " ", " c = 3"]) is None
    assert _doubt([" a = 1", " ", " zzz"]) is None


def test_several_places_are_none_unless_a_hunks_numbers_name_one() -> None:
    file = ["a", "b", "", "a", "", "b"]
    index = LineIndex(file)
    assert blank_doubt(index, file, [" a", " b"], 0) is None  # fits at 0 and at 3
    assert blank_doubt(index, file, [" a", " b"], 0, near=3) == BlankDoubt(3, 5, (BlankRun(4, 1, 0),))
    assert blank_doubt(index, file, [" a", " b"], 0, end_of_file=True) == BlankDoubt(3, 5, (BlankRun(4, 1, 0),))
