"""``json`` and ``json-lines`` renderers (ruff's keys, so ruff-JSON tooling reads them)."""

from __future__ import annotations

import json

from memlint.diagnostics import Diagnostic, Position
from memlint.rules import registry


def _location(position: Position) -> dict:
    return {"row": position.line, "column": position.column}


def diagnostic_dict(diagnostic: Diagnostic) -> dict:
    meta = getattr(registry().get(diagnostic.code), "META", None)
    fix = diagnostic.fix
    return {
        "code": diagnostic.code,
        "name": meta.name if meta else None,
        "message": diagnostic.message,
        "severity": diagnostic.severity.label,
        "filename": diagnostic.display_path,
        "location": _location(diagnostic.range.start),
        "end_location": _location(diagnostic.range.end),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "message": fix.title,
            "edits": [
                {
                    "filename": edit.path,
                    "content": edit.content,
                    "location": _location(edit.range.start),
                    "end_location": _location(edit.range.end),
                }
                for edit in fix.edits
            ],
        },
        "notes": list(diagnostic.notes),
        "url": None,
    }


def render_json(diagnostics: list[Diagnostic], ctx) -> str:
    return json.dumps([diagnostic_dict(d) for d in diagnostics], indent=2, ensure_ascii=True) + "\n"


def render_json_lines(diagnostics: list[Diagnostic], ctx) -> str:
    return "".join(json.dumps(diagnostic_dict(d), ensure_ascii=True) + "\n" for d in diagnostics)
