"""Hostile file contents and names end in findings or a clear error, never a traceback."""

from __future__ import annotations

import os
import sys

import pytest

from tests.helpers import write_files
from tests.security.common import memlint

STORE = {
    "memory/MEMORY.md": "- [A](a.md) — a\n",
    "memory/a.md": "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\nbody\n",
}
FORMATS = ("full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab", "agent")


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="needs byte file names")
@pytest.mark.parametrize("output_format", FORMATS)
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(tmp_path, output_format):
    write_files(tmp_path, STORE)
    memory = "---\nname: b\ndescription: b\nmetadata:\n  type: user\n---\nbody\n"
    (tmp_path / "memory" / os.fsdecode(b"b\xff\xfe.md")).write_text(memory)
    done = memlint(tmp_path, "check", "memory", "--output-format", output_format)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1 and "IX002" in done.stdout


def test_fix_keeps_a_file_with_cr_line_breaks_in_its_own_style(tmp_path):
    """A file whose lines end in a lone CR does end with a line break: FS008 appended
    a LF, leaving the file's last break a CRLF among CRs."""
    memory = STORE["memory/a.md"].replace("\n", "\r")
    write_files(tmp_path, {**STORE, "memory/a.md": memory})
    memlint(tmp_path, "check", "--fix", "--select", "FS008", "memory")
    assert (tmp_path / "memory" / "a.md").read_bytes() == memory.encode()
