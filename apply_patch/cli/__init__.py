"""The command line: one module per command (`_main` applies and dispatches the others)."""

from .._lazy import exports

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._main import main, run

_NAMES = {
    "main": "._main",
    "run": "._main",
}
__getattr__ = exports(__name__, globals(), _NAMES)

__all__ = [
    "main", "run",
]
