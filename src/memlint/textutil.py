"""Making untrusted text safe to print."""

from __future__ import annotations

# The ASCII control characters but tab, LF and CR, as bytes: deleting them from ASCII
# text's bytes is one C loop, ~3x faster than a regex search for them (which tests a
# character set at each offset).
CONTROL_BYTES = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def has_ascii_control(text: str) -> bool:
    """Whether ASCII ``text`` holds a control character other than tab, LF and CR."""
    raw = text.encode("ascii")
    return len(raw.translate(None, CONTROL_BYTES)) != len(raw)


def plain_ascii(text: str) -> bool:
    """Whether ``text`` is ASCII without control characters other than tab, LF and CR
    (so it holds no invisible character)."""
    return text.isascii() and not has_ascii_control(text)


def escape(text: str) -> str:
    """Escape control, format (bidi, zero-width), separator and surrogate characters."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else escape_char(ch) for ch in text)


def shown(text: str) -> str:
    """``text`` as memlint prints it outside a diagnostic (a path, a setting, an error):
    secrets masked (:func:`memlint.privacy.mask_secrets`), then escaped."""
    from memlint.privacy import mask_secrets

    return escape(mask_secrets(text))


def escape_char(ch: str) -> str:
    """``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN`` for one character (YAML and Python agree)."""
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shorten(text: str, limit: int = 80) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut. A cut text has its
    secrets masked first: once cut, a secret no longer looks like one, and the
    masking of the output (:func:`memlint.output.masked`) would miss its prefix."""
    if len(text) <= limit:
        return text
    from memlint.privacy import mask_text

    return mask_text(text)[: limit - 1] + "…"


def plural(count: int, word: str) -> str:
    """``1 error``, ``2 errors``, ``2 hidden fixes``."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}es" if word.endswith(("s", "x", "sh", "ch")) else f"{count} {word}s"
