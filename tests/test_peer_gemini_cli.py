"""Gemini CLI's own edit-tool tests, rewritten for this engine.

Gemini CLI's `replace` tool takes `file_path`, `old_string`, `new_string` and
`allow_multiple` (every occurrence; else exactly one). Its tests
(google-gemini/gemini-cli at 5411f11: packages/core/src/tools/edit.test.ts,
omissionPlaceholderDetector.test.ts, and the placeholder cases of
write-file.test.ts; read for behaviour: no code is copied) are rewritten as
`apply_edits([StrReplace(path, old_string, new_string,
replace_all=allow_multiple)])` (`CreateFile` for `write_file`) in a
temporary tree. Not ported: what needs a model or an IDE (the LLM edit fixer
and self-correction, `disableLLMCorrection`, IDE diffs, JIT context), abort
signals, and plan mode's folder.

The same result, or the difference docs/edit-formats.md states ("What the
peers do, and what we do"):

- Gemini CLI's flexible match indents the new lines as the first matched line
  is; its regex match lets spacing inside a line differ; its fuzzy match
  takes a block up to 10% different. Here the tiers of the one locator apply:
  a block whose lines are indented differently from the file's, by a
  difference not the same on every line, is refused (no sure way to indent
  the new lines); the new lines are re-indented by the difference the old
  lines show; spacing inside a line, a `'` for a `"`, a missing comma are
  differences, and refused with the closest region shown;
- a NUL byte in a path is refused (Gemini CLI drops it and edits the file
  the rest names).
"""

from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import ContextNotFoundError, FilePolicyError, InputError, PatchError, PatchIOError
from apply_patch.edits import CreateFile, EditError, ReplacementCountError, StrReplace, apply_edits


def _replaced(root: Path, content: str, old: str, new: str, allow_multiple: bool = False) -> tuple[str, list[str]]:
    """`content` in test.txt, the replace tool's call applied: the file's text and the warnings."""
    (root / "test.txt").write_bytes(content.encode())
    result = apply_edits([StrReplace("test.txt", old, new, allow_multiple)], root)
    return (root / "test.txt").read_bytes().decode(), [w.message for w in result.warnings]


def _refused(root: Path, edits: list[StrReplace | CreateFile], content: str | None = None) -> PatchError:
    """`edits` refused (test.txt holding `content`, if given); the tree as it was."""
    if content is not None:
        (root / "test.txt").write_bytes(content.encode())
    before = snapshot(root)
    with pytest.raises(PatchError) as caught:
        apply_edits(edits, root)
    assert snapshot(root) == before
    return caught.value


# ------------------------------------------------------------ applyReplacement


def test_should_return_new_string_if_is_new_file(tmp_path: Path) -> None:
    """A new file (empty old_string) gets new_string; "currentContent is null and oldString is empty" too."""
    apply_edits([StrReplace("new.txt", "", "new")], tmp_path)
    assert (tmp_path / "new.txt").read_text() == "new"


def test_should_return_empty_string_if_current_content_is_null_and_old_string_is_not_empty(tmp_path: Path) -> None:
    """No file, an old_string: nothing to replace in (the tool answers FILE_NOT_FOUND); nothing is created."""
    error = _refused(tmp_path, [StrReplace("test.txt", "old", "new")])
    assert isinstance(error, PatchIOError) and "No such file" in error.message


def test_should_replace_old_string_with_new_string_in_current_content(tmp_path: Path) -> None:
    assert _replaced(tmp_path, "hello old world old", "old", "new", allow_multiple=True)[0] == "hello new world new"


def test_should_return_current_content_if_old_string_is_empty_and_not_a_new_file(tmp_path: Path) -> None:
    """An empty old_string on an existing file changes nothing (the tool: ATTEMPT_TO_CREATE_EXISTING_FILE)."""
    error = _refused(tmp_path, [StrReplace("test.txt", "", "new")], content="hello world")
    assert isinstance(error, FilePolicyError) and "already exists" in error.message


