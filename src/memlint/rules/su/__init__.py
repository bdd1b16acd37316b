"""SU: supersession (``description: superseded by [[successor]]``)."""

RULES = (
    "su001_missing_successor",
    "su002_self_supersession",
    "su003_supersession_cycle",
    "su004_superseded_successor",
    "su005_successor_name_drift",
    "su006_malformed_supersession",
)
