"""Split YAML frontmatter off a Markdown file and load it defensively.

The block is parsed once with PyYAML's C composer when present (pure-Python
otherwise, or when ``MEMLINT_PURE_YAML=1``). Values are converted from nodes
by memlint itself, so no PyYAML constructor runs: nothing like ``2024-02-30``
or ``0b_`` can raise, aliases are refused before they are expanded, and every
key keeps its character offsets in the file.
"""

from __future__ import annotations

import _imp
import os
import re
import sys

from memlint.privacy import LazyPattern
from memlint.records import dataclass, field
from memlint.textutil import has_ascii_control

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

    def __reduce__(self):  # unpickled by one call (a slots dataclass's state is set in Python)
        return YamlScalar, (self.kind, self.text)


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
    duplicate_keys: set[str] | frozenset[str] = field(default_factory=set)  # (shared when empty)
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
    length = len(text)
    at = text.find("\n---", first_break)  # the break before each line opening with ``---``
    while at != -1:
        pos = at + 1
        nl = text.find("\n", pos)
        line_end = length if nl == -1 else nl
        if not text[pos + 3 : line_end].strip(" \t\r"):
            return (0, first_break + 1, pos, length if nl == -1 else nl + 1)
        at = text.find("\n---", pos)
    return "unclosed"


def parse_frontmatter(text: str) -> Frontmatter | None:
    """Split and load the frontmatter block of ``text`` (``None`` when there is none)."""
    block = find_block(text)
    if block is None:
        return None
    if isinstance(block, str):  # "unclosed"
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
    if not content.strip():
        fm.parsed = True
        return
    fields = fast_fields(content, base)
    if fields is not None:
        fm.parsed = True
        fm.fields = fields
        return
    problem = unclosed_flow_list(content, base)
    if problem is not None:
        fm.problems.append(problem)
        return
    load_yaml(fm, content, base)


def load_yaml(fm: Frontmatter, content: str, base: int) -> None:
    """The general path: compose with PyYAML and convert the nodes."""
    yaml = yaml_module()
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
                    self.fm.duplicate_keys = self.fm.duplicate_keys | {key}
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


# -- fast path -----------------------------------------------------------------
# Most frontmatter is plain ``key: value`` lines, optionally one nested mapping
# (``metadata:`` + indented ``type: x``) and one-line flow lists (``tags: [a, b]``).
# Those are parsed by hand into exactly the Fields the YAML path builds; anything
# else returns None and goes to YAML.

