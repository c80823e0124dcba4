"""benchmarks/robustness.py counts what it claims: the post-image byte for byte is correct,
a refusal refused, anything else wrong, another exception a crash; each mistake spoils
the model's text and not the truth; a tiny run on the real history adds up.

Nothing here depends on how well the engine does on a mistake (issue 20 changes that):
only clean edits, edits no engine can place, and crafted verdicts are asserted."""

import json
import os
import random
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from _support import SMALL_PY, benchmark_script
from apply_patch import PatchError

rb = benchmark_script("robustness")
FORMATS = ("codex", "str_replace", "search_replace", "unified_diff")
PRE = SMALL_PY
LINES = (
    (" ", "def area(width, height):"),
    (" ", '    """The area of a rectangle."""'),
    (" ", "    if width < 0:"),
    (" ", "        raise ValueError('negative width')"),
    (" ", ""),
    ("-", "    return width * height"),
    ("+", "    return abs(width * height)"),
    (" ", ""),
)
HUNK = rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", PRE, 3, LINES)
POST = (*PRE[:8], "    return abs(width * height)", *PRE[9:])


def make(mistake: str, n: int = 0, style: str = "spaces") -> Any:
    """The case `mistake` makes of HUNK (its `n`-th case, in `style`)."""
    hunk = rb.retabbed(HUNK) if style == "tabs" else HUNK
    case = rb.MAKERS[mistake](hunk, n, random.Random(0), style)
    assert case is not None
    return case


def model_old(case: Any) -> list[str]:
    """The old lines the model wrote."""
    return [text for tag, text in case.model if tag != "+"]


def test_the_synthetic_hunk_is_a_usable_one() -> None:
    assert rb.is_usable(HUNK)
    assert HUNK.post() == POST


def test_a_clean_edit_is_correct_in_every_format_and_for_the_baseline(tmp_path: Path) -> None:
    case = make("clean")
    for fmt in FORMATS:
        verdict = rb.attempt(case, fmt, tmp_path / fmt)
        assert (verdict.outcome, verdict.after) == ("correct", rb.file_text(POST).encode())
        assert (tmp_path / fmt / "src/geometry.py").read_bytes() == verdict.after
        assert rb.attempt_baseline(case, fmt).outcome == "correct"


def test_the_post_image_is_correct_anything_else_wrong_and_no_result_refused() -> None:
    case = make("clean")
    assert rb.judge(case, rb.file_text(POST).encode()).outcome == "correct"
    assert rb.judge(case, rb.file_text(PRE).encode()).outcome == "wrong"
    assert rb.judge(case, rb.file_text(POST).encode() + b"\n").outcome == "wrong"
    assert rb.judge(case, None).outcome == "refused"
    crlf = make("crlf")
    assert crlf.before() == rb.file_text(PRE).replace("\n", "\r\n").encode()
    assert rb.judge(crlf, rb.file_text(POST).encode()).outcome == "wrong"  # LF written into a CRLF file
    assert rb.judge(crlf, rb.file_text(POST).replace("\n", "\r\n").encode()).outcome == "correct"


def test_an_edit_that_cannot_tell_its_place_is_right_only_when_refused() -> None:
    case = make("twice", 0)  # the copy below: the intended place is the first
    assert case.expected is None and rb.whole_line_count(case.pre, HUNK.old) == 2
    assert rb.judge(case, None).outcome == "correct"
    lucky = rb.judge(case, case.bytes_of(case.intended))
    assert (lucky.outcome, lucky.lucky) == ("wrong", True)
    other = (*PRE, *HUNK.old[:5], "    return abs(width * height)", "")
    unlucky = rb.judge(case, rb.file_text(other).encode())
    assert (unlucky.outcome, unlucky.lucky) == ("wrong", False)
    for fmt in FORMATS:  # the old text is there twice: the baseline refuses, rightly
        expected = "refused" if fmt == "unified_diff" else "correct"
        assert rb.attempt_baseline(case, fmt).outcome == expected
    # A unified diff's line numbers name the intended place: there, applying it is right.
    assert rb.judge(case, case.bytes_of(case.intended), fmt="unified_diff").outcome == "correct"
    assert rb.judge(case, rb.file_text(other).encode(), fmt="unified_diff").outcome == "wrong"
    assert rb.judge(case, None, fmt="unified_diff").outcome == "refused"
    above = make("twice", 1)
    assert above.start == HUNK.start + len(HUNK.old) and above.pre[: len(HUNK.old)] == tuple(HUNK.old)


