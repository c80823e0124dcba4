"""`apply_patch extract` on a chat reply, from the outside: its patches are listed (source
`reply`) and `--apply` applies them as one commit, none of them when one fails; calls a
log records as failed are listed by `--json` with their `logged_outcome` and skipped by
the plain listing and `--apply`."""

import json
from pathlib import Path

from _support import run_cli, snapshot
from apply_patch import FoundPatch, extract_patches

ADD = "*** Begin Patch\n*** Add File: notes.md\n+# Notes\n*** End Patch"
DIFF = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-hello\n+hi"
REPLY = f"Sure! First the notes:\n\n```\n{ADD}\n```\n\nThen the greeting:\n\n```diff\n{DIFF}\n```\n\nThat's all.\n"


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("hello\n")
    return root


def test_the_library_lists_a_replys_patches() -> None:
    found = extract_patches(REPLY)
    assert [(item.line, item.source, item.logged_outcome) for item in found] == [(4, "reply", "unknown"), (13, "reply", "unknown")]
    assert all(isinstance(item, FoundPatch) for item in found)
    assert found[1].patch == DIFF + "\n"


def test_extract_lists_and_applies_a_reply_as_one_commit(tmp_path: Path) -> None:
    root = _root(tmp_path)
    listed = run_cli(["extract"], root, stdin=REPLY.encode())
    assert listed.returncode == 0
    assert listed.stdout.decode().startswith("# patch 1 of 2: line 4 (reply), folder .\n*** Begin Patch\n")
    applied = run_cli(["extract", "--apply"], root, stdin=REPLY.encode())
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.decode() == (
        "# patches 1 to 2 of 2: a reply's patches, one commit\n"
        "Success. Updated the following files:\nA notes.md\nM a.txt\n"
    )
    assert (root / "a.txt").read_text() == "hi\n" and (root / "notes.md").read_text() == "# Notes\n"


def test_extract_apply_of_a_reply_whose_second_patch_fails_applies_none(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    for args in (["extract", "--apply"], ["extract", "--apply", "--json"]):
        result = run_cli(args, root, stdin=REPLY.replace("-hello", "-howdy").encode())
        assert result.returncode == 1
        assert snapshot(root) == before
    assert "Stopped at patch 2 of 2: a reply's patches are one commit, so none of its 2 was applied." in (
        run_cli(["extract", "--apply"], root, stdin=REPLY.replace("-hello", "-howdy").encode()).stderr.decode()
    )
    documents = json.loads(result.stdout)
    assert [d["status"] for d in documents] == ["not applied", "not applied"]
    assert documents[0]["error"] is None and documents[1]["error"]["kind"] == "context_not_found"


def test_search_replace_blocks_and_a_patch_of_one_reply_are_one_commit(tmp_path: Path) -> None:
    root = _root(tmp_path)
    before = snapshot(root)
    blocks = "a.txt\n<<<<<<< SEARCH\nhello\n=======\nhi\n>>>>>>> REPLACE"
    text = f"Notes:\n```\n{ADD}\n```\nAnd:\n```\n{blocks}\n```\n"
    failing = run_cli(["extract", "--apply"], root, stdin=text.replace("SEARCH\nhello", "SEARCH\nhowdy").encode())
    assert failing.returncode == 1 and "none of its 2 was applied" in failing.stderr.decode()
    assert snapshot(root) == before
    applied = run_cli(["extract", "--apply"], root, stdin=text.encode())
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.decode().startswith("# patches 1 to 2 of 2: a reply's patches, one commit\n")
    assert (root / "a.txt").read_text() == "hi\n" and (root / "notes.md").exists()


def test_an_incomplete_patch_in_a_reply_says_so(tmp_path: Path) -> None:
    root = _root(tmp_path)
    text = "Here it is:\n\n*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hi\n"
    result = run_cli(["extract", "--json"], root, stdin=text.encode())
    [item] = json.loads(result.stdout)
    assert item["source"] == "reply" and "truncated" in item["error"]


def test_failed_calls_are_listed_by_json_and_skipped_otherwise(tmp_path: Path) -> None:
    root = _root(tmp_path)
    use = {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "apply_patch", "input": {"patch": ADD}},
        {"type": "tool_use", "id": "toolu_2", "name": "apply_patch", "input": {"patch": ADD.replace("notes", "other")}},
    ]}}  # fmt: skip
    results = {"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True, "content": "denied"},
        {"type": "tool_result", "tool_use_id": "toolu_2", "content": "Success."},
    ]}}  # fmt: skip
    log = f"{json.dumps(use)}\n{json.dumps(results)}\n".encode()
    listed = json.loads(run_cli(["extract", "--json"], root, stdin=log).stdout)
    assert [item["logged_outcome"] for item in listed] == ["failed", "applied"]
    plain = run_cli(["extract"], root, stdin=log).stdout.decode()
    assert plain.startswith("# patch 1 of 1: line 1 (log), folder .\n") and "other.md" in plain
    applied = run_cli(["extract", "--apply"], root, stdin=log)
    assert applied.returncode == 0, applied.stderr
    assert (root / "other.md").exists() and not (root / "notes.md").exists()
