"""PV detectors: recall on must-flag samples, no hits on must-not-flag ones, masking,
bounded regexes, and no secret in any output format.

Realistic tokens are assembled at run time from pieces, so this file holds no string
a secret scanner would flag.
"""

import base64
import json
import random
import string

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint import privacy
from memlint.cli import main
from tests.helpers import lint_dir, lint_files, runs_without_blowup

RNG = random.Random(20240501)
ALNUM = string.ascii_letters + string.digits
B32 = string.ascii_uppercase + "234567"


def rand(alphabet: str, n: int) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def b64url(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


PEM = "PRIVATE" + " KEY"
MUST_FLAG = {
    "PV001": [
        "AK" + "IA" + rand(B32, 16),
        "AS" + "IA" + rand(B32, 16),
        "gh" + "p_" + rand(ALNUM, 36),
        "gh" + "o_" + rand(ALNUM, 36),
        "gh" + "s_" + rand(ALNUM, 36),
        "github" + "_pat_" + rand(ALNUM, 22) + "_" + rand(ALNUM, 59),
        "gl" + "pat-" + rand(ALNUM, 20),
        "xo"
        + "xb-"
        + rand(string.digits, 12)
        + "-"
        + rand(string.digits, 13)
        + "-"
        + rand(ALNUM, 24),
        "sk" + "_live_" + rand(ALNUM, 24),
        "rk" + "_live_" + rand(ALNUM, 24),
        "s" + "k-" + rand(ALNUM, 20) + "T3Blbk" + "FJ" + rand(ALNUM, 20),
        "s" + "k-proj-" + rand(ALNUM + "-_", 74),
        "s" + "k-ant-api03-" + rand(ALNUM + "-_", 93) + "AA",
        "AI" + "za" + rand(ALNUM, 35),
        ".".join([b64url({"alg": "HS256"}), b64url({"sub": "42", "iat": 1}), rand(ALNUM, 43)]),
        "aws_secret_access_key = " + rand(ALNUM + "+/", 40),
        "password: " + rand(ALNUM + "!#%", 16),
        "Run ssh-copy-id (password: `0penBmc`) after the reboot.",
        "Demo account passwords: demo@shop.test / " + rand(ALNUM, 10) + "7!",
        "login: admin / " + rand(ALNUM, 9) + "3",
        "the BMC password is `" + rand(ALNUM, 8) + "9`",
        "pw `" + rand(ALNUM, 8) + "!1`",
        "passcode `" + rand(string.digits, 7) + "`",
        "Authorization: Bearer " + rand(ALNUM + "-_", 40),
        "https://hooks.slack"
        + ".com/services/T"
        + rand(B32, 8)
        + "/B"
        + rand(B32, 8)
        + "/"
        + rand(ALNUM, 24),
    ],
    "PV002": [
        "-----BEGIN RSA " + PEM + "-----\n" + rand(ALNUM, 64) + "\n-----END RSA " + PEM + "-----",
        "-----BEGIN " + PEM + "-----\ncut off",
    ],
    "PV003": [
        "postgres://app_user:" + rand(ALNUM, 14) + "@db.internal.test:5432/prod",
        "redis://:" + rand(ALNUM, 18) + "@cache.internal.test:6379/0",
        "https://bot:%70%61%73%73@host.test/",
    ],
    "PV004": ["contact jane.doe@acme-corp.com", "sales.go@gmail.com", "a.b+tag@mail.co.uk"],
    "PV005": [
        "/home/jmiller/projects/x",
        "/Users/jmiller/Library",
        "C:\\Users\\jmiller\\AppData",
        "\\\\wsl$\\Ubuntu\\home\\jmiller\\notes.md",
        "C:/Users/jmiller/x",
    ],
    "PV006": [
        "customer account 7384920156473829",
        "arn:aws:iam::" + rand(string.digits, 12) + ":role/deploy",
        "chat id -1009876543210",
        "call 13812345678.",
        "account 4930123456 and 4930000001",
    ],
    "PV007": ["card 4111 1111 1111 1111 on file"],
}
MUST_NOT_FLAG = [
    "password: ask the user, token: see vault, token: ${{ secrets.X }}",
    "Account passwords: Settings / Billing; login: yes / no; logins: GitHub / GitLab",
    "use `--password-stdin`, the password field `input[type=password]`, pw `${PW}`",
    "login: user / `changeme`, password: <secret> / <other>, password in `~/.pgpass`",
    "fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "see a94a8fe and 7c4a8d09ca",
    "request id 123e4567-e89b-12d3-a456-426614174000",
    "tenant 550E8400-E29B-41D4-A716-446655440000",
    "upgraded to 10.0.19041.1 then 1.2.3.4",
    "release 2.11.0-rc.1+build.20240101",
    "on 2024-01-01 and 2023-12-31T23:59:59Z",
    "timestamp 1700000000000 and 1700000000",
    "image sha256:" + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "colour #a1b2c3 and #FFF",
    "risk-assessment, task-list, desk-lamp, ask-me-anything",
    "AK" + "IAIOSFODNN7EXAMPLE is the documented example",
    "AK" + "IA" + "X" * 16,
    "GATTACA" + "AS" + "IA" + "CCATGGCTTAGCATCGATCG",
    "TODAYINASIAASACKOFRICEFELLOVER",
    "gh" + "p_" + "x" * 36,
    "export OPENAI_API_KEY=s" + "k-...",
    "token: ${GITHUB_TOKEN} or {{ secrets.API_KEY }} or <YOUR_API_KEY>",
    "key was s" + "k-ant-***REDACTED***",
    "git@github.com:example/repo.git",
    "@pytest.fixture and @dataclass",
    "@types/node and @scope/pkg@1.2.3",
    "user@localhost and foo@bar",
    "someone@example.com, ops@corp.example, a@b.test, noreply@github.com",
    "12345+me@users.noreply.github.com and logo@2x.png",
    "/Users/Shared/cache",
    "C:\\Users\\Public\\Documents and C:\\Users\\Default\\NTUSER.DAT",
    "/home/user/ and /home/runner/work/repo and /home/ubuntu and /home/<user>/x and ~/x",
    "GET /api/home/feed and https://x.test/home/about",
    "fe80::1ff:fe23:4567:890a",
    "ISBN 978-3-16-148410-0",
    "aGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgc2VjcmV0",
    "Content-Length: 1234567890123",
    "password: [REDACTED] and token=[REDACTED]",
    "password=changeme, api_key: xxx, secret: <secret>, pwd=${DB_PASSWORD}",
    "token = os.environ['TOKEN'] and secret_key: process.env.SECRET",
    "The API token is stored in the keychain; set the password: required",
    "postgres://user:password@localhost/db and http://localhost:8080@x",
    "root@192.168.88.13 over ssh",
    "call +1-202-555-0143 or 123-45-6789",
    "placeholders 0000000000, 1234567890, 9876543210, 4930000000000 and 8613800000000",
    "tokens: 1500000 and 3.14159265358979",
    "Customer [REDACTED] asked for a refund.",
]
DETECTORS = {
    "PV001": privacy.find_credentials,
    "PV002": privacy.find_private_keys,
    "PV003": privacy.find_url_passwords,
    "PV004": privacy.find_emails,
    "PV005": privacy.find_home_paths,
    "PV006": privacy.find_numeric_ids,
    "PV007": privacy.find_cards,
}


def _hits(text: str) -> list[tuple[str, str]]:
    found = []
    for code, detect in DETECTORS.items():
        kept = privacy.drop_redacted(text, detect(text), "[REDACTED]")
        found.extend((code, f.value(text)) for f in kept)
    return found


def test_recall_is_complete():
    missed = [
        (code, text[:40])
        for code, items in MUST_FLAG.items()
        for text in items
        if not DETECTORS[code](text)
    ]
    assert missed == []


def test_no_false_positives():
    hits = {text: _hits(text) for text in MUST_NOT_FLAG}
    assert {text: found for text, found in hits.items() if found} == {}


def test_mask_keeps_prefix_and_last_four():
    token = "gh" + "p_" + rand(ALNUM, 36)
    finding = privacy.find_credentials(token)[0]
    assert privacy.mask(token, finding.keep) == token[:4] + "…" + token[-4:]
    assert privacy.mask("hunter2") == "h…"
    masked = privacy.mask_text(f"use {token} now")
    assert token not in masked and len(masked) == len(token) + 8


@pytest.mark.parametrize(
    "shape",
    [
        "a.",
        "a@",
        "eyJ-",
        "gh" + "p_",
        "a://",
        "a://b:",
        "token=",
        "/home/",
        "C:\\Users\\",
        "1-",
        "s" + "k-",
        "@.",
        "a.b@",
        "Bearer ",
        "\\home\\",
        "AK" + "IA",
        "a_",
        "x" * 30 + "_",
        "-----BEGIN " + PEM + "-----",
        "password: ",
        "User: ",
        '"',
        ".",
    ],
)
def test_pathological_input_is_fast(shape):
    text = shape * (400_000 // len(shape))  # a quadratic scan of it takes minutes
    assert runs_without_blowup(lambda: privacy.mask_text(text))


def _store(tmp_path, secrets: list[str]):
    body = "\n".join(f"Note {i}: {s}" for i, s in enumerate(secrets))
    (tmp_path / "MEMORY.md").write_text("- [Deploys](deploys.md) — how we deploy\n")
    (tmp_path / "deploys.md").write_text(
        "---\nname: deploys\ndescription: how we deploy\nmetadata:\n  type: project\n---\n"
        + body
        + "\n"
    )
    facts = [
        {"time": "2024-05-01T09:00:00Z", "project": "api", "fact": f"Use {s} here."}
        for s in secrets
        if "\n" not in s
    ]
    (tmp_path / "notes.jsonl").write_text("".join(json.dumps(f) + "\n" for f in facts))


def _secret_values(texts: list[str]) -> list[str]:
    values = []
    for text in texts:
        for finding in privacy.all_findings(text):
            value = finding.value(text)
            values.extend(part for part in value.split("\n") if len(part) >= 6)
    return values


@pytest.mark.parametrize("output_format", ["full", "concise", "json", "json-lines"])
def test_no_secret_in_any_output(tmp_path, monkeypatch, capsys, output_format):
    secrets = [text for code in ("PV001", "PV002", "PV003") for text in MUST_FLAG[code]]
    _store(tmp_path, secrets)
    monkeypatch.chdir(tmp_path)
    status = main(
        [
            "check",
            "--isolated",
            "--select",
            "PV,NT",
            "--unsafe-fixes",
            "--output-format",
            output_format,
            ".",
        ]
    )
    out, err = capsys.readouterr()
    assert status == 1
    assert "PV001" in out
    leaked = [v for v in _secret_values(secrets) if v in out or v in err]
    assert leaked == []


def test_note_store_findings_have_no_fix_and_markdown_ones_do(tmp_path):
    _store(tmp_path, ["password: " + rand(ALNUM, 16)])
    found = [d for d in lint_dir(tmp_path, select=["PV"]) if d.code == "PV001"]
    by_file = {d.display_path.rsplit("/", 1)[-1]: d for d in found}
    assert by_file["notes.jsonl"].fix is None
    assert "append-only" in by_file["notes.jsonl"].message
    edit = by_file["deploys.md"].fix.edits[0]
    assert edit.content == "[REDACTED]"


def test_options_allow_domains_users_and_patterns(tmp_path):
    files = {
        "MEMORY.md": "- [A](a.md) — a\n",
        "a.md": "---\nname: a\ndescription: a\nmetadata:\n  type: user\n---\n"
        "Mail ann@corp.io from /home/ann and call 9988776655443.\n",
    }
    config = {
        "rules": {
            "PV004": {"allow-domains": ["corp.io"]},
            "PV005": {"allow-users": ["ann"]},
            "PV006": {"allow-patterns": ["^99"]},
        }
    }
    assert lint_files(tmp_path, files, select=["PV"], config=config) == []
    assert {d.code for d in lint_dir(tmp_path, select=["PV"])} == {"PV004", "PV005", "PV006"}


@pytest.mark.parametrize(
    "text",
    [
        "PASSWORD=Hunter2Correct",
        "Api_Key: 'AbCdEf123456'",
        "the Client-Secret => q1w2e3r4t5y6",
        "db PassPhrase:  correct-horse-battery",
        "İstanbul token: Zx9Yw8Vu7Ts6",
    ],
)
def test_lowercase_assignment_scan_matches_case_insensitive_regex(text):
    from memlint.privacy import ASSIGNMENT, find_credentials, is_placeholder

    expected = [
        (m.start("value"), m.end("value"))
        for m in ASSIGNMENT.finditer(text)
        if not is_placeholder(m["value"])
    ]
    found = [(f.start, f.end) for f in find_credentials(text) if f.label == "secret value"]
    assert found == expected and expected


ASSIGNMENT_PIECES = st.sampled_from(
    ["password", "pwd", "api_key", "x", "9", " ", "=", ":", "'", "token", "secret", ";", "é",
     "\n", "private_key", "client-secret", "apikey", "access_key", "auth-key", "credentials",
     "passphrase", "monkey", "a", "_", "-", "=>", "\t", "   ", '"', "`", ":=", "login", "creds",
     "pw", "pas", "cred"]
)  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(ASSIGNMENT_PIECES, max_size=25))
@example(["credentials", '"', "   ", "=", "abcdefgh"])  # the operator at its farthest
@example(["passphrase", "`", "\t", "  ", ":=", "abcdefgh"])
@example(["client-secret", "'", "   ", "=>", "abcdefgh"])
def test_lower_assignment_search_equals_the_lookbehind_regex(pieces: list[str]) -> None:
    import re

    from memlint.privacy import (
        ASSIGNMENT_KEYWORDS,
        ASSIGNMENT_TAIL,
        PROSE_KEYWORDS,
        SECRET_KEY_NAMES,
        _lower_assignments,
        _may_hold_prose_credential,
    )

    text = "".join(pieces)
    reference = re.compile(r"(?<![a-z0-9])(?:" + SECRET_KEY_NAMES + r")" + ASSIGNMENT_TAIL)
    keywords = [word for word in ASSIGNMENT_KEYWORDS if word in text]
    spans = [m.span("value") for m in _lower_assignments(text, keywords)]
    assert spans == [m.span("value") for m in reference.finditer(text)]
    prose = any(word in text for word in PROSE_KEYWORDS)
    assert _may_hold_prose_credential(text, keywords) == prose


DIGIT_PIECES = st.sampled_from(["0", "12345", "987654321", " ", "x", "\u0660", "\u00e9", "\n"])


@settings(max_examples=400)
@given(st.lists(DIGIT_PIECES, max_size=12).map("".join) | st.text(max_size=60))
@example("123456789")
@example("1234567890")
@example("id 123456789\u0660 and 12345678901")
def test_digit_run_prefilter_equals_the_regex(text: str) -> None:
    """``has_digit_run`` gates PV006 and snippet masking: it must agree with DIGIT_RUN
    (ASCII digits only; Arabic-Indic digits and multi-byte characters are not)."""
    assert privacy.has_digit_run(text) == (privacy.DIGIT_RUN.search(text) is not None)


CARD_PIECES = st.sampled_from(
    ["0", "4242", "424242", "4111111111111111", "4242424242424", " ", "-", "x", "#", ".",
     "\u0660", "\u00e9", "\ud800", "\n"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(CARD_PIECES, max_size=14).map("".join) | st.text(max_size=60))
@example("4242 4242 4242 4242")
@example("4242-424242-42424")
@example("424242 4242424242424")
@example("4242 4242 4242 4")
def test_card_prefilter_passes_every_text_the_card_pattern_matches(text: str) -> None:
    """``find_cards`` runs CARD only on texts holding one of CARD_GATES (digits read as
    "0"): every text CARD matches holds one."""
    zeroed = text.encode("utf-8", "surrogatepass").translate(privacy.DIGITS_AS_ZERO)
    if privacy.CARD.search(text) is not None:
        assert any(gate in zeroed for gate in privacy.CARD_GATES)
    # the one search find_cards runs is the same test as the substring scans
    assert (privacy.CARD_GATE.search(zeroed) is not None) == any(
        gate in zeroed for gate in privacy.CARD_GATES
    )
    assert privacy.digits_as_zero(text) == zeroed


IBAN_PIECES = st.sampled_from(
    ["DE", "GB", "89", "3704", "0044", "0532", "0130", "00", " ", "x", "\u00c9", "\u0660", "_"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(IBAN_PIECES, max_size=14).map("".join) | st.text(max_size=60))
@example("DE89 3704 0044 0532 0130 00")
@example("GB29NWBK60161331926819")
def test_iban_prefilter_passes_every_text_the_iban_pattern_matches(text: str) -> None:
    """``find_ibans`` runs IBAN only on texts holding "AA00" (capitals read as "A",
    digits as "0"): every text IBAN matches holds it."""
    if privacy.IBAN.search(text) is not None:
        assert b"AA00" in text.encode("utf-8", "surrogatepass").translate(privacy.CAPITALS_DIGITS)


TOKEN_KEYWORDS = [k for f in privacy.TOKEN_FORMATS for k in f.keywords] + [privacy.SLACK_HOST]
KEYWORD_PIECES = st.sampled_from(
    [*TOKEN_KEYWORDS, *(k[:-1] for k in TOKEN_KEYWORDS), *(k[1:] for k in TOKEN_KEYWORDS),
     "A", "g", "x", "s", "k", "-", "_", " ", "é", "\n", "hooks", ".slack.com"]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.lists(KEYWORD_PIECES, max_size=10).map("".join) | st.text(max_size=40))
@example("ghu_")
@example("sk-ant")
@example("xap-xox")
def test_token_keyword_search_equals_the_substring_scans(text: str) -> None:
    """``find_credentials`` looks for provider tokens only in a text ``may_hold_token``
    says may hold one: exactly the texts holding one of the keywords."""
    found = privacy.may_hold_token(text)
    assert found == any(keyword in text for keyword in TOKEN_KEYWORDS)
