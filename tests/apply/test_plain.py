"""`_plain.plain`: the plain chunks a model writes most, found by a shorter way, with
exactly what the whole search finds (`searched`); anything else left to the search."""

import random
from dataclasses import fields
from typing import Any

import pytest

from apply_patch import CODEX, DEFAULT
from apply_patch.apply.matching._locate import locate, searched
from apply_patch.apply.matching._plain import plain
from apply_patch.apply.planning._paths import Location
from apply_patch.format import Chunk

WHERE = Location.of("f.txt", "f.txt", "/r/f.txt", "/r/f.txt", "f.txt")


def _facts(found: tuple[list[Any], list[Any], list[Any]]) -> object:
    return tuple([tuple(getattr(item, f.name) for f in fields(item)) for item in part] for part in found)


def _case(rng: random.Random) -> tuple[list[str], tuple[Chunk, ...]]:
    """A small file (some lines repeated) and chunks cut from it in order, now and then
    with a line the file does not hold, an @@ line, or the end of the file."""
    words = ["a", "b", "c", "", "  x", "def f():", "return 1", "}"]
    lines = [rng.choice(words) if rng.random() < 0.5 else f"line {n}" for n in range(rng.randint(1, 30))]
    chunks = []
    at = 0
    for number in range(rng.randint(1, 3)):
        if at >= len(lines):
            break
        start = rng.randint(at, len(lines) - 1)
        size = rng.randint(1, min(4, len(lines) - start))
        body = [" " + line for line in lines[start : start + size]]
        if rng.random() < 0.7:
            body[rng.randrange(size)] = "-" + body[rng.randrange(size)][1:]
        body.insert(rng.randint(0, len(body)), "+new")
        if rng.random() < 0.1:
            body[0] = " not in the file"
        contexts = ("def f():",) if rng.random() < 0.1 else ()
        end = rng.random() < 0.05
        chunks.append(Chunk(contexts, tuple(body), end, line=10 * number + 2))
        at = start + size
    return lines, tuple(chunks)


@pytest.mark.parametrize("policy", [DEFAULT, CODEX], ids=["default", "codex"])
def test_a_plain_answer_is_the_search_answer(policy: object) -> None:
    rng = random.Random(24)
    answered = 0
    for _ in range(5000):
        lines, chunks = _case(rng)
        answer = plain(lines, chunks)
        if answer is None:
            continue
        answered += 1
        assert _facts(answer) == _facts(searched(lines, chunks, policy, WHERE)), (lines, chunks)  # type: ignore[arg-type]
    assert answered > 1000


def test_what_may_be_elsewhere_is_searched() -> None:
    lines = ["a", "b", "a", "b", "c"]
    twice = (Chunk((), (" a", "-b", "+B")),)  # every line of it occurs twice: ambiguous
    assert plain(lines, twice) is None
    once = (Chunk((), (" a", "-b", " c")),)  # `c` occurs once: here only (found at 2)
    found = plain(lines, once)
    assert found is not None and found == searched(lines, once, DEFAULT, WHERE)
    assert found[1][0].file_line == 3 and locate(lines, once, DEFAULT, WHERE) == found
    assert plain(lines, (Chunk((), ("-x",)),)) is None  # not in the file
    assert plain(lines, (Chunk(("a",), ("-c",)),)) is None  # an @@ line
    assert plain(lines, (Chunk((), ("+only added",)),)) is None


def test_a_large_file_is_counted_a_few_times_only() -> None:
    # Each chunk's lines are counted over the whole file; past a few reads of a large file,
    # the search (which reads it once) takes over.
    lines = [f"line {n % 1000}" for n in range(200_000)]  # every line 200 times
    chunks = tuple(Chunk((), (f" line {n}", f"-line {n + 1}")) for n in range(0, 40, 2))
    assert plain(lines, chunks) is None
