"""Renderers, one module per ``--output-format``; each has ``render(diagnostics, ctx) -> str``.

:func:`render` is where diagnostics leave memlint: every message, note, fix title and
fix content is masked there (:func:`memlint.privacy.mask_text`) before any renderer
sees it, so no rule can print a secret the privacy rules would mask; so are the
secrets in paths (:func:`memlint.privacy.mask_secrets`: a file named after a token
is shown with the token masked, in every format). Only the copy that is shown is
masked; ``--fix`` applies the diagnostics it was given, unmasked.
"""

from __future__ import annotations

import sys

from memlint.diagnostics import Diagnostic, Fix
from memlint.privacy import mask_secrets, mask_text
from memlint.records import dataclass, field, replace

RENDERERS = {
    "full": ("text", "render_full"),
    "concise": ("text", "render_concise"),
    "json": ("json_format", "render_json"),
    "json-lines": ("json_format", "render_json_lines"),
    "sarif": ("sarif", "render_sarif"),
    "github": ("github", "render_github"),
    "junit": ("junit", "render_junit"),
    "gitlab": ("gitlab", "render_gitlab"),
    "agent": ("agent", "render_agent"),
}


def render(output_format: str, diagnostics, ctx: RenderContext) -> str:
    """``diagnostics`` in ``output_format`` (only that renderer's module is imported)."""
    module, function = RENDERERS[output_format]
    name = f"memlint.output.{module}"
    renderer = getattr(sys.modules.get(name) or __import__(name, fromlist=[function]), function)
    diagnostics = [masked(d) for d in diagnostics]
    paths = ShownPaths(diagnostics, ctx)
    if paths.hold_secrets:
        diagnostics = [paths.of(d) for d in diagnostics]
        ctx = paths.context(ctx)
    return renderer(diagnostics, ctx)


class ShownPaths:
    """The paths of a report as they are shown: secrets masked. One pass over them all
    finds none in nearly every report; only then is each path masked on its own (and
    the sources keyed by it: a source no diagnostic names is never shown)."""

    def __init__(self, diagnostics: list[Diagnostic], ctx: RenderContext) -> None:
        paths = {ctx.cwd}
        for diagnostic in diagnostics:
            paths.add(diagnostic.path)
            paths.add(diagnostic.display_path)
            if diagnostic.fix is not None:
                paths.update(edit.path for edit in diagnostic.fix.edits)
        joined = "\n".join(paths)
        self.hold_secrets = mask_secrets(joined) != joined
        self.shown: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        shown = self.shown.get(path)
        if shown is None:
            shown = self.shown[path] = mask_secrets(path)
        return shown

    def of(self, diagnostic: Diagnostic) -> Diagnostic:
        """``diagnostic`` with its paths (and its fix's) as shown."""
        path, display_path = self(diagnostic.path), self(diagnostic.display_path)
        fix = diagnostic.fix
        if fix is not None and any(self(edit.path) != edit.path for edit in fix.edits):
            edits = tuple(replace(edit, path=self(edit.path)) for edit in fix.edits)
            fix = Fix(edits, fix.applicability, fix.title)
        if (path, display_path, fix) == (diagnostic.path, diagnostic.display_path, diagnostic.fix):
            return diagnostic
        return replace(diagnostic, path=path, display_path=display_path, fix=fix)

    def context(self, ctx: RenderContext) -> RenderContext:
        """``ctx`` with the working folder as shown and the sources keyed by shown paths
        (two files whose shown paths coincide lose their snippets, never swap them)."""
        sources: dict = {}
        for path, source in ctx.sources.items():
            key = self(path)
            sources[key] = None if key in sources else source
        return replace(ctx, cwd=self(ctx.cwd), sources=sources)


def masked(diagnostic: Diagnostic) -> Diagnostic:
    """``diagnostic`` as it may be shown: secrets in its texts masked.

    The texts are masked in one pass, joined by blank lines (no detector matches
    across one but a key block, which is then masked whole); masking keeps each
    text's length, so they are cut apart again by length."""
    fix = diagnostic.fix
    texts = [diagnostic.message, *diagnostic.notes]
    if fix is not None:
        texts += [fix.title, *(edit.content for edit in fix.edits)]
    joined = "\n\n".join(texts)
    shown = mask_text(joined)
    if shown == joined:
        return diagnostic
    parts = []
    start = 0
    for text in texts:
        parts.append(shown[start : start + len(text)])
        start += len(text) + 2
    message, notes = parts[0], tuple(parts[1 : 1 + len(diagnostic.notes)])
    if fix is not None:
        title, contents = parts[1 + len(notes)], parts[2 + len(notes) :]
        edits = tuple(replace(e, content=c) for e, c in zip(fix.edits, contents, strict=True))
        fix = Fix(edits, fix.applicability, title)
    return replace(diagnostic, message=message, notes=notes, fix=fix)


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
    stdin_filename: str | None = None  # the file stdin was linted as
    lines: object = None  # the lines shown before (``cache.ShownLines``): read no file for them
