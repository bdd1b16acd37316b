"""Secret and PII detectors, and masking so a finding never prints the secret.

Every detector takes a text and returns :class:`Finding` spans. Precision comes
from provider-shaped, prefix-anchored formats; Shannon entropy is only a second
signal that drops placeholders such as ``ghp_xxxx…``. All regexes are bounded
and most run only when a cheap keyword occurs in the text (gitleaks style).

Documented policy (what is *not* reported):

- credentials: values that are templates or references (``<token>``, ``${TOKEN}``,
  ``{{ secrets.X }}``, ``%TOKEN%``, ``process.env.X``, ``os.environ[…]``, an
  ``ALL_CAPS`` variable name, a call ``f()``, a path), placeholders (``xxx``,
  ``***``, ``...``, ``changeme``, ``password``, ``secret``, ``example``,
  ``your…``, ``redacted``, ``dummy``), values under 6 characters, AWS's documented
  ``…EXAMPLE`` keys and low-entropy provider-shaped strings;
- emails: reserved domains (``example.com/.org/.net``, ``*.example``, ``*.test``,
  ``*.invalid``, ``*.localhost``, ``localhost``), ``noreply``/``no-reply`` senders,
  ``users.noreply.github.com``, ``git@host:`` SSH remotes and ``name@2x.png`` files;
- home paths: ``/home/user``, ``/home/runner`` and other generic accounts,
  ``/Users/Shared``, ``C:\\Users\\Public``/``Default``, placeholders (``<user>``, ``$USER``);
- numeric identifiers: runs under 10 digits, digits glued to letters, dots, colons,
  slashes or dashes (hashes, UUIDs, versions, decimals, URLs), Unix times between 2000
  and 2100 (seconds to nanoseconds, by value), compact ``YYYYMMDD[hhmm[ss]]`` dates,
  ISBN-13s, lists and thousands among grouped digits (see ``_grouped_non_identifier``);
- IBANs: unknown countries, wrong lengths, a failing mod-97 check;
- phone numbers: without ``+``, under 8 or over 15 digits, one dot (a decimal).

The redaction marker itself is never reported: a finding overlapping it is dropped.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from memlint.records import dataclass

ELLIPSIS = "…"


class LazyPattern:
    """A regular expression compiled on first use (``re.compile`` is pure Python and
    costs a module import ~0.1-2 ms a pattern): for the patterns most runs never need.
    After the first use its methods are the compiled pattern's own, bound."""

    METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str):
        compiled = re.compile(*self._args)  # type: ignore[type-var]  # str or bytes, not mixed
        for method in self.METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


@dataclass(frozen=True, slots=True)
class Finding:
    """``text[start:end]`` is sensitive; ``label`` says what it looks like."""

    start: int
    end: int
    label: str
    keep: int = 1

    def value(self, text: str) -> str:
        return text[self.start : self.end]


def mask(value: str, keep: int = 1) -> str:
    """A short prefix and the last 4 characters (``ghp_…WXYZ``); short values keep less."""
    if len(value) < 12:
        return value[:1] + ELLIPSIS
    keep = max(1, min(keep, len(value) - 8))
    return value[:keep] + ELLIPSIS + value[-4:]


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    if not value:
        return 0.0
    import math  # a C extension: loaded only when a candidate secret is weighed

    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


# --- PV001 credentials -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenFormat:
    label: str
    keywords: tuple[str, ...]  # the pattern runs only on a text holding one of them
    pattern: re.Pattern | LazyPattern  # compiled when a text holds a keyword
    keep: int
    min_entropy: float = 3.0


def _token(
    label: str, keywords, body: str, keep: int, min_entropy: float = 3.0, word: str = "A-Za-z0-9_-"
):
    """``word``: the characters a token cannot touch (those of its alphabet), so that
    ``notes-ghp_….md`` (a slug) holds a GitHub token but ``xghp_…`` does not."""
    pattern = LazyPattern(rf"(?<![{word}])" + body + rf"(?![{word}])")
    keywords = (keywords,) if isinstance(keywords, str) else tuple(keywords)
    return TokenFormat(label, keywords, pattern, keep, min_entropy)


