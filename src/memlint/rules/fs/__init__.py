"""FS: files and encoding."""

RULES = (
    "fs001_unreadable_file",
    "fs002_invalid_utf8",
    "fs003_utf8_bom",
    "fs004_binary_file",
    "fs005_file_too_large",
    "fs006_symlink_skipped",
    "fs007_not_a_regular_file",
    "fs008_missing_final_newline",
    "fs009_mixed_line_endings",
    "fs010_hidden_unicode",
    "fs011_nameless_file",
)