def test_an_elision_with_two_readings_is_right_only_when_refused_in_every_format() -> None:
    # Both readings start where the diff's numbers say (the lines before the marker are
    # the same in both): the numbers cannot tell them apart, so a unified diff too is
    # right only when refused (docs/edit-formats.md: numbers name where a reading starts).
    case = make("elided-twice", 1)
    for fmt in FORMATS:
        assert rb.judge(case, None, fmt=fmt).outcome == "correct"
        lucky = rb.judge(case, case.bytes_of(case.intended), fmt=fmt)
        assert (lucky.outcome, lucky.lucky) == ("wrong", True)


NOWHERE = ((" ", "nothing like this"), ("-", "in the file"), ("+", "x"))


def test_a_result_other_than_the_post_image_is_wrong_and_an_edit_found_nowhere_refused(
    tmp_path: Path,
) -> None:
    claimed = replace(make("clean"), expected=PRE)  # the engine's right answer is not this
    nowhere = replace(make("clean"), model=NOWHERE)
    for fmt in FORMATS:
        assert rb.attempt(claimed, fmt, tmp_path / "claimed" / fmt).outcome == "wrong"
        verdict = rb.attempt(nowhere, fmt, tmp_path / "nowhere" / fmt)
        assert (verdict.outcome, verdict.after) == ("refused", None)
        assert (tmp_path / "nowhere" / fmt / "src/geometry.py").read_bytes() == nowhere.before()
        assert rb.attempt_baseline(nowhere, fmt).outcome == "refused"


def test_other_exceptions_are_crashes_and_an_error_that_changed_the_file_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = make("clean")

    def crash(case: Any, fmt: str, root: Path) -> int:
        raise RuntimeError("boom")

    def half_done(case: Any, fmt: str, root: Path) -> int:
        (root / "src/geometry.py").write_text("half\n")
        raise PatchError("failed after writing")

    monkeypatch.setattr(rb, "apply_format", crash)
    assert rb.attempt(case, "codex", tmp_path / "a").outcome == "crashed"
    monkeypatch.setattr(rb, "apply_format", half_done)
    assert rb.attempt(case, "codex", tmp_path / "b").outcome == "wrong"


def test_each_mistake_spoils_the_model_text_and_keeps_the_truth() -> None:
    clean_post = make("clean").expected
    deeper = make("indent-shifted", 0)
    assert model_old(deeper)[0] == "    def area(width, height):" and deeper.expected == clean_post
    shallower = make("indent-shifted", 1)  # "def area" has no indentation to lose
    assert shallower.variant == "deeper"
    tabs = make("tabs-for-spaces")
    assert model_old(tabs)[3] == "\t\traise ValueError('negative width')" and tabs.expected == clean_post
    spaces = make("spaces-for-tabs")
    assert spaces.pre[6] == "\t\traise ValueError('negative width')"
    assert model_old(spaces)[3] == "        raise ValueError('negative width')"
    assert spaces.expected[8] == "\treturn abs(width * height)"
    trailing = make("trailing-ws-lost")
    assert trailing.pre[3] == "def area(width, height):  " and trailing.pre[9] == "    "
    assert model_old(trailing)[0] == "def area(width, height):"
    assert trailing.expected[3] == "def area(width, height):  "
    blank = make("blank-dropped")
    assert len(model_old(blank)) == len(HUNK.old) - 1 and blank.expected == clean_post
    counted = make("blank-dropped-counted")  # the same model text, the header the edit meant's
    assert counted.model == blank.model and counted.counts == (len(HUNK.old), len(HUNK.new))
    assert "@@ -4,7 +4,7 @@" in rb.unified_diff_text(counted) and "@@ -4,6 +4,6 @@" in rb.unified_diff_text(blank)
    numbers = make("line-numbers", 0)
    assert model_old(numbers)[:2] == ["4: def area(width, height):", '5:     """The area of a rectangle."""']
    assert ("+", "    return abs(width * height)") in numbers.model
    cat = make("line-numbers", 1)
    assert model_old(cat)[0] == "     4\tdef area(width, height):"
    elided = make("elided-middle", 1)
    assert model_old(elided) == [
        "def area(width, height):", "    # ... existing code ...", "    return width * height", ""
    ]
    assert elided.expected == clean_post
    quotes = make("typographic-quotes")
    assert model_old(quotes)[3] == "        raise ValueError(‘negative width’)"
    assert quotes.expected == clean_post
    stale = make("stale-context")
    assert sum(a != b for a, b in zip(model_old(stale), HUNK.old)) == 1 and stale.expected == clean_post
    assert make("clean", style="tabs").expected[8] == "\treturn abs(width * height)"


