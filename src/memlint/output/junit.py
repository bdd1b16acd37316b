"""``junit`` renderer: one ``testsuite`` per file, one failing ``testcase`` per diagnostic."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby

from memlint.diagnostics import Diagnostic
from memlint.textutil import escape


def render_junit(diagnostics: list[Diagnostic], ctx) -> str:
    root = ET.Element(
        "testsuites",
        name="memlint",
        tests=str(max(len(diagnostics), 1)),
        failures=str(len(diagnostics)),
        errors="0",
    )
    if not diagnostics:
        suite = ET.SubElement(root, "testsuite", name="memlint", tests="1", failures="0")
        ET.SubElement(suite, "testcase", name="No problems found", classname="memlint")
    for path, group in groupby(diagnostics, key=lambda d: d.display_path):
        items = list(group)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=escape(path),
            tests=str(len(items)),
            failures=str(len(items)),
            errors="0",
        )
        for d in items:
            start = d.range.start
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"org.memlint.{d.code}",
                classname=escape(path),
                file=escape(path),
                line=str(start.line),
                column=str(start.column),
            )
            failure = ET.SubElement(case, "failure", message=escape(d.message), type=d.code)
            failure.text = f"line {start.line}, col {start.column}, {escape(d.message)}"
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
