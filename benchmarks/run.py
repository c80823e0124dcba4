"""Benchmarks of `apply_patch`: builds its inputs, measures, prints one table and the budgets.

    python benchmarks/run.py [--repeat N] [--startup-repeat N]

Run it with the interpreter of the virtual environment where the package is
installed (`make bench` does). If `APPLY_PATCH_REFERENCE` names the reference
executable (see DEVELOPERS.md), it runs on the same inputs in the same run and
the ratios are printed. Every figure is the median of repeated runs, with the
min–max range. Nothing here is a test: no figure makes anything fail.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import inputs
from inputs import Case

HERE = Path(__file__).resolve().parent
REFERENCE_VARIABLE = "APPLY_PATCH_REFERENCE"
MB = 1024 * 1024
# Start-up budgets (issue 35): the executable on a small patch, with and without options,
# within this many times a bare `python -c pass` of the same venv, and `--version` (Lark is
# imported only when a patch is parsed) within VERSION_LIMIT; tests/cli/test_startup.py
# holds the same two as a generous guard, these are the figures.
STARTUP_LIMIT = 10.0
VERSION_LIMIT = 2.5
WITH_OPTIONS = ("-C", ".", "--codex", "--json")
# The executable's ways measured against the budget: no option, the issue's own example
# (`-C .`), and the heaviest everyday set (argparse and json).
STARTUP_PATHS: tuple[tuple[str, ...], ...] = ((), ("-C", "."), WITH_OPTIONS)
# Issue 24's budgets for the other formats, each a ratio to a baseline of the same run.
SPEED_LIMIT = 2.0  # str_replace, SEARCH/REPLACE: against plain Python doing the same job
TOLERANT_LIMIT = 1.5  # the whitespace-tolerant match against the exact one
BATCH_LIMIT = 4.0  # 1,000 blocks against 100 in one 100k-line file: no batch constant (issue 35)
UNIFIED_LIMIT = 3.0  # a unified diff against GNU patch, whole processes
MEMORY_LIMIT = 4.0  # peak RSS growth against the bytes of the file, 1M lines
# (lines, hunks) of the unified-diff cases: a small file, one hunk every 100 lines up to 1M
# lines, and many hunks (one every 10 lines).
UNIFIED_CASES = ((1_000, 10), (100_000, 1_000), (1_000_000, 10_000), (100_000, 10_000))
FILES_LIMIT = 1.5  # 1,000 files updated, whole processes, against the reference's
FILE_COUNTS = (10, 100, 1_000)  # the files-updated cases (issue 24: the fixed costs of a file)


@dataclass(frozen=True)
class Sample:
    """Repeated measurements of one thing, in seconds (or bytes)."""

    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def show(self, unit: str = "ms") -> str:
        scale, digits = {"ms": (1000.0, 1), "s": (1.0, 3), "MB": (1.0 / MB, 1)}[unit]
        low, high = min(self.values) * scale, max(self.values) * scale
        return f"{self.median * scale:.{digits}f} {unit} ({low:.{digits}f}–{high:.{digits}f})"


@dataclass(frozen=True)
class Row:
    """One line of the table: ours, the reference's (if measured) and their ratio."""

    label: str
    ours: str
    reference: str = ""
    ratio: str = ""


@dataclass(frozen=True)
class Budget:
    """A budget of the issue, as a measured ratio against its limit."""

    name: str
    ratio: float
    limit: float
    note: str

    def show(self) -> str:
        verdict = "met" if self.ratio <= self.limit else "NOT met"
        return f"  {verdict:7} {self.name}: {self.ratio:.2f}× (limit {self.limit:g}×; {self.note})"


class Workspace:
    """A scratch folder holding each case's input files and patch, re-laid before every run."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="apply-patch-bench-"))

    def patch_file(self, case: Case) -> Path:
        path = self.base / f"{_slug(case.name)}.patch"
        if not path.exists():
            path.write_text(case.patch, encoding="utf-8")
        return path

    def fresh_root(self, case: Case) -> Path:
        """An empty root with the case's files, as before any patch."""
        root = self.base / "root"
        if root.exists():
            shutil.rmtree(root)
        root.mkdir()
        for name, data in case.files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return root

    def snapshot(self, root: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
        }

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name)


def time_process(command: Sequence[str], repeat: int, prepare: Callable[[], Path | None] = lambda: None,
                 stdin: Path | None = None) -> Sample:
    """Wall time of a whole process, `prepare()` (its cwd) run untimed before each."""
    values = []
    for _ in range(repeat):
        cwd = prepare()
        with open(stdin or os.devnull, "rb") as source:
            start = time.perf_counter()
            subprocess.run(command, stdin=source, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, cwd=cwd, check=False)
            values.append(time.perf_counter() - start)
    return Sample(tuple(values))


def time_processes_paired(runs: Sequence[tuple[Sequence[str], Callable[[], Path | None], Path | None]],
                          repeat: int) -> list[Sample]:
    """Wall times of several processes, one of each per round, for ratios between them.

    Run in turn rather than one batch after the other, so that a slow spell of the
    machine (another process, the CPU's clock) weighs on all of them alike.
    """
    values: list[list[float]] = [[] for _ in runs]
    for _ in range(repeat):
        for (command, prepare, stdin), times in zip(runs, values):
            times.extend(time_process(command, 1, prepare, stdin).values)
    return [Sample(tuple(times)) for times in values]


