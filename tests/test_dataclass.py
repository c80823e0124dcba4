"""`apply_patch._dataclass` makes the classes `dataclasses` makes, for the options used.

Each class is declared twice, once with each module, and the two must behave the
same: construction, defaults and factories, errors, repr, equality, hashing,
frozen assignment, slots, match args, `__post_init__`, `fields`, `replace`,
`asdict`, copying. The functions of `dataclasses` itself work on both (the light
classes are dataclasses to it), and on every record class of the package.
"""

import ast
import copy
import dataclasses
import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from _support import FIXTURES
from apply_patch import _dataclass as light

Decorator = Callable[..., Any]


def _declare(dataclass: Decorator, field: Callable[..., Any]) -> dict[str, Any]:
    @dataclass(frozen=True, slots=True)
    class Chunk:
        """A frozen, slotted class with a field left out of equality."""

        contexts: tuple[str, ...]
        lines: tuple[str, ...]
        is_end_of_file: bool = False
        line: int = field(default=0, compare=False)
        kind: ClassVar[str] = "chunk"

    @dataclass(frozen=True)
    class Frozen:
        """Frozen, not slotted."""

        name: str
        tags: tuple[str, ...] = ()

    @dataclass
    class Journal:
        """Mutable, with a factory."""

        owner: str
        undo: list[str] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class Checked:
        """Validates in __post_init__; fields with metadata."""

        mode: str = field(default="keep", metadata={"help": "how"})
        size: int = 3

        def __post_init__(self) -> None:
            if self.mode not in ("keep", "drop"):
                raise ValueError(self.mode)

    @dataclass(frozen=True, slots=True)
    class Nested:
        """Holds other records."""

        chunk: Chunk
        items: list[Frozen]

    return {c.__name__: c for c in (Chunk, Frozen, Journal, Checked, Nested)}


REAL = _declare(dataclasses.dataclass, dataclasses.field)
LIGHT = _declare(light._dataclass, light._field)


def _is_dataclass(value: object) -> bool:
    """`dataclasses.is_dataclass`, without narrowing the type of what it is given."""
    return dataclasses.is_dataclass(value)


def _outcome(action: Callable[[], object]) -> object:
    try:
        result = action()
    except Exception as error:  # noqa: BLE001  (the kind of error is compared)
        return ("raises", type(error).__name__)
    return ("returns", result)


