"""Hostile campaigns against every edit surface (issue #22), shared by `tests/test_hostile.py`
(bounded) and `benchmarks/hostile.py` (long, printing the counts).

Each campaign runs at most `runs` times and stops at `deadline` seconds,
whichever comes first, and returns its `Tally`: what must be 0 (`leaks`,
`partial`, `leftovers`, `tracebacks`, `changed`, `unanswered`) and what is
only noted (`applied`, `refused`, `during`: signals that landed while a
commit ran). Nothing waits on a sleep to make something happen: a signal
meant for a commit is sent once the commit's journal or a temporary file is
there. Each campaign reproduces findings of the issue: run against the code
before it, the signal campaigns of the two library ways leave partial commits
and temporary files, the read race leaks, the input campaign raises
UnicodeEncodeError and writes names holding line breaks.
"""

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _support import Entry, executable, snapshot

from apply_patch import PatchError, apply_patch
from apply_patch.apply.records import _journal, _receipts
from apply_patch.anthropic import TextEditor
from apply_patch.edits import CreateFile, Insert, StrReplace, apply_edits, apply_search_replace, apply_unified_diff
from apply_patch.openai_agents import Editor
from apply_patch.responses import apply_calls

JOURNAL = ".apply_patch.journal"  # in the root when the state folder cannot be used


def journals(root: Path) -> tuple[Path, Path]:
    """Where a commit on `root` keeps its journal: the root's state folder, else the root."""
    real = os.path.realpath(root)
    private = Path(_receipts.folder_of(real), os.fsdecode(_journal.state_name(os.stat(real))))
    return private, root / JOURNAL


@dataclass
class Tally:
    """A campaign's figures."""

    name: str
    calls: int = 0
    leaks: int = 0  # an answer showing content from outside the root
    partial: int = 0  # a tree neither wholly old nor wholly new
    leftovers: int = 0  # temporary files or a journal left behind
    tracebacks: int = 0  # an exception other than a PatchError, a traceback on stderr
    changed: int = 0  # a refused input after which the tree was not as before
    unanswered: int = 0  # an MCP request with no answer
    applied: int = 0
    refused: int = 0
    during: int = 0
    notes: list[str] = field(default_factory=list)

    def bad(self) -> int:
        """The sum of what must be 0."""
        return self.leaks + self.partial + self.leftovers + self.tracebacks + self.changed + self.unanswered

    def line(self) -> str:
        return (
            f"{self.name}: calls={self.calls} leaks={self.leaks} partial={self.partial} "
            f"leftovers={self.leftovers} tracebacks={self.tracebacks} changed={self.changed} "
            f"unanswered={self.unanswered} (applied={self.applied} refused={self.refused} "
            f"during a commit={self.during})"
        )


def _bounded(runs: int, deadline: float) -> Callable[[int], bool]:
    end = time.monotonic() + deadline
    return lambda done: done < runs and time.monotonic() < end


def _left_over(tree: dict[str, Entry]) -> bool:
    return any(key.endswith(".apply_patch.tmp") or key == JOURNAL for key in tree)


# 1. Signals during a 300-file commit, each way the commit can run.

FILES = 300
SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGKILL)
WAYS = ("executable", "serve", "library, main thread", "library, worker thread")
PATCH = (
    "*** Begin Patch\n*** Add File: made/deep/new.txt\n+new\n"
    + "".join(f"*** Update File: f{i:03}.txt\n@@\n-old 7\n+new 7\n" for i in range(FILES))
    + "*** End Patch\n"
)
# A library caller with a second thread: that thread sends the signal to itself (a
# process-directed signal may be delivered to any thread), once the commit has begun.
LIBRARY_MAIN = """
import os, signal, sys, threading, time
from apply_patch import apply_patch
from apply_patch.apply.records import _journal, _receipts
root, number, delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
real = os.path.realpath(root)
places = (os.path.join(_receipts.folder_of(real), os.fsdecode(_journal.state_name(os.stat(real)))),
          os.path.join(root, ".apply_patch.journal"))
def committing():
    return any(os.path.exists(p) for p in places) or any(n.endswith(".apply_patch.tmp") for n in os.listdir(root))
def marked():
    for place in places:
        try:
            with open(place, "rb") as journal:
                if journal.read().endswith(b"\\ncommit\\n"):
                    return True
        except OSError:
            pass
    return False
def strike():
    end = time.monotonic() + 30
    if delay < 0:
        while not (committing() if delay == -1 else marked()) and time.monotonic() < end:
            pass
    else:
        time.sleep(delay)
    signal.pthread_kill(threading.get_ident(), number)
threading.Thread(target=strike, daemon=True).start()
apply_patch(sys.stdin.read(), root)
"""
# A library caller committing in a worker thread; its signal handlers are Python's own.
LIBRARY_WORKER = """
import sys, threading
from apply_patch import apply_patch
worker = threading.Thread(target=apply_patch, args=(sys.stdin.read(), sys.argv[1]))
worker.start()
worker.join()
"""
# An apply_patch run after the kill: its patch fails, and it finishes or undoes first.
NEXT_RUN = "*** Begin Patch\n*** Delete File: not-there.txt\n*** End Patch\n"


