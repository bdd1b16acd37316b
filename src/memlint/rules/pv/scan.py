"""Shared driver of the PV rules: run one detector over a file and report masked findings.

Markdown files (memories, the index, frontmatter included) get an unsafe fix that
replaces the span with the redaction marker. Note stores are append-only, so their
findings never carry a fix; the message says to rewrite the history instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memlint.diagnostics import Edit, Fix
from memlint.privacy import Finding, drop_redacted, mask
from memlint.rules.base import Option
from memlint.sources.frontmatter import parse_frontmatter
from memlint.sources.yamledit import frontmatter_change, replace_scalar

ALLOW_PATTERNS = Option(
    "allow-patterns", list, [], "regexes: a finding whose value matches one is not reported"
)
APPEND_ONLY_HINT = "the note store is append-only: rewrite its history to remove it"
# a wikilink's target; a Markdown link's destination
LINK_TARGETS = (re.compile(r"\[\[([^\[\]\n]{1,200})\]\]"), re.compile(r"\]\(\s*<?([^()\s>]*)"))
NAMES_A_FILE = "it names a file: rename the file first (`memlint mv`)"


def string_list(value) -> list[str]:
    """A rule option that should be a list of strings (a single string is a one-item list)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def allow_patterns(options: dict) -> list[re.Pattern]:
    """``allow-patterns``: regexes; a finding whose value matches one is not reported."""
    patterns = []
    for text in string_list(options.get("allow-patterns")):
        try:
            patterns.append(re.compile(text))
        except re.error:
            patterns.append(re.compile(re.escape(text)))
    return patterns


def check_source(ctx, source, detect: Callable[[str], list[Finding]], what: str):
    """Diagnostics for every finding of ``detect`` in ``source`` (Markdown or note store)."""
    if source.text is None and not source.raw:
        return
    marker = ctx.settings.redaction_marker
    if source.rel.endswith(".jsonl"):  # a store reads .jsonl files as note stores only
        yield from _check_notes(ctx, source, detect, what, allow_patterns(ctx.options), marker)
        return
    text = source.text
    if text is None:
        return
    found = detect(text)
    if not found:  # most files: no option is read, no marker looked for
        return
    found = _kept(text, found, allow_patterns(ctx.options), marker)
    frontmatter = parse_frontmatter(text) if found and text.startswith("---") else None
    for finding in found:
        value = finding.value(text)
        edit = redaction(source, frontmatter, finding.start, finding.end, marker)
        fix = None
        if not isinstance(edit, str):
            fix = Fix.unsafe(
                f"Replace the {finding.label}{_where(frontmatter, finding)} with `{marker}`", edit
            )
        notes = (f"no automatic fix: {edit}; redact it by hand",) if fix is None else ()
        message = f"{what}: {finding.label} `{mask(value, finding.keep)}`"
        yield ctx.report(source, finding.start, finding.end, message, fix=fix, notes=notes)


def redaction(source, frontmatter, start: int, end: int, marker: str) -> Edit | str:
    """The edit replacing ``start``..``end`` with ``marker``, or why there is none.

    In the frontmatter the marker must not change the YAML: inside a plain
    one-line value the whole value is rewritten (quoted when needed, so
    ``[REDACTED]`` stays a string); anywhere else the plain splice is kept
    only when every key and value type survives it.
    """
    text = source.text
    if _in_link_target(text, start, end):
        return NAMES_A_FILE
    inside = frontmatter is not None and frontmatter.content_start <= start < frontmatter.end
    if not inside:
        return source.edit(start, end, marker)
    found = _holding_field(frontmatter, start, end)
    if found is not None and found[0] == "name" and text[start:end] in source.rel:
        return NAMES_A_FILE
    if found is not None:
        key, holder = found
        raw = text[holder.value_start : holder.value_end]
        if holder.style == "" and raw == holder.value:
            offset = holder.value_start
            new_value = raw[: start - offset] + marker + raw[end - offset :]
            return replace_scalar(source, frontmatter, key, new_value)
    spliced = text[:start] + marker + text[end:]
    reason = frontmatter_change(text, spliced)
    if reason is not None:
        return f"the marker in the frontmatter: {reason}"
    return source.edit(start, end, marker)


def _in_link_target(text: str, start: int, end: int) -> bool:
    """Whether ``start``..``end`` lies in a link's target: redacted there, the link
    breaks, and the fixes that mend links (IX003) would write the secret back."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return any(
        match.start(1) <= start and end <= match.end(1)
        for pattern in LINK_TARGETS
        for match in pattern.finditer(text, line_start, line_end)
    )


def _where(frontmatter, finding: Finding) -> str:
    """`` in `key` `` for a value in the frontmatter field ``key``: the fixer tells fixes
    apart by title and file, and withholding one that breaks a reference (a ``name``)
    must not withhold the body's redaction of the same value with it."""
    if frontmatter is None or not frontmatter.content_start <= finding.start < frontmatter.end:
        return ""
    found = _holding_field(frontmatter, finding.start, finding.end)
    return f" in `{found[0]}`" if found is not None else " in the frontmatter"


def _holding_field(frontmatter, start: int, end: int):
    """``(key, field)`` of the scalar whose value spans ``start``..``end`` (``a.b`` when nested)."""
    for key, found in frontmatter.fields.items():
        for name, holder in ((key, found), *_children(key, found)):
            if holder.value_start <= start and end <= holder.value_end and not holder.children:
                return name, holder
    return None


def _children(key: str, found):
    return [(f"{key}.{name}", child) for name, child in (found.children or {}).items()]


def _check_notes(ctx, source, detect, what, allowed, marker):
    from memlint.sources.jsonl import note_file  # (json: only for a store with JSONL files)

    for record in note_file(source).records:
        text = record.text
        found = _kept(text, detect(text), allowed, marker)
        seen = {finding.value(text) for finding in found}
        for finding in found:
            message = (
                f"{what}: {finding.label} `{mask(finding.value(text), finding.keep)}` "
                f"({APPEND_ONLY_HINT})"
            )
            rng = record.range(finding.start, finding.end)
            yield ctx.report_at(source.path, source.display, rng, message)
        if "\\" not in text or not record.parsed:
            continue
        for value in _escaped_strings(record.value, text):
            for finding in _kept(value, detect(value), allowed, marker):
                shown = finding.value(value)
                if shown in seen:
                    continue
                seen.add(shown)
                message = (
                    f"{what} (written with JSON escapes): {finding.label} "
                    f"`{mask(shown, finding.keep)}` ({APPEND_ONLY_HINT})"
                )
                yield ctx.report_at(source.path, source.display, record.range(0, 0), message)


def _escaped_strings(value, raw: str) -> list[str]:
    """Decoded strings of a record that are not written verbatim (``\\u0041``, ``\\/``)."""
    out = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item not in raw:
                out.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _kept(text: str, found: list[Finding], allowed, marker: str) -> list[Finding]:
    if not found:
        return found
    found = drop_redacted(text, found, marker)
    if allowed:
        found = [f for f in found if not any(p.search(f.value(text)) for p in allowed)]
    return found