AWS_PREFIXES = ("AKIA", "ASIA", "ABIA", "ACCA")
TOKEN_FORMATS = (
    _token(
        "AWS access key ID",
        ("AKIA", "ASIA", "ABIA", "ACCA"),
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}+",
        4,
        word="A-Za-z0-9",
    ),
    _token(
        "GitHub token",
        [f"gh{c}_" for c in "pousr"],
        r"gh[pousr]_[A-Za-z0-9]{36,251}+",
        4,
        word="A-Za-z0-9",
    ),
    _token(
        "GitHub fine-grained token",
        "github_pat_",
        r"github_pat_[A-Za-z0-9_]{50,250}+",
        11,
        word="A-Za-z0-9_",
    ),
    _token("GitLab token", "glpat-", r"glpat-[A-Za-z0-9_-]{20,64}+", 6),
    _token("Slack token", "xox", r"xox[abposr]-[A-Za-z0-9-]{10,250}+", 5),
    _token("Slack app token", "xapp-", r"xapp-[0-9]-[A-Za-z0-9-]{20,250}+", 5),
    _token(
        "Stripe secret key", "_live_", r"(?:sk|rk)_live_[A-Za-z0-9]{16,250}+", 8, word="A-Za-z0-9"
    ),
    _token("Anthropic API key", "sk-ant-", r"sk-ant-[a-z]{3,8}[0-9]{2}-[A-Za-z0-9_-]{32,250}+", 7),
    _token("OpenAI API key", "sk-", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,250}+", 3),
    _token("Google API key", "AIza", r"AIza[0-9A-Za-z_-]{35}+", 4),
    _token(
        "JSON Web Token",
        "eyJ",
        r"eyJ[A-Za-z0-9_-]{8,2000}+\.eyJ[A-Za-z0-9_-]{8,4000}+\.[A-Za-z0-9_-]{10,2000}+",
        3,
        min_entropy=0.0,
    ),
)
SLACK_HOST = "hooks.slack.com"


# Whether a text holds any keyword of TOKEN_FORMATS or the Slack webhook host (most
# texts hold none): each keyword is looked for from a character rare in prose, which
# ``re`` finds with its tight literal-prefix loop (a search for any of several first
# characters tests a character set at each offset instead), the capital ``A``, the
# ``_`` and the ``J`` first with ``memchr``; the start of ``sk-``, ``glpat-``,
# ``xapp-`` is checked looking behind the dash: 4.4 -> 2.6 us on a 900-character
# memory. tests/test_privacy.py compares ``may_hold_token`` with the substring scans.
TOKEN_A = LazyPattern(r"A(?:KIA|SIA|BIA|CCA|Iza)")
TOKEN_UNDERSCORE = LazyPattern(r"_(?:(?<=gh[pousr]_)|(?<=github_)pat_|live_)")
TOKEN_DASH = LazyPattern(r"-(?:(?<=glpat-)|(?<=xapp-)|(?<=sk-))")


def may_hold_token(text: str) -> bool:
    """Whether ``text`` holds a keyword of ``TOKEN_FORMATS`` or ``SLACK_HOST``."""
    return bool(
        ("A" in text and TOKEN_A.search(text))
        or ("_" in text and TOKEN_UNDERSCORE.search(text))
        or ("-" in text and TOKEN_DASH.search(text))
        or "xox" in text
        or ("J" in text and "eyJ" in text)
        or SLACK_HOST in text
    )


SLACK_WEBHOOK = LazyPattern(
    r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,12}/B[A-Z0-9]{6,12}/[A-Za-z0-9]{20,40}"
)
SECRET_KEY_NAMES = (
    r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key"
    r"|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?"
)
ASSIGNMENT_TAIL = r"[\"'`]?[ \t]{0,3}(?::=|=>|[:=])[ \t]{0,3}[\"'`]?(?P<value>[^\s\"'`,;]{1,200})"
ASSIGNMENT = LazyPattern(r"(?<![A-Za-z0-9])(?i:" + SECRET_KEY_NAMES + r")" + ASSIGNMENT_TAIL)
# The same on lower-cased text: a case-sensitive alternation scans several times faster.
# No lookbehind: ``_lower_assignments`` tries it only near keywords and checks the
# character before a match itself.
ASSIGNMENT_LOWER = LazyPattern(r"(?:" + SECRET_KEY_NAMES + r")" + ASSIGNMENT_TAIL)
ASCII_ALNUM_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
ASSIGNMENT_KEYWORDS = ("pass", "pwd", "secret", "token", "key", "credential")
KEYWORD_OFFSET = len("private_")  # the farthest a keyword sits into a name ("private_key")
# The farthest an assignment operator sits from the start of a keyword in the key name:
# the name's rest ("credentials": 11), a quote and three blanks, then ":" or "=".
ASSIGNMENT_REACH = len("credentials") + 1 + 3 + 1
PROSE_KEYWORDS = ("pass", "login", "credential", "creds", "pw")
CREDENTIAL_PAIR = LazyPattern(
    r"(?i:\b(?:passwords?|logins?|credentials?|creds)\b)[^\n:`]{0,40}:[ \t]{0,3}"
    r"[^\s/`]{1,100}[ \t]{0,3}/[ \t]{0,3}`?(?P<value>[^\s,;`]{1,200})"
)
TICKED_SECRET = LazyPattern(
    r"(?i:\b(?P<key>password|passwd|pw|passcode)\b)[^`\n]{0,30}?`(?P<value>[^`\s]{4,100})`"
)
SECRET_SYMBOLS = frozenset("!@#$%^&*_+=?.~")
BEARER = LazyPattern(r"(?i:\bbearer)[ \t]{1,3}(?P<value>[A-Za-z0-9._~+/-]{20,500}=*)")
PLACEHOLDER_WORDS = frozenset(
    {
        "changeme",
        "password",
        "passwd",
        "secret",
        "token",
        "example",
        "redacted",
        "placeholder",
        "dummy",
        "none",
        "null",
        "undefined",
        "required",
        "optional",
        "string",
        "true",
        "false",
        "hidden",
        "masked",
        "removed",
        "omitted",
    }
)
ENV_NAME = LazyPattern(r"[A-Z][A-Z0-9_]{2,100}")
PLACEHOLDER_RUN = LazyPattern(r"(?i:x{3})|\*{3}|\.{3}|…|_{3}")


