"""Chat replies: prose around patches in every format, applied by the installed
executable (the default mode, `--format auto`) and by `apply_reply`, as a person pastes
them. A reply's patches are one commit: any failure leaves the tree byte for byte as it was.
"""

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from _support import run_cli, snapshot
from apply_patch import CODEX, PatchError, apply_patch, apply_reply

FENCE = "```"
GREET = {"greet.py": "def greet(name):\n    return 'Hello ' + name\n"}
HI = {"greet.py": "def greet(name):\n    return 'Hi ' + name\n"}
CODEX_PATCH = """*** Begin Patch
*** Update File: greet.py
@@ def greet(name):
-    return 'Hello ' + name
+    return 'Hi ' + name
*** End Patch"""
DIFF = """--- a/greet.py
+++ b/greet.py
@@ -1,2 +1,2 @@
 def greet(name):
-    return 'Hello ' + name
+    return 'Hi ' + name
"""
BLOCKS = """greet.py
<<<<<<< SEARCH
    return 'Hello ' + name
=======
    return 'Hi ' + name
>>>>>>> REPLACE"""
ADD_NOTES = "*** Begin Patch\n*** Add File: notes.md\n+# Notes\n*** End Patch"
UPDATE_NOTES = "*** Begin Patch\n*** Update File: notes.md\n@@\n # Notes\n+More.\n*** End Patch"
MISSING = "*** Begin Patch\n*** Update File: greet.py\n@@\n-    return 'Bye ' + name\n+    return 'Yo ' + name\n*** End Patch"


@dataclass(frozen=True)
class Reply:
    """A reply, the files before, the options, and the files after (None: unchanged and
    exit 1, with `said` in stderr)."""

    name: str
    text: str
    after: dict[str, str] | None
    args: tuple[str, ...] = ()
    said: str = ""
    before: dict[str, str] = field(default_factory=lambda: dict(GREET))


def _fenced(body: str, info: str = "") -> str:
    return f"{FENCE}{info}\n{body}\n{FENCE}"


REPLIES = [
    Reply("fence without info, prose around", f"Sure! Here's the change:\n\n{_fenced(CODEX_PATCH)}\n\nThis says Hi now.\n", HI),
    *[
        Reply(f"fence {info}, prose around", f"Here you go:\n{_fenced(CODEX_PATCH, info)}\nLet me know!\n", HI)
        for info in ("diff", "patch", "text", "apply_patch", "plaintext")
    ],
    Reply("tilde fence", f"Change:\n~~~\n{CODEX_PATCH}\n~~~\nDone.", HI),
    Reply("no fence, prose around", f"Here's the change:\n\n{CODEX_PATCH}\n\nDone, it says Hi.\n", HI),
    Reply("prose only after the patch", f"{CODEX_PATCH}\n\nThis changes the greeting.\n", HI),
    Reply("prose after a fenced patch", f"{_fenced(CODEX_PATCH)}\nThat is all.\n", HI),
    Reply("CRLF reply", f"Here:\r\n\r\n{_fenced(CODEX_PATCH)}\r\n\r\nDone.\r\n".replace("\n", "\r\n").replace("\r\r", "\r"), HI),
    Reply(
        "a heredoc in a bash fence",
        f"Run this:\n\n{_fenced(chr(10).join(['apply_patch <<' + repr('EOF'), CODEX_PATCH, 'EOF']), 'bash')}\n",
        HI,
    ),
    Reply(
        "a fence in a Markdown list item, indented as a whole",
        "Steps:\n\n1. Apply this:\n\n" + "\n".join("   " + line for line in _fenced(CODEX_PATCH, "diff").split("\n")) + "\n\n2. Run the tests.\n",
        HI,
    ),
    Reply(
        "four backticks around a patch adding a file with a fence in it",
        "Here:\n````markdown\n*** Begin Patch\n*** Add File: doc.md\n+```python\n+x = 1\n+```\n*** End Patch\n````\nok",
        {**GREET, "doc.md": "```python\nx = 1\n```\n"},
    ),
    Reply(
        "two patches, the second edits what the first added",
        f"First add the notes:\n{_fenced(ADD_NOTES)}\nThen extend them:\n{_fenced(UPDATE_NOTES)}\n",
        {**GREET, "notes.md": "# Notes\nMore.\n"},
    ),
    Reply(
        "the second patch fails: the first is not applied either",
        f"Add notes:\n{_fenced(ADD_NOTES)}\nAnd fix greet:\n{_fenced(MISSING)}\n",
        None,
        said="This is the patch at line 10 of the reply (2 of 2 found in it",
    ),
    Reply(
        "an incomplete patch says so",
        "Here's the change:\n\n*** Begin Patch\n*** Update File: greet.py\n@@\n-    return 'Hello ' + name\n",
        None,
        said="*** End Patch",
    ),
    Reply(
        "prose that mentions the markers is no patch",
        "Start your patch with a line\n*** Begin Patch\nand end it with *** End Patch, as `*** Begin Patch` shows.\n",
        None,
        said="The first line of the patch must be '*** Begin Patch'",
    ),
    Reply("a unified diff in a diff fence, --format auto", f"The fix:\n\n{_fenced(DIFF.rstrip(), 'diff')}\n\nThanks.\n", HI, ("--format", "auto")),
    Reply("SEARCH/REPLACE blocks with prose, --format auto", f"Change greet.py:\n\n{_fenced(BLOCKS, 'python')}\n\nDone.\n", HI, ("--format", "auto")),
    Reply("a Codex patch in a reply, --format auto", f"Here:\n{_fenced(CODEX_PATCH, 'diff')}\nBye.\n", HI, ("--format", "auto")),
    Reply(
        "a diff and a Codex patch in one reply, --format auto, one commit",
        f"Fix greet:\n{_fenced(DIFF.rstrip(), 'diff')}\nAdd notes:\n{_fenced(ADD_NOTES)}\n",
        {**HI, "notes.md": "# Notes\n"},
        ("--format", "auto"),
    ),
    Reply(
        "a Codex patch then a diff that fails, --format auto: nothing applied",
        f"Add notes:\n{_fenced(ADD_NOTES)}\nFix greet:\n{_fenced(DIFF.replace('Hello', 'Howdy').rstrip(), 'diff')}\n",
        None,
        ("--format", "auto"),
        said="unified diff at line 10 of the reply",
    ),
    Reply(
        "--codex refuses prose as the reference does",
        f"Here's the change:\n\n{CODEX_PATCH}\n",
        None,
        ("--codex",),
        said="There is text before '*** Begin Patch'",
    ),
]


