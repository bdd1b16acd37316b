"""MX: memlint itself."""

from memlint.rules.mx import mx001_unused_suppression, mx002_rule_crashed

RULES = (mx001_unused_suppression, mx002_rule_crashed)