def is_placeholder(value: str) -> bool:
    """Whether an assigned value is a template, reference or placeholder, not a secret."""
    stripped = value.strip("\"'`[](){}<>.,;")
    if len(stripped) < 6:
        return True
    if value[0] in "<$%{[(~/\\#" or value.startswith(("./", "http://", "https://")):
        return True
    if "(" in value or "env." in value or "environ" in value or "secrets." in value:
        return True
    lowered = stripped.lower()
    if lowered in PLACEHOLDER_WORDS or lowered.startswith(("your", "my-", "my_", "insert")):
        return True
    if PLACEHOLDER_RUN.search(value):
        return True
    return bool(ENV_NAME.fullmatch(stripped))


def find_credentials(text: str) -> list[Finding]:
    found: list[Finding] = []
    if may_hold_token(text):
        found += _tokens(text)
    lowered = text.lower()
    # Offsets in ``lowered`` are offsets in ``text`` when lower-casing kept the length:
    # ``_lower_assignments`` then looks near the keywords only.
    keywords = [word for word in ASSIGNMENT_KEYWORDS if word in lowered]
    if len(lowered) == len(text):
        matches: Iterable[re.Match] = _lower_assignments(lowered, keywords)
    elif keywords:
        matches = ASSIGNMENT.finditer(text)
    else:
        matches = ()
    for match in matches:
        start, end = match.start("value"), match.end("value")
        if not is_placeholder(text[start:end]):
            found.append(Finding(start, end, "secret value"))
    if _may_hold_prose_credential(lowered, keywords):
        found += _prose_credentials(text)
    if "bearer" in lowered:
        for match in BEARER.finditer(text):
            if not is_placeholder(match["value"]) and entropy(match["value"]) >= 3.0:
                found.append(Finding(match.start("value"), match.end("value"), "bearer token"))
    return _without_overlaps(found)


def _tokens(text: str) -> list[Finding]:
    """Provider-shaped tokens and Slack webhook URLs, each format searched for only in
    a text holding one of its keywords."""
    found = []
    for fmt in TOKEN_FORMATS:
        for keyword in fmt.keywords:
            if keyword in text:
                break
        else:
            continue
        for match in fmt.pattern.finditer(text):
            token = match.group()
            if token.endswith("EXAMPLE") or PLACEHOLDER_RUN.search(token):
                continue
            if entropy(token[fmt.keep :]) < fmt.min_entropy:
                continue
            found.append(Finding(match.start(), match.end(), fmt.label, fmt.keep))
    if SLACK_HOST in text:
        for match in SLACK_WEBHOOK.finditer(text):
            found.append(Finding(match.start(), match.end(), "Slack webhook URL", 8))
    return found


def _prose_credentials(text: str) -> list[Finding]:
    """Credentials written as prose: ``login: admin / <secret>``, ``passwords: <email> /
    <secret>``, and a back-ticked value after "password", "pw" or "passcode". A value
    counts only when it is no placeholder and mixes letters with digits or symbols (a
    passcode: six digits or more), so ``Settings / Billing`` is not one."""
    found = []
    for match in CREDENTIAL_PAIR.finditer(text):
        if _looks_secret(match["value"]):
            found.append(Finding(match.start("value"), match.end("value"), "secret value"))
    for match in TICKED_SECRET.finditer(text):
        value = match["value"]
        numeric = match["key"].lower() == "passcode" and value.isdigit() and len(value) >= 6
        if numeric or _looks_secret(value):
            found.append(Finding(match.start("value"), match.end("value"), "secret value"))
    return found


def _looks_secret(value: str) -> bool:
    if value.startswith("-") or is_placeholder(value) or any(ch in value for ch in "[]()<>{}"):
        return False
    has_letter = any(ch.isalpha() for ch in value)
    has_other = any(ch.isdigit() or ch in SECRET_SYMBOLS for ch in value)
    return has_letter and has_other


def _may_hold_prose_credential(lowered: str, keywords: list[str]) -> bool:
    """Whether ``lowered`` holds one of PROSE_KEYWORDS; ``keywords``: the
    ASSIGNMENT_KEYWORDS it holds, so that no keyword is looked for twice."""
    if "pass" in keywords or "credential" in keywords or "pwd" in keywords:
        return True
    return "pw" in lowered or "login" in lowered or "creds" in lowered


