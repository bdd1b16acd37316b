"""SARIF for GitHub code scanning: help links, fingerprints, security severity, caps,
and GitHub's own ingestion rules (Microsoft SARIF Multitool, when it can run here)."""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from memlint import REPOSITORY_URL, __version__
from memlint.cli import main
from memlint.diagnostics import Severity
from memlint.output import sarif
from memlint.output.sarif import build_log, render_sarif
from memlint.rules import registry
from tests.helpers import write_files
from tests.output_helpers import context, diag

ROOT = Path(__file__).resolve().parents[1]
MULTITOOL_VERSION = "5.7.0"

STORE = {
    "mem/MEMORY.md": "# Memory\n\n- [A](a.md) — a memory\n",
    "mem/a.md": (
        "---\nname: a\ndescription: a memory\nmetadata:\n  type: user\n---\n"
        "Ask [[nobody]] first.\nAsk [[nobody]] first.\nThen [[elsewhere]].\n"
    ),
}


def _github_anchors() -> set[str]:
    """The anchors GitHub gives the headings of docs/rules.md (lowercase, punctuation
    other than ``-``/``_`` removed, spaces to ``-``)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.fixture
def full_log(tmp_path, monkeypatch):
    monkeypatch.delenv("MEMLINT_DOCS_REF", raising=False)
    return build_log([], context(tmp_path, sorted(registry())))


def test_every_rule_links_to_its_section_at_the_release_tag(full_log):
    anchors = _github_anchors()
    prefix = f"{REPOSITORY_URL}/blob/v{__version__}/docs/rules.md#"
    rules = full_log["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) == len(registry())
    for rule in rules:
        assert rule["helpUri"].startswith(prefix), rule["id"]
        assert rule["helpUri"][len(prefix) :] in anchors, rule["id"]
        doc = registry()[rule["id"]].__doc__.strip()
        assert rule["help"]["markdown"].startswith(doc)
        assert rule["help"]["markdown"].endswith(f"[Documentation]({rule['helpUri']})")
    assert full_log["runs"][0]["tool"]["driver"]["informationUri"] == REPOSITORY_URL


def test_help_links_follow_the_pinned_ref(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMLINT_DOCS_REF", "0123abcd" * 5)
    (rule,) = build_log([], context(tmp_path, ["FS008"]))["runs"][0]["tool"]["driver"]["rules"]
    assert rule["helpUri"].startswith(f"{REPOSITORY_URL}/blob/{'0123abcd' * 5}/docs/rules.md#")
    for hostile in ("../../evil", "v1 x", "a\nb", "-x"):
        monkeypatch.setenv("MEMLINT_DOCS_REF", hostile)
        (rule,) = build_log([], context(tmp_path, ["FS008"]))["runs"][0]["tool"]["driver"]["rules"]
        assert f"/blob/v{__version__}/" in rule["helpUri"]


def test_privacy_rules_carry_security_severity(full_log):
    for rule in full_log["runs"][0]["tool"]["driver"]["rules"]:
        props = rule["properties"]
        if rule["id"].startswith("PV"):
            assert "security" in props["tags"], rule["id"]
            assert 0.0 < float(props["security-severity"]) <= 10.0
        else:
            assert "security" not in props["tags"] and "security-severity" not in props
    by_id = {r["id"]: r for r in full_log["runs"][0]["tool"]["driver"]["rules"]}
    assert by_id["PV001"]["properties"]["security-severity"] == "8.0"  # an error: high


def _sarif_of(capsys) -> dict:
    assert main(["check", "--no-cache", "mem", "--output-format", "sarif", "--exit-zero"]) == 0
    return json.loads(capsys.readouterr().out)


def _prints(log: dict) -> list[tuple[str, int, str]]:
    return [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["partialFingerprints"]["memlint/v1"],
        )
        for r in log["runs"][0]["results"]
    ]


def test_fingerprints_survive_lines_inserted_above(tmp_path, monkeypatch, capsys):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    before = _prints(_sarif_of(capsys))
    assert [(code, line) for code, line, _ in before] == [("LK001", 7), ("LK001", 8), ("LK001", 9)]
    assert len({fp for *_, fp in before}) == 3  # the repeated line is told apart by its index
    memory = tmp_path / "mem" / "a.md"
    text = memory.read_text(encoding="utf-8")
    memory.write_text(text.replace("---\nAsk", "---\nA new first line.\n\n  Ask", 1), "utf-8")
    after = _prints(_sarif_of(capsys))
    assert [line for _, line, _ in after] == [9, 10, 11]
    assert [fp for *_, fp in after] == [fp for *_, fp in before]
    memory.write_text(text.replace("Then [[elsewhere]]", "Later [[elsewhere]]"), "utf-8")
    changed = _prints(_sarif_of(capsys))
    assert [fp for *_, fp in changed][:2] == [fp for *_, fp in before][:2]
    assert changed[2][2] != before[2][2]


def test_crash_marks_the_run_unsuccessful(tmp_path):
    ok = build_log([diag(tmp_path, "mem/a.md")], context(tmp_path))
    assert ok["runs"][0]["invocations"] == [{"executionSuccessful": True}]
    crashed = build_log([diag(tmp_path, "mem/a.md", code="MX002")], context(tmp_path))
    assert crashed["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_limits_are_githubs():
    assert (sarif.MAX_RESULTS, sarif.MAX_BYTES) == (25_000, 10_000_000)


def _mixed(tmp_path, count: int, message: str = "m") -> list:
    severities = [Severity.INFO, Severity.WARNING, Severity.ERROR]
    return [
        diag(tmp_path, f"mem/f{i:03}.md", message=message, severity=severities[i % 3])
        for i in range(count)
    ]


def _kept(text: str) -> tuple[list[str], str]:
    run = json.loads(text)["runs"][0]
    notes = run["invocations"][0].get("toolExecutionNotifications", [])
    return [r["level"] for r in run["results"]], " ".join(n["message"]["text"] for n in notes)


def test_result_cap_drops_the_least_severe_first(tmp_path, monkeypatch):
    monkeypatch.setattr(sarif, "MAX_RESULTS", 5)
    levels, note = _kept(render_sarif(_mixed(tmp_path, 9), context(tmp_path)))
    assert sorted(levels) == ["error", "error", "error", "warning", "warning"]
    assert "4 of 9 results were left out" in note
    levels, note = _kept(render_sarif(_mixed(tmp_path, 5), context(tmp_path)))
    assert len(levels) == 5 and note == ""


def test_size_cap_keeps_the_file_under_the_limit(tmp_path, monkeypatch):
    found = _mixed(tmp_path, 60, message="x" * 2000)
    whole = render_sarif(found, context(tmp_path))
    monkeypatch.setattr(sarif, "MAX_BYTES", len(whole) // 2)
    text = render_sarif(found, context(tmp_path))
    levels, note = _kept(text)
    assert len(text) <= sarif.MAX_BYTES
    assert 0 < len(levels) < 60 and levels.count("error") == 20
    assert f"{60 - len(levels)} of 60 results were left out" in note


# -- GitHub's ingestion rules, checked by the Microsoft SARIF Multitool -----------------


def _multitool() -> str:
    """The Sarif.Multitool executable of an npm install cached outside the checkout."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node/npm are not installed")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    prefix = cache / "memlint-tests" / f"sarif-multitool-{MULTITOOL_VERSION}"
    pattern = str(prefix / "node_modules/@microsoft/sarif-multitool-*/Sarif.Multitool*")
    found = [p for p in glob.glob(pattern) if not p.endswith((".pdb", ".xml", ".config"))]
    if not found:
        prefix.mkdir(parents=True, exist_ok=True)
        install = subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix),
             f"@microsoft/sarif-multitool@{MULTITOOL_VERSION}"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        found = [p for p in glob.glob(pattern) if not p.endswith((".pdb", ".xml", ".config"))]
        if install.returncode != 0 or not found:
            pytest.skip(f"cannot install @microsoft/sarif-multitool: {install.stderr[-300:]}")
    tool = found[0]
    os.chmod(tool, 0o755)  # npm may not run the package's postinstall `chmod`
    return tool


def test_github_ingestion_rules_pass(tmp_path, monkeypatch, capsys):
    tool = _multitool()
    write_files(tmp_path, STORE)
    (tmp_path / "mem" / "b.md").write_text(
        "---\nname: b\ndescription: staging\nmetadata:\n  type: user\n---\n"
        "Log in as `deploy`, password: hunter2-correct-horse\n"
    )
    monkeypatch.chdir(tmp_path)
    log = _sarif_of(capsys)
    assert {"LK001", "PV001"} <= {r["ruleId"] for r in log["runs"][0]["results"]}
    (tmp_path / "memlint.sarif").write_text(json.dumps(log), encoding="utf-8")
    report = tmp_path / "validation.sarif"
    ran = subprocess.run(
        [tool, "validate", "--rule-kind", "Gh", "--level", "Error;Warning;Note",
         "memlint.sarif", "-o", str(report)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    if not report.exists():
        pytest.skip(f"Sarif.Multitool does not run here: {(ran.stdout + ran.stderr)[-300:]}")
    findings = json.loads(report.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert findings == [], ran.stdout
