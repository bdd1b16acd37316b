"""``json`` and ``json-lines`` renderers (ruff's keys, so ruff-JSON tooling reads them).

Every path (``filename``, and each edit's) is relative to the working directory,
with ``/`` separators; ``url`` is the rule's section of docs/rules.md.
"""

from __future__ import annotations

import json
import os

from memlint.diagnostics import Diagnostic, Position
from memlint.ruledoc import rule_url
from memlint.rules import rule_module


def cwd_path(path: str, cwd: str) -> str:
    """``path`` relative to ``cwd`` (``../`` when outside it; absolute only when no
    relative path exists, as across Windows drives)."""
    try:
        return os.path.relpath(path, cwd).replace(os.sep, "/")
    except ValueError:
        return path


def _location(position: Position) -> dict:
    return {"row": position.line, "column": position.column}


def diagnostic_dict(diagnostic: Diagnostic, cwd: str) -> dict:
    meta = getattr(rule_module(diagnostic.code), "META", None)
    fix = diagnostic.fix
    return {
        "code": diagnostic.code,
        "name": meta.name if meta else None,
        "message": diagnostic.message,
        "severity": diagnostic.severity.label,
        "filename": cwd_path(diagnostic.path, cwd),
        "location": _location(diagnostic.range.start),
        "end_location": _location(diagnostic.range.end),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "message": fix.title,
            "edits": [
                {
                    "filename": cwd_path(edit.path, cwd),
                    "content": edit.content,
                    "location": _location(edit.range.start),
                    "end_location": _location(edit.range.end),
                }
                for edit in fix.edits
            ],
        },
        "notes": list(diagnostic.notes),
        "url": rule_url(diagnostic.code),
    }


def render_json(diagnostics: list[Diagnostic], ctx) -> str:
    return (
        json.dumps([diagnostic_dict(d, ctx.cwd) for d in diagnostics], indent=2, ensure_ascii=True)
        + "\n"
    )


def render_json_lines(diagnostics: list[Diagnostic], ctx) -> str:
    return "".join(
        json.dumps(diagnostic_dict(d, ctx.cwd), ensure_ascii=True) + "\n" for d in diagnostics
    )