def _lower_assignments(lowered: str, keywords: list[str]) -> Iterator[re.Match]:
    """``ASSIGNMENT`` matches in lower-cased text: leftmost first, non-overlapping, each
    preceded by no letter or digit. Every key name holds one of ``ASSIGNMENT_KEYWORDS``
    (``keywords``: those ``lowered`` holds) at most ``KEYWORD_OFFSET`` characters from
    its start, so a match is tried only there, and only when an operator follows
    within ``ASSIGNMENT_REACH``."""
    starts: set[int] = set()
    for keyword in keywords:
        at = lowered.find(keyword)
        while at != -1:
            near = lowered[at : at + ASSIGNMENT_REACH]
            if ":" in near or "=" in near:  # else no key name holding it is assigned
                starts.update(range(max(0, at - KEYWORD_OFFSET), at + 1))
            at = lowered.find(keyword, at + 1)
    match_at = ASSIGNMENT_LOWER.match
    pos = 0
    for start in sorted(starts):
        if start < pos or (start and lowered[start - 1] in ASCII_ALNUM_LOWER):
            continue
        match = match_at(lowered, start)
        if match is not None:
            yield match
            pos = match.end()


# --- PV002 private keys ----------------------------------------------------------------------

KEY_BEGIN = LazyPattern(r"-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----")
KEY_END = LazyPattern(r"-----END (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----")
KEY_SEARCH_LIMIT = 64 * 1024


def find_private_keys(text: str) -> list[Finding]:
    if "PRIVATE KEY" not in text:
        return []
    ends = [m.end() for m in KEY_END.finditer(text)]
    found = []
    stop = 0
    for begin in KEY_BEGIN.finditer(text):
        if begin.start() < stop:
            continue
        at = bisect_left(ends, begin.end())
        closes = at < len(ends) and ends[at] - begin.end() <= KEY_SEARCH_LIMIT
        stop = ends[at] if closes else begin.end()
        found.append(Finding(begin.start(), stop, "private key block", 10))
    return found


# --- PV003 passwords in URLs -----------------------------------------------------------------

URL_PASSWORD = LazyPattern(
    r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,20}://"
    r"[^\s:/@\[\]<>\"'`]{0,100}:(?P<password>[^\s:/@<>\"'`]{1,200})@(?=[A-Za-z0-9\[])"
)
URL_PLACEHOLDERS = frozenset({"pass", "password", "passwd", "pwd", "secret", "token", "x"})


def find_url_passwords(text: str) -> list[Finding]:
    if "://" not in text:
        return []
    found = []
    for match in URL_PASSWORD.finditer(text):
        if _is_url_placeholder(match["password"]):
            continue
        found.append(Finding(match.start("password"), match.end("password"), "password"))
    return found


def _is_url_placeholder(password: str) -> bool:
    """``user:password@``, ``:${PASS}@``, ``:***@`` or a port number (``host:8080@``)."""
    if password.lower() in URL_PLACEHOLDERS or password[0] in "<${[*":
        return True
    if password.isdigit() and len(password) <= 5:
        return True
    return bool(PLACEHOLDER_RUN.search(password) or ENV_NAME.fullmatch(password))


# --- PV004 email addresses -------------------------------------------------------------------

EMAIL = LazyPattern(
    r"(?<![A-Za-z0-9._%+-])(?P<local>[A-Za-z0-9._%+-]{1,64})@"
    r"(?P<domain>(?:[A-Za-z0-9-]{1,63}\.){1,8}(?P<tld>[A-Za-z]{2,24}))(?![A-Za-z0-9-])"
)
RESERVED_DOMAINS = ("example.com", "example.org", "example.net", "localhost")
RESERVED_SUFFIXES = (".example", ".test", ".invalid", ".localhost", ".local")
NOREPLY = LazyPattern(r"(?i)(?:no-?reply|do-?not-?reply|donotreply|mailer-daemon)(?:[+._-].*)?")
FILE_SUFFIXES = frozenset(
    [
        "png",
        "jpg",
        "jpeg",
        "gif",
        "svg",
        "webp",
        "ico",
        "pdf",
        "md",
        "txt",
        "json",
        "yaml",
        "yml",
        "toml",
        "js",
        "ts",
        "jsx",
        "tsx",
        "py",
        "go",
        "rs",
        "css",
        "html",
        "lock",
        "zip",
        "gz",
        "tar",
    ]
)


def find_emails(text: str, allow_domains: Iterable[str] = ()) -> list[Finding]:
    if "@" not in text:
        return []
    allowed = tuple(d.lower().lstrip("@") for d in allow_domains)
    found = []
    for match in EMAIL.finditer(text):
        domain = match["domain"].lower()
        if match["tld"].lower() in FILE_SUFFIXES or text.startswith(":", match.end()):
            continue
        if _domain_allowed(domain, allowed) or NOREPLY.fullmatch(match["local"]):
            continue
        found.append(Finding(match.start(), match.end(), "email address"))
    return found


