"""The cyclic garbage collector, paused while a patch is parsed and applied.

Parsing and planning allocate many small containers (tokens, lines, records)
next to very long lists (the lines of a large file). Each collection of a young
generation walks those lists again: a quarter of the time of a large patch.
Nothing here makes reference cycles that matter: reference counting frees
everything as usual, and the collector, enabled again on the way out, finds
the rest later.

The switch is process-wide: a thread that disables the collector while a
patch is being applied in another finds it enabled again afterwards.
"""

import gc


class PausedCollector:
    """`with PausedCollector():` runs its body with the collector off (if it was on)."""

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *_: object) -> None:
        if self._was_enabled:
            gc.enable()
