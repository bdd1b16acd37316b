"""The JUnit renderer: one suite per file, one failing case per diagnostic."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from memlint.output.junit import render_junit
from tests.output_helpers import context, diag, hostile_diagnostics


def test_suites_per_file(tmp_path):
    found = [diag(tmp_path, "mem/a.md"), diag(tmp_path, "mem/a.md"), diag(tmp_path, "mem/b.md")]
    root = ET.fromstring(render_junit(found, context(tmp_path)))
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "3", "3")
    suites = root.findall("testsuite")
    assert [(s.get("name"), len(s.findall("testcase"))) for s in suites] == [
        ("mem/a.md", 2),
        ("mem/b.md", 1),
    ]
    case = suites[0].find("testcase")
    assert (case.get("name"), case.get("line"), case.get("column")) == (
        "org.memlint.FS008",
        "3",
        "5",
    )
    assert case.find("failure").get("message") == "file ends without a line break"


def test_no_findings_is_one_passing_case(tmp_path):
    root = ET.fromstring(render_junit([], context(tmp_path)))
    (case,) = root.iter("testcase")
    assert case.find("failure") is None and root.get("failures") == "0"


def test_hostile_text_stays_well_formed(tmp_path):
    found = hostile_diagnostics(tmp_path)
    root = ET.fromstring(render_junit(found, context(tmp_path)))
    messages = [f.get("message") for f in root.iter("failure")]
    assert len(messages) == len(found)
    assert all("\x1b" not in m and "\n" not in m for m in messages)