def _signal_tree(root: Path) -> None:
    root.mkdir()
    for i in range(FILES):
        (root / f"f{i:03}.txt").write_text("".join(f"old {j}\n" for j in range(20)))


def signals(tmp: Path, runs: int, deadline: float, way: str, seed: int = 22) -> Tally:
    """SIGTERM, SIGHUP and SIGKILL in turn to a 300-file apply made `way`.

    Half the runs, the signal is sent once a commit runs (its journal or a
    temporary file is there), a run in four once the journal is marked
    `commit` (every new content written: a killed commit is then finished),
    else at a random moment. Where handlers can hold the signal
    (SIGTERM and SIGHUP, but in a worker thread of a process whose handlers
    are not ours) the tree must be wholly old or new, with nothing left over,
    as the process ends; else after the next run on the root.
    """
    tally = Tally(f"signals to {way}, {FILES} files")
    rng = random.Random(seed)
    old, new = _expected(tmp)
    more = _bounded(runs, deadline)
    while more(tally.calls):
        number = SIGNALS[tally.calls % len(SIGNALS)]
        root = tmp / f"{way.split()[0]}{tally.calls}"
        _signal_tree(root)
        delay = rng.choice((-1.0, -1.0, -2.0, rng.uniform(0, 0.3)))
        error = _signalled(way, root, number, delay, tally)
        tally.calls += 1
        tally.tracebacks += b"Traceback" in error
        held = number != signal.SIGKILL and way != "library, worker thread"
        if held:
            _judge(tally, snapshot(root), old, new, root)
        _next_run(root, tally)
        if not held:
            _judge(tally, snapshot(root), old, new, root)
    return tally


def _expected(tmp: Path) -> tuple[dict[str, Entry], dict[str, Entry]]:
    root = tmp / "expected"
    _signal_tree(root)
    old = snapshot(root)
    apply_patch(PATCH, root)
    new = snapshot(root)
    return old, new


def _judge(
    tally: Tally, tree: dict[str, Entry], old: dict[str, Entry], new: dict[str, Entry], root: Path
) -> None:
    leftover = _left_over(tree) or journals(root)[0].exists()
    kept = {key: value for key, value in tree.items() if not key.endswith(".apply_patch.tmp") and key != JOURNAL}
    tally.leftovers += leftover
    tally.partial += kept not in (old, new)
    tally.applied += kept == new
    tally.refused += kept == old


def _signalled(way: str, root: Path, number: int, delay: float, tally: Tally) -> bytes:
    """Start the apply `way`, signal it (see `signals`); its stderr once it ended."""
    if way == "library, main thread":
        proc = _popen([sys.executable, "-c", LIBRARY_MAIN, str(root), str(number), str(delay)], PATCH.encode())
        tally.during += delay < 0
        return proc.communicate(timeout=120)[1]
    if way == "serve":
        proc = _popen([executable(), "serve", "--root", str(root)], None)
        _mcp_call(proc, {"name": "apply_patch", "arguments": {"patch": PATCH}})
    elif way == "executable":
        proc = _popen([executable(), "-C", str(root)], PATCH.encode())
    else:
        proc = _popen([sys.executable, "-c", LIBRARY_WORKER, str(root)], PATCH.encode())
    tally.during += _strike(proc, root, number, delay)
    return proc.communicate(timeout=120)[1]