def test_the_mistakes_of_issue_34_spoil_the_model_text_and_keep_the_truth() -> None:
    clean_post = make("clean").expected
    twice = make("elided-twice", 1)  # the lines after the marker copied at the file's end
    assert model_old(twice) == model_old(make("elided-middle", 1))
    assert twice.pre == (*PRE, "    return width * height", "") and twice.expected is None
    assert twice.intended == (*clean_post, "    return width * height", "")
    added = make("blank-added")
    assert len(model_old(added)) == len(HUNK.old) + 1 and added.expected == clean_post
    assert "" in model_old(added)[1:4] and "" not in PRE[3:7]
    other = make("added-other-unit")
    assert model_old(other) == HUNK.old and ("+", "\treturn abs(width * height)") in other.model
    assert other.expected == clean_post
    spaces = make("added-other-unit", 3, "tabs")
    assert ("+", "    return abs(width * height)") in spaces.model and spaces.expected[8] == "\treturn abs(width * height)"
    # A hunk with a run of two blank lines beside its change, adding a blank line of its own.
    lines = (
        (" ", "import os"), (" ", ""), (" ", ""), ("+", "import sys"), ("+", ""),
        (" ", "def area(width, height):"),
    )
    pre = ("import os", "", "", "def area(width, height):", "    return 1")
    hunk = rb.Hunk("0000000000:src/b.py@1", "src/b.py", pre, 0, lines)
    halved = rb.MAKERS["blank-halved"](hunk, 0, random.Random(0), "spaces")
    assert model_old(halved) == ["import os", "", "def area(width, height):"]
    assert halved.expected == ("import os", "", "", "import sys", "", "def area(width, height):", "    return 1")
    blank = rb.MAKERS["trailing-ws-blank"](hunk, 0, random.Random(0), "spaces")
    assert blank.pre[1:3] == ("    ", "    ") and model_old(blank) == ["import os", "", "", "def area(width, height):"]
    assert blank.expected is not None and blank.expected[4] == ""  # the model's own blank line, as sent
    assert rb.MAKERS["trailing-ws-blank"](HUNK, 0, random.Random(0), "spaces") is None  # adds no blank line