# Characters that make PyYAML reject the text, break lines, or that we leave to YAML.
# (compiled on first use: ASCII text, most blocks, is tested by ``textutil.has_ascii_control``)
_UNSAFE = LazyPattern(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
_FLOW_TRAPS = re.compile(r"[\[\]{}#:]")  # nesting, comments, mappings: left to YAML
_PLAIN_FIRST = frozenset("?:,[]{}#&*!|>'\"%@`<= ")
_SINGLE = re.compile(r"'[^']*'\Z")
_DOUBLE = re.compile(r'"[^"\\]*"\Z')
_BOOLS = frozenset(
    word
    for base in ("yes", "no", "true", "false", "on", "off")
    for word in (base, base.capitalize(), base.upper())
)
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_FLOAT = re.compile(
    r"(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?"
    r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)
_INT = re.compile(
    r"(?:[-+]?0b[01_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)"
    r"|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)\Z"
)
_TIMESTAMP = re.compile(
    r"(?:[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}"
    r"(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)\Z"
)


def plain_value(text: str) -> object:
    """What YAML 1.1 (as PyYAML resolves it) makes of an unquoted one-line scalar."""
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return YamlScalar("bool", text)
    first = text[0]
    if first in "-+0123456789.":
        if _FLOAT.match(text):
            return YamlScalar("float", text)
        if first != "." and _INT.match(text):
            return YamlScalar("int", text)
        if first.isdigit() and _TIMESTAMP.match(text):
            return YamlScalar("timestamp", text)
    return text


def _scalar_field(key: str, key_start: int, value: str, value_start: int) -> Field | None:
    if not value.strip(" "):  # ``key:``, also with trailing blanks: null, or a nested mapping
        return Field(key, None, key_start, value_start, value_start, "")
    first = value[0]
    end = value_start + len(value)
    if first in _PLAIN_FIRST or first == "-":
        if first == "'" or first == '"':
            if not (_SINGLE if first == "'" else _DOUBLE).match(value):
                return None
            return Field(key, value[1:-1], key_start, value_start, end, first)
        if first == "[":
            items = _flow_items(value)
            if items is None:
                return None
            return Field(key, items, key_start, value_start, end, flow=True)
        if first != "-" or value[:2] in ("-", "- "):
            return None
    # ``_PLAIN_TRAPS`` with string methods: ": ", " #", or a final ":" or blank
    if ": " in value or " #" in value or value[-1] == ":" or value[-1] == " ":
        return None
    return Field(key, plain_value(value), key_start, value_start, end, "")


def _flow_items(value: str) -> list | None:
    """The items of a one-line flow list (``[a, 'b', 3]``) of plain or simply quoted
    scalars, or None. One in five memories has one (``tags: [a, b]``)."""
    if not value.endswith("]") or _FLOW_TRAPS.search(value, 1, len(value) - 1):
        return None
    inner = value[1:-1]
    if not inner.strip(" "):
        return []
    items: list = []
    for part in inner.split(","):
        item = part.strip(" ")
        if not item:  # ``[a,,b]``, ``[a,]``: left to YAML
            return None
        first = item[0]
        if first == "'" or first == '"':
            if not (_SINGLE if first == "'" else _DOUBLE).match(item):
                return None
            items.append(item[1:-1])
        elif first in _PLAIN_FIRST or first == "-":
            return None
        else:
            items.append(plain_value(item))
    return items


def unclosed_flow_list(content: str, base: int) -> FrontmatterProblem | None:
    """What PyYAML reports for a plain block whose last line opens a flow list it never
    closes (``broken: [a, b``), known without importing PyYAML (~10 ms of a small run);
    None for any other block."""
    if not content.isascii() or "\r" in content or "\t" in content or has_ascii_control(content):
        return None
    body = content.rstrip("\n")
    cut = body.rfind("\n") + 1
    last = body[cut:]
    colon = last.find(":")  # ``key: [``, unindented
    value = last[colon + 1 :].lstrip(" ")
    key, gap = last[:colon], last[colon + 1 : colon + 2]
    if colon == -1 or not _is_key(key) or gap != " " or not value.startswith("["):
        return None
    inner = value[1:]
    # (pure PyYAML also ends a plain scalar at ``?`` inside a flow list; libyaml does not)
    if _FLOW_TRAPS.search(inner) or "?" in inner or not all(map(_open_flow_item, inner.split(","))):
        return None
    if cut and fast_fields(body[:cut], base) is None:
        return None
    libyaml = _libyaml()
    if libyaml is None:
        return None
    said = (
        "did not find expected ',' or ']'"
        if libyaml
        else "expected ',' or ']', but got '<stream end>'"
    )
    return FrontmatterProblem(
        "invalid-yaml",
        f"invalid YAML: while parsing a flow sequence, {said}",
        base + len(content),
    )


def _open_flow_item(part: str) -> bool:
    item = part.strip(" ")
    if not item:
        return False
    if item[0] == "'" or item[0] == '"':
        return (_SINGLE if item[0] == "'" else _DOUBLE).match(item) is not None
    return item[0] not in _PLAIN_FIRST and item[0] != "-"


def _libyaml() -> bool | None:
    """Whether ``_loader`` would parse with libyaml, told without importing PyYAML
    (its C extension is next to it); None when PyYAML is not found."""
    if os.environ.get("MEMLINT_PURE_YAML") == "1":
        return False
    yaml = sys.modules.get("yaml")
    if yaml is not None:
        return hasattr(yaml, "CSafeLoader")
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        spec = find_spec("yaml", None) if find_spec is not None else None
        if spec is not None:
            break
    else:
        return None
    names = {f"_yaml{suffix}" for suffix in _imp.extension_suffixes()}
    try:
        return any(
            not names.isdisjoint(os.listdir(folder))
            for folder in spec.submodule_search_locations or ()
        )
    except OSError:
        return None


def fast_fields(content: str, base: int) -> dict[str, Field] | None:
    """Fields of a plain block (offsets shifted by ``base``), or None to use YAML."""
    if "\r" in content or "\t" in content:
        return None
    if has_ascii_control(content) if content.isascii() else _UNSAFE.search(content):
        return None
    fields: dict[str, Field] = {}
    parent: Field | None = None
    parent_values: dict[str, object] = {}  # parent.value once it has children
    child_indent = 0
    line_start = base
    for line in content.split("\n"):
        at = line_start
        line_start += len(line) + 1
        if not line:
            continue
        # ``indent key: value``: the key runs from the indent to the first colon
        colon = line.find(":")
        key = line[:colon].lstrip(" ")
        indent = colon - len(key)
        if colon == -1 or not _is_key(key) or line[colon + 1 : colon + 2] not in ("", " "):
            return None
        value = line[colon + 1 :].lstrip(" ")
        value_at = len(line) - len(value) if value else colon + 1
        if not value:  # an empty value sits right after the colon
            value = line[colon + 1 :]
        if indent:
            if parent is None or (child_indent and indent != child_indent):
                return None
            children = parent.children
            if children is None:
                child_indent = indent
                children = parent.children = {}
                parent.value = parent_values = {}
                parent.style = None
                parent.value_start = at + indent
            if key in children:
                return None
            child = _scalar_field(key, at + indent, value, at + value_at)
            if child is None:
                return None
            children[key] = child
            parent_values[key] = child.value
            continue
        if parent is not None and parent.children is not None:
            parent.value_end = at
        if key in fields:
            return None
        found = _scalar_field(key, at, value, at + value_at)
        if found is None:
            return None
        fields[key] = found
        parent = found if not value.strip(" ") else None
        child_indent = 0
    if parent is not None and parent.children is not None:
        parent.value_end = base + len(content)
    return fields


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,99}")
_KEYS_SEEN: dict[str, bool] = {}  # key -> whether ``_KEY`` takes it (a few dozen in a store)


def _is_key(key: str) -> bool:
    known = _KEYS_SEEN.get(key)
    if known is None:
        known = _KEY.fullmatch(key) is not None
        if len(_KEYS_SEEN) < 4096:
            _KEYS_SEEN[key] = known
    return known
