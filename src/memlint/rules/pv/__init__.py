"""PV: privacy and secrets (every profile: memory bodies, frontmatter, index, note records)."""

RULES = (
    "pv001_credential",
    "pv002_private_key_block",
    "pv003_password_in_url",
    "pv004_email_address",
    "pv005_home_path",
    "pv006_numeric_identifier",
    "pv007_payment_card",
    "pv008_iban",
    "pv009_phone_number",
)
