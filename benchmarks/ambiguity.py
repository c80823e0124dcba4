"""Why the robustness oracle's blank-line rows are refused: ambiguous, or certain (issue 34).

    .venv/bin/python benchmarks/ambiguity.py [--seed N] [--limit N] [--mistakes a,b] [--examples N]

For each case of the mistakes (default: blank-dropped, blank-halved and
blank-dropped-counted, the rows where a peer corrects more than we do, and the one a
diff's header can settle) that the engine refuses in a format, this lists the
original edits the model's text could have come from and what each would make of the
file, and sorts the refusal:

- ambiguous: two plausible original edits give this same model text and different
  files, so any answer is wrong for one of them: a refusal is the only right one;
- certain: every plausible original edit gives the same file (the placement and the
  result are certain), so the refusal could become a correct answer;
  ("of them at one place" counts those whose readings all start at one line: the doubt is
  what the edit does there, not where it goes);
- unexplained: the case's own original edit is not among the readings (a sanity check
  of the premise above: a removed blank line between two kept lines).

A plausible original edit is the model's edit with one blank line (the mistake is one
blank old line missing) put back strictly inside its old text (a line missing at an
edge leaves a shorter edit that is valid as it stands), such that its old lines occur
in the file as whole lines: as a context line anywhere, or as a removed line beside a
change (next to an added or a removed line: a model that drops a line from a block it
removes may have meant that line too; a line it never shows, amid lines it keeps, it
keeps, which is the engine's premise for every blank line a model drops); each place
where they do is a reading of its own, except that a unified diff's hunk whose old
lines occur at several places, one of them where its numbers say, is read there only
(the engine's rule), and one whose header counts other lines than it shows
(blank-dropped-counted) is read only as an edit with those counts. The edit's lines are the model's hunk for the Codex envelope and
the unified diff (their lines carry their tags); for str_replace and SEARCH/REPLACE,
which carry an old and a new text, the lines come from comparing the two texts with
difflib, as an engine that sees only the texts must pair them, and from every pairing
that slides a kept line over a copy of it among the changed lines beside it
(`pairings`): a kept `}` after an inserted block that ends with `}` pairs with either.

The cases are the oracle's own (`robustness.build_cases`, same seed and limit), so the
counts add up to its refused column. Nothing is written outside a temporary folder.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import robustness as oracle  # noqa: E402  (a script beside this one, not a package)

ROWS = ("blank-dropped", "blank-halved", "blank-dropped-counted")
KINDS = ("ambiguous", "certain", "unexplained")  # the refusals' sorts (`kind`)

Line = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Reading:
    """One plausible original edit: its tagged lines, where its old lines start in the
    file (0-based), and the file it would make."""

    lines: tuple[Line, ...]
    at: int
    result: tuple[str, ...]


def tagged(case: oracle.Case, fmt: str) -> tuple[Line, ...]:
    """The edit's lines as format `fmt` carries them: the model's hunk where the format
    tags its lines, else the pairing of its old and new lines by difflib."""
    if fmt in ("codex", "unified_diff"):
        return case.model
    old = [text for tag, text in case.model if tag != "+"]
    new = [text for tag, text in case.model if tag != "-"]
    lines: list[Line] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            lines += [(" ", text) for text in old[a1:a2]]
        else:
            lines += [("-", text) for text in old[a1:a2]] + [("+", text) for text in new[b1:b2]]
    return tuple(lines)


def pairings(lines: Sequence[Line]) -> list[tuple[Line, ...]]:
    """`lines` (a pairing of an old and a new text) and the other pairings of the same two
    texts that slide one context line over a copy of it among the changed lines beside it:
    a kept `}` after lines that add another `}` may be either. Each changed run (its
    removed lines, then its added ones) slides against the context line right after it or
    right before it, one copy at a time."""

    def run(removed: Sequence[str], added: Sequence[str]) -> tuple[Line, ...]:
        return (*(("-", t) for t in removed), *(("+", t) for t in added))

    found = [tuple(lines)]
    k = 0
    while k < len(lines):
        if lines[k][0] == " ":
            k += 1
            continue
        end = k
        while end < len(lines) and lines[end][0] != " ":
            end += 1
        removed = [text for tag, text in lines[k:end] if tag == "-"]
        added = [text for tag, text in lines[k:end] if tag == "+"]
        head, tail = lines[:k], lines[end:]
        if tail:  # the context line after the run, paired with a copy inside it instead
            kept, rest = (" ", tail[0][1]), tail[1:]
            found += [(*head, *run(removed, added[:i]), kept, *run((), (*added[i + 1 :], kept[1])), *rest)
                      for i, text in enumerate(added) if text == kept[1]]  # fmt: skip
            found += [(*head, *run(removed[:i], added), kept, *run((*removed[i + 1 :], kept[1]), ()), *rest)
                      for i, text in enumerate(removed) if text == kept[1]]  # fmt: skip
        if head:  # the context line before it, likewise
            kept, rest = (" ", head[-1][1]), head[:-1]
            found += [(*rest, *run((), (kept[1], *added[:i])), kept, *run(removed, added[i + 1 :]), *tail)
                      for i, text in enumerate(added) if text == kept[1]]  # fmt: skip
            found += [(*rest, *run((kept[1], *removed[:i]), ()), kept, *run(removed[i + 1 :], added), *tail)
                      for i, text in enumerate(removed) if text == kept[1]]  # fmt: skip
        k = end
    return found


def places(pre: Sequence[str], old: Sequence[str]) -> list[int]:
    """Every 0-based place where `old` occurs in `pre` as whole lines."""
    size = len(old)
    return [at for at in range(len(pre) - size + 1) if list(pre[at : at + size]) == list(old)]


def readings(case: oracle.Case, fmt: str) -> list[Reading]:
    """Each plausible original edit of `case` in format `fmt`, at each place it reads
    (the module's docstring)."""
    shown = tagged(case, fmt)
    found: list[Reading] = []
    seen: set[tuple[Line, ...]] = set()
    # A format that tags its lines is read as tagged; two texts, in every pairing of them.
    for lines in (shown,) if fmt in ("codex", "unified_diff") else pairings(shown):
        olds = [k for k, (tag, _) in enumerate(lines) if tag != "+"]
        for k in range(olds[0] + 1, olds[-1] + 1) if olds else ():  # strictly inside the old text
            beside = any(tag != " " for tag, _ in lines[max(k - 1, 0) : k + 1])
            for tag in (" ", "-") if beside else (" ",):
                edit = (*lines[:k], (tag, ""), *lines[k:])
                if edit in seen:
                    continue
                seen.add(edit)
                old = [text for t, text in edit if t != "+"]
                new = [text for t, text in edit if t != "-"]
                if fmt == "unified_diff" and case.counts and (len(old), len(new)) != case.counts:
                    continue  # not what its header counts
                at_all = places(case.pre, old)
                if fmt == "unified_diff" and len(at_all) > 1 and case.start in at_all:
                    at_all = [case.start]
                for at in at_all:
                    result = (*case.pre[:at], *new, *case.pre[at + len(old) :])
                    found.append(Reading(edit, at, result))
    return found


def kind(case: oracle.Case, found: Sequence[Reading]) -> str:
    """The refusal's kind: how many distinct files the readings make (none, or not the
    case's own: unexplained)."""
    results = {reading.result for reading in found}
    if case.expected not in results:
        return "unexplained"
    return "certain" if len(results) == 1 else "ambiguous"


def shown(case: oracle.Case, fmt: str, found: Sequence[Reading]) -> str:
    """One refused case with its readings, for `--examples`."""
    out = [f"--- {fmt} {case.mistake} ({case.variant}) {case.path}, its place at line {case.start + 1}"]
    out += [f"  model  {tag}{text}" for tag, text in tagged(case, fmt)]
    for number, reading in enumerate(found, 1):
        wrote = [f"{tag}{text}" for tag, text in reading.lines]
        right = "the case's own" if reading.result == case.expected else "another file"
        out.append(f"  reading {number} at line {reading.at + 1} ({right}): " + " | ".join(wrote))
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Classify the refusals of the oracle's cases; print one row per format and mistake."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=oracle.SEED, help="the sample's seed (the oracle's)")
    parser.add_argument("--limit", type=int, default=oracle.LIMIT, help="cases per mistake")
    parser.add_argument("--mistakes", default=",".join(ROWS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--examples", type=int, default=0, metavar="N", help="show N certain refusals of each row")
    args = parser.parse_args(argv)
    mistakes = [m for m in args.mistakes.split(",") if m]
    if unknown := set(mistakes) - set(oracle.MISTAKES):
        parser.error(f"unknown mistakes {sorted(unknown)}")
    hunks = oracle.history_hunks(oracle.PINNED)
    if not hunks:
        print("ambiguity: no hunks: this needs the git history (see robustness.py)", file=sys.stderr)
        return 1
    cases = oracle.build_cases(hunks, args.limit, args.seed, mistakes)
    print(f"{'format':<14} {'mistake':<21} {'n':>4} | {'correct':>7} {'refused':>7} {'wrong':>5} | "
          f"{'ambiguous':>9} {'of them at one place':>20} {'certain':>7} {'unexplained':>11}")  # fmt: skip
    examples: list[str] = []
    with tempfile.TemporaryDirectory() as folder, oracle.scratch_state():
        for fmt in oracle.FORMATS:
            for mistake in [m for m in mistakes if fmt in oracle.ONLY_IN.get(m, oracle.FORMATS)]:
                outcomes: Counter[str] = Counter()
                kinds: Counter[str] = Counter()
                shown_here = 0
                for n, case in enumerate(c for c in cases if c.mistake == mistake):
                    verdict = oracle.attempt(case, fmt, Path(folder, f"{fmt}-{mistake}-{n}"))
                    outcomes[verdict.outcome] += 1
                    if verdict.outcome != "refused":
                        continue
                    found = readings(case, fmt)
                    sort = kind(case, found)
                    kinds[sort] += 1
                    if sort == "ambiguous" and len({reading.at for reading in found}) == 1:
                        kinds["one place"] += 1
                    if sort == "certain" and shown_here < args.examples:
                        shown_here += 1
                        examples.append(shown(case, fmt, found))
                print(
                    f"{fmt:<14} {mistake:<21} {sum(outcomes.values()):>4} | {outcomes['correct']:>7} "
                    f"{outcomes['refused']:>7} {outcomes['wrong']:>5} | {kinds['ambiguous']:>9} {kinds['one place']:>20} "
                    f"{kinds['certain']:>7} {kinds['unexplained']:>11}"
                )
    for text in examples:
        print()
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
