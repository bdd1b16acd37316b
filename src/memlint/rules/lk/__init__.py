"""LK: wikilinks between memories."""

RULES = (
    "lk001_pending_wikilink",
    "lk002_ambiguous_wikilink",
    "lk003_wikilink_case_mismatch",
    "lk004_link_to_superseded",
    "lk005_invalid_wikilink_target",
)