def _popen(command: list[str], stdin: bytes | None) -> "subprocess.Popen[bytes]":
    """A process as a terminal starts it (no signal blocked or ignored), `stdin` written and closed."""
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal,
    )
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdin = None  # written: communicate() has nothing more to send
    return proc


def _as_from_a_terminal() -> None:
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def _strike(proc: "subprocess.Popen[bytes]", root: Path, number: int, delay: float) -> bool:
    """Send `number` once a commit runs (`delay` -1), once its journal is marked `commit`
    (-2), or after `delay` seconds; whether a commit ran."""
    ready = _committing if delay == -1 else _marked
    if delay >= 0:
        time.sleep(delay)
    else:
        end = time.monotonic() + 30
        while not ready(root) and proc.poll() is None and time.monotonic() < end:
            pass
    during = _committing(root)
    if proc.poll() is None:
        proc.send_signal(number)
    return during


def _marked(root: Path) -> bool:
    """The commit under `root` has written every new content: its journal ends with `commit`."""
    for place in journals(root):
        try:
            if place.read_bytes().endswith(b"\ncommit\n"):
                return True
        except OSError:
            pass
    return False


def _committing(root: Path) -> bool:
    """A commit runs under `root`: its journal or a temporary file is there."""
    return any(p.exists() for p in journals(root)) or any(n.endswith(".apply_patch.tmp") for n in os.listdir(root))


def _next_run(root: Path, tally: Tally) -> None:
    result = subprocess.run([executable(), "-C", str(root), NEXT_RUN], capture_output=True, timeout=120)
    tally.tracebacks += b"Traceback" in result.stderr or result.returncode != 1


def _mcp_call(proc: "subprocess.Popen[bytes]", params: dict[str, Any]) -> None:
    """Initialize the server, then send one tools/call (not waiting for its answer)."""
    assert proc.stdin is not None and proc.stdout is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    for message in (
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params},
    ):
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        if message.get("id") == 0:
            proc.stdout.readline()


# 2. Reads while a file and a folder of the root are swapped for symlinks to outside.

SECRET = "SECRET-0f9d2"
# Swaps each entry of the root with a symlink beside it, as fast as it can: an atomic
# rename exchange (Linux), else a rename loop.
SWAPPER = """
import ctypes, os, sys
root = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
pairs = [(os.path.join(root, a).encode(), os.path.join(root, b).encode())
         for a, b in (("a.txt", "a.link"), ("d", "d.link"), ("e", "e.link"))]
exchange = getattr(libc, "renameat2", None)
while True:
    for one, other in pairs:
        if exchange is None or exchange(-100, one, -100, other, 2) != 0:
            os.rename(one, one + b".real"); os.rename(other, one)
            os.rename(one, other); os.rename(one + b".real", one)
"""


def read_race(tmp: Path, runs: int, deadline: float) -> Tally:
    """view, and edits that fail (their messages quote the file), while entries are swapped.

    `a.txt` ↔ a symlink to an outside file, folder `d` ↔ a symlink to the
    same file, folder `e` ↔ a symlink to an outside folder holding `f.txt`.
    No answer may hold the outside content; the root's files stay as they were.
    """
    tally = Tally("reads while entries are swapped for symlinks (every surface)")
    root = _race_tree(tmp)
    before = {path: (root / path).read_bytes() for path in ("a.txt", "d/f.txt", "e/f.txt")}
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root)])
    more = _bounded(runs, deadline)
    try:
        while more(tally.calls):
            for call in READS:
                _read_once(tally, call, root)
    finally:
        swapper.kill()
        swapper.wait()
    for path, data in before.items():
        top, _, rest = path.partition("/")
        swapped = {"a.txt": "a.link"}.get(top, top + ".link")  # its name when it is swapped
        real = root / swapped if (root / top).is_symlink() else root / top
        tally.changed += (real / rest if rest else real).read_bytes() != data
    tally.leftovers += _left_over(snapshot(root))
    return tally


