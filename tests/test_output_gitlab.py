"""The GitLab Code Quality renderer."""

from __future__ import annotations

import json

from memlint.diagnostics import Severity
from memlint.output.gitlab import render_gitlab
from tests.output_helpers import context, diag, hostile_diagnostics, span


def test_issue_shape(tmp_path):
    found = [diag(tmp_path, "mem/a.md", range=span(3, 5, 4, 1), severity=Severity.ERROR)]
    (issue,) = json.loads(render_gitlab(found, context(tmp_path)))
    assert issue["check_name"] == "FS008"
    assert issue["description"] == "FS008 file ends without a line break"
    assert issue["severity"] == "major"
    assert issue["location"] == {"path": "mem/a.md", "lines": {"begin": 3, "end": 4}}
    assert len(issue["fingerprint"]) == 32


def test_severity_map(tmp_path):
    found = [diag(tmp_path, "mem/a.md", severity=s) for s in Severity]
    assert [i["severity"] for i in json.loads(render_gitlab(found, context(tmp_path)))] == [
        "info",
        "minor",
        "major",
    ]


def test_fingerprints_stable_unique_and_line_independent(tmp_path):
    moved = [diag(tmp_path, "mem/a.md", range=span(9, 1, 9, 2)), diag(tmp_path, "mem/a.md")]
    first = [i["fingerprint"] for i in json.loads(render_gitlab(moved, context(tmp_path)))]
    again = [diag(tmp_path, "mem/a.md"), diag(tmp_path, "mem/a.md", range=span(1, 1, 1, 2))]
    second = [i["fingerprint"] for i in json.loads(render_gitlab(again, context(tmp_path)))]
    assert first == second and len(set(first)) == 2


def test_hostile_text_is_valid_json(tmp_path):
    found = hostile_diagnostics(tmp_path)
    issues = json.loads(render_gitlab(found, context(tmp_path)))
    assert [i["location"]["path"] for i in issues] == [d.display_path for d in found]
