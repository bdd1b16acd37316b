"""``memlint rule CODE`` / ``--all``: rule documentation from the registry."""

from __future__ import annotations

import json
import sys

from memlint.diagnostics import FixAvailability

FIX_TEXT = {
    FixAvailability.NONE: "",
    FixAvailability.SOMETIMES: "Fix is sometimes available.",
    FixAvailability.ALWAYS: "Fix is always available.",
}


def rule_dict(module) -> dict:
    meta = module.META
    return {
        "code": meta.code,
        "name": meta.name,
        "summary": meta.summary,
        "severity": meta.severity.label,
        "profiles": sorted(meta.profiles),
        "fix": meta.fix.value,
        "default_enabled": meta.default_enabled,
        "options": {key: value for key, value in meta.options.items()},
        "explanation": (module.__doc__ or "").strip(),
    }


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
        head.append("Options: " + ", ".join(f"`{k}` = {v!r}" for k, v in meta.options.items()))
    return "\n".join(head) + "\n\n" + (module.__doc__ or "").strip() + "\n"


def run_rule_command(args) -> int:
    from memlint.rules import REGISTRY

    if args.all:
        modules = [REGISTRY[code] for code in sorted(REGISTRY)]
    elif args.code and args.code.upper() in REGISTRY:
        modules = [REGISTRY[args.code.upper()]]
    else:
        print(f"memlint: error: unknown rule {args.code!r}", file=sys.stderr)
        return 2
    if args.output_format == "json":
        data = [rule_dict(m) for m in modules]
        print(json.dumps(data if args.all else data[0], indent=2))
    else:
        print("\n".join(rule_text(m) for m in modules), end="")
    return 0
