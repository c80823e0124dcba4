"""SHA-256 of file contents (receipts, an editor session's views), `hashlib` only for large ones.

`hashlib` loads OpenSSL's `_hashlib`: as many instructions as a third of a
small patch's whole run. CPython's own SHA-256 is a built-in module (`_sha2`
since 3.12, `_sha256` before) that costs next to nothing to import; OpenSSL's
is faster on large contents and lets other threads run meanwhile, so it is
taken above `LARGE` bytes. Both give the same digest.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

LARGE: Final = 1 << 20

_small: Callable[..., Any]
try:  # the name of this version first: a failed import looks through the whole path
    if sys.version_info >= (3, 12):
        from _sha2 import sha256 as _small  # type: ignore[import-not-found,no-redef,unused-ignore]
    else:
        from _sha256 import sha256 as _small  # type: ignore[import-not-found,no-redef,unused-ignore]
except ImportError:  # an interpreter built without it
    from hashlib import sha256 as _small  # type: ignore[no-redef,unused-ignore]


def new(size: int) -> Any:
    """A SHA-256 object (`update`, `hexdigest`) for about `size` bytes."""
    if size > LARGE:
        from hashlib import sha256

        return sha256()
    return _small()


def hexdigest(data: bytes) -> str:
    """The SHA-256 of `data`, as 64 hex digits."""
    digest = new(len(data))
    digest.update(data)
    return str(digest.hexdigest())
