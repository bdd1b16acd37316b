"""``gitlab`` renderer: a GitLab Code Quality report (Code Climate JSON)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

from memlint.diagnostics import Diagnostic, Severity
from memlint.output.sarif import relative_path

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def fingerprint(code: str, path: str, message: str, occurrence: int) -> str:
    """Stable across runs and line shifts: rule, file, message and which repeat it is."""
    key = "\0".join((code, path, message, str(occurrence)))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def render_gitlab(diagnostics: list[Diagnostic], ctx) -> str:
    seen: Counter = Counter()
    issues = []
    for d in diagnostics:
        path = relative_path(d.path, ctx.cwd) or d.path
        key = (d.code, path, d.message)
        seen[key] += 1
        issues.append(
            {
                "type": "issue",
                "description": f"{d.code} {d.message}",
                "check_name": d.code,
                "categories": ["Style"],
                "fingerprint": fingerprint(*key, seen[key]),
                "severity": SEVERITIES[d.severity],
                "location": {
                    "path": path,
                    "lines": {"begin": d.range.start.line, "end": d.range.end.line},
                },
            }
        )
    return json.dumps(issues, indent=2, ensure_ascii=True) + "\n"
