"""A run imports and computes only what its selected rules need: the registry
knows codes without importing rules, note rules stay unimported for a store
without a note store, and near-duplicate fingerprints are computed only when
DU001 runs. Results do not change."""

from __future__ import annotations

import importlib
import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import memlint
from memlint.cli import main
from memlint.rules import (
    CRASH_RULE,
    FAMILIES,
    NOTES_FAMILIES,
    OFF_BY_DEFAULT,
    UNUSED_SUPPRESSION_RULE,
    registry,
    rule_name,
    rule_names,
)
from memlint.rules.base import Scope

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "store"


def test_rule_names_are_the_modules_codes_each_once() -> None:
    modules = registry()
    assert set(modules) == set(rule_names())
    listed = [importlib.import_module(f"memlint.rules.{f}").RULES for f in FAMILIES]
    assert len(rule_names()) == sum(map(len, listed))
    for code, module in modules.items():
        assert module.META.code == code
        assert module.__name__ == f"memlint.rules.{rule_names()[code]}"


def test_off_by_default_and_note_families_match_the_rules_meta() -> None:
    modules = registry()
    assert {code for code, m in modules.items() if not m.META.default_enabled} == OFF_BY_DEFAULT
    for code, name in rule_names().items():
        if name.split(".")[0] in NOTES_FAMILIES:
            assert modules[code].META.scope is Scope.NOTES, code
    # the engine runs these on JSONL files of any schema, with the other local rules
    for code, module in modules.items():
        if module.META.any_jsonl:
            assert module.META.scope is Scope.NOTES and module.META.local, code


def test_the_engines_own_findings_go_to_the_rules_of_their_scope() -> None:
    """The registry names the rules the engine hands unused suppressions and crashes to
    (known unimported); their META says the same, and no other rule has those scopes."""
    found = [
        (module.META.scope, rule_name(module))
        for module in registry().values()
        if module.META.scope in (Scope.SUPPRESSIONS, Scope.CRASH)
    ]
    assert sorted(found, key=str) == [
        (Scope.CRASH, CRASH_RULE),
        (Scope.SUPPRESSIONS, UNUSED_SUPPRESSION_RULE),
    ]


