"""Faults survived: real write limits, killed processes, hostile and huge input.

Whatever happens, the outcome is either success or a PatchError with a
message, and a failure leaves the tree byte for byte as it was.
"""

import os
import random
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _support import FIXTURES, NOTHING_CHANGED, Entry, copy_tree, executable, run_cli, snapshot
from apply_patch import ApplyResult, PatchError, apply_patch
from apply_patch.apply.disk._commit import recover

SCENARIOS = sorted(p for p in (FIXTURES / "scenarios").iterdir() if (p / "patch.txt").is_file())
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_a_real_file_size_limit_rolls_everything_back(tmp_path: Path) -> None:
    (tmp_path / "small.txt").write_text("one\ntwo\n")
    (tmp_path / "gone.txt").write_text("bye\n")
    big = "x" * 200_000
    patch = (
        "*** Begin Patch\n*** Update File: small.txt\n-one\n+ONE\n*** Delete File: gone.txt\n"
        f"*** Add File: new/big.txt\n+{big}\n*** End Patch\n"
    )
    before = snapshot(tmp_path)

    def limit() -> None:  # 64 KiB per file: the big file cannot be written
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))

    result = subprocess.run(
        [executable()], input=patch.encode(), cwd=tmp_path, capture_output=True,
        preexec_fn=limit, timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.decode().endswith(f"File too large (os error 27)\n{NOTHING_CHANGED}")
    assert snapshot(tmp_path) == before


KILLER = """
import os, signal, sys
from apply_patch import DEFAULT, parse_patch
from apply_patch.apply.disk._commit import Disk, commit
from apply_patch.apply.planning._disk_tree import DiskTree
from apply_patch.apply.planning._edit_plan import make_plan

class Killer(Disk):
    calls = 0
    def tick(self):
        Killer.calls += 1
        if Killer.calls == int(sys.argv[2]):
            os.kill(os.getpid(), signal.SIGKILL)
    def mkdir(self, *args): self.tick(); super().mkdir(*args)
    def write_temp(self, *args): self.tick(); return super().write_temp(*args)
    def replace(self, *args): self.tick(); super().replace(*args)
    def link(self, *args): self.tick(); super().link(*args)
    def unlink(self, *args): self.tick(); super().unlink(*args)
    def append(self, *args, **kwargs): self.tick(); super().append(*args, **kwargs)

commit(make_plan(parse_patch(sys.stdin.read()), DiskTree(sys.argv[1], DEFAULT)), Killer())
print(Killer.calls)
"""
CRASH_PATCH = """\
*** Begin Patch
*** Add File: a/new.txt
+new file
*** Update File: one.txt
-one
+ONE
*** Update File: two.txt
*** Move to: b/two.txt
-two
+TWO
*** Delete File: three.txt
*** Add File: three.txt/inside.txt
+a folder where a file was
*** End Patch
"""


def _crash_tree(root: Path) -> None:
    root.mkdir()
    for name in ("one", "two", "three"):
        # One line to change, once (a chunk must fit in one way), among 999 others.
        (root / f"{name}.txt").write_text(f"{name}\n" + "".join(f"{name} {i}\n" for i in range(1, 1000)))


def _kill_at(root: Path, step: int) -> "subprocess.CompletedProcess[str]":
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(root), str(step)],
        input=CRASH_PATCH, capture_output=True, text=True, timeout=60,
    )


def test_a_killed_commit_is_finished_or_undone_by_the_next_run(tmp_path: Path) -> None:
    after_root = tmp_path / "after"
    _crash_tree(after_root)
    completed = _kill_at(after_root, 0)
    assert completed.returncode == 0, completed.stderr
    steps = int(completed.stdout)
    after = snapshot(after_root)
    outcomes = set()
    for step in range(1, steps + 1):
        root = tmp_path / f"killed{step}"
        _crash_tree(root)
        before = snapshot(root)
        assert _kill_at(root, step).returncode == -signal.SIGKILL
        for path, entry in snapshot(root).items():
            name = path.rsplit("/", 1)[-1]
            if entry.kind == "file" and (name.endswith(".apply_patch.tmp") or name == ".apply_patch.journal"):
                continue  # what the next run cleans up
            assert entry in (before.get(path), after.get(path)), f"{path} after a kill at step {step}"
        note = recover(str(root))
        recovered = snapshot(root)
        assert recovered in (before, after), f"a kill at step {step}, then: {note}"
        outcomes.add("new" if recovered == after else "old")
        assert recover(str(root)) is None  # nothing left to recover
    assert outcomes == {"old", "new"}


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        action = rng.randrange(6)
        if action == 0 and len(lines) > 1:
            del lines[i]
        elif action == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif action == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == 3:
            lines[i] = rng.choice(["+", "-", " ", "@@ ", "*** ", "\t", ""]) + lines[i][1:]
        elif action == 4:
            lines.insert(i, rng.choice(["", "@@", "*** End of File", "*** Move to: x", "\x00", "+\udc80"]))
        else:
            cut = rng.randrange(len(text) + 1)
            return text[:cut]
    return "\n".join(lines)


