"""Parity benchmark (issue 34): `apply_patch --codex` against the reference executable.

    .venv/bin/python benchmarks/parity.py --reference /path/to/apply_patch
        [--campaign oracle|shapes|all] [--limit N] [--seed N] [--json] [--examples N]

`--codex` is the reference's behaviour: it adds no leniency the reference lacks, and its
only differences from the reference are the deliberate safety rows of the contract's
file-policy table (docs/cli.md, "File policies"). This measures that, case by case:
the same files and the same patch given to both executables (the patch as the command's
one argument, each run in a fresh temporary folder), then compared.

- ours: the `apply_patch` script installed beside the running interpreter, with `--codex`;
- the reference: the executable given by `--reference` (the Rust `apply_patch` of
  codex-cli). It is never installed, nor needed by the tests: without `--reference`
  this script says how to run it and exits 2.

The campaigns:

- `oracle`: the robustness oracle's cases (`robustness.build_cases`, `--limit` per
  mistake, its seed), each written as its Codex patch (`robustness.codex_text`);
- `shapes`: seeded random Codex patches over small random trees (`--limit` per shape,
  SHAPES below): Add File (new and existing path), Delete File (existing and missing),
  Update File with one to three chunks (`@@` with and without a context line, a first
  chunk without `@@`, `*** End of File`, pure additions, context lines whose trailing or
  leading whitespace changed, typographic punctuation, a line that differs), Update and
  Move to (a new, an existing and the same path), files with CRLF, a BOM or no final
  newline, whitespace around the markers, CRLF patch text, a read-only file, a path
  leaving the root; and the leniencies the reference lacks: consecutive `@@` lines, a
  chunk whose first line repeats its `@@` line, a Move with no chunk, a blank line in an
  Add File, a `\\ No newline` line, the patch in a Markdown fence, a heredoc, a shell
  command or a JSON string.

Compared per case: success or failure (exit status 0 or not), the bytes of every file
of the tree after (the root and the folder around it), and on success the summary on
stdout, which must be the reference's exactly. Each case is then:

- `same`;
- `deliberate`, naming its row of the file-policy table: "UTF-8 BOM kept out of
  matching" (the reference, given the files without their BOM, does what ours did: it
  matches a BOM as part of the first line, ours never, in both modes), "a later hunk fails" (the
  reference exits non-zero keeping the earlier hunks' changes, ours changes nothing),
  "Move to the same path" (the reference deletes the file, ours updates it; a later
  operation on that path then fails in the reference alone), "read-only
  file" (ours refuses it; the reference, run as root, writes it), "path leaving the root"
  (ours refuses it, the reference writes outside);
- `different`: everything else, by kind: "ref applied / ours refused", "ref refused /
  ours applied", "both applied, other bytes", "both applied, other summary", "both
  refused, other bytes" (a side changed files while failing where the other did not
  in the same way), "timed out".

Every process has a timeout; the receipts of our commits go to a temporary state folder
(APPLY_PATCH_STATE_DIR), removed after. Nothing here is a test: tests/test_parity.py
checks the classification with stand-in references.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import robustness as oracle  # noqa: E402  (a script beside this one, not a package)

CAMPAIGNS = ("oracle", "shapes")
LIMIT = 60  # cases per oracle mistake and per shape: 2,340 cases, about 4-5 minutes on 2 shared cores
SEED = oracle.SEED
TIMEOUT = 30.0  # seconds for one process: a run that takes longer is a "timed out" difference
ROOT_NAME = "root"  # the root's folder inside each case's temporary folder (the folder around it shows writes outside)

SAME = "same"
DELIBERATE = "deliberate"
DIFFERENT = "different"

LATER_HUNK = "a later hunk fails"
SAME_PATH = "Move to the same path"
READ_ONLY = "read-only file"
OUTSIDE = "path leaving the root"
BOM = "UTF-8 BOM kept out of matching"
UTF8_BOM = b"\xef\xbb\xbf"

REF_ONLY = "ref applied / ours refused"
OURS_ONLY = "ref refused / ours applied"
OTHER_BYTES = "both applied, other bytes"
OTHER_SUMMARY = "both applied, other summary"
REFUSED_OTHER_BYTES = "both refused, other bytes"
TIMED_OUT = "timed out"

USAGE = """parity: give the reference executable to compare with:
    .venv/bin/python benchmarks/parity.py --reference /path/to/apply_patch
(the Rust `apply_patch` of codex-cli; it is never installed by this project)"""


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Case:
    """One patch to give both executables: the files before (paths relative to the root,
    `../x` beside it), the patch text, and what the §5 rows need to know: the files made
    read-only, the paths the patch moves to themselves, the paths that leave the root."""

    campaign: str
    kind: str
    files: Mapping[str, bytes]
    patch: str
    read_only: frozenset[str] = frozenset()
    moved_in_place: frozenset[str] = frozenset()
    outside: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Outcome:
    """One executable's run of a case: its exit status (None: timed out), every file of
    the tree after, stdout and stderr."""

    code: int | None
    tree: Mapping[str, bytes]
    stdout: str
    stderr: str

    @property
    def applied(self) -> bool:
        """The run reported success."""
        return self.code == 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a case's two outcomes compare: `sort` (same, deliberate, different) and
    `detail` (for same: applied or refused; for deliberate: the §5 row; for
    different: the kind)."""

    sort: str
    detail: str

    @property
    def label(self) -> str:
        """`sort: detail`, as the tables print it."""
        return f"{self.sort}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Compared:
    """One case run on both sides, and the verdict."""

    case: Case
    reference: Outcome
    ours: Outcome
    verdict: Verdict


# ----------------------------------------------------------------------------- classification


def _without(tree: Mapping[str, bytes], paths: frozenset[str]) -> dict[str, bytes]:
    """`tree` less the files `paths`."""
    return {path: data for path, data in tree.items() if path not in paths}


def classify(case: Case, reference: Outcome, ours: Outcome) -> Verdict:
    """The verdict on a case: `same` when both succeed with the same bytes and summary or
    both fail with the same bytes; `deliberate` when the difference is a row of the
    file-policy table the case can reach; else `different`, by kind."""
    if reference.code is None or ours.code is None:
        return Verdict(DIFFERENT, TIMED_OUT)
    before = dict(case.files)
    ours_unchanged = dict(ours.tree) == before
    both_refused_alike = not reference.applied and not ours.applied and reference.tree == ours.tree
    if not ours.applied and ours_unchanged and not both_refused_alike:
        if case.read_only and "read-only" in ours.stderr:
            return Verdict(DELIBERATE, READ_ONLY)
        if case.outside:
            return Verdict(DELIBERATE, OUTSIDE)
    moved = case.moved_in_place
    if moved and ours.applied and not moved & set(reference.tree):
        # The reference deleted the file it moved to itself: with nothing else different,
        # or with a later operation on that path failing there for want of the file.
        if reference.applied and moved <= set(ours.tree) and _without(reference.tree, moved) == _without(ours.tree, moved):
            return Verdict(DELIBERATE, SAME_PATH)
        if not reference.applied:
            return Verdict(DELIBERATE, SAME_PATH)
    if reference.applied and ours.applied:
        if reference.tree != ours.tree:
            return Verdict(DIFFERENT, OTHER_BYTES)
        if reference.stdout != ours.stdout:
            return Verdict(DIFFERENT, OTHER_SUMMARY)
        return Verdict(SAME, "applied")
    if not reference.applied and not ours.applied:
        if reference.tree == ours.tree:
            return Verdict(SAME, "refused")
        if ours_unchanged:
            return Verdict(DELIBERATE, LATER_HUNK)
        return Verdict(DIFFERENT, REFUSED_OTHER_BYTES)
    return Verdict(DIFFERENT, REF_ONLY if reference.applied else OURS_ONLY)


# ----------------------------------------------------------------------------- running


def ours_command() -> list[str]:
    """Our executable with the reference's preset: the `apply_patch` script installed
    beside the running interpreter, `--codex`."""
    return [str(Path(sys.executable).parent / "apply_patch"), "--codex"]


def snapshot(folder: Path, root: Path) -> dict[str, bytes]:
    """Every regular file under `folder`, by its path relative to `root` (POSIX, `../x`
    for a file beside the root)."""
    tree: dict[str, bytes] = {}
    for where, _dirs, names in os.walk(folder):
        for name in names:
            path = Path(where, name)
            if stat.S_ISREG(path.lstat().st_mode):
                tree[Path(os.path.relpath(path, root)).as_posix()] = path.read_bytes()
    return dict(sorted(tree.items()))