DOLLARS = [
    ("$ literal", "price is $100 and pattern end is ' '", "price is $100", "price is $200",
     "price is $200 and pattern end is ' '"),
    ("$' literal", "foo", "foo", "bar$'baz", "bar$'baz"),
    ("$& literal", "hello world", "hello", "$&-replacement", "$&-replacement world"),
    ("$` literal", "prefix-middle-suffix", "middle", "new$`content", "prefix-new$`content-suffix"),
    ("$1, $2 capture groups literal", "test string", "test", "$1$2replacement", "$1$2replacement string"),
    ("normal strings without problematic $", "normal text replacement", "text", "string", "normal string replacement"),
    ("multiple occurrences with $ sequences", "foo bar foo baz", "foo", "test$'end", "test$'end bar test$'end baz"),
    ("complex regex patterns with $ at end", "| select('match', '^[sv]d[a-z]$')", "'^[sv]d[a-z]$'",
     "'^[sv]d[a-z]$' # updated", "| select('match', '^[sv]d[a-z]$' # updated)"),
    ("$$ (escaped dollar)", "price value", "value", "$$100", "price $$100"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "current", "old", "new", "expected"), DOLLARS, ids=[c[0] for c in DOLLARS])
def test_should_handle_dollar_sequences_literally(tmp_path: Path, name: str, current: str, old: str, new: str, expected: str) -> None:
    assert _replaced(tmp_path, current, old, new, allow_multiple=current.count(old) > 1)[0] == expected


def test_should_handle_empty_replacement_with_problematic_dollar(tmp_path: Path) -> None:
    """old_string 'nothing' is not in the file: the content stays as it is (here: refused, unchanged)."""
    assert isinstance(_refused(tmp_path, [StrReplace("test.txt", "nothing", "replacement$'text")], "test content"), ContextNotFoundError)


# ------------------------------------------------------------ calculateReplacement

SAME = [
    ("should perform an exact replacement", "hello world", "world", "moon", False, "hello moon"),
    ("should preserve trailing newlines in flexible replacement (regression)", "  line1\n  line2\n  line3\n",
     "line1\nline2", "line1-replaced\nline2-replaced", False, "  line1-replaced\n  line2-replaced\n  line3\n"),
    ("should correctly increment loop index in flexible replacement when allow_multiple is true (regression)",
     "  match1\n  match2\n  match1\n  match2\n", "match1\nmatch2", "replaced1\nreplaced2\nreplaced3", True,
     "  replaced1\n  replaced2\n  replaced3\n  replaced1\n  replaced2\n  replaced3\n"),
    ("should correctly rebase indentation in flexible replacement without double-indenting",
     "    if (a) {\n        foo();\n    }\n", "if (a) {\n    foo();\n}", "if (a) {\n    bar();\n}", False,
     "    if (a) {\n        bar();\n    }\n"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "content", "old", "new", "allow_multiple", "gemini"), SAME, ids=[c[0] for c in SAME])
def test_replacements_that_give_gemini_clis_result(
    tmp_path: Path, name: str, content: str, old: str, new: str, allow_multiple: bool, gemini: str
) -> None:
    text, warnings = _replaced(tmp_path, content, old, new, allow_multiple)
    assert text == gemini
    assert all("whitespace" in w for w in warnings)  # a block found ignoring indentation says so


NOT_FOUND = [
    ("should return 0 occurrences if no match is found", "hello world", "nomatch"),
    ("should NOT perform a fuzzy replacement when similarity is below threshold",
     "const myConfig = {\n  enableFeature: true,\n  retries: 3\n};", "function somethingElse() {\n  return false;\n}"),
    ("should NOT perform a fuzzy replacement when the complexity (length * size) is too high",
     "\n".join(["a" * 2000] * 200), "a" * 2000 + "c"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "content", "old"), NOT_FOUND, ids=[c[0] for c in NOT_FOUND])
def test_no_occurrence_leaves_the_file_as_it_is(tmp_path: Path, name: str, content: str, old: str) -> None:
    assert isinstance(_refused(tmp_path, [StrReplace("test.txt", old, "moon")], content), ContextNotFoundError)


def test_should_perform_a_flexible_whitespace_insensitive_replacement(tmp_path: Path) -> None:
    """`  hello` / `    world` found by `hello` / `world`: Gemini CLI indents both new lines by 2 spaces
    (the first line's); the two lines are 2 and 4 spaces deeper than sent, so no indentation
    is sure: refused, the file's lines shown."""
    error = _refused(tmp_path, [StrReplace("test.txt", "hello\nworld", "goodbye\nmoon")], "  hello\n    world\n")
    assert isinstance(error, ContextNotFoundError) and "indentation" in error.message