def _race_tree(tmp: Path) -> Path:
    root, outside = tmp / "root", tmp / "outside"
    for folder in (root / "d", root / "e", outside):
        folder.mkdir(parents=True)
    (root / "a.txt").write_text("inside a\n")
    (root / "d" / "f.txt").write_text("inside d\n")
    (root / "e" / "f.txt").write_text("inside e\n")
    (outside / "secret.txt").write_text(f"{SECRET}\n")
    (outside / "f.txt").write_text(f"{SECRET}\n")
    os.symlink(outside / "secret.txt", root / "a.link")
    os.symlink(outside / "secret.txt", root / "d.link")
    os.symlink(outside, root / "e.link")
    return root


def _failing_call(path: str) -> dict[str, Any]:
    return {"type": "apply_patch_call", "call_id": "c",
            "operation": {"type": "update_file", "path": path, "diff": f"-{SECRET[:6]}x\n+y\n"}}


READS: tuple[Callable[[Path], object], ...] = tuple(
    call
    for path in ("a.txt", "d/f.txt", "e/f.txt")
    for call in (
        lambda root, p=path: TextEditor(root).run({"command": "view", "path": p}),
        lambda root, p=path: TextEditor(root).run(
            {"command": "str_replace", "path": p, "old_str": SECRET[:6] + "x", "new_str": "y"}
        ),
        lambda root, p=path: apply_edits([StrReplace(p, SECRET[:6] + "x", "y")], root),
        lambda root, p=path: apply_calls([_failing_call(p)], root),
        lambda root, p=path: apply_patch(
            f"*** Begin Patch\n*** Update File: {p}\n-{SECRET[:6]}x\n+y\n*** End Patch", root
        ),
    )
) + (
    lambda root: TextEditor(root).run({"command": "view", "path": "d"}),
    lambda root: TextEditor(root).run({"command": "view", "path": "e"}),
    lambda root: TextEditor(root).run({"command": "view", "path": "."}),
)


def _read_once(tally: Tally, call: Callable[[Path], object], root: Path) -> None:
    tally.calls += 1
    try:
        answer: object = call(root)
    except PatchError as error:
        answer = str(error)
        tally.refused += 1
    except Exception as error:  # not one of ours: counted, with its text
        tally.tracebacks += 1
        tally.notes.append(f"{type(error).__name__}: {error}")
        return
    tally.leaks += SECRET in repr(answer)


# 3. Unusable input through every library entry, the executable and the MCP server.

HOSTILE = ("\ud800", "\udfff", "\n", "\r", "\x1b[31m", "\x9b", "\x00", "\u2028", "\x07")


def _hostile_text(rng: random.Random, base: str, pieces: tuple[str, ...] = HOSTILE) -> str:
    """`base` with one or more hostile pieces inserted."""
    text = base
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(pieces) + text[at:]
    return text


def _hostile_path(
    rng: random.Random, *, in_a_line: bool, in_bytes: bool = False, in_json: bool = False
) -> str:
    """A path no edit may take: hostile characters, too long, or naming a folder.

    `in_a_line`: the path is a line of a text format, where a line break ends it
    (and whitespace around it, a CR or U+2028 included, is not part of it): none is put in.
    `in_bytes`: it is sent as UTF-8 (no lone surrogate: only JSON can carry one).
    `in_json`: it is sent as JSON, where `\\ud800\\udfff` is a pair, one valid character:
    only high surrogates are put in.
    """
    kind = rng.random()
    if kind < 0.1:
        return "a/" * 2100 + "b.txt"  # more than PATH_MAX
    if kind < 0.2:
        return "a.txt/"
    pieces = tuple(p for p in HOSTILE if p not in "\n\r\u2028") if in_a_line else HOSTILE
    if in_bytes or in_json:
        pieces = tuple(p for p in pieces if p not in ("\udfff" if in_json else "\ud800\udfff"))
    return _hostile_text(rng, "a.txt", pieces)


