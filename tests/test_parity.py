"""benchmarks/parity.py classifies what it claims, with stand-in references written here
(the real reference is never needed): one that runs our own `apply_patch --codex` (every
case the same), one that always refuses (the applied cases become "ref refused / ours
applied"), one that changes a file and fails (a refusal of ours becomes the deliberate "a
later hunk fails"), one that hangs (timed out); each §5 row and each kind of difference
on crafted outcomes; and a run of the script that keeps the user's home untouched."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from _support import REPO, benchmark_script, executable

parity = benchmark_script("parity")

F0 = b"alpha\nbeta\ngamma\n"
APPLIES = parity.Case(
    "test", "applies", {"f0.txt": F0},
    "*** Begin Patch\n*** Update File: f0.txt\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n",
)  # fmt: skip
REFUSED = parity.Case(
    "test", "refused", {"f0.txt": F0},
    "*** Begin Patch\n*** Update File: f0.txt\n@@\n-not in the file\n+x\n*** End Patch\n",
)  # fmt: skip


def stand_in(folder: Path, name: str, body: str) -> list[str]:
    """An executable Python script `name` in `folder` running `body` (sys, os imported):
    a stand-in reference."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\nimport os, sys\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return [str(path)]


@pytest.fixture
def mirror(tmp_path: Path) -> list[str]:
    """A reference that is our own `apply_patch --codex`."""
    return stand_in(tmp_path, "mirror", f"os.execv({executable()!r}, [{executable()!r}, '--codex', *sys.argv[1:]])")


def test_ours_against_ours_is_the_same_in_every_case(mirror: list[str]) -> None:
    sample = [APPLIES, REFUSED, *parity.shape_cases(1, 7)[::3]]
    results = list(parity.run_all(sample, mirror, parity.ours_command()))
    assert [r.verdict for r in results[:2]] == [parity.Verdict("same", "applied"), parity.Verdict("same", "refused")]
    assert {r.verdict.sort for r in results} == {"same"}, [r.verdict for r in results]
    assert results[0].ours.tree == {"f0.txt": b"alpha\nBETA\ngamma\n"}
    assert results[0].ours.stdout == "Success. Updated the following files:\nM f0.txt\n"


def test_a_reference_that_always_refuses(tmp_path: Path) -> None:
    refuser = stand_in(tmp_path, "refuser", "print('Invalid patch', file=sys.stderr); sys.exit(1)")
    applied, refused = (parity.compare(case, refuser, parity.ours_command()) for case in (APPLIES, REFUSED))
    assert applied.verdict == parity.Verdict("different", "ref refused / ours applied")
    assert applied.reference.tree == {"f0.txt": F0} and applied.reference.code == 1
    assert refused.verdict == parity.Verdict("same", "refused")


def test_a_reference_that_keeps_an_earlier_hunk(tmp_path: Path) -> None:
    partial = stand_in(tmp_path, "partial", "open('f0.txt', 'ab').write(b'earlier hunk\\n'); sys.exit(1)")
    refused = parity.compare(REFUSED, partial, parity.ours_command())
    assert refused.verdict == parity.Verdict("deliberate", "a later hunk fails")
    assert refused.reference.tree == {"f0.txt": F0 + b"earlier hunk\n"}
    assert refused.ours.tree == {"f0.txt": F0}  # ours changed nothing
    applied = parity.compare(APPLIES, partial, parity.ours_command())
    assert applied.verdict == parity.Verdict("different", "ref refused / ours applied")


BOM_CASE = parity.Case(
    "test", "bom", {"f0.txt": b"\xef\xbb\xbf" + F0},
    "*** Begin Patch\n*** Update File: f0.txt\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n",
)  # fmt: skip


