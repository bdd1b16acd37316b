"""Split YAML frontmatter off a Markdown file and load it defensively.

The block is parsed once with PyYAML's C composer when present (pure-Python
otherwise, or when ``MEMLINT_PURE_YAML=1``). Values are converted from nodes
by memlint itself, so no PyYAML constructor runs: nothing like ``2024-02-30``
or ``0b_`` can raise, aliases are refused before they are expanded, and every
key keeps its character offsets in the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

MAX_FRONTMATTER_CHARS = 64 * 1024
MAX_DEPTH = 64

CORE_TAGS = frozenset(
    "tag:yaml.org,2002:" + name
    for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
)


@dataclass(frozen=True, slots=True)
class YamlScalar:
    """A scalar YAML would load as something other than a string (``kind``: bool, int, ...)."""

    kind: str
    text: str


@dataclass(slots=True)
class Field:
    key: str
    value: object
    key_start: int
    value_start: int
    value_end: int
    style: str | None = None
    flow: bool = False
    children: dict[str, Field] | None = None


@dataclass(frozen=True, slots=True)
class FrontmatterProblem:
    """``kind``: unclosed, invalid-yaml, too-large, too-deep, not-mapping, duplicate-key, alias."""

    kind: str
    message: str
    offset: int


@dataclass(slots=True)
class Frontmatter:
    start: int
    content_start: int
    content_end: int
    end: int
    fields: dict[str, Field] = field(default_factory=dict)
    problems: list[FrontmatterProblem] = field(default_factory=list)
    duplicate_keys: set[str] = field(default_factory=set)
    parsed: bool = False

    def value(self, key: str) -> object:
        found = self.fields.get(key)
        return None if found is None else found.value

    def nested(self, parent: str, key: str) -> Field | None:
        holder = self.fields.get(parent)
        if holder is None or holder.children is None:
            return None
        return holder.children.get(key)


def find_block(text: str) -> tuple[int, int, int, int] | str | None:
    """Locate ``---`` … ``---`` at the top of ``text``.

    Returns ``(start, content_start, content_end, end)``, ``None`` when there is
    no opener, or ``"unclosed"`` when the opener has no closer.
    """
    if not text.startswith("---"):
        return None
    first_break = text.find("\n")
    if first_break == -1 or text[3:first_break].strip(" \t\r"):
        return None
    content_start = first_break + 1
    pos = content_start
    length = len(text)
    while pos <= length:
        nl = text.find("\n", pos)
        line_end = length if nl == -1 else nl
        if text.startswith("---", pos) and not text[pos + 3 : line_end].strip(" \t\r"):
            return (0, content_start, pos, length if nl == -1 else nl + 1)
        if nl == -1:
            break
        pos = nl + 1
    return "unclosed"


def parse_frontmatter(text: str) -> Frontmatter | None:
    """Split and load the frontmatter block of ``text`` (``None`` when there is none)."""
    block = find_block(text)
    if block is None:
        return None
    if block == "unclosed":
        fm = Frontmatter(0, 0, 0, 0)
        fm.problems.append(
            FrontmatterProblem("unclosed", "frontmatter opened with `---` is never closed", 0)
        )
        return fm
    start, content_start, content_end, end = block
    fm = Frontmatter(start, content_start, content_end, end)
    content = text[content_start:content_end]
    if len(content) > MAX_FRONTMATTER_CHARS:
        fm.problems.append(
            FrontmatterProblem(
                "too-large",
                f"frontmatter is {len(content)} characters, over the "
                f"{MAX_FRONTMATTER_CHARS} cap; not parsed",
                content_start,
            )
        )
        return fm
    _load(fm, content, content_start)
    return fm


def yaml_module():
    import yaml

    return yaml


def _loader():
    yaml = yaml_module()
    if os.environ.get("MEMLINT_PURE_YAML") == "1":
        return yaml.SafeLoader
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(fm: Frontmatter, content: str, base: int) -> None:
    yaml = yaml_module()
    if not content.strip():
        fm.parsed = True
        return
    try:
        root = yaml.compose(content, Loader=_loader())
    except RecursionError:
        fm.problems.append(FrontmatterProblem("too-deep", "YAML nesting is too deep to load", base))
        return
    except Exception as exc:  # any parser failure is a finding, never a crash
        fm.problems.append(_yaml_error(exc, content, base))
        return
    fm.parsed = True
    if root is None:
        return
    if not isinstance(root, yaml.MappingNode):
        fm.problems.append(
            FrontmatterProblem(
                "not-mapping",
                f"frontmatter is a {_node_kind(root, yaml)}, not a mapping of keys",
                base + root.start_mark.index,
            )
        )
        return
    if any(ch in content for ch in "&*!<"):
        _scan_events(fm, content, base, yaml)
    converter = _Converter(fm, base, yaml)
    fm.fields = converter.mapping(root, 1)


def _yaml_error(exc: Exception, content: str, base: int) -> FrontmatterProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    offset = base
    if mark is not None and isinstance(getattr(mark, "index", None), int):
        offset = base + min(max(mark.index, 0), len(content))
    problem = getattr(exc, "problem", None)
    context = getattr(exc, "context", None)
    if problem:
        text = f"{context}, {problem}" if context else str(problem)
    else:
        text = f"{type(exc).__name__}: {exc}".split("\n", 1)[0]
    return FrontmatterProblem("invalid-yaml", f"invalid YAML: {text}", offset)


def _node_kind(node, yaml) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "list"
    return "scalar"


def _scan_events(fm: Frontmatter, content: str, base: int, yaml) -> None:
    """Refuse anchors, aliases, merge keys and custom tags (only the events, nothing built)."""
    try:
        for event in yaml.parse(content, Loader=_loader()):
            offset = base + event.start_mark.index
            if isinstance(event, yaml.AliasEvent):
                fm.problems.append(
                    FrontmatterProblem("alias", "YAML alias `*` is not allowed", offset)
                )
            elif getattr(event, "anchor", None):
                fm.problems.append(
                    FrontmatterProblem("alias", "YAML anchor `&` is not allowed", offset)
                )
            tag = getattr(event, "tag", None)
            if tag and tag not in CORE_TAGS and tag != "!":
                fm.problems.append(
                    FrontmatterProblem("alias", "custom YAML tag is not allowed", offset)
                )
            if isinstance(event, yaml.ScalarEvent) and event.value == "<<" and event.plain_implicit:
                fm.problems.append(
                    FrontmatterProblem("alias", "YAML merge key `<<` is not allowed", offset)
                )
    except Exception:  # compose already succeeded; a scan failure adds nothing
        return


class _Converter:
    """Turn composed nodes into plain values without running YAML constructors."""

    def __init__(self, fm: Frontmatter, base: int, yaml) -> None:
        self.fm = fm
        self.base = base
        self.yaml = yaml
        self.seen: set[int] = set()

    def mapping(self, node, depth: int) -> dict[str, Field]:
        fields: dict[str, Field] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key is None:
                continue
            if key in fields:
                self.fm.problems.append(
                    FrontmatterProblem(
                        "duplicate-key",
                        f"duplicate key `{key}`: YAML keeps the last value silently",
                        self.base + key_node.start_mark.index,
                    )
                )
                if depth == 1:
                    self.fm.duplicate_keys.add(key)
            fields[key] = self.field(key, key_node, value_node, depth)
        return fields

    def field(self, key: str, key_node, node, depth: int) -> Field:
        value_start = self.base + node.start_mark.index
        value_end = self.base + node.end_mark.index
        result = Field(key, None, self.base + key_node.start_mark.index, value_start, value_end)
        if id(node) in self.seen:
            return result
        self.seen.add(id(node))
        yaml = self.yaml
        if isinstance(node, yaml.ScalarNode):
            result.style = node.style or ""
            result.value = scalar_value(node)
        elif isinstance(node, yaml.MappingNode):
            result.flow = bool(node.flow_style)
            if depth >= MAX_DEPTH:
                self._too_deep(value_start)
            else:
                result.children = self.mapping(node, depth + 1)
                result.value = {k: f.value for k, f in result.children.items()}
        else:
            result.flow = bool(node.flow_style)
            result.value = self.sequence(node, depth + 1)
        return result

    def sequence(self, node, depth: int) -> list:
        if depth >= MAX_DEPTH:
            self._too_deep(self.base + node.start_mark.index)
            return []
        items = []
        for item in node.value:
            items.append(self.field("-", item, item, depth).value)
        return items

    def _key(self, node) -> str | None:
        if isinstance(node, self.yaml.ScalarNode):
            return node.value
        return None

    def _too_deep(self, offset: int) -> None:
        if not any(p.kind == "too-deep" for p in self.fm.problems):
            self.fm.problems.append(
                FrontmatterProblem("too-deep", f"YAML nesting deeper than {MAX_DEPTH}", offset)
            )


def scalar_value(node) -> object:
    tag = node.tag or ""
    if tag.endswith(":str") or tag == "!":
        return node.value
    if tag.endswith(":null"):
        return None
    kind = tag.rsplit(":", 1)[-1] if tag.startswith("tag:yaml.org,2002:") else "tagged"
    return YamlScalar(kind, node.value)
