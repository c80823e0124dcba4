"""Two lists of lines → difflib-style opcodes, fast on large files.

The common head and tail are set aside first. In what remains, lines that
occur exactly once on each side are paired, and the longest run of pairs in
the same order on both sides (patience sorting) splits it into small gaps;
`difflib.SequenceMatcher` (no autojunk) only ever sees a gap. On files of
thousands of lines with a few changes, that is the difference between
milliseconds and seconds; the result is a valid diff either way.
"""

import bisect
import difflib
from collections import Counter
from collections.abc import Sequence

from ..apply import common_ends

Opcode = tuple[str, int, int, int, int]
Block = tuple[int, int, int]  # a[i:i+n] == b[j:j+n]


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """`equal`/`replace`/`delete`/`insert` opcodes turning `a` into `b`, in order."""
    head, tail = common_ends(a, b)
    blocks = [(0, 0, head)]
    middle = _blocks(a[head : len(a) - tail], b[head : len(b) - tail])
    blocks += [(i + head, j + head, n) for i, j, n in middle]
    blocks.append((len(a) - tail, len(b) - tail, tail))
    return _to_opcodes(blocks, len(a), len(b))


def _blocks(a: Sequence[str], b: Sequence[str]) -> list[Block]:
    """Matching blocks of `a` and `b`, in order."""
    blocks: list[Block] = []
    done_a = done_b = 0
    for i, j in [*_anchors(a, b), (len(a), len(b))]:
        if done_a < i and done_b < j:
            gap = difflib.SequenceMatcher(None, a[done_a:i], b[done_b:j], False)
            blocks += [(done_a + x, done_b + y, n) for x, y, n in gap.get_matching_blocks() if n]
        if i < len(a):
            blocks.append((i, j, 1))
        done_a, done_b = i + 1, j + 1
    return blocks


def _anchors(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs of lines unique on both sides, the longest run in the same order."""
    count_a, count_b = Counter(a), Counter(b)
    where_b = {line: j for j, line in enumerate(b) if count_b[line] == 1}
    pairs = [(i, where_b[s]) for i, s in enumerate(a) if count_a[s] == 1 and s in where_b]
    return _increasing(pairs)


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of `pairs` (sorted by i) whose j increase too."""
    tops: list[int] = []  # tops[k]: smallest j ending an increasing run of length k + 1
    ends: list[int] = []  # ends[k]: index in `pairs` of that run's last pair
    previous = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tops, j)
        if k == len(tops):
            tops.append(j)
            ends.append(index)
        else:
            tops[k], ends[k] = j, index
        previous[index] = ends[k - 1] if k else -1
    run = []
    index = ends[-1] if ends else -1
    while index >= 0:
        run.append(pairs[index])
        index = previous[index]
    return run[::-1]


def _to_opcodes(blocks: list[Block], len_a: int, len_b: int) -> list[Opcode]:
    codes: list[Opcode] = []
    i = j = 0
    for bi, bj, n in [*blocks, (len_a, len_b, 0)]:
        if i < bi or j < bj:
            tag = "replace" if i < bi and j < bj else "delete" if i < bi else "insert"
            codes.append((tag, i, bi, j, bj))
        if n:
            if codes and codes[-1][0] == "equal" and codes[-1][2] == bi:
                codes[-1] = ("equal", codes[-1][1], bi + n, codes[-1][3], bj + n)
            else:
                codes.append(("equal", bi, bi + n, bj, bj + n))
        i, j = bi + n, bj + n
    return codes