def _imported_after(args: list[str]) -> set[str]:
    code = (
        "import json, sys\n"
        "from memlint.cli import main\n"
        f"main({args!r})\n"
        "sys.stderr.write(json.dumps(sorted(m for m in sys.modules if m.startswith('memlint.'))))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    return set(json.loads(result.stderr.strip().splitlines()[-1]))


def test_only_selected_rules_are_imported() -> None:
    imported = _imported_after(["check", str(EXAMPLES), "--no-cache", "-q", "--select", "FS00"])
    rules = {m for m in imported if m.count(".") == 3 and m.startswith("memlint.rules.")}
    assert rules and all(m.startswith("memlint.rules.fs.fs00") for m in rules)
    assert "memlint.similarity" not in imported


def test_note_rules_are_not_imported_for_a_store_without_notes() -> None:
    assert not list(EXAMPLES.rglob("*.jsonl"))
    imported = _imported_after(["check", str(EXAMPLES), "--no-cache", "-q"])
    assert "memlint.rules.fs.fs001_unreadable_file" in imported
    assert not {m for m in imported if m.startswith("memlint.rules.nt.")}


def test_no_fingerprint_unless_near_duplicates_run(monkeypatch, capsys) -> None:
    import memlint.similarity

    def refuse(text: str):
        raise AssertionError("fingerprint computed")

    main(["check", str(EXAMPLES), "--no-cache", "--output-format", "json", "--exit-zero"])
    reference = [d for d in json.loads(capsys.readouterr().out) if d["code"] != "DU001"]
    monkeypatch.setattr(memlint.similarity, "fingerprint", refuse)
    args = ["check", str(EXAMPLES), "--no-cache", "--output-format", "json", "--exit-zero"]
    main([*args, "--ignore", "DU001"])
    assert json.loads(capsys.readouterr().out) == reference
    with pytest.raises(AssertionError, match="fingerprint computed"):
        main(["check", str(EXAMPLES), "--no-cache", "-q", "--jobs", "1"])


def test_a_check_imports_no_typing_dataclasses_or_tomllib(tmp_path) -> None:
    """A project's pyproject.toml that does not configure memlint is not parsed, and
    no module on the way of a check imports dataclasses (inspect), typing or tomllib;
    plain arguments are read without building argparse's parser (nor importing it);
    with --no-cache nothing of the cache's hashing and pickling is imported.
    The check runs without ``site`` hooks (``-S``: a .pth file may import typing)."""
    project = tmp_path / "project"
    shutil.copytree(EXAMPLES, project / "store")
    pyproject = '[project]\ndependencies = ["agent-memlint"]\n[tool.black]\nline-length = 100\n'
    (project / "pyproject.toml").write_text(pyproject)  # names memlint, configures it not
    package_parent = str(Path(memlint.__file__).resolve().parent.parent)
    code = (
        "import json, site, sys\n"
        f"sys.path[:0] = [{package_parent!r}, *site.getsitepackages()]\n"
        "before = set(sys.modules)\n"
        "from memlint.cli import main\n"
        "main(['check', 'store', '--no-cache', '-q'])\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    argv = [sys.executable, "-S", "-c", code]
    result = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=project)
    imported = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "memlint.rules.fs.fs001_unreadable_file" in imported
    assert not imported & {"dataclasses", "inspect", "typing", "tomllib"}
    assert not imported & {"shutil", "memlint.hook_install"}
    assert not imported & {"argparse", "gettext", "locale"}  # plain arguments: no parser
    assert not imported & {"hashlib", "hmac", "pickle", "memlint.cache"}  # --no-cache: no cache
    assert not imported & {"importlib", "warnings"}  # rule and output modules found directly
    assert not imported & {"json", "memlint.sources.jsonl"}  # no JSONL file: no JSON parser
    assert "memlint.replay" not in imported  # --no-cache: the run is neither replayed nor recorded


def test_a_rule_module_edited_after_its_bytecode_was_cached_loads_as_edited(tmp_path) -> None:
    """Rule modules are loaded from the file the registry names, through Python's own
    bytecode check: an edit made after the bytecode was cached is what runs."""
    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    rule = package / "rules" / "fs" / "fs003_utf8_bom.py"
    rule.write_text(rule.read_text().replace('"File starts with', '"Edited: file starts with'))
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from memlint.rules import load_rule\n"
        "module = load_rule('fs.fs003_utf8_bom')\n"
        "print(module.META.summary, module.__file__, module.__spec__.origin == module.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-B", "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert result.stdout.split("\n")[0] == (
        f"Edited: file starts with a UTF-8 byte order mark {rule} True"
    )


def _run_rule_in_copy(package: Path, *flags: str, show: str = "META.summary") -> str:
    """``show`` of the rule FS003 loaded from the copy ``package`` by a Python run with
    ``flags`` that may write bytecode."""
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(package.parent)!r})\n"
        "from memlint.rules import load_rule\n"
        f"print(load_rule('fs.fs003_utf8_bom').{show})\n"
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }
    result = subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return result.stdout.strip()


def test_the_code_cache_is_written_once_and_follows_edits(tmp_path) -> None:
    """A run that writes bytecode writes every module's code into one file; a rule edited
    later, or a damaged file, is noticed (source size and mtime, as Python's own
    bytecode check) and the file is written again. ``-B`` writes none."""
    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    cached = package / "__pycache__" / f"modules.{sys.implementation.cache_tag}.marshal"
    cached.unlink(missing_ok=True)
    assert _run_rule_in_copy(package, "-B") == "File starts with a UTF-8 byte order mark"
    assert not cached.exists()
    assert _run_rule_in_copy(package) == "File starts with a UTF-8 byte order mark"
    written = cached.read_bytes()
    assert b"fs003_utf8_bom" in written and b"nt015_duplicate_note" in written
    assert b"memlint.store" in written and b"memlint.sources.frontmatter" in written
    rule = package / "rules" / "fs" / "fs003_utf8_bom.py"
    rule.write_text(rule.read_text().replace('"File starts with', '"Edited: file starts with'))
    assert _run_rule_in_copy(package).startswith("Edited: file starts with")
    assert cached.read_bytes() != written
    assert _run_rule_in_copy(package, "-B").startswith("Edited: file starts with")
    cached.write_bytes(cached.read_bytes()[:1000])
    assert _run_rule_in_copy(package, "-B").startswith("Edited: file starts with")
    assert _run_rule_in_copy(package).startswith("Edited: file starts with")
    assert len(cached.read_bytes()) > 1000