def _domain_allowed(domain: str, allowed: tuple[str, ...]) -> bool:
    if domain in RESERVED_DOMAINS or domain.endswith(RESERVED_SUFFIXES):
        return True
    if domain.endswith(("example.com", "example.org", "example.net", "noreply.github.com")):
        return domain.split(".")[-2] in ("example", "github")
    return any(domain == d or domain.endswith("." + d) for d in allowed)


# --- PV005 home paths ------------------------------------------------------------------------

USER_NAME = r"(?P<user>[A-Za-z0-9._-]{1,64})"
HOME_PATHS = (
    LazyPattern(r"(?<![A-Za-z0-9_.~-])/home/" + USER_NAME + r"(?![A-Za-z0-9._-])"),
    LazyPattern(r"(?<![A-Za-z0-9_.~-])/Users/" + USER_NAME + r"(?![A-Za-z0-9._-])"),
    LazyPattern(r"\\home\\{1,2}" + USER_NAME + r"(?![A-Za-z0-9._-])"),
    LazyPattern(
        r"(?<![A-Za-z0-9])[A-Za-z]:(?:\\{1,2}|/)Users(?:\\{1,2}|/)"
        r"(?P<user>[A-Za-z0-9._-]{1,64}(?: [A-Za-z0-9._-]{1,64})?)(?=\\|/|[\s\"'`)]|$)"
    ),
)
GENERIC_USERS = frozenset(
    {
        "user",
        "username",
        "users",
        "me",
        "you",
        "yourname",
        "your-user",
        "your_user",
        "name",
        "runner",
        "ubuntu",
        "ec2-user",
        "node",
        "vscode",
        "codespace",
        "codespaces",
        "docker",
        "circleci",
        "travis",
        "jenkins",
        "builder",
        "shared",
        "public",
        "default",
        "default user",
        "all users",
        "guest",
        "admin",
        "root",
        "example",
        "...",
    }
)


def find_home_paths(text: str, allow_users: Iterable[str] = ()) -> list[Finding]:
    if "home" not in text and "Users" not in text:
        return []
    allowed = GENERIC_USERS | {u.lower() for u in allow_users}
    found = []
    for pattern in HOME_PATHS:
        for match in pattern.finditer(text):
            user = match["user"]
            if user.lower() in allowed or user.strip(".") == "":
                continue
            found.append(Finding(match.start("user"), match.end("user"), "home directory user"))
    return found


# --- PV006 numeric identifiers ---------------------------------------------------------------

DIGIT_RUN = LazyPattern(r"[0-9]{10,1000}+")
# Every ASCII digit byte becomes "0": a text holds a DIGIT_RUN exactly when its UTF-8
# bytes, so translated, hold ten "0" in a row (6x faster than the regex search).
DIGITS_AS_ZERO = bytes(48 if 48 <= byte <= 57 else byte for byte in range(256))
TEN_DIGITS = b"0" * 10
GLUE_BEFORE = frozenset("._/#@$%+-,")
GLUE_AFTER = frozenset("._/%-,")
EPOCH_SECONDS = (946_684_800, 4_102_444_800)  # 2000-01-01 .. 2100-01-01
EPOCH_SCALES = (1, 10**3, 10**6, 10**9)


def is_timestamp_like(digits: str) -> bool:
    """A Unix time between 2000 and 2100 in seconds, milliseconds, microseconds or
    nanoseconds (by value: ``5555555555554444`` would be the year 2146), or a compact
    ``YYYYMMDDhhmm[ss]`` date."""
    value = int(digits[:20])
    low, high = EPOCH_SECONDS
    if any(low * scale <= value < high * scale for scale in EPOCH_SCALES):
        return True
    if len(digits) in (12, 14):
        year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:8])
        return 1900 <= year <= 2100 and 1 <= month <= 12 and 1 <= day <= 31
    return False


_last_zeroed: tuple[str | None, bytes] = (None, b"")


def digits_as_zero(text: str) -> bytes:
    """The UTF-8 bytes of ``text`` with every ASCII digit read as "0". The last text's
    are kept: PV006 and PV007 ask for the same text in a row."""
    global _last_zeroed
    last = _last_zeroed
    if last[0] is text:
        return last[1]
    zeroed = text.encode("utf-8", "surrogatepass").translate(DIGITS_AS_ZERO)
    _last_zeroed = (text, zeroed)
    return zeroed


def has_digit_run(text: str) -> bool:
    """Whether ``text`` holds ten or more ASCII digits in a row (a ``DIGIT_RUN``)."""
    return TEN_DIGITS in digits_as_zero(text)


