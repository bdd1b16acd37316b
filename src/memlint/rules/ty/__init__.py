"""TY: bodies of typed memories."""

RULES = (
    "ty001_missing_why",
    "ty002_missing_how_to_apply",
    "ty003_section_label_form",
)
