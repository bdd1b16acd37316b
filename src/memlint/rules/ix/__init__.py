"""IX: the index (MEMORY.md) and its agreement with the memory files."""

RULES = (
    "ix001_missing_index",
    "ix002_unindexed_memory",
    "ix003_index_target_missing",
    "ix004_index_target_escapes",
    "ix005_duplicate_index_entry",
    "ix006_malformed_index_entry",
    "ix007_index_line_too_long",
    "ix008_index_over_budget",
    "ix009_index_near_budget",
    "ix010_index_inline_content",
    "ix011_index_frontmatter",
    "ix012_stale_index_summary",
    "ix013_unlinked_index_entry",
    "ix014_index_system_context",
)
