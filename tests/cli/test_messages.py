"""Messages that say what went wrong and what to do next (issue 21), from the outside:
the installed executable in a temporary folder. Every refusal leaves the tree byte for
byte as it was."""

import json
from pathlib import Path

import pytest

from _support import run_cli, snapshot

A_TXT = "one\ntwo\n"
CODEX = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** End Patch\n"
UNIFIED = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
BLOCKS = "a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n"
HINTS = {
    "codex": "Hint: The input is a Codex patch (it has a '*** Begin Patch' line): apply it with "
    "--format codex (the default) or --format auto.\n",
    "unified-diff": "Hint: The input is a unified diff ('---'/'+++' and '@@ -1,2 +1,2 @@' lines): "
    "apply it as it is with --format unified-diff (or --format auto).\n",
    "search-replace": "Hint: The input holds SEARCH/REPLACE blocks ('<<<<<<< SEARCH' lines): "
    "apply them with --format search-replace (or --format auto).\n",
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text(A_TXT)
    return tmp_path


def _refused(args: list[str], root: Path, stdin: str = "", code: int = 1) -> str:
    """Run; check the exit code, that stdout is empty and nothing changed; return stderr."""
    before = snapshot(root)
    result = run_cli(args, root, stdin=stdin.encode())
    assert (result.returncode, result.stdout) == (code, b""), result.stderr
    assert snapshot(root) == before
    return result.stderr.decode()


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["--dryrun", CODEX], "--dry-run"),
        (["--josn", CODEX], "--json"),
        (["--add-exsting", "overwrite", CODEX], "--add-existing"),
        (["extract", "--dryrun", "log"], "--dry-run"),
        (["diff", "--contxt", "3", "a", "b"], "--context"),
        (["convert", "--skip-binaries"], "--skip-binary"),
    ],
    ids=["dry-run", "json", "policy", "extract", "diff", "convert"],
)
def test_a_misspelt_option_gets_did_you_mean(args: list[str], meant: str, tree: Path) -> None:
    said = _refused(args, tree, code=2)
    assert said.splitlines()[-1].endswith(f"(did you mean {meant}?)"), said


def test_options_after_the_patch_are_told_to_go_first(tree: Path) -> None:
    said = _refused([CODEX, "-C", "sub", "--json"], tree, code=2)
    assert said == (
        "Error: apply_patch accepts exactly one argument.\n"
        "Options go before the patch: apply_patch -C sub --json 'PATCH'.\n"
    )


def test_a_misspelt_command_is_named(tree: Path) -> None:
    said = _refused(["extarct", "session.log"], tree, code=2)
    assert said == (
        "Error: apply_patch accepts exactly one argument.\n"
        "'extarct' is no command: did you mean apply_patch extract?\n"
    )


@pytest.mark.parametrize(
    ("args", "text", "seen"),
    [
        ([], UNIFIED, "unified-diff"),
        ([], BLOCKS, "search-replace"),
        (["--format", "search-replace"], CODEX, "codex"),
        (["--format", "unified-diff"], CODEX, "codex"),
        (["--format", "search-replace"], UNIFIED, "unified-diff"),
    ],
    ids=["unified-as-codex", "blocks-as-codex", "codex-as-blocks", "codex-as-unified", "unified-as-blocks"],
)
def test_input_in_another_format_names_the_option(args: list[str], text: str, seen: str, tree: Path) -> None:
    said = _refused(args, tree, text)
    assert HINTS[seen] in said
    assert said.index(HINTS[seen]) == said.index("Hint: ")  # the first hint: the quickest way out
    as_json = json.loads(run_cli([*args, "--json"], tree, stdin=text.encode()).stdout)
    assert as_json["error"]["hints"][0] == HINTS[seen].removeprefix("Hint: ").rstrip("\n")
    # Said once: the library's own guess at the format ("This looks like a unified diff",
    # with another example header) is left out where the option is named.
    assert said.count("unified diff") <= 1 and said.count("Hint: ") == 1, said
    # Following the hint applies it.
    result = run_cli(["--format", seen], tree, stdin=text.encode())
    assert result.returncode == 0, result.stderr
    assert (tree / "a.txt").read_text() == "one\n2\n"


def test_auto_and_a_broken_patch_of_the_right_format_get_no_format_hint(tree: Path) -> None:
    said = _refused(["--format", "auto"], tree, CODEX.replace("*** End Patch\n", ""))
    assert "--format" not in said
    said = _refused([], tree, "*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch\n")
    assert "--format" not in said


@pytest.mark.parametrize("args", [[], ["--codex"]], ids=["default", "codex"])
def test_a_unified_hunk_header_in_a_patch_is_named_as_such(args: list[str], tree: Path) -> None:
    said = _refused(args, tree, CODEX.replace("@@\n", "@@ -1,2 +1,2 @@\n"))
    assert said.startswith("'@@ -1,2 +1,2 @@' is a unified diff's hunk header, not an @@ line of this format")
    assert "Failed to find context" not in said
    assert "Hint: Write '@@' alone in its place" in said


