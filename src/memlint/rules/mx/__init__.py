"""Rules of the MX family."""

RULES = ()
