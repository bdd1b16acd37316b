"""GT: version control."""

RULES = ("gt001_memory_tracked_by_git",)
