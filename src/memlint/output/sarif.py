"""``sarif`` renderer: one SARIF 2.1.0 run that GitHub code scanning accepts.

Locations are relative to the working directory (``%SRCROOT%``), columns count
code points, and the log is deterministic (no timestamps, sorted rules and results).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import quote

from memlint import __version__
from memlint.diagnostics import Diagnostic, Range, Severity
from memlint.rules import registry

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/agent-memlint/"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SECTION = re.compile(r"^## (.{1,80})$", re.MULTILINE)
DESCRIPTION_LIMIT = 1024


def relative_path(path: str, cwd: str) -> str | None:
    """``path`` relative to ``cwd`` with ``/`` separators, or ``None`` when outside it."""
    rel = os.path.relpath(path, cwd) if os.path.isabs(path) else path
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def artifact_location(path: str, cwd: str) -> dict:
    rel = relative_path(path, cwd)
    if rel is None:
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(rel, safe="/"), "uriBaseId": "%SRCROOT%"}


def doc_sections(doc: str) -> dict[str, str]:
    """The ``## Heading`` sections of a rule docstring, by heading."""
    parts = SECTION.split(doc or "")
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def _limit(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


def rule_descriptor(code: str) -> dict:
    module = registry().get(code)
    if module is None:  # a code the registry does not know (e.g. a crash report)
        return {
            "id": code,
            "shortDescription": {"text": code},
            "fullDescription": {"text": code},
            "help": {"text": code},
        }
    meta = module.META
    doc = (module.__doc__ or "").strip() or meta.summary
    what = doc_sections(doc).get("What it does") or meta.summary
    return {
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": _limit(meta.summary)},
        "fullDescription": {"text": _limit(" ".join(what.split()))},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": LEVELS[meta.severity]},
        "properties": {"tags": ["memlint", meta.code.rstrip("0123456789"), meta.scope.value]},
    }


def _region(rng: Range) -> dict:
    if rng == Range.file_start():
        return {"startLine": 1}
    return {
        "startLine": rng.start.line,
        "startColumn": rng.start.column,
        "endLine": rng.end.line,
        "endColumn": rng.end.column,
    }


def _fix(diagnostic: Diagnostic, cwd: str) -> dict:
    by_path: dict[str, list] = {}
    for edit in diagnostic.fix.edits:
        by_path.setdefault(edit.path, []).append(
            {
                "deletedRegion": {
                    "startLine": edit.range.start.line,
                    "startColumn": edit.range.start.column,
                    "endLine": edit.range.end.line,
                    "endColumn": edit.range.end.column,
                },
                "insertedContent": {"text": edit.content},
            }
        )
    return {
        "description": {"text": diagnostic.fix.title},
        "artifactChanges": [
            {"artifactLocation": artifact_location(path, cwd), "replacements": replacements}
            for path, replacements in sorted(by_path.items())
        ],
    }


def _result(diagnostic: Diagnostic, index: int, cwd: str) -> dict:
    result = {
        "ruleId": diagnostic.code,
        "ruleIndex": index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(diagnostic.path, cwd),
                    "region": _region(diagnostic.range),
                }
            }
        ],
    }
    if diagnostic.fix is not None and diagnostic.fix.edits:
        result["fixes"] = [_fix(diagnostic, cwd)]
    return result


def build_log(diagnostics: list[Diagnostic], ctx) -> dict:
    codes = sorted({*ctx.rule_codes, *(d.code for d in diagnostics)})
    index = {code: i for i, code in enumerate(codes)}
    ordered = sorted(
        diagnostics,
        key=lambda d: (relative_path(d.path, ctx.cwd) or d.path, *d.sort_key()[1:]),
    )
    root_uri = Path(ctx.cwd).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memlint",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [rule_descriptor(code) for code in codes],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(d, index[d.code], ctx.cwd) for d in ordered],
            }
        ],
    }


def render_sarif(diagnostics: list[Diagnostic], ctx) -> str:
    return json.dumps(build_log(diagnostics, ctx), indent=2, ensure_ascii=True) + "\n"
