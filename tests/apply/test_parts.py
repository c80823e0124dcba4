"""apply/'s parts: each names its exports once, in its `__init__`, and every name it
leaves to first use (under `if TYPE_CHECKING:`, for the type checker) is there at run
time, from the module that names it."""

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import apply_patch.apply

PARTS = ("disk", "records", "planning", "syntax", "matching")
FOLDER = Path(apply_patch.apply.__file__).parent


def _imports(part: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """(module, name, exported as) of the part's `__init__`: the eager ones, the ones left to first use."""
    tree = ast.parse((FOLDER / part / "__init__.py").read_text())
    eager: list[tuple[str, str, str]] = []
    later: list[tuple[str, str, str]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            eager += [(node.module, a.name, a.asname or a.name) for a in node.names]
        elif isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                assert isinstance(inner, ast.ImportFrom) and inner.level == 1 and inner.module
                later += [(inner.module, a.name, a.asname or a.name) for a in inner.names]
    return eager, later


@pytest.mark.parametrize("part", PARTS)
def test_every_name_a_part_offers_is_the_object_its_module_defines(part: str) -> None:
    package = importlib.import_module(f"apply_patch.apply.{part}")
    eager, later = _imports(part)
    assert eager, part
    names = [exported for _, _, exported in eager + later]
    assert len(names) == len(set(names)), f"{part} offers a name twice"
    for module, name, exported in eager + later:
        defined = getattr(importlib.import_module(f"apply_patch.apply.{part}.{module}"), name)
        assert getattr(package, exported) is defined, (part, module, name)


def test_a_name_no_part_offers_is_an_attribute_error() -> None:
    from apply_patch.apply import records

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        records.nothing_here  # noqa: B018
    with pytest.raises(AttributeError):
        records._pending_private  # noqa: B018


# The calls that change a file system; `os.fchmod` of the user's own state folder, taken
# back to 0700 when found open to others (`records.private_folder`), is the one allowed
# outside `disk/`: a folder of ours made private again, never content.
WRITES = {
    "write", "pwrite", "writev", "replace", "rename", "renames", "link", "symlink", "unlink",
    "remove", "mkdir", "makedirs", "rmdir", "removedirs", "fsync", "fdatasync", "chmod", "chown",
    "fchown", "lchown", "utime", "truncate", "ftruncate", "O_CREAT", "O_WRONLY", "O_TRUNC",
    "O_APPEND",
}
ALLOWED = {("records/_receipts.py", "fchmod")}


@pytest.mark.parametrize("part", PARTS)
def test_a_name_left_to_first_use_is_read_from_its_module_as_the_source_tells(part: str) -> None:
    """What `_lazy` reads from a part's `if TYPE_CHECKING:` block is what the type checker
    reads (ast, here): every name to its module. Asking for one then imports that module,
    not the part's other rarely used ones before it (`records.Seen` once imported
    `_pending` and `_receipts_read` too)."""
    from apply_patch._lazy import _declared

    _, later = _imports(part)
    told = _declared(str(FOLDER / part / "__init__.py"))
    assert told == {exported: "." + module for module, _, exported in later}


def test_asking_for_a_name_imports_its_module_only() -> None:
    code = (
        "import sys\nimport apply_patch.apply.records as records\nrecords.Seen\n"
        "print(sorted(m for m in sys.modules if m.startswith('apply_patch.apply.records.')))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = ast.literal_eval(shown)
    assert "apply_patch.apply.records._seen" in loaded
    assert "apply_patch.apply.records._pending" not in loaded and "apply_patch.apply.records._receipts_read" not in loaded


def test_a_source_that_cannot_be_read_tells_nothing(tmp_path: Path) -> None:
    """Then each rarely used module is tried in turn (a name is still found)."""
    from apply_patch._lazy import _declared

    (tmp_path / "bad.py").write_bytes(b"\xff\xfe")
    assert _declared(str(tmp_path / "missing.py")) == {} and _declared(str(tmp_path / "bad.py")) == {}
    assert _declared(None) == {}


def test_only_disk_writes() -> None:
    """No module of apply/ outside `disk/` calls anything that writes (os's writing calls
    and flags, `open` for writing, shutil): `disk/` is the only code that writes."""
    found = []
    for path in sorted(FOLDER.rglob("*.py")):
        relative = path.relative_to(FOLDER).as_posix()
        if relative.startswith("disk/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("os", "shutil"):
                name = node.attr
                if (node.value.id == "shutil" or name in WRITES or name == "fchmod") and (relative, name) not in ALLOWED:
                    found.append(f"{relative}:{node.lineno} {node.value.id}.{name}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if any(set(mode) & set("wax+") for mode in modes):
                    found.append(f"{relative}:{node.lineno} open(..., {modes[0]!r})")
    assert found == []
