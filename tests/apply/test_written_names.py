"""A name a reply wrote → the one file it is a mangled name of, among the files as the plan
leaves them (`planning/_written_names.py`; issue 35, item 3c)."""

from apply_patch.apply import FileNames


def _names(*files: str) -> FileNames:
    names = FileNames(None)
    names.index(files)
    return names


def test_the_one_file_by_path_else_by_name() -> None:
    names = _names("pkg/file_one.py", "src/app.py", "docs/a-b.md", "dir/file3.py")
    assert names.the_one("pkg/file-one_py") == "pkg/file_one.py"
    assert names.the_one("src\\app.py") == "src/app.py"
    assert names.the_one("file3.py") == "dir/file3.py"  # no separator: by its file name
    assert names.the_one("x/file3.py") is None  # a separator: by its path only


def test_several_or_none_is_no_guess_and_a_folder_is_no_file() -> None:
    names = _names("a_b.py", "ab.py", "a.txt")
    assert names.the_one("a-b_py") is None
    assert names.the_one("nothing") is None
    assert names.the_one("a.txt/") is None and names.the_one("a.txt\\") is None


def test_the_plans_created_and_deleted_files_count() -> None:
    names = _names("old_name.py")
    assert names.the_one("new-name_py", created=["new_name.py"]) == "new_name.py"
    assert names.the_one("old-name_py", deleted=["old_name.py"]) is None
    # Created beside one of the same key: two, so none is guessed.
    assert names.the_one("old-name_py", created=["old-name.py"]) is None
