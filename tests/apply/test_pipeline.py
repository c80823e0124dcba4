"""The way of the data through the pipeline: a parsed patch handed over, not parsed again;
the policy given once (to the tree the plan reads); each tree-sitter parse done once."""

import os
from pathlib import Path

import pytest

from _support import snapshot
from apply_patch import CODEX, DEFAULT, FilePolicyError, PatchSyntaxError, apply_patch, apply_to_mapping, parse_patch
from apply_patch.apply import _pipeline
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._memory_tree import MemoryTree
from apply_patch.apply.planning._edit_plan import make_plan
from apply_patch.cli import _extract
from apply_patch.format import _shell
from apply_patch.extract._extract import extract_patches

ADD = "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch\n"


def _never_parse(text: str) -> None:
    raise AssertionError(f"parsed again: {text!r}")


def test_a_parsed_patch_is_applied_without_parsing_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patch = parse_patch(ADD)
    monkeypatch.setattr(_pipeline, "parse_patch", _never_parse)
    result = apply_patch(patch, tmp_path)
    assert result.summary == "Success. Updated the following files:\nA a.txt\n"
    assert (tmp_path / "a.txt").read_bytes() == b"new\n"
    assert apply_to_mapping(patch, {"b.txt": "b\n"}) == {"a.txt": "new\n", "b.txt": "b\n"}


def test_extract_apply_hands_over_what_extraction_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "session.log").write_text(f"$ apply_patch '{ADD}'\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_pipeline, "parse_patch", _never_parse)
    assert _extract.main(["--apply", "session.log"]) == 0
    assert capsys.readouterr().out.endswith("Success. Updated the following files:\nA a.txt\n")
    assert (tmp_path / "a.txt").read_bytes() == b"new\n"


@pytest.mark.parametrize("policy, outcome", [(DEFAULT, "refused"), (CODEX, b"new\n")])
def test_the_plan_follows_the_policy_given_to_the_tree(
    policy: object, outcome: object, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_bytes(b"old\n")
    tree = DiskTree(str(tmp_path), policy)  # type: ignore[arg-type]
    try:
        plan = make_plan(parse_patch(ADD), tree)
    except FilePolicyError:
        assert outcome == "refused"
        return
    assert [change.after.data for change in plan.changes if change.after] == [outcome]
    mapped = make_plan(parse_patch(ADD), MemoryTree({"a.txt": b"old\n"}, policy))  # type: ignore[arg-type]
    assert [change.after.data for change in mapped.changes if change.after] == [outcome]


def test_a_script_is_parsed_by_tree_sitter_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A region is parsed to classify it; the calls are then found in that same tree."""
    parsed: list[str] = []
    real = _shell.parse

    def counting(text: str) -> object:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(_shell, "parse", counting)
    script = f"set -e\ncd src && apply_patch <<'EOF'\n{ADD}EOF\necho done\n"
    found = extract_patches(script)
    assert [(item.workdir, item.source) for item in found] == [("src", "script")]
    assert len(parsed) == 1


def test_a_dry_run_of_several_patches_sees_the_ones_before(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_bytes(b"k\n")
    before = snapshot(tmp_path)
    replay = _pipeline.Replay(str(tmp_path), dry_run=True)
    replay.apply(ADD.replace("a.txt", "new/a.txt"))
    second = replay.apply(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-new\n+newer\n*** Delete File: ../keep.txt\n"
        "*** End Patch\n",
        os.path.join(str(tmp_path), "new"),
    )
    assert [(c.relative, c.after.data if c.after else None) for c in second.changes] == [
        ("new/a.txt", b"newer\n"), ("keep.txt", None)
    ]
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_a_patch_is_parsed_and_left_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, enabled: bool
) -> None:
    """`_gc`: a patch's text is parsed with the collector off (its tokens and lines make no
    cycles), then it is as the caller had it, after a patch applied or one refused."""
    import gc

    seen = []
    parse = _pipeline.parse_patch

    def watched(text: str, *, decode: bool = False, reference: bool = False) -> object:
        seen.append(gc.isenabled())
        return parse(text, decode=decode, reference=reference)

    monkeypatch.setattr(_pipeline, "parse_patch", watched)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        apply_patch(ADD, tmp_path)
        after_applied = gc.isenabled()
        before = snapshot(tmp_path)
        with pytest.raises(PatchSyntaxError):
            apply_patch("*** Begin Patch\n*** Frobnicate File: b.txt\n*** End Patch\n", tmp_path)
        after_refused = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False]
    assert (after_applied, after_refused) == (enabled, enabled)
    assert snapshot(tmp_path) == before and (tmp_path / "a.txt").read_bytes() == b"new\n"
