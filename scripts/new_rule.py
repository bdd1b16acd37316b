"""Scaffold a new rule: its module, its registry entry and its case file.

Usage: ``python scripts/new_rule.py CT004 stale-claim --summary "Memory states ..."``

Writes ``src/memlint/rules/<family>/<code>_<name>.py`` (``META``, the docstring sections
What it does / Why is this bad? / Example / Fix safety, and a working ``check`` of the
MEMORY scope to rewrite), adds the module to its family's ``RULES`` and writes
``tests/rules/cases/<CODE>.yml`` with a failing and a passing case. The family must
exist; ``--root`` names another checkout (the tests scaffold into a copy). Next steps are
printed at the end; CONTRIBUTING.md lists them too.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = re.compile(r"[A-Z]{2}[0-9]{3}")
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")

MODULE = '''"""## What it does
Reports a memory whose body still holds a `FIXME` marker.

(Rewrite this section, the example and `check` for your rule.)

## Why is this bad?
The agent loads the memory as settled fact, marker and all; a reader cannot
tell which part is unfinished.

## Example
```memlint-bad path=project_launch.md
---
name: Launch
description: When the product launches
type: project
---

FIXME: the launch moved to June.
```

Use instead:
```memlint-good path=project_launch.md
---
name: Launch
description: When the product launches
type: project
---

The launch moved to June.
```

## Fix safety
No fix: what the memory should say is the author's choice.
"""

from __future__ import annotations

import re

from memlint.diagnostics import Severity
from memlint.rules.base import LINKED_TYPED, RuleMeta, Scope

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

    from memlint.diagnostics import Diagnostic
    from memlint.rules.base import ProfileView, RuleContext
    from memlint.store import Memory

META = RuleMeta(
    code="{code}",
    name="{name}",
    summary={summary},
    severity=Severity.WARNING,
    scope=Scope.MEMORY,
    profiles=LINKED_TYPED,
    local=True,  # reads nothing but its memory: cached per file, may run in a worker
)

MARKER = re.compile(r"\\bFIXME\\b")


def check(ctx: RuleContext[ProfileView], memory: Memory) -> Iterator[Diagnostic]:
    text = memory.file.text or ""
    found = MARKER.search(text, memory.body_start)
    if found:
        message = "memory body holds a `FIXME` marker"
        yield ctx.report(memory.file, found.start(), found.end(), message)
'''

CASES = """rule: {code}
cases:
  marker_is_reported:
    files:
      "MEMORY.md": "- [A](a.md) — a\\n"
      "a.md": "---\\nname: a\\ndescription: d\\nmetadata:\\n  type: user\\n---\\nFIXME: body.\\n"
    expect: [["a.md", 7, 1]]
  finished_memory_passes:
    files:
      "MEMORY.md": "- [A](a.md) — a\\n"
      "a.md": "---\\nname: a\\ndescription: d\\nmetadata:\\n  type: user\\n---\\nBody.\\n"
    expect: []
"""

NEXT_STEPS = """wrote {module}
wrote {cases}
registered {entry} in {family_init}
next:
  1. rewrite the docstring, META and check of {module_name} (and the cases)
  2. python scripts/gen_rule_docs.py && python -m memlint.ruledoc
  3. MEMLINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_message_snapshots.py
  4. python -m pytest && ruff check . && ruff format --check .
"""


class ScaffoldError(Exception):
    """A code, name or family the scaffold refuses (exit status 2)."""


def scaffold(root: Path, code: str, name: str, summary: str) -> str:
    """Write the rule ``code`` into the checkout at ``root``; the next steps to print."""
    if not CODE.fullmatch(code):
        raise ScaffoldError(f"`{code}` is not a rule code (two capitals and three digits)")
    if not NAME.fullmatch(name):
        raise ScaffoldError(f"`{name}` is not a rule name (lower-case words joined by '-')")
    family = code[:2].lower()
    family_init = root / "src" / "memlint" / "rules" / family / "__init__.py"
    if not family_init.is_file():
        raise ScaffoldError(f"no family `{family}` (rules/{family}/__init__.py)")
    entry = f"{code.lower()}_{name.replace('-', '_')}"
    rules = registered(family_init)
    taken = [r for r in rules if r.startswith(code.lower() + "_")]
    if taken:
        raise ScaffoldError(f"{code} is taken by {taken[0]}")
    module = family_init.parent / f"{entry}.py"
    cases = root / "tests" / "rules" / "cases" / f"{code}.yml"
    for path in (module, cases):
        if path.exists():
            raise ScaffoldError(f"{path} exists")
    module.write_text(
        MODULE.format(code=code, name=name, summary=json.dumps(summary, ensure_ascii=False)),
        encoding="utf-8",
    )
    cases.write_text(CASES.format(code=code), encoding="utf-8")
    register(family_init, sorted([*rules, entry]))
    return NEXT_STEPS.format(
        module=module,
        cases=cases,
        entry=entry,
        family_init=family_init,
        module_name=module.name,
    )


def registered(family_init: Path) -> list[str]:
    """The module names in the family's ``RULES`` tuple."""
    node = rules_node(family_init)
    return [ast.literal_eval(element) for element in node.value.elts]


def register(family_init: Path, names: list[str]) -> None:
    """Rewrite the family's ``RULES`` tuple as ``names``, one per line."""
    node = rules_node(family_init)
    lines = family_init.read_text(encoding="utf-8").splitlines(keepends=True)
    block = ["RULES = (\n", *(f'    "{name}",\n' for name in names), ")\n"]
    lines[node.lineno - 1 : node.end_lineno] = block
    family_init.write_text("".join(lines), encoding="utf-8")


def rules_node(family_init: Path) -> ast.Assign:
    tree = ast.parse(family_init.read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == ["RULES"]
            and isinstance(node.value, ast.Tuple)
        ):
            return node
    raise ScaffoldError(f"{family_init} has no RULES tuple")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("code", help="the new rule's code, e.g. CT004 (its family must exist)")
    parser.add_argument("name", help="its name, lower-case words joined by '-'")
    parser.add_argument("--summary", required=True, help="one line: what it reports")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to write into")
    args = parser.parse_args(argv)
    try:
        print(scaffold(args.root, args.code, args.name, args.summary), end="")
    except ScaffoldError as exc:
        print(f"new_rule: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
