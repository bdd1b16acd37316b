"""Rules of the ID family."""

RULES = ()
