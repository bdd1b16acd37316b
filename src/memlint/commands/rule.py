"""``memlint rule CODE`` / ``--all``: a rule's documentation, as text or JSON."""

from __future__ import annotations

import json

from memlint import console
from memlint.console import EXIT_OK

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    from memlint.ruledoc import rule_dict, rule_text
    from memlint.rules import registry

    rules = registry()
    if args.all:
        modules = [rules[code] for code in sorted(rules)]
    elif args.code and args.code.upper() in rules:
        modules = [rules[args.code.upper()]]
    else:
        return console.error(f"unknown rule {args.code!r}")
    if args.output_format == "json":
        data = [rule_dict(m) for m in modules]
        print(json.dumps(data if args.all else data[0], indent=2))
    else:
        print("\n".join(rule_text(m) for m in modules), end="")
    return EXIT_OK
