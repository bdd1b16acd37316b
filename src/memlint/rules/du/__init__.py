"""DU: duplicated memories."""

from memlint.rules.du import du001_near_duplicate_memory

RULES = (du001_near_duplicate_memory,)
