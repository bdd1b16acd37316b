"""Rule options are declared in META (type, default, bounds, doc) and checked when the
config is loaded: a bad value, an unknown key or an unknown rule code is exit 2 naming
the file, the table and the key, never a crashed rule or a silent typo."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from memlint.cli import main
from memlint.rules import registry
from tests.helpers import write_files

SRC = Path(__file__).resolve().parents[1] / "src" / "memlint"
STORE = {
    "mem/MEMORY.md": "- [A](a.md) — a memory\n",
    "mem/a.md": "---\nname: a\ndescription: a memory\nmetadata:\n  type: user\n---\nBody.\n",
}


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_with_config(store, capsys, config: str) -> tuple[int, str, str]:
    (store / ".memlint.toml").write_text(config, encoding="utf-8")
    code = main(["check", "mem", "--no-cache"])
    captured = capsys.readouterr()
    return code, captured.err, captured.out


@pytest.mark.parametrize(
    ("config", "names"),
    [
        ('[rules.IX007]\nmax-length = "abc"\n', ("[rules.IX007] max-length", 'got "abc"')),
        ("[rules.IX007]\nmax-length = -5\n", ("[rules.IX007] max-length", "at least 1")),
        ("[rules.NT012]\nmax-length = 0\n", ("[rules.NT012] max-length", "at least 1")),
        ("[rules.DU001]\nthreshold = 1.5\n", ("[rules.DU001] threshold", "at most 1.0")),
        ("[rules.ID005]\nallow-underscore = 1\n", ("[rules.ID005] allow-underscore", "true")),
        ('[rules.IX008]\nsize-unit = "chars"\n', ("[rules.IX008] size-unit", '"utf-16"')),
        ("[rules.PV004]\nallow-domains = [1]\n", ("[rules.PV004] allow-domains", "strings")),
        ("[rules.IX007]\nmax-lenght = 90\n", ("[rules.IX007]", "unknown option `max-lenght`")),
        ("[rules.IX777]\nmax-length = 90\n", ("[rules]", "`IX777` is not a rule code")),
        ('[severity]\nIX999 = "error"\n', ("[severity]", "`IX999`")),
        ('[severity]\nix001 = "error"\n', ("[severity]", "`ix001`")),
        ('[per-file-ignores]\n"a.md" = ["QQ1"]\n', ("[per-file-ignores] 'a.md'", "`QQ1`")),
        ('ignore = ["IX0077"]\n', ("ignore", "`IX0077`")),
    ],
)
def test_a_bad_config_is_exit_2_naming_file_table_and_key(store, capsys, config, names):
    code, err, _ = run_with_config(store, capsys, config)
    assert code == 2
    assert err.startswith(f"memlint: error: {store / '.memlint.toml'}: "), err
    for name in names:
        assert name in err
    assert "MX002" not in err and "Traceback" not in err


def test_valid_options_and_prefixes_are_accepted(store, capsys):
    config = (
        'ignore = ["PV", "FS0"]\n[[stores]]\npath = "mem"\nprofile = "typed"\n'
        '[severity]\nIX007 = "error"\n'
        '[per-file-ignores]\n"a.md" = ["FM"]\n'
        "[rules.IX007]\nmax-length = 10\n[rules.DU001]\nthreshold = 1\n"
        '[rules.PV004]\nallow-domains = "example.com"\n'
    )
    code, err, out = run_with_config(store, capsys, config)
    assert "error:" not in err
    # IX007 runs with its checked option: the 24-character entry line is over 10
    assert code == 1 and "IX007" in out


def test_every_declared_default_passes_its_own_check():
    for module in registry().values():
        for option in module.META.options:
            assert option.parse(option.default) == option.default, (module.META.code, option)


def test_memlint_rule_lists_the_options(capsys):
    assert main(["rule", "IX007"]) == 0
    text = capsys.readouterr().out
    assert "Options, under `[rules.IX007]`:" in text
    assert "- `max-length` (integer, default 150, >= 1): the longest entry line" in text
    assert main(["rule", "DU001", "--output-format", "json"]) == 0
    details = json.loads(capsys.readouterr().out)["option_details"]
    assert details[0] == {
        "name": "threshold",
        "type": "number",
        "default": 0.8,
        "minimum": 0.0,
        "maximum": 1.0,
        "doc": "the similarity reported",
    }


# Left (issue 15): these read another rule's options through ``ctx.options_of``. TY001/
# TY002/TY003 share the section `labels` (a fix adds both sections, TY003 checks both);
# IX010 (ix/content.py) and ix/resolve.py cut at IX008's budget; IX013 and ix/resolve.py
# wrap at IX007's `max-length`. The labels, the loader budget and the line length belong
# to the profile, not to one rule.
READS_OTHER_RULES = {
    "ty/sections.py",
    "ix/content.py",
    "ix/resolve.py",
    "ix/ix013_unlinked_index_entry.py",
}


def test_no_rule_reads_another_rules_options():
    """Only ``ctx.options`` (the rule's own, merged by RuleContext in base.py) is read in
    the rule layer: ``settings.options_for`` or ``ctx.options_of`` elsewhere reads some
    other rule's options."""
    offenders = []
    for path in sorted((SRC / "rules").rglob("*.py")):
        if path.name == "base.py":
            continue
        rel = path.relative_to(SRC / "rules").as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("options_for", "options_of"):
                offenders.append(rel)
    assert sorted(set(offenders) - READS_OTHER_RULES) == []
    assert set(offenders) == READS_OTHER_RULES, "the allowlist has a stale entry"


def test_index_near_budget_measures_against_the_loaders_budget(store, capsys):
    """IX009 does not move with IX008's options: a 150-line index warns (over 140) even
    when IX008 is configured to a 100-line budget of another loader."""
    lines = "".join(f"- [M{i}](m{i}.md) — memory {i}\n" for i in range(150))
    (store / "mem" / "MEMORY.md").write_text(lines, encoding="utf-8")
    (store / ".memlint.toml").write_text(
        '[[stores]]\npath = "mem"\nprofile = "typed"\n[rules.IX008]\nmax-lines = 100\n',
        encoding="utf-8",
    )
    main(["check", "mem", "--no-cache", "--select", "IX008,IX009", "--output-format", "json"])
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert codes == {"IX008", "IX009"}
