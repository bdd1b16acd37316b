"""FS: files and encoding."""

from memlint.rules.fs import fs001_unreadable_file, fs002_invalid_utf8, fs004_binary_file

RULES = (fs001_unreadable_file, fs002_invalid_utf8, fs004_binary_file)
