"""GT: version control."""

from memlint.rules.gt import gt001_memory_tracked_by_git

RULES = (gt001_memory_tracked_by_git,)
