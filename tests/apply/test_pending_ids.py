"""The review gate's ids are the receipts' kind (issue 35): `SEQUENCE-ID`, a short random
id for people and a per-root sequence that orders the pending patches, never the clock;
`accept`/`reject` take the id, the whole name, or a prefix of either."""

import time
from pathlib import Path

import pytest

from _support import run_cli
from apply_patch.apply import Staged, pending, stage, state_hash
from apply_patch.apply.records._receipts import ID_LENGTH, is_id, parse_name

PATCH = "*** Begin Patch\n*** Add File: {}.txt\n+x\n*** End Patch\n"


def _staged(name: str) -> Staged:
    diff = f"--- /dev/null\n+++ b/{name}.txt\n@@ -0,0 +1 @@\n+x\n"
    path = f"{name}.txt"
    return Staged("", "", "codex", PATCH.format(name), {}, {path: ""}, (f"A {path}",), diff, {path: state_hash(b"x\n")})


@pytest.fixture(autouse=True)
def _state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_a_pending_id_is_a_sequence_and_a_short_random_id(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    first, second = stage(str(root), _staged("a")), stage(str(root), _staged("b"))
    for name, sequence in ((first, 1), (second, 2)):
        parsed = parse_name(name)
        assert parsed is not None and parsed[0] == sequence
        assert is_id(parsed[1]) and len(parsed[1]) == ID_LENGTH
    assert [s.id for s in pending(str(root)).staged] == [first, second]


def test_pending_patches_are_in_the_order_staged_when_the_clock_steps_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    names = [stage(str(root), _staged("first"))]
    real_ns, real = time.time_ns, time.time
    monkeypatch.setattr(time, "time_ns", lambda: real_ns() - 86_400 * 10**9)  # a day back
    monkeypatch.setattr(time, "time", lambda: real() - 86_400)
    # Eleven more: the order is by number (10 after 9), not by the names' text.
    names += [stage(str(root), _staged(f"later{n}")) for n in range(11)]
    waiting = pending(str(root)).staged
    assert [s.id for s in waiting] == names
    assert [parse_name(s.id) for s in waiting] == [(n + 1, parse_name(s.id)[1]) for n, s in enumerate(waiting)]  # type: ignore[index]


def test_a_new_id_follows_the_last_pending_one_and_records_of_the_old_kind_come_first(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    kept = [stage(str(root), _staged(n)) for n in "abc"]
    assert run_cli(["reject", kept[1]], root).returncode == 0
    newest = stage(str(root), _staged("d"))
    assert parse_name(newest) is not None and parse_name(newest)[0] == 4  # type: ignore[index]
    folder = next((tmp_path / "state").rglob("pending"))
    old = (folder / f"{kept[0]}.json").read_text().replace(kept[0], "20260101-000000-000000000-abcd")
    (folder / "20260101-000000-000000000-abcd.json").write_text(old)
    assert [s.id for s in pending(str(root)).staged] == [
        "20260101-000000-000000000-abcd", kept[0], kept[2], newest
    ]


def test_accept_and_reject_take_the_id_the_name_or_a_prefix_of_either(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    names = [stage(str(root), _staged(n)) for n in "abc"]
    ids = [name.partition("-")[2] for name in names]
    accepted = run_cli(["accept", ids[0][:5]], root)
    assert accepted.returncode == 0, accepted.stderr
    assert accepted.stdout.decode().startswith(f"Accepted {names[0]}.")
    assert (root / "a.txt").read_text() == "x\n"
    assert run_cli(["reject", names[1]], root).returncode == 0
    assert run_cli(["accept", "3-"], root).returncode == 0
    assert (root / "c.txt").read_text() == "x\n" and not (root / "b.txt").exists()
    assert pending(str(root)).staged == ()
