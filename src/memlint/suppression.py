"""Inline suppressions in Markdown files, applied after every rule has run.

Directives are HTML comments (invisible when rendered)::

    <!-- memlint: ignore[LK001] -->        own line: the next line; trailing: its own line
    <!-- memlint: allow[LK001] -->         the same as ignore
    <!-- memlint: disable[LK, FM003] -->   from here ...
    <!-- memlint: enable[LK, FM003] -->    ... to here (or to the end of the file)
    <!-- memlint: file-ignore[ID] -->      the whole file

Codes may be prefixes (``LK``) or ``ALL``. A directive inside code (fences,
indented blocks, code spans) or inside another comment is text, not a directive.
Directives that suppress nothing are handed to MX001.
"""

from __future__ import annotations

from collections.abc import Iterable

from memlint.diagnostics import Diagnostic
from memlint.privacy import LazyPattern
from memlint.records import dataclass, field
from memlint.rules import CRASH_RULE, UNUSED_SUPPRESSION_RULE, rule_code
from memlint.sources.document import SourceFile
from memlint.sources.markdown import prose_lines

UNUSED_SUPPRESSION = rule_code(UNUSED_SUPPRESSION_RULE)
UNSUPPRESSIBLE = frozenset({rule_code(CRASH_RULE)})  # a crashed rule checked nothing
DIRECTIVE_MARK = "memlint:"  # text without it holds no directive
DIRECTIVE = LazyPattern(
    r"<!--[ \t]{0,20}memlint:[ \t]{0,20}(ignore|allow|disable|enable|file-ignore)"
    r"\[([^\]\n]{0,300})\][ \t]{0,20}-->"
)
CODE_SEPARATOR = LazyPattern(r"[,\s]{1,50}")
MASK = "\0\0\0\0"  # stands in for "<!--" so that prose_lines keeps real directives visible
END_OF_FILE = 1 << 62


@dataclass(eq=False)
class Directive:
    """One suppression comment at text offsets ``start``..``end`` of ``source``."""

    source: SourceFile
    kind: str
    codes: tuple[str, ...]
    start: int
    end: int
    codes_start: int
    first_line: int = 0
    last_line: int = 0
    used: set[str] = field(default_factory=set)
    partners: list[Directive] = field(default_factory=list)

    @property
    def line(self) -> int:
        return self.source.position(self.start).line

    def covers(self, diagnostic: Diagnostic) -> list[str]:
        """The codes of this directive that suppress ``diagnostic``."""
        if self.kind == "enable" or not self.first_line <= diagnostic.range.start.line:
            return []
        if diagnostic.range.start.line > self.last_line:
            return []
        return [code for code in self.codes if code == "ALL" or diagnostic.code.startswith(code)]

    @property
    def unused(self) -> tuple[str, ...]:
        return tuple(code for code in self.codes if code not in self.used)


def parse_directives(source: SourceFile, body_start: int = 0) -> list[Directive]:
    """The directives of one Markdown file, with the lines each one covers."""
    text = source.text
    if text is None or DIRECTIVE_MARK not in text:
        return []
    matches = [m for m in DIRECTIVE.finditer(text, body_start)]
    if not matches:
        return []
    masked = list(text)
    for match in matches:
        masked[match.start() : match.start() + 4] = MASK
    visible = set()
    for offset, line in prose_lines("".join(masked), body_start):
        position = line.find(MASK)
        while position != -1:
            visible.add(offset + position)
            position = line.find(MASK, position + 4)
    directives = []
    for match in matches:
        if match.start() not in visible:
            continue
        kind = "ignore" if match.group(1) == "allow" else match.group(1)
        codes = tuple(code for code in CODE_SEPARATOR.split(match.group(2)) if code)
        directives.append(
            Directive(source, kind, codes, match.start(), match.end(), match.start(2))
        )
    _assign_lines(source, directives)
    return directives


def own_line(source: SourceFile, start: int, end: int) -> bool:
    line = source.position(start).line
    line_start, line_end = source.line_span(line)
    text = source.text or ""
    return not text[line_start:start].strip() and not text[end:line_end].strip()


def _assign_lines(source: SourceFile, directives: list[Directive]) -> None:
    open_ranges: dict[str, list[Directive]] = {}
    for directive in directives:
        line = directive.line
        if directive.kind == "file-ignore":
            directive.first_line, directive.last_line = 1, END_OF_FILE
        elif directive.kind == "ignore":
            target = line + 1 if own_line(source, directive.start, directive.end) else line
            directive.first_line = directive.last_line = target
        elif directive.kind == "disable":
            directive.first_line, directive.last_line = line, END_OF_FILE
            for code in directive.codes:
                open_ranges.setdefault(code, []).append(directive)
        else:
            for code in directive.codes:
                for opened in open_ranges.pop(code, []):
                    opened.last_line = min(opened.last_line, line)
                    opened.partners.append(directive)
                    directive.used.add(code)


def apply_suppressions(
    sources: Iterable[tuple[SourceFile, int]], diagnostics: list[Diagnostic]
) -> tuple[list[Diagnostic], list[Directive]]:
    """Drop suppressed diagnostics; return the rest and the directives with unused codes.

    ``sources`` are the Markdown files with the offset where their body starts.
    """
    by_path: dict[str, list[Directive]] = {}
    for source, body_start in sources:
        found = parse_directives(source, body_start)
        if found:
            by_path[source.path] = found
    if not by_path:
        return diagnostics, []
    kept = []
    for diagnostic in diagnostics:
        suppressed = False
        if diagnostic.code not in UNSUPPRESSIBLE:
            for directive in by_path.get(diagnostic.path, ()):
                codes = directive.covers(diagnostic)
                directive.used.update(codes)
                suppressed = suppressed or bool(codes)
        if not suppressed:
            kept.append(diagnostic)
    unused = [d for directives in by_path.values() for d in directives if d.unused]
    return kept, unused


def markdown_sources(store) -> list[tuple[SourceFile, int]]:
    """Every Markdown file of ``store`` reported on that was read and may hold a
    directive, with its body offset (frontmatter is not searched)."""
    from memlint.sources.frontmatter import parse_frontmatter

    found = []
    # a file not reported on: its directives suppress only its own findings, not shown
    for source in store.reported_files:
        if not source.path.endswith((".md", ".markdown")):
            continue
        if source.known is not None and not source.known.has_directive:
            continue  # unchanged since a read that found none: not read again
        text = source.text
        if text is not None and DIRECTIVE_MARK in text:
            frontmatter = parse_frontmatter(text)
            found.append((source, frontmatter.end if frontmatter is not None else 0))
    return found
