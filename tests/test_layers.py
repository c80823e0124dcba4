"""The package's parts: imports run one way, and a part is entered through its `__init__`.

The layers themselves are import-linter's contracts (pyproject.toml, `lint-imports`,
run by `make test`). Each part's `__init__` names what it offers in a table read on first use; the
names its type checker sees (the `TYPE_CHECKING` imports) must be the table's,
and importing a part must load none of its modules.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import apply_patch
from _support import REPO

PARTS = ("apply_patch.format", "apply_patch.apply", "apply_patch.extract", "apply_patch.make", "apply_patch.cli")


def _init_tree(package: str) -> ast.Module:
    path = REPO / Path(*package.split(".")) / "__init__.py"
    return ast.parse(path.read_text(encoding="utf-8"))


def _type_checked_names(tree: ast.Module) -> set[str]:
    """The names the `if TYPE_CHECKING:` block of an `__init__` imports."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    names.update(alias.asname or alias.name for alias in statement.names)
    return names


def _table_names(tree: ast.Module) -> set[str]:
    """The keys of the `_NAMES` and `_MODULES` tables of an `__init__`."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("_NAMES", "_MODULES"):
                names.update(str(k.value) for k in node.value.keys if isinstance(k, ast.Constant))
    return names


@pytest.mark.parametrize("package", PARTS)
def test_a_part_offers_what_its_type_checker_sees(package: str) -> None:
    tree = _init_tree(package)
    module = __import__(package, fromlist=["_"])
    offered = _table_names(tree)
    assert offered == _type_checked_names(tree)
    assert offered == set(module.__all__)
    for name in sorted(offered):
        assert getattr(module, name) is not None


@pytest.mark.parametrize("package", PARTS)
def test_importing_a_part_loads_none_of_its_modules(package: str) -> None:
    """Beyond what `import apply_patch` loads (the way of applying a patch)."""
    program = (
        "import sys, apply_patch\n"
        "before = set(sys.modules)\n"
        f"import {package}\n"
        f"print(sorted(m for m in set(sys.modules) - before if m.startswith('{package}.')))"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_an_unknown_name_of_a_part_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        getattr(apply_patch.format, "nothing")
    with pytest.raises(ImportError):
        exec("from apply_patch.apply import nothing", {})
