"""memlint.records gives a class what dataclasses would give it, for every
combination of options memlint uses: the same repr, equality, hash values,
ordering, frozen errors, defaults, replace() and pickled state; and NamedTuple
makes what typing.NamedTuple makes."""

from __future__ import annotations

import dataclasses
import pickle
import sys

import pytest

from memlint import records

OPTIONS = [
    {},
    {"frozen": True},
    {"slots": True},
    {"frozen": True, "slots": True},
    {"frozen": True, "slots": True, "order": True},
    {"eq": False},
    {"slots": True, "eq": False},
]
SOURCE = """
class Sample:
    '''A record.'''

    a: int
    b: str = "x"
    c: list = field(default_factory=list, compare=False)
    d: tuple = field(default=(), repr=False, compare=False)
    e: object = field(default=None, init=False, repr=False)

    def first(self):
        return self.a
"""


def define(module, options: dict) -> type:
    namespace = {"field": module.field, "__name__": __name__}
    exec(SOURCE, namespace)
    made = module.dataclass(**options)(namespace["Sample"])
    made.__qualname__ = made.__name__ = f"Sample_{module.__name__.split('.')[-1]}_{id(made)}"
    setattr(sys.modules[__name__], made.__qualname__, made)  # picklable by name
    return made


def behaviour(cls: type, replace, options: dict) -> dict:
    one, same, other = cls(1, "y", [1], (2,)), cls(1, "y", [2], (3,)), cls(2)
    seen = {
        "repr": repr(one).split("(", 1)[1],
        "equal": (one == same, one == other, one == 1),
        "hashable": cls.__hash__ is not None,
        "match_args": cls.__match_args__,
        "has_dict": hasattr(one, "__dict__"),
        "fresh_default": cls(1).c is not cls(1).c,
        "not_init": one.e,
        "replace": repr(replace(one, b="z")).split("(", 1)[1],
        "method": one.first(),
        "class_default": None if options.get("slots") else getattr(cls, "b", "-"),
        "pickle": repr(pickle.loads(pickle.dumps(one))) == repr(one),
    }
    if options.get("frozen") and options.get("eq", True):
        seen["hash"] = (hash(one), hash(one) == hash(same))
    if options.get("order"):
        seen["order"] = (cls(1) < cls(2), cls(2) <= cls(1), [x.a for x in sorted([cls(3), cls(1)])])
    try:
        one.a = 5
        seen["assign"] = one.a
    except AttributeError as exc:
        seen["assign"] = str(exc)
    return seen


@pytest.mark.parametrize("compile_after", [0, 1000], ids=["compiled", "planned"])
@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_a_record_behaves_as_a_dataclass(options: dict, compile_after: int, monkeypatch) -> None:
    """Whether its ``__init__`` is compiled or still made by the plan of its fields."""
    monkeypatch.setattr(records, "COMPILE_AFTER", compile_after)
    expected = behaviour(define(dataclasses, options), dataclasses.replace, options)
    assert behaviour(define(records, options), records.replace, options) == expected


def test_named_tuple_is_typing_s() -> None:
    import typing

    source = 'class Pair(Base):\n    """Two."""\n\n    left: int\n    right: str = "r"\n'
    made = []
    for base in (typing.NamedTuple, records.NamedTuple):
        namespace = {"Base": base, "__name__": __name__}
        exec(source, namespace)
        made.append(namespace["Pair"])
    theirs, ours = made
    assert ours._fields == theirs._fields and ours._field_defaults == theirs._field_defaults
    assert ours.__doc__ == theirs.__doc__ and list(ours.__annotations__) == list(
        theirs.__annotations__
    )
    assert repr(ours(1)) == repr(theirs(1)) and ours(1) == theirs(1) == (1, "r")
    assert issubclass(ours, tuple) and ours(1, "x")._replace(left=2) == (2, "x")


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_a_record_class_compiles_its_init_once_it_has_made_many_records(
    options: dict, monkeypatch
) -> None:
    """A run defines some forty record classes and makes a few records of most of them:
    defining one compiles nothing, nor do its first ``COMPILE_AFTER`` records; the next
    compiles its ``__init__`` once. A call the plan cannot bind fails as Python's would."""
    compiled: list[str] = []

    def counted_exec(source, namespace):
        compiled.append(source)
        exec(source, namespace)

    monkeypatch.setattr(records, "exec", counted_exec, raising=False)
    monkeypatch.setattr(records, "COMPILE_AFTER", 3)
    made = define(records, options)
    assert [made(n, b="y").a for n in range(3)] == [0, 1, 2]
    assert compiled == []
    assert made(3, "y", [], ()).a == made(4).a - 1
    assert len(compiled) == 1
    with pytest.raises(TypeError, match=r"__init__\(\) missing 1 required positional"):
        made()


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((1,), {"a": 1}), ((1,), {"z": 1}), ((1, "b", [], (), 5), {}), ((), {"e": 1})],
)
def test_a_call_the_plan_cannot_bind_raises_pythons_type_error(args, kwargs) -> None:
    expected = define(dataclasses, {})
    made = define(records, {})
    with pytest.raises(TypeError) as theirs:
        expected(*args, **kwargs)
    with pytest.raises(TypeError) as ours:
        made(*args, **kwargs)
    assert str(ours.value).split("__init__", 1)[1] == str(theirs.value).split("__init__", 1)[1]
