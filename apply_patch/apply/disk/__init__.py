"""Disk: a plan → the disk, all or nothing (the only code that writes: files, and the
bytes of the journal and receipts), under the root's locks, with signals held."""

from __future__ import annotations

from ._commit import commit, recover
from ._lock import RootLock
from . import _signals as signals
