"""Rule documentation: docstring sections, ``docs/rules.md`` freshness, runnable examples."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from memlint.rules import registry
from tests.helpers import lint_files

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Fix safety")
EXAMPLE_BLOCK = re.compile(
    r"^```memlint-(bad|good|file) path=(\S{1,200})[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S
)


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_rule_docs", ROOT / "scripts" / "gen_rule_docs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rules_md_is_up_to_date():
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == _generator().render(), "run: python scripts/gen_rule_docs.py"


@pytest.mark.parametrize("code", sorted(registry()))
def test_docstring_has_the_four_sections_in_order(code):
    doc = registry()[code].__doc__ or ""
    lines = doc.splitlines()
    positions = [lines.index(section) if section in lines else -1 for section in SECTIONS]
    assert -1 not in positions, f"{code} lacks {SECTIONS[positions.index(-1)]}"
    assert positions == sorted(positions), f"{code}: sections out of order"


def example_files(doc: str) -> dict[str, dict[str, str]]:
    """``{"bad": {path: text}, "good": {...}, "file": {...}}`` from the Example section."""
    section = doc.split("## Example", 1)[-1].split("\n## ", 1)[0]
    found: dict[str, dict[str, str]] = {"bad": {}, "good": {}, "file": {}}
    for kind, path, body in EXAMPLE_BLOCK.findall(section):
        found[kind][path] = body
    return found


# Rules whose bad case cannot be written as text in a docstring; their examples are prose.
PROSE_EXAMPLES = {
    "FS001": "needs an unreadable file",
    "FS002": "needs bytes that are not UTF-8",
    "FS003": "needs a byte order mark",
    "FS004": "needs NUL bytes or UTF-16",
    "FS005": "needs a file over 1 MiB",
    "FS006": "needs a symlink",
    "FS007": "needs a FIFO or a directory named *.md",
    "FS008": "example blocks always end with a newline",
    "FS009": "needs a raw carriage return",
    "FS011": "a file named `.md` cannot be an example block's path",
    "GT001": "needs git state and a local-only store",
    "IX001": "the example runner always provides MEMORY.md",
    "IX008": "needs a 200-line index",
    "IX009": "needs a 140-line index",
    "MX002": "needs a crashing rule",
    "NT003": "example blocks always end with a newline",
    "NT016": "needs git history",
}


def test_prose_examples_are_the_exceptions():
    runnable = {
        code
        for code, module in registry().items()
        if all(example_files(module.__doc__ or "")[kind] for kind in ("bad", "good"))
    }
    assert set(registry()) - runnable == set(PROSE_EXAMPLES)


@pytest.mark.parametrize("code", sorted(set(registry()) - set(PROSE_EXAMPLES)))
def test_documented_example(tmp_path, code):
    files = example_files(registry()[code].__doc__ or "")
    for kind, expect_findings in (("bad", True), ("good", False)):
        store = {"MEMORY.md": "# Memory\n", **files["file"], **files[kind]}
        found = lint_files(tmp_path / kind, store, select=[code])
        assert bool([d for d in found if d.code == code]) is expect_findings, (kind, found)


def test_example_parser():
    doc = "## Example\n```memlint-bad path=a.md\nx\n```\n```memlint-file path=MEMORY.md\n# M\n```\n"
    assert example_files(doc) == {
        "bad": {"a.md": "x\n"},
        "good": {},
        "file": {"MEMORY.md": "# M\n"},
    }
