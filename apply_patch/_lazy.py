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
    are imported only when a name of theirs is first asked for. Its names, all public,
    are written once: in the part's `if TYPE_CHECKING:` imports, for the type checker,
    which are read from the part's source (`_declared`) at the first name asked for, so
    that only the module defining it is imported. A name they do not tell (the source
    unreadable) is looked for in each module in turn. The value is kept in the part's
    namespace; AttributeError for a name none of them defines."""
    declared: dict[str, str] | None = None

    def attribute(name: str) -> object:
        nonlocal declared
        if not name.startswith("_"):
            if declared is None:
                declared = _declared(namespace.get("__file__"))
            told = declared.get(name)
            for module in ((told,) if told in modules else ()) + modules:
                absolute = package + module
                __import__(absolute)
                if hasattr(sys.modules[absolute], name):
                    value = namespace[name] = getattr(sys.modules[absolute], name)
                    return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute


def _declared(source: object) -> dict[str, str]:
    """Name → module (`"._seen"`) of the relative imports in the `if TYPE_CHECKING:` block
    of the module whose file is `source`; empty when it cannot be read. (String methods,
    not `ast`: importing `ast` costs more than the modules it would spare.)"""
    if not isinstance(source, str):
        return {}
    try:
        with open(source, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError):
        return {}
    block = []
    for line in text.partition("\nif TYPE_CHECKING:\n")[2].split("\n"):
        if line.strip() and not line.startswith((" ", "\t")):
            break  # the block ends at the first line not indented
        block.append(line.strip())
    table = {}
    for statement in (" " + " ".join(block)).split(" from ")[1:]:
        module, _, names = statement.partition(" import ")
        if module.startswith("."):
            for written in names.replace("(", " ").replace(")", " ").split(","):
                words = written.split()  # `name` or `name as alias`
                if words:
                    table[words[-1]] = module
    return table
