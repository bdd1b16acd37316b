"""FM: frontmatter."""

RULES = (
    "fm001_missing_frontmatter",
    "fm002_unclosed_frontmatter",
    "fm003_invalid_yaml",
    "fm004_frontmatter_not_mapping",
    "fm005_duplicate_key",
    "fm006_yaml_alias",
    "fm007_missing_required_key",
    "fm008_empty_required_value",
    "fm009_non_string_value",
    "fm010_invalid_memory_type",
    "fm011_conflicting_type",
    "fm012_multiline_description",
)