def test_the_code_cache_of_an_optimized_run_is_its_own(tmp_path) -> None:
    """Code compiled under ``-OO`` has no docstrings (``-O``: no asserts): a run under
    ``PYTHONOPTIMIZE`` writes its own code cache, as Python writes ``.opt-N.pyc``, so a
    plain run after it still has every rule's documentation (``memlint rule``)."""
    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    for cached in (package / "__pycache__").glob("modules.*.marshal"):
        cached.unlink()
    runs = [
        _run_rule_in_copy(package, *flags, show="__doc__ is not None")
        for flags in (["-OO"], [], ["-OO"])
    ]
    assert runs == ["False", "True", "False"]
    assert len(list((package / "__pycache__").glob("modules.*.marshal"))) == 2


def _run_check_in_copy(package: Path, store: Path, *flags: str) -> list[str]:
    """A check of ``store`` by memlint's copy ``package``, run by Python with ``flags``
    that may write bytecode: its output, then how ``memlint.store`` was loaded and
    whether its source's marker ``EDITED`` is there."""
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(package.parent)!r})\n"
        "from memlint.cli import main\n"
        f"main(['check', {str(store)!r}, '--no-cache', '--output-format', 'concise'])\n"
        "module = sys.modules['memlint.store']\n"
        "print(type(module.__loader__).__name__, getattr(module, 'EDITED', False))\n"
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }
    result = subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, text=True, env=env
    )
    return result.stdout.strip().splitlines()