def test_a_difference_the_bom_makes_is_the_bom_row(tmp_path: Path) -> None:
    """A reference that matches a BOM as part of the first line (as codex-cli does) refuses
    a chunk at the top of a file with one; given the file without it, it does what ours did
    (ours keeps the BOM out of matching, in both modes): the deliberate BOM row."""
    bom_blind = stand_in(
        tmp_path, "bom_blind",
        "if open('f0.txt', 'rb').read(3) == b'\\xef\\xbb\\xbf':\n    sys.exit(1)\n"
        f"os.execv({executable()!r}, [{executable()!r}, '--codex', *sys.argv[1:]])",
    )  # fmt: skip
    result = parity.compare(BOM_CASE, bom_blind, parity.ours_command())
    assert result.verdict == parity.Verdict("deliberate", "UTF-8 BOM kept out of matching")
    assert result.ours.tree == {"f0.txt": b"\xef\xbb\xbfalpha\nBETA\ngamma\n"}
    refuser = stand_in(tmp_path, "refuser", "sys.exit(1)")  # refuses without the BOM too: a difference
    assert parity.compare(BOM_CASE, refuser, parity.ours_command()).verdict == parity.Verdict(
        "different", "ref refused / ours applied"
    )


def test_a_file_moved_with_its_bom_onto_another_is_the_bom_row_too(tmp_path: Path) -> None:
    """The moved file keeps its BOM at its new path, which another file held before
    (found on seed 2 of the shapes: a Move onto an existing file)."""
    bom_blind = stand_in(
        tmp_path, "bom_blind",
        "if open('f0.txt', 'rb').read(3) == b'\\xef\\xbb\\xbf':\n    sys.exit(1)\n"
        f"os.execv({executable()!r}, [{executable()!r}, '--codex', *sys.argv[1:]])",
    )  # fmt: skip
    case = parity.Case(
        "test", "bom-moved", {"f0.txt": b"\xef\xbb\xbf" + F0, "g.txt": b"old\n"},
        "*** Begin Patch\n*** Update File: f0.txt\n*** Move to: g.txt\n@@\n alpha\n-beta\n+BETA\n*** End Patch\n",
    )  # fmt: skip
    result = parity.compare(case, bom_blind, parity.ours_command())
    assert result.ours.tree == {"g.txt": b"\xef\xbb\xbfalpha\nBETA\ngamma\n"}
    assert result.verdict == parity.Verdict("deliberate", "UTF-8 BOM kept out of matching")


def test_a_reference_that_hangs_is_stopped(tmp_path: Path) -> None:
    hangs = stand_in(tmp_path, "hangs", "import time; time.sleep(60)")
    result = parity.compare(APPLIES, hangs, parity.ours_command(), timeout=1.0)
    assert result.reference.code is None
    assert result.verdict == parity.Verdict("different", "timed out")


def test_the_reference_runs_in_a_scratch_state_folder(tmp_path: Path) -> None:
    record = tmp_path / "state.txt"
    spy = stand_in(tmp_path, "spy", f"open({str(record)!r}, 'w').write(os.environ.get('APPLY_PATCH_STATE_DIR', ''))")
    list(parity.run_all([APPLIES], spy, parity.ours_command()))
    state = record.read_text()
    assert Path(state).name.startswith("apply_patch-oracle-state-")
    assert not Path(state).exists()  # removed after the run


def outcome(code: int | None, tree: dict[str, bytes], stdout: str = "", stderr: str = "") -> Any:
    return parity.Outcome(code, tree, stdout, stderr)


SUMMARY = "Success. Updated the following files:\nM f0.txt\n"


