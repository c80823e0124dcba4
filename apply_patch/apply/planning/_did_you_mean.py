"""A missing file → the existing paths the patch most likely meant (pure but for one bounded walk).

Looked for among the files under the root as they are before the patch (at
most `WALK_LIMIT` entries are walked; the hint says when the walk stopped).
Ranked: a one-letter difference (or letter case) first, then the same
name with another extension in the same folder, the same name in another
folder, the same name with another extension elsewhere; at most three, in
path order within a rank.
"""

from __future__ import annotations

import os
import posixpath

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Iterable
    from typing import Final

    from ._tree import Tree

WALK_LIMIT: Final = 20_000  # entries walked under the root, at most
SHOWN: Final = 3


def did_you_mean(missing: str, tree: Tree, limit: int = WALK_LIMIT) -> tuple[str, ...]:
    """The hint (zero or one) for the missing `missing` (relative to the root, `/` or os.sep)."""
    paths, complete = tree.walk_files(limit)
    closest = closest_paths(missing.replace(os.sep, "/"), paths)
    if not closest:
        return ()
    names = ", ".join(f"'{p}'" for p in closest)
    stopped = "" if complete else f" (only the first {limit} entries under the root were looked at)"
    one = f"Did you mean {names}?" if len(closest) == 1 else f"Did you mean one of {names}?"
    return (one + stopped,)


def closest_paths(missing: str, paths: Iterable[str]) -> list[str]:
    """Up to `SHOWN` paths of `paths` most like `missing`, best first (see the module)."""
    folder, name = posixpath.split(missing)
    stem = posixpath.splitext(name)[0]
    ranked = []
    for path in paths:
        rank = _rank(missing, folder, name, stem, path)
        if rank is not None:
            ranked.append((rank, path))
    return [path for _, path in sorted(ranked)[:SHOWN]]


def _rank(missing: str, folder: str, name: str, stem: str, path: str) -> int | None:
    if path == missing:
        return None
    if path.casefold() == missing.casefold() or _one_edit(missing, path):
        return 0
    other_folder, other_name = posixpath.split(path)
    other_stem = posixpath.splitext(other_name)[0]
    if other_folder == folder and other_stem == stem:
        return 1
    if other_name == name:
        return 2
    if other_stem == stem and stem:
        return 3
    return None


def _one_edit(a: str, b: str) -> bool:
    """Whether one letter inserted, removed, replaced, or two swapped, turns `a` into `b`."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] or (a[i + 2 :] == b[i + 2 :] and a[i : i + 2] == b[i : i + 2][::-1])
    return a[i:] == b[i + 1 :]
