"""Standard output that may be closed: a reader that went away is not an error.

`apply_patch --dry-run --diff < big.patch | head -1`: `head` leaves after one
line, and the next write to the pipe fails (EPIPE; Python ignores SIGPIPE).
Nothing went wrong with the patch, so nothing is said about it: what is left
to print is dropped quietly, and the command ends with the exit code it would
have had (the patch applied or not, the patches were found or not). Standard
output closed from the start (`>&-`, `sys.stdout` is None) is the same.

Any other write error (a full disk: ENOSPC) is raised as `OutputError`, so
that the caller can tell it from an error of the work itself and say what it
could not print.

Whether stdout is a terminal (`is_terminal`: its text is escaped) and whether it
takes colours (`colors_wanted`, for `--color`) are decided here too, so that `_color` is imported only when there is something to paint.
"""

from __future__ import annotations

import errno
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Callable
    from typing import TextIO

_gone = False  # the reader left: everything else printed is dropped


class OutputError(Exception):
    """Writing to stdout failed for another reason than a reader gone (`reason`: the OS's words)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def write(text: str) -> None:
    """Print `text` on stdout, unless the reader has gone (then nothing happens); OutputError."""
    if not _gone:
        _guarded(lambda stream: stream.write(text))


def write_bytes(data: bytes) -> None:
    """Print `data` on stdout's binary buffer (after any pending text), unless the reader has gone."""
    if not _gone:
        _guarded(lambda stream: (stream.flush(), stream.buffer.write(data)))


def flush() -> None:
    """Flush stdout, so that nothing is left for the interpreter's last flush to fail on."""
    if not _gone:
        _guarded(lambda stream: stream.flush())


def colors_wanted(choice: str) -> bool:
    """Whether to colour stdout with `--color choice`.

    `always` and `never` decide; `auto` (the default) colours when stdout is a
    terminal, unless `NO_COLOR` is set (not empty), or `FORCE_COLOR` is set (not
    empty) to colour a pipe too; `TERM=dumb` means no colour. The same order as
    CPython's own (3.13): `NO_COLOR` wins over `FORCE_COLOR`, the command line
    over both.
    """
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return os.environ.get("TERM") != "dumb" and is_terminal()


def is_terminal() -> bool:
    """Whether stdout is a terminal still read (where control characters must be escaped)."""
    if _gone or sys.stdout is None:
        return False
    try:
        return sys.stdout.isatty()
    except (OSError, ValueError):  # closed
        return False


def _guarded(act: Callable[[TextIO], object]) -> None:
    """Run `act` on stdout; a reader that has gone (or no stdout at all) drops the output."""
    stream = sys.stdout
    if stream is None:  # started with stdout closed
        drop()
        return
    try:
        act(stream)
    except BrokenPipeError:
        drop()
    except ValueError:  # closed in this process; any other (an encoding error) is not ours to hide
        if not stream.closed:
            raise
        drop()
    except OSError as exc:
        if exc.errno not in (errno.EPIPE, errno.EBADF):
            raise OutputError(f"{exc.strerror or exc} (os error {exc.errno})") from exc
        drop()


def drop() -> None:
    """From now on drop stdout (the reader left, or a write error was already said): its
    descriptor goes to /dev/null, so that the bytes still buffered in `sys.stdout` are
    flushed there, not on the closed pipe again (the interpreter's last flush would print
    an error and exit 120)."""
    global _gone
    _gone = True
    stream = sys.stdout
    if stream is None:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):  # no descriptor at all: replace the stream
        sys.stdout = None
