"""The import graph of src/memlint, read with ast (nothing is imported): no circle among
module-level imports, the rule layer imports only rules, the model and the helpers below
them, and no module imports another module's private name.

Function-level (lazy) imports run later, so they cannot deadlock an import; they still
tie modules together, so their circles are listed below and a new one fails the test.
Imports made only for type checking (under ``if TYPE_CHECKING:``) never run: they close
no circle, but the rule layer may not reach above itself through them either."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# Circles through lazy imports: none (privacy <-> textutil was the last, issue 15).
KNOWN_LAZY_CIRCLES: set[frozenset[str]] = set()

# What a rule may import besides memlint.rules.*: the model and the helpers below it.
MODEL = {"memlint", "memlint.diagnostics", "memlint.store"}
HELPERS = {
    "memlint.budget",
    "memlint.codecache",
    "memlint.gitbase",
    "memlint.privacy",
    "memlint.records",
    "memlint.rfc3339",
    "memlint.selection",
    "memlint.similarity",
    "memlint.suppression",
    "memlint.textutil",
}
# The model still reaches the cache, the parser and the settings (store -> cache, parse,
# config): what the rule layer may reach at all, through any chain of imports.
BELOW_RULES = (
    MODEL
    | HELPERS
    | {"memlint.cache", "memlint.cachedir", "memlint.config", "memlint.parallel", "memlint.parse"}
    | {"memlint.treenames"}
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in (SRC / "memlint").rglob("*.py")}


def owner(name: str) -> str | None:
    """The module of ``name`` (a module, or a name inside one), or None outside memlint."""
    while name not in MODULES:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def imports(module: str, lazy: bool, typing: bool = True) -> list[tuple[str, str | None]]:
    """``(imported module, imported name or None)`` of ``module``: the module-level
    imports (in ``if``/``try`` blocks too, not under ``TYPE_CHECKING``), or every import
    (those under ``TYPE_CHECKING`` only with ``typing``)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if lazy:
        nodes = list(ast.walk(tree))
        if not typing:
            checking = {
                id(node)
                for block in nodes
                if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                for statement in block.body
                for node in ast.walk(statement)
            }
            nodes = [node for node in nodes if id(node) not in checking]
    else:
        nodes, stack = [], list(tree.body)
        while stack:
            node = stack.pop()
            nodes.append(node)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.If | ast.Try):
                stack.extend(node.body + node.orelse)
            if isinstance(node, ast.Try):
                stack.extend(node.finalbody + [s for h in node.handlers for s in h.body])
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, str | None]] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found.extend((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append((full, None) if full in MODULES else (base, alias.name))
    return [(owner(target), name) for target, name in found if owner(target) not in (None, module)]


def graph(lazy: bool, typing: bool = True) -> dict[str, set[str]]:
    return {module: {target for target, _ in imports(module, lazy, typing)} for module in MODULES}


def circles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_at_module_level():
    assert circles(graph(lazy=False)) == set()


def test_lazy_import_circles_are_the_known_ones():
    assert circles(graph(lazy=True, typing=False)) == KNOWN_LAZY_CIRCLES


def test_rules_import_only_rules_the_model_and_helpers_below():
    edges = graph(lazy=True)
    rules = [m for m in MODULES if m.startswith("memlint.rules")]
    direct = {
        (module, target)
        for module in rules
        for target in edges[module]
        if not target.startswith("memlint.rules")
        and target not in MODEL | HELPERS
        and not target.startswith("memlint.sources")
    }
    assert direct == set()
    reached, todo = set(), [t for m in rules for t in edges[m] if not t.startswith("memlint.rules")]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(t for t in edges[module] if not t.startswith("memlint.rules"))
    above = {m for m in reached if m not in BELOW_RULES and not m.startswith("memlint.sources")}
    assert above == set()


def test_no_private_name_is_imported_across_modules():
    found = {
        (module, target, name)
        for module in MODULES
        for target, name in imports(module, lazy=True)
        if name and name.startswith("_") and not name.startswith("__")
    }
    assert found == set()
