"""What a package offers, imported on first use: the one body of every `__getattr__` (PEP 562).

The package's `__init__` and each part's name everything they offer in a table,
name → the module defining it (`"._model"`, `".._policy"`), and import none of
them until one is asked for: importing `apply_patch.format` to use `Patch`
does not load the unified-diff reader. A dict lookup and `__import__` (not
`importlib`: start-up time); the value is then kept in the package's
namespace, so each name is looked up here once.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def load(
    package: str, namespace: dict[str, object], names: Mapping[str, str], modules: Mapping[str, str], name: str
) -> object:
    """The value of `name` for `package` (whose globals are `namespace`): a name of `names`
    from its module, or a module of `modules` whole; AttributeError for any other."""
    where = names.get(name) or modules.get(name)
    if where is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    relative = where.lstrip(".")  # "._x": a module of this package; ".._x": of the one above
    absolute = package.rsplit(".", len(where) - len(relative) - 1)[0] + "." + relative
    __import__(absolute)
    value = sys.modules[absolute] if name in modules else getattr(sys.modules[absolute], name)
    namespace[name] = value
    return value


def on_first_use(package: str, namespace: dict[str, object], modules: tuple[str, ...]) -> Callable[[str], object]:
    """The `__getattr__` of a part whose rarely used modules (`modules`, `"._pending"`...)
    are imported only when a name of theirs is first asked for: each module in turn
    until one defines `name` (its names, all public, are written once: in the part's
    `if TYPE_CHECKING:` imports, for the type checker). The value is kept in the
    part's namespace; AttributeError for a name none of them defines."""

    def attribute(name: str) -> object:
        if not name.startswith("_"):
            for module in modules:
                absolute = package + module
                __import__(absolute)
                if hasattr(sys.modules[absolute], name):
                    value = namespace[name] = getattr(sys.modules[absolute], name)
                    return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute
