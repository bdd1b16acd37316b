"""No secret the privacy rules mask leaves memlint in clear, whatever rule quotes it.

A store carries a different GitHub-shaped token in each place a rule quotes: a
`name` (ID001), a description (IX012 message and fix, cut by `shorten`), an index
target (IX003), a wikilink (LK001), a successor (SU001) and the name it nearly
matches (SU001 note), an unindexed memory's description (IX002 help and fix), and a
private key block (its body lines in `--diff` and `--show-loaded`). The real command
runs in every output format and mode; every byte it writes, to stdout, stderr, `-o`
files and the GitHub step summary, is searched for any piece of any secret.
"""

from __future__ import annotations

import json
import secrets
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import write_files
from tests.security.common import run_plain

FORMATS = ("full", "concise", "json", "json-lines", "github", "sarif", "junit", "gitlab", "agent")
# No "x": a token holding "xxx" is a placeholder to the privacy rules, never masked.
ALNUM = string.ascii_letters.replace("x", "").replace("X", "") + string.digits
KEY_LINES = 6


def _token() -> str:
    return "ghp_" + "".join(secrets.choice(ALNUM) for _ in range(36))


def _key_line() -> str:
    return "".join(secrets.choice(ALNUM) for _ in range(64))


def _iban() -> str:
    """A German IBAN, grouped in fours, with check digits computed here (mod 97)."""
    account = "".join(secrets.choice(string.digits) for _ in range(18))
    check = 98 - int(account + "131400") % 97  # D=13, E=14, check digits 00
    number = f"DE{check:02d}{account}"
    return " ".join(number[i : i + 4] for i in range(0, len(number), 4))


def _phone() -> str:
    digits = "".join(secrets.choice(string.digits) for _ in range(8))
    return f"+49 15{secrets.choice('123456789')}{digits[:1]} {digits[1:]}"


@pytest.fixture
def planted(tmp_path) -> tuple[Path, dict[str, str]]:
    """A store with one secret in each quoted place; returns the folder and the secrets."""
    tokens = {
        place: _token()
        for place in ("name", "description", "target", "wikilink", "successor", "near", "append")
    }
    tokens["successor"] = "ghp_" + tokens["near"][4:].swapcase()  # SU001 notes the near name
    iban, phone = _iban(), _phone()
    key_body = [_key_line() for _ in range(KEY_LINES)]
    key_block = "\n".join(
        ["-----BEGIN OPENSSH PRIVATE KEY-----", *key_body, "-----END OPENSSH PRIVATE KEY-----"]
    )
    # A CRLF inside the block: FS009 shows that line of k.md as its source snippet.
    crlf_block = key_block.replace(key_body[2] + "\n", key_body[2] + "\r\n")
    write_files(
        tmp_path / "s",
        {
            "MEMORY.md": (
                "- [a](a.md) — a\n"
                f"- [gone]({tokens['target']}.md) — gone\n"
                "- [c](c.md) — c\n"
                "- [e](e.md) — e\n"
                "- [k](k.md) — k\n"
                f"{key_block}\n"
            ),
            "a.md": (
                f"---\nname: {tokens['name']}\n"
                "description: Rotate the staging deploy credential "
                f"{tokens['description']} weekly\n"
                f"metadata:\n  type: user\n---\nSee [[{tokens['wikilink']}]].\n"
            ),
            "c.md": (
                f"---\nname: c\ndescription: superseded by [[{tokens['successor']}]]\n"
                "metadata:\n  type: user\n---\nbody\n"
            ),
            "d.md": (
                f"---\nname: d\ndescription: the deploy token is {tokens['append']}\n"
                "metadata:\n  type: user\n---\nbody\n"
            ),
            "e.md": f"---\nname: {tokens['near']}\ndescription: e\nmetadata:\n  type: user\n---\n",
            # Unindexed (IX002 quotes the description): an IBAN (PV008) and a phone (PV009).
            "f.md": (
                f"---\nname: f\ndescription: refunds to {iban}, ring {phone}\n"
                f"metadata:\n  type: user\n---\nPay {iban} or call {phone} today.\n"
            ),
            "k.md": f"---\nname: k\ndescription: k\nmetadata:\n  type: user\n---\n{crlf_block}\n",
        },
    )
    pieces = dict(tokens)
    pieces.update({f"key line {i}": line for i, line in enumerate(key_body)})
    pieces["iban"] = iban[4:-4]  # the mask keeps the country, check digits and last 4
    pieces["phone"] = phone[3:-4]
    return tmp_path, pieces


def _memlint(cwd: Path, *argv: str, env: dict | None = None) -> bytes:
    """stdout and stderr of the real command."""
    proc = run_plain(cwd, *argv, env=env)
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")
    return proc.stdout + proc.stderr


def _leaks(output: bytes, pieces: dict[str, str]) -> list[str]:
    """The secrets of which any 8 hidden characters (those a mask replaces) appear."""
    found = []
    for place, secret in pieces.items():
        hidden = secret[4:-4] if secret.startswith("ghp_") else secret
        windows = {hidden[i : i + 8] for i in range(len(hidden) - 7)}
        if any(window.encode() in output for window in windows):
            found.append(place)
    return found


def test_the_planted_secrets_are_reported(planted):
    root, _ = planted
    found = json.loads(
        _memlint(
            root, "check", "s", "--select", "ALL", "--no-cache", "--output-format", "json", "-q"
        ).decode()
    )
    codes = {d["code"] for d in found}
    assert {"ID001", "IX002", "IX003", "IX012", "LK001", "SU001", "PV001", "PV002"} <= codes
    assert {"PV008", "PV009"} <= codes
    assert any(d["code"] == "FS009" and d["filename"] == "s/k.md" for d in found)
    assert any(d["notes"] for d in found if d["code"] == "SU001")


@pytest.mark.parametrize("output_format", FORMATS)
def test_no_format_prints_a_secret(planted, output_format):
    root, pieces = planted
    summary = root / "summary.md"
    out_file = root / "report.out"
    base = ["check", "s", "--select", "ALL", "--no-cache", "--output-format", output_format]
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    output = _memlint(root, *base, env=env)
    output += _memlint(root, *base, "--unsafe-fixes", "-o", str(out_file), env=env)
    output += out_file.read_bytes()
    if output_format == "github":
        output += summary.read_bytes()
    assert b"ghp_*****" in output  # masked, not dropped
    assert _leaks(output, pieces) == []


@pytest.mark.parametrize(
    "mode",
    [
        ["--diff"],
        ["--diff", "--unsafe-fixes"],
        ["--show-loaded"],
        ["--statistics"],
        ["--show-files"],
        ["--fix", "--show-fixes"],
        ["--fix", "--unsafe-fixes", "--show-fixes", "--output-format", "json"],
    ],
    ids=" ".join,
)
def test_no_mode_prints_a_secret(planted, mode):
    root, pieces = planted
    output = _memlint(root, "check", "s", "--select", "ALL", "--no-cache", *mode)
    if "--diff" in mode or "--show-loaded" in mode:
        assert b"ghp_*****" in output
    assert _leaks(output, pieces) == []