@pytest.mark.parametrize("kinds", [REAL, LIGHT], ids=["dataclasses", "light"])
def test_behaviour(kinds: dict[str, Any]) -> None:
    """Run against both: the assertions are the behaviour of `dataclasses` itself."""
    chunk_type, frozen_type, journal_type = kinds["Chunk"], kinds["Frozen"], kinds["Journal"]
    checked_type, nested_type = kinds["Checked"], kinds["Nested"]
    a = chunk_type(("c",), (" x",), line=3)
    b = chunk_type(("c",), (" x",), False, 9)
    assert a == b and hash(a) == hash(b) and a != chunk_type((), ())
    assert repr(a) == "_declare.<locals>.Chunk(contexts=('c',), lines=(' x',), is_end_of_file=False, line=3)"
    assert a.__match_args__ == ("contexts", "lines", "is_end_of_file", "line")
    assert not hasattr(a, "__dict__") and chunk_type.kind == "chunk"
    assert _outcome(lambda: setattr(a, "line", 4)) == ("raises", "FrozenInstanceError")
    # (dataclasses raises TypeError there, from its slotted copy: any error will do)
    assert _outcome(lambda: setattr(a, "other", 4))[0] == "raises"  # type: ignore[index]
    assert _outcome(lambda: chunk_type(())) == ("raises", "TypeError")
    assert _outcome(lambda: chunk_type((), (), x=1)) == ("raises", "TypeError")
    assert (a == ("c",)) is False

    f = frozen_type("n")
    assert f.tags == () and hash(f) == hash(frozen_type("n")) and hasattr(f, "__dict__")
    assert repr(f) == "_declare.<locals>.Frozen(name='n', tags=())"

    j, k = journal_type("me"), journal_type("me")
    j.undo.append("x")
    assert k.undo == [] and j != k and journal_type.__hash__ is None
    j.owner = "you"
    assert repr(j) == "_declare.<locals>.Journal(owner='you', undo=['x'])"

    assert checked_type().size == 3
    assert _outcome(lambda: checked_type("bad")) == ("raises", "ValueError")
    # The functions of `dataclasses` itself, on both: the light classes are dataclasses to it.
    assert _is_dataclass(checked_type) and _is_dataclass(checked_type())
    fields = dataclasses.fields(checked_type)
    assert [(f.name, f.metadata.get("help")) for f in fields] == [("mode", "how"), ("size", None)]
    assert dataclasses.replace(checked_type(), size=5) == checked_type("keep", 5)
    assert _outcome(lambda: dataclasses.replace(checked_type(), mode="bad")) == ("raises", "ValueError")
    nested = nested_type(a, [f])
    as_dict = {
        "chunk": {"contexts": ("c",), "lines": (" x",), "is_end_of_file": False, "line": 3},
        "items": [{"name": "n", "tags": ()}],
    }
    assert dataclasses.asdict(nested) == as_dict
    assert dataclasses.astuple(nested) == ((("c",), (" x",), False, 3), [("n", ())])
    params = [kinds[name].__dataclass_params__ for name in ("Chunk", "Frozen", "Journal")]
    assert [(p.frozen, p.eq, p.order, p.unsafe_hash) for p in params] == [
        (True, True, False, False), (True, True, False, False), (False, True, False, False),
    ]  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.line = 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        del f.name
    if sys.version_info >= (3, 13):
        assert copy.replace(a, line=5) == chunk_type(("c",), (" x",), line=5)
    if kinds is LIGHT:  # and the package's own, which do not import dataclasses
        assert light._fields(checked_type) == light.fields(checked_type())
        assert [f.name for f in light._fields(checked_type)] == [f.name for f in fields]
        assert light._replace(checked_type(), size=5) == checked_type("keep", 5)
        assert light._asdict(nested) == as_dict
    # copies go through __reduce_ex__ and __setstate__, as pickling does
    assert copy.copy(a) == a and copy.deepcopy(a) == a and copy.copy(nested) == nested


@pytest.mark.parametrize("kinds", [REAL, LIGHT], ids=["dataclasses", "light"])
def test_a_dataclass_extends_one_as_it_extends_a_dataclass(kinds: dict[str, Any]) -> None:
    chunk_type = kinds["Chunk"]

    @dataclasses.dataclass(frozen=True, slots=True)
    class Noted(chunk_type):  # type: ignore[valid-type,misc]
        note: str = ""

    noted = Noted(("c",), (), note="n")
    assert [f.name for f in dataclasses.fields(Noted)] == ["contexts", "lines", "is_end_of_file", "line", "note"]
    assert dataclasses.replace(noted, note="m") == Noted(("c",), (), note="m") != noted
    assert dataclasses.asdict(noted)["note"] == "n" and not hasattr(noted, "__dict__")
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):

        @dataclasses.dataclass
        class Loose(chunk_type):  # type: ignore[valid-type,misc]
            note: str = ""

    class Plain(chunk_type):  # type: ignore[valid-type,misc]
        """Not a dataclass itself: it inherits the fields, as from any dataclass."""

    assert dataclasses.fields(Plain) == dataclasses.fields(chunk_type)
    assert _is_dataclass(Plain(("c",), ()))


def test_bad_declarations_are_refused_alike() -> None:
    for dataclass, field in ((dataclasses.dataclass, dataclasses.field), (light._dataclass, light._field)):

        def no_default_after_default() -> object:
            class Bad:
                a: int = 1
                b: int

            return dataclass(Bad)

        def mutable_default() -> object:
            class Bad:
                a: list[int] = []  # noqa: RUF012

            return dataclass(Bad)

        def both_defaults() -> object:
            return field(default=1, default_factory=list)  # type: ignore[call-overload]

        assert _outcome(no_default_after_default) == ("raises", "TypeError")
        assert _outcome(mutable_default) == ("raises", "ValueError")
        assert _outcome(both_defaults) == ("raises", "ValueError")


