"""Race campaigns against the installed package, shared by the tests and `benchmarks/stress.py`.

Each campaign runs at most `runs` times and stops at `deadline` seconds,
whichever comes first, and returns its counts: what must be 0 (`lost`,
`outside`, `tracebacks`, `mixed`, `leftovers`) and what is only noted
(`applied`, `refused`: a clean error with nothing changed).
"""

import asyncio
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from _support import Entry, executable, mcp_server, snapshot

from apply_patch import PatchError, apply_patch


@dataclass
class Counts:
    """A campaign's figures."""

    name: str
    runs: int = 0
    applied: int = 0
    refused: int = 0
    lost: int = 0
    outside: int = 0
    tracebacks: int = 0
    mixed: int = 0
    leftovers: int = 0
    startup: int = 0  # SIGINT while Python imported, before apply_patch's code ran (noted)
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.name}: runs={self.runs} applied={self.applied} refused={self.refused} "
            f"lost={self.lost} outside={self.outside} tracebacks={self.tracebacks} "
            f"mixed={self.mixed} leftovers={self.leftovers}"
            + (f" interrupted-at-start-up={self.startup}" if self.startup else "")
        )


def _bounded(runs: int, deadline: float) -> Callable[[int], bool]:
    end = time.monotonic() + deadline
    return lambda done: done < runs and time.monotonic() < end


def _edit(line: int, new: str) -> str:
    return f"*** Begin Patch\n*** Update File: shared.txt\n@@\n-line {line}\n+{new}\n*** End Patch\n"


def _shared_file(root: Path) -> None:
    (root / "shared.txt").write_text("".join(f"line {i}\n" for i in range(10)))


def _count_edits(counts: Counts, root: Path, results: list[bool]) -> None:
    """Both edits applied (or refused cleanly): the file must hold every applied one."""
    text = (root / "shared.txt").read_text()
    for index, applied in enumerate(results):
        edit = f"EDIT {index}\n"
        if applied:
            counts.applied += 1
            counts.lost += edit not in text
        else:
            counts.refused += 1
            counts.lost += edit in text  # a refused patch must have changed nothing


def folder_flips_to_symlink(tmp: Path, runs: int, deadline: float) -> Counts:
    """The CLI applies while another thread flips `sub` to a symlink to a folder outside the root."""
    counts = Counts("folder flipping to a symlink (CLI)")
    root, outside = tmp / "root", tmp / "outside"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "b.txt").write_text("b\n")
    outside.mkdir()
    (outside / "b.txt").write_text("b\n")
    outside_before = snapshot(outside)
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            try:
                os.rename(root / "sub", root / "sub.real")
                os.symlink("../outside", root / "sub")
                time.sleep(0.0005)
                os.unlink(root / "sub")
                os.rename(root / "sub.real", root / "sub")
            except OSError:
                pass
            time.sleep(0.0005)

    flipper = threading.Thread(target=flip)
    flipper.start()
    more = _bounded(runs, deadline)
    try:
        while more(counts.runs):
            patch = (
                f"*** Begin Patch\n*** Add File: sub/new{counts.runs}.txt\n+new\n"
                f"*** Update File: sub/b.txt\n@@\n+run {counts.runs}\n*** End Patch\n"
            )
            result = subprocess.run(
                [executable(), "-C", str(root), patch], capture_output=True, timeout=60
            )
            counts.runs += 1
            counts.applied += result.returncode == 0
            counts.refused += result.returncode == 1
            counts.tracebacks += b"Traceback" in result.stderr or result.returncode not in (0, 1)
            counts.outside += snapshot(outside) != outside_before
            if snapshot(outside) != outside_before:
                shutil.rmtree(outside)
                outside.mkdir()
                (outside / "b.txt").write_text("b\n")
    finally:
        stop.set()
        flipper.join()
    return counts


def _pairs(tmp: Path, runs: int, deadline: float, counts: Counts, edit_both: Callable[[Path], list[bool]]) -> Counts:
    """Repeat `edit_both` (two edits of one file at once) on a fresh file each run."""
    more = _bounded(runs, deadline)
    while more(counts.runs):
        root = tmp / f"pair{counts.runs}"
        root.mkdir()
        _shared_file(root)
        _count_edits(counts, root, edit_both(root))
        counts.runs += 1
        shutil.rmtree(root)
    return counts


