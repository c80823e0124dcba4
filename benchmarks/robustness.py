"""Robustness benchmark (issue 20's oracle): real edits, written with the mistakes models make.

    .venv/bin/python benchmarks/robustness.py [--limit N | --quick] [--mistakes a,b] [--json] [--examples N]
        [--repo PATH [--paths '*.go,*.js'] [--rev REV]]

Where the edits come from: the hunks of this repository's own commits (`git log -p`
of the package's, tests' and benchmarks' Python files, modified files only; read at
run time, nothing is copied into the repository), up to a pinned commit (`--rev`)
so that later commits leave the sample as it is and two engines' figures compare.
`--repo PATH` reads another project's history instead (to its HEAD; its `*.py` files,
or the git pathspecs `--paths` names): other languages, other habits (tabs, blank lines
holding whitespace, scripts inside strings). Its figures are not this repository's and
nothing of it is kept here.
A hunk is its commit's pre-image of the file, the place it starts and its lines
(context, removed, added); its post-image is the pre-image with that one hunk
applied. Hunks are kept when their old lines occur exactly once in the file, as
whole lines and as text, and no line looks like a marker of one of the formats
(`***`, `<<<<<<<`, `=======`, `>>>>>>>`, a line starting `@@`, `--` or `++`): the
benchmark measures mistakes, not marker collisions.

Each mistake draws its own sample of hunks (`--limit` per mistake, a fixed seed), so
a hunk may serve several mistakes. Every fourth case of a mistake (and every case of
`spaces-for-tabs`) runs on a tab-indented copy of its file: each leading run of a
level's spaces of the pre-image, the post-image and the hunk becomes a tab ("tabs" in
`--json`), the Go-like and Makefile-like files models also edit. A level is the
file's own (`level_width`: 2, 4 or 8 spaces, the step its lines deepen by most often;
4 where none tells), and so is a tab wherever a mistake turns spaces into tabs or back:
a model that writes tabs for a file writes one a level.

The mistakes (what the model wrote, against the file the engine sees):

- clean: the hunk as it is;
- indent-shifted: the whole block (old and new lines) one level deeper, or one
  level shallower where every line allows it;
- tabs-for-spaces: the whole block written with tabs for the file's four spaces;
- spaces-for-tabs: the whole block written with four spaces for the file's tabs
  (neither drawn from hunks that themselves turn a line's spaces into tabs, or the
  reverse: as trailing-ws-lost);
- trailing-ws-lost: the file has trailing spaces on old lines (two spaces added
  to the first and last old line when the hunk had none), the model's copy of the
  file's lines has none; not drawn from hunks that themselves take trailing
  whitespace off a line (a removed line the added lines hold without it, as an
  editor's trim on save leaves in a commit): the mistake erases that change, and a
  str_replace then shows the line as kept, so no edit the model could send says it;
- blank-dropped: one blank line inside the old text is missing from the model's
  copy of the file's lines (a blank context line is then missing from the new text
  too, as it is in a Codex chunk or a diff);
- line-numbers: the model's copy of the file's lines keeps the prefixes of a
  `view` (`12: ` or cat -n's `    12<TAB>`); added lines have none;
- elided-middle: the longest run (two lines or more) of context lines strictly
  inside the old text is replaced by one line `...` or `# ... existing code ...`,
  at the run's indentation;
- typographic-quotes: the quotes of the model's copy of the file's lines are
  typographic (“ ” ‘ ’); not drawn from hunks that themselves make a line's quotes
  typographic (as trailing-ws-lost);
- stale-context: one context line has one word changed (a plural or singular);
- twice: the file holds a second copy of the old lines (at its top or its end); the
  edit cannot tell the two places apart by its content (a diff's line numbers point
  at the intended place, but models' line numbers are not to be trusted);
- crlf: the file has CRLF line endings, the edit LF;
- elided-twice: elided-middle, where the file also holds a copy of the lines after
  the marker further down (at its end): the marker may stand for the lines up to
  either, two readings, so only a refusal is right, in every format (both readings
  start where a unified diff's numbers say: they cannot tell them apart);
- trailing-ws-blank: trailing-ws-lost where the file's blank old lines hold the
  indentation of the line below them (as editors leave them) and the model's
  copy has them empty, in hunks that add a blank line of their own (written as
  the model sends it: empty), and that do not take a blank line's whitespace off
  (a removed blank line and an added empty one, as trailing-ws-lost);
- blank-added: a blank line strictly inside the old text, between two non-blank
  lines, that the file does not have there (a context line, so in the new text
  too; a removed line between two removed lines);
- blank-halved: one blank line of a run of two or more strictly inside the old
  text, beside a removed or added line, missing from the model's copy;
- added-other-unit: the old text exact, the added lines indented in the other
  unit (tabs in a file indented with spaces, one a level, or a level's spaces for
  the tabs of a tab-indented copy, every fourth case): the file's unit is right;
- blank-dropped-counted: blank-dropped in a unified diff whose header counts the
  lines of the edit meant, as a diff the model copied or counted from the file
  does (the missing line counted on the old side, and on the new side too where it
  was a context line); only a unified diff carries such numbers.

"The model's copy of the file's lines" is the context and removed lines: a context
line appears in the new text too, with the same mistake; lines the model added are
its own and have none.

Every case is written in four formats (blank-dropped-counted in the unified diff
only) and applied through the public API only, each
in a fresh file under a temporary folder: a Codex patch with one bare `@@` chunk
(`apply_patch.apply_patch`), one `StrReplace` whose old and new texts are the lines
joined without a final line break, as `old_string`s are (`apply_patch.edits.
apply_edits`), a SEARCH/REPLACE block (`apply_search_replace`), a `git diff` with the
intended place's line numbers (`apply_unified_diff`). Beside each, the baseline:
`str.replace` on the file's text when the same old text occurs exactly once, else a
refusal.

Judging: the result must be the post-image byte for byte: in the file's own line
endings and indentation, with the file's own bytes on every line the model only
copied (its trailing spaces, its quotes, its context line, its blank line). Equal:
correct; a PatchError (nothing changed): refused; anything else, including a
PatchError that left the file changed: wrong; any other exception: crashed. For
`twice`, a refusal is the only right answer and counts as correct; an application
counts as wrong even where it chose the intended place ("lucky" in `--json` and in
the table's footnote): the engine guessed. A unified diff is the exception for
`twice`: its header's line numbers (real ones here) name where the intended place
starts, so applying it there is correct and a refusal is a refusal. Not for
`elided-twice`, whose two readings start at the same line.

Nothing here is a test and no figure makes anything fail; tests/test_robustness.py
checks the counting on a small sample.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from apply_patch import PatchError, apply_patch
from apply_patch.edits import StrReplace, apply_edits, apply_search_replace, apply_unified_diff

ROOT = Path(__file__).resolve().parent.parent
SEED = 20
LIMIT = 100  # cases per mistake: 18 mistakes x 100 = 1,800 cases, each in 4 formats (one in 1)
QUICK_LIMIT = 8
# The hunks are those of the history up to this commit (the last one before the benchmark),
# so that later commits do not change the sample: figures of two engines stay comparable.
PINNED = "3680f66b358dbcfb7f53c5559444d32c84e5fd3a"
# The project's own Python files; the generated parser tables are left out.
PATHSPECS = ("apply_patch/*.py", "tests/*.py", "benchmarks/*.py", ":(exclude)apply_patch/format/_tables.py")
MAX_HUNK_LINES = 60
MAX_FILE_BYTES = 300_000
MARKERS = ("***", "<<<<<<<", "=======", ">>>>>>>")
LINE_STARTS = ("@@", "--", "++")

Line = tuple[str, str]
"""A hunk line: its tag (" " context, "-" removed, "+" added) and its text without line break."""

FORMATS = ("codex", "str_replace", "search_replace", "unified_diff")
MISTAKES = (
    "clean",
    "indent-shifted",
    "tabs-for-spaces",
    "spaces-for-tabs",
    "trailing-ws-lost",
    "blank-dropped",
    "line-numbers",
    "elided-middle",
    "typographic-quotes",
    "stale-context",
    "twice",
    "crlf",
    "elided-twice",
    "trailing-ws-blank",
    "blank-added",
    "blank-halved",
    "added-other-unit",
    "blank-dropped-counted",
)
# Mistakes that only some formats can carry (every other mistake is tried in all four).
ONLY_IN = {"blank-dropped-counted": ("unified_diff",)}
OUTCOMES = ("correct", "refused", "wrong", "crashed")


# ----------------------------------------------------------------------------- hunks


@dataclass(frozen=True)
class Hunk:
    """One change to one file: `pre` its lines (no line breaks), `lines` the hunk's
    lines, whose old lines (context and removed) are `pre[start:start + len(old)]`."""

    source: str
    path: str
    pre: tuple[str, ...]
    start: int
    lines: tuple[Line, ...]
    width: int = 4  # spaces a level of the file's indentation (`level_width`), kept on its tab-indented copy

    @property
    def old(self) -> list[str]:
        """The context and removed lines, in order."""
        return [text for tag, text in self.lines if tag != "+"]

    @property
    def new(self) -> list[str]:
        """The context and added lines, in order."""
        return [text for tag, text in self.lines if tag != "-"]

    def post(self) -> tuple[str, ...]:
        """The pre-image with this hunk applied at `start`."""
        return (*self.pre[: self.start], *self.new, *self.pre[self.start + len(self.old) :])


def whole_line_count(lines: Sequence[str], block: Sequence[str]) -> int:
    """How many places of `lines` hold `block` (not empty) as consecutive whole lines."""
    size, first = len(block), block[0]
    return sum(
        1
        for i in range(len(lines) - size + 1)
        if lines[i] == first and list(lines[i : i + size]) == list(block)
    )


def file_text(lines: Sequence[str], crlf: bool = False) -> str:
    """`lines` as a file's text: each line ended by LF (or CRLF)."""
    end = "\r\n" if crlf else "\n"
    return "".join(line + end for line in lines)