ENTRIES: tuple[Callable[[Path, str, str], object], ...] = (
    lambda root, path, text: apply_patch(f"*** Begin Patch\n*** Add File: {path}\n+{text}\n*** End Patch", root),
    lambda root, path, text: apply_edits([CreateFile(path, text)], root),
    lambda root, path, text: apply_edits([StrReplace(path, "a", text)], root),
    lambda root, path, text: apply_edits([Insert(path, 1, text)], root),
    lambda root, path, text: apply_search_replace(f"{path}\n<<<<<<< SEARCH\na\n=======\n{text}\n>>>>>>> REPLACE\n", root),
    lambda root, path, text: apply_unified_diff(f"--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-a\n+{text}\n", root),
    lambda root, path, text: apply_calls([{"type": "apply_patch_call", "call_id": "c", "operation": {
        "type": "update_file", "path": path, "diff": f"-a\n+{text}\n"}}], root),
    lambda root, path, text: TextEditor(root).run({"command": "create", "path": path, "file_text": text}),
    lambda root, path, text: TextEditor(root).run({"command": "str_replace", "path": path, "old_str": "a", "new_str": text}),
    lambda root, path, text: TextEditor(root).run({"command": "insert", "path": path, "insert_line": 1, "new_str": text}),
    lambda root, path, text: TextEditor(root).run({"command": "view", "path": path}),
)


LINE_FORMATS = (0, 4, 5)  # the entries above whose path is a line of a text


def hostile_input(tmp: Path, runs: int, deadline: float, seed: int = 22) -> Tally:
    """Random unusable paths and texts through every library entry: a clean refusal each time.

    Every call must end in a PatchError or an error answer that any encoder
    takes, the tree unchanged. (What reaches a terminal is the executable's
    and the server's: see `hostile_executable`, `mcp_requests`.)
    """
    tally = Tally("unusable input (every library entry)")
    rng = random.Random(seed)
    root = tmp / "input"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    before = snapshot(root)
    more = _bounded(runs, deadline)
    while more(tally.calls):
        entry = rng.choice(ENTRIES)
        hostile_path = rng.random() < 0.6
        path = _hostile_path(rng, in_a_line=ENTRIES.index(entry) in LINE_FORMATS) if hostile_path else "a.txt"
        text = "x" if hostile_path else _hostile_text(rng, "x") + "\ud800"
        _input_once(tally, lambda: entry(root, path, text))
        if snapshot(root) != before:
            tally.changed += 1
            tally.notes.append(f"entry {ENTRIES.index(entry)} changed the tree: {path!r} {text!r}")
            _reset(root, before)
    return tally


def _input_once(tally: Tally, call: Callable[[], object]) -> None:
    tally.calls += 1
    try:
        answer = call()
    except PatchError as error:
        tally.refused += 1
        _encodable(tally, str(error))
        return
    except Exception as error:
        tally.tracebacks += 1
        tally.notes.append(f"{type(error).__name__}: {error}")
        return
    text = json.dumps(answer, default=repr, ensure_ascii=False)
    failed = ('"is_error": true' in text) or ('"status": "failed"' in text) or ("status='failed'" in text)
    tally.refused += failed
    tally.applied += not failed
    _encodable(tally, text)