@pytest.mark.parametrize(
    ("case", "reference", "ours", "verdict"),
    [
        (APPLIES, outcome(0, {"f0.txt": b"x\n"}, SUMMARY), outcome(0, {"f0.txt": b"y\n"}, SUMMARY),
         ("different", "both applied, other bytes")),
        (APPLIES, outcome(0, {"f0.txt": b"x\n"}, SUMMARY), outcome(0, {"f0.txt": b"x\n"}, "Success.\n"),
         ("different", "both applied, other summary")),
        (APPLIES, outcome(0, {"f0.txt": b"x\n"}, SUMMARY), outcome(1, {"f0.txt": F0}),
         ("different", "ref applied / ours refused")),
        (REFUSED, outcome(1, {"f0.txt": F0}), outcome(1, {"f0.txt": b"half\n"}),
         ("different", "both refused, other bytes")),
        (REFUSED, outcome(1, {"f0.txt": b"half\n"}), outcome(1, {"f0.txt": F0}),
         ("deliberate", "a later hunk fails")),
        (REFUSED, outcome(1, {"f0.txt": F0}), outcome(None, {"f0.txt": F0}), ("different", "timed out")),
        # The reference deletes a file moved to its own path; ours updates it.
        (parity.Case("t", "k", {"f0.txt": F0}, "", moved_in_place=frozenset({"f0.txt"})),
         outcome(0, {}, SUMMARY), outcome(0, {"f0.txt": b"x\n"}, SUMMARY), ("deliberate", "Move to the same path")),
        # ... and then fails a later operation on that path, which ours applies.
        (parity.Case("t", "k", {"f0.txt": F0}, "", moved_in_place=frozenset({"f0.txt"})),
         outcome(1, {}), outcome(0, {}, SUMMARY), ("deliberate", "Move to the same path")),
        # Other bytes beside the file moved in place are a difference.
        (parity.Case("t", "k", {"f0.txt": F0, "g": b"1"}, "", moved_in_place=frozenset({"f0.txt"})),
         outcome(0, {"g": b"2"}, SUMMARY), outcome(0, {"f0.txt": b"x\n", "g": b"1"}, SUMMARY),
         ("different", "both applied, other bytes")),
        (parity.Case("t", "k", {"f0.txt": F0}, "", read_only=frozenset({"f0.txt"})),
         outcome(0, {"f0.txt": b"x\n"}, SUMMARY), outcome(1, {"f0.txt": F0}, stderr="f0.txt: it is read-only"),
         ("deliberate", "read-only file")),
        # Refused alike, a read-only file or not, is the same.
        (parity.Case("t", "k", {"f0.txt": F0}, "", read_only=frozenset({"f0.txt"})),
         outcome(1, {"f0.txt": F0}), outcome(1, {"f0.txt": F0}, stderr="f0.txt: it is read-only"), ("same", "refused")),
        (parity.Case("t", "k", {"f0.txt": F0}, "", outside=frozenset({"../out"})),
         outcome(0, {"f0.txt": F0, "../out": b"x\n"}, "A ../out\n"), outcome(1, {"f0.txt": F0}),
         ("deliberate", "path leaving the root")),
    ],
)  # fmt: skip
def test_classification(case: Any, reference: Any, ours: Any, verdict: tuple[str, str]) -> None:
    assert parity.classify(case, reference, ours) == parity.Verdict(*verdict)


def test_the_shapes_are_seeded_and_note_their_rows() -> None:
    cases = parity.shape_cases(2, 3)
    assert cases == parity.shape_cases(2, 3)
    assert [c.patch for c in cases] != [c.patch for c in parity.shape_cases(2, 4)]
    assert {c.kind for c in cases} == {*parity.SHAPES, *parity.WRAPS}
    by_kind = {c.kind: c for c in cases}
    assert all(c.moved_in_place for c in cases if c.kind == "move-same")
    assert all(c.read_only for c in cases if c.kind == "read-only")
    assert all(p.startswith(("../", "sub/../../")) for c in cases if c.kind == "outside-root" for p in c.outside)
    assert by_kind["json"].patch.startswith('"*** Begin Patch\\n')
    assert by_kind["shell"].patch.startswith("apply_patch <<'EOF'\n*** Begin Patch\n")


def test_without_a_reference_it_says_how_to_run_it() -> None:
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "parity.py")],
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2
    assert "--reference /path/to/apply_patch" in result.stderr
    assert result.stdout == ""


def test_a_run_counts_every_case_and_leaves_the_home_alone(tmp_path: Path, mirror: list[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "APPLY_PATCH_STATE_DIR"}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"))
    result = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "parity.py"), "--reference", mirror[0], "--campaign", "shapes",
         "--limit", "1", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    shapes = report["campaigns"]["shapes"]
    assert shapes["cases"] == len(parity.SHAPES) + len(parity.WRAPS)
    assert shapes["verdicts"] == {"same: applied": shapes["verdicts"].get("same: applied", 0),
                                  "same: refused": shapes["verdicts"].get("same: refused", 0)}  # fmt: skip
    assert sum(shapes["verdicts"].values()) == shapes["cases"]
    assert not list(home.rglob("*")), sorted(map(str, home.rglob("*")))[:5]
