"""SIGINT, SIGTERM and SIGHUP wait while the commit (or its rollback) runs.

`Held()` blocks them in the main thread (`pthread_sigmask`) and, when the
commit is over, takes the ones that arrived off the pending set. By default
they are then raised again, so a library caller sees its KeyboardInterrupt
right after a commit that is complete (or wholly rolled back). The executable
calls `defer()` first: it prints its summary, then `honour()` ends the
process as the signal would have. In other threads nothing is blocked:
Python runs signal handlers in the main thread only, so a commit in a worker
thread is not interrupted by them.
"""

import signal
import sys

# SIGHUP is missing on Windows, where no commit runs (`_disk_tree.check_platform`): the package imports.
HELD = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_deferred: list[int] = []
_defer = False
_commits = 0  # commits (or rollbacks) finished in this process


def defer() -> None:
    """Keep signals that arrive during a commit for `honour()` instead of raising them at once."""
    global _defer
    _defer = True


def commits_done() -> int:
    """How many commits this process has finished (successfully)."""
    return _commits


def honour() -> None:
    """End the process as the first kept signal would have (its default action)."""
    for number in _deferred:
        signal.signal(number, signal.SIG_DFL)
        signal.raise_signal(number)


class Held:
    """Blocks the held signals in the main thread for the duration of a `with` block."""

    def __init__(self) -> None:
        self._old: set[int] | None = None

    def __enter__(self) -> None:
        if _in_main_thread():
            self._old = set(signal.pthread_sigmask(signal.SIG_BLOCK, HELD))

    def __exit__(self, *exc_info: object) -> None:
        global _commits
        _commits += exc_info[0] is None
        if self._old is None:
            return
        arrived = sorted(HELD & signal.sigpending() - self._old)
        for number in arrived:
            # Taken off the pending set. It is pending and blocked, so sigwait returns at once;
            # sigtimedwait would do the same, but macOS has none.
            signal.sigwait([number])
        signal.pthread_sigmask(signal.SIG_SETMASK, self._old)
        if _defer:
            _deferred.extend(arrived)
            return
        for number in arrived:
            signal.raise_signal(number)


def _in_main_thread() -> bool:
    # Without `threading` imported no other Python thread was started through it
    # (importing it here would cost the executable's start-up 3 ms).
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()
