"""Heuristics over a note's ``fact``: sentence count, transcript echo, code-obvious content."""

from __future__ import annotations

import re

from memlint.privacy import LazyPattern

ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "cf",
        "al",
        "approx",
        "ca",
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "st",
        "jr",
        "sr",
        "inc",
        "ltd",
        "co",
        "corp",
        "no",
        "nos",
        "fig",
        "dept",
        "est",
        "min",
        "max",
        "avg",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "resp",
        "incl",
        "excl",
        "ver",
        "approx",
    ]
)
CITATION_WORDS = 3
SENTENCE_END = LazyPattern(r"(?P<word>[^\s]{0,40}?)[.!?]+[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
SPEAKER = r"(?:user|assistant|human|ai|system|claude|chatgpt|gpt|bot|agent|model|me|you)"
SPEAKER_PREFIX = LazyPattern(
    r"\s{0,10}(?:[>*_#-]{1,4}\s{0,3})?\**" + SPEAKER + r"\**\s{0,3}:\s", re.I
)
SPEAKER_TURN = LazyPattern(r"(?:^|\s)\**" + SPEAKER + r"\**\s{0,3}:\s", re.I)
OPENING_QUOTES = frozenset("\"“«'")
CLOSING_QUOTES = frozenset("\"”»'")
QUOTED = LazyPattern(r"\s{0,10}[\"“«'].{0,2000}[\"”»']\s{0,10}", re.S)
CODE_EXTENSIONS = frozenset(
    [
        "py",
        "js",
        "ts",
        "tsx",
        "jsx",
        "mjs",
        "md",
        "json",
        "jsonl",
        "yaml",
        "yml",
        "toml",
        "go",
        "rs",
        "java",
        "kt",
        "rb",
        "php",
        "c",
        "h",
        "cc",
        "cpp",
        "hpp",
        "cs",
        "sh",
        "txt",
        "cfg",
        "ini",
        "lock",
        "sql",
        "html",
        "css",
        "scss",
        "vue",
        "svelte",
        "swift",
    ]
)
BARE_PATH = LazyPattern(
    r"[`'\"]?(?:~|\.{1,2}|[A-Za-z]:)?[\\/]?(?:[\w.@-]{1,100}[\\/]){0,30}"
    r"[\w@-]{1,100}(?:\.[A-Za-z0-9]{1,10})?[\\/]?[`'\"]?[.]?"
)
SIGNATURE = LazyPattern(
    r"`?(?:(?:async\s{1,5})?(?:def|function|func|fn|fun|sub|public|private|static|export|"
    r"void|int|str|bool|const)\s{1,5}){0,3}[\w.$:<>]{1,100}\s{0,3}\([^()\n]{0,300}\)"
    r"(?:\s{0,3}(?:->|:|=>)\s{0,3}[\w\[\], .|<>?*]{1,100})?\s{0,3}[;:{]?`?[.]?"
)
VISIBLE_STATE = re.compile(
    r"(?:the\s{1,3})?(?:file|directory|folder|dir|module|package|function|class|method|"
    r"script|test|config|branch)?\s{0,3}`?[\w./\\()-]{1,200}`?\s{1,3}"
    r"(?:exists|is\s{1,3}present|is\s{1,3}there|is\s{1,3}defined|has\s{1,3}\d{1,9}\s{1,3}lines|"
    r"is\s{1,3}located\s{1,3}(?:in|at)\s{1,3}`?[\w./\\-]{1,200}`?|"
    r"is\s{1,3}(?:defined\s{1,3})?in\s{1,3}`?[\w./\\-]{1,200}`?)[.]?",
    re.I,
)


def sentence_count(text: str) -> int:
    """Sentences in ``text``, not splitting after abbreviations, initials or inner dots.

    A closing fragment of at most three words (``Ref ATL-1000.``, ``See ADR-7.``)
    cites the fact; it is not a second fact.
    """
    count = 1
    last_end = 0
    if not any(mark in text.rstrip()[:-1] for mark in ".!?"):
        return count  # a sentence ends inside only at one of them
    for match in SENTENCE_END.finditer(text):
        word = match["word"].lstrip("(\"'[`").lower()
        if word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
            continue
        if "." in word and not word.startswith("."):
            continue
        count += 1
        last_end = match.end()
    if count > 1 and len(text[last_end:].split()) <= CITATION_WORDS:
        count -= 1
    return count


def transcript_reason(text: str) -> str | None:
    """Why ``text`` looks like a copied conversation turn, or None."""
    if ":" in text:  # every speaker prefix has one
        if SPEAKER_PREFIX.match(text):
            return "starts with a speaker prefix"
        if len(SPEAKER_TURN.findall(text)) >= 2:
            return "holds several speaker turns"
    quoted = text.strip()
    if quoted[:1] in OPENING_QUOTES and quoted[-1:] in CLOSING_QUOTES and QUOTED.fullmatch(text):
        return "is a verbatim quotation"
    return None


def code_obvious_reason(text: str) -> str | None:
    """Why ``text`` only restates what the code shows (path, signature, visible state), or None."""
    stripped = text.strip()
    if len(stripped) > 300:
        return None
    spaced = len(stripped.split(None, 1)) > 1  # a path holds no blank
    if not spaced and BARE_PATH.fullmatch(stripped) and _looks_like_path(stripped.strip("`'\".")):
        return "is a bare file path"
    if "(" in stripped and SIGNATURE.fullmatch(stripped):
        return "is a bare function signature"
    if VISIBLE_STATE.fullmatch(stripped):
        return "states what the code or file tree already shows"
    return None


def _looks_like_path(text: str) -> bool:
    if "/" in text or "\\" in text:
        return True
    stem, dot, extension = text.rpartition(".")
    if not dot or extension not in CODE_EXTENSIONS:
        return False
    return not (stem[:1].isupper() and stem[1:].islower())