def is_usable(hunk: Hunk) -> bool:
    """Whether `hunk` makes a well-defined clean edit in every format: old lines found
    once (as lines and as `str_replace` text), no marker-like line, not too long."""
    old = hunk.old
    if not old or len(hunk.lines) > MAX_HUNK_LINES or not any(line.strip() for line in old):
        return False
    for _, text in hunk.lines:
        if text.lstrip().startswith(MARKERS) or text.startswith(LINE_STARTS) or "\r" in text:
            return False
    if list(hunk.pre[hunk.start : hunk.start + len(old)]) != old:
        return False
    text = file_text(hunk.pre)
    return whole_line_count(hunk.pre, old) == 1 and text.count("\n".join(old)) == 1


def _git(*args: str, stdin: bytes | None = None, root: Path = ROOT) -> bytes:
    """The output of `git -C root args` (CalledProcessError if git fails)."""
    command = ["git", "-C", str(root), "-c", "core.quotepath=off", *args]
    return subprocess.run(command, input=stdin, capture_output=True, check=True).stdout


HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass(frozen=True)
class RawHunk:
    """A hunk as `git log -p` shows it: the old blob of its file, where it starts (from 1)."""

    source: str
    path: str
    blob: str
    old_start: int
    lines: tuple[Line, ...]


def parse_log(text: str) -> Iterator[RawHunk]:
    """The hunks of `git log -p --full-index` output, read by their line counts; a hunk
    with a `\\ No newline at end of file` line is left out."""
    commit = path = blob = ""
    rows = text.split("\n")
    i = 0
    while i < len(rows):
        row = rows[i]
        i += 1
        if row.startswith("commit "):
            commit = row.split()[1]
        elif row.startswith("diff --git "):
            path = blob = ""
        elif row.startswith("index ") and ".." in row:
            blob = row.split()[1].split("..")[0]
        elif row.startswith("+++ b/"):
            path = row[len("+++ b/") :]
        elif row.startswith("@@ ") and (match := HEADER.match(row)):
            old_left = int(match.group(2) or "1")
            new_left = int(match.group(4) or "1")
            lines: list[Line] = []
            clean = True
            while i < len(rows) and (old_left > 0 or new_left > 0 or rows[i].startswith("\\")):
                body = rows[i]
                i += 1
                if body.startswith("\\"):
                    clean = False
                    continue
                tag, content = (body[:1] or " "), body[1:]
                if tag not in " -+":
                    clean = False
                    break
                lines.append((tag, content))
                old_left -= tag != "+"
                new_left -= tag != "-"
            if clean and path and blob and commit:
                start = int(match.group(1))
                yield RawHunk(f"{commit[:10]}:{path}@{start}", path, blob, start, tuple(lines))


