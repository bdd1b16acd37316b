"""Rule options are declared in META (type, default, bounds, doc) and checked when the
config is loaded: a bad value, an unknown key or an unknown rule code is exit 2 naming
the file, the table and the key, never a crashed rule or a silent typo."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from memlint.cli import main
from memlint.config import Settings
from memlint.rules import registry, shared
from memlint.rules.base import RuleContext
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
    assert main(["rule", "IX009"]) == 0
    text = capsys.readouterr().out
    assert "Options, under `[rules.IX009]`:" in text
    assert "- `warn-lines` (integer, default 140, >= 1): the line count warned about" in text
    assert main(["rule", "IX007"]) == 0
    text = capsys.readouterr().out
    assert "Shared settings it reads, under `[shared]`:" in text
    assert (
        "- `index-line-length` (integer, default 150, >= 1): the longest index entry line, "
        "in characters (also read from `[rules.IX007] max-length`)"
    ) in text
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


def test_no_rule_reads_another_rules_options():
    """Only ``ctx.options`` (the rule's own, merged by RuleContext in base.py) and
    ``ctx.shared`` (the ``[shared]`` settings) are read in the rule layer:
    ``settings.options_for`` or an ``options_of`` reads some other rule's options."""
    offenders = []
    for path in sorted((SRC / "rules").rglob("*.py")):
        if path.name == "base.py":
            continue
        rel = path.relative_to(SRC / "rules").as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("options_for", "options_of"):
                offenders.append(rel)
    assert offenders == []


def test_each_rule_names_the_shared_settings_it_reads():
    """``ctx.shared(name)`` of a name the rule's META.shared does not name is refused,
    and every name a rule module passes to it is one its META names."""
    module = registry()["IX009"]
    ctx = RuleContext(None, Settings(), module.META)
    with pytest.raises(KeyError, match="IX009 reads `loader-max-lines`"):
        ctx.shared("loader-max-lines")
    for code, module in registry().items():
        assert set(module.META.shared) <= set(shared.SHARED), code
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "shared"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                assert node.args[0].value in module.META.shared, (code, node.args[0].value)


LONG_INDEX = "".join(f"- [M{i}](m{i}.md) — memory {i}\n" for i in range(6))
FACTS = "- the deploy key rotates monthly\n"


@pytest.mark.parametrize(
    "config",
    [
        "[shared]\nloader-max-lines = 4\n",
        "[rules.IX008]\nmax-lines = 4\n",  # its name before it was shared: the same value
        "[rules.IX008]\nmax-lines = 4\n[shared]\nloader-max-lines = 4\n",
    ],
)
def test_the_loader_budget_is_one_shared_setting(store, capsys, config):
    """IX008 cuts, IX010 stops looking, and --show-loaded cuts, at one place."""
    (store / "mem" / "MEMORY.md").write_text(LONG_INDEX + FACTS, encoding="utf-8")
    (store / ".memlint.toml").write_text(
        '[[stores]]\npath = "mem"\nprofile = "typed"\n' + config, encoding="utf-8"
    )
    main(["check", "mem", "--no-cache", "--select", "IX008,IX010", "--output-format", "json"])
    found = json.loads(capsys.readouterr().out)
    assert {d["code"] for d in found} == {"IX008"}  # the facts line is past the cut
    assert min(d["location"]["row"] for d in found) == 5
    main(["check", "mem", "--no-cache", "--show-loaded"])
    assert "cut: 7 lines, over the 4-line limit" in capsys.readouterr().out


def test_without_the_shared_budget_the_loader_keeps_the_facts_line(store, capsys):
    (store / "mem" / "MEMORY.md").write_text(LONG_INDEX + FACTS, encoding="utf-8")
    (store / ".memlint.toml").write_text(
        '[[stores]]\npath = "mem"\nprofile = "typed"\n', encoding="utf-8"
    )
    main(["check", "mem", "--no-cache", "--select", "IX008,IX010", "--output-format", "json"])
    assert {d["code"] for d in json.loads(capsys.readouterr().out)} == {"IX010"}


@pytest.mark.parametrize(
    ("config", "names"),
    [
        ("[shared]\nloader-max-line = 4\n", ("[shared]", "unknown setting `loader-max-line`")),
        ("[shared]\nindex-line-length = 0\n", ("[shared] index-line-length", "at least 1")),
        ("[shared]\nwhy-labels = [1]\n", ("[shared] why-labels", "strings")),
        (
            "[rules.IX007]\nmax-length = 90\n[shared]\nindex-line-length = 80\n",
            ("[shared] index-line-length differs from [rules.IX007] max-length",),
        ),
    ],
)
def test_a_bad_shared_setting_is_exit_2(store, capsys, config, names):
    code, err, _ = run_with_config(store, capsys, config)
    assert code == 2
    for name in names:
        assert name in err


def test_section_labels_are_shared_by_the_ty_rules(store, capsys):
    """A localized Why label is one setting: TY001 finds the section and TY003 rewrites its
    full-width colon; the old `[rules.TY001] labels` spelling means the same."""
    memory = (
        "---\nname: a\ndescription: a memory\ntype: feedback\n---\nBody.\n\n"
        "**Почему**： reason.\n**How to apply:** always.\n"
    )
    (store / "mem" / "a.md").write_text(memory, encoding="utf-8")
    for config in ('[shared]\nwhy-labels = ["Почему"]\n', '[rules.TY001]\nlabels = ["Почему"]\n'):
        (store / ".memlint.toml").write_text(
            '[[stores]]\npath = "mem"\nprofile = "typed"\n' + config, encoding="utf-8"
        )
        main(["check", "mem", "--no-cache", "--select", "TY", "--output-format", "json"])
        assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["TY003"]


def test_index_near_budget_measures_against_the_loaders_budget(store, capsys):
    """IX009 does not move with the shared loader budget: a 150-line index warns (over
    140) even when `loader-max-lines` is a 100-line budget of another loader."""
    lines = "".join(f"- [M{i}](m{i}.md) — memory {i}\n" for i in range(150))
    (store / "mem" / "MEMORY.md").write_text(lines, encoding="utf-8")
    (store / ".memlint.toml").write_text(
        '[[stores]]\npath = "mem"\nprofile = "typed"\n[rules.IX008]\nmax-lines = 100\n',
        encoding="utf-8",
    )
    main(["check", "mem", "--no-cache", "--select", "IX008,IX009", "--output-format", "json"])
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    assert codes == {"IX008", "IX009"}
