"""The command line: one module per command (`_main` applies and dispatches the others)."""

import sys as _sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._main import main, run

_NAMES = {
    "main": "._main",
    "run": "._main",
}


def __getattr__(name: str) -> object:
    """A name of `_NAMES`, imported on first use and then kept in this namespace (PEP 562).

    A dict lookup and `__import__`: no helper module nor importlib on the way (start-up time).
    """
    where = _NAMES.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    relative = where.lstrip(".")  # "._x": a module of this package; ".._x": of the one above
    absolute = __name__.rsplit(".", len(where) - len(relative) - 1)[0] + "." + relative
    __import__(absolute)
    value = getattr(_sys.modules[absolute], name)
    globals()[name] = value
    return value


__all__ = [
    "main", "run",
]
