"""Every rule's ``check`` is typed for its scope, so a rule author (and mypy) sees
what the engine passes: the context of a ``local`` rule holds a ``ProfileView``,
any other rule's the ``Store``; the target is the scope's model type."""

from __future__ import annotations

import inspect

from memlint.rules import registry
from memlint.rules.base import Scope

TARGET_TYPES = {
    Scope.FILE: "SourceFile",
    Scope.NOTES: "SourceFile",
    Scope.MEMORY: "Memory",
    Scope.INDEX: "Index",
    Scope.STORE: "Store",
    Scope.SUPPRESSIONS: "Directive",
    Scope.CRASH: "Crash",
}


def test_every_rule_check_is_typed_for_its_scope() -> None:
    for code, module in sorted(registry().items()):
        meta = module.META
        ctx, target = inspect.signature(module.check).parameters.values()
        context = "RuleContext[ProfileView]" if meta.local else "RuleContext[Store]"
        assert ctx.annotation == context, code
        assert target.annotation == TARGET_TYPES[meta.scope], code
        assert module.check.__annotations__["return"] == "Iterator[Diagnostic]", code
