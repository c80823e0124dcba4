"""The command line: one module per command (`_main` applies and dispatches the others)."""

from .._lazy import load as _load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._main import main, run

_NAMES = {
    "main": "._main",
    "run": "._main",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES`, imported on first use (PEP 562, `_lazy.load`)."""
    return _load(__name__, globals(), _NAMES, {}, name)


__all__ = [
    "main", "run",
]