@pytest.mark.parametrize(
    ("name", "content", "old", "new"),
    [
        ("should perform a regex-based replacement for flexible intra-line whitespace",
         "  function  myFunc( a, b ) {\n    return a + b;\n  }", "function myFunc(a, b) {", "const yourFunc = (a, b) => {"),
        ("should NOT insert extra newlines when replacing a block preceded by a blank line (regression)",
         "\n  function oldFunc() {\n    // some code\n  }", "function  oldFunc() {\n    // some code\n  }",
         "function newFunc() {\n  // new code\n}"),
        ("should perform a fuzzy replacement when exact match fails but similarity is high",
         "const myConfig = {\n  enableFeature: true,\n  retries: 3\n};",
         "const myConfig = {\n  enableFeature: true\n  retries: 3\n};",
         "const myConfig = {\n  enableFeature: false,\n  retries: 5\n};"),
        ("should correctly rebase indentation in fuzzy replacement without double-indenting",
         "    const myConfig = {\n      enableFeature: true,\n      retries: 3\n    };",
         "const myConfig = {\n  enableFeature: true\n  retries: 3\n};",
         "const myConfig = {\n  enableFeature: false,\n  retries: 5\n};"),
        ("should perform multiple fuzzy replacements if multiple valid matches are found",
         '\nfunction doIt() {\n  console.log("hello");\n}\n\nfunction doIt() {\n  console.log("hello");\n}\n',
         "function doIt() {\n  console.log('hello');\n}", 'function doIt() {\n  console.log("bye");\n}'),
    ],
)  # fmt: skip
def test_a_line_that_differs_is_refused(tmp_path: Path, name: str, content: str, old: str, new: str) -> None:
    """Spacing inside a line, a missing comma, `'` for `"`: Gemini CLI's regex or fuzzy match
    replaces anyway; here no tier finds the text (the error shows where it most likely belongs)."""
    error = _refused(tmp_path, [StrReplace("test.txt", old, new, replace_all=True)], content)
    assert isinstance(error, ContextNotFoundError), name


def test_should_not_insert_extra_newlines_in_flexible_replacement_when_old_string_starts_with_a_blank_line(
    tmp_path: Path,
) -> None:
    """old_string's line is 2 spaces shallower than the file's: the new line, sent already indented,
    is made 2 spaces deeper as well (Gemini CLI keeps it as sent); the blank line stays one."""
    text, warnings = _replaced(tmp_path, "  // some comment\n\n  function oldFunc() {}",
                               "\nfunction oldFunc() {}", "\n  function newFunc() {}")  # fmt: skip
    assert text == "  // some comment\n\n    function newFunc() {}"  # Gemini CLI: "  function newFunc() {}"
    assert len(warnings) == 1 and "whitespace" in warnings[0]


# ------------------------------------------------------------ validateToolParams


def test_should_return_null_for_valid_params(tmp_path: Path) -> None:
    assert _replaced(tmp_path, "old\n", "old", "new") == ("new\n", [])


def test_should_return_an_error_if_path_is_outside_the_workspace(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "outside.txt").write_text("old\n")
    with pytest.raises(FilePolicyError, match="outside the root"):
        apply_edits([StrReplace(str(tmp_path / "outside.txt"), "old", "new")], tmp_path / "root")
    assert (tmp_path / "outside.txt").read_text() == "old\n"


@pytest.mark.parametrize(
    ("name", "old", "new", "placeholder"),
    [
        ("should reject omission placeholder in new_string when old_string does not contain that placeholder",
         "old content", "(rest of methods ...)", "(rest of methods ...)"),
        ("should reject new_string when it contains an additional placeholder not present in old_string",
         "(rest of methods ...)", "(rest of methods ...)\n(unchanged code ...)", "(unchanged code ...)"),
    ],
)  # fmt: skip
def test_a_placeholder_new_string_brings_in_is_refused(tmp_path: Path, name: str, old: str, new: str, placeholder: str) -> None:
    error = _refused(tmp_path, [StrReplace("test.txt", old, new)], f"{old}\n")
    assert isinstance(error, EditError) and f"omission placeholder ({placeholder!r})" in error.message


