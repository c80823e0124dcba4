"""New files follow the repository's declared conventions (`.editorconfig`, `.gitattributes`):
line endings, final newline, charset; nearest folder first, never above the root; an explicit
option wins; `--codex` reads neither; existing files keep their own endings."""

import os
from pathlib import Path

import pytest

from _support import NOTHING_CHANGED, run_cli, snapshot
from apply_patch import CODEX, FilePolicyError, apply_patch
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, StrReplace, apply_edits


def _add(path: str, *lines: str) -> str:
    body = "".join(f"+{line}\n" for line in lines)
    return f"*** Begin Patch\n*** Add File: {path}\n{body}*** End Patch\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    return root


EDITORCONFIG = (
    "root = true\n\n[*]\nend_of_line = crlf\ninsert_final_newline = true\n\n"
    "[*.{md,rst}]\nend_of_line = lf\n\n[Makefile]\nend_of_line = unset\n"
)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("a.txt", b"one\r\ntwo\r\n"),
        ("docs/readme.md", b"one\ntwo\n"),  # a later section wins; a glob without / matches below
        ("Makefile", b"one\ntwo\n"),  # unset: as written
    ],
)
def test_add_file_follows_the_editorconfig(tmp_path: Path, path: str, expected: bytes) -> None:
    _tree(tmp_path, {".editorconfig": EDITORCONFIG})
    done = run_cli([_add(path, "one", "two")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / path).read_bytes() == expected


def test_create_file_gets_the_final_newline_and_endings(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": EDITORCONFIG})
    apply_edits([CreateFile("a.txt", "one\ntwo"), StrReplace("b.md", "", "x")], tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"one\r\ntwo\r\n"
    assert (tmp_path / "b.md").read_bytes() == b"x\n"


def test_insert_final_newline_false_takes_it_away(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*.txt]\ninsert_final_newline = false\n"})
    apply_edits([CreateFile("a.txt", "one\ntwo\n")], tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"one\ntwo"


def test_the_nearest_folder_wins_and_root_true_stops(tmp_path: Path) -> None:
    _tree(tmp_path, {
        ".editorconfig": "[*]\nend_of_line = crlf\ninsert_final_newline = true\n",
        "lf/.editorconfig": "[*]\nend_of_line = lf\n",
        "alone/.editorconfig": "root = true\n[*.py]\nend_of_line = cr\n",
    })  # fmt: skip
    apply_edits([
        CreateFile("top.txt", "a\nb"), CreateFile("lf/deep/x.txt", "a\nb"),
        CreateFile("alone/x.txt", "a\nb"), CreateFile("alone/x.py", "a\nb\n"),
    ], tmp_path)  # fmt: skip
    assert (tmp_path / "top.txt").read_bytes() == b"a\r\nb\r\n"
    assert (tmp_path / "lf/deep/x.txt").read_bytes() == b"a\nb\n"  # final newline from further up
    assert (tmp_path / "alone/x.txt").read_bytes() == b"a\nb"  # nothing above root = true
    assert (tmp_path / "alone/x.py").read_bytes() == b"a\rb\r"


def test_nothing_above_the_root_is_read(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*]\nend_of_line = crlf\n", ".gitattributes": "* eol=crlf\n"})
    root = tmp_path / "project"
    root.mkdir()
    apply_edits([CreateFile("a.txt", "a\nb\n")], root)
    assert (root / "a.txt").read_bytes() == b"a\nb\n"


def test_gitattributes(tmp_path: Path) -> None:
    _tree(tmp_path, {
        ".gitattributes": "* text=auto\n*.bat eol=crlf\n*.sh text eol=lf\n*.png binary\n/docs/*.txt eol=crlf\n",
        ".editorconfig": "[*]\nend_of_line = crlf\n",
        "sub/.gitattributes": "*.sh -text\n",
    })  # fmt: skip
    text = "a\r\nb\n"
    apply_edits([CreateFile(name, text) for name in ("x.bat", "x.sh", "x.png", "docs/y.txt", "other/docs/y.txt", "sub/x.sh", "x.c")], tmp_path)
    got = {name: (tmp_path / name).read_bytes() for name in ("x.bat", "x.sh", "x.png", "docs/y.txt", "other/docs/y.txt", "sub/x.sh", "x.c")}
    assert got == {
        "x.bat": b"a\r\nb\r\n",
        "x.sh": b"a\nb\n",
        "x.png": b"a\r\nb\n",  # binary: as written, whatever .editorconfig says in the same folder
        "docs/y.txt": b"a\r\nb\r\n",
        "other/docs/y.txt": b"a\r\nb\r\n",  # a pattern with / is anchored: .editorconfig's
        "sub/x.sh": b"a\r\nb\n",  # the nearest .gitattributes: -text
        "x.c": b"a\r\nb\r\n",  # text=auto declares no ending
    }


def test_the_charset_is_written(tmp_path: Path) -> None:
    _tree(tmp_path, {
        ".editorconfig": "[*.txt]\ncharset = latin1\n[*.bom]\ncharset = utf-8-bom\n[*.le]\ncharset = utf-16le\n",
        ".gitattributes": "*.u16 working-tree-encoding=UTF-16\n*.sj working-tree-encoding=SHIFT-JIS\n",
    })  # fmt: skip
    apply_edits([CreateFile(f"a.{ext}", "café\n") for ext in ("txt", "bom", "le", "u16")] + [CreateFile("a.sj", "日本\n")], tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"caf\xe9\n"
    assert (tmp_path / "a.bom").read_bytes() == b"\xef\xbb\xbfcaf\xc3\xa9\n"
    assert (tmp_path / "a.le").read_bytes() == "café\n".encode("utf-16-le")
    assert (tmp_path / "a.u16").read_bytes() == "café\n".encode("utf-16")
    assert (tmp_path / "a.sj").read_bytes() == "日本\n".encode("shift_jis")


def test_text_the_charset_cannot_hold_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*.txt]\ncharset = latin1\n"})
    before = snapshot(tmp_path)
    with pytest.raises(FilePolicyError) as caught:
        apply_edits([CreateFile("ok.txt", "fine\n"), CreateFile("a.txt", "price\n10 €, 5 ₤\n")], tmp_path)
    assert str(caught.value).startswith(
        "Failed to write a.txt: its encoding, latin-1 (charset in .editorconfig:2), cannot represent "
        "'€' (U+20AC) and '₤' (U+20A4), on line 2"
    )
    assert snapshot(tmp_path) == before
    done = run_cli([_add("b.txt", "€")], tmp_path)
    assert done.returncode == 1
    assert done.stderr.decode().endswith(NOTHING_CHANGED)
    assert snapshot(tmp_path) == before


def test_an_unknown_charset_is_refused(tmp_path: Path) -> None:
    _tree(tmp_path, {".gitattributes": "*.txt working-tree-encoding=NOPE-42\n"})
    before = snapshot(tmp_path)
    with pytest.raises(FilePolicyError) as caught:
        apply_edits([CreateFile("a.txt", "x\n")], tmp_path)
    assert "NOPE-42 (working-tree-encoding in .gitattributes:1), which is not a character encoding Python knows" in str(caught.value)
    assert snapshot(tmp_path) == before


def test_an_explicit_option_wins(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*]\nend_of_line = crlf\n"})
    done = run_cli(["--line-endings", "lf", _add("a.txt", "one")], tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "a.txt").read_bytes() == b"one\n"
    apply_edits([CreateFile("b.txt", "x")], tmp_path, final_newline="add", line_endings="lf")
    assert (tmp_path / "b.txt").read_bytes() == b"x\n"


def test_codex_and_ignore_read_neither(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*]\nend_of_line = crlf\n", ".gitattributes": "* eol=crlf\n"})
    done = run_cli(["--codex", _add("a.txt", "one")], tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "a.txt").read_bytes() == b"one\n"
    apply_patch(_add("b.txt", "one"), tmp_path, policy=CODEX)
    apply_edits([CreateFile("c.txt", "one\n")], tmp_path, conventions="ignore")
    assert (tmp_path / "b.txt").read_bytes() == (tmp_path / "c.txt").read_bytes() == b"one\n"


def test_existing_files_keep_their_endings(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*]\nend_of_line = crlf\ninsert_final_newline = true\n", "a.txt": "one\ntwo"})
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n+more\n*** End Patch\n"
    assert run_cli([patch], tmp_path).returncode == 0
    assert (tmp_path / "a.txt").read_bytes() == b"uno\nmore\ntwo"
    apply_edits([CreateFile("a.txt", "w\nx", overwrite=True)], tmp_path)  # Write over a file
    assert (tmp_path / "a.txt").read_bytes() == b"w\nx"


def test_a_convention_file_made_by_the_same_patch_counts(tmp_path: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Add File: .editorconfig\n+[*.txt]\n+end_of_line = crlf\n"
        "*** Add File: a.txt\n+one\n*** End Patch\n"
    )
    apply_patch(patch, tmp_path)
    assert (tmp_path / "a.txt").read_bytes() == b"one\r\n"


def test_convention_files_are_read_inside_the_root_only(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    _tree(outside, {"evil": "[*]\nend_of_line = crlf\n"})
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    os.symlink(outside / "evil", root / ".editorconfig")
    (root / "sub" / ".gitattributes").mkdir()  # a folder: not a convention file
    before = snapshot(tmp_path)
    result = apply_edits([CreateFile("sub/a.txt", "one\n")], root, dry_run=True)
    assert result.changes[0].after is not None and result.changes[0].after.data == b"one\n"
    assert snapshot(tmp_path) == before


def test_the_text_editor_create_follows_them(tmp_path: Path) -> None:
    _tree(tmp_path, {".editorconfig": "[*]\nend_of_line = crlf\ninsert_final_newline = true\n"})
    answer = TextEditor(tmp_path).run({"command": "create", "path": "a.py", "file_text": "x = 1"})
    assert answer["is_error"] is False
    assert (tmp_path / "a.py").read_bytes() == b"x = 1\r\n"


def test_the_plan_looks_for_the_files_conventions_for_reads() -> None:
    # The plan looks for them without importing _conventions (start-up time): the same names, in its order.
    from apply_patch.apply.planning import _conventions, _plan

    assert _plan._CONVENTION_FILES == (_conventions.GITATTRIBUTES, _conventions.EDITORCONFIG)


def test_without_a_convention_file_the_parsers_are_not_imported(tmp_path: Path) -> None:
    # A new file with nothing declared and nothing given is its text in UTF-8, as written;
    # one declaration on the way, and the conventions apply.
    code = (
        "import sys; from apply_patch import apply_patch\n"
        "apply_patch('*** Begin Patch\\n*** Add File: a/b.txt\\n+x\\n*** End Patch', '.')\n"
        "print('apply_patch.apply.planning._conventions' in sys.modules)\n"
    )
    import subprocess
    import sys

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
        return done.stdout.strip()

    assert run() == "False"
    assert (tmp_path / "a" / "b.txt").read_bytes() == b"x\n"
    (tmp_path / "a" / "b.txt").unlink()
    (tmp_path / ".editorconfig").write_text("[*]\nend_of_line = crlf\n")
    assert run() == "True"
    assert (tmp_path / "a" / "b.txt").read_bytes() == b"x\r\n"


def test_the_files_of_a_folder_share_its_convention_lookup(tmp_path: Path) -> None:
    # Issue 24: the convention files of a folder are looked for once, not once per file of it.
    from apply_patch.apply.planning import _plan

    for n in range(20):
        _tree(tmp_path, {f"a/b/f{n}.txt": "one\n"})
    patch = "*** Begin Patch\n" + "".join(
        f"*** Update File: a/b/f{n}.txt\n@@\n-one\n+uno\n" for n in range(20)
    ) + "*** End Patch\n"
    looked: list[str] = []
    original = _plan.Planner._convention_text

    def counted(self: _plan.Planner, relative: str) -> str | None:
        looked.append(relative)
        return original(self, relative)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_plan.Planner, "_convention_text", counted)
        apply_patch(patch, tmp_path)
    assert (tmp_path / "a/b/f19.txt").read_text() == "uno\n"
    # Each of the 6 places (a/b/, a/ and the root, two names each) once, for all 20 files.
    assert sorted(looked) == sorted(
        f"{folder}{name}" for folder in ("a/b/", "a/", "") for name in (".gitattributes", ".editorconfig")
    )


def test_a_convention_file_changed_by_the_patch_counts_for_the_files_after_it(tmp_path: Path) -> None:
    # The lookup of a folder is kept only while no convention file changes: an update of a
    # file after the patch added a declaration reads it in the encoding declared.
    _tree(tmp_path, {"d/a.txt": "one\n", ".keep": ""})
    (tmp_path / "d" / "b.txt").write_bytes("caf\u00e9\n".encode("cp1252"))
    patch = (
        "*** Begin Patch\n*** Update File: d/a.txt\n@@\n-one\n+uno\n"
        "*** Add File: d/.gitattributes\n+b.txt working-tree-encoding=cp1252\n"
        "*** Update File: d/b.txt\n@@\n-caf\u00e9\n+th\u00e9\n*** End Patch\n"
    )
    apply_patch(patch, tmp_path)
    assert (tmp_path / "d" / "b.txt").read_bytes() == "th\u00e9\n".encode("cp1252")
    assert (tmp_path / "d" / "a.txt").read_bytes() == b"uno\n"


def test_each_text_is_read_and_each_glob_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 24: a patch's files read the same convention texts; each is parsed once and each
    # section's glob compiled once, not once per file (0.3 ms a file with a real .editorconfig).
    from apply_patch.apply.planning import _conventions, _glob

    editorconfig = EDITORCONFIG + "\n[*.py]\nindent_size = 4\n"
    texts = {".editorconfig": editorconfig, ".gitattributes": "* text=auto\n*.bat eol=crlf\n"}
    monkeypatch.setattr(_conventions, "_editorconfigs", {})
    monkeypatch.setattr(_conventions, "_gitattributes_files", {})
    monkeypatch.setattr(_conventions, "_compiled", {})
    made: list[str] = []
    original = _glob.compiled

    def counted(glob: str, *, braces: bool) -> object:
        made.append(glob)
        return original(glob, braces=braces)

    monkeypatch.setattr(_conventions, "compiled", counted)
    first = [_conventions.conventions_for(f"src/first.{ext}", texts.get) for ext in ("txt", "md")]
    compiled = len(made)
    rest = [_conventions.conventions_for(f"src/f{n}.{ext}", texts.get) for n in range(30) for ext in ("txt", "md")]
    assert {(c.ending, c.final_newline) for c in first + rest} == {("\r\n", True), ("\n", True)}
    assert compiled > 0 and len(made) == compiled  # the globs, for the first files only
    # Each text read once, kept for the next file:
    assert len(_conventions._editorconfigs) == len(_conventions._gitattributes_files) == 1


def test_a_long_convention_text_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # What is kept between patches stays small: a text above _KEPT_CHARS is read each time.
    from apply_patch.apply.planning import _conventions

    monkeypatch.setattr(_conventions, "_editorconfigs", {})
    long = "[*]\nend_of_line = crlf\n" + "# padding\n" * (_conventions._KEPT_CHARS // 10)
    conventions = _conventions.conventions_for("a.txt", {".editorconfig": long}.get)
    assert conventions.ending == "\r\n" and _conventions._editorconfigs == {}


# ---------------------------------------------------------------- repository files are input (issue 33)


def _timed_add(root: Path, *names: str) -> tuple[float, str]:
    """The seconds the executable takes to add `names` (and its stderr); each added."""
    import time

    body = "".join(f"*** Add File: {name}\n+x\n" for name in names)
    start = time.monotonic()
    done = run_cli([f"*** Begin Patch\n{body}*** End Patch\n"], root)
    took = time.monotonic() - start
    assert done.returncode == 0, done.stderr.decode()
    return took, done.stderr.decode()


def test_a_backtracking_glob_takes_time_linear_in_the_name(tmp_path: Path) -> None:
    # Before: `*a*a*...*b` over a name of a's is matched by a backtracking expression, its
    # time exponential in the stars (minutes, the root's lock held).
    from apply_patch.apply.planning import _conventions

    star = "*a" * 24 + "*b"
    _tree(tmp_path, {
        ".gitattributes": f"{star} eol=crlf\n**/{star}/** eol=crlf\n*.txt eol=crlf\n",
        ".editorconfig": f"[{{{star},{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}{{a,a}}b}}]\nend_of_line = cr\n",
    })  # fmt: skip
    name = "a" * 60
    took, _ = _timed_add(tmp_path, f"{name}.md", f"{name}/{name}.md", "x.txt")
    assert took < 20  # seconds, on a loaded machine; before: far beyond
    assert (tmp_path / f"{name}.md").read_bytes() == b"x\n"
    assert (tmp_path / "x.txt").read_bytes() == b"x\r\n"
    # and what they match, they still match:
    texts = {".gitattributes": f"{star} eol=crlf\n", ".editorconfig": "[{a,b}{a,b}-x{1..20}]\nend_of_line = cr\n"}
    assert _conventions.conventions_for("d/" + "a" * 30 + "b", texts.get).ending == "\r\n"
    assert _conventions.conventions_for("d/ab-x19", texts.get).ending == "\r"
    assert _conventions.conventions_for("d/ab-x21", texts.get).ending is None


def test_braces_are_bounded_and_a_section_past_a_bound_is_ignored_with_a_warning(tmp_path: Path) -> None:
    # Before: `{1..9999}` sections, each expanded to an alternation of 10,000 numbers,
    # compiled: hundreds of MB. Now a range costs nothing, and a section past a bound
    # (braces nested too deep, a glob too long) is ignored with a one-line warning.
    import tracemalloc

    from apply_patch.apply.planning import _conventions

    ranges = "".join(f"[*{{1..9999}}{{1..9999}}{{1..9999}}.t{n}]\nend_of_line = crlf\n" for n in range(40))
    deep = "[" + "{a," * 12 + "x" + "}" * 12 + "]\nend_of_line = crlf\n"
    long = "[" + "a" * 2000 + "]\nend_of_line = crlf\n"
    text = "root = true\n" + ranges + deep + long + "[*.md]\nend_of_line = crlf\n"
    tracemalloc.start()
    conventions = _conventions.conventions_for("x/a9998.t39", {".editorconfig": text}.get)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert conventions.ending == "\r\n" and peak < 20 * 2**20, peak
    assert [i.message for i in conventions.ignored] == [
        ".editorconfig:82: section [{a,{a,{a,{a,{a,{a,{a,{a,{a,{a,{a,{a,x}}}...] ignored: its braces are nested more than 8 deep",
        f".editorconfig:84: section [{'a' * 40}...] ignored: it is longer than 1024 characters",
    ]
    (tmp_path / ".editorconfig").write_text(text)
    done = run_cli(["--json", "*** Begin Patch\n*** Add File: a.md\n+x\n*** End Patch\n"], tmp_path)
    assert done.returncode == 0 and (tmp_path / "a.md").read_bytes() == b"x\r\n"  # the edit goes on
    import json

    warnings = json.loads(done.stdout)["warnings"]
    assert [(w["kind"], w["path"], w["file_line"]) for w in warnings] == [
        ("conventions", ".editorconfig", 82),
        ("conventions", ".editorconfig", 84),
    ]


def test_the_bytes_read_of_a_convention_file_are_bounded(tmp_path: Path) -> None:
    # Before: a 1 MiB .gitattributes was read whole and parsed again for each new file
    # (1.6 s a file). Now its first 64 KiB are read, once; the rest is ignored, with a warning.
    lines = [f"*.x{n} eol=crlf\n" for n in range(80_000)]
    text = "".join(lines)
    assert len(text) > 2**20
    (tmp_path / ".gitattributes").write_text(text)
    before = snapshot(tmp_path)
    took, _ = _timed_add(tmp_path, *(f"d/f{n}.x1" for n in range(40)), "d/late.x79999")
    assert took < 20
    assert (tmp_path / "d" / "f0.x1").read_bytes() == b"x\r\n"
    assert (tmp_path / "d" / "late.x79999").read_bytes() == b"x\n"  # past the bound: not read
    import json

    done = run_cli(["--json", "*** Begin Patch\n*** Add File: e.x2\n+x\n*** End Patch\n"], tmp_path)
    (warning,) = json.loads(done.stdout)["warnings"]
    first_ignored = text.encode()[: 64 * 1024].rpartition(b"\n")[0].count(b"\n") + 2
    assert warning["kind"] == "conventions" and warning["message"] == (
        f".gitattributes: only its first 64 KiB were read (it has {len(text)} bytes): "
        f"what it says from line {first_ignored} on is ignored"
    )
    assert {k: v for k, v in snapshot(tmp_path).items() if k in before} == before
