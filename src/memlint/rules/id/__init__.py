"""ID: identity. The typed-profile rules ID004-ID006 are added by their own modules."""

RULES = (
    "id001_name_filename_mismatch",
    "id002_duplicate_filename",
    "id003_duplicate_name",
    "id004_typed_filename_form",
    "id005_invalid_slug",
    "id006_type_prefix_mismatch",
    "id007_case_collision",
    "id008_folder_document",
)
