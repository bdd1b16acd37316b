"""TY: bodies of typed memories."""

from memlint.rules.ty import ty001_missing_why, ty002_missing_how_to_apply

RULES = (ty001_missing_why, ty002_missing_how_to_apply)
