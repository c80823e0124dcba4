"""Disk: the only code that writes. A plan → the disk, all or nothing (files, and the
bytes of the journal), under the root's locks, with signals held; a commit's receipt
written and receipts pruned; the state folder swept; a patch kept for review written
and, once decided, removed."""

from __future__ import annotations

from ..._lazy import on_first_use

from ._commit import commit, recover
from ._lock import RootLock
from ._receipts import Recorder
from . import _signals as signals

# Imported when one of their names is first asked for (start-up time): names written once, here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._staging import drop_claimed, stage
    from ._sweep import COMMIT_BUDGET, KEEP_ALL_BYTES, KEEP_DAYS, Pruned, sweep

__getattr__ = on_first_use(__name__, globals(), ("._staging", "._sweep"))