def find_numeric_ids(text: str, min_digits: int = 10) -> list[Finding]:
    """Runs of ``min_digits`` or more digits, bare or grouped by single spaces or hyphens
    (``4839 2017 5634``, ``(415) 555-2671``), that are not timestamps, dates, ISBNs,
    placeholders or card numbers (PV007), nor glued to letters or to a decimal point."""
    found = []
    if has_digit_run(text):
        for match in DIGIT_RUN.finditer(text):
            start, end = match.span()
            if end - start < min_digits or _glued(text, start, end):
                continue
            digits = match.group()
            if text[start - 1 : start] != "-" and is_timestamp_like(digits):
                continue
            if _not_an_identifier(digits) or "isbn" in text[max(0, start - 12) : start].lower():
                continue
            found.append(Finding(start, end, "numeric identifier"))
    if _may_hold_groups(text):
        for match in GROUPED_DIGITS.finditer(text):
            start, end = match.span()
            digits = "".join(char for char in match.group() if char.isdigit())
            if len(digits) < min_digits or _glued(text, start, end):
                continue
            if _not_an_identifier(digits) or _grouped_non_identifier(match):
                continue
            found.append(Finding(start, end, "numeric identifier"))
    if found and "+" in text:  # the national part of an international number: PV009
        phones = find_phones(text)
        found = [f for f in found if not any(p.start < f.end and f.start < p.end for p in phones)]
    return found


# Digit groups joined by one kind of separator, a first group in parentheses allowed;
# groups after the first have at least 3 digits ("10 20 30 40 50" is a list), at most 7
# (a longer group is a digit run of its own).
GROUPED_DIGITS = LazyPattern(
    r"(?<![0-9A-Za-z_])(?:\([0-9]{2,5}\) ?[0-9]{3,7}(?:(?P<s1>[ -])[0-9]{3,7}){0,5}"
    r"|[0-9]{2,7}(?P<s2>[ -])[0-9]{3,7}(?:(?P=s2)[0-9]{3,7}){0,5})(?![0-9A-Za-z_])"
)
GROUP_GATES = (b"0 000", b"0-000", b") 000")
YEARS = range(1900, 2101)


def _may_hold_groups(text: str) -> bool:
    """Whether ``text`` may hold ``GROUPED_DIGITS`` (a byte test, as ``has_digit_run``)."""
    zeroed = digits_as_zero(text)
    return any(gate in zeroed for gate in GROUP_GATES)


def _glued(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is part of a longer token: letters, a hash, a version,
    a decimal (``0.48…``, ``0,48…``), a path or URL, an issue ``#``, a ``+`` phone number.
    A comma is a boundary when no digit is on its other side (``billing,4839…,visa``)."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before.isalnum() or before == "_" or after.isalnum() or after == "_":
        return True
    outer_before = text[start - 2] if start >= 2 else " "
    outer_after = text[end + 1] if end + 1 < len(text) else " "
    if before == ",":
        return outer_before.isdigit()
    if before == "-":
        return outer_before not in " \t\n"
    if before in GLUE_BEFORE:
        return True
    if after == ",":
        return outer_after.isdigit()
    sentence_end = after == "." and outer_after in " \t\n\"'"
    return after in GLUE_AFTER and not sentence_end


def _not_an_identifier(digits: str) -> bool:
    return is_placeholder_number(digits) or is_card_number(digits) or is_isbn13(digits)


def _grouped_non_identifier(match: re.Match) -> bool:
    """Grouped digits that are a quantity or a list: thousands (``12 345 678 901``), a
    list of equal-length numbers split by spaces (ports ``8080 8443 9090``), a date
    (``2024-01-02 …``) or years (``2019-2020-2021``)."""
    value = match.group()
    groups = re.split(r"[ ()-]+", value.strip("()"))
    if match["s2"] == " " and len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:]):
        return True
    if match["s2"] == " " and len({len(g) for g in groups}) == 1:
        return True
    if all(len(g) == 4 and int(g) in YEARS for g in groups):
        return True
    return bool(re.match(r"(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:[0-2][0-9]|3[01])", value))


def is_isbn13(digits: str) -> bool:
    """An ISBN-13: 978/979 and a valid EAN check digit (an ISBN-10's check passes for one
    number in eleven, so it is no sign; its hyphenated form is not a digit run here)."""
    if len(digits) != 13 or not digits.startswith(("978", "979")):
        return False
    return sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10 == 0


def is_placeholder_number(digits: str) -> bool:
    """``0000000000``, ``1234567890`` / ``9876543210``, or a country or area code of up
    to five digits followed by one digit repeated (``4930000000``, ``8613800000000``)."""
    if len(set(digits)) == 1 or digits in ASCENDING or digits in DESCENDING:
        return True
    tail = digits[-1]
    run = len(digits) - len(digits.rstrip(tail))
    return run >= 6 and len(digits) - run <= 5


