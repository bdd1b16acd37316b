"""``--output-format agent``: terse, capped, errors first, the fix command last."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import write_files

STORE = {
    "mem/MEMORY.md": "- [Tea](user_tea.md) — tea\n",
    "mem/user_tea.md": "---\nname: user_tea\ndescription: tea\ntype: user\n---\nGreen.\n",
}


def check(cwd, *args: str, stdin: bytes | None = None):
    result = subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--isolated", "--no-cache", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=120,
    )
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def test_errors_come_first_each_with_what_to_do(tmp_path):
    write_files(
        tmp_path,
        {
            **STORE,
            "mem/user_cocoa.md": "---\nname: user_cocoa\ndescription: x\ntype: usr\n---\nHot.\n",
        },
    )
    code, out, _ = check(tmp_path, "--output-format", "agent", "mem")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("mem/user_cocoa.md:1 IX002 ")
    assert lines[1] == (
        "mem/user_cocoa.md:4 FM010 `type` is `usr`; use one of user, feedback, project, "
        "reference — fix: use one of user, feedback, project, reference"
    )
    assert lines[-1] == "Apply the safe fixes: memlint check --fix mem/user_cocoa.md"


def test_output_is_capped_at_twenty_findings(tmp_path):
    files = dict(STORE)
    for i in range(30):
        files[f"mem/user_n{i:02}.md"] = (
            f"---\nname: user_n{i:02}\ndescription: n\ntype: usr\n---\nx\n"
        )
    write_files(tmp_path, files)
    code, out, _ = check(tmp_path, "--output-format", "agent", "--select", "FM010", "mem")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 21
    assert lines[-1] == "… and 10 more findings not shown."


def test_a_clean_store_says_so(tmp_path):
    write_files(tmp_path, STORE)
    assert check(tmp_path, "--output-format", "agent", "mem") == (
        0,
        "memlint: no problems found.\n",
        "",
    )


def test_a_draft_on_stdin(tmp_path):
    write_files(tmp_path, STORE)
    draft = b"---\nname: user_tea\ndescription: tea: hot\ntype: user\n---\nGreen.\n"
    code, out, _ = check(
        tmp_path,
        "--output-format",
        "agent",
        "--stdin-filename",
        "mem/user_tea.md",
        "-",
        stdin=draft,
    )
    assert code == 1
    assert out.startswith("mem/user_tea.md:3 FM003 ")
    assert "— fix: quote the value" in out


def test_the_fix_command_for_a_draft_reads_the_draft(tmp_path):
    write_files(tmp_path, STORE)
    draft = b"---\nname: user_tea\ndescription: tea\ntype: user\n---\nGreen."
    code, out, _ = check(
        tmp_path,
        "--output-format",
        "agent",
        "--stdin-filename",
        "mem/user_tea.md",
        "-",
        stdin=draft,
    )
    assert code == 0
    assert out.splitlines()[-1] == (
        "Apply the safe fixes: memlint check --fix --stdin-filename mem/user_tea.md - < DRAFT"
        " (prints the fixed text)"
    )
