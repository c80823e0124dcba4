"""The editor session (`Seen`) running in this context, if any, found without importing
`_seen` for a command that runs none (start-up time: contextvars and the hashing)."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._seen import Seen


def running_session() -> Seen | None:
    """The session whose `watching()` the caller runs in; None outside one, and always when
    `_seen` was never imported (a session's `Seen` comes from it, so none can be running)."""
    seen = sys.modules.get(__name__.rpartition(".")[0] + "._seen")
    if seen is None:
        return None
    active: Seen | None = seen.active()
    return active