ASCENDING = "1234567890" * 3
DESCENDING = "9876543210" * 3

# --- payment cards ---------------------------------------------------------------------------

# 13-19 digits, bare or grouped by one kind of separator (space or hyphen) as cards are
# printed: 4-4-4-4-1..3, 4-4-4-1..7, 4-6-4/5 (Diners, Amex), 6-13.
CARD = LazyPattern(
    r"(?<![0-9A-Za-z_])(?:[0-9]{13,19}"
    r"|[0-9]{4}(?P<s3>[ -])[0-9]{4}(?P=s3)[0-9]{4}(?P=s3)[0-9]{4}(?P=s3)[0-9]{1,3}"
    r"|[0-9]{4}(?P<s1>[ -])[0-9]{4}(?P=s1)[0-9]{4}(?P=s1)[0-9]{1,7}"
    r"|[0-9]{4}(?P<s2>[ -])[0-9]{6}(?P=s2)[0-9]{4,5}"
    r"|[0-9]{6}(?P<s4>[ -])[0-9]{13})(?![0-9A-Za-z_])"
)
# What a text must hold, its digits read as "0" (as ``has_digit_run`` reads them), for
# ``CARD`` to match: 13 digits in a row, or the start of a grouped form.
CARD_GATES = (
    b"0" * 13,
    b"0000 0000 0000 0",
    b"0000-0000-0000-0",
    b"0000 000000 0000",
    b"0000-000000-0000",
)
# Any of CARD_GATES in one search: they share the prefix "0000", which ``re`` scans for.
CARD_GATE = LazyPattern(b"|".join(map(re.escape, CARD_GATES)))
# Issuer prefixes (IIN ranges) and the lengths each issues: (low, high, lengths).
CARD_ISSUERS = (
    ("4", "4", (13, 16, 19)),  # Visa
    ("51", "55", (16,)),  # Mastercard
    ("2221", "2720", (16,)),  # Mastercard 2-series
    ("34", "34", (15,)),  # American Express
    ("37", "37", (15,)),
    ("6011", "6011", (16, 17, 18, 19)),  # Discover
    ("644", "649", (16, 17, 18, 19)),
    ("65", "65", (16, 17, 18, 19)),
    ("300", "305", (14, 15, 16, 17, 18, 19)),  # Diners Club
    ("36", "36", (14, 15, 16, 17, 18, 19)),
    ("38", "39", (16, 17, 18, 19)),
    ("3528", "3589", (16, 17, 18, 19)),  # JCB
    ("62", "62", (16, 17, 18, 19)),  # UnionPay
    ("2200", "2204", (16, 17, 18, 19)),  # Mir
    ("50", "50", (13, 14, 15, 16, 17, 18, 19)),  # Maestro
    ("56", "58", (13, 14, 15, 16, 17, 18, 19)),
    ("67", "67", (13, 14, 15, 16, 17, 18, 19)),
)


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card_issuer_known(digits: str) -> bool:
    for low, high, lengths in CARD_ISSUERS:
        if len(digits) in lengths and low <= digits[: len(low)] <= high:
            return True
    return False


def is_card_number(digits: str) -> bool:
    """13-19 digits, Luhn-valid, with a known issuer prefix for their length. Unix times
    (seconds to nanoseconds, 2000 to 2039) start with 1 or 20-21: no issuer uses those."""
    return 13 <= len(digits) <= 19 and card_issuer_known(digits) and luhn_valid(digits)


def find_cards(text: str, allow: Iterable[str] = ()) -> list[Finding]:
    """Payment card numbers, bare or grouped, glued to punctuation or not; a decimal
    fraction (``0.4242…``), a dotted version or an ``#`` issue number is not one.
    ``allow``: numbers (digits only) not to report, such as a documented test card."""
    if not CARD_GATE.search(digits_as_zero(text)):
        return []
    allowed = frozenset(allow)
    found = []
    for match in CARD.finditer(text):
        start, end = match.span()
        before = text[start - 1] if start else " "
        if before == "#" or (before == "." and start >= 2 and text[start - 2].isdigit()):
            continue
        if end + 1 < len(text) and text[end] == "." and text[end + 1].isdigit():
            continue
        digits = "".join(char for char in match.group() if char.isdigit())
        if digits in allowed or not is_card_number(digits):
            continue
        found.append(Finding(start, end, "payment card number"))
    return found


# --- IBANs -----------------------------------------------------------------------------------

# A country code, two check digits and the account part: bare or in groups of four
# separated by single spaces (the printed form); cut to the country's length below.
IBAN = LazyPattern(
    r"(?<![0-9A-Za-z_])[A-Z]{2}[0-9]{2}(?:[0-9A-Z]{10,30}|(?: [0-9A-Z]{4}){2,7}(?: [0-9A-Z]{1,4})?)"
)
# IBAN lengths of the countries that issue most of them (SEPA and a few more).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AT": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21, "CY": 28,
    "CZ": 24, "DE": 22, "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22,
    "GI": 23, "GL": 18, "GR": 27, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27,
    "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31,
    "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VA": 22,
}  # fmt: skip


