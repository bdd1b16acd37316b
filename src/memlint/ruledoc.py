"""``memlint rule CODE`` / ``--all``: rule documentation from the registry."""

from __future__ import annotations

import os
import re

from memlint import REPOSITORY_URL, __version__
from memlint.diagnostics import FixAvailability

DOCS_REF_ENV = "MEMLINT_DOCS_REF"  # the git ref whose docs/rules.md links point at
SAFE_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,99}")

FIX_TEXT = {
    FixAvailability.NONE: "",
    FixAvailability.SOMETIMES: "Fix is sometimes available.",
    FixAvailability.ALWAYS: "Fix is always available.",
}


def docs_ref() -> str:
    """``$MEMLINT_DOCS_REF`` (the Action sets it to the ref it was pinned at) when it is a
    plain ref name or SHA, else the release tag of this version."""
    ref = os.environ.get(DOCS_REF_ENV, "")
    return ref if SAFE_REF.fullmatch(ref) and ".." not in ref else f"v{__version__}"


def rule_anchor(code: str, name: str) -> str:
    """GitHub's anchor of the rule's heading ``## CODE name`` in docs/rules.md."""
    return f"{code} {name}".lower().replace(" ", "-")


def rule_url(code: str) -> str | None:
    """The rule's section of docs/rules.md at the pinned ref, or ``None`` for no rule."""
    from memlint.rules import rule_module

    module = rule_module(code)
    if module is None:
        return None
    anchor = rule_anchor(code, module.META.name)
    return f"{REPOSITORY_URL}/blob/{docs_ref()}/docs/rules.md#{anchor}"


def rule_dict(module) -> dict:
    from memlint.rules.shared import SHARED

    meta = module.META
    return {
        "code": meta.code,
        "name": meta.name,
        "summary": meta.summary,
        "severity": meta.severity.label,
        "profiles": sorted(meta.profiles),
        "fix": meta.fix.value,
        "default_enabled": meta.default_enabled,
        "options": meta.defaults(),
        "option_details": [option_dict(option) for option in meta.options],
        "shared_settings": [option_dict(SHARED[name]) for name in meta.shared],
        "explanation": (module.__doc__ or "").strip(),
    }


def option_dict(option) -> dict:
    found = {"name": option.name, "type": option.describe_type(), "default": option.default}
    if option.minimum is not None:
        found["minimum"] = option.minimum
    if option.maximum is not None:
        found["maximum"] = option.maximum
    return {**found, "doc": option.doc}


def options_text(meta) -> str:
    """The rule's options, one per line (``memlint rule CODE`` and docs/rules.md)."""
    return "\n".join(f"- {option.describe()}" for option in meta.options)


def shared_text(meta) -> str:
    """The shared settings the rule reads, one per line, with the old name of each."""
    from memlint.rules.shared import ALIASES, SHARED

    old = {name: f"[rules.{code}] {key}" for (code, key), name in ALIASES.items()}
    return "\n".join(
        f"- {SHARED[name].describe()}" + (f" (also read from `{old[name]}`)" if name in old else "")
        for name in meta.shared
    )


def rule_text(module) -> str:
    meta = module.META
    head = [f"# {meta.name} ({meta.code})", ""]
    head.append(
        f"Default severity: {meta.severity.label}. Profiles: {', '.join(sorted(meta.profiles))}."
    )
    if not meta.default_enabled:
        head.append("Off by default: enable it with `--extend-select " + meta.code + "`.")
    if FIX_TEXT[meta.fix]:
        head.append(FIX_TEXT[meta.fix])
    if meta.options:
        head.append(f"Options, under `[rules.{meta.code}]`:\n{options_text(meta)}")
    if meta.shared:
        head.append(f"Shared settings it reads, under `[shared]`:\n{shared_text(meta)}")
    return "\n".join(head) + "\n\n" + (module.__doc__ or "").strip() + "\n"


def rules_table_markdown() -> str:
    """The rule list as a Markdown table (kept in README.md by a test)."""
    from memlint.rules import registry

    fix_marks = {
        FixAvailability.NONE: "",
        FixAvailability.SOMETIMES: "🛠",
        FixAvailability.ALWAYS: "🛠",
    }
    lines = ["| code | name | severity | profiles | fix |", "|---|---|---|---|---|"]
    for code, module in sorted(registry().items()):
        meta = module.META
        profiles = ", ".join(sorted(meta.profiles))
        flag = "" if meta.default_enabled else " (off by default)"
        lines.append(
            f"| {code} | `{meta.name}`{flag} | {meta.severity.label} | {profiles} "
            f"| {fix_marks[meta.fix]} |"
        )
    return "\n".join(lines) + "\n"


def update_readme(text: str) -> str:
    """Replace the table between the README's rule markers with the current one."""
    head, _, rest = text.partition(README_START)
    _, _, tail = rest.partition(README_END)
    return f"{head}{README_START}\n{rules_table_markdown()}{README_END}{tail}"


README_START = "<!-- rules:start -->"
README_END = "<!-- rules:end -->"


if __name__ == "__main__":
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    readme.write_text(update_readme(readme.read_text(encoding="utf-8")), encoding="utf-8")
