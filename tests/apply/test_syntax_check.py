"""The syntax check: edits that break a file of each language are reported at the edited
line; an already broken file left no worse is not; `refuse` writes nothing.

The files are fixtures/syntax/ (small but real-world-shaped, one per language); each
case of cases.json is an edit that breaks its file the way a model's slip does.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _support import FIXTURES, NOTHING_CHANGED, run_cli, snapshot
from apply_patch import CodeSyntaxError, apply_patch, make_patch
from apply_patch.edits import StrReplace, apply_edits

SYNTAX = FIXTURES / "syntax"
CASES = json.loads((SYNTAX / "cases.json").read_text(encoding="utf-8"))


def _copy(name: str, root: Path) -> Path:
    shutil.copy(SYNTAX / name, root / name)
    return root / name


def _codex_patch(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    return str(make_patch(text, text.replace(old, new), path=path.name))


def _syntax_warnings(document: dict[str, object]) -> list[dict[str, object]]:
    warnings = document["warnings"]
    assert isinstance(warnings, list)
    return [w for w in warnings if w["kind"] == "code_syntax"]


def test_every_listed_language_has_a_case() -> None:
    languages = {Path(case["file"]).suffix for case in CASES}
    assert languages == {
        ".py", ".js", ".ts", ".tsx", ".go", ".rs", ".java", ".c", ".cpp", ".sh", ".json",
        ".yml", ".toml", ".html", ".css",
    }


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_a_breaking_edit_is_reported_at_its_line_by_the_executable(case: dict[str, object], tmp_path: Path) -> None:
    name, line = str(case["file"]), case["line"]
    path = _copy(name, tmp_path)
    patch = _codex_patch(path, str(case["old"]), str(case["new"]))
    done = run_cli(["--json"], tmp_path, patch.encode())
    assert done.returncode == 0, done.stderr
    found = _syntax_warnings(json.loads(done.stdout))
    assert [(w["path"], w["file_line"]) for w in found][:1] == [(name, line)]
    message = str(found[0]["message"])
    assert message.startswith(f"{name}:{line}: the file no longer parses as ")
    after = (SYNTAX / name).read_text(encoding="utf-8").replace(str(case["old"]), str(case["new"]))
    marked = [row.split(" | ", 1) for row in message.splitlines() if row.startswith(">")]
    assert marked == [[f"> {line:>{len(marked[0][0]) - 2}}", after.splitlines()[int(str(line)) - 1]]]
    assert path.read_text(encoding="utf-8") == after  # warn: applied


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_refuse_leaves_the_tree_byte_for_byte_unchanged(case: dict[str, object], tmp_path: Path) -> None:
    path = _copy(str(case["file"]), tmp_path)
    before = snapshot(tmp_path)
    with pytest.raises(CodeSyntaxError) as caught:
        apply_edits([StrReplace(path.name, str(case["old"]), str(case["new"]))], tmp_path, check_syntax="refuse")
    assert snapshot(tmp_path) == before
    assert caught.value.kind == "code_syntax"
    assert caught.value.path == case["file"]
    assert caught.value.lines[0] == case["line"]
    assert f"{case['file']}:{case['line']}:" in str(caught.value)


def test_refuse_through_the_executable_says_so_and_writes_nothing(tmp_path: Path) -> None:
    case = CASES[0]
    path = _copy(str(case["file"]), tmp_path)
    patch = _codex_patch(path, str(case["old"]), str(case["new"]))
    before = snapshot(tmp_path)
    done = run_cli(["--check-syntax", "refuse"], tmp_path, patch.encode())
    assert done.returncode == 1
    assert snapshot(tmp_path) == before
    stderr = done.stderr.decode()
    assert stderr.startswith("The patch applies but leaves syntax errors in inventory.py (Python)")
    assert stderr.endswith(NOTHING_CHANGED)
    as_json = run_cli(["--check-syntax", "refuse", "--json"], tmp_path, patch.encode())
    error = json.loads(as_json.stdout)["error"]
    assert (error["kind"], error["path"], error["lines"]) == ("code_syntax", "inventory.py", [36])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", sorted({case["file"] for case in CASES}))
def test_a_harmless_edit_of_each_file_is_not_reported(name: str, tmp_path: Path) -> None:
    path = _copy(name, tmp_path)
    text = path.read_text(encoding="utf-8")
    result = apply_edits([StrReplace(name, text, text + "\n")], tmp_path, check_syntax="refuse")
    assert [w for w in result.warnings if w.kind.startswith("code_syntax")] == []


BROKEN = "def f(x):\n    return (x\n\n\ndef g(y):\n    return y\n\n\ndef h(z):\n    return z\n"


def test_an_edit_far_from_an_old_error_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BROKEN)
    result = apply_edits([StrReplace("a.py", "return z", "return z * 2")], tmp_path, check_syntax="refuse")
    assert result.warnings == ()
    assert (tmp_path / "a.py").read_text() == BROKEN.replace("return z", "return z * 2")


def test_an_edit_next_to_an_old_error_that_adds_none_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BROKEN)
    result = apply_edits([StrReplace("a.py", "def f(x):", "def f(x, w=0):")], tmp_path, check_syntax="refuse")
    assert result.warnings == ()


def test_a_new_error_in_an_already_broken_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BROKEN)
    result = apply_edits([StrReplace("a.py", "return z", "return z)")], tmp_path)
    assert [(w.kind, w.path, w.file_line) for w in result.warnings] == [("code_syntax", "a.py", 10)]


def test_a_moved_file_is_compared_with_its_old_content(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(BROKEN)
    patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-    return z\n+    return -z\n*** End Patch\n"
    result = apply_patch(patch, tmp_path, check_syntax="refuse")
    assert result.warnings == ()


def test_an_added_file_with_errors_is_reported(tmp_path: Path) -> None:
    patch = "*** Begin Patch\n*** Add File: new.go\n+package main\n+\n+func main() {\n+\tx := [1, 2\n+}\n*** End Patch\n"
    result = apply_patch(patch, tmp_path)
    assert [(w.kind, w.path, w.file_line) for w in result.warnings] == [("code_syntax", "new.go", 4)]


def test_a_script_is_known_by_its_shebang(tmp_path: Path) -> None:
    (tmp_path / "tool").write_text("#!/usr/bin/env python3\nprint('hi')\n")
    result = apply_edits([StrReplace("tool", "print('hi')", "print('hi'")], tmp_path)
    assert [(w.kind, w.file_line) for w in result.warnings] == [("code_syntax", 2)]
    assert "parses as Python" in result.warnings[0].message


def test_files_of_unknown_languages_and_off_are_not_checked(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("(unbalanced\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = apply_edits(
        [StrReplace("notes.txt", "(unbalanced", "((more"), StrReplace("a.py", "x = 1", "x = (")], tmp_path,
        check_syntax="off",
    )
    assert result.warnings == ()
    result = apply_edits([StrReplace("notes.txt", "((more", "(((")], tmp_path)
    assert result.warnings == ()


def test_utf8_beyond_ascii_is_checked_and_another_encoding_is_skipped_silently(tmp_path: Path) -> None:
    """The grammars read UTF-8: a file in UTF-8 with characters beyond ASCII is checked; one
    in another encoding (Latin-1 here) is skipped without a note, whatever it holds."""
    (tmp_path / "u.py").write_bytes("s = 'caf\u00e9'\n".encode("utf-8"))
    (tmp_path / "l.py").write_bytes("s = 'caf\u00e9'\n".encode("latin-1"))
    result = apply_edits([StrReplace("u.py", "s = ", "s = (")], tmp_path)
    assert [(w.kind, w.path, w.file_line) for w in result.warnings] == [("code_syntax", "u.py", 1)]
    result = apply_edits([StrReplace("l.py", "s = ", "s = (")], tmp_path, encoding="latin-1")
    assert result.warnings == ()
    assert (tmp_path / "l.py").read_bytes() == "s = ('caf\u00e9'\n".encode("latin-1")


def test_a_file_over_the_size_limit_is_skipped_with_a_note(tmp_path: Path) -> None:
    big = "x = 1\n" * 200_000 + "end = 0\n"  # 1.2 MB
    (tmp_path / "big.py").write_text(big)
    result = apply_edits([StrReplace("big.py", "end = 0", "end = (")], tmp_path, check_syntax="refuse")
    assert [(w.kind, w.path, w.message) for w in result.warnings] == [
        ("code_syntax_unchecked", "big.py", "big.py: not checked for syntax: over 1 MB")
    ]


def test_a_large_file_gets_the_note_if_it_is_utf8_only(tmp_path: Path) -> None:
    # The note names a file of a known language that is UTF-8 text: ASCII or not. One
    # that is not UTF-8 is skipped without a word, whatever its size.
    (tmp_path / "big.py").write_text("s = 'é'\n" * 150_000 + "end = 0\n", encoding="utf-8")
    result = apply_edits([StrReplace("big.py", "end = 0", "end = (")], tmp_path)
    assert [w.message for w in result.warnings] == ["big.py: not checked for syntax: over 1 MB"]
    (tmp_path / "latin.py").write_bytes(b"s = '\xe9'\n" * 150_000 + b"end = 0\n")
    result = apply_edits([StrReplace("latin.py", "end = 0", "end = (")], tmp_path, non_utf8="preserve")
    assert result.warnings == ()


def _run_python(code: str, cwd: Path, **env: str) -> str:
    import os

    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120,
        env={**os.environ, **env},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_language_without_its_grammar_is_skipped_with_a_note(tmp_path: Path) -> None:
    # A package of the grammar's name that cannot be imported stands in for one not installed.
    fake = tmp_path / "path" / "tree_sitter_go"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('not installed')\n")
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "m.go").write_text("package main\n")
    code = (
        "from apply_patch.edits import StrReplace, apply_edits\n"
        "r = apply_edits([StrReplace('m.go', 'package main', 'package main(')], 'root', check_syntax='refuse')\n"
        "print([(w.kind, w.message) for w in r.warnings])\n"
    )
    out = _run_python(code, tmp_path, PYTHONPATH=str(tmp_path / "path"))
    assert out == (
        "[('code_syntax_unchecked', 'm.go: not checked for syntax: no Go grammar "
        "(pip install tree-sitter-go)')]\n"
    )
    assert (tmp_path / "root" / "m.go").read_text() == "package main(\n"


def test_a_parse_past_its_deadline_is_skipped_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n" * 5000 + "end = 0\n")
    code = (
        "from apply_patch.apply.syntax import _grammars\n"
        "_grammars.DEADLINE_MS = _grammars.MS_PER_MB = 0  # every parse is late\n"
        "from apply_patch.edits import StrReplace, apply_edits\n"
        "r = apply_edits([StrReplace('a.py', 'end = 0', 'end = (')], '.', check_syntax='refuse')\n"
        "print([(w.kind, w.message) for w in r.warnings])\n"
    )
    out = _run_python(code, tmp_path)
    assert out == "[('code_syntax_unchecked', 'a.py: not checked for syntax: the Python parse took over 0 ms')]\n"


def test_files_past_the_patchs_time_budget_are_skipped_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 0\n")
    (tmp_path / "b.py").write_text("b = 0\n")
    code = (
        "from apply_patch.apply.syntax import _syntax\n"
        "_syntax.PATCH_SECONDS = -1  # the patch's time is up before the first file\n"
        "from apply_patch.edits import StrReplace, apply_edits\n"
        "edits = [StrReplace('a.py', 'a = 0', 'a = ('), StrReplace('b.py', 'b = 0', 'b = (')]\n"
        "r = apply_edits(edits, '.', check_syntax='refuse')\n"
        "print([w.message for w in r.warnings])\n"
    )
    out = _run_python(code, tmp_path)
    assert out == (
        '["a.py: not checked for syntax: the patch\'s check took over -1 s", '
        '"b.py: not checked for syntax: the patch\'s check took over -1 s"]\n'
    )


def test_every_language_a_file_can_have_has_its_grammar_row() -> None:
    # The names (`_languages`, asked by every plan) and the rows (`_grammars`) are two tables.
    from apply_patch.apply.syntax import _grammars, _languages

    named = set(_languages.EXTENSIONS.values()) | set(_languages.INTERPRETERS.values())
    assert named == set(_grammars.GRAMMARS)