def iban_valid(iban: str) -> bool:
    """ISO 13616: the country's length and the mod-97 check (letters count 10..35)."""
    if IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban[2:4].isdigit():
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


# Every ASCII capital becomes "A" and every digit "0": ``IBAN`` matches only where the
# text so translated holds "AA00".
CAPITALS_DIGITS = bytes(
    65 if 65 <= byte <= 90 else 48 if 48 <= byte <= 57 else byte for byte in range(256)
)


def find_ibans(text: str) -> list[Finding]:
    """IBANs of a known country, bare or grouped by spaces, passing the mod-97 check."""
    if b"AA00" not in text.encode("utf-8", "surrogatepass").translate(CAPITALS_DIGITS):
        return []
    found = []
    for match in IBAN.finditer(text):
        span = _iban_span(text, match.start(), match.end())
        if span is not None:
            found.append(Finding(*span, "IBAN", 4))
    return found


def _iban_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``start``..the end of the IBAN at ``start`` (its country's length), or None."""
    length = IBAN_LENGTHS.get(text[start : start + 2])
    if length is None:
        return None
    chars, at = 0, start
    while at < end and chars < length:
        chars += text[at] != " "
        at += 1
    if chars < length or (at < len(text) and (text[at].isalnum() or text[at] == "_")):
        return None
    return (start, at) if iban_valid(text[start:at].replace(" ", "")) else None


# --- international phone numbers -------------------------------------------------------------

# "+", a country code (no leading 0), then digit groups separated by one space, hyphen or
# dot, the first may sit in parentheses: +1 (415) 555-2671, +44 20 7946 0958, +33.1.23.45.67.89.
PHONE = LazyPattern(
    r"(?<![0-9A-Za-z_+])\+[1-9][0-9]{0,3}"
    r"(?:[ .-]?\([0-9]{1,5}\))?(?:[ .-]?[0-9]{1,10}){1,6}(?![0-9A-Za-z_])"
)


def find_phones(text: str) -> list[Finding]:
    """International phone numbers: ``+`` and 8 to 15 digits, bare or grouped. A
    decimal (``+52.520008``: one dot) and placeholder digits are not phone numbers."""
    if "+" not in text:
        return []
    found = []
    for match in PHONE.finditer(text):
        value = match.group()
        digits = "".join(char for char in value if char.isdigit())
        if not 8 <= len(digits) <= 15 or is_placeholder_number(digits[1:]):
            continue
        if value.count(".") == 1 or (
            text.startswith(".", match.end()) and text[match.end() + 1 : match.end() + 2].isdigit()
        ):
            continue
        found.append(Finding(match.start(), match.end(), "phone number", 3))
    return found


# --- shared ----------------------------------------------------------------------------------

Detector = Callable[[str], list[Finding]]


def all_findings(text: str) -> list[Finding]:
    """Every secret/PII span in ``text`` with default options (used to mask snippets)."""
    found = [
        *find_credentials(text),
        *find_private_keys(text),
        *find_url_passwords(text),
        *find_emails(text),
        *find_home_paths(text),
        *find_numeric_ids(text),
        *find_cards(text),
        *find_ibans(text),
        *find_phones(text),
    ]
    return _without_overlaps(found)


def drop_redacted(text: str, found: list[Finding], marker: str) -> list[Finding]:
    """Findings that do not overlap an occurrence of the redaction ``marker``."""
    if not marker or marker not in text:
        return found
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(marker), text)]
    return [f for f in found if not any(f.start < e and s < f.end for s, e in spans)]


def mask_spans(text: str, found: Iterable[Finding]) -> str:
    """``text`` with each finding masked to the same length (columns stay aligned)."""
    chars = list(text)
    for finding in found:
        length = finding.end - finding.start
        keep = min(finding.keep, max(length - 8, 1)) if length >= 12 else 1
        tail = finding.end - 4 if length >= 12 else finding.end
        for i in range(finding.start + keep, tail):
            if chars[i] not in "\n\r":
                chars[i] = "*"
    return "".join(chars)


def mask_text(text: str) -> str:
    """``text`` with every detected secret or PII span masked (same length)."""
    found = all_findings(text)
    return mask_spans(text, found) if found else text


def mask_secrets(text: str) -> str:
    """``text`` with credentials and passwords in URLs masked (same length), but no PII:
    for paths, settings and errors, where a user name or a long number names a file."""
    found = _without_overlaps([*find_credentials(text), *find_url_passwords(text)])
    return mask_spans(text, found) if found else text


def _without_overlaps(found: list[Finding]) -> list[Finding]:
    result: list[Finding] = []
    for finding in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if result and finding.start < result[-1].end:
            continue
        result.append(finding)
    return result
