"""NT: note stores (append-only JSONL)."""

RULES = (
    "nt001_invalid_json_record",
    "nt002_record_not_object",
    "nt003_torn_final_record",
    "nt004_fused_records",
    "nt005_missing_note_field",
    "nt006_invalid_rfc3339_time",
    "nt007_non_utc_time",
    "nt008_time_goes_backwards",
    "nt009_bad_field_type",
    "nt010_empty_tags",
    "nt011_unknown_note_field",
    "nt012_fact_not_one_sentence",
    "nt013_transcript_echo",
    "nt014_code_obvious_fact",
    "nt015_duplicate_note",
    "nt016_append_only_violation",
    "nt017_not_i_json",
    "nt018_blank_line",
    "nt019_null_text_value",
    "nt020_duplicate_record",
)
