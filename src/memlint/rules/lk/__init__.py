"""Rules of the LK family."""

RULES = ()
