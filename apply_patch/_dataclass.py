"""The part of `dataclasses` this package uses, without importing it: start-up time.

Importing `dataclasses` takes about 12 ms on a small machine (it imports
`inspect`), and each frozen, slotted class it makes about 1 ms (it compiles
half a dozen methods): together more than the executable's whole start-up
budget. This module makes the same classes for the options the package uses,
compiling only `__init__`, and that once a class has made a few instances:

- `@dataclass` and `@dataclass(frozen=..., slots=...)`; any other option is
  refused;
- `field(default=..., default_factory=..., repr=..., compare=..., metadata=...)`;
- `fields`, `replace`, `asdict` for these classes (this module's `fields`
  gives its own `Field` objects; `asdict` takes no `dict_factory`).

The fields are read from the class body's `__annotations__`. Under deferred
annotations (PEP 649, Python 3.14) a module without `from __future__ import
annotations` leaves none there, only an `__annotate__` function: such a class
is refused when it is created (TypeError), never made without its fields.
Every module of the package that defines one has the import (a test checks).

The classes behave as `dataclasses` makes them: `__init__` (then
`__post_init__`), `__repr__`, `__eq__` on the compared fields of the same
class, `__hash__` when frozen (None when only `eq`), `FrozenInstanceError` on
assignment, `__slots__`, `__match_args__`, `__replace__`; zero-argument
`super()` works in their methods. And they are dataclasses to `dataclasses`
itself: `is_dataclass`, `fields`, `replace`, `asdict`, `astuple` and a
dataclass extending one work as on a class it made, because the attributes it
reads (`__dataclass_fields__`, `__dataclass_params__`) are made by it, from
the same declaration, when first read (`_AsDataclass`: nothing is imported
until then). So type checkers are told the truth when they see `dataclasses`
itself: `dataclass`, `field` and `replace` are imported from it when type
checking (DEVELOPERS.md, "Start-up time", says why this option and not another).
"""

from __future__ import annotations

import _thread  # (built in, already loaded by the interpreter)
from _operator import attrgetter  # (built in)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_MISSING: Any = object()
_FIELDS = "__record_fields__"


class Field:
    """One field of a record class (what `fields()` returns)."""

    __slots__ = ("name", "type", "default", "default_factory", "repr", "compare", "metadata")

    def __init__(
        self,
        default: Any,
        default_factory: Any,
        repr: bool,
        compare: bool,
        metadata: dict[str, Any] | None,
    ) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.metadata: dict[str, Any] = dict(metadata or {})

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, compare={self.compare!r})"


def _field(
    *,
    default: Any = _MISSING,
    default_factory: Callable[[], Any] = _MISSING,
    repr: bool = True,
    compare: bool = True,
    metadata: dict[str, Any] | None = None,
) -> Any:
    return Field(default, default_factory, repr, compare, metadata)


def _dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    def wrap(cls: type) -> type:
        return _process(cls, frozen, slots)

    return wrap if cls is None else wrap(cls)


def _fields(class_or_instance: Any) -> tuple[Field, ...]:
    try:
        found: dict[str, Field] = getattr(class_or_instance, _FIELDS)
    except AttributeError:
        raise TypeError("must be called with a dataclass type or instance") from None
    return tuple(found.values())


def _replace(obj: Any, /, **changes: Any) -> Any:
    for field in _fields(obj):
        if field.name not in changes:
            changes[field.name] = getattr(obj, field.name)
    return obj.__class__(**changes)


def _asdict(obj: Any) -> dict[str, Any]:
    if not hasattr(type(obj), _FIELDS):
        raise TypeError("asdict() should be called on dataclass instances")
    result: dict[str, Any] = _as_plain(obj)
    return result