def _encodable(tally: Tally, text: str) -> None:
    """Nothing an encoder refuses (a lone surrogate would stop a JSON writer)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        tally.tracebacks += 1
        tally.notes.append(f"an answer holds a lone surrogate: {text[:80]!r}")


def _for_a_terminal(tally: Tally, data: bytes) -> None:
    """No raw control character that drives a terminal (ESC, CSI, BEL)."""
    if any(char in data for char in (b"\x1b", "\x9b".encode(), b"\x07")):
        tally.tracebacks += 1
        tally.notes.append(f"raw control characters for a terminal: {data[:80]!r}")


def _reset(root: Path, before: dict[str, Entry]) -> None:
    for path in sorted(snapshot(root), reverse=True):
        if path not in before:
            target = root / path
            target.rmdir() if target.is_dir() and not target.is_symlink() else target.unlink()
    (root / "a.txt").write_bytes(before["a.txt"].data)


EXECUTABLE_FORMATS = (["--format", "codex"], ["--format", "search-replace"], ["--format", "unified-diff"])


def hostile_executable(tmp: Path, runs: int, deadline: float, seed: int = 22) -> Tally:
    """Unusable input through the executable (each format, and `calls`): exit 2, one clean
    error, nothing raw on the terminal, the tree unchanged."""
    tally = Tally("unusable input (the executable)")
    rng = random.Random(seed)
    root = tmp / "executable"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    before = snapshot(root)
    more = _bounded(runs, deadline)
    while more(tally.calls):
        tally.calls += 1
        args, stdin = _executable_input(rng)
        result = subprocess.run([executable(), "-C", str(root), *args], input=stdin, capture_output=True, timeout=120)
        tally.tracebacks += b"Traceback" in result.stderr or result.returncode not in (1, 2)
        tally.refused += result.returncode in (1, 2)
        _for_a_terminal(tally, result.stderr)
        if snapshot(root) != before:
            tally.changed += 1
            tally.notes.append(f"{args} {stdin[:80]!r} changed the tree")
            _reset(root, before)
    return tally


def _executable_input(rng: random.Random) -> tuple[list[str], bytes]:
    path = _hostile_path(rng, in_a_line=True, in_bytes=True)
    kind = rng.randrange(4)
    if kind == 3:
        path = _hostile_path(rng, in_a_line=False, in_json=True)
        call = {"type": "apply_patch_call", "call_id": "c",
                "operation": {"type": "create_file", "path": path, "diff": "+x\n"}}
        return ["calls"], json.dumps([call]).encode()
    texts = (
        f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch\n",
        f"{path}\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n",
        f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x\n",
    )
    return EXECUTABLE_FORMATS[kind], texts[kind].encode()


def mcp_requests(tmp: Path, runs: int, deadline: float, seed: int = 22) -> Tally:
    """Malformed requests to `apply_patch serve`: every one answered, the server going on."""
    tally = Tally("malformed MCP requests (serve)")
    rng = random.Random(seed)
    root = tmp / "mcp"
    root.mkdir()
    more = _bounded(runs, deadline)
    with subprocess.Popen(
        [executable(), "serve", "--root", str(root)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        _mcp_call(server, {"name": "apply_patch", "arguments": {"patch": "not a patch"}})
        server.stdout.readline()
        while more(tally.calls):
            tally.calls += 1
            server.stdin.write(_malformed(rng, tally.calls) + b"\n")
            server.stdin.flush()
            answer = server.stdout.readline()
            tally.unanswered += not answer
            _for_a_terminal(tally, answer)
            tally.refused += b'"error"' in answer or b'"isError":true' in answer.replace(b" ", b"")
        server.kill()
        tally.tracebacks += b"Traceback" in server.communicate()[1]
    tally.changed += bool(os.listdir(root))
    return tally


def _malformed(rng: random.Random, number: int) -> bytes:
    """A line the server must answer: not JSON, not a request, or holding a lone surrogate."""
    kind = rng.randrange(5)
    if kind == 0:
        return b'{"jsonrpc": "2.0", "id": %d, "method": ' % number
    if kind == 1:
        return b"[" * rng.randint(1000, 50_000) + b"]"
    if kind == 2:
        return json.dumps({"id": number, "params": rng.random()}).encode()
    path = _hostile_path(rng, in_a_line=True, in_json=True)
    arguments = {"patch": f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch"}
    if kind == 3:
        arguments = {"command": "create", "path": "a\\ud800", "file_text": "x"}
    call = {"jsonrpc": "2.0", "id": number, "method": "tools/call",
            "params": {"name": "apply_patch" if kind == 4 else "str_replace_based_edit_tool", "arguments": arguments}}
    return json.dumps(call).replace("\\\\ud800", "\\ud800").encode()


# 4. The review gate: `accept` racing `reject` (and another `accept`) on one staged patch.

GATE_PATCH = b"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** End Patch\n"


def gate_race(tmp: Path, runs: int, deadline: float, seed: int = 22) -> Tally:
    """A staged patch decided by two processes at once (accept and reject, or two accepts,
    started in a random order): exactly one decides it, an exit 0 of `accept` means the
    file was written and an exit 1 that it was not (a lie counts as `changed`), no
    traceback, nothing left pending."""
    tally = Tally("the review gate: accept racing reject")
    rng = random.Random(seed)
    root = tmp / "gate"
    root.mkdir()
    more = _bounded(runs, deadline)
    while more(tally.calls):
        tally.calls += 1
        (root / "a.txt").write_bytes(b"one\n")
        staged = subprocess.run([executable(), "-C", str(root), "--stage"], input=GATE_PATCH, capture_output=True, timeout=120)
        staged_id = staged.stdout.decode().split()[1].rstrip(";")
        commands = [["accept", staged_id], rng.choice((["reject", staged_id], ["accept", staged_id]))]
        rng.shuffle(commands)
        processes = [
            subprocess.Popen([executable(), *command], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for command in commands
        ]
        outcomes = []
        for command, process in zip(commands, processes):
            out, err = process.communicate(timeout=120)
            outcomes.append((command, process.returncode, out, err))
        applied = (root / "a.txt").read_bytes() == b"ONE\n"
        accepted = sum(code == 0 for command, code, _, _ in outcomes if command[0] == "accept")
        decided = sum(code == 0 for _, code, _, _ in outcomes)
        tally.tracebacks += any(b"Traceback" in err or code not in (0, 1) for _, code, _, err in outcomes)
        if accepted != applied or decided != 1:
            tally.changed += 1
            tally.notes.append(f"{[(c, code, err[:200]) for c, code, _, err in outcomes]} applied={applied}")
        tally.applied += applied
        tally.refused += not applied
        listed = subprocess.run([executable(), "pending"], cwd=root, capture_output=True, timeout=120)
        tally.leftovers += listed.stdout != b""
    return tally


# 6. Journals planted at the crash journal's name (issue #33): never obeyed, never a hang.

OCCUPANTS = ("another user's", "fifo", "symlink", "folder", "group-writable", "two links", "ours, unconfined")
_PLANTED_GOOD = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** End Patch\n"
_PLANTED_REFUSED = "*** Begin Patch\n*** Delete File: not-there.txt\n*** End Patch\n"


def planted_journals(tmp: Path, runs: int, deadline: float, seed: int = 33) -> Tally:
    """A committing call on a root where something was put at the journal's name: another
    user's journal (when running as root: uid 54321), a FIFO, a symlink, a folder, a
    group-writable or twice-linked journal of ours, or ours with records outside the root;
    their records delete, replace or remove files and folders outside the root and in it
    (the right device and inode each). The state folder usable or not; a good patch or a
    refused one; the executable (a FIFO: bounded by a timeout) or the library. Nothing
    outside may change (`changed`), the occupant stays as it was (`changed`), a good patch
    applies and a refused one changes nothing (`partial`), no hang (`unanswered`)."""
    tally = Tally("journals planted at the crash journal's name")
    rng = random.Random(seed)
    more = _bounded(runs, deadline)
    blocked = tmp / "state-blocked"
    blocked.write_text("a file where the state folder should be")
    while more(tally.calls):
        run = tmp / f"planted{tally.calls}"
        root, outside = run / "root", run / "outside"
        for folder in (root, outside):
            folder.mkdir(parents=True)
            folder.chmod(0o1777)
        (root / "a.txt").write_text("a\n")
        (root / "keep.txt").write_text("keep\n")
        (outside / "precious.txt").write_text("precious\n")
        (outside / "empty").mkdir()
        (root / "empty").mkdir()
        kind = rng.choice(OCCUPANTS if os.geteuid() == 0 else OCCUPANTS[1:])
        _plant(kind, root, outside, rng)
        occupant = _occupant(root)
        before_outside, before_root = snapshot(outside), _without_journal(snapshot(root) if kind != "fifo" else {})
        good = rng.random() < 0.5
        patch = _PLANTED_GOOD if good else _PLANTED_REFUSED
        state = os.environ.get("APPLY_PATCH_STATE_DIR")
        if rng.random() < 0.3:
            os.environ["APPLY_PATCH_STATE_DIR"] = str(blocked / "apply_patch")
        bad = tally.bad()
        try:
            tally.calls += 1
            applied = _planted_call(tally, kind, root, patch)
        finally:
            if state is None:
                os.environ.pop("APPLY_PATCH_STATE_DIR", None)
            else:
                os.environ["APPLY_PATCH_STATE_DIR"] = state
        tally.changed += snapshot(outside) != before_outside
        if kind != "ours, unconfined":
            tally.changed += _occupant(root) != occupant
        if applied is not None:
            tally.applied += applied
            tally.refused += not applied
            tally.partial += applied != good
            if kind not in ("fifo", "ours, unconfined"):  # ours: its records in the root are obeyed
                now = _without_journal(snapshot(root))
                expected = dict(before_root)
                if applied:
                    expected["a.txt"] = Entry("file", b"A\n", now["a.txt"].mode)
                tally.partial += now != expected
        if tally.bad() > bad and len(tally.notes) < 20:
            tally.notes.append(f"run {tally.calls - 1}: {kind}, {'good' if good else 'refused'} patch")
    return tally


def _without_journal(tree: dict[str, Entry]) -> dict[str, Entry]:
    return {k: v for k, v in tree.items() if k != JOURNAL and not k.startswith(JOURNAL + "/")}


def _occupant(root: Path) -> tuple[object, ...]:
    """What is at the journal's name: its type, owner, mode, links and bytes (never opened
    when it is not a regular file)."""
    try:
        info = (root / JOURNAL).lstat()
    except FileNotFoundError:
        return ()
    data = (root / JOURNAL).read_bytes() if stat.S_ISREG(info.st_mode) else b""
    return stat.S_IFMT(info.st_mode), info.st_uid, stat.S_IMODE(info.st_mode), info.st_nlink, info.st_ino, data


def _plant(kind: str, root: Path, outside: Path, rng: random.Random) -> None:
    journal = root / JOURNAL
    if kind == "fifo":
        os.mkfifo(journal)
        return
    if kind == "symlink":
        journal.symlink_to(outside / "precious.txt")
        return
    if kind == "folder":
        journal.mkdir()
        return
    data = _attack(root, outside, rng)
    if kind == "another user's":
        journal.write_bytes(data)
        journal.chmod(0o600)
        os.chown(journal, 54321, 54321)
        return
    journal.write_bytes(data)
    journal.chmod({"group-writable": 0o660, "two links": 0o600, "ours, unconfined": 0o600}[kind])
    if kind == "two links":
        os.link(journal, root.parent / "second-name")


def _attack(root: Path, outside: Path, rng: random.Random) -> bytes:
    """Records of the previous version's journal aimed at files and folders outside the
    root and in it, each with the identity of the file it names."""
    version = rng.choice((b"apply_patch journal 1\n", b"apply_patch journal 2\n"))
    temp = f".precious.txt.{rng.getrandbits(32):08x}.apply_patch.tmp"
    (outside / temp).write_text("the attacker's bytes\n")
    precious, keep, made = (os.lstat(p) for p in (outside / "precious.txt", root / "keep.txt", outside / temp))
    folders = [str(outside), str(root / ".." / "outside"), "../outside", str(root)]
    records = []
    for _ in range(rng.randint(1, 6)):
        folder = rng.choice(folders)
        records.append(rng.choice((
            _journal.record("delete", folder, "precious.txt", precious.st_dev, precious.st_ino),
            _journal.record("delete", str(root), "keep.txt", keep.st_dev, keep.st_ino),
            _journal.record("replace", folder, temp, "precious.txt", precious.st_dev, precious.st_ino),
            _journal.record("replace", folder, temp, "precious.txt", made.st_dev, made.st_ino, precious.st_dev, precious.st_ino),
            _journal.record("folder", f"{folder}/empty"),
            _journal.record("temp", folder, temp),
        )))
    real = os.stat(os.path.realpath(root))
    header = version + (b"root %d %d\n" % (real.st_dev, real.st_ino) if version.endswith(b"2\n") else b"")
    return header + b"".join(records) + (_journal.COMMIT if rng.random() < 0.5 else b"")


def _planted_call(tally: Tally, kind: str, root: Path, patch: str) -> bool | None:
    """Apply `patch` on `root`: whether it applied (None: no answer in time, or a traceback)."""
    if kind == "fifo" or tally.calls % 2:
        try:
            result = subprocess.run([executable(), "-C", str(root), patch], capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            tally.unanswered += 1
            return None
        if b"Traceback" in result.stderr or result.returncode not in (0, 1):
            tally.tracebacks += 1
            return None
        return result.returncode == 0
    try:
        apply_patch(patch, root)
    except PatchError:
        return False
    except Exception as exc:  # noqa: BLE001  (counted: every failure must be a PatchError)
        tally.tracebacks += 1
        tally.notes.append(f"{type(exc).__name__}: {exc}")
        return None
    return True


CAMPAIGNS: tuple[Callable[[Path, int, float], Tally], ...] = (
    *(lambda tmp, runs, deadline, way=way: signals(tmp, runs, deadline, way) for way in WAYS),
    read_race,
    hostile_input,
    hostile_executable,
    mcp_requests,
    gate_race,
    planted_journals,
)
