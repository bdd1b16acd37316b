"""Renderers, one module per ``--output-format``; each has ``render(diagnostics, ctx) -> str``."""

from __future__ import annotations

from dataclasses import dataclass, field

from memlint.output import json_format, text

RENDERERS = {
    "full": text.render_full,
    "concise": text.render_concise,
    "json": json_format.render_json,
    "json-lines": json_format.render_json_lines,
}

TEXT_FORMATS = frozenset({"full", "concise"})


@dataclass
class RenderContext:
    """What renderers may need besides the diagnostics."""

    cwd: str
    sources: dict = field(default_factory=dict)
    color: bool = False
    show_fixes: bool = False
    unsafe_fixes: bool = False