@pytest.mark.parametrize("option", ["order", "init", "eq", "repr", "kw_only", "match_args"])
def test_unsupported_options_are_refused(option: str) -> None:
    """Only the options the package uses (frozen, slots) are there to be got wrong."""
    with pytest.raises(TypeError):
        light._dataclass(**{option: False})


def test_unsupported_field_options_are_refused() -> None:
    with pytest.raises(TypeError):
        light._field(init=False)  # type: ignore[call-arg]


@pytest.mark.parametrize("key", ["__annotate__", "__annotate_func__"])
def test_deferred_annotations_are_refused_at_class_creation(key: str) -> None:
    """Python 3.14 without `from __future__ import annotations`: the class body's
    annotations are an `__annotate__` function, not `__annotations__`. The class
    would silently get no fields; it is refused instead."""
    namespace = {key: lambda format: {"path": str}, "__module__": "apply_patch.somewhere"}
    deferred = type("Deferred", (), namespace)
    with pytest.raises(TypeError) as caught:
        light._dataclass(frozen=True, slots=True)(deferred)
    assert str(caught.value) == (
        "Deferred: its annotations are deferred (PEP 649), so its fields cannot be read; "
        "add 'from __future__ import annotations' to apply_patch.somewhere"
    )
    # A class with no annotations at all is a record with no fields, as in dataclasses.
    assert light._fields(light._dataclass(type("Empty", (), {}))) == ()


def _defines_a_dataclass(tree: ast.Module) -> bool:
    def named(node: ast.expr) -> bool:
        target = node.func if isinstance(node, ast.Call) else node
        return isinstance(target, ast.Name) and target.id == "dataclass"

    return any(
        isinstance(node, ast.ClassDef) and any(map(named, node.decorator_list))
        for node in ast.walk(tree)
    )


def test_every_module_defining_a_dataclass_has_postponed_annotations() -> None:
    package = Path(light.__file__).parent
    defining, missing = [], []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not _defines_a_dataclass(tree):
            continue
        defining.append(path.relative_to(package).as_posix())
        future = any(
            isinstance(node, ast.ImportFrom) and node.module == "__future__"
            and any(alias.name == "annotations" for alias in node.names)
            for node in tree.body
        )  # fmt: skip
        if not future:
            missing.append(path.relative_to(package).as_posix())
    assert len(defining) >= 20 and "format/_model.py" in defining  # the scan does find them
    assert missing == []


