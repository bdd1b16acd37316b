"""Every test that reads ../shared carries the ``shared`` marker, so that it skips, saying
why, when ../shared is absent (tests/conftest.py) and ``-m 'not shared'`` runs the core
suite. Read with ast: a test reads ../shared when its body, arguments or decorators use
``SHARED`` (from tests/helpers.py), a name derived from it, or a fixture that does."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# What reads ../shared: the path, its check, the corpus generator and its fixture.
SHARED_NAMES = frozenset({"SHARED", "shared_available", "generate_hostile", "hostile_corpus"})


def used_names(node: ast.AST) -> set[str]:
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if isinstance(node, ast.FunctionDef):
        names |= {a.arg for a in node.args.args}
    return names


def is_marked(decorators: list[ast.expr]) -> bool:
    return any("pytest.mark.shared" in ast.unparse(d) for d in decorators)


def unmarked_readers(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    readers = set(SHARED_NAMES)
    module_marked = False
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    for _ in range(3):  # names derived from derived names, fixtures using fixtures
        for node in tree.body:
            if isinstance(node, ast.Assign) and used_names(node.value) & readers:
                readers |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for function in functions:
            if not function.name.startswith("test_") and used_names(function) & readers:
                readers.add(function.name)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            module_marked = "pytest.mark.shared" in ast.unparse(node.value)
    return [
        function.name
        for function in functions
        if function.name.startswith("test_")
        and used_names(function) & readers
        and not (module_marked or is_marked(function.decorator_list))
    ]


def test_every_test_reading_shared_is_marked():
    found = {
        str(path.relative_to(TESTS)): names
        for path in sorted(TESTS.rglob("test_*.py"))
        if path.name != "test_shared_marker.py" and (names := unmarked_readers(path))
    }
    assert found == {}


def test_an_unmarked_reader_is_found(tmp_path):
    module = tmp_path / "test_example.py"
    module.write_text(
        "import pytest\nfrom tests.helpers import SHARED\nREAL = SHARED / 'corpus'\n\n"
        "def stores():\n    return list(REAL.iterdir())\n\n"
        "def test_reads():\n    assert stores()\n\n"
        "@pytest.mark.shared\ndef test_marked():\n    assert REAL\n\n"
        "def test_core():\n    assert True\n",
        encoding="utf-8",
    )
    assert unmarked_readers(module) == ["test_reads"]
