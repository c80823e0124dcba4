"""What a part offers, imported on first use: the module `__getattr__` of a part's `__init__` (PEP 562).

A part's `__init__` names everything it offers in a table, name → the module
that defines it, and imports none of them until one is asked for: importing
`apply_patch.format` to use `Patch` does not load the unified-diff reader.
Each value is then kept in the package's namespace, so a name is looked up
here once.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs start-up time; annotations are not evaluated
    from collections.abc import Callable, Mapping


def exports(
    package: str,
    namespace: dict[str, object],
    names: Mapping[str, str],
    modules: Mapping[str, str] | None = None,
) -> Callable[[str], object]:
    """The `__getattr__` of `package`, whose globals are `namespace`.

    `names` maps each name offered to the module defining it, relative to
    `package` (`"._model"`, `"..._policy"`); `modules` maps a name to a module
    offered whole (`"constants": "._constants"`). Any other name is an
    AttributeError, as for a module without `__getattr__`.
    """
    whole = modules or {}

    def __getattr__(name: str) -> object:
        relative = names.get(name) or whole.get(name)
        if relative is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = _import(package, relative)
        value = module if name in whole else getattr(module, name)
        namespace[name] = value
        return value

    return __getattr__


def _import(package: str, relative: str) -> object:
    """The module `relative` (leading dots: levels up from `package`), imported."""
    level = len(relative) - len(relative.lstrip("."))
    base = package.split(".")[: len(package.split(".")) - level + 1]
    absolute = ".".join(base + [relative[level:]])
    # __import__ rather than importlib.import_module: importing importlib costs start-up time.
    __import__(absolute)
    return sys.modules[absolute]