def read_blobs(ids: Iterable[str], root: Path = ROOT) -> dict[str, bytes]:
    """The content of each blob id, by one `git cat-file --batch` in the repository `root`."""
    wanted = sorted(set(ids))
    out = _git("cat-file", "--batch", stdin="".join(f"{b}\n" for b in wanted).encode(), root=root)
    blobs: dict[str, bytes] = {}
    at = 0
    for blob in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        blobs[blob] = out[at : at + size]
        at += size + 1
    return blobs


def history_hunks(rev: str = PINNED, *, root: Path = ROOT, pathspecs: Sequence[str] = PATHSPECS) -> list[Hunk]:
    """Every usable hunk of the history up to `rev` (modified files `pathspecs` names: this
    repository's Python files), in log order; of this repository, or of the one at `root`
    (a work tree or a bare repository: another project's edits).

    Empty when git, the history or `rev` is missing (a tarball, a shallow clone): the
    callers say so."""
    try:
        log = _git(
            "log", "-p", "--no-merges", "--no-renames", "--diff-filter=M", "--full-index",
            "--no-color", "--no-ext-diff", "--no-textconv", "-U3", "--format=commit %H",
            rev, "--", *pathspecs, root=root,
        ).decode("utf-8", "replace")
    except (OSError, subprocess.CalledProcessError):
        return []
    raw = list(parse_log(log))
    blobs = read_blobs((r.blob for r in raw), root)
    hunks = []
    for r in raw:
        data = blobs.get(r.blob, b"")
        if not data.endswith(b"\n") or len(data) > MAX_FILE_BYTES or b"\r" in data:
            continue
        try:
            pre = tuple(data.decode("utf-8")[:-1].split("\n"))
        except UnicodeDecodeError:
            continue
        hunk = Hunk(r.source, r.path, pre, r.old_start - 1, r.lines, level_width(pre))
        if is_usable(hunk):
            hunks.append(hunk)
    return hunks