@FUZZ
@given(case=st.sampled_from(SCENARIOS), seed=st.integers(0, 2**32 - 1))
def test_mutated_patches_fail_cleanly_or_apply(case: Path, seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("fuzz") / "root"
    copy_tree(case / "input", root)
    before = snapshot(root)
    patch = _mutate((case / "patch.txt").read_bytes().decode("utf-8"), random.Random(seed))
    try:
        result = apply_patch(patch, root)
    except PatchError as error:
        assert str(error)
        assert snapshot(root) == before
    else:
        _assert_wrote_exactly(result, before, snapshot(root))
    shutil.rmtree(root.parent)


def _assert_wrote_exactly(result: ApplyResult, before: dict[str, Entry], after: dict[str, Entry]) -> None:
    """A patch that applied changed exactly the files its result names, to the bytes it
    names, and nothing else (folders aside: the commit may make them)."""
    files_before = {path: entry for path, entry in before.items() if entry.kind != "dir"}
    files_after = {path: entry for path, entry in after.items() if entry.kind != "dir"}
    changed = {path for path in files_before.keys() | files_after.keys()
               if files_before.get(path) != files_after.get(path)}  # fmt: skip
    named = {os.path.normpath(change.relative) for change in result.changes}
    assert changed == named
    for change in result.changes:
        entry = files_after.get(os.path.normpath(change.relative))
        assert (entry.data if entry else None) == (change.after.data if change.after else None)
    assert result.summary.startswith("Success. Updated the following files:\n")
    assert len(result.summary.splitlines()) == 1 + len(result.operations)


@FUZZ
@given(text=st.text())
def test_random_text_fails_cleanly(text: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("text")
    (root / "a.txt").write_text("a\n")
    before = snapshot(root)
    try:
        result = apply_patch(text, root)
    except PatchError as error:
        assert str(error)
        assert snapshot(root) == before
    else:
        _assert_wrote_exactly(result, before, snapshot(root))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(data=st.binary(max_size=300))
def test_random_bytes_on_stdin_never_show_a_traceback(data: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("bytes")
    result = run_cli([], root, stdin=b"*** Begin Patch\n" + data)
    assert result.returncode in (0, 1, 2)
    assert b"Traceback" not in result.stderr and result.stderr


@pytest.mark.parametrize(
    "patch",
    [
        "*** Begin Patch\n*** Add File: a\x00b\n+x\n*** End Patch",
        "*** Begin Patch\n*** Update File: a.txt\n-a\x00\n+b\n*** End Patch",
        "*** Begin Patch\n\x00*** Add File: b\n*** End Patch",
    ],
    ids=["nul-in-path", "nul-in-line", "nul-before-header"],
)
def test_nul_bytes_fail_cleanly(patch: str, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("a\n")
    before = snapshot(tmp_path)
    result = run_cli([], tmp_path, stdin=patch.encode())
    unusable = "\x00b" in patch  # a path no file system takes: input, as for a usage error
    assert result.returncode == (2 if unusable else 1), result.stderr
    assert result.stderr.decode().endswith(NOTHING_CHANGED)
    assert snapshot(tmp_path) == before


def test_huge_lines(tmp_path: Path) -> None:
    big = "x" * 10_000_000
    apply_patch(f"*** Begin Patch\n*** Add File: huge.txt\n+{big}\n*** End Patch", tmp_path)
    apply_patch(f"*** Begin Patch\n*** Update File: huge.txt\n-{big}\n+{big}y\n*** End Patch", tmp_path)
    assert (tmp_path / "huge.txt").read_text() == big + "y\n"
    with pytest.raises(PatchError):
        apply_patch(f"*** Begin Patch\n*** Update File: huge.txt\n-{big}z\n+z\n*** End Patch", tmp_path)


def test_a_hundred_thousand_chunks(tmp_path: Path) -> None:
    count = 100_000
    (tmp_path / "big.txt").write_text("".join(f"line {i}\n" for i in range(count)))
    chunks = "".join(f"@@\n-line {i}\n+LINE {i}\n" for i in range(count))
    apply_patch(f"*** Begin Patch\n*** Update File: big.txt\n{chunks}*** End Patch", tmp_path)
    assert (tmp_path / "big.txt").read_text() == "".join(f"LINE {i}\n" for i in range(count))


def test_case_only_rename(tmp_path: Path) -> None:
    (tmp_path / "Readme.md").write_text("# hi\n")
    patch = "*** Begin Patch\n*** Update File: Readme.md\n*** Move to: README.md\n*** End Patch"
    result = run_cli([patch], tmp_path)
    assert result.returncode == 0, result.stderr
    # A case-sensitive file system renames; a case-insensitive one keeps the one file
    # under its old spelling (writing one name and deleting the other would lose it).
    case_insensitive = (tmp_path / "readme.MD").exists()
    expected = "Readme.md" if case_insensitive else "README.md"
    assert os.listdir(tmp_path) == [expected]
    assert (tmp_path / expected).read_text() == "# hi\n"


def test_move_onto_a_hard_link_of_itself_keeps_the_data(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    os.link(tmp_path / "a.txt", tmp_path / "b.txt")
    patch = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-x\n+y\n*** End Patch"
    refused = run_cli([patch], tmp_path)
    assert refused.returncode == 1 and (tmp_path / "a.txt").read_text() == "x\n"
    applied = run_cli(["--move-existing", "overwrite", patch], tmp_path)
    assert applied.returncode == 0, applied.stderr
    assert sorted(os.listdir(tmp_path)) == ["b.txt"] and (tmp_path / "b.txt").read_text() == "y\n"