def run_case(command: Sequence[str], case: Case, timeout: float = TIMEOUT) -> Outcome:
    """Lay out `case`'s files in a fresh temporary folder, run `command` with the patch
    as its last argument in the root, and read everything back."""
    with tempfile.TemporaryDirectory(prefix="parity-") as folder:
        root = Path(folder, ROOT_NAME)
        root.mkdir()
        for name, data in case.files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for name in case.read_only:
            (root / name).chmod(0o444)
        try:
            done = subprocess.run(
                [*command, case.patch], cwd=root, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout
            )
            code: int | None = done.returncode
            stdout, stderr = done.stdout, done.stderr
        except subprocess.TimeoutExpired as expired:
            code, stdout, stderr = None, expired.stdout or b"", expired.stderr or b""
        tree = snapshot(Path(folder), root)
        # The read-only files are made writable again so that the folder can be removed.
        for where, dirs, names in os.walk(folder):
            for name in dirs + names:
                path = Path(where, name)
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode | stat.S_IWUSR | stat.S_IXUSR * path.is_dir())
    return Outcome(code, tree, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"))


def compare(case: Case, reference: Sequence[str], ours: Sequence[str], timeout: float = TIMEOUT) -> Compared:
    """`case` run by both executables, and the verdict (a difference where a file starts
    with a UTF-8 BOM is the BOM row when `_bom_row` says so)."""
    ref_outcome = run_case(reference, case, timeout)
    ours_outcome = run_case(ours, case, timeout)
    verdict = classify(case, ref_outcome, ours_outcome)
    if verdict.sort == DIFFERENT and _bom_row(case, reference, ours_outcome, timeout):
        verdict = Verdict(DELIBERATE, BOM)
    return Compared(case, ref_outcome, ours_outcome, verdict)


def _without_bom(tree: Mapping[str, bytes], paths: frozenset[str]) -> dict[str, bytes]:
    """`tree` with the UTF-8 BOM off the start of the files `paths`."""
    return {path: data.removeprefix(UTF8_BOM) if path in paths else data for path, data in tree.items()}


def _bom_row(case: Case, reference: Sequence[str], ours: Outcome, timeout: float) -> bool:
    """Whether a difference is the file-policy table's BOM row ("kept, invisible to
    matching", in both modes): the reference, given the same files without their BOM,
    does what ours did (ours' files read without it), or differs from it only by another
    deliberate row. The reference matches a BOM as part of the first line, so a chunk at
    the top of the file is not found there."""
    marked = frozenset(path for path, data in case.files.items() if data.startswith(UTF8_BOM))
    if not marked:
        return False
    bare = replace(case, files=_without_bom(case.files, marked))
    again = run_case(reference, bare, timeout)
    # A moved file keeps its BOM, at a new path or at one another file held without one.
    gained = frozenset(
        path for path, data in ours.tree.items()
        if data.startswith(UTF8_BOM) and not case.files.get(path, b"").startswith(UTF8_BOM)
    )  # fmt: skip
    return classify(bare, again, replace(ours, tree=_without_bom(ours.tree, marked | gained))).sort != DIFFERENT


# ----------------------------------------------------------------------------- the oracle's cases


def oracle_cases(limit: int, seed: int) -> list[Case]:
    """The robustness oracle's cases (`limit` per mistake), each as its Codex patch over
    its one file; empty without the git history the oracle reads."""
    hunks = oracle.history_hunks(oracle.PINNED)
    return [
        Case("oracle", case.mistake, {case.path: case.before()}, oracle.codex_text(case))
        for case in oracle.build_cases(hunks, limit, seed)
    ]


# ----------------------------------------------------------------------------- random shapes

VOCABULARY = (
    "a", "b", "c", "def foo():", "    return x", "", "", "    ", "x = 1", "x = 1  ",
    "print(\u201chi\u201d)", 'print("hi")', "y \u2014 z", "y - z", "\tindented", "    indented",
    "}", "    }", "end", "# comment",
)  # fmt: skip
ADDED = (*VOCABULARY, "new line", "\tnew tab", "    new four")
NAMES = ("f0.txt", "src/m1.py", "f2.txt", "docs/n3.md")


@dataclass(frozen=True, slots=True)
class TextFile:
    """A random file: its lines, line ending, BOM and final newline, and its bytes."""

    lines: tuple[str, ...]
    ending: str = "\n"
    bom: bool = False
    final_newline: bool = True

    def data(self) -> bytes:
        """The file's bytes."""
        text = self.ending.join(self.lines) + (self.ending if self.final_newline and self.lines else "")
        return (("\ufeff" if self.bom else "") + text).encode("utf-8")


@dataclass
class Draft:
    """A shape's case while it is made: the tree, the operations' lines, and the notes
    the §5 rows need (see Case)."""

    files: dict[str, TextFile]
    ops: list[str] = field(default_factory=list)
    read_only: set[str] = field(default_factory=set)
    moved_in_place: set[str] = field(default_factory=set)
    outside: set[str] = field(default_factory=set)


def random_file(rng: random.Random) -> TextFile:
    """One to eighteen lines of VOCABULARY; now and then CRLF, a BOM, no final newline."""
    lines = tuple(rng.choice(VOCABULARY) for _ in range(rng.randint(1, 18)))
    return TextFile(lines, "\r\n" if rng.random() < 0.15 else "\n", rng.random() < 0.08, rng.random() < 0.85)


def random_tree(rng: random.Random) -> dict[str, TextFile]:
    """One to three random files."""
    return {name: random_file(rng) for name in rng.sample(NAMES, rng.randint(1, 3))}


def slipped(line: str, rng: random.Random) -> str:
    """`line` as a model may copy it: whitespace changed at an end, typographic
    punctuation made plain or plain made typographic, a character added, or as it is."""
    r = rng.random()
    if r < 0.2:
        return line.rstrip()
    if r < 0.35:
        return line + " "
    if r < 0.5:
        return line.strip()
    if r < 0.65:
        return line.replace("\u201c", '"').replace("\u201d", '"').replace("\u2014", "-")
    if r < 0.75:
        return line.replace('"', "\u201c", 1).replace(" - ", " \u2014 ")
    if r < 0.85:
        return line + "x"
    return line


def chunk(lines: Sequence[str], start: int, rng: random.Random, first: bool, slips: float) -> tuple[list[str], int]:
    """A random chunk changing `lines` from `start` (context before and after, zero to two
    removed lines, zero to three added ones, an `@@` line with or without context, or
    none for a first chunk, `*** End of File` when it reaches the end), its copied lines
    slipped with probability `slips`; and the index after the lines it covers."""
    start = min(start, len(lines) - 1)
    context_start = max(0, start - rng.randint(0, 3))
    header: list[str] = []
    if rng.random() < 0.3 and context_start > 0:
        anchor = lines[rng.randrange(context_start)]
        header = ["@@ " + (slipped(anchor, rng) if rng.random() < slips else anchor)]
    elif rng.random() < 0.05:
        header = ["@@ nowhere in the file"]
    elif not (first and rng.random() < 0.3):
        header = ["@@"]
    body = [" " + (slipped(t, rng) if rng.random() < slips else t) for t in lines[context_start:start]]
    end = min(len(lines), start + rng.randint(0, 2))
    body += ["-" + (slipped(t, rng) if rng.random() < slips else t) for t in lines[start:end]]
    body += ["+" + rng.choice(ADDED) for _ in range(rng.randint(0 if body else 1, 3))]
    after = min(len(lines), end + rng.randint(0, 3))
    body += [" " + (slipped(t, rng) if rng.random() < slips else t) for t in lines[end:after]]
    if rng.random() < 0.05:
        body.insert(rng.randrange(len(body) + 1), " ")  # a blank context line the file may lack
    eof = ["*** End of File"] if after == len(lines) and rng.random() < 0.5 else []
    return header + body + eof, after


def update_chunks(lines: Sequence[str], rng: random.Random, count: int, slips: float = 0.15) -> list[str]:
    """Up to `count` chunks in order through `lines`."""
    out: list[str] = []
    position = 0
    for n in range(count):
        if not lines or position >= len(lines):
            break
        body, position = chunk(lines, rng.randint(position, len(lines) - 1), rng, n == 0, slips)
        out += body
    return out


def pure_addition(lines: Sequence[str], rng: random.Random) -> list[str]:
    """An `@@ ctx` chunk of added lines only (the `--pure-addition` row)."""
    anchor = rng.choice(lines)
    return [f"@@ {anchor}", *("+" + rng.choice(ADDED) for _ in range(rng.randint(1, 3)))]


def pick(draft: Draft, rng: random.Random) -> str:
    """One of the draft's files."""
    return rng.choice(sorted(draft.files))


def shape_add_new(draft: Draft, rng: random.Random) -> None:
    """An Add File of a new path, zero to three lines."""
    draft.ops += [f"*** Add File: new{rng.randint(0, 2)}.txt", *("+" + rng.choice(VOCABULARY) for _ in range(rng.randint(0, 3)))]


def shape_add_existing(draft: Draft, rng: random.Random) -> None:
    """An Add File of a path the tree holds (`--add-existing`)."""
    draft.ops += [f"*** Add File: {pick(draft, rng)}", *("+" + rng.choice(VOCABULARY) for _ in range(rng.randint(1, 3)))]


def shape_add_blank_line(draft: Draft, rng: random.Random) -> None:
    """An Add File with an empty line amid its `+` lines (the reference reads no such line)."""
    lines = ["+" + rng.choice(VOCABULARY) for _ in range(rng.randint(1, 3))]
    lines.insert(rng.randint(0, len(lines)), "")
    draft.ops += ["*** Add File: added.txt", *lines]


def shape_delete(draft: Draft, rng: random.Random) -> None:
    """A Delete File of a path the tree holds."""
    draft.ops.append(f"*** Delete File: {pick(draft, rng)}")


def shape_delete_missing(draft: Draft, rng: random.Random) -> None:
    """A Delete File of a path the tree lacks."""
    draft.ops.append("*** Delete File: missing.txt")


def shape_update(draft: Draft, rng: random.Random) -> None:
    """An Update File of one to three chunks, copied lines slipped now and then."""
    path = pick(draft, rng)
    draft.ops += [f"*** Update File: {path}", *update_chunks(draft.files[path].lines, rng, rng.randint(1, 3))]


def shape_update_exact(draft: Draft, rng: random.Random) -> None:
    """An Update File of one to three chunks copied exactly."""
    path = pick(draft, rng)
    draft.ops += [f"*** Update File: {path}", *update_chunks(draft.files[path].lines, rng, rng.randint(1, 3), 0.0)]


def shape_pure_addition(draft: Draft, rng: random.Random) -> None:
    """An Update File whose chunk is `@@ ctx` and added lines only."""
    path = pick(draft, rng)
    draft.ops += [f"*** Update File: {path}", *pure_addition(draft.files[path].lines, rng)]


def shape_two_files(draft: Draft, rng: random.Random) -> None:
    """Two Update Files, the second one's chunk often not found (the reference keeps the
    first file's change)."""
    for path in rng.sample(sorted(draft.files), min(2, len(draft.files))):
        draft.ops += [f"*** Update File: {path}", *update_chunks(draft.files[path].lines, rng, rng.randint(1, 2), 0.3)]


def _move(draft: Draft, rng: random.Random, target: str, chunks: int) -> None:
    """An Update File moved to `target` ("same": its own path; "existing": a path of the tree), with up to `chunks` chunks."""
    path = pick(draft, rng)
    if target == "same":
        target = path
        draft.moved_in_place.add(path)
    elif target == "existing":
        target = pick(draft, rng)
    if target == path:
        draft.moved_in_place.add(path)
    draft.ops += [f"*** Update File: {path}", f"*** Move to: {target}", *update_chunks(draft.files[path].lines, rng, chunks)]


def shape_move_new(draft: Draft, rng: random.Random) -> None:
    """An Update File moved to a new path."""
    _move(draft, rng, "moved/x.txt", rng.randint(1, 2))


def shape_move_existing(draft: Draft, rng: random.Random) -> None:
    """An Update File moved to a path of the tree (its own, now and then)."""
    _move(draft, rng, "existing", rng.randint(1, 2))


def shape_move_same(draft: Draft, rng: random.Random) -> None:
    """An Update File moved to its own path."""
    _move(draft, rng, "same", rng.randint(1, 2))


def shape_move_no_chunk(draft: Draft, rng: random.Random) -> None:
    """An Update File with a Move and no chunk (the reference refuses it)."""
    _move(draft, rng, "moved/x.txt", 0)


def shape_consecutive_headers(draft: Draft, rng: random.Random) -> None:
    """An Update File whose chunk has two `@@` lines in a row."""
    path = pick(draft, rng)
    lines = draft.files[path].lines
    body = update_chunks(lines, rng, 1, 0.0)
    heads = [f"@@ {rng.choice(lines)}", "@@"] if rng.random() < 0.5 else ["@@", "@@"]
    draft.ops += [f"*** Update File: {path}", *heads, *(line for line in body if not line.startswith("@@"))]


def shape_header_repeated(draft: Draft, rng: random.Random) -> None:
    """An Update File whose chunk's `@@ ctx` line is also its first context line (the
    reference searches the chunk after that line only)."""
    path = pick(draft, rng)
    lines = draft.files[path].lines
    at = rng.randrange(len(lines))
    end = min(len(lines), at + rng.randint(1, 3))
    body = [" " + line for line in lines[at:end]]
    body.insert(rng.randint(1, len(body)), "+" + rng.choice(ADDED))
    draft.ops += [f"*** Update File: {path}", f"@@ {lines[at]}", *body]


def shape_backslash_line(draft: Draft, rng: random.Random) -> None:
    """An Update File whose chunk holds a `\\ No newline at end of file` line."""
    path = pick(draft, rng)
    body = update_chunks(draft.files[path].lines, rng, 1, 0.0)
    body.insert(rng.randint(1, len(body)), "\\ No newline at end of file")
    draft.ops += [f"*** Update File: {path}", *body]


def shape_read_only(draft: Draft, rng: random.Random) -> None:
    """An exact Update File of a file made read-only."""
    path = pick(draft, rng)
    draft.read_only.add(path)
    draft.ops += [f"*** Update File: {path}", *update_chunks(draft.files[path].lines, rng, 1, 0.0)]


def shape_outside_root(draft: Draft, rng: random.Random) -> None:
    """An Add File of a path that leaves the root (into the folder around it)."""
    target = rng.choice(("../outside.txt", "sub/../../outside.txt"))
    draft.outside.add(target)
    draft.ops += [f"*** Add File: {target}", "+escaped"]


Shape = Callable[[Draft, random.Random], None]
SHAPES: dict[str, Shape] = {
    "add-new": shape_add_new,
    "add-existing": shape_add_existing,
    "add-blank-line": shape_add_blank_line,
    "delete": shape_delete,
    "delete-missing": shape_delete_missing,
    "update": shape_update,
    "update-exact": shape_update_exact,
    "pure-addition": shape_pure_addition,
    "two-files": shape_two_files,
    "move-new": shape_move_new,
    "move-existing": shape_move_existing,
    "move-same": shape_move_same,
    "move-no-chunk": shape_move_no_chunk,
    "consecutive-@@": shape_consecutive_headers,
    "@@-line-repeated": shape_header_repeated,
    "backslash-line": shape_backslash_line,
    "read-only": shape_read_only,
    "outside-root": shape_outside_root,
}


WRAPS = ("fence", "heredoc", "heredoc-bare", "shell", "json")
"""The shapes that hold a plain patch in something the reference may not read: a
Markdown fence, a heredoc (`<<'PATCH'`, `<<EOF`), an `apply_patch <<'EOF'` shell command,
a JSON string."""


def patch_text(ops: Sequence[str], rng: random.Random, wrap: str = "") -> str:
    """The patch around `ops`: wrapped as `wrap` says (WRAPS), else plain, now and then
    with whitespace around a marker, with CRLF line breaks, or without a final line break."""
    lines = ["*** Begin Patch", *ops, "*** End Patch"]
    body = "\n".join(lines)
    if wrap == "fence":
        return f"```diff\n{body}\n```\n"
    if wrap == "heredoc":
        return f"<<'PATCH'\n{body}\nPATCH\n"
    if wrap == "heredoc-bare":
        return f"<<EOF\n{body}\nEOF\n"
    if wrap == "shell":
        return f"apply_patch <<'EOF'\n{body}\nEOF\n"
    if wrap == "json":
        return json.dumps(body + "\n")
    if rng.random() < 0.1:
        at = rng.choice((0, -1))
        lines[at] = rng.choice(("  ", " ", "\t", "")) + lines[at] + rng.choice(("", " ", "  "))
    ending = "\r\n" if rng.random() < 0.1 else "\n"
    return ending.join(lines) + (ending if rng.random() < 0.8 else "")


def shape_case(shape: str, rng: random.Random) -> Case:
    """A random case of `shape` (one of SHAPES or WRAPS: a wrapped exact update or added
    file): a random tree, the shape's operation (and now and then a second random one
    after it), the patch text around them."""
    draft = Draft(random_tree(rng))
    if shape in WRAPS:
        SHAPES[rng.choice(("update-exact", "add-new"))](draft, rng)
    else:
        SHAPES[shape](draft, rng)
        if rng.random() < 0.25:
            SHAPES[rng.choice(("update", "add-new", "delete", "move-new"))](draft, rng)
    return Case(
        "shapes",
        shape,
        {name: text.data() for name, text in draft.files.items()},
        patch_text(draft.ops, rng, shape if shape in WRAPS else ""),
        frozenset(draft.read_only),
        frozenset(draft.moved_in_place),
        frozenset(draft.outside),
    )


def shape_cases(limit: int, seed: int) -> list[Case]:
    """`limit` random cases of each shape, each drawn from its own seeded generator."""
    return [shape_case(shape, random.Random(f"{seed}:{shape}:{n}")) for shape in (*SHAPES, *WRAPS) for n in range(limit)]


# ----------------------------------------------------------------------------- output


def tally(results: Sequence[Compared]) -> dict[str, Counter[str]]:
    """The verdicts' labels counted by case kind, in order of first appearance."""
    counts: dict[str, Counter[str]] = {}
    for result in results:
        counts.setdefault(result.case.kind, Counter())[result.verdict.label] += 1
    return counts


def table(campaign: str, results: Sequence[Compared]) -> str:
    """One campaign's table: per kind of case, how many were the same, deliberate and
    different; then every deliberate row and every kind of difference with the case
    kinds where it occurred."""
    lines = [f"{campaign:<28}{'n':>6}{'same':>7}{'deliberate':>12}{'different':>11}"]
    sorts: Counter[str] = Counter()
    for kind, counts in sorted(tally(results).items()):
        by_sort = Counter({s: sum(n for label, n in counts.items() if label.startswith(s + ":")) for s in (SAME, DELIBERATE, DIFFERENT)})
        sorts.update(by_sort)
        lines.append(f"  {kind:<26}{sum(counts.values()):>6}{by_sort[SAME]:>7}{by_sort[DELIBERATE]:>12}{by_sort[DIFFERENT]:>11}")
    lines.append(f"  {'(all)':<26}{len(results):>6}{sorts[SAME]:>7}{sorts[DELIBERATE]:>12}{sorts[DIFFERENT]:>11}")
    labels: dict[str, Counter[str]] = {}
    for result in results:
        if result.verdict.sort != SAME:
            labels.setdefault(result.verdict.label, Counter())[result.case.kind] += 1
    for label in sorted(labels):
        where = ", ".join(f"{kind} {n}" for kind, n in sorted(labels[label].items()))
        lines.append(f"  {label}: {sum(labels[label].values())} ({where})")
    return "\n".join(lines)


def _outcome_text(name: str, outcome: Outcome, before: Mapping[str, bytes]) -> str:
    """One side of an example: exit status, output, and the files it changed."""
    status = "timed out" if outcome.code is None else f"exit {outcome.code}"
    out = [f"-- {name}: {status}"]
    out += [f"   stdout: {line}" for line in outcome.stdout.splitlines()[:8]]
    out += [f"   stderr: {line}" for line in outcome.stderr.splitlines()[:8]]
    for path in sorted(set(before) | set(outcome.tree)):
        if before.get(path) != outcome.tree.get(path):
            out.append(f"   {path}: {outcome.tree[path]!r}" if path in outcome.tree else f"   {path}: (gone)")
    return "\n".join(out)


def example_text(result: Compared) -> str:
    """One differing case shown: the files, the patch, both outcomes."""
    case = result.case
    lines = [f"== {case.campaign} / {case.kind}: {result.verdict.label}"]
    lines += [f"   {path}: {data!r}" + (" (read-only)" if path in case.read_only else "") for path, data in case.files.items()]
    lines += ["-- patch:", *case.patch.splitlines()]
    lines.append(_outcome_text("reference", result.reference, case.files))
    lines.append(_outcome_text("ours --codex", result.ours, case.files))
    return "\n".join(lines)


def examples(results: Sequence[Compared], each: int) -> list[str]:
    """Up to `each` examples of every deliberate row and every kind of difference."""
    shown: Counter[str] = Counter()
    out: list[str] = []
    for result in results:
        if result.verdict.sort != SAME and shown[result.verdict.label] < each:
            shown[result.verdict.label] += 1
            out.append(example_text(result))
    return out


def as_json(info: Mapping[str, object], runs: Mapping[str, Sequence[Compared]]) -> str:
    """The run as one JSON object: `info`, then per campaign the counts of each verdict
    by kind of case."""
    campaigns = {
        campaign: {
            "cases": len(results),
            "verdicts": dict(Counter(r.verdict.label for r in results)),
            "by_kind": {kind: dict(counts) for kind, counts in tally(results).items()},
        }
        for campaign, results in runs.items()
    }
    return json.dumps({**info, "campaigns": campaigns}, indent=1, ensure_ascii=False)


# ----------------------------------------------------------------------------- main


def cases_of(campaign: str, limit: int, seed: int) -> list[Case]:
    """The cases of one campaign."""
    return oracle_cases(limit, seed) if campaign == "oracle" else shape_cases(limit, seed)


def run_all(cases: Sequence[Case], reference: Sequence[str], ours: Sequence[str], timeout: float = TIMEOUT) -> Iterator[Compared]:
    """Every case compared, in order, with the receipts of our commits in a scratch state
    folder."""
    with oracle.scratch_state():
        for case in cases:
            yield compare(case, reference, ours, timeout)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare `apply_patch --codex` with the reference executable.")
    parser.add_argument("--reference", metavar="PATH", help="the reference executable (codex-cli's apply_patch)")
    parser.add_argument("--campaign", choices=(*CAMPAIGNS, "all"), default="all")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"cases per oracle mistake and per shape (default {LIMIT})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds for one process")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--examples", type=int, default=0, metavar="N", help="show N cases of each difference")
    args = parser.parse_args(argv)
    if not args.reference:
        print(USAGE, file=sys.stderr)
        return 2
    reference = Path(args.reference)
    if not (reference.is_file() and os.access(reference, os.X_OK)):
        print(f"parity: {reference} is not an executable file", file=sys.stderr)
        return 2
    ours = ours_command()
    if not Path(ours[0]).is_file():
        print(f"parity: apply_patch is not installed beside {sys.executable} (`make test` installs it)", file=sys.stderr)
        return 2
    campaigns = CAMPAIGNS if args.campaign == "all" else (args.campaign,)
    runs: dict[str, list[Compared]] = {}
    started = time.monotonic()
    for campaign in campaigns:
        cases = cases_of(campaign, args.limit, args.seed)
        if not cases:
            print(f"parity: no {campaign} cases (the oracle needs this repository's git history)", file=sys.stderr)
        runs[campaign] = list(run_all(cases, [str(reference)], ours, args.timeout))
    elapsed = time.monotonic() - started
    info = {"reference": str(reference), "ours": " ".join(ours), "seed": args.seed, "limit": args.limit, "seconds": round(elapsed, 1)}
    if args.json:
        print(as_json(info, runs))
    else:
        print(f"apply_patch --codex against {reference}: seed {args.seed}, {args.limit} per mistake or shape, {elapsed:.0f} s")
        for campaign, results in runs.items():
            print()
            print(table(campaign, results))
    for campaign, results in runs.items():
        for text in examples(results, args.examples):
            print()
            print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
