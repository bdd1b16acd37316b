"""scripts/new_rule.py scaffolds a rule into a copy of the package: the module imports,
the registry lists it, its documented example and its case file run, and it is formatted."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Run in the copy: the scaffolded rule is registered, its doc example finds the bad
# file and passes the good one, and each of its cases gives what it expects.
CHECK_THE_COPY = """
import json, sys
from pathlib import Path
import yaml
from memlint.rules import registry, rule_names
from tests.helpers import lint_files
from tests.test_rule_docs import example_files

code, tmp, cases = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
module = registry()[code]
files = example_files(module.__doc__)
result = {"name": rule_names()[code], "file": module.__file__, "example": {}, "cases": {}}
result["check"] = module.check.__annotations__
for kind in ("bad", "good"):
    store = {"MEMORY.md": "# Memory\\n", **files["file"], **files[kind]}
    found = lint_files(tmp / kind, store, select=[code])
    result["example"][kind] = [d.message for d in found if d.code == code]
for name, case in yaml.safe_load(cases.read_text(encoding="utf-8"))["cases"].items():
    found = lint_files(tmp / name, case["files"], select=[code])
    got = [[d.display_path, d.range.start.line, d.range.start.column] for d in found]
    result["cases"][name] = got == case["expect"]
print(json.dumps(result))
"""


def load_scaffold():
    spec = importlib.util.spec_from_file_location("new_rule", ROOT / "scripts" / "new_rule.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A copy of the package, the tests it needs and an empty case folder."""
    copy = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "src", copy / "src", ignore=ignore)
    for name in ("__init__.py", "helpers.py", "test_rule_docs.py"):
        (copy / "tests").mkdir(exist_ok=True)
        shutil.copy(ROOT / "tests" / name, copy / "tests" / name)
    (copy / "tests" / "rules" / "cases").mkdir(parents=True)
    shutil.copytree(ROOT / "bench", copy / "bench", ignore=ignore)  # tests.helpers reads it
    return copy


def test_scaffolded_rule_imports_registers_and_its_examples_run(checkout, tmp_path):
    script = ROOT / "scripts" / "new_rule.py"
    args = ["CT099", "fixme-marker", "--summary", "Memory holds a FIXME marker"]
    done = subprocess.run(
        [sys.executable, str(script), *args, "--root", str(checkout)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "ct099_fixme_marker" in done.stdout and "gen_rule_docs.py" in done.stdout
    env = {**os.environ, "PYTHONPATH": f"{checkout / 'src'}{os.pathsep}{checkout}"}
    cases = checkout / "tests" / "rules" / "cases" / "CT099.yml"
    run = subprocess.run(
        [sys.executable, "-c", CHECK_THE_COPY, "CT099", str(tmp_path / "runs"), str(cases)],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    module = checkout / "src" / "memlint" / "rules" / "ct" / "ct099_fixme_marker.py"
    assert result["name"] == "ct.ct099_fixme_marker"
    assert Path(result["file"]) == module  # the copy's module, not the checkout's
    assert result["example"] == {"bad": ["memory body holds a `FIXME` marker"], "good": []}
    assert result["cases"] == {"marker_is_reported": True, "finished_memory_passes": True}
    assert result["check"] == {  # typed as tests/test_rule_signatures.py wants it
        "ctx": "RuleContext[ProfileView]",
        "memory": "Memory",
        "return": "Iterator[Diagnostic]",
    }
    text = module.read_text(encoding="utf-8")
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety"):
        assert section in text
    ruff = shutil.which("ruff")
    if ruff:
        family = module.parent / "__init__.py"
        lint = subprocess.run([ruff, "check", "--isolated", "--line-length", "100", module])
        form = subprocess.run(
            [ruff, "format", "--check", "--isolated", "--line-length", "100", module, family]
        )
        assert lint.returncode == 0 and form.returncode == 0


@pytest.mark.parametrize(
    ("code", "name", "error"),
    [
        ("CT1", "x", "not a rule code"),
        ("CT099", "Bad_Name", "not a rule name"),
        ("QQ001", "x", "no family `qq`"),
        ("CT001", "again", "CT001 is taken by ct001_empty_memory"),
    ],
)
def test_the_scaffold_refuses_a_bad_code_or_name(checkout, capsys, code, name, error):
    scaffold = load_scaffold()
    assert scaffold.main([code, name, "--summary", "s", "--root", str(checkout)]) == 2
    assert error in capsys.readouterr().err
    assert not list((checkout / "tests" / "rules" / "cases").iterdir())
