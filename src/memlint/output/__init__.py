"""Renderers, one module per ``--output-format``; each has ``render(diagnostics, ctx) -> str``.

:func:`render` is where diagnostics leave memlint: every message, note, fix title and
fix content is masked there (:func:`memlint.privacy.mask_text`) before any renderer
sees it, so no rule can print a secret the privacy rules would mask. Only the copy
that is shown is masked; ``--fix`` applies the diagnostics it was given, unmasked.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace

from memlint.diagnostics import Diagnostic, Fix
from memlint.privacy import mask_text

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
    renderer = getattr(importlib.import_module(f"memlint.output.{module}"), function)
    return renderer([masked(d) for d in diagnostics], ctx)


def masked(diagnostic: Diagnostic) -> Diagnostic:
    """``diagnostic`` as it may be shown: secrets in its texts masked."""
    fix = diagnostic.fix
    if fix is not None:
        edits = tuple(replace(e, content=mask_text(e.content)) for e in fix.edits)
        fix = Fix(edits, fix.applicability, mask_text(fix.title))
    return replace(
        diagnostic,
        message=mask_text(diagnostic.message),
        notes=tuple(mask_text(note) for note in diagnostic.notes),
        fix=fix,
    )


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