@pytest.mark.parametrize(
    ("name", "content", "old", "new"),
    [
        ("should allow omission placeholders when all are already present in old_string",
         "(rest of methods ...)\n(unchanged code ...)\n", "(rest of methods ...)\n(unchanged code ...)",
         "(unchanged code ...)\n(rest of methods ...)"),
        ("should allow normal code that contains placeholder text in a string literal",
         'const msg = "old";\n', 'const msg = "old";', 'const msg = "(rest of methods ...)";'),
    ],
)  # fmt: skip
def test_placeholder_text_that_is_not_brought_in_is_allowed(tmp_path: Path, name: str, content: str, old: str, new: str) -> None:
    assert _replaced(tmp_path, content, old, new)[0] == content.replace(old, new)


@pytest.mark.parametrize(
    "name",
    ["should sanitize null bytes in absolute path during validation",
     "should sanitize null bytes in absolute path during invocation setup"],
)  # fmt: skip
def test_a_nul_byte_in_a_path_is_refused(tmp_path: Path, name: str) -> None:
    """Gemini CLI drops the NUL and edits test.txt; a path with a NUL names no file: refused."""
    error = _refused(tmp_path, [StrReplace(str(tmp_path / "test\0.txt"), "old", "new")], "old\n")
    assert isinstance(error, InputError) and "cannot hold a control character (U+0000)" in error.message


# ------------------------------------------------------------ execute


def test_should_edit_an_existing_file_and_return_diff_with_file_name(tmp_path: Path) -> None:
    (tmp_path / "execute_me.txt").write_text("This is some old text.")
    result = apply_edits([StrReplace("execute_me.txt", "old", "new")], tmp_path)
    assert (tmp_path / "execute_me.txt").read_text() == "This is some new text."
    assert result.diff.startswith("--- a/execute_me.txt\n+++ b/execute_me.txt\n")
    assert "-This is some old text." in result.diff and "+This is some new text." in result.diff


def test_should_return_error_if_old_string_is_not_found_in_file(tmp_path: Path) -> None:
    error = _refused(tmp_path, [StrReplace("test.txt", "nonexistent", "replacement")], "Some content.")
    assert isinstance(error, ContextNotFoundError)


def test_should_preserve_crlf_line_endings_when_editing_a_file(tmp_path: Path) -> None:
    assert _replaced(tmp_path, "line one\r\nline two\r\n", "line two", "line three")[0] == "line one\r\nline three\r\n"


def test_should_create_a_new_file_with_crlf_line_endings_if_new_string_has_them(tmp_path: Path) -> None:
    apply_edits([StrReplace("test.txt", "", "new line one\r\nnew line two\r\n")], tmp_path)
    assert (tmp_path / "test.txt").read_bytes() == b"new line one\r\nnew line two\r\n"


# ------------------------------------------------------------ Error Scenarios


def test_should_return_error_scenarios(tmp_path: Path) -> None:
    """FILE_NOT_FOUND, ATTEMPT_TO_CREATE_EXISTING_FILE, NO_OCCURRENCE_FOUND, EXPECTED_OCCURRENCE_MISMATCH."""
    assert isinstance(_refused(tmp_path, [StrReplace("test.txt", "any", "new")]), PatchIOError)
    assert isinstance(_refused(tmp_path, [StrReplace("test.txt", "", "new content")], "existing content"), FilePolicyError)
    assert isinstance(_refused(tmp_path, [StrReplace("test.txt", "not-found", "new")], "content"), ContextNotFoundError)
    mismatch = _refused(tmp_path, [StrReplace("test.txt", "one", "new")], "one one two")
    assert isinstance(mismatch, ReplacementCountError) and mismatch.found == 2


# ------------------------------------------------------------ allow_multiple

ALLOW_MULTIPLE = [
    ("should succeed when allow_multiple is true and there are multiple occurrences", "foo foo foo", True, "bar bar bar"),
    ("should succeed when allow_multiple is true and there is exactly 1 occurrence", "foo", True, "bar"),
    ("should succeed when allow_multiple is false and there is exactly 1 occurrence", "foo", False, "bar"),
    ("should fail when allow_multiple is false and there are multiple occurrences", "foo foo foo", False,
     ReplacementCountError),
    ("should default to 1 expected replacement if allow_multiple not specified", "foo foo", False, ReplacementCountError),
    ("should fail when allow_multiple is true but there are 0 occurrences", "baz", True, ContextNotFoundError),
    ("should fail when allow_multiple is false but there are 0 occurrences", "baz", False, ContextNotFoundError),
]  # fmt: skip


