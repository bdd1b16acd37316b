"""``dataclass``, ``field`` and ``replace``: the part of :mod:`dataclasses` memlint
uses, at a fraction of its start-up cost; and ``NamedTuple`` without :mod:`typing`.

Every memlint run defines some forty record classes before it reads a file. The
standard decorator imports :mod:`inspect` (and with it ``ast``, ``dis``,
``tokenize``) and compiles each method of each class separately, about a
third of memlint's own import time. This one generates only ``__init__``
(one ``exec`` per class); equality, ordering and hashing compare the same
tuple of fields through :func:`operator.attrgetter`, and ``repr`` is shared.
What a class gets is what ``dataclasses`` would give it for the options used
here (``frozen``, ``slots``, ``eq``, ``order``; ``field(default=,
default_factory=, init=, repr=, compare=)``), with the same hash values and
the same pickled state. ``class T(NamedTuple)`` makes ``T`` the
:func:`collections.namedtuple` that :class:`typing.NamedTuple` would (importing
:mod:`typing` costs as much as ``re``). Type checkers see the standard modules.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
    from dataclasses import field as field
    from dataclasses import replace as replace
    from typing import NamedTuple as NamedTuple
else:
    from collections import namedtuple

    _MISSING = object()
    COMPILE_AFTER = 128  # records a class makes by ``_init``'s plan before it compiles its own
    _HAS_DEFAULT_FACTORY = object()
    _object_setattr = object.__setattr__

    class FrozenInstanceError(AttributeError):
        """Assigning to a field of a frozen record."""

    class Field:
        __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

        def __init__(self, default, default_factory, init, repr, compare):
            self.name = ""
            self.default = default
            self.default_factory = default_factory
            self.init = init
            self.repr = repr
            self.compare = compare

    def field(*, default=_MISSING, default_factory=_MISSING, init=True, repr=True, compare=True):
        """Options for one field, as :func:`dataclasses.field` takes them."""
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        return Field(default, default_factory, init, repr, compare)

    def dataclass(cls=None, /, *, frozen=False, slots=False, eq=True, order=False):
        """Make ``cls`` a record class, as :func:`dataclasses.dataclass` does."""

        def wrap(cls):
            return _process(cls, frozen, slots, eq, order)

        return wrap if cls is None else wrap(cls)

    def replace(obj, /, **changes):
        """A copy of the record ``obj`` with ``changes``, as :func:`dataclasses.replace`."""
        for f in obj.__dataclass_fields__.values():
            if not f.init:
                if f.name in changes:
                    raise ValueError(f"field {f.name} is declared with init=False")
            elif f.name not in changes:
                changes[f.name] = getattr(obj, f.name)
        return obj.__class__(**changes)

    def _fields(cls) -> list[Field]:
        fields: dict[str, Field] = {}
        for base in reversed(cls.__mro__[1:]):
            for f in getattr(base, "__dataclass_fields__", {}).values():
                fields[f.name] = f
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 (no inspect)
        for name, annotation in annotations.items():
            if isinstance(annotation, str) and annotation.startswith(
                ("ClassVar", "typing.ClassVar")
            ):
                continue
            default = cls.__dict__.get(name, _MISSING)
            given = isinstance(default, Field)
            f = default if given else Field(default, _MISSING, True, True, True)
            f.name = name
            fields[name] = f
            if given:  # a plain default stays a class attribute, as in dataclasses
                if f.default is _MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, f.default)
        return list(fields.values())

    def _init(made: list[type], fields: list[Field], frozen: bool, post_init: bool):
        """An ``__init__`` that makes the first ``COMPILE_AFTER`` records of the class
        by a plan of its fields, then compiles the class's own and puts it in its
        place: a compile is ~150 µs, and most record classes of a small run make a
        few records (31 classes compiled in a 10-file check: a tenth of its time).
        A call the plan does not bind (a missing, unknown or repeated argument) is
        the compiled one's, so its ``TypeError`` is Python's. Field order is checked now;
        ``made`` holds the record class once it is made."""
        params = [f for f in fields if f.init]
        positions = {f.name: at for at, f in enumerate(params)}
        given = tuple(
            _HAS_DEFAULT_FACTORY if f.default_factory is not _MISSING else f.default for f in params
        )
        required = [at for at, value in enumerate(given) if value is _MISSING]
        if required and required[-1] >= len(required):  # a default before it
            name = next(params[at].name for n, at in enumerate(required) if at != n)
            raise TypeError(f"non-default argument {name!r} follows default argument")
        steps = [
            (f.name, positions.get(f.name), f.default_factory, f.default)
            for f in fields
            if f.init or f.default_factory is not _MISSING or f.default is not _MISSING
        ]
        store = _object_setattr if frozen else setattr
        count = 0

        def compiled():
            record = made[0]
            source, namespace = _init_source(fields, frozen, post_init)
            exec(source, namespace)
            init = namespace["__init__"]
            init.__qualname__ = f"{record.__qualname__}.__init__"
            record.__init__ = init
            return init

        def __init__(self, *args, **kwargs):
            nonlocal count
            count += 1
            if count > COMPILE_AFTER or len(args) > len(given):
                return compiled()(self, *args, **kwargs)
            values = [*args, *given[len(args) :]]
            for key, value in kwargs.items():
                at = positions.get(key)
                if at is None or at < len(args):
                    return compiled()(self, *args, **kwargs)
                values[at] = value
            for at in required:
                if values[at] is _MISSING:
                    return compiled()(self, *args, **kwargs)
            for name, at, factory, default in steps:
                if at is None:
                    value = default if factory is _MISSING else factory()
                else:
                    value = values[at]
                    if value is _HAS_DEFAULT_FACTORY:
                        value = factory()
                store(self, name, value)
            if post_init:
                self.__post_init__()

        __init__.__qualname__ = f"{made[0].__qualname__}.__init__"
        return __init__

    def _init_source(fields: list[Field], frozen: bool, post_init: bool) -> tuple[str, dict]:
        namespace = {"__MISSING": _HAS_DEFAULT_FACTORY, "__setattr": _object_setattr}
        params, body = [], []
        seen_default = False
        for f in fields:
            if f.init:
                if f.default is not _MISSING:
                    namespace[f"default_{f.name}"] = f.default
                    params.append(f"{f.name}=default_{f.name}")
                    seen_default = True
                elif f.default_factory is not _MISSING:
                    params.append(f"{f.name}=__MISSING")
                    seen_default = True
                else:
                    if seen_default:
                        raise TypeError(f"non-default argument {f.name!r} follows default argument")
                    params.append(f.name)
            if f.default_factory is not _MISSING:
                namespace[f"factory_{f.name}"] = f.default_factory
                value = (
                    f"factory_{f.name}() if {f.name} is __MISSING else {f.name}"
                    if f.init
                    else f"factory_{f.name}()"
                )
            elif f.init:
                value = f.name
            elif f.default is not _MISSING:
                namespace[f"default_{f.name}"] = f.default
                value = f"default_{f.name}"
            else:
                continue
            body.append(
                f"__setattr(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}"
            )
        if post_init:
            body.append("self.__post_init__()")
        source = f"def __init__(self, {', '.join(params)}):\n    " + ("\n    ".join(body) or "pass")
        return source, namespace

    def _repr(self) -> str:
        shown = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in self.__dataclass_fields__.values()
            if f.repr
        )
        return f"{self.__class__.__qualname__}({shown})"

    def _comparisons(names: list[str], order: bool) -> dict:
        if len(names) == 1:
            one = attrgetter(names[0])

            def key(obj):
                return (one(obj),)

        elif names:
            key = attrgetter(*names)
        else:

            def key(obj):
                return ()

        def __eq__(self, other):
            return key(self) == key(other) if other.__class__ is self.__class__ else NotImplemented

        methods = {"__eq__": __eq__, "_record_key": key}
        if order:

            def __lt__(self, other):
                return (
                    key(self) < key(other) if other.__class__ is self.__class__ else NotImplemented
                )

            def __le__(self, other):
                return (
                    key(self) <= key(other) if other.__class__ is self.__class__ else NotImplemented
                )

            def __gt__(self, other):
                return (
                    key(self) > key(other) if other.__class__ is self.__class__ else NotImplemented
                )

            def __ge__(self, other):
                return (
                    key(self) >= key(other) if other.__class__ is self.__class__ else NotImplemented
                )

            methods.update(__lt__=__lt__, __le__=__le__, __gt__=__gt__, __ge__=__ge__)
        return methods

    def _process(cls, frozen: bool, slots: bool, eq: bool, order: bool):
        fields = _fields(cls)
        own_hash = cls.__dict__.get("__hash__", _MISSING)
        explicit_hash = not (
            own_hash is _MISSING or (own_hash is None and "__eq__" in cls.__dict__)
        )
        methods: dict = {"__dataclass_fields__": {f.name: f for f in fields}, "__repr__": _repr}
        methods["__match_args__"] = tuple(f.name for f in fields if f.init)
        if eq:
            compared = _comparisons([f.name for f in fields if f.compare], order)
            methods.update(compared)
            if frozen and not explicit_hash:
                key = compared["_record_key"]

                def __hash__(self):
                    return hash(key(self))

                methods["__hash__"] = __hash__
            elif not frozen and not explicit_hash:
                methods["__hash__"] = None
        methods.pop("_record_key", None)  # only the closures hold it
        if frozen:
            names = frozenset(f.name for f in fields)

            def __setattr__(self, name, value):
                if type(self) is record or name in names:
                    raise FrozenInstanceError(f"cannot assign to field {name!r}")
                super(record, self).__setattr__(name, value)

            def __delattr__(self, name):
                if type(self) is record or name in names:
                    raise FrozenInstanceError(f"cannot delete field {name!r}")
                super(record, self).__delattr__(name)

            methods.update(__setattr__=__setattr__, __delattr__=__delattr__)
        made = [cls]  # the record class, once made
        post_init = hasattr(cls, "__post_init__")
        if "__init__" not in cls.__dict__:
            methods["__init__"] = _init(made, fields, frozen, post_init)
        given = {"__hash__", "__dataclass_fields__", "__init__"}  # set even when cls has them
        if slots:  # a new class, made with all its methods (setting one on a class is slow)
            body = dict(cls.__dict__)
            for f in fields:
                body.pop(f.name, None)
            body.pop("__dict__", None)
            body.pop("__weakref__", None)
            inherited = {
                name for base in cls.__mro__[1:-1] for name in base.__dict__.get("__slots__", ())
            }
            body["__slots__"] = tuple(f.name for f in fields if f.name not in inherited)
            if frozen:
                body.setdefault("__getstate__", _getstate)
                body.setdefault("__setstate__", _setstate)
            body.update(
                (name, method)
                for name, method in methods.items()
                if name in given or name not in cls.__dict__
            )
            body["__qualname__"] = cls.__qualname__
            record = type(cls)(cls.__name__, cls.__bases__, body)
        else:
            record = cls
            for name, method in methods.items():
                if name in given or name not in cls.__dict__:
                    setattr(record, name, method)
        made[0] = record
        return record

    def _getstate(self):
        return [getattr(self, name) for name in self.__dataclass_fields__]

    def _setstate(self, state):
        for name, value in zip(self.__dataclass_fields__, state, strict=False):
            _object_setattr(self, name, value)

    _NOT_COPIED = frozenset(
        {"__module__", "__qualname__", "__annotations__", "__new__", "__init__", "__slots__"}
    )

    class _NamedTupleMeta(type):
        def __new__(mcls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcls, name, bases, namespace)
            fields = namespace.get("__annotations__", {})
            defaults = [namespace[field] for field in fields if field in namespace]
            made = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            made.__qualname__ = namespace["__qualname__"]
            made.__annotations__ = dict(fields)
            for key, value in namespace.items():
                if key not in fields and key not in _NOT_COPIED:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleMeta):
        """``class T(NamedTuple)``: ``T`` is a named tuple of its annotated fields."""
