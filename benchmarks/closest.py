"""How often the "closest region" of a chunk not found points where the chunk belongs.

A realistic log of failing calls, built deterministically: chunks of 3 to 8 lines
cut from this repository's own Python files (a region the model read), each then
spoiled the way models spoil them:

- stale:     one line edited since the model read it (a word changed);
- blank:     an empty line the model invented inside the chunk;
- two-stale: two lines edited;
- indent:    one line re-indented and another edited (no tier matches);
- elsewhere: the first line edited and a line from far away put in its place;
- rewritten: every line edited (none of them is in the file).

For each failing call, the closest region is right when it starts where the chunk
was cut (`rewritten`: when no region is given and the message says so). The same
calls are measured with `_closest.py` at another revision (`git show REV:...`,
where the module is or was) when `--before REV` is given. Then the failing calls of fixtures/ (every
case whose message holds a closest region) are listed with both answers.

    .venv/bin/python benchmarks/closest.py --before main
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import types
from pathlib import Path

from apply_patch.apply.matching import _closest

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("stale", "blank", "two-stale", "indent", "elsewhere", "rewritten")


def _edit(line: str, rng: random.Random) -> str:
    words = re.findall(r"[A-Za-z_]{3,}", line)
    if not words:
        return line + "  # changed"
    word = rng.choice(words)
    return line.replace(word, word[::-1] + "x", 1)


def _spoil(kind: str, chunk: list[str], lines: list[str], rng: random.Random) -> list[str]:
    chunk = list(chunk)
    middle = rng.randrange(1, len(chunk))
    if kind == "stale":
        chunk[middle] = _edit(chunk[middle], rng)
    elif kind == "blank":
        chunk.insert(middle, "")
    elif kind == "two-stale":
        for k in rng.sample(range(len(chunk)), 2):
            chunk[k] = _edit(chunk[k], rng)
    elif kind == "indent":
        chunk[middle] = "  " + chunk[middle]
        chunk[0] = _edit(chunk[0], rng)
    elif kind == "elsewhere":
        chunk[0] = _edit(rng.choice(lines), rng)
    else:
        chunk = [_edit(line, rng) + " ." for line in chunk]
    return chunk


def _calls(count: int, seed: int) -> list[tuple[str, list[str], list[str], int]]:
    """(kind, file lines, expected lines, where the chunk was cut) of `count` failing calls."""
    rng = random.Random(seed)
    files = sorted((ROOT / "apply_patch").rglob("*.py"))
    texts = [p.read_text(encoding="utf-8").split("\n") for p in files if p.name != "_tables.py"]
    calls: list[tuple[str, list[str], list[str], int]] = []
    while len(calls) < count:
        lines = rng.choice(texts)
        size = rng.randint(3, 8)
        if len(lines) < size + 10:
            continue
        start = rng.randrange(0, len(lines) - size)
        chunk = lines[start : start + size]
        if sum(1 for line in chunk if line.strip()) < 3:
            continue
        kind = KINDS[len(calls) % len(KINDS)]
        expected = _spoil(kind, chunk, lines, rng)
        if _found(lines, expected):
            continue  # still in the file: not a failing call
        calls.append((kind, lines, expected, start))
    return calls


def _found(lines: list[str], expected: list[str]) -> bool:
    size = len(expected)
    stripped = [line.strip() for line in expected]
    return any(
        [line.strip() for line in lines[i : i + size]] == stripped for i in range(len(lines) - size + 1)
    )


def _right(module: types.ModuleType, kind: str, lines: list[str], expected: list[str], start: int) -> bool:
    region = module.closest_region(lines, expected)
    if kind == "rewritten":
        return region is None
    return region is not None and region.start - region.skip == start


# Where `_closest.py` is, and was before `apply/` was cut into parts.
_PATHS = ("apply_patch/apply/matching/_closest.py", "apply_patch/apply/_closest.py")


def _module_at(revision: str) -> types.ModuleType:
    for path in _PATHS:
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            break
    else:
        raise SystemExit(f"no _closest.py at {revision}: {shown.stderr.strip()}")
    source = shown.stdout
    module = types.ModuleType("closest_before", None)
    module.__dict__["__package__"] = path.rpartition("/")[0].replace("/", ".")
    sys.modules[module.__name__] = module  # (`dataclasses` reads a record's module there)
    exec(compile(source, f"{revision}:_closest.py", "exec"), module.__dict__)
    return module


def _fixture_calls() -> list[tuple[str, list[str], list[str]]]:
    """(case, file lines, expected lines) of every fixture whose stderr shows a closest region."""
    found = []
    for case in sorted((ROOT / "fixtures").glob("*/*/case.json")):
        data = json.loads(case.read_text(encoding="utf-8"))
        stderr = data.get("stderr", "")
        match = re.match(r"Failed to find expected lines in (?:<root>/)?(\S+):\n", stderr)
        if not match:
            continue
        target = case.parent / "input" / match.group(1)
        expected_text = stderr[match.end() :].split("\nIn ", 1)[0]
        found.append((case.parent.name, target.read_text(encoding="utf-8").split("\n")[:-1], expected_text.split("\n")))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=600)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--before", metavar="REV", help="also measure _closest.py at this revision")
    options = parser.parse_args()
    modules = {"now": _closest}
    if options.before:
        modules[options.before] = _module_at(options.before)
    calls = _calls(options.calls, options.seed)
    print(f"{len(calls)} failing calls built from the package's own files (seed {options.seed})")
    print(f"{'kind':<10} {'calls':>5} " + " ".join(f"{name + ' right':>14}" for name in modules))
    totals = dict.fromkeys(modules, 0)
    for kind in KINDS:
        mine = [c for c in calls if c[0] == kind]
        row = []
        for name, module in modules.items():
            right = sum(_right(module, *c) for c in mine)
            totals[name] += right
            row.append(f"{right:>8} ({100 * right / len(mine):3.0f}%)")
        print(f"{kind:<10} {len(mine):>5} " + " ".join(row))
    print(f"{'all':<10} {len(calls):>5} " + " ".join(
        f"{totals[n]:>8} ({100 * totals[n] / len(calls):3.0f}%)" for n in modules
    ))
    fixtures = _fixture_calls()
    print(f"\n{len(fixtures)} failing calls in fixtures/ with a chunk not found (region start line, or none):")
    for name, lines, expected in fixtures:
        answers = []
        for module in modules.values():
            region = module.closest_region(lines, expected)
            answers.append("none" if region is None else str(region.start + 1))
        print(f"  {name:<60} " + "  ".join(f"{a:>5}" for a in answers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
