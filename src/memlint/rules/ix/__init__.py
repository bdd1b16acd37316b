"""Rules of the IX family."""

RULES = ()
