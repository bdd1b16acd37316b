"""Renderers, one module per ``--output-format``; each has ``render(diagnostics, ctx) -> str``."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

RENDERERS = {
    "full": ("text", "render_full"),
    "concise": ("text", "render_concise"),
    "json": ("json_format", "render_json"),
    "json-lines": ("json_format", "render_json_lines"),
    "sarif": ("sarif", "render_sarif"),
    "github": ("github", "render_github"),
    "junit": ("junit", "render_junit"),
    "gitlab": ("gitlab", "render_gitlab"),
}


def render(output_format: str, diagnostics, ctx: RenderContext) -> str:
    """``diagnostics`` in ``output_format`` (only that renderer's module is imported)."""
    module, function = RENDERERS[output_format]
    return getattr(importlib.import_module(f"memlint.output.{module}"), function)(diagnostics, ctx)


TEXT_FORMATS = frozenset({"full", "concise"})
LISTS_RULES = frozenset({"sarif"})  # formats that list every selected rule


@dataclass
class RenderContext:
    """What renderers may need besides the diagnostics."""

    cwd: str
    sources: dict = field(default_factory=dict)
    color: bool = False
    show_fixes: bool = False
    unsafe_fixes: bool = False
    rule_codes: tuple[str, ...] = ()