@pytest.fixture(params=["bound", "compiled"])
def phase(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each class makes its first instances with a generic `__init__`, then compiles its own."""
    monkeypatch.setattr(light, "COMPILE_AFTER", 10**9 if request.param == "bound" else 0)
    return str(request.param)


def test_behaviour_in_both_phases(phase: str) -> None:
    test_behaviour(_declare(light._dataclass, light._field))


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),
    (((),), {}),
    (((), (), False, 1, "extra"), {}),
    (((), (), False, 1, "extra", "more"), {}),
    ((), {"lines": ()}),
    (((),), {"contexts": ()}),
    (((), ()), {"nope": 1}),
    (((),), {"lines": (), "line": 2, "is_end_of_file": True}),
]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_errors_say_what_the_compiled_init_says(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The generic `__init__` binds and refuses arguments as the compiled one does, word for word."""
    said = []
    for after in (10**9, 0):
        kinds = _declare(light._dataclass, light._field)
        light.COMPILE_AFTER, saved = after, light.COMPILE_AFTER
        try:
            said.append(_said(lambda: kinds["Chunk"](*args, **kwargs)))
            said.append(_said(lambda: kinds["Journal"](*args, **kwargs)))
        finally:
            light.COMPILE_AFTER = saved
    assert said[:2] == said[2:]


def _said(action: Callable[[], object]) -> object:
    try:
        return light._asdict(action())
    except TypeError as error:
        return str(error)


def test_missing_arguments_are_listed_as_python_lists_them() -> None:
    @light._dataclass(frozen=True)
    class Three:
        a: int
        b: int
        c: int

    for after in (10**9, 0):
        light.COMPILE_AFTER, saved = after, light.COMPILE_AFTER
        try:
            assert _said(lambda: Three()) == (
                "test_missing_arguments_are_listed_as_python_lists_them.<locals>.Three.__init__() "
                "missing 3 required positional arguments: 'a', 'b', and 'c'"
            )
        finally:
            light.COMPILE_AFTER = saved


def test_init_is_compiled_after_a_few_instances_whoever_makes_them() -> None:
    """The class's own `__init__` is compiled once it has made COMPILE_AFTER instances
    (start-up time): by the class, by a plain subclass or by failed calls, it is the same."""
    for first in ("class", "subclass", "wrong arguments"):
        kinds = _declare(light._dataclass, light._field)
        chunk_type = kinds["Chunk"]
        generic = chunk_type.__init__

        class Sub(chunk_type):  # type: ignore[valid-type,misc]
            __slots__ = ()

        for _ in range(light.COMPILE_AFTER):
            if first == "subclass":
                assert Sub(("c",), ()).contexts == ("c",)
            elif first == "wrong arguments":
                assert _outcome(lambda: chunk_type(())) == ("raises", "TypeError")
            else:
                assert chunk_type(("c",), ()).line == 0
        assert chunk_type.__init__ is generic, first
        made = chunk_type((), (" x",), True, 4)
        assert chunk_type.__init__ is not generic and Sub.__init__ is chunk_type.__init__, first
        assert light._asdict(made) == light._asdict(chunk_type((), (" x",), True, 4)) == light._asdict(
            Sub((), (" x",), True, 4)
        )
        assert chunk_type.__init__.__qualname__ == generic.__qualname__ == "_declare.<locals>.Chunk.__init__"


class _Greeter:
    __slots__ = ()

    def greet(self) -> str:
        return "base"

    @classmethod
    def kind(cls) -> str:
        return "base kind"


def _logged(function: Callable[..., str]) -> Callable[..., str]:
    """A wrapping decorator, as functools.wraps leaves it (`__wrapped__`)."""

    def wrapper(*args: Any) -> str:
        return function(*args)

    wrapper.__wrapped__ = function  # type: ignore[attr-defined]
    return wrapper


def test_zero_argument_super_works_in_a_slotted_class() -> None:
    """A slotted class is made again with `__slots__`: the methods' `__class__` cell
    (zero-argument `super()`, `__class__`) must name the class returned, not the first one."""

    @light.dataclass(frozen=True, slots=True)
    class Greeter(_Greeter):
        name: str

        def greet(self) -> str:
            return f"{super().greet()} then {self.name}"

        @property
        def loud(self) -> str:
            return super().greet().upper()

        @classmethod
        def kind(cls) -> str:
            return f"{super().kind()} then record"

        @staticmethod
        def home() -> object:
            return __class__  # type: ignore[name-defined]  # (mypy knows it in methods only)

        @_logged
        def wrapped(self) -> str:
            return super().greet()

    made = Greeter("me")
    assert made.greet() == "base then me" and made.loud == "BASE"
    assert Greeter.kind() == made.kind() == "base kind then record"
    assert Greeter.home() is Greeter and made.wrapped() == "base"
    assert not hasattr(made, "__dict__")


def _record_classes() -> dict[str, Any]:
    """Every class of the package made by `_dataclass`, by qualified name."""
    import apply_patch

    found: dict[str, Any] = {}
    for module_info in pkgutil.walk_packages(apply_patch.__path__, "apply_patch."):
        if module_info.name.endswith(".__main__"):  # runs the executable
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and light._FIELDS in value.__dict__:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


# The modules clients import (DEVELOPERS.md): their record classes are the public ones.
PUBLIC_MODULES = ("apply_patch", "apply_patch.edits", "apply_patch.anthropic", "apply_patch.responses",
                  "apply_patch.openai_agents", "apply_patch.tools")  # fmt: skip


def _public_classes() -> set[type]:
    public = set()
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", [name for name in vars(module) if not name.startswith("_")])
        for value in map(module.__getattribute__, exported):
            if isinstance(value, type) and light._FIELDS in value.__dict__:
                public.add(value)
    return public


def _missing_as_dataclasses_says(value: object) -> object:
    return dataclasses.MISSING if value is light._MISSING else value


def test_every_record_class_of_the_package_is_a_dataclass_to_dataclasses() -> None:
    """`dataclasses` sees each class's fields as the package declared them, no more, no less."""
    records = _record_classes()
    assert len(records) >= 45 and "apply_patch.format._model.Chunk" in records  # the walk finds them
    for name, cls in records.items():
        assert _is_dataclass(cls), name
        real = [(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, dict(f.metadata))
                for f in dataclasses.fields(cls)]  # fmt: skip
        ours = [
            (f.name, f.type, _missing_as_dataclasses_says(f.default),
             _missing_as_dataclasses_says(f.default_factory), f.repr, f.compare, f.metadata)
            for f in light._fields(cls)
        ]  # fmt: skip
        assert real == ours, name
        assert cls.__dataclass_fields__ is cls.__dataclass_fields__  # made once, then kept
        assert cls.__dataclass_params__.frozen == ("__setattr__" in cls.__dict__), name


def _samples(root: Path) -> list[object]:
    """What the public functions return, from one call of each (or a few)."""
    import apply_patch as ap
    from apply_patch import edits

    (root / "hello.py").write_text('def greet():\n    print("Hi")   \n', encoding="utf-8")
    (root / "old.txt").write_text("old\n", encoding="utf-8")
    patch = (
        "*** Begin Patch\n*** Add File: new.txt\n+new\n*** Delete File: old.txt\n"
        "*** Update File: hello.py\n*** Move to: main.py\n@@ def greet():\n"
        '-    print("Hi")\n+    print("Hello")\n*** End Patch'
    )
    applied = ap.apply_patch(patch, root)  # the trailing spaces make a fuzzy placement: a warning
    edited = edits.apply_edits(
        [edits.StrReplace("main.py", "Hello", "Hello, world"), edits.Insert("main.py", 1, "# top\n"),
         edits.CreateFile("more.txt", "more\n")],
        root,
    )  # fmt: skip
    asked: list[ap.RepairRequest] = []  # what a repair hook is given
    with pytest.raises(ap.ContextNotFoundError):
        edits.apply_edits([edits.StrReplace("main.py", "no such text", "x")], root, repair=asked.append)
    transcripts = FIXTURES / "transcripts"
    text = patch.replace("*** End Patch", "")
    return [
        ap.parse_patch(patch), applied, applied.files, edited, ap.DEFAULT, asked,
        ap.extract_patches((transcripts / "broken_then_good.log").read_text(encoding="utf-8")),
        ap.extract_patches((transcripts / "claude_code_edits.jsonl").read_text(encoding="utf-8")),
        ap.extract_patches((transcripts / "claude_code_notebook.jsonl").read_text(encoding="utf-8")),
        ap.classify_argv(["apply_patch", patch]), ap.classify_argv(["apply_patch", text]),
        ap.classify_argv(["ls"]), ap.classify_argv([patch]), ap.parse_partial(text),
        ap.make_patch({"a.txt": "a\n"}, {"b.txt": "a\n", "c.txt": "c\n"}),
        edits.parse_search_replace("main.py\n```\n<<<<<<< SEARCH\n# top\n=======\n# head\n>>>>>>> REPLACE\n```\n"),
        ap.history(root),
    ]  # fmt: skip


def _records_in(value: object) -> Iterator[Any]:
    if light._FIELDS in type(value).__dict__ or hasattr(type(value), light._FIELDS):
        yield value
        for field in light._fields(value):
            yield from _records_in(getattr(value, field.name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _records_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _records_in(item)


def test_dataclasses_functions_work_on_every_public_class(tmp_path: Path) -> None:
    """What the types promise (every model and result class is a frozen dataclass) holds at
    run time: `is_dataclass`, `fields`, `replace`, `asdict`, `astuple` of `dataclasses`, and
    `copy.replace` from Python 3.13, on instances the public functions return."""
    seen: dict[Any, list[Any]] = {}
    for record in _records_in(_samples(tmp_path)):
        seen.setdefault(type(record), []).append(record)
    assert _public_classes() - seen.keys() == set()  # every public class has been tried
    for cls, instances in seen.items():
        first, last = instances[0], instances[-1]
        assert _is_dataclass(first) and _is_dataclass(cls)
        names = [f.name for f in dataclasses.fields(first)]
        assert names == [f.name for f in light._fields(cls)] == list(cls.__match_args__)
        copied = dataclasses.replace(first)
        assert copied == first and copied is not first
        assert dataclasses.replace(first, **{name: getattr(last, name) for name in names}) == last
        assert repr(dataclasses.asdict(first)) == repr(light._asdict(first))  # (errors: copies)
        assert len(dataclasses.astuple(first)) == len(names)
        if sys.version_info >= (3, 13):
            assert copy.replace(first) == first


MISUSES = '''\
import dataclasses

from apply_patch import Chunk, UpdateFile

update = UpdateFile(path="a.py", move_to=None, chunks=(Chunk(contexts=(), lines=("-x", "+y")),))
moved: UpdateFile = dataclasses.replace(update, move_to="b.py")
dataclasses.replace(update, move_too="b.py")
UpdateFile(paht="a.py", move_to=None, chunks=())
update.path = "b.py"
UpdateFile("a.py")
'''


def test_type_checkers_see_the_fields(tmp_path: Path) -> None:
    """mypy, on code using the installed package: a public class is a frozen dataclass to it
    (its `__init__` and `dataclasses.replace` take its fields), and every misuse is an error."""
    (tmp_path / "misuses.py").write_text(MISUSES, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--hide-error-context",
         "--cache-dir", str(tmp_path / "cache"), "misuses.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    errors = [line.split(": error: ", 1)[1] for line in result.stdout.splitlines() if ": error: " in line]
    assert [line.split(":")[1] for line in result.stdout.splitlines() if ": error: " in line] == [
        "7", "8", "9", "10",
    ]  # fmt: skip
    assert errors[0].startswith('Unexpected keyword argument "move_too" for "replace" of "UpdateFile"')
    assert errors[1].startswith('Unexpected keyword argument "paht" for "UpdateFile"')
    assert errors[2].startswith('Property "path" defined in "UpdateFile" is read-only')
    assert errors[3].startswith('Missing positional arguments "move_to", "chunks" in call to "UpdateFile"')


def test_a_compiled_frozen_init_leaves_each_instance_its_own_class() -> None:
    """The compiled `__init__` of a frozen slotted class sets each field through its slot's
    descriptor, past the refusing `__setattr__`: the instance is its own class's, a
    subclass's too, before `__post_init__` and whatever fails, and stays frozen."""
    seen: list[type] = []
    dataclass: Decorator = light._dataclass  # (mypy knows `dataclasses`' own only)

    def failing() -> list[str]:
        raise LookupError("no default")

    @dataclass(frozen=True, slots=True)
    class Made:
        name: str
        tags: list[str] = light._field(default_factory=list)

        def __post_init__(self) -> None:
            seen.append(type(self))

    @dataclass(frozen=True, slots=True)
    class Failing:
        name: str
        tags: list[str] = light._field(default_factory=failing)

    class Sub(Made):
        __slots__ = ()

    saved, light.COMPILE_AFTER = light.COMPILE_AFTER, 0
    try:
        made, sub = Made("a"), Sub("b", ["x"])
        with pytest.raises(LookupError):
            Failing("c")
        assert Failing("d", []).tags == []
    finally:
        light.COMPILE_AFTER = saved
    assert type(made) is Made and type(sub) is Sub and seen == [Made, Sub]
    assert made == Made("a") and made.tags == [] and sub.tags == ["x"]
    for instance in (made, sub):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(instance, "name", "z")
    assert light._asdict(sub) == {"name": "b", "tags": ["x"]} and copy.deepcopy(made) == made
