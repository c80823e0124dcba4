"""`--codex` (`slips="refuse"`) reads a Codex patch as the reference reads it (issue 34:
"it must not add a leniency the reference lacks"; contract §3: its differences from the
reference are the safety rows of §5 and nothing else).

The default reads this project's additions to the envelope (docs/format.md): consecutive
`@@` lines, a Move with no chunk, an empty line in an Add File, `\\` lines, any heredoc or
a Markdown fence around the patch, a JSON string or a shell command holding it. Under
`--codex` each is refused with the message and line the reference gives (recorded from
codex-cli 0.169.0, run as `apply_patch`), the tree byte for byte unchanged; the
reference's own leniencies (its `<<EOF` heredoc, blank lines in a chunk, blank lines
after `*** End of File`) are still read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apply_patch import CODEX, DEFAULT, PatchSyntaxError, Policy, apply_patch

from _support import run_cli, snapshot

FILE = "class A:\n    def f(self):\n        return 1\n"
AFTER = "class A:\n    def f(self):\n        return 2\n"
CHANGE = "-        return 1\n+        return 2\n"
HEADER_LIST = "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"
UNEXPECTED = "Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)"
FIRST_LINE = "Invalid patch: The first line of the patch must be '*** Begin Patch'"


def _patch(*lines: str) -> str:
    return "\n".join(("*** Begin Patch", *lines, "*** End Patch")) + "\n"


ADD = ("*** Add File: n.txt", "+x")
ADDITIONS = {
    # name: (patch, the reference's first line of stderr, what the default writes to a.py / n.txt)
    "consecutive @@": (
        _patch("*** Update File: a.py", "@@ class A:", "@@     def f(self):", CHANGE.rstrip("\n")),
        f"Invalid patch hunk on line 4: Unexpected line found in update hunk: '@@     def f(self):'. {UNEXPECTED}",
    ),
    "bare @@ then @@ ctx": (
        _patch("*** Update File: a.py", "@@", "@@ class A:", CHANGE.rstrip("\n")),
        f"Invalid patch hunk on line 4: Unexpected line found in update hunk: '@@ class A:'. {UNEXPECTED}",
    ),
    "move with no chunk": (
        _patch("*** Update File: a.py", "*** Move to: b.py"),
        "Invalid patch hunk on line 2: Update file hunk for path 'a.py' is empty",
    ),
    "move with only End of File": (
        _patch("*** Update File: a.py", "*** Move to: b.py", "*** End of File"),
        "Invalid patch hunk on line 2: Update file hunk for path 'a.py' is empty",
    ),
    "empty line in an Add File": (
        _patch("*** Add File: n.txt", "+x", "", "+y"),
        f"Invalid patch hunk on line 4: '' is not a valid hunk header. {HEADER_LIST}",
    ),
    "backslash line in an Add File": (
        _patch(*ADD, "\\ No newline at end of file"),
        f"Invalid patch hunk on line 4: '\\ No newline at end of file' is not a valid hunk header. {HEADER_LIST}",
    ),
    "backslash line in a chunk": (
        _patch("*** Update File: a.py", "@@", CHANGE + "\\ No newline at end of file"),
        "Invalid patch hunk on line 6: Expected update hunk to start with a @@ context marker, got: "
        "'\\ No newline at end of file'",
    ),
    "backslash line amid a chunk": (
        _patch("*** Update File: a.py", "@@", "     def f(self):", "+        x = 0", "\\ Line ending: CRLF",
               "         return 1"),
        "Invalid patch hunk on line 6: Expected update hunk to start with a @@ context marker, got: "
        "'\\ Line ending: CRLF'",
    ),
    "Markdown fence": ("```\n" + _patch(*ADD) + "```\n", FIRST_LINE),
    "heredoc <<'PATCH'": ("<<'PATCH'\n" + _patch(*ADD) + "PATCH\n", FIRST_LINE),
    "heredoc <<-EOF": ("<<-EOF\n" + _patch(*ADD) + "EOF\n", FIRST_LINE),
    "heredoc << 'EOF'": ("<< 'EOF'\n" + _patch(*ADD) + "EOF\n", FIRST_LINE),
    "heredoc in a fence": ("```\n<<EOF\n" + _patch(*ADD) + "EOF\n```\n", FIRST_LINE),
    "JSON string": ('"' + _patch(*ADD).replace("\n", "\\n") + '"', FIRST_LINE),
    "shell command": ("apply_patch <<'EOF'\n" + _patch(*ADD) + "EOF\n", FIRST_LINE),
}  # fmt: skip


def _tree(root: Path) -> None:
    (root / "a.py").write_text(FILE)


ADDED = {"a.py": FILE, "n.txt": "x\n"}
READ_BY_THE_DEFAULT = {
    # name: every file after the default applied the addition
    "consecutive @@": {"a.py": AFTER},
    "bare @@ then @@ ctx": {"a.py": AFTER},
    "move with no chunk": {"b.py": FILE},
    "move with only End of File": {"b.py": FILE},
    "empty line in an Add File": {"a.py": FILE, "n.txt": "x\n\ny\n"},
    "backslash line in an Add File": {"a.py": FILE, "n.txt": "x"},
    "backslash line in a chunk": {"a.py": AFTER.removesuffix("\n")},
    "backslash line amid a chunk": {"a.py": "class A:\n    def f(self):\n        x = 0\r\n        return 1\n"},
    "Markdown fence": ADDED,
    "heredoc <<'PATCH'": ADDED,
    "heredoc <<-EOF": ADDED,
    "heredoc << 'EOF'": ADDED,
    "heredoc in a fence": ADDED,
    "JSON string": ADDED,
    "shell command": ADDED,
}


@pytest.mark.parametrize("name", sorted(ADDITIONS))
def test_the_default_reads_the_addition(tmp_path: Path, name: str) -> None:
    _tree(tmp_path)
    apply_patch(ADDITIONS[name][0], root=tmp_path, policy=DEFAULT)
    files = {path.name: path.read_bytes().decode() for path in tmp_path.iterdir()}
    assert files == READ_BY_THE_DEFAULT[name]


@pytest.mark.parametrize("policy", [CODEX, DEFAULT.with_options(slips="refuse")], ids=["codex", "slips-refuse"])
@pytest.mark.parametrize("name", sorted(ADDITIONS))
def test_the_reference_reading_refuses_it_with_the_reference_message(tmp_path: Path, name: str, policy: Policy) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    patch, message = ADDITIONS[name]
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(patch, root=tmp_path, policy=policy)
    assert raised.value.headline == message
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", sorted(ADDITIONS))
def test_codex_executable_prints_the_reference_message_and_changes_nothing(tmp_path: Path, name: str) -> None:
    _tree(tmp_path)
    before = snapshot(tmp_path)
    patch, message = ADDITIONS[name]
    done = run_cli(["--codex", patch], tmp_path)
    assert done.returncode == 1 and done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert lines[0] == message and lines[-1] == "The patch was not applied; no file was changed."
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("consecutive @@", "one `@@` line per chunk"),
        ("move with no chunk", "moves a file only with a chunk"),
        ("empty line in an Add File", "write `+` alone"),
        ("backslash line in a chunk", "reads no `\\` lines"),
    ],
)
def test_the_refusal_says_how_to_write_it_for_the_reference(tmp_path: Path, name: str, hint: str) -> None:
    _tree(tmp_path)
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(ADDITIONS[name][0], root=tmp_path, policy=CODEX)
    assert any(hint in h for h in raised.value.hints), raised.value.hints


def test_an_error_of_the_reference_before_an_addition_is_the_one_reported(tmp_path: Path) -> None:
    """The reference reports the first error it reads: a bad line inside the Update of a
    chunkless Move comes before the end of that Update, where the Move is found empty."""
    _tree(tmp_path)
    patch = _patch("*** Update File: a.py", "*** Move to: b.py", "*** Bogus")
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(patch, root=tmp_path, policy=CODEX)
    assert raised.value.headline == f"Invalid patch hunk on line 4: Unexpected line found in update hunk: '*** Bogus'. {UNEXPECTED}"


def test_an_error_of_the_reference_before_a_later_addition_is_the_one_reported(tmp_path: Path) -> None:
    _tree(tmp_path)
    patch = _patch("*** Bogus", "*** Update File: a.py", "@@ class A:", "@@     def f(self):", CHANGE.rstrip("\n"))
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(patch, root=tmp_path, policy=CODEX)
    assert raised.value.headline == f"Invalid patch hunk on line 2: '*** Bogus' is not a valid hunk header. {HEADER_LIST}"


def test_an_addition_before_an_error_of_the_reference_is_the_one_reported(tmp_path: Path) -> None:
    _tree(tmp_path)
    patch = _patch("*** Add File: n.txt", "+x", "", "+y", "*** Bogus")
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(patch, root=tmp_path, policy=CODEX)
    assert raised.value.line == 4 and "'' is not a valid hunk header" in raised.value.headline


def test_the_first_of_two_additions_is_reported(tmp_path: Path) -> None:
    _tree(tmp_path)
    patch = _patch("*** Update File: a.py", "*** Move to: b.py", "*** Add File: n.txt", "+x", "", "+y")
    with pytest.raises(PatchSyntaxError) as raised:
        apply_patch(patch, root=tmp_path, policy=CODEX)
    assert raised.value.line == 2  # found at line 4, the end of the Update, before line 6


READ_BY_THE_REFERENCE = {
    "heredoc <<EOF": "<<EOF\n" + _patch(*ADD) + "EOF\n",
    "heredoc <<'EOF'": "<<'EOF'\n" + _patch(*ADD) + "EOF\n",
    'heredoc <<"EOF"': '<<"EOF"\n' + _patch(*ADD) + "EOF\n",
    "heredoc ending xEOF": "<<EOF\n" + _patch(*ADD) + "xEOF\n",
    "blank line in a chunk": _patch("*** Update File: a.py", "@@", " class A:", "", "     def f(self):", CHANGE.rstrip("\n")),
    "blank lines after End of File": _patch("*** Update File: a.py", "@@", CHANGE + "*** End of File", "", "", *ADD),
    "first chunk without @@": _patch("*** Update File: a.py", CHANGE.rstrip("\n")),
    "whitespace around markers": "  *** Begin Patch \n*** Add File: n.txt\n+x\n*** End Patch  \n",
    "a pure addition after @@ ctx": _patch("*** Update File: a.py", "@@ class A:", "+# added"),
}


@pytest.mark.parametrize("name", sorted(READ_BY_THE_REFERENCE))
def test_what_the_reference_reads_codex_reads(tmp_path: Path, name: str) -> None:
    """Each of these applies with codex-cli 0.169.0; under `--codex` too."""
    (tmp_path / "a.py").write_text("class A:\n\n    def f(self):\n        return 1\n")
    done = run_cli(["--codex", READ_BY_THE_REFERENCE[name]], tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("Success. Updated the following files:\n")


def test_parse_patch_reads_as_the_reference_when_asked() -> None:
    """The library's reader: `reference=True` is `--codex`'s reading, the default reads the
    addition."""
    from apply_patch import Chunk, UpdateFile, parse_patch

    patch, message = ADDITIONS["consecutive @@"]
    update = parse_patch(patch).operations[0]
    assert isinstance(update, UpdateFile) and isinstance(chunk := update.chunks[0], Chunk)
    assert chunk.contexts == ("class A:", "    def f(self):")
    with pytest.raises(PatchSyntaxError) as raised:
        parse_patch(patch, reference=True)
    assert raised.value.headline == message