# ----------------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """One edit to judge: the file the engine sees (`pre`, CRLF or not), the model's hunk
    lines (`model`, meant for the region starting at `pre[start]`), and the right result:
    `expected` (None: the edit cannot tell its place, only a refusal is right),
    `intended` (the result of the edit at the intended place, for "lucky") and
    `numbered` (for an edit that cannot tell its place by its content: a unified diff's
    numbers can, as they name where the intended place starts and no other), `counts`
    (the old and new lines a unified diff's header counts, where they are not those of
    `model`: the edit meant's)."""

    mistake: str
    variant: str
    style: str
    source: str
    path: str
    pre: tuple[str, ...]
    start: int
    model: tuple[Line, ...]
    expected: tuple[str, ...] | None
    intended: tuple[str, ...]
    crlf: bool = False
    numbered: bool = False
    counts: tuple[int, int] | None = None

    def before(self) -> bytes:
        """The file's bytes before the edit."""
        return file_text(self.pre, self.crlf).encode("utf-8")

    def bytes_of(self, lines: Sequence[str]) -> bytes:
        """`lines` as this case's file bytes (its line endings)."""
        return file_text(lines, self.crlf).encode("utf-8")


def case_of(
    mistake: str, variant: str, style: str, truth: Hunk, model: Iterable[Line], *, crlf: bool = False
) -> Case | None:
    """The case where the model wrote `model` for the real change `truth`.

    None when `truth`'s old lines no longer occur once in its file, when `model`
    changes nothing, or when a mistake of the old text (any but clean, crlf and
    added-other-unit) is no mistake: the
    model's old lines are whole lines of the file (a blank line dropped beside
    another blank line, a shift of lines that are all blank)."""
    model = tuple(model)
    if whole_line_count(truth.pre, truth.old) != 1 or all(tag == " " for tag, _ in model):
        return None
    model_old = [text for tag, text in model if tag != "+"]
    if mistake not in ("clean", "crlf", "added-other-unit") and (not model_old or whole_line_count(truth.pre, model_old)):
        return None
    post = truth.post()
    return Case(
        mistake, variant, style, truth.source, truth.path, truth.pre, truth.start, model, post, post, crlf
    )


def leading(text: str) -> str:
    """The leading spaces and tabs of `text`."""
    return text[: len(text) - len(text.lstrip(" \t"))]


def level_width(lines: Sequence[str]) -> int:
    """The spaces of one level of `lines`' indentation: 2, 4 or 8, the step by which a line
    indented with spaces most often goes deeper than the one before it; 4 where none of
    the three is seen (a file indented with tabs, or not at all)."""
    steps: Counter[int] = Counter()
    before = 0
    for line in lines:
        if not line.strip():
            continue
        indent = leading(line)
        if "\t" in indent:
            before = 0
            continue
        if len(indent) > before:
            steps[len(indent) - before] += 1
        before = len(indent)
    found = [(count, width) for width, count in steps.items() if width in (2, 4, 8)]
    return max(found)[1] if found else 4


def tabbed(text: str, width: int = 4) -> str:
    """`text` with each leading run of `width` spaces as a tab (a remainder stays spaces)."""
    spaces = len(text) - len(text.lstrip(" "))
    return "\t" * (spaces // width) + " " * (spaces % width) + text[spaces:]


def spaced(text: str, width: int = 4) -> str:
    """`text` with each tab of its indentation as `width` spaces."""
    indent = leading(text)
    return indent.replace("\t", " " * width) + text[len(indent) :]


def retabbed(hunk: Hunk) -> Hunk:
    """`hunk` and its file as if the file were indented with tabs, one a level."""
    width = hunk.width
    return replace(
        hunk,
        pre=tuple(tabbed(text, width) for text in hunk.pre),
        lines=tuple((tag, tabbed(text, width)) for tag, text in hunk.lines),
    )


def unit_of(hunk: Hunk, style: str) -> str:
    """One level of `hunk`'s file's indentation in `style`: a tab, or its level's spaces."""
    return "\t" if style == "tabs" else " " * hunk.width


def on_copied(lines: Iterable[Line], change: Callable[[str], str]) -> list[Line]:
    """`lines` with `change` made to the context and removed lines (the model's copy of the file)."""
    return [(tag, text if tag == "+" else change(text)) for tag, text in lines]


def on_all(lines: Iterable[Line], change: Callable[[str], str]) -> list[Line]:
    """`lines` with `change` made to every line (the whole block as the model wrote it)."""
    return [(tag, change(text)) for tag, text in lines]


def old_positions(hunk: Hunk) -> list[int]:
    """The indexes in `hunk.lines` of its old lines (context and removed), in order."""
    return [k for k, (tag, _) in enumerate(hunk.lines) if tag != "+"]


Maker = Callable[[Hunk, int, random.Random, str], "Case | None"]


def clean(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The hunk as it is."""
    return case_of("clean", "", style, hunk, hunk.lines)


def indent_shifted(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The whole block one level deeper (even `n`), or shallower (odd `n`) where every
    non-blank line starts with a level (else deeper)."""
    unit = unit_of(hunk, style)
    texts = [text for _, text in hunk.lines if text.strip()]
    if n % 2 and all(text.startswith(unit) for text in texts):
        return case_of("indent-shifted", "shallower", style, hunk,
                       on_all(hunk.lines, lambda t: t[len(unit):] if t.strip() else t))
    return case_of("indent-shifted", "deeper", style, hunk,
                   on_all(hunk.lines, lambda t: unit + t if t.strip() else t))


def tabs_for_spaces(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The whole block written with tabs, one a level, in a file indented with spaces."""
    width = hunk.width
    if not any(text.startswith(" " * width) for text in hunk.old) or erases_a_change(hunk, lambda t: tabbed(t, width)):
        return None
    return case_of("tabs-for-spaces", "", "spaces", hunk, on_all(hunk.lines, lambda t: tabbed(t, width)))


def spaces_for_tabs(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The whole block written with a level's spaces for each tab in a file indented with tabs."""
    tabs, width = retabbed(hunk), hunk.width
    if not any(text.startswith("\t") for text in tabs.old) or erases_a_change(tabs, lambda t: spaced(t, width)):
        return None
    return case_of("spaces-for-tabs", "", "tabs", tabs, on_all(tabs.lines, lambda t: spaced(t, width)))


def trailing_ws_lost(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """Old lines with trailing whitespace in the file, without it in the model's copy.

    When no old line of the hunk has any, the first and the last old line get two
    spaces (a blank one: the indentation of its neighbour above) in the file, the
    hunk and the post-image alike."""
    truth, variant = hunk, "present"
    if all(text == text.rstrip() for text in hunk.old):
        variant = "added"
        lines, pre = list(hunk.lines), list(hunk.pre)
        positions = old_positions(hunk)
        for at, k in {positions[0]: 0, positions[-1]: len(positions) - 1}.items():
            tag, text = lines[at]
            above = pre[hunk.start + k - 1] if hunk.start + k > 0 else ""
            text = text + "  " if text.strip() else (leading(above) or " " * hunk.width)
            lines[at] = (tag, text)
            pre[hunk.start + k] = text
        truth = replace(hunk, pre=tuple(pre), lines=tuple(lines))
    if erases_a_change(truth, str.rstrip):
        return None
    return case_of("trailing-ws-lost", variant, style, truth, on_copied(truth.lines, str.rstrip))


def erases_a_change(hunk: Hunk, change: Callable[[str], str]) -> bool:
    """Whether the mistake `change`, made on the model's copy of the file's lines, erases a
    change of `hunk`: one of its removed lines becomes one of its added lines. The hunk
    itself made that change (an editor's trim of trailing whitespace, straight quotes
    made typographic), the model's copy has lost it, and a str_replace then shows the line
    as kept: no edit the model could send says it, so such hunks are no case of `change`."""
    added = {text for tag, text in hunk.lines if tag == "+"}
    return any(tag == "-" and text not in added and change(text) in added for tag, text in hunk.lines)


def blank_dropped(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """One blank old line strictly inside the old text missing from the model's lines."""
    positions = old_positions(hunk)[1:-1]
    blanks = [k for k in positions if not hunk.lines[k][1].strip()]
    if not blanks:
        return None
    k = rng.choice(blanks)
    variant = "context" if hunk.lines[k][0] == " " else "removed"
    return case_of("blank-dropped", variant, style, hunk, hunk.lines[:k] + hunk.lines[k + 1 :])


def blank_dropped_counted(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """blank-dropped, the unified diff's header counting the lines of the edit meant."""
    case = blank_dropped(hunk, n, rng, style)
    if case is None:
        return None
    return replace(case, mistake="blank-dropped-counted", counts=(len(hunk.old), len(hunk.new)))


def line_numbers(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The model's copy of the file's lines prefixed as a `view` shows them: `12: `
    (even `n`) or cat -n's `    12<TAB>` (odd `n`)."""
    numbers = iter(range(hunk.start + 1, hunk.start + len(hunk.old) + 1))

    def prefixed(text: str) -> str:
        number = next(numbers)
        return f"{number:>6}\t{text}" if n % 2 else f"{number}: {text}"

    variant = "cat -n" if n % 2 else "N: "
    return case_of("line-numbers", variant, style, hunk, on_copied(hunk.lines, prefixed))


def elided_middle(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The longest run (2 lines or more) of context lines strictly inside the old text
    replaced by one elision line at the run's indentation."""
    positions = old_positions(hunk)
    inner = set(positions[1:-1])
    best: list[int] = []
    run: list[int] = []
    for k, (tag, _) in enumerate(hunk.lines):
        run = run + [k] if tag == " " and k in inner else []
        if len(run) > len(best):
            best = run
    if len(best) < 2:
        return None
    indent = next((leading(hunk.lines[k][1]) for k in best if hunk.lines[k][1].strip()), "")
    marker = "..." if n % 2 == 0 else "# ... existing code ..."
    model = hunk.lines[: best[0]] + ((" ", indent + marker),) + hunk.lines[best[-1] + 1 :]
    return case_of("elided-middle", marker, style, hunk, model)


def curly(text: str) -> str:
    """`text` with its ASCII quotes typographic, opening and closing in turn."""
    out, double, single = [], 0, 0
    for char in text:
        if char == '"':
            out.append("“" if double % 2 == 0 else "”")
            double += 1
        elif char == "'":
            out.append("‘" if single % 2 == 0 else "’")
            single += 1
        else:
            out.append(char)
    return "".join(out)


def typographic_quotes(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The quotes of the model's copy of the file's lines typographic."""
    if not any("'" in text or '"' in text for text in hunk.old) or erases_a_change(hunk, curly):
        return None
    return case_of("typographic-quotes", "", style, hunk, on_copied(hunk.lines, curly))


def stale_context(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """One context line with one run of 4 letters or more made plural (or singular)."""
    words = {k: re.findall(r"[A-Za-z]{4,}", text) for k, (tag, text) in enumerate(hunk.lines) if tag == " "}
    candidates = [k for k, found in words.items() if found]
    if not candidates:
        return None
    k = rng.choice(candidates)
    word = rng.choice(words[k])
    stale = hunk.lines[k][1].replace(word, word[:-1] if word.endswith("s") else word + "s", 1)
    model = hunk.lines[:k] + ((" ", stale),) + hunk.lines[k + 1 :]
    return case_of("stale-context", "", style, hunk, model)


def twice(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The file with a second copy of the old lines, at its top (odd `n`: the intended
    place is the second) or at its end (even `n`: the first)."""
    old = tuple(hunk.old)
    if n % 2:
        truth = replace(hunk, pre=old + hunk.pre, start=hunk.start + len(old))
    else:
        truth = replace(hunk, pre=hunk.pre + old)
    if whole_line_count(truth.pre, old) != 2:
        return None
    variant = "copy above" if n % 2 else "copy below"
    intended = truth.post()
    where = (truth.source, truth.path, truth.pre, truth.start)
    return Case("twice", variant, style, *where, hunk.lines, None, intended, numbered=True)


def crlf(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The file with CRLF line endings, the edit with LF."""
    return case_of("crlf", "", style, hunk, hunk.lines, crlf=True)


def elided_twice(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """elided-middle, the file holding a copy of the old lines after the marker at its end:
    a second reading of the elision, so that only a refusal is right (both readings start
    at the same line, which is all a unified diff's numbers name)."""
    base = elided_middle(hunk, n, rng, style)
    if base is None:
        return None
    marker = next(k for k, (tag, text) in enumerate(base.model) if tag == " " and text.strip().endswith("..."))
    tail = tuple(text for tag, text in base.model[marker + 1 :] if tag != "+")
    if not any(line.strip() for line in tail):
        return None
    truth = replace(hunk, pre=hunk.pre + tail)
    if whole_line_count(truth.pre, truth.old) != 1:
        return None
    intended = truth.post()
    where = (truth.source, truth.path, truth.pre, truth.start)
    return Case("elided-twice", base.variant, style, *where, base.model, None, intended)


def trailing_ws_blank(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The file's blank old lines hold the indentation of the next non-blank line, the
    model's copy has them empty; only hunks that add a blank line of their own."""
    positions = old_positions(hunk)
    blanks = [k for k in positions if not hunk.lines[k][1].strip()]
    if not blanks or not any(tag == "+" and not text.strip() for tag, text in hunk.lines):
        return None
    lines, pre = list(hunk.lines), list(hunk.pre)
    for number, k in enumerate(positions):
        if k not in blanks:
            continue
        below = next((pre[i] for i in range(hunk.start + number + 1, len(pre)) if pre[i].strip()), "")
        indent = leading(below) or unit_of(hunk, style)
        lines[k] = (lines[k][0], indent)
        pre[hunk.start + number] = indent
    truth = replace(hunk, pre=tuple(pre), lines=tuple(lines))
    if erases_a_change(truth, str.rstrip):
        return None
    return case_of("trailing-ws-blank", "", style, truth, on_copied(truth.lines, str.rstrip))


def blank_added(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """A blank context line inserted strictly inside the old text, between two non-blank
    old lines (the file has none there)."""
    positions = old_positions(hunk)
    pairs = [
        (a, b) for a, b in zip(positions, positions[1:])
        if hunk.lines[a][1].strip() and hunk.lines[b][1].strip()
    ]  # fmt: skip
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    at = rng.randint(a + 1, b)  # before b, after any added lines between them, or among them
    variant = "beside a change" if any(tag != " " for tag, _ in hunk.lines[a : b + 1]) else "in context"
    # Between two removed lines the model's copy removes it with them; elsewhere it keeps it.
    tag = "-" if hunk.lines[a][0] == hunk.lines[b][0] == "-" else " "
    return case_of("blank-added", variant, style, hunk, hunk.lines[:at] + ((tag, ""),) + hunk.lines[at:])


def blank_halved(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """One blank line missing from a run of two or more blank old lines strictly inside the
    old text, next to a removed or added line."""
    positions = old_positions(hunk)
    inner = set(positions[1:-1])
    runs: list[list[int]] = []
    for k, (tag, text) in enumerate(hunk.lines):
        if tag != "+" and not text.strip() and k in inner:
            if runs and runs[-1][-1] == k - 1:
                runs[-1].append(k)
            else:
                runs.append([k])
    beside = [
        run for run in runs
        if len(run) >= 2 and (
            hunk.lines[run[0] - 1][0] != " " or (run[-1] + 1 < len(hunk.lines) and hunk.lines[run[-1] + 1][0] != " ")
        )
    ]  # fmt: skip
    if not beside:
        return None
    run = rng.choice(beside)
    k = rng.choice(run)
    variant = "context" if all(hunk.lines[j][0] == " " for j in run) else "removed"
    return case_of("blank-halved", variant, style, hunk, hunk.lines[:k] + hunk.lines[k + 1 :])


def added_other_unit(hunk: Hunk, n: int, rng: random.Random, style: str) -> Case | None:
    """The old text exact, the added lines in the other unit: a tab for each level's spaces
    of the file, or (on a tab-indented copy) a level's spaces for each tab."""
    width, unit = hunk.width, unit_of(hunk, style)
    changed: Callable[[str, int], str] = spaced if style == "tabs" else tabbed
    if not any(tag == "+" and text.startswith(unit) for tag, text in hunk.lines):
        return None
    model = [(tag, changed(text, width) if tag == "+" else text) for tag, text in hunk.lines]
    return case_of("added-other-unit", "spaces" if style == "tabs" else "tabs", style, hunk, model)


MAKERS: dict[str, Maker] = {
    "clean": clean,
    "indent-shifted": indent_shifted,
    "tabs-for-spaces": tabs_for_spaces,
    "spaces-for-tabs": spaces_for_tabs,
    "trailing-ws-lost": trailing_ws_lost,
    "blank-dropped": blank_dropped,
    "line-numbers": line_numbers,
    "elided-middle": elided_middle,
    "typographic-quotes": typographic_quotes,
    "stale-context": stale_context,
    "twice": twice,
    "crlf": crlf,
    "elided-twice": elided_twice,
    "trailing-ws-blank": trailing_ws_blank,
    "blank-added": blank_added,
    "blank-halved": blank_halved,
    "added-other-unit": added_other_unit,
    "blank-dropped-counted": blank_dropped_counted,
}


def build_cases(
    hunks: Sequence[Hunk], limit: int, seed: int = SEED, mistakes: Iterable[str] = MISTAKES
) -> list[Case]:
    """Up to `limit` cases of each mistake, from hunks drawn in an order fixed by `seed`.

    Every fourth case of a mistake (not tabs-for-spaces) is made on the tab-indented copy
    of its hunk; spaces-for-tabs always is."""
    cases: list[Case] = []
    for mistake in mistakes:
        order = list(hunks)
        random.Random(f"{seed}:{mistake}").shuffle(order)
        made = 0
        for hunk in order:
            if made == limit:
                break
            tabs = made % 4 == 3 and mistake not in ("tabs-for-spaces", "spaces-for-tabs")
            style = "tabs" if tabs else "spaces"
            rng = random.Random(f"{seed}:{mistake}:{hunk.source}")
            case = MAKERS[mistake](retabbed(hunk) if style == "tabs" else hunk, made, rng, style)
            if case is not None:
                cases.append(case)
                made += 1
    return cases


# ----------------------------------------------------------------------------- formats


def old_new(case: Case, fmt: str) -> tuple[str, str]:
    """The old and new text of `case` as format `fmt` carries them: lines joined without a
    final line break for `str_replace` (as `old_string`s are), whole lines otherwise."""
    old = [text for tag, text in case.model if tag != "+"]
    new = [text for tag, text in case.model if tag != "-"]
    if fmt == "str_replace":
        return "\n".join(old), "\n".join(new)
    return file_text(old), file_text(new)


def codex_text(case: Case) -> str:
    """`case` as a Codex patch: one Update File with one bare `@@` chunk."""
    body = "".join(f"{tag}{text}\n" for tag, text in case.model)
    return f"*** Begin Patch\n*** Update File: {case.path}\n@@\n{body}*** End Patch\n"


def search_replace_text(case: Case) -> str:
    """`case` as one SEARCH/REPLACE block, the path on the line above."""
    old, new = old_new(case, "search_replace")
    return f"{case.path}\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n"


def unified_diff_text(case: Case) -> str:
    """`case` as a `git diff` hunk with the intended place's line numbers, counting the
    model's lines (or `case.counts`)."""
    old = sum(tag != "+" for tag, _ in case.model)
    new = sum(tag != "-" for tag, _ in case.model)
    old, new = case.counts or (old, new)
    body = "".join(f"{tag}{text}\n" for tag, text in case.model)
    where = case.start + 1
    return f"--- a/{case.path}\n+++ b/{case.path}\n@@ -{where},{old} +{where},{new} @@\n{body}"


def apply_format(case: Case, fmt: str, root: Path) -> int:
    """Apply `case` in format `fmt` to the files under `root`, through the public API;
    the number of warnings. Raises what the engine raises."""
    if fmt == "codex":
        result = apply_patch(codex_text(case), root=root)
    elif fmt == "str_replace":
        result = apply_edits([StrReplace(case.path, *old_new(case, fmt))], root)
    elif fmt == "search_replace":
        result = apply_search_replace(search_replace_text(case), root)
    elif fmt == "unified_diff":
        result = apply_unified_diff(unified_diff_text(case), root)
    else:
        raise ValueError(f"unknown format {fmt!r}")
    return len(result.warnings)


def baseline(case: Case, fmt: str) -> bytes | None:
    """The plain exact-match answer: `str.replace` when the old text of `fmt` occurs
    exactly once in the file's text (line endings as they are), else None (refused)."""
    text = case.before().decode("utf-8")
    old, new = old_new(case, fmt)
    if text.count(old) != 1:
        return None
    return text.replace(old, new).encode("utf-8")


# ----------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Verdict:
    """What one attempt came to: `outcome` (correct, refused, wrong, crashed), `lucky`
    (an ambiguous edit applied at the intended place), the result bytes (None: refused
    or crashed), the engine's warnings, and the error's or crash's text."""

    outcome: str
    lucky: bool = False
    after: bytes | None = None
    warnings: int = 0
    error: str = ""


def judge(
    case: Case, after: bytes | None, *, warnings: int = 0, error: str = "", fmt: str = ""
) -> Verdict:
    """The verdict on `after`, the file's bytes after an edit reported success (None: refused).

    Correct when `after` is the expected post-image; for an edit that cannot tell its
    place (`expected` None), a refusal is correct and any result wrong (lucky when it
    is the intended one). In format `fmt` "unified_diff", whose line numbers name the
    intended place where it starts apart from the others (`numbered`), the intended
    result is the expected one."""
    if case.expected is None and case.numbered and fmt == "unified_diff":
        case = replace(case, expected=case.intended)
    if case.expected is None:
        if after is None:
            return Verdict("correct", error=error)
        return Verdict("wrong", lucky=after == case.bytes_of(case.intended), after=after, warnings=warnings)
    if after is None:
        return Verdict("refused", error=error)
    outcome = "correct" if after == case.bytes_of(case.expected) else "wrong"
    return Verdict(outcome, after=after, warnings=warnings)


def attempt(case: Case, fmt: str, folder: Path) -> Verdict:
    """Write `case`'s file under `folder`, apply it in format `fmt`, judge what is on disk.

    A PatchError that left the file as it was is a refusal; one that changed it is
    wrong; any other exception is a crash."""
    target = folder / case.path
    target.parent.mkdir(parents=True, exist_ok=True)
    before = case.before()
    target.write_bytes(before)
    try:
        warnings = apply_format(case, fmt, folder)
    except PatchError as error:
        after = target.read_bytes()
        if after != before:
            return Verdict("wrong", after=after, error=f"{type(error).__name__} after changing the file")
        return judge(case, None, error=f"{type(error).__name__}: {error}", fmt=fmt)
    except Exception as error:  # every other exception is a crash, counted apart
        return Verdict("crashed", error=f"{type(error).__name__}: {error}")
    return judge(case, target.read_bytes(), warnings=warnings, fmt=fmt)


def attempt_baseline(case: Case, fmt: str) -> Verdict:
    """The baseline's verdict on `case` in format `fmt`."""
    return judge(case, baseline(case, fmt), fmt=fmt)


# ----------------------------------------------------------------------------- tally


@dataclass
class Cell:
    """The counts of one format x mistake: ours by outcome, the baseline's by outcome,
    and of our wrong applications, those that were lucky and those that came with a
    warning."""

    ours: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    exact: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES[:3], 0))
    lucky: int = 0
    warned_wrong: int = 0

    @property
    def total(self) -> int:
        """How many attempts were counted."""
        return sum(self.ours.values())

    def add(self, ours: Verdict, exact: Verdict) -> None:
        """Count one attempt of ours and the baseline's on the same edit."""
        self.ours[ours.outcome] += 1
        self.exact[exact.outcome] += 1
        self.lucky += ours.lucky
        self.warned_wrong += ours.outcome == "wrong" and ours.warnings > 0

    def merged(self, other: Cell) -> Cell:
        """The sum of this cell and `other`."""
        return Cell(
            {k: v + other.ours[k] for k, v in self.ours.items()},
            {k: v + other.exact[k] for k, v in self.exact.items()},
            self.lucky + other.lucky,
            self.warned_wrong + other.warned_wrong,
        )


@dataclass
class Run:
    """Every verdict of one run, by (format, mistake), and examples of what went wrong."""

    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    examples: list[tuple[Case, str, Verdict]] = field(default_factory=list)

    def cell(self, fmt: str, mistake: str) -> Cell:
        """The cell of `fmt` x `mistake`, made empty the first time."""
        return self.cells.setdefault((fmt, mistake), Cell())

    def total(self, fmt: str | None = None, mistake: str | None = None) -> Cell:
        """The sum of the cells of `fmt` (None: every format) and `mistake` (None: every mistake)."""
        out = Cell()
        for (f, m), cell in self.cells.items():
            if fmt in (None, f) and mistake in (None, m):
                out = out.merged(cell)
        return out


STATE_VARIABLE = "APPLY_PATCH_STATE_DIR"


@contextmanager
def scratch_state() -> Iterator[str]:
    """For the life of the block, the receipts and journals of the cases' commits go to a
    temporary folder, removed after: thousands of roots of a run never reach the user's
    state folder (each would keep a folder there, with the files it replaced)."""
    saved = os.environ.get(STATE_VARIABLE)
    with tempfile.TemporaryDirectory(prefix="apply_patch-oracle-state-") as folder:
        os.environ[STATE_VARIABLE] = folder
        try:
            yield folder
        finally:
            if saved is None:
                del os.environ[STATE_VARIABLE]
            else:
                os.environ[STATE_VARIABLE] = saved


def run_cases(cases: Sequence[Case], formats: Sequence[str] = FORMATS, keep: int = 0) -> Run:
    """Every case in every format, ours and the baseline, in one temporary folder (a
    subfolder per case); `keep` examples of each format x mistake x bad outcome kept."""
    run = Run()
    seen: dict[tuple[str, str, str], int] = {}
    with tempfile.TemporaryDirectory(prefix="robustness-") as tmp:
        for number, case in enumerate(cases):
            for fmt in [f for f in formats if f in ONLY_IN.get(case.mistake, FORMATS)]:
                folder = Path(tmp, f"{number}-{fmt}")
                ours = attempt(case, fmt, folder)
                run.cell(fmt, case.mistake).add(ours, attempt_baseline(case, fmt))
                key = (fmt, case.mistake, ours.outcome)
                if ours.outcome in ("wrong", "crashed") and seen.get(key, 0) < keep:
                    seen[key] = seen.get(key, 0) + 1
                    run.examples.append((case, fmt, ours))
    return run


# ----------------------------------------------------------------------------- output


COLUMNS = "{:<15}{:<22}{:>5} |{:>8}{:>8}{:>7}{:>8} |{:>8}{:>8}{:>7}"


def _row(fmt: str, mistake: str, cell: Cell) -> str:
    """One line of the table."""
    o, e = cell.ours, cell.exact
    return COLUMNS.format(
        fmt, mistake, cell.total, o["correct"], o["refused"], o["wrong"], o["crashed"],
        e["correct"], e["refused"], e["wrong"],
    )  # fmt: skip


def table(run: Run, formats: Sequence[str] = FORMATS, mistakes: Sequence[str] = MISTAKES) -> str:
    """The printed table: each format's mistakes and total, then each mistake over every
    format, then the grand total; footnotes on `twice` and on warnings."""
    head = COLUMNS.format("format", "mistake", "n", "correct", "refused", "wrong", "crashed",
                          "correct", "refused", "wrong")  # fmt: skip
    width = len(COLUMNS.format(*[""] * 10))
    over = f"{'':<42} |{'ours':^31} |{'exact match':^23}".rstrip()
    lines = [over, head, "-" * width]
    for fmt in formats:
        for mistake in mistakes:
            if (fmt, mistake) in run.cells:
                lines.append(_row(fmt, mistake, run.cells[fmt, mistake]))
        lines += [_row(fmt, "(all)", run.total(fmt)), ""]
    for mistake in mistakes:
        if any(m == mistake for _, m in run.cells):
            lines.append(_row("all formats", mistake, run.total(mistake=mistake)))
    total, twice = run.total(), run.total(mistake="twice")
    lines += [
        _row("all formats", "(all)", total),
        "",
        f"twice: a refusal is the right answer (counted correct); {twice.ours['wrong']} applied "
        f"anyway, {twice.lucky} of them at the intended place (lucky, still wrong).",
        f"Of the {total.ours['wrong']} wrong applications (ours), {total.warned_wrong} came with a warning.",
    ]
    return "\n".join(lines)


def as_json(run: Run, info: dict[str, object]) -> str:
    """The run as one JSON object: `info`, then one entry per format x mistake."""
    order = sorted(run.cells, key=lambda key: (FORMATS.index(key[0]), MISTAKES.index(key[1])))
    cells = [
        {"format": f, "mistake": m, "n": c.total, "ours": c.ours, "exact": c.exact, "lucky": c.lucky,
         "warned_wrong": c.warned_wrong}
        for f, m in order
        for c in [run.cells[f, m]]
    ]
    total = run.total()
    return json.dumps({**info, "cells": cells, "total": {"ours": total.ours, "exact": total.exact}}, indent=1)


def edit_text(case: Case, fmt: str) -> str:
    """`case`'s edit as format `fmt` writes it (a `StrReplace` as its two texts' reprs)."""
    if fmt == "codex":
        return codex_text(case)
    if fmt == "search_replace":
        return search_replace_text(case)
    if fmt == "unified_diff":
        return unified_diff_text(case)
    old, new = old_new(case, fmt)
    return f"old: {old!r}\nnew: {new!r}\n"


def example_text(case: Case, fmt: str, verdict: Verdict) -> str:
    """One bad outcome shown: the case, the edit as written, and expected vs got."""
    edit = edit_text(case, fmt)
    where = f"{case.source}, line {case.start + 1} of the file given"
    head = f"== {fmt} / {case.mistake} ({case.variant or '-'}, {case.style}) {where}: {verdict.outcome}"
    if verdict.after is None:
        return f"{head}\n{edit}{verdict.error}\n"
    want = case.bytes_of(case.intended if case.expected is None else case.expected).decode("utf-8")
    got = verdict.after.decode("utf-8", "replace")
    diff = difflib.unified_diff(want.splitlines(True), got.splitlines(True), "expected", "result", n=1)
    return f"{head}\n{edit}{''.join(diff)}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark as the command line says; print the table (or JSON); 0, or 1
    when the history cannot be read."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"cases per mistake (default {LIMIT})")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_LIMIT} cases per mistake")
    parser.add_argument("--mistakes", default=",".join(MISTAKES), help="comma-separated (default: all)")
    parser.add_argument("--seed", type=int, default=SEED, help="the sample's seed")
    parser.add_argument("--rev", help="read the history up to REV (default: pinned; HEAD with --repo)")
    parser.add_argument("--repo", type=Path, help="another repository's history (a folder or a bare one)")
    parser.add_argument("--paths", help="its files, comma-separated git pathspecs (default: *.py with --repo)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--examples", type=int, default=0, metavar="N",
                        help="also show N wrong or crashed attempts of each format x mistake")  # fmt: skip
    args = parser.parse_args(argv)
    mistakes = [m for m in args.mistakes.split(",") if m]
    if unknown := set(mistakes) - set(MISTAKES):
        parser.error(f"unknown mistakes {sorted(unknown)}: choose among {', '.join(MISTAKES)}")
    limit = QUICK_LIMIT if args.quick else args.limit
    root = ROOT if args.repo is None else args.repo
    args.rev = args.rev or (PINNED if args.repo is None else "HEAD")
    paths = tuple(args.paths.split(",")) if args.paths else PATHSPECS if args.repo is None else ("*.py",)
    began = time.perf_counter()
    hunks = history_hunks(args.rev, root=root, pathspecs=paths)
    if not hunks:
        print(f"robustness: no hunks: this needs the git history of {root} up to {args.rev} (--rev)", file=sys.stderr)
        return 1
    cases = build_cases(hunks, limit, args.seed, mistakes)
    with scratch_state():
        run = run_cases(cases, keep=args.examples)
    seconds = time.perf_counter() - began
    info: dict[str, object] = {
        "rev": args.rev, "seed": args.seed, "limit": limit, "usable_hunks": len(hunks),
        "cases": len(cases), "distinct_hunks": len({c.source for c in cases}),
        "tab_cases": sum(c.style == "tabs" for c in cases), "seconds": round(seconds, 1),
    }  # fmt: skip
    if args.json:
        print(as_json(run, info))
        return 0
    print(
        f"Robustness: {info['cases']} cases ({info['tab_cases']} on tab-indented copies) from "
        f"{info['distinct_hunks']} of the {len(hunks)} usable hunks of the history up to "
        f"{args.rev[:10]}, each in the {len(FORMATS)} formats (or those that carry it), {seconds:.1f} s"
    )
    print(table(run, mistakes=mistakes))
    for case, fmt, verdict in run.examples:
        print()
        print(example_text(case, fmt, verdict), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