@pytest.mark.parametrize(("name", "content", "allow_multiple", "outcome"), ALLOW_MULTIPLE, ids=[c[0] for c in ALLOW_MULTIPLE])
def test_allow_multiple(tmp_path: Path, name: str, content: str, allow_multiple: bool, outcome: str | type[PatchError]) -> None:
    if isinstance(outcome, str):
        assert _replaced(tmp_path, content, "foo", "bar", allow_multiple)[0] == outcome
    else:
        assert isinstance(_refused(tmp_path, [StrReplace("test.txt", "foo", "bar", allow_multiple)], content), outcome)


# ------------------------------------------------------------ multiple file edits


def test_should_perform_multiple_removals_and_report_correct_diff_stats(tmp_path: Path) -> None:
    """Ten files of 5 to 10 lines, 2 or 3 lines removed from each (from line 2): the counts add up."""
    expected = 0
    for i in range(10):
        lines = [f"File {i}, Line {j + 1}\n" for j in range(5 + i % 6)]
        remove = 2 + i % 2
        (tmp_path / f"test-file-{i}.txt").write_text("".join(lines))
        result = apply_edits([StrReplace(f"test-file-{i}.txt", "".join(lines[1 : 1 + remove]), "")], tmp_path)
        assert [(f.added, f.removed) for f in result.files] == [(0, remove)]
        assert (tmp_path / f"test-file-{i}.txt").read_text() == "".join(lines[:1] + lines[1 + remove :])
        expected += remove
    assert expected == 25


# ------------------------------------------------------------ omissionPlaceholderDetector.test.ts and write_file


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("detects standalone placeholder lines", "(rest of methods ...)"),
        ("detects standalone placeholder lines", "(rest of code ...)"),
        ("detects standalone placeholder lines", "(unchanged code ...)"),
        ("detects standalone placeholder lines", "// rest of methods ..."),
        ("detects case-insensitive placeholders", "(Rest Of Methods ...)"),
        ("detects multiple placeholder lines in one input",
         "class Example {\n  run() {}\n  (rest of methods ...)\n  (unchanged code ...)\n}"),
    ],
)  # fmt: skip
def test_a_placeholder_line_is_refused(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / "test.txt").write_text("run()\n")
    for edit in (StrReplace("test.txt", "run()", text), CreateFile("new.txt", text)):
        assert isinstance(_refused(tmp_path, [edit]), EditError), name


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("does not detect placeholders embedded in normal code", 'const note = "(rest of methods ...)";\nconsole.log(note);'),
        ("does not detect omission phrase when inline in a comment", "return value; // rest of methods ..."),
        ("does not detect unrelated ellipsis text", 'const message = "loading...";'),
    ],
)  # fmt: skip
def test_text_that_only_mentions_a_placeholder_is_written(tmp_path: Path, name: str, text: str) -> None:
    apply_edits([CreateFile("new.txt", text)], tmp_path)
    assert (tmp_path / "new.txt").read_text() == text, name


@pytest.mark.parametrize(
    ("name", "content", "refused"),
    [
        ("should throw an error if content includes an omission placeholder", "(rest of methods ...)", True),
        ("should throw an error when multiline content includes omission placeholders",
         'class Service {\n  execute() {\n    return "run";\n  }\n\n  // rest of methods ...\n}', True),
        ("should allow content with placeholder text in a normal string literal",
         'const note = "(rest of methods ...)";', False),
    ],
)  # fmt: skip
def test_write_file(tmp_path: Path, name: str, content: str, refused: bool) -> None:
    """write_file: a whole file bringing in a placeholder is refused (Write: CreateFile overwrite=True)."""
    (tmp_path / "service.ts").write_text("class Service {}\n")
    edit = CreateFile("service.ts", content, overwrite=True)
    if refused:
        assert isinstance(_refused(tmp_path, [edit]), EditError), name
    else:
        apply_edits([edit], tmp_path)
        assert (tmp_path / "service.ts").read_text() == content, name