def two_processes(tmp: Path, runs: int, deadline: float) -> Counts:
    """Two `apply_patch` processes edit different lines of one file at the same moment."""
    counts = Counts("two processes, one file (CLI)")

    def edit_both(root: Path) -> list[bool]:
        procs = [
            subprocess.Popen(
                [executable(), "-C", str(root), _edit(line, f"EDIT {index}")],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
            for index, line in enumerate((2, 7))
        ]
        errors = [proc.communicate(timeout=60)[1] for proc in procs]
        counts.tracebacks += sum(b"Traceback" in error for error in errors)
        return [proc.returncode == 0 for proc in procs]

    return _pairs(tmp, runs, deadline, counts, edit_both)


def two_threads(tmp: Path, runs: int, deadline: float) -> Counts:
    """Two threads of one process call `apply_patch` on one file at the same moment."""

    def edit_both(root: Path) -> list[bool]:
        results = [False, False]
        start = threading.Barrier(2)

        def edit(index: int, line: int) -> None:
            start.wait()
            try:
                apply_patch(_edit(line, f"EDIT {index}"), root)
                results[index] = True
            except PatchError:
                pass

        threads = [threading.Thread(target=edit, args=(i, line)) for i, line in enumerate((2, 7))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results

    return _pairs(tmp, runs, deadline, Counts("two threads, one file (library)"), edit_both)


def pipelined_mcp_calls(tmp: Path, runs: int, deadline: float) -> Counts:
    """One MCP client sends two `tools/call` requests without waiting for the first answer."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    counts = Counts("two pipelined MCP calls (serve)")
    root = tmp / "mcp"
    root.mkdir()
    server = mcp_server(["serve", "--root", str(root)])

    async def campaign() -> None:
        more = _bounded(runs, deadline)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            while more(counts.runs):
                _shared_file(root)
                answers = await asyncio.gather(
                    *(
                        session.call_tool("apply_patch", {"patch": _edit(line, f"EDIT {index}")})
                        for index, line in enumerate((2, 7))
                    )
                )
                _count_edits(counts, root, [not answer.is_error for answer in answers])
                counts.runs += 1

    asyncio.run(campaign())
    return counts


SIGINT_FILES = 40


def _sigint_tree(root: Path) -> None:
    root.mkdir()
    for i in range(SIGINT_FILES):
        (root / f"f{i:02}.txt").write_text("".join(f"old {j}\n" for j in range(200)))


SIGINT_PATCH = (
    "*** Begin Patch\n*** Add File: made/deep/new.txt\n+new\n"
    + "".join(f"*** Update File: f{i:02}.txt\n@@\n-old 7\n+new 7\n" for i in range(SIGINT_FILES))
    + "*** End Patch\n"
)


def sigint_anywhere(tmp: Path, runs: int, deadline: float, seed: int = 14) -> Counts:
    """SIGINT at a random moment of a 40-file apply: wholly old or wholly new, nothing left over."""
    counts = Counts("SIGINT at random moments, 40 files (CLI)")
    rng = random.Random(seed)
    old_root, new_root = tmp / "sigint-old", tmp / "sigint-new"
    _sigint_tree(old_root)
    _sigint_tree(new_root)
    started = time.monotonic()
    subprocess.run([executable(), "-C", str(new_root), SIGINT_PATCH], check=True, capture_output=True)
    whole = time.monotonic() - started
    old, new = snapshot(old_root), snapshot(new_root)
    more = _bounded(runs, deadline)
    while more(counts.runs):
        root = tmp / f"sigint{counts.runs}"
        _sigint_tree(root)
        proc = subprocess.Popen(
            [executable(), "-C", str(root), SIGINT_PATCH],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        time.sleep(rng.uniform(0, whole * 1.2))
        proc.send_signal(signal.SIGINT)
        error = proc.communicate(timeout=60)[1]
        after = snapshot(root)
        counts.runs += 1
        counts.applied += after == new
        counts.refused += after == old
        counts.mixed += after not in (old, new) and not _only_leftovers(after, old, new)
        counts.leftovers += any(key.endswith(".apply_patch.tmp") for key in after)
        if b"Traceback" in error and not _at_start_up(error):
            counts.tracebacks += 1
            counts.notes.append(error.decode(errors="replace").strip())
        counts.startup += _at_start_up(error)
        shutil.rmtree(root)
    return counts


def _at_start_up(error: bytes) -> bool:
    """Python's own KeyboardInterrupt traceback, raised before `main()` was entered.

    The console script imports (the site module, its wrapper, then the package)
    before any code of ours runs: a SIGINT there is the interpreter's to report,
    and nothing has been read or written yet. Inside `run()` and `main()` it never
    is a traceback, so a traceback through either is ours and counted.
    """
    ours = re.search(rb'apply_patch/cli/_main\.py", line \d+, in (_?main|run)\n', error)
    return b"Traceback" in error and ours is None


def _only_leftovers(after: dict[str, Entry], old: dict[str, Entry], new: dict[str, Entry]) -> bool:
    """Wholly old or new once temporary files are set aside (they are counted apart)."""
    kept = {key: value for key, value in after.items() if not key.endswith(".apply_patch.tmp")}
    return kept in (old, new)


CAMPAIGNS = (folder_flips_to_symlink, two_processes, two_threads, pipelined_mcp_calls, sigint_anywhere)
