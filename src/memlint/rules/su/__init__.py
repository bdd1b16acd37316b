"""Rules of the SU family."""

RULES = ()