def test_a_hunk_that_makes_the_mistakes_change_itself_is_no_case_of_it() -> None:
    # Found on google/gson's and tj/commander.js' histories: a commit whose editor trimmed
    # `} else {   ` (or a blank line's indentation) made the trailing-whitespace cases
    # "wrong" in str_replace, where the model's copy, trimmed too, shows the line as kept;
    # on rust-lang/book's, a commit that made straight quotes typographic did the same.
    trims = (*LINES[:5], ("-", "    return width * height  "), ("+", "    return width * height"), LINES[7])
    pre = (*PRE[:8], "    return width * height  ", *PRE[9:])
    trimming = rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", pre, 3, trims)
    assert rb.erases_a_change(trimming, str.rstrip) and not rb.erases_a_change(HUNK, str.rstrip)
    assert rb.MAKERS["trailing-ws-lost"](trimming, 0, random.Random(0), "spaces") is None
    blank = ((" ", "import os"), ("-", ""), ("+", ""), ("+", "import sys"), ("+", ""), (" ", "def area(width, height):"))
    hunk = rb.Hunk("0000000000:src/b.py@1", "src/b.py", ("import os", "", "def area(width, height):"), 0, blank)
    assert rb.MAKERS["trailing-ws-blank"](hunk, 0, random.Random(0), "spaces") is None  # its blank line: "    " -> ""
    adds = (*LINES[:5], ("-", "    return width * height"), ("+", "    return width * height  "), LINES[7])
    assert not rb.erases_a_change(rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", PRE, 3, adds), str.rstrip)
    quotes = (*LINES[:3], ("-", "        raise ValueError('negative width')"),
              ("+", "        raise ValueError(‘negative width’)"), *LINES[4:])  # fmt: skip
    curling = rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", PRE, 3, quotes)
    assert rb.erases_a_change(curling, rb.curly) and not rb.erases_a_change(HUNK, rb.curly)
    assert rb.MAKERS["typographic-quotes"](curling, 0, random.Random(0), "spaces") is None
    assert rb.MAKERS["typographic-quotes"](HUNK, 0, random.Random(0), "spaces") is not None
    # gin-gonic/gin: a commit that turned a commented-out block's spaces into tabs.
    unit = (*LINES[:5], ("-", "    return width * height"), ("+", "\treturn width * height"), LINES[7])
    tabbing = rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", PRE, 3, unit)
    assert rb.MAKERS["tabs-for-spaces"](tabbing, 0, random.Random(0), "spaces") is None
    assert rb.MAKERS["tabs-for-spaces"](HUNK, 0, random.Random(0), "spaces") is not None


def test_a_tab_is_one_level_of_the_files_own_width() -> None:
    # On two-space projects (tj/commander.js, rack, axios, sinatra) a tab stood for four
    # spaces: two levels. The model's lines were then no model's (a tab for two levels,
    # a tab and two spaces for three), and the engine, which takes a tab for a level of
    # the file, was "wrong" on most of their added-other-unit cases.
    assert rb.level_width(PRE) == 4
    assert rb.level_width(("def f():", "  if x:", "    return 1", "  return 2")) == 2
    assert rb.level_width(("f() {", "        g();", "                h();", "        }")) == 8
    assert rb.level_width(("\tgo()", "x")) == 4  # (none told: four)
    def halved(line: str) -> str:
        text = line.lstrip(" ")
        return " " * ((len(line) - len(text)) // 2) + text

    two = tuple(map(halved, PRE))
    lines = tuple((tag, halved(text)) for tag, text in LINES)
    hunk = rb.Hunk("0000000000:src/geometry.py@4", "src/geometry.py", two, 3, lines, rb.level_width(two))
    case = rb.MAKERS["added-other-unit"](hunk, 0, random.Random(0), "spaces")
    assert case is not None and ("+", "\treturn abs(width * height)") in case.model
    tabs = rb.retabbed(hunk)
    assert "\t\traise ValueError('negative width')" in tabs.pre and tabs.width == 2
    spaced = rb.MAKERS["added-other-unit"](tabs, 0, random.Random(0), "tabs")
    assert spaced is not None and ("+", "  return abs(width * height)") in spaced.model


def test_the_formats_carry_the_model_lines() -> None:
    case = make("clean")
    old, new = rb.old_new(case, "str_replace")
    assert old == "\n".join(HUNK.old) and new == "\n".join(HUNK.new)
    assert rb.old_new(case, "search_replace") == (old + "\n", new + "\n")
    assert "@@ -4,7 +4,7 @@\n def area(width, height):\n" in rb.unified_diff_text(case)
    assert "*** Update File: src/geometry.py\n@@\n def area(width, height):\n" in rb.codex_text(case)


def test_a_run_adds_up_and_prints_every_cell(tmp_path: Path) -> None:
    nowhere = replace(make("stale-context"), model=NOWHERE)
    run = rb.run_cases([make("clean"), make("twice"), nowhere])
    assert run.cell("codex", "clean").ours["correct"] == 1
    assert run.cell("str_replace", "stale-context").ours["refused"] == 1
    assert run.total().total == 12 and sum(run.total().exact.values()) == 12
    assert run.total(mistake="clean").ours == {"correct": 4, "refused": 0, "wrong": 0, "crashed": 0}
    assert run.total(mistake="twice").exact["correct"] == 3  # a unified diff's numbers name the place
    table = rb.table(run)
    row = "str_replace    clean                     1 |       1       0      0       0 |       1       0      0"
    assert row in table.splitlines()
    cells = json.loads(rb.as_json(run, {}))["cells"]
    assert len(cells) == 12 and {c["n"] for c in cells} == {1}


def test_a_tiny_run_on_the_history(capsys: pytest.CaptureFixture[str]) -> None:
    if not rb.history_hunks():
        pytest.skip("no git history up to the pinned commit (a tarball or a shallow clone)")
    assert rb.main(["--limit", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cases = len(rb.MISTAKES)
    attempts = sum(len(rb.ONLY_IN.get(m, rb.FORMATS)) for m in rb.MISTAKES)  # one case each
    assert out["cases"] == cases and len(out["cells"]) == attempts
    assert sum(sum(c["ours"].values()) for c in out["cells"]) == attempts
    for cell in out["cells"]:
        if cell["mistake"] == "clean":
            assert cell["ours"]["correct"] == cell["exact"]["correct"] == 1
        if cell["mistake"] == "twice":  # the baseline refuses: right, but for a diff's numbered place
            assert cell["exact"]["correct" if cell["format"] != "unified_diff" else "refused"] == 1



def _git(root: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root), "PATH": os.environ["PATH"]}  # fmt: skip
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def test_the_history_of_another_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `--repo` and `--paths`: the oracle over another project's history (how the defects of
    # issue 34's last stop were found: on requests', click's and cobra's), to its HEAD.
    repo = tmp_path / "other"
    repo.mkdir()
    _git(repo, "init", "-q")
    body = "".join(f"\tline{i} := {i}\n" for i in range(12))
    (repo / "m.go").write_text(f"package m\n\nfunc f() {{\n{body}}}\n")
    (repo / "m.py").write_text("x = 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    (repo / "m.go").write_text(f"package m\n\nfunc f() {{\n{body.replace('line5 := 5', 'line5 := 50')}}}\n")
    (repo / "m.py").write_text("x = 2\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "two")
    hunks = rb.history_hunks("HEAD", root=repo, pathspecs=("*.go",))
    assert [(h.path, h.start) for h in hunks] == [("m.go", 5)]
    assert rb.main(["--repo", str(repo), "--paths", "*.go", "--mistakes", "clean", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rev"] == "HEAD" and out["usable_hunks"] == 1 and out["cases"] == 1
    assert {c["format"]: c["ours"]["correct"] for c in out["cells"]} == dict.fromkeys(rb.FORMATS, 1)
