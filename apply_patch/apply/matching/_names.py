"""How messages name the file an edit is placed in: the only thing matching knows of a path."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileName:
    """The name of the file being matched, as messages give it.

    `shown` is how a message's title names the file (relative to the root by default,
    absolute with `message_paths="absolute"`); `relative` is relative to the root, as
    errors and warnings carry it. Matching is pure: it never opens, resolves or
    compares paths, so this is all it is given.
    """

    shown: str
    relative: str
