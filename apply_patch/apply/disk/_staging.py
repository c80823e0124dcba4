"""A patch kept for review written, and removed once decided: the writing side of the
review gate (`records._pending` says what a pending record holds and reads it back)."""

from __future__ import annotations

import os
import time

from ..records import (
    PENDING_FOLDER, PENDING_VERSION, Claim, Staged, check_record, name_after, pending_names,
    receipt_text,
)
from ._receipts import OPEN_NEW, fsync, made_private_folder, made_store, write_all


def stage(root: str, staged: Staged) -> str:
    """Keep `staged` (its id and time set here) pending under `root`; its id, a receipt's
    kind (`SEQUENCE-ID`, `records.name_after` the root's pending records: the sequence
    orders them, never the clock). The pending folder is locked (`flock`) while the id is
    chosen and the record named, so two stagings never take one sequence. OSError or
    Unavailable when the state folder cannot be written."""
    import fcntl  # POSIX only, as the review gate's claims (`records._pending`)

    real = os.path.realpath(root)
    with made_store(real) as store:
        folder = made_private_folder(store.fd, PENDING_FOLDER, os.path.join(store.path, PENDING_FOLDER))
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)  # released when `folder` is closed
            receipt = name_after(pending_names(folder))
            _write(folder, receipt, staged)
        finally:
            os.close(folder)
    return receipt


def _write(folder: int, receipt: str, staged: Staged) -> None:
    """Write the record of `staged` as `receipt` in the pending folder `folder`: whole and
    synced under a temporary name, then renamed."""
    document = {
        "version": PENDING_VERSION,
        "id": receipt,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "format": staged.format,
        "patch": staged.patch,
        "policy": staged.policy,
        "files": staged.files,
        "written": staged.written,
        "operations": list(staged.operations),
        "diff": staged.diff,
    }
    check_record(receipt, document)  # never write a record the reader would skip
    temp = f".{receipt}.tmp"
    fd = os.open(temp, OPEN_NEW, 0o600, dir_fd=folder)
    try:
        write_all(fd, receipt_text(document).encode())
        fsync(fd)
    finally:
        os.close(fd)
    os.rename(temp, f"{receipt}.json", src_dir_fd=folder, dst_dir_fd=folder)


def drop_claimed(claim: Claim) -> None:
    """Remove the pending record `claim` holds (the name still the file held: never another
    one put there meanwhile)."""
    held = os.fstat(claim.fd)
    named = os.stat(claim.name, dir_fd=claim.folder, follow_symlinks=False)
    if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
        os.unlink(claim.name, dir_fd=claim.folder)
