"""What applying to a folder needs of the operating system, and the refusal where it is missing.

The guarantees of docs/safety.md rest on POSIX calls: `fcntl.flock` (cooperating
writers take turns), `O_NOFOLLOW` and `O_DIRECTORY` with the `*at()` calls
(`dir_fd`: a folder swapped for a symlink cannot redirect a write), and
`pthread_sigmask` (Ctrl-C waits for the commit). Windows has none of them. There
the package still imports (the modules that use them read them when they run,
or with a harmless default at import), everything that needs no folder works
(parsing, `apply_to_mapping`, `make_patch`, `convert_unified_diff`,
extraction), and reading or writing a folder refuses with one line, before
anything is read: `check()`.
"""

import os
import signal

from .._errors import PatchIOError


def missing() -> list[str]:
    """The calls this system lacks that applying to a folder needs (none on Linux or macOS)."""
    try:
        import fcntl  # noqa: F401  (only its presence matters here)
    except ImportError:
        absent = ["fcntl"]
    else:
        absent = []
    absent += [f"os.{name}" for name in ("O_NOFOLLOW", "O_DIRECTORY") if not hasattr(os, name)]
    if os.open not in os.supports_dir_fd:
        absent.append("dir_fd")
    if not hasattr(signal, "pthread_sigmask"):
        absent.append("signal.pthread_sigmask")
    return absent


def check() -> None:
    """Raise PatchIOError (one line, nothing read or written) where applying to a folder
    cannot keep its guarantees."""
    absent = missing()
    if absent:
        raise PatchIOError(
            f"Applying to a folder is not supported on this system: it lacks {', '.join(absent)}, "
            "on which the all-or-nothing commit rests (docs/safety.md). Use Linux or macOS "
            "(on Windows: WSL), or apply_to_mapping() in memory."
        )