def test_fixes_write_the_unmasked_text(planted):
    """Masking is for what is shown: IX002 copies the description, secret and all, into
    MEMORY.md (redacting it is PV001's unsafe fix), and stdin comes back unmasked."""
    root, pieces = planted
    _memlint(root, "check", "s", "--select", "IX002", "--no-cache", "--fix")
    assert pieces["append"] in (root / "s" / "MEMORY.md").read_text(encoding="utf-8")
    shutil.copy(root / "s" / "a.md", root / "a-copy.md")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "memlint",
            "check",
            "-",
            "--stdin-filename",
            "s/a.md",
            "--select",
            "ID001",
            "--fix",
            "--no-cache",
        ],
        cwd=root,
        input=(root / "a-copy.md").read_bytes(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert pieces["description"].encode() in proc.stdout
    assert _leaks(proc.stderr, pieces) == []


def test_session_start_masks_the_index_targets_it_names(tmp_path):
    """The SessionStart line names the index entries the loader cuts off."""
    from tests.test_hook import STORE, _auto_memory, payload, run_hook

    project = tmp_path / "project"
    write_files(project, STORE)
    token = _token()
    lines = "".join(f"- [Note {i}](user_note{i}.md) — note {i}\n" for i in range(200))
    write_files(_auto_memory(project), {"MEMORY.md": f"{lines}- [t]({token}.md) — t\n"})
    code, out, err = run_hook(project, payload("session_start.json", project))
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert code == 0 and "hiding ghp_*****" in context
    assert _leaks((out + err).encode(), {"target": token}) == []


def _cards_alike(count: int) -> list[str]:
    """Luhn-valid Visa numbers that differ only in the digits a mask hides."""
    from memlint.privacy import is_card_number

    found: list[str] = []
    while len(found) < count:
        middle = "".join(secrets.choice(string.digits) for _ in range(11))
        digits = f"4{middle}6467"
        if is_card_number(digits) and digits not in found:
            found.append(digits)
    return found


def test_sarif_reveals_nothing_of_the_masked_characters(tmp_path):
    """A fingerprint hashed from the line in clear gives away a short secret (a card
    number's hidden digits take a moment to search): two stores whose secrets differ
    only where the mask hides them give the same SARIF."""
    logs = []
    for card, token in zip(_cards_alike(2), (_token(), _token()), strict=True):
        token = token[:4] + "Ab" + token[6:-4] + "Q7r8"  # same kept characters
        grouped = " ".join(card[i : i + 4] for i in range(0, 16, 4))
        write_files(
            tmp_path / "s",
            {
                "MEMORY.md": "- [a](a.md) — a\n",
                "a.md": (
                    "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\n"
                    f"Pay with {grouped} today.\nThe deploy token is {token}.\n"
                ),
            },
        )
        logs.append(_memlint(tmp_path, "check", "s", "--no-cache", "--output-format", "sarif"))
    assert b"PV007" in logs[0] and b"PV001" in logs[0]
    assert logs[0] == logs[1]


def test_hook_install_dry_run_masks_the_settings_it_shows(tmp_path):
    """The diff's context lines come from settings.json, whose ``env`` holds tokens."""
    token = _token()
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(f'{{\n  "env": {{\n    "GITHUB_TOKEN": "{token}"\n  }}\n}}\n')
    output = _memlint(tmp_path, "hook", "install", "--scope", "project", "--dry-run")
    assert b'"GITHUB_TOKEN": "ghp_*****' in output and b"memlint hook claude-code" in output
    assert _leaks(output, {"env": token}) == []


@pytest.fixture
def named_after_tokens(tmp_path) -> tuple[Path, dict[str, str]]:
    """A store below a folder named after one token, holding a memory file named after
    another (ID001, LK001 and FM007 report on it, IX003 quotes it from the index)."""
    tokens = {place: _token() for place in ("folder", "file")}
    root = tmp_path / tokens["folder"]
    write_files(
        root / "s",
        {
            "MEMORY.md": f"- [x]({tokens['file']}.md) — x\n- [gone](gone.md) — gone\n",
            f"{tokens['file']}.md": "---\nname: x\ndescription: x\n---\nSee [[nowhere]].\n",
        },
    )
    return root, tokens


@pytest.mark.parametrize("output_format", FORMATS)
def test_no_format_prints_a_secret_in_a_path(named_after_tokens, output_format):
    root, tokens = named_after_tokens
    output = b""
    for where in ("s", str(root / "s")):  # paths relative to the working folder, and absolute
        output += _memlint(root, "check", where, "--no-cache", "--output-format", output_format)
    output += _memlint(
        root, "check", f"s/{tokens['file']}.md", "--no-cache", "--output-format", output_format
    )
    assert b"ghp_*****" in output and b"ID001" in output
    assert _leaks(output, tokens) == []


def test_a_path_masked_keeps_its_source_snippet(named_after_tokens):
    root, tokens = named_after_tokens
    output = _memlint(root, "check", "s", "--no-cache", "--select", "LK001").decode()
    assert f"--> s/{tokens['file'][:4]}*****" in output  # the location, masked
    assert "See [[nowhere]]." in output  # the snippet of the file it names


@pytest.mark.parametrize(
    "mode",
    [
        ["--diff"],
        ["--show-files"],
        ["--statistics"],
        ["--fix", "--show-fixes"],
        ["--show-settings"],
    ],
    ids=" ".join,
)
def test_no_mode_prints_a_secret_in_a_path(named_after_tokens, mode):
    root, tokens = named_after_tokens
    output = _memlint(root, "check", f"s/{tokens['file']}.md", "--no-cache", *mode)
    output += _memlint(root, "check", str(root / "s"), "--no-cache", *mode)
    assert _leaks(output, tokens) == []


def test_errors_and_settings_mask_the_secrets_they_quote(tmp_path):
    """A path that does not exist and a config value are quoted on stderr, masked."""
    tokens = {place: _token() for place in ("missing", "select")}
    (tmp_path / "pyproject.toml").write_text(f'[tool.memlint]\nselect = ["{tokens["select"]}"]\n')
    proc = subprocess.run(
        [sys.executable, "-m", "memlint", "check", f"{tokens['missing']}.md"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and b"memlint: error: " in proc.stderr
    assert b"ghp_*****" in proc.stderr
    assert _leaks(proc.stdout + proc.stderr, tokens) == []