def _as_plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bytes)):  # deepcopy gives them back
        return value  # (and `copy` is not imported: start-up time of `--json`)
    if hasattr(type(value), _FIELDS):
        return {f.name: _as_plain(getattr(value, f.name)) for f in _fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple
        return type(value)(*[_as_plain(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_as_plain(v) for v in value)
    if isinstance(value, dict):
        return type(value)((_as_plain(k), _as_plain(v)) for k, v in value.items())
    import copy

    return copy.deepcopy(value)


def _process(cls: type, frozen: bool, slots: bool) -> type:
    fields = _collect(cls)
    compared = tuple(name for name, f in fields.items() if f.compare)
    # What does not need the class itself goes in the namespace of a slotted copy:
    # an attribute set on a class afterwards updates its type slots (start-up time).
    made: dict[str, Any] = {
        _FIELDS: fields,
        "__repr__": _make_repr(tuple(n for n, f in fields.items() if f.repr)),
        "__eq__": _make_eq(compared),
        "__replace__": _replace,  # copy.replace (Python 3.13)
        "__dataclass_fields__": _AS_DATACLASS["__dataclass_fields__", frozen, slots],
        "__dataclass_params__": _AS_DATACLASS["__dataclass_params__", frozen, slots],
    }
    if frozen:
        made["__hash__"] = _make_hash(compared)
    elif "__hash__" not in cls.__dict__:
        made["__hash__"] = None
    if frozen and slots:  # pickle and copy restore slots through __setstate__
        made["__getstate__"], made["__setstate__"] = _getstate, _setstate
    if "__match_args__" not in cls.__dict__:
        made["__match_args__"] = tuple(fields)
    if slots:
        cls = _with_slots(cls, fields, made)
    else:
        for name, value in made.items():
            setattr(cls, name, value)
    setattr(cls, "__init__", _first_init(cls, fields, frozen))
    if frozen:
        _freeze(cls, frozenset(fields))
    return cls


class _AsDataclass:
    """`__dataclass_fields__` or `__dataclass_params__` of a record class, made by
    `dataclasses` itself when first read, then kept on the class in its place.

    `dataclasses` knows a dataclass by these two attributes (`is_dataclass`,
    `fields`, `replace`, `asdict`, `astuple`, a dataclass that extends one, and
    every library that asks them): whoever reads one has imported `dataclasses`,
    and only then are they made. `dataclasses` makes them from a twin of the
    class, declared with the same fields and options (its `Field` objects, its
    parameters); the class itself is left as it is. One descriptor serves every
    class with the same options; the record class it answers for is the first of
    the owner's ancestors that holds it.
    """

    __slots__ = ("name", "frozen", "slots")

    def __init__(self, name: str, frozen: bool, slots: bool) -> None:
        self.name, self.frozen, self.slots = name, frozen, slots

    def __get__(self, instance: object, owner: type) -> Any:
        import dataclasses  # (already imported by whoever asks; not under the lock below)

        record = next(c for c in owner.__mro__ if c.__dict__.get(self.name) is self)
        with _AS_DATACLASS_LOCK:
            if record.__dict__.get(self.name) is self:  # not made by another thread meanwhile
                _make_dataclass_attributes(dataclasses, record, self.frozen, self.slots)
        return record.__dict__[self.name]


def _make_dataclass_attributes(dataclasses: Any, cls: type, frozen: bool, slots: bool) -> None:
    """Put on `cls` the two attributes the `dataclasses` module would have given it."""
    namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}
    annotations = namespace["__annotations__"] = {}
    field: Field
    for name, field in getattr(cls, _FIELDS).items():
        annotations[name] = field.type
        options: dict[str, Any] = {"repr": field.repr, "compare": field.compare, "metadata": field.metadata}
        if field.default is not _MISSING:
            options["default"] = field.default
        if field.default_factory is not _MISSING:
            options["default_factory"] = field.default_factory
        namespace[name] = dataclasses.field(**options)
    twin: Any = dataclasses.dataclass(frozen=frozen, slots=slots)(type(cls.__name__, (), namespace))
    setattr(cls, "__dataclass_fields__", twin.__dataclass_fields__)
    setattr(cls, "__dataclass_params__", twin.__dataclass_params__)


_AS_DATACLASS = {
    (name, frozen, slots): _AsDataclass(name, frozen, slots)
    for name in ("__dataclass_fields__", "__dataclass_params__")
    for frozen in (False, True)
    for slots in (False, True)
}
_AS_DATACLASS_LOCK = _thread.allocate_lock()


def _collect(cls: type) -> dict[str, Field]:
    """The fields of `cls`: those of its record bases, then its own annotations in order."""
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(getattr(base, _FIELDS, {}))
    seen_default = False
    for name, annotation in _annotations(cls).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        value = cls.__dict__.get(name, _MISSING)
        field = value if isinstance(value, Field) else Field(value, _MISSING, True, True, None)
        field.name, field.type = name, annotation
        if field.default is not _MISSING and field.default.__class__.__hash__ is None:
            raise ValueError(
                f"mutable default {type(field.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        if isinstance(value, Field):
            if field.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, field.default)
        fields[name] = field
    for field in fields.values():
        has_default = field.default is not _MISSING or field.default_factory is not _MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")
        seen_default = seen_default or has_default
    return fields


def _annotations(cls: type) -> dict[str, Any]:
    """The class body's own annotations; TypeError if they are deferred (unseen here)."""
    namespace = cls.__dict__
    if "__annotations__" not in namespace and (
        "__annotate__" in namespace or "__annotate_func__" in namespace
    ):
        raise TypeError(
            f"{cls.__qualname__}: its annotations are deferred (PEP 649), so its fields cannot "
            f"be read; add 'from __future__ import annotations' to {cls.__module__}"
        )
    annotations: dict[str, Any] = namespace.get("__annotations__", {})
    return annotations


def _with_slots(cls: type, fields: dict[str, Field], made: dict[str, Any]) -> type:
    """A copy of `cls` whose instances hold the fields in slots (no `__dict__`), with
    the attributes `made` for it."""
    namespace = dict(cls.__dict__)
    inherited = {slot for base in cls.__mro__[1:] for slot in getattr(base, "__slots__", ())}
    namespace["__slots__"] = tuple(name for name in fields if name not in inherited)
    for name in (*fields, "__dict__", "__weakref__"):
        namespace.pop(name, None)
    body = tuple(namespace.values())
    namespace.update(made, __qualname__=cls.__qualname__)
    new = type(cls)(cls.__name__, cls.__bases__, namespace)
    for member in body:
        if type(member) is _FUNCTION:  # most are, and have no closure: seen here (start-up time)
            if member.__closure__ is not None:
                _rebind_class_cell(member, cls, new)
        elif isinstance(member, _WRAPPERS):
            _rebind_class_cell(member, cls, new)
    return new


def _rebind_class_cell(member: Any, old: type, new: type) -> None:
    """Point the `__class__` cell of `member` at `new` where it names `old`.

    A method that calls `super()` with no arguments, or names `__class__`, reads
    the class from that cell, set when the class body was run: to the class that
    `_with_slots` discards. As CPython 3.14's `dataclasses` does, every function
    of the class body is looked at: plain functions, property accessors,
    classmethods and staticmethods, and what decorators wrap (`__wrapped__`).
    Only a function with a closure can hold the cell, or wrap one that does.
    """
    if isinstance(member, property):
        functions: tuple[Any, ...] = (member.fget, member.fset, member.fdel)
    elif isinstance(member, (classmethod, staticmethod)):
        functions = (member.__func__,)
    else:
        functions = (member,)
    for function in functions:
        while type(function) is _FUNCTION and function.__closure__ is not None:
            names = function.__code__.co_freevars
            if "__class__" in names:
                cell = function.__closure__[names.index("__class__")]
                if cell.cell_contents is old:
                    cell.cell_contents = new
            function = function.__dict__.get("__wrapped__")  # functools.wraps


_FUNCTION = type(_rebind_class_cell)
_WRAPPERS = (property, classmethod, staticmethod)


# Instances a class makes through the generic `__init__` before its own is compiled.
COMPILE_AFTER = 32


def _first_init(cls: type, fields: dict[str, Field], frozen: bool) -> Callable[..., None]:
    """`__init__` for the first instances: it binds the arguments itself, and after
    COMPILE_AFTER of them compiles the class's own `__init__` (as `dataclasses`
    writes it, several times faster) and puts it on the class.

    Compiling costs about 120 us a class, most of what making one costs, and a
    run of the executable on a small patch makes a few instances of a dozen
    classes: 1.3 ms, a tenth of its own time. A large patch makes thousands.
    """
    qualname = f"{cls.__qualname__}.__init__"
    assign = object.__setattr__ if frozen else setattr
    post_init = hasattr(cls, "__post_init__")
    made = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        if made > COMPILE_AFTER:
            compiled = _make_init(cls, fields, frozen)
            setattr(cls, "__init__", compiled)
            compiled(self, *args, **kwargs)
            return
        for name, value in _bind(qualname, fields, args, kwargs).items():
            assign(self, name, value)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = qualname
    return __init__


def _bind(qualname: str, fields: dict[str, Field], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The value of each field for these arguments; TypeError as the compiled `__init__` says it."""
    if len(args) > len(fields):
        raise TypeError(f"{qualname}() takes {_counted(fields)} but {len(args) + 1} were given")
    values = dict(zip(fields, args))
    for name, value in kwargs.items():
        if name not in fields:
            raise TypeError(f"{qualname}() got an unexpected keyword argument '{name}'")
        if name in values:
            raise TypeError(f"{qualname}() got multiple values for argument '{name}'")
        values[name] = value
    missing = []
    for name, field in fields.items():
        if name in values:
            continue
        if field.default is not _MISSING:
            values[name] = field.default
        elif field.default_factory is not _MISSING:
            values[name] = field.default_factory()
        else:
            missing.append(repr(name))
    if missing:
        if len(missing) < 3:
            listed = " and ".join(missing)
        else:
            listed = ", ".join(missing[:-1]) + f", and {missing[-1]}"
        plural = "s" if len(missing) > 1 else ""
        raise TypeError(f"{qualname}() missing {len(missing)} required positional argument{plural}: {listed}")
    return values


def _counted(fields: dict[str, Field]) -> str:
    """How many positional arguments `__init__` takes, `self` counted, in Python's words."""
    most = len(fields) + 1
    least = 1 + sum(f.default is _MISSING and f.default_factory is _MISSING for f in fields.values())
    if least == most:
        return f"{most} positional argument{'s' if most > 1 else ''}"
    return f"from {least} to {most} positional arguments"


def _make_init(cls: type, fields: dict[str, Field], frozen: bool) -> Callable[..., None]:
    """`__init__`, compiled: instances are made often (one per chunk, per line found...).

    A frozen class's fields are set past its `__setattr__` (which refuses): through each
    slot's own descriptor where the field is a slot (a third faster than `object.__setattr__`,
    which looks the descriptor up by name at every call), else `object.__setattr__`."""
    scope: dict[str, Any] = {"_setattr": object.__setattr__, "_HAS_FACTORY": _MISSING}
    parameters, body = [], []
    for name, field in fields.items():
        slot = _slot(cls, name) if frozen else None
        if slot is not None:
            scope[f"_set_{name}"] = slot
        if field.default_factory is not _MISSING:
            scope[f"_factory_{name}"] = field.default_factory
            parameters.append(f"{name}=_HAS_FACTORY")
            value = f"_factory_{name}() if {name} is _HAS_FACTORY else {name}"
        elif field.default is not _MISSING:
            scope[f"_default_{name}"] = field.default
            parameters.append(f"{name}=_default_{name}")
            value = name
        else:
            parameters.append(name)
            value = name
        if slot is not None:
            body.append(f"_set_{name}(self, {value})")
        else:
            body.append(f"_setattr(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__(self, {', '.join(parameters)}):\n    " + "\n    ".join(body or ["pass"])
    exec(source, scope)
    function: Callable[..., None] = scope["__init__"]
    function.__qualname__ = f"{cls.__qualname__}.__init__"
    return function


_MEMBER: type = type(Field.__dict__["name"])  # the descriptor of a slot (`member_descriptor`)


def _slot(cls: type, name: str) -> Callable[[Any, Any], None] | None:
    """The `__set__` of the slot that holds field `name` of `cls`'s instances (None: not a slot)."""
    for base in cls.__mro__:
        if name in base.__dict__:
            found = base.__dict__[name]
            setter: Callable[[Any, Any], None] | None = getattr(found, "__set__") if type(found) is _MEMBER else None
            return setter
    return None


def _make_repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _fields_tuple(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of the fields `names` of an instance, as a tuple (in C: `attrgetter`)."""
    if len(names) > 1:
        found: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
        return found
    if names:
        one = attrgetter(names[0])
        return lambda instance: (one(instance),)
    return lambda instance: ()


def _make_eq(names: tuple[str, ...]) -> Callable[[Any, object], Any]:
    values = _fields_tuple(names)

    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _make_hash(names: tuple[str, ...]) -> Callable[[Any], int]:
    values = _fields_tuple(names)

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen_instance_error(message: str) -> AttributeError:
    """`dataclasses.FrozenInstanceError`, as a dataclass raises it: `dataclasses` is
    imported here, on a mistake's way only (a program assigns to no frozen field)."""
    import dataclasses

    return dataclasses.FrozenInstanceError(message)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in _fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for field, value in zip(_fields(self), state):
        object.__setattr__(self, field.name, value)


def _freeze(cls: type, names: frozenset[str]) -> None:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_instance_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_instance_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    setattr(cls, "__setattr__", __setattr__)
    setattr(cls, "__delattr__", __delattr__)


if TYPE_CHECKING:
    # The classes are dataclasses to `dataclasses` (`_AsDataclass`): its decorator,
    # field specifier and `replace` tell type checkers what they are.
    from dataclasses import dataclass, field, replace
else:
    dataclass, field, replace = _dataclass, _field, _replace
fields, asdict = _fields, _asdict  # this module's `Field`; no `dict_factory`

__all__ = ["asdict", "dataclass", "field", "fields", "replace"]
