"""CT: what a memory says (empty bodies, template slots, relative dates)."""

RULES = (
    "ct001_empty_memory",
    "ct002_template_placeholder",
    "ct003_relative_date",
)