def test_memlints_modules_come_from_the_code_cache_and_follow_edits(tmp_path) -> None:
    """A check finds memlint's modules in the code cache; a module edited since is
    imported as edited (``-B``: from its source) and then cached again; a cache that
    names another file for a module, or is cut short, is not used. The output is the
    same each time."""
    from memlint import codecache

    package = tmp_path / "memlint"
    shutil.copytree(Path(memlint.__file__).resolve().parent, package)
    cached = package / "__pycache__" / f"modules.{sys.implementation.cache_tag}.marshal"
    cached.unlink(missing_ok=True)
    store = tmp_path / "store"
    shutil.copytree(EXAMPLES, store)
    first = _run_check_in_copy(package, store)
    assert first[-1] == "_Loader False" and cached.exists()
    source = package / "store.py"
    source.write_text(source.read_text() + "\nEDITED = True\n")
    assert _run_check_in_copy(package, store, "-B")[-1] == "SourceFileLoader True"
    assert _run_check_in_copy(package, store)[-1] == "_Loader True"
    assert _run_check_in_copy(package, store, "-B") == [*first[:-1], "_Loader True"]

    data = cached.read_bytes()
    start = len(codecache._header()) + codecache._LENGTH
    length = int.from_bytes(data[start - codecache._LENGTH : start], "little")
    index, spans = marshal.loads(data[start : start + length])
    index["memlint.store"] = (*index["memlint.textutil"][:3], index["memlint.store"][3])
    forged = marshal.dumps((index, spans))
    header = data[: start - codecache._LENGTH] + len(forged).to_bytes(codecache._LENGTH, "little")
    cached.write_bytes(header + forged + data[start + length :])
    assert _run_check_in_copy(package, store, "-B") == [*first[:-1], "SourceFileLoader True"]
    cached.write_bytes(data[: len(data) // 2])
    assert _run_check_in_copy(package, store, "-B") == [*first[:-1], "_Loader True"]


def test_a_pyproject_memlint_table_spelled_with_escapes_is_still_found(tmp_path) -> None:
    from memlint.config import find_config

    (tmp_path / "pyproject.toml").write_text('[tool."\\u006demlint"]\nprofile = "typed"\n')
    assert find_config(str(tmp_path)) == str(tmp_path / "pyproject.toml")
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    assert find_config(str(tmp_path)) is None


TOML_LINES = st.sampled_from(
    ['[tool.memlint]', '[tool . "memlint"]', "[ 'tool' ]", '["tool"]', "[tool]", "[[tool]]",
     '[tool.black]', "[project]", "[tool.memlint.rules]", 'memlint = "x"', "memlint.select = []",
     'tool.memlint.select = ["X"]', "tool = {memlint = {}}", "tool = {black = 1}",
     'name = "agent-memlint"', 'dependencies = ["memlint>=1"]', "select = []", "# memlint",
     "tool.black.x = 1", "[tool.memlintx]", "x = 1", "[[tool.memlint]]", 'tool."memlint".a = 1']
)  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(TOML_LINES, max_size=8))
@example(["[tool]", "memlint = {}"])
@example(['[ "tool" ]', "x = 1", "memlint.select = []"])
@example(["tool = {memlint = {}}"])
def test_a_pyproject_is_parsed_whenever_it_can_have_a_memlint_table(lines: list[str]) -> None:
    """``find_config`` parses a pyproject.toml only when ``may_name_memlint_tool`` says
    it can configure memlint (tomllib costs a check a few milliseconds): it says so of
    every document whose ``tool`` table holds ``memlint``."""
    import tomllib

    from memlint.config import may_name_memlint_tool

    text = "\n".join(lines) + "\n"
    try:
        tool = tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return
    if isinstance(tool, dict) and "memlint" in tool:
        assert may_name_memlint_tool(text.encode())


def test_a_pyproject_that_names_memlint_elsewhere_is_not_parsed() -> None:
    from memlint.config import may_name_memlint_tool

    repository = Path(__file__).resolve().parent.parent / "pyproject.toml"
    assert b"memlint" in repository.read_bytes()
    assert not may_name_memlint_tool(repository.read_bytes())
    assert may_name_memlint_tool(b"[tool]\nmemlint = {}\n")


def test_a_check_of_a_small_generated_store_loads_no_module_it_does_not_use(tmp_path) -> None:
    """The benchmark's 10-file store (ASCII memories, an index with dashes, notes, one
    unclosed flow list): no C extension for Unicode tables or entropy, no YAML, no git
    helpers; the findings are the same as with them loaded."""
    from tests.helpers import generate_store

    store = generate_store(tmp_path / "store", 10, notes=2)
    package_parent = str(Path(memlint.__file__).resolve().parent.parent)
    code = (
        "import json, site, sys\n"
        f"sys.path[:0] = [{package_parent!r}, *site.getsitepackages()]\n"
        "before = set(sys.modules)\n"
        "{preload}"
        "from memlint.cli import main\n"
        f"main(['check', {str(store)!r}, '--no-cache', '--output-format', 'full', '-q'])\n"
        "sys.stderr.write(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    unused = {"math", "unicodedata", "yaml", "memlint.gitbase"}
    runs = [
        subprocess.run(
            [sys.executable, "-S", "-c", code.format(preload=preload)],
            capture_output=True,
            text=True,
        )
        for preload in ("", f"import {', '.join(sorted(unused))}\n")
    ]
    imported = set(json.loads(runs[0].stderr.strip().splitlines()[-1]))
    assert "memlint.rules.nt.nt015_duplicate_note" in imported
    assert not imported & unused
    assert runs[1].stdout == runs[0].stdout and "FM003" in runs[0].stdout


def test_the_text_renderers_narrow_ranges_are_one_column_each() -> None:
    import unicodedata

    from memlint.output.text import NARROW

    for low, high in NARROW:
        for point in range(ord(low), ord(high) + 1):
            ch = chr(point)
            assert not unicodedata.combining(ch), hex(point)
            assert unicodedata.east_asian_width(ch) not in ("W", "F"), hex(point)


def test_a_check_leaves_what_it_built_out_of_the_young_generation(tmp_path, capsys) -> None:
    """The collector is off while checking; what the run built then joins the oldest
    generation, so the first allocation after the check does not scan it all."""
    import gc

    shutil.copytree(EXAMPLES, tmp_path / "store")
    assert gc.isenabled()
    main(["check", str(tmp_path / "store"), "--no-cache", "--exit-zero"])
    young = gc.get_count()[0]
    capsys.readouterr()
    assert gc.isenabled() and young < gc.get_threshold()[0]
