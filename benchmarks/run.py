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
# Start-up budget: the executable on a small patch, with and without options, within
# this many times a bare `python -c pass` of the same venv (DEVELOPERS.md, "Start-up time").
STARTUP_LIMIT = 2.5
WITH_OPTIONS = ("-C", ".", "--codex", "--json")
# The executable's ways measured against the budget: no option, the issue's own example
# (`-C .`), and the heaviest everyday set (argparse and json).
STARTUP_PATHS = ((), ("-C", "."), WITH_OPTIONS)


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


def time_call(call: Callable[[], object], repeat: int, prepare: Callable[[], object] = lambda: None) -> Sample:
    """Wall time of `call()` in this process, `prepare()` run untimed before each."""
    values = []
    for _ in range(repeat):
        prepare()
        start = time.perf_counter()
        call()
        values.append(time.perf_counter() - start)
    return Sample(tuple(values))


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
        self.executable = str(Path(sys.executable).parent / "apply_patch")

    def run(self, *, startup_only: bool = False) -> None:
        try:
            self.startup()
            if startup_only:
                return
            self.large_cases()
            self.journal_cost()
            self.parse_alone()
            self.memory()
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
        bare, *paths = time_processes_paired(runs, n)
        self.rows.append(Row("python -c pass (same venv)", bare.show()))
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

    def _check_process(self, case: Case, patch: Path, options: Sequence[str] = ()) -> None:
        """Make sure the executable did apply the small patch (a broken bench proves nothing)."""
        root = self.work.fresh_root(case)
        with open(patch, "rb") as source:
            result = subprocess.run([self.executable, *options], stdin=source, capture_output=True, cwd=root)
        if result.returncode != 0:
            raise SystemExit(f"the executable failed on the small patch: {result.stderr!r}")

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
    options = parser.parse_args(argv)
    reference = os.environ.get(REFERENCE_VARIABLE) or None
    if reference is not None and not os.access(reference, os.X_OK):
        raise SystemExit(f"{REFERENCE_VARIABLE}={reference} is not an executable file")
    bench = Bench(options.repeat, options.startup_repeat, reference)
    bench.run(startup_only=options.startup_only)
    bench.print()


if __name__ == "__main__":
    main()
