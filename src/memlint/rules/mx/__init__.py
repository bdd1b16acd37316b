"""MX: memlint itself."""

RULES = (
    "mx001_unused_suppression",
    "mx002_rule_crashed",
    "mx003_guessed_profile",
)