def instructions(command: Sequence[str], cwd: Path | None, stdin: Path | None) -> int | None:
    """The instructions a process runs (valgrind's callgrind, hash seed fixed), or None
    without valgrind: unlike wall time, the same on a busy machine."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.TemporaryDirectory() as scratch, open(stdin or os.devnull, "rb") as source:
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out", *command],
            stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
    found = [line.rsplit(":", 1)[1] for line in result.stderr.splitlines() if "Collected :" in line]
    return int(found[-1].strip()) if found else None


def time_call(call: Callable[[], object], repeat: int, prepare: Callable[[], object] = lambda: None) -> Sample:
    """Wall time of `call()` in this process, `prepare()` run untimed before each."""
    values = []
    for _ in range(repeat):
        prepare()
        start = time.perf_counter()
        call()
        values.append(time.perf_counter() - start)
    return Sample(tuple(values))


def time_calls_paired(calls: Sequence[Callable[[Path], object]], prepare: Callable[[], Path],
                      repeat: int) -> list[Sample]:
    """Wall times of `call(root)` for each call, one of each per round on a fresh root."""
    values: list[list[float]] = [[] for _ in calls]
    for _ in range(repeat):
        for call, times in zip(calls, values):
            root = prepare()
            start = time.perf_counter()
            call(root)
            times.append(time.perf_counter() - start)
    return [Sample(tuple(times)) for times in values]


def _checked(result: object) -> object:
    """`result` of a public call, refused if it changed no file (a broken bench proves nothing)."""
    if not getattr(result, "changes", None):
        raise SystemExit(f"the edit changed nothing: {result!r}")
    return result


def _plain_replace(case: inputs.Replacement) -> Callable[[Path], object]:
    """The plain Python baseline: read the file, for each replacement check that its old
    text occurs once (`str.count`) and replace it (`str.replace`), write the file (a
    CRLF file's breaks made LF first and CRLF again at the end)."""

    def call(root: Path) -> None:
        path = root / case.path
        text = path.read_bytes().decode("utf-8")
        crlf = "\r\n" in text  # LF replacements in a CRLF file: matched with LF, written back with CRLF
        if crlf:
            text = text.replace("\r\n", "\n")
        for old, new in case.pairs:
            if text.count(old) != 1:
                raise SystemExit(f"{case.name}: the baseline found its old text {text.count(old)} times")
            text = text.replace(old, new, 1)
        path.write_bytes((text.replace("\n", "\r\n") if crlf else text).encode("utf-8"))

    return call


def _file_diffs(patch: str) -> dict[str, str]:
    """The body of each `*** Update File:` of a Codex patch (what `apply_diff` takes), by path."""
    diffs: dict[str, list[str]] = {}
    body: list[str] = []
    for line in patch.splitlines():
        if line.startswith("*** Update File: "):
            body = diffs.setdefault(line.removeprefix("*** Update File: "), [])
        elif not line.startswith("*** "):
            body.append(line)
    return {path: "\n".join(lines) + "\n" for path, lines in diffs.items()}


def probe(*args: str) -> dict[str, object]:
    """Run `probe.py` in a fresh interpreter of this environment; its JSON answer."""
    output = subprocess.run([sys.executable, str(HERE / "probe.py"), *args], capture_output=True,
                            text=True, check=True).stdout
    answer: dict[str, object] = json.loads(output)
    return answer


def imported_modules(command: Sequence[str], stdin: Path | None = None, cwd: Path | None = None) -> list[str]:
    """Every module `command` (a Python process) imports, in order (from -X importtime)."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    with open(stdin or os.devnull, "rb") as source:
        result = subprocess.run(command, stdin=source, capture_output=True, text=True, cwd=cwd,
                                env=env, check=False)
    return [line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
            if line.startswith("import time:") and "|" in line and "self [us]" not in line]


def imported_by_executable(executable: str, patch: Path, root: Callable[[], Path]) -> set[str]:
    """Top-level modules the executable imports while applying `patch`."""
    return {name.split(".")[0] for name in imported_modules([executable], patch, root())}


def standard_floor(executable: str, options: Sequence[str], patch: Path, root: Callable[[], Path]) -> list[str]:
    """`python -c "import ..."` of the modules the executable imports beyond a bare
    interpreter's, but for the package's own: what no change to the package can save."""
    bare = set(imported_modules([sys.executable, "-c", "pass"]))
    needed = [name for name in imported_modules([executable, *options], patch, root())
              if name not in bare and name.split(".")[0] != "apply_patch"]
    # Some are tried and missing (copy tries org.python.core): each in its own try.
    code = f"for name in {needed!r}:\n    try:\n        __import__(name)\n    except ImportError:\n        pass"
    return [sys.executable, "-c", code]


def peak_memory_reference(reference: str, patch: Path, root: Path) -> float | None:
    """Peak RSS of the reference's whole process in bytes, from GNU time (None without it).

    GNU time is small: the peak it reports is the reference's own, not that of
    a large parent whose mark a child inherits on Linux.
    """
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    with open(patch, "rb") as source:
        result = subprocess.run(["/usr/bin/time", "-f", "%M", reference], stdin=source,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=root)
    return float(result.stderr.strip().splitlines()[-1]) * 1024


class Bench:
    """Runs every measurement and collects the rows and budgets."""

    def __init__(self, repeat: int, startup_repeat: int, reference: str | None) -> None:
        from apply_patch import PatchError, apply_patch, parse_patch

        self.apply_patch, self.parse_patch, self.patch_error = apply_patch, parse_patch, PatchError
        self.repeat, self.startup_repeat, self.reference = repeat, startup_repeat, reference
        self.work = Workspace()
        # Receipts (`apply_patch undo`) go to the scratch folder, not the user's state folder.
        os.environ["APPLY_PATCH_STATE_DIR"] = str(self.work.base / "state")
        self.rows: list[Row] = []
        self.budgets: list[Budget] = []
        self.notes: list[str] = []
        self.bare_seconds = 0.0  # python -c pass at its fastest, measured by `startup`
        self.executable = str(Path(sys.executable).parent / "apply_patch")

    def run(self, *, startup_only: bool = False, formats_only: bool = False, files_only: bool = False,
            streaming_only: bool = False) -> None:
        try:
            if formats_only:
                self.formats()
                return
            if streaming_only:
                self.streaming()
                return
            if files_only:
                self.many_files()
                self.in_memory_files()
                return
            self.startup()
            self.startup_instructions()
            self.syntax_check()
            if startup_only:
                return
            self.large_cases()
            self.many_files()
            self.in_memory_files()
            self.journal_cost()
            self.parse_alone()
            self.memory()
            self.formats()
            self.streaming()
        finally:
            self.work.remove()

    # -- start-up -----------------------------------------------------------------------

    def startup(self) -> None:
        case = inputs.small()
        patch = self.work.patch_file(case)
        n = self.startup_repeat
        fresh = lambda: self.work.fresh_root(case)  # noqa: E731
        runs: list[tuple[Sequence[str], Callable[[], Path | None], Path | None]] = [
            ([sys.executable, "-c", "pass"], lambda: None, None)]
        for options in STARTUP_PATHS:
            self._check_process(case, patch, options)
            runs.append(([self.executable, *options], fresh, patch))
            runs.append((standard_floor(self.executable, options, patch, fresh), lambda: None, None))
        runs.append(([self.executable, "--version"], lambda: None, None))
        bare, *paths, version = time_processes_paired(runs, n)
        self.bare_seconds = min(bare.values)  # the least loaded: instructions are converted at it
        self.rows.append(Row("python -c pass (same venv)", bare.show()))
        self.rows.append(Row("executable --version (whole process)", version.show()))
        self.budgets.append(Budget("executable --version / python -c pass (issue 35)", version.median / bare.median,
                                   VERSION_LIMIT, f"{version.median * 1000:.1f} ms against {bare.median * 1000:.1f} ms"))
        for options, ours, floor in zip(STARTUP_PATHS, paths[0::2], paths[1::2]):
            label = f"  same, with {' '.join(options)}" if options else "executable, small patch (whole process)"
            reference = self._reference_process(case, patch, n, ours) if not options else ()
            self.rows.append(Row(label, ours.show(), *reference))
            self.rows.append(Row("    the standard modules it imports, alone", floor.show()))
            self.budgets.append(Budget(
                f"executable{' ' + ' '.join(options) if options else ''} on the small patch / python -c pass",
                ours.median / bare.median, STARTUP_LIMIT,
                f"{ours.median * 1000:.1f} ms against {bare.median * 1000:.1f} ms; the standard "
                f"modules it imports take {floor.median / bare.median:.2f}× by themselves, "
                f"the package {(ours.median - floor.median) / bare.median:.2f}× more",
            ))
        imports = Sample(tuple(float(str(probe("import")["seconds"])) for _ in range(n)))
        self.rows.append(Row("import apply_patch (in a fresh process)", imports.show()))
        loaded = imported_by_executable(self.executable, patch, lambda: self.work.fresh_root(case))
        library = set(map(str, probe("modules")["loaded"]))  # type: ignore[call-overload]
        for package in ("tree_sitter", "lark"):
            self.rows.append(Row(
                f"  {package} imported by the executable (small patch) / by import apply_patch",
                f"{_yes_no(package in loaded)} / {_yes_no(package in library)}",
            ))

    def startup_instructions(self) -> None:
        """The start-up cases in instructions (callgrind, once each: exact where wall time on a
        busy machine is not), each against `python -c pass` of the same venv: importing the
        package, `--version`, the executable on a one-line Add File (an empty folder) and on a
        one-chunk Update of a 10-line file, and `apply_patch.apply_patch` called in a fresh
        process on the Add File. Issue 35's budgets: 2.5x for `--version`, 10x for the tiny patch.
        The console script pip writes imports `re` (and with it `enum`) before the package:
        that floor is measured too."""
        add = Case("tiny add", {}, "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n")
        ten = "".join(f"line {n}\n" for n in range(1, 11))
        update = Case("one-chunk update", {"ten.txt": ten.encode()},
                      "*** Begin Patch\n*** Update File: ten.txt\n@@\n line 4\n-line 5\n+line five\n line 6\n"
                      "*** End Patch\n")  # fmt: skip
        python = [sys.executable, "-c"]
        script = f"import apply_patch; apply_patch.apply_patch(open({str(self.work.patch_file(add))!r}).read(), '.')"
        cases: list[tuple[str, Sequence[str], Case | None]] = [
            ("python -c pass", [*python, "pass"], None),
            ("python -c 'import re' (what pip's console script imports first)",
             [*python, "import re, sys; re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])"], None),
            ("python -c 'import apply_patch'", [*python, "import apply_patch"], None),
            ("executable --version", [self.executable, "--version"], None),
            ("executable, one-line Add File", [self.executable], add),
            ("executable, one-chunk Update of a 10-line file", [self.executable], update),
            ("apply_patch.apply_patch() in a fresh process, one-line Add File", [*python, script], add),
        ]  # fmt: skip
        counts = []
        for _, command, case in cases:
            if case is not None and command[0] == self.executable:
                self._check_process(case, self.work.patch_file(case), ())
            root = self.work.fresh_root(case) if case is not None else None
            stdin = self.work.patch_file(case) if case is not None and command[0] == self.executable else None
            counts.append(instructions(command, root, stdin))
        bare = counts[0]
        if bare is None:
            self.rows.append(Row("start-up in instructions", "valgrind is not installed: not measured"))
            return
        for (label, _, _), count in zip(cases, counts):
            shown = "not measured" if count is None else f"{count / 1e6:.1f} M = {count / bare:.2f}x python -c pass"
            self.rows.append(Row(f"instructions (callgrind): {label}", shown))
        for index, what, limit in ((3, "--version", VERSION_LIMIT), (4, "the one-line Add File", STARTUP_LIMIT)):
            count = counts[index]
            if count is not None:
                self.budgets.append(Budget(
                    f"executable {what} / python -c pass, in instructions (issue 35)", count / bare,
                    limit, f"{count / 1e6:.1f} M against {bare / 1e6:.1f} M; pip's console "
                    f"script alone (python and re) is {(counts[1] or 0) / bare:.2f}x"))

    def syntax_check(self) -> None:
        """What the syntax check costs (issue 25: a tiny patch's run at most 5 ms more):
        the executable with the check and without, in turn, on a one-line change of a
        48-line Python file that parses (the new content alone is parsed; the start-up
        rows' small patch changes no byte of its file, so nothing is checked there); then
        the check alone on a file of about 1 MB whose edit breaks it (both contents
        parsed), against the deadlines its parses get."""
        source = (HERE.parent / "fixtures" / "syntax" / "inventory.py").read_bytes()
        from apply_patch import make_patch

        changed = source.replace(b"count = item.stock\n", b"count = max(0, item.stock)\n")
        python = Case("python", {"inventory.py": source},
                      str(make_patch(source, changed, path="inventory.py")))  # fmt: skip
        self._syntax_cost("a Python file", python)
        from apply_patch.apply.syntax import _grammars, _syntax

        old = source * (1_000_000 // len(source))
        new = old.replace(b"            count = item.stock\n", b"            count = item.stock)\n", 1)
        sample = time_call(lambda: _syntax.check_file("big.py", old, new), max(self.repeat, 5))
        size = len(new) / 1e6
        self.rows.append(Row(f"syntax check alone, a {size:.1f} MB Python file broken once (both parsed)",
                             sample.show()))
        limit = 2 * _grammars.deadline_ms(new) / 1000  # two parses, each with its deadline
        self.budgets.append(Budget(f"syntax check of a {size:.1f} MB file / its two parses' deadlines",
                                   sample.median / limit, 1.0,
                                   f"{sample.median * 1000 / size:.0f} ms per MB; each parse may take "
                                   f"{_grammars.DEADLINE_MS} ms + {_grammars.MS_PER_MB} ms per MB"))

    def _syntax_cost(self, label: str, case: Case) -> None:
        patch = self.work.patch_file(case)
        fresh = lambda: self.work.fresh_root(case)  # noqa: E731
        runs: list[tuple[Sequence[str], Callable[[], Path | None], Path | None]] = [
            ([self.executable, "--check-syntax", mode], fresh, patch) for mode in ("warn", "off")]
        for options, _, _ in runs:
            self._check_process(case, patch, options[1:])
        warn, off = time_processes_paired(runs, self.startup_repeat)
        extra = Sample(tuple(w - o for w, o in zip(warn.values, off.values)))
        self.rows.append(Row(f"executable, {label}, --check-syntax warn", warn.show()))
        self.rows.append(Row("  same, --check-syntax off", off.show()))
        self.rows.append(Row("  the check's cost (paired differences)", extra.show()))
        self.budgets.append(Budget(f"syntax check, {label} / 5 ms", extra.median / 0.005, 1.0,
                                   f"{extra.median * 1000:.1f} ms more than --check-syntax off"))
        counts = [instructions(command, self.work.fresh_root(case), patch) for command, _, _ in runs]
        bare = instructions([sys.executable, "-c", "pass"], None, None)
        if None not in counts and bare is not None:
            more = (counts[0] or 0) - (counts[1] or 0)
            # Instructions do not wait for a busy machine: the cost in `python -c pass`es,
            # at the fastest wall time `python -c pass` took in the start-up rows (its
            # least loaded run; on a busy machine every figure, this one too, is higher).
            self.rows.append(Row("  the check's cost in instructions (callgrind, once each)",
                                 f"{more / 1e6:.1f} M = {more / bare:.3f} × python -c pass"))
            self.budgets.append(Budget(f"syntax check, {label}, in instructions / 5 ms",
                                       more / bare * self.bare_seconds / 0.005, 1.0,
                                       f"{more / bare * self.bare_seconds * 1000:.1f} ms at "
                                       f"{self.bare_seconds * 1000:.1f} ms a python -c pass, its fastest"))

    def _check_process(self, case: Case, patch: Path, options: Sequence[str] = ()) -> None:
        """Make sure the executable did apply the case's patch (a broken bench proves nothing)."""
        root = self.work.fresh_root(case)
        with open(patch, "rb") as source:
            result = subprocess.run([self.executable, *options], stdin=source, capture_output=True, cwd=root)
        if result.returncode != 0:
            raise SystemExit(f"the executable failed on {case.name}: {result.stderr!r}")

    def _reference_process(self, case: Case, patch: Path, repeat: int, ours: Sample) -> tuple[str, str]:
        if self.reference is None:
            return ("", "")
        sample = time_process([self.reference], repeat, lambda: self.work.fresh_root(case), patch)
        return (sample.show(), f"{ours.median / sample.median:.2f}")

    # -- in-process cases ---------------------------------------------------------------

    def large_cases(self) -> None:
        cases = [
            (inputs.many_chunks(), True),
            (inputs.long_lines(), True),
            (inputs.one_huge_line(), True),
            (inputs.many_files(), True),
            (inputs.not_found(), False),
            (inputs.new_words(), False),
        ]
        for case, succeeds in cases:
            self.in_process(case, succeeds)

    def in_process(self, case: Case, succeeds: bool) -> None:
        root: list[Path] = []

        def prepare() -> None:
            root[:] = [self.work.fresh_root(case)]

        def call() -> None:
            try:
                self.apply_patch(case.patch, root[0])
            except self.patch_error:
                if succeeds:
                    raise

        ours = time_call(call, self.repeat, prepare)
        ours_tree = self.work.snapshot(root[0])
        if not succeeds and ours_tree != {k: v for k, v in case.files.items()}:
            raise SystemExit(f"{case.name}: a failed patch changed files")
        label = f"apply_patch(): {case.name}"
        if self.reference is None:
            self.rows.append(Row(label, ours.show()))
            self._budget_without_reference(case, ours, succeeds)
            return
        patch = self.work.patch_file(case)
        ref = time_process([self.reference], self.repeat, lambda: self.work.fresh_root(case), patch)
        ref_root = self.work.fresh_root(case)
        with open(patch, "rb") as source:
            subprocess.run([self.reference], stdin=source, capture_output=True, cwd=ref_root)
        same = self.work.snapshot(ref_root) == ours_tree
        ratio = ours.median / ref.median
        self.rows.append(Row(label, ours.show(), ref.show() + ("" if same else " (different result!)"),
                             f"{ratio:.2f}"))
        if succeeds:
            self.budgets.append(Budget(f"{case.name} / reference process", ratio, 1.0,
                                       f"{ours.median:.3f} s against {ref.median:.3f} s"))
        else:
            self._budget_without_reference(case, ours, succeeds)

    def many_files(self) -> None:
        """The fixed costs of a file (issue 24): one line changed in each of 10, 100 and 1,000
        files, as whole processes, paired with the reference's when it is set (both results
        compared). The budget: 1,000 files within 1.5x the reference."""
        for count in FILE_COUNTS:
            case = inputs.updated_files(count)
            patch = self.work.patch_file(case)
            fresh = lambda case=case: self.work.fresh_root(case)  # noqa: E731
            runs: list[tuple[Sequence[str], Callable[[], Path | None], Path | None]] = [
                ([self.executable], fresh, patch)]
            if self.reference is None:
                self._check_process(case, patch)
            else:
                self._check_same(case, patch)
                runs.append(([self.reference], fresh, patch))
            samples = time_processes_paired(runs, max(3, self.repeat))
            ours = samples[0]
            label = f"executable: {case.name} (whole process)"
            per_file = f"{ours.median * 1000 / count:.2f} ms a file"
            if self.reference is None:
                self.rows.append(Row(label, f"{ours.show()}; {per_file}"))
                continue
            ratio = ours.median / samples[1].median
            self.rows.append(Row(label, f"{ours.show()}; {per_file}", samples[1].show(), f"{ratio:.2f}"))
            if count == FILE_COUNTS[-1]:
                self.budgets.append(Budget(f"{case.name} / reference process (issue 24)", ratio, FILES_LIMIT,
                                           f"{ours.median * 1000:.0f} ms against {samples[1].median * 1000:.0f} ms"))

    def in_memory_files(self) -> None:
        """The in-memory path's costs of a file (issue 24): the patches of `many_files` applied
        to a mapping (`apply_to_mapping`), paired with openai-agents' `apply_diff` doing the
        same job file by file (the test extra installs it; both results compared)."""
        try:
            from agents.apply_diff import apply_diff
        except ImportError:
            self.rows.append(Row("in memory: openai-agents is not installed here (make test installs it)", "-"))
            return
        from apply_patch import apply_to_mapping

        for count in FILE_COUNTS:
            case = inputs.updated_files(count)
            files = {path: data.decode() for path, data in case.files.items()}
            diffs = _file_diffs(case.patch)

            def ours(_: Path, case: Case = case, files: dict[str, str] = files) -> object:
                return apply_to_mapping(case.patch, files)

            def theirs(_: Path, files: dict[str, str] = files, diffs: dict[str, str] = diffs) -> object:
                return {**files, **{path: apply_diff(files[path], diff) for path, diff in diffs.items()}}

            if ours(self.work.base) != theirs(self.work.base):
                raise SystemExit(f"in memory, {case.name}: openai-agents' apply_diff gave another result")
            a, b = time_calls_paired([ours, theirs], lambda: self.work.base, max(3, self.repeat))
            self.rows.append(Row(f"in memory: {case.name}", a.show(), f"{b.show()} (openai-agents apply_diff)",
                                 f"{a.median / b.median:.2f}"))

    def _check_same(self, case: Case, patch: Path) -> None:
        """The reference applied the case to the same bytes as ours (a broken bench proves nothing)."""
        trees = []
        for command in (self.executable, self.reference):
            root = self.work.fresh_root(case)
            with open(patch, "rb") as source:
                result = subprocess.run([str(command)], stdin=source, capture_output=True, cwd=root)
            if result.returncode != 0:
                raise SystemExit(f"{command} failed on {case.name}: {result.stderr[-500:]!r}")
            trees.append(self.work.snapshot(root))
        if trees[0] != trees[1]:
            raise SystemExit(f"{case.name}: apply_patch and the reference wrote different files")

    def journal_cost(self) -> None:
        """The receipts' cost (issue 26) on the large cases that apply: runs with the journal on
        and off, interleaved so that the machine's drift falls on both alike."""
        cases = (inputs.many_chunks(), inputs.long_lines(), inputs.one_huge_line(), inputs.many_files())
        for case in cases:
            times: dict[str, list[float]] = {"on": [], "off": []}
            for _ in range(self.repeat):
                for journal in ("on", "off"):
                    root = self.work.fresh_root(case)
                    start = time.perf_counter()
                    self.apply_patch(case.patch, root, journal=journal)
                    times[journal].append(time.perf_counter() - start)
            on, off = Sample(tuple(times["on"])), Sample(tuple(times["off"]))
            self.rows.append(Row(f"  journal on / off: {case.name}", f"{on.show()} / {off.show()}"))
            self.budgets.append(Budget(f"{case.name}: journal on / off", on.median / off.median, 1.15,
                                       f"{on.median * 1000:.1f} ms against {off.median * 1000:.1f} ms"))

    def _budget_without_reference(self, case: Case, ours: Sample, succeeds: bool) -> None:
        if not succeeds:
            self.budgets.append(Budget(f"{case.name} / 0.1 s", ours.median / 0.1, 1.0,
                                       f"{ours.median * 1000:.1f} ms"))

    def streaming(self) -> None:
        """Issue 37's streaming plan on a 10,000-line file: how long after the line that decides
        it each verdict comes (`feed` of that line, the file read and indexed on its header
        line included), against 5 ms; and a patch fed line by line then applied (`finish`)
        against the same patch applied at once, paired on fresh roots, against 1.1×."""
        from apply_patch import StreamingPlan

        for chunks in (1, 10, 50):
            case = inputs.many_chunks(10_000, chunks)
            pieces = case.patch.splitlines(keepends=True)
            failing = case.patch.replace(" " + case.patch.splitlines()[3][1:], " not in the file", 1)

            def streamed(root: Path, text: list[str] = pieces) -> object:
                plan = StreamingPlan(root)
                for piece in text:
                    plan.feed(piece)
                return plan.finish()

            def at_once(root: Path) -> object:
                return self.apply_patch(case.patch, root)

            latencies: dict[str, list[float]] = {"placed": [], "not_found": []}
            for _ in range(self.repeat):
                for text in (pieces, failing.splitlines(keepends=True)):
                    plan = StreamingPlan(self.work.fresh_root(case))
                    for piece in text:
                        start = time.perf_counter()
                        found = plan.feed(piece)
                        elapsed = time.perf_counter() - start
                        for verdict in found:
                            latencies.setdefault(verdict.verdict, []).append(elapsed)
            for kind, values in latencies.items():
                if not values:
                    continue
                self.rows.append(Row(f"streaming, {case.name}: a {kind} verdict after its line",
                                     Sample(tuple(values)).show()))
                self.budgets.append(Budget(f"streaming, {case.name}: slowest {kind} verdict / 5 ms (issue 37)",
                                           max(values) / 0.005, 1.0,
                                           f"{max(values) * 1000:.2f} ms at worst over {len(values)} verdicts"))
            ours, whole = time_calls_paired((streamed, at_once), lambda: self.work.fresh_root(case), self.repeat)
            self.rows.append(Row(f"streaming, {case.name}: fed line by line + finish / at once",
                                 f"{ours.show()} / {whole.show()}"))
            self.budgets.append(Budget(f"streaming, {case.name}: streamed / at once (issue 37)",
                                       ours.median / whole.median, 1.1,
                                       f"{ours.median * 1000:.1f} ms against {whole.median * 1000:.1f} ms"))

    def parse_alone(self) -> None:
        text = inputs.big_patch()
        sample = time_call(lambda: self.parse_patch(text), max(self.repeat, 10))
        self.rows.append(Row(f"parse_patch(): a {len(text) / 1e6:.1f} MB patch, "
                             f"{text.count(chr(10))} lines", sample.show()))
        self.budgets.append(Budget("1 MB patch parsed / 50 ms", sample.median / 0.05, 1.0,
                                   f"{sample.median * 1000:.1f} ms"))

    # -- memory -------------------------------------------------------------------------

    def memory(self) -> None:
        case = inputs.many_chunks()
        patch = self.work.patch_file(case)
        growth, traced = [], []
        for _ in range(3):
            root = self.work.fresh_root(case)
            answer = probe("memory", str(root), str(patch))
            growth.append(float(str(answer["rss_growth"])))
            base = float(str(answer["base_rss"]))
        root = self.work.fresh_root(case)
        traced.append(float(str(probe("memory", str(root), str(patch), "traced")["traced"])))
        rss, py = Sample(tuple(growth)), Sample(tuple(traced))
        size = case.file_bytes
        ref = ("", "")
        if self.reference is not None:
            peak = peak_memory_reference(self.reference, patch, self.work.fresh_root(case))
            if peak is not None:
                ref = (f"{peak / MB:.1f} MB peak RSS (whole process)", "")
        self.rows.append(Row(f"peak memory, {case.name}: RSS growth over the interpreter "
                             f"({base / MB:.1f} MB)", rss.show("MB"), *ref))
        self.rows.append(Row("  same, Python allocations (tracemalloc peak)", py.show("MB")))
        self.rows.append(Row("  bytes of the file touched", f"{size / MB:.1f} MB"))
        self.budgets.append(Budget("peak memory (RSS growth) / bytes of the file", rss.median / size,
                                   3.0, f"{rss.median / MB:.1f} MB for a {size / MB:.1f} MB file"))

    # -- the other formats (issue 24): each against a plain baseline in the same run ----------

    def formats(self) -> None:
        for lines in (100_000, 1_000_000):
            case = inputs.one_replacement(lines)
            self._paired(case, self._ours_edits(case), _plain_replace(case), "plain str.count + str.replace",
                         SPEED_LIMIT)
        few = inputs.many_replacements(count=100)
        self._paired(few, self._ours_blocks(few), _plain_replace(few), "a naive Python loop", SPEED_LIMIT)
        hundred = self._last
        case = inputs.many_replacements()
        self._paired(case, self._ours_blocks(case), _plain_replace(case), "a naive Python loop", SPEED_LIMIT)
        self._absolute(case, 1.0)
        self.budgets.append(Budget(f"{case.name} / {few.name} (issue 35: O(file + edits))",
                                   self._last.median / hundred.median, BATCH_LIMIT,
                                   f"{self._last.median * 1000:.1f} ms against {hundred.median * 1000:.1f} ms"))
        case = inputs.crlf(case)
        self._paired(case, self._ours_blocks(case), _plain_replace(case), "a naive Python loop", SPEED_LIMIT)
        for lines in (100_000, 1_000_000):
            exact, loose = inputs.trailing_spaces(lines)
            self._paired(loose, self._ours_edits(loose), self._ours_edits(exact), "the exact match", TOLERANT_LIMIT)
        self.unified()
        self.formats_memory()

    def _paired(self, case: inputs.Replacement, ours: Callable[[Path], object],
                baseline: Callable[[Path], object], what: str, limit: float) -> None:
        """`ours` and `baseline`, each on a fresh copy of the file, in turn; their ratio."""
        a, b = time_calls_paired([ours, baseline], lambda: self.work.fresh_root(
            Case(case.name, {case.path: case.data}, "")), max(3, self.repeat))
        self.rows.append(Row(f"{case.name}", a.show(), f"{b.show()} ({what})", f"{a.median / b.median:.2f}"))
        self.budgets.append(Budget(f"{case.name} / {what}", a.median / b.median, limit,
                                   f"{a.median * 1000:.1f} ms against {b.median * 1000:.1f} ms"))
        self._last = a

    def _absolute(self, case: inputs.Replacement, seconds: float) -> None:
        a = self._last
        self.budgets.append(Budget(f"{case.name} / {seconds:g} s", a.median / seconds, 1.0,
                                   f"{a.median * 1000:.1f} ms"))

    def _ours_edits(self, case: inputs.Replacement) -> Callable[[Path], object]:
        from apply_patch.edits import StrReplace, apply_edits

        edits = [StrReplace(case.path, old, new) for old, new in case.pairs]
        return lambda root: _checked(apply_edits(edits, root))

    def _ours_blocks(self, case: inputs.Replacement) -> Callable[[Path], object]:
        from apply_patch.edits import apply_search_replace

        reply = case.search_replace()
        return lambda root: _checked(apply_search_replace(reply, root))

    def unified(self) -> None:
        """Each unified-diff case against GNU patch, whole processes (and `python -c pass`, the
        interpreter's start alone, in the same rounds), and our in-process call."""
        from apply_patch.edits import apply_unified_diff

        patch_program = shutil.which("patch")
        for lines, hunks in UNIFIED_CASES:
            path, data, diff = inputs.unified_diff(lines, hunks)
            case = Case(f"unified diff, {hunks} hunks, {lines} lines", {path: data}, diff)
            diff_file = self.work.patch_file(case)
            fresh = lambda: self.work.fresh_root(case)  # noqa: E731
            self._check_unified(case, diff_file, patch_program)
            runs: list[tuple[Sequence[str], Callable[[], Path | None], Path | None]] = [
                ([self.executable, "--format", "unified-diff"], fresh, diff_file),
                ([sys.executable, "-c", "pass"], lambda: None, None)]
            if patch_program is not None:
                runs.append(([patch_program, "-p1", "-s"], fresh, diff_file))
            samples = time_processes_paired(runs, max(3, self.repeat))
            ours, bare = samples[0], samples[1]
            inside = time_calls_paired([lambda root: _checked(apply_unified_diff(diff, root))], fresh,
                                       max(3, self.repeat))[0]
            if patch_program is None:
                self.rows.append(Row(f"{case.name} (whole process)", ours.show(), "GNU patch not installed"))
                continue
            theirs = samples[2]
            ratio = ours.median / theirs.median
            self.rows.append(Row(f"{case.name} (whole process)", ours.show(), f"{theirs.show()} (GNU patch)",
                                 f"{ratio:.2f}"))
            self.rows.append(Row("  in process (apply_unified_diff)", inside.show(), "",
                                 f"{inside.median / theirs.median:.2f}"))
            self.rows.append(Row("  python -c pass (the interpreter's start alone)", bare.show(), "",
                                 f"{bare.median / theirs.median:.2f}"))
            floor = bare.median / theirs.median
            note = f"{ours.median * 1000:.1f} ms against {theirs.median * 1000:.1f} ms"
            if floor * 1.5 > UNIFIED_LIMIT:  # the interpreter's start alone is most of the budget
                note += f"; python -c pass alone is {floor:.2f}×"
            self.budgets.append(Budget(f"{case.name} / GNU patch", ratio, UNIFIED_LIMIT, note))

    def _check_unified(self, case: Case, diff_file: Path, patch_program: str | None) -> None:
        """Both programs applied the diff, to the same bytes (a broken bench proves nothing)."""
        trees = []
        for command in ([self.executable, "--format", "unified-diff"], [patch_program, "-p1", "-s"]):
            if command[0] is None:
                continue
            root = self.work.fresh_root(case)
            with open(diff_file, "rb") as source:
                result = subprocess.run(command, stdin=source, capture_output=True, cwd=root)  # type: ignore[arg-type]
            if result.returncode != 0:
                raise SystemExit(f"{command[0]} failed on {case.name}: {result.stderr[-500:]!r}")
            trees.append(self.work.snapshot(root))
        if len(trees) == 2 and trees[0] != trees[1]:
            raise SystemExit(f"{case.name}: apply_patch and GNU patch wrote different files")

    def formats_memory(self) -> None:
        """Peak RSS growth of each format on a 1M-line file, in a fresh process, against the
        bytes of the file (what the edit touches)."""
        one = inputs.one_replacement(1_000_000)
        _, loose = inputs.trailing_spaces(1_000_000)
        path, data, diff = inputs.unified_diff(1_000_000, 10_000)
        kinds = [
            ("str_replace", one, json.dumps(one.pairs)),
            ("tolerant str_replace", loose, json.dumps(loose.pairs)),
            ("SEARCH/REPLACE", one, one.search_replace()),
            ("unified diff", inputs.Replacement("", path, data, ()), diff),
        ]
        for label, case, text in kinds:
            kind = {"str_replace": "edits", "tolerant str_replace": "edits"}.get(label, label)
            source = self.work.base / f"memory-{_slug(label)}.txt"
            source.write_text(text, encoding="utf-8")
            growth = []
            for _ in range(3):
                root = self.work.fresh_root(Case(case.name, {case.path: case.data}, ""))
                answer = probe("edit-memory", kind, str(root), case.path, str(source))
                growth.append(float(str(answer["rss_growth"])))
            plain = []
            if case.pairs and label != "tolerant str_replace":
                pairs = self.work.base / "memory-pairs.json"
                pairs.write_text(json.dumps(case.pairs), encoding="utf-8")
                for _ in range(3):
                    root = self.work.fresh_root(Case(case.name, {case.path: case.data}, ""))
                    plain.append(float(str(probe("edit-memory", "plain", str(root), case.path, str(pairs))["rss_growth"])))
            rss, size = Sample(tuple(growth)), len(case.data)
            baseline = f"{statistics.median(plain) / MB:.1f} MB (plain count + replace)" if plain else ""
            self.rows.append(Row(f"peak memory, {label}, 1M lines (RSS growth; file {size / MB:.1f} MB)",
                                 rss.show("MB"), baseline))
            self.budgets.append(Budget(f"peak memory, {label}, 1M lines / bytes of the file", rss.median / size,
                                       MEMORY_LIMIT, f"{rss.median / MB:.1f} MB for {size / MB:.1f} MB"))

    # -- output -------------------------------------------------------------------------

    def print(self) -> None:
        reference = self.reference or f"not measured (set {REFERENCE_VARIABLE})"
        print(f"apply_patch benchmarks: Python {platform.python_version()}, "
              f"{os.cpu_count()} CPUs, {platform.machine()}")
        print(f"reference executable: {reference}")
        print(f"in-process cases: median of {self.repeat} runs; processes: "
              f"median of {self.startup_repeat} runs; (min–max) in brackets")
        print()
        widths = [max(len(getattr(r, f)) for r in self.rows) for f in ("label", "ours", "reference")]
        head = Row("measurement", "ours", "reference" if self.reference else "", "ours/ref" if self.reference else "")
        for row in [head, *self.rows]:
            print(f"{row.label:<{widths[0]}}  {row.ours:<{widths[1]}}  {row.reference:<{widths[2]}}  {row.ratio}".rstrip())
        print()
        print("Budgets (measured in this run):")
        for budget in self.budgets:
            print(budget.show())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="runs of each in-process case")
    parser.add_argument("--startup-repeat", type=int, default=40, help="runs of each short process")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up measurements")
    parser.add_argument("--formats-only", action="store_true",
                        help="only the other formats (str_replace, SEARCH/REPLACE, unified diffs)")
    parser.add_argument("--files-only", action="store_true",
                        help="only the files-updated cases (10, 100, 1,000 files, whole processes)")
    parser.add_argument("--streaming-only", action="store_true",
                        help="only the streaming plan (verdict latency, streamed / at once)")
    options = parser.parse_args(argv)
    reference = os.environ.get(REFERENCE_VARIABLE) or None
    if reference is not None and not os.access(reference, os.X_OK):
        raise SystemExit(f"{REFERENCE_VARIABLE}={reference} is not an executable file")
    bench = Bench(options.repeat, options.startup_repeat, reference)
    bench.run(startup_only=options.startup_only, formats_only=options.formats_only, files_only=options.files_only,
              streaming_only=options.streaming_only)
    bench.print()


if __name__ == "__main__":
    main()
