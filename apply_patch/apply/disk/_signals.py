"""SIGINT, SIGTERM and SIGHUP wait while a commit (or its rollback) runs, in any thread.

A signal whose action is the default one ends the whole process, whichever
thread it is delivered to; blocking it in the thread that commits is not
enough. A Python handler is: the signal then only sets a flag, and Python
calls the handler in the main thread. So, from the strongest to the weakest:

- `install()`: the executable and `serve` call it first, in the main thread.
  Each of the three signals gets `_handler` (one ignored when the process
  started stays ignored). While a commit runs, in any thread, a signal is
  only noted; when none runs, it takes effect: the executable (`defer=True`)
  turns SIGINT into KeyboardInterrupt, keeps a signal noted during a commit
  until `honour()` (after its summary) and ends at once on SIGTERM or SIGHUP
  otherwise; `serve` (`defer=False`) ends at once, or right after the commit.
  "Ends" is the signal's default action: the process is killed by it.
- A library commit in the main thread (`Held`) installs `_handler` for its
  duration, then puts the handlers back and raises each noted signal again:
  the caller's handler gets it (Python's SIGINT handler: KeyboardInterrupt
  right after a commit that is complete or wholly rolled back).
- A commit in another thread of a process whose handlers are not ours:
  handlers can be installed from the main thread only, and nothing here can
  hold the signal. The commit's journal (`_journal`) lets the next run on
  the root finish or undo it, as after SIGKILL.
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_lock = threading.RLock()  # re-entrant: the handler may run in the main thread while it holds it
_running = 0  # commits running in this process, in any thread
_noted: list[int] = []  # signals that arrived while one ran
_mode: str | None = None  # "defer" (the executable), "end" (serve), None (a library caller)
_previous: dict[int, object] = {}  # the handlers `install()` replaced
_deferred: list[int] = []  # the executable's, for honour()
_commits = 0  # commits (or rollbacks) finished in this process


def install(*, defer: bool) -> None:
    """Handle the three signals for the rest of the process (call from the main thread).

    `defer`: the executable's ways (see the module); else `serve`'s.
    """
    global _mode
    _deferred.clear()  # a caller whose process goes on may run the executable's main() again
    for number in HELD:
        current = signal.getsignal(number)
        if current in (signal.SIG_DFL, signal.default_int_handler):  # not one ignored at start
            _previous.setdefault(number, current)
            signal.signal(number, _handler)
    _mode = "defer" if defer else "end"


def uninstall() -> None:
    """Put back the handlers `install()` replaced (for a caller whose process goes on)."""
    global _mode
    for number, handler in _previous.items():
        signal.signal(number, handler)  # type: ignore[arg-type]
    _previous.clear()
    _mode = None


def commits_done() -> int:
    """How many commits this process has finished (successfully)."""
    return _commits


def honour() -> None:
    """End the process as the first signal kept by the executable would have (its default action)."""
    for number in _deferred:
        _end(number)


def _handler(number: int, frame: FrameType | None) -> None:
    with _lock:  # no commit starts while an idle process ends
        if _running or _mode is None:
            _noted.append(number)
            return
        if _mode == "defer" and number == signal.SIGINT:
            raise KeyboardInterrupt
        _end(number)


def _end(number: int) -> None:
    """End the process as `number`'s default action does (killed by it)."""
    signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
    os.kill(os.getpid(), number)  # a fatal signal: the process ends in this call


class Held:
    """The held signals wait for the end of a `with` block (a commit) in any thread (see the module)."""

    def __init__(self) -> None:
        self._replaced: dict[int, object] = {}

    def __enter__(self) -> None:
        global _running
        with _lock:
            if _mode is None and _in_main_thread():
                self._replaced = _install_for_now()
            _running += 1

    def __exit__(self, kind: object, *exc_info: object) -> None:
        global _running, _commits
        for number, handler in self._replaced.items():  # later signals: the caller's handlers
            signal.signal(number, handler)  # type: ignore[arg-type]
        with _lock:
            _running -= 1
            _commits += kind is None
            noted = list(dict.fromkeys(_noted)) if not _running else []
            if not _running:
                _noted.clear()
        if self._replaced or _mode is None:
            for number in noted:
                signal.raise_signal(number)  # to the handler that was there before
        elif _mode == "defer":
            _deferred.extend(noted)
        elif noted:
            _end(noted[0])


def _install_for_now() -> dict[int, object]:
    """`_handler` for each held signal whose handler can be put back afterwards."""
    replaced: dict[int, object] = {}
    for number in HELD:
        current = signal.getsignal(number)
        if current is None or current == signal.SIG_IGN:  # set outside Python, or ignored
            continue
        signal.signal(number, _handler)
        replaced[number] = current
    return replaced


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()
