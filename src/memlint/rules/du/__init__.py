"""DU: duplicated memories."""

RULES = ("du001_near_duplicate_memory",)