def test_a_file_that_is_not_utf8_names_the_option_that_edits_it(tree: Path) -> None:
    """Issue 27: its ASCII lines are edited; a line with other bytes needs its encoding, which
    the refusal asks for."""
    (tree / "a.txt").write_bytes(b"caf\xe9\ntwo\n")
    cafe = "*** Begin Patch\n*** Update File: a.txt\n@@\n-caf\u00e9\n+tea\n*** End Patch\n"
    said = _refused([], tree, cafe)
    assert said.startswith(
        "Failed to update a.txt: it is not UTF-8 and its encoding is neither given nor declared, and the "
        "text the edit looks for is not ASCII: give its encoding with --encoding NAME"
    )  # issue 34: not "Failed to find expected lines"
    assert "Give its encoding: --encoding NAME" in said
    result = run_cli(["--encoding", "latin-1"], tree, stdin=cafe.encode())
    assert result.returncode == 0 and (tree / "a.txt").read_bytes() == b"tea\ntwo\n"
    (tree / "a.txt").write_bytes(b"caf\xe9\ntwo\n")
    result = run_cli([], tree, stdin=CODEX.replace(" one\n", "").encode())
    assert result.returncode == 0 and (tree / "a.txt").read_bytes() == b"caf\xe9\n2\n"


def test_a_binary_file_names_the_option_that_edits_it(tree: Path) -> None:
    (tree / "a.txt").write_bytes(b"one\0\ntwo\n")
    said = _refused([], tree, CODEX.replace(" one\n", ""))
    assert "Hint: To edit it anyway, as text with its NUL bytes: --binary allow" in said


def test_empty_stdin_says_what_is_missing(tree: Path) -> None:
    said = _refused([], tree, code=2)
    assert said.startswith("Error: no patch: there is no PATCH argument, and stdin is empty.\n")
    assert said.endswith("Run 'apply_patch --help' for the options, examples and exit codes.\n")


def test_help_has_examples_and_exit_codes(tree: Path) -> None:
    text = run_cli(["--help"], tree).stdout.decode()
    examples = text[text.index("\nexamples:\n") : text.index("\nexit codes:\n")]
    assert "apply_patch --dry-run --diff < change.patch" in examples
    assert "--format unified-diff" in examples
    codes = text[text.index("\nexit codes:\n") :]
    for line in ("  0    the patch was applied", "  1    the patch was not applied", "  2    usage error",
                 "  130  interrupted"):  # fmt: skip
        assert line in codes


def test_dash_capital_v_is_the_version(tree: Path) -> None:
    short, long = run_cli(["-V"], tree), run_cli(["--version"], tree)
    assert (short.returncode, short.stdout) == (0, long.stdout)
    assert short.stdout.startswith(b"apply_patch ")


SESSION = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: new.txt\n+new\n*** End Patch\nEOF\n"


def test_extract_dry_run_json_does_not_say_applied(tree: Path) -> None:
    (tree / "session.log").write_text(SESSION)
    before = snapshot(tree)
    result = run_cli(["extract", "--apply", "--dry-run", "--json", "session.log"], tree)
    assert result.returncode == 0, result.stderr
    (document,) = json.loads(result.stdout)
    assert (document["status"], document["dry_run"]) == ("would apply", True)
    assert snapshot(tree) == before
    applied = run_cli(["extract", "--apply", "--json", "session.log"], tree)
    assert [d["status"] for d in json.loads(applied.stdout)] == ["applied"]


def test_extract_dry_run_that_stops_does_not_say_applied(tree: Path) -> None:
    broken = SESSION.replace("*** Add File: new.txt\n+new", "*** Delete File: missing.txt")
    (tree / "session.log").write_text(SESSION + broken)
    before = snapshot(tree)
    result = run_cli(["extract", "--apply", "--dry-run", "session.log"], tree)
    assert result.returncode == 1 and snapshot(tree) == before
    assert result.stdout.decode().endswith("Dry run, nothing was written. The patch applies and would update:\nA new.txt\n")
    assert result.stderr.decode().endswith(
        "Stopped at patch 2 of 2: 1 would apply, 1 would not be applied (dry run: nothing was written).\n"
    )


TWO_PARTS = "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-one\n+two\n"


@pytest.mark.parametrize("strip", ["-p2", "-p5"])
def test_convert_refuses_a_strip_that_leaves_no_name(strip: str, tree: Path) -> None:
    said = _refused(["convert", strip], tree, TWO_PARTS)
    count = strip[2:]
    assert said == (
        f"Error: Invalid unified diff on line 1: removing {count} leading path components (-p{count}) "
        "from 'a/x.txt' leaves no file name: it has 2 components (use -p1 or less)\n"
    )


def test_convert_keeps_a_one_component_path_with_the_default_strip(tree: Path) -> None:
    result = run_cli(["convert"], tree, stdin=TWO_PARTS.replace("a/", "").replace("b/", "").encode())
    assert result.returncode == 0 and b"*** Update File: x.txt\n" in result.stdout
    said = _refused(["convert", "-p", "-1"], tree, TWO_PARTS, code=2)
    assert "must be 0 or more" in said
