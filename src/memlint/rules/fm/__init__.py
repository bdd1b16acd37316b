"""Rules of the FM family."""

RULES = ()
