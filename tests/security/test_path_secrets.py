"""No secret in a file or folder NAME leaves memlint in clear, whatever prints the path.

Agents name memory files after what they hold, and a token pasted into a title ends
up in a file name. A store holds a memory file named by a GitHub token, a folder
named by another, a memory whose name embeds a third in the middle of other words, a
note store named by a fourth, and index entries and wikilinks pointing at them; the
command line names some of them, a missing one, and a cache folder and report file
named by tokens. Every byte the real command writes (stdout, stderr, ``-o`` files,
the GitHub step summary), in every format and mode, is searched for any piece of any
token.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import write_files
from tests.security.common import run_plain
from tests.security.test_output_masking import FORMATS, _leaks, _token

MODES = [
    ["--diff"],
    ["--diff", "--unsafe-fixes"],
    ["--show-files"],
    ["--show-loaded"],
    ["--statistics"],
    ["--show-fixes", "--fix"],
]


def _output(proc) -> bytes:
    assert proc.returncode in (0, 1, 2), proc.stderr.decode(errors="replace")
    assert b"Traceback" not in proc.stderr, proc.stderr.decode(errors="replace")
    return proc.stdout + proc.stderr


@pytest.fixture
def planted(tmp_path) -> tuple[Path, dict[str, str]]:
    tokens = {place: _token() for place in ("file", "folder", "inner", "notes", "link", "gone")}
    memory = "---\nname: {name}\ndescription: {name} fact\nmetadata:\n  type: user\n---\n{body}\n"
    write_files(
        tmp_path / "s",
        {
            "MEMORY.md": (
                f"- [f]({tokens['file']}.md) — f\n"
                f"- [g]({tokens['folder']}/g.md) — g\n"
                f"- [x]({tokens['gone']}.md) — gone\n"
            ),
            # unindexed (IX002 names it), name differs from the stem (ID002)
            f"{tokens['file']}.md": memory.format(name="f", body=f"See [[{tokens['link']}]]."),
            f"{tokens['folder']}/g.md": memory.format(name="g", body="body"),
            f"{tokens['folder']}/broken.md": "---\nname: [\n---\nbody\n",
            f"notes-{tokens['inner']}-old.md": memory.format(name="old", body="See [[f]]."),
            f"{tokens['notes']}.jsonl": '{"time":"2024-01-01T00:00:00Z","fact":"x."}\n{\n',
        },
    )
    return tmp_path, tokens


@pytest.mark.parametrize("output_format", FORMATS)
def test_no_format_prints_a_secret_path(planted, output_format):
    root, tokens = planted
    summary = root / "summary.md"
    out_file = root / "report.out"
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    base = ["check", "s", "--select", "ALL", "--no-cache", "--output-format", output_format]
    output = _output(run_plain(root, *base, env=env))
    output += _output(run_plain(root, *base, "-o", str(out_file), env=env))
    output += out_file.read_bytes()
    named = ["check", f"s/{tokens['file']}.md", f"s/{tokens['folder']}/g.md", "--no-cache"]
    output += _output(run_plain(root, *named, "--output-format", output_format, env=env))
    if summary.exists():
        output += summary.read_bytes()
    assert b"ghp_*****" in output  # masked, not dropped
    assert _leaks(output, tokens) == []


@pytest.mark.parametrize("mode", MODES, ids=" ".join)
def test_no_mode_prints_a_secret_path(planted, mode):
    root, tokens = planted
    output = _output(run_plain(root, "check", "s", "--select", "ALL", "--no-cache", *mode))
    assert _leaks(output, tokens) == []


def test_errors_and_warnings_do_not_print_a_secret_path(planted):
    root, tokens = planted
    token = _token()
    tokens = {**tokens, "argument": token}
    output = b""
    for argv in (
        ["check", f"s/{token}.md"],  # missing
        ["check", f"{token}/"],
        ["check", "s", "--cache-dir", str(root / token / "cache")],
        ["check", "s", "-o", str(root / token / "out.json")],  # cannot write there
        ["check", "-", "--stdin-filename", f"s/{token}.md"],
        ["check", "-", "--stdin-filename", f"s/{token}.md", "--fix"],
        ["check", "s", "--config", str(root / f"{token}.toml")],
        ["mv", f"s/{tokens['file']}.md", f"s/{token}.md", "--dry-run"],
        ["mv", f"s/{token}.md", "s/other.md"],
    ):
        stdin = b"---\nname: a\ndescription: a\n---\nbody\n" if "-" in argv else None
        output += _output(run_plain(root, *argv, stdin=stdin))
    (root / "s" / ".memlint.toml").write_text(
        f'select = ["{token}"]\nexclude = ["{token}"]\n[rules.{token}]\nx = 1\n',
        encoding="utf-8",
    )
    output += _output(run_plain(root, "check", "s", "--no-cache"))
    assert _leaks(output, tokens) == []


def test_suggested_names_do_not_spell_a_secret_in_lower_case(tmp_path):
    """ID004 and ID005 suggest a lower-cased name: made from the name as shown, never
    from the token itself (a lower-cased GitHub token is no longer masked, and its
    checksum lets the letters' case be found again offline)."""
    tokens = {"stem": _token(), "slug": _token()}
    memory = "---\nname: {name}\ndescription: d\nmetadata:\n  type: user\n---\nbody\n"
    write_files(
        tmp_path / "s",
        {
            "MEMORY.md": "- [a](user_a.md) — a\n",
            "user_a.md": memory.format(name="user_a"),
            f"{tokens['stem']}.md": memory.format(name="b"),
            f"user_{tokens['slug']}.md": memory.format(name="c"),
        },
    )
    output = b""
    for output_format in ("full", "json"):
        argv = ["check", "s", "--select", "ID004,ID005", "--no-cache", "-q"]
        output += _output(run_plain(tmp_path, *argv, "--output-format", output_format))
    assert b"ID004" in output and b"ID005" in output and b"e.g. `user_ghp-" in output
    lowered = {place: token.lower() for place, token in tokens.items()}
    assert _leaks(output, tokens) == [] and _leaks(output.lower(), lowered) == []