@pytest.mark.parametrize("reply", REPLIES, ids=[r.name for r in REPLIES])
def test_the_executable_applies_a_reply(reply: Reply, tmp_path: Path) -> None:
    root = _tree(tmp_path, reply.before)
    before = snapshot(root)
    result = run_cli([*reply.args], root, stdin=reply.text.encode("utf-8"))
    stderr = result.stderr.decode("utf-8")
    if reply.after is None:
        assert result.returncode == 1, stderr
        assert reply.said in stderr
        assert "Traceback" not in stderr
        assert snapshot(root) == before
    else:
        assert result.returncode == 0, stderr
        assert _files(root) == reply.after


@pytest.mark.parametrize("reply", REPLIES, ids=[r.name for r in REPLIES])
def test_apply_reply_applies_a_reply(reply: Reply, tmp_path: Path) -> None:
    root = _tree(tmp_path, reply.before)
    before = snapshot(root)
    codex_only = "auto" not in reply.args

    def run() -> object:
        if "--codex" in reply.args:  # the library's strict reader of one patch, as --codex is
            return apply_patch(reply.text, root, policy=CODEX)
        return apply_reply(reply.text, root, codex_only=codex_only)

    if reply.after is None:
        with pytest.raises(PatchError) as caught:
            run()
        assert reply.said in str(caught.value)
        assert snapshot(root) == before
    else:
        run()
        assert _files(root) == reply.after


def test_the_default_mode_takes_only_codex_patches_from_a_reply(tmp_path: Path) -> None:
    """A unified diff in a reply is not applied without `--format auto`, and the error
    names that option."""
    root = _tree(tmp_path, GREET)
    before = snapshot(root)
    result = run_cli([], root, stdin=f"The fix:\n\n{_fenced(DIFF.rstrip(), 'diff')}\n".encode())
    assert result.returncode == 1
    assert "--format" in result.stderr.decode()
    assert snapshot(root) == before


def test_the_default_mode_says_what_of_a_reply_it_left_out(tmp_path: Path) -> None:
    """A reply holding a Codex patch and a unified diff: the default applies the patch and
    warns that the diff was not applied (the summary alone would look like the whole reply's)."""
    root = _tree(tmp_path, GREET)
    text = f"Add notes:\n{_fenced(ADD_NOTES)}\nFix greet:\n{_fenced(DIFF.rstrip(), 'diff')}\n"
    result = run_cli([], root, stdin=text.encode())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == "Success. Updated the following files:\nA notes.md\n"
    assert "the reply also holds a unified diff at line 10, not applied" in result.stderr.decode()
    assert _files(root) == {**GREET, "notes.md": "# Notes\n"}


def test_a_reply_is_one_summary_and_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path, GREET)
    before = snapshot(root)
    text = f"Add:\n{_fenced(ADD_NOTES)}\nFix:\n{_fenced(CODEX_PATCH)}\n"
    result = run_cli(["--dry-run"], root, stdin=text.encode())
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode() == (
        "Dry run, nothing was written. The patch applies and would update:\nA notes.md\nM greet.py\n"
    )
    assert snapshot(root) == before


def test_an_error_after_a_fence_never_blames_the_prose(tmp_path: Path) -> None:
    """Prose after the closing fence, the patch failing: the error is about the patch,
    named by its line in the reply, never about text before it; and a dry run says none
    would be applied."""
    root = _tree(tmp_path, GREET)
    before = snapshot(root)
    text = f"{_fenced(MISSING)}\nThat should do it, it's a small fix.\n"
    for args in ([], ["--dry-run"]):
        stderr = run_cli(args, root, stdin=text.encode()).stderr.decode()
        assert stderr.startswith("Failed to find expected lines in greet.py:"), stderr
        assert "text before" not in stderr and "patch at line 2 of the reply" in stderr
    assert "None of the reply's patches would be applied." in stderr
    assert snapshot(root) == before


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()}
