"""``sarif`` renderer: one SARIF 2.1.0 run that GitHub code scanning accepts.

Locations are relative to the working directory (``%SRCROOT%``), columns count
code points, and the log is deterministic (no timestamps, sorted rules and results).
Each rule links to its section of docs/rules.md (``helpUri``); each result has a
fingerprint that survives lines moving (rule, file, the line's normalized text and
which repeat it is), so re-uploads match existing alerts. The privacy rules carry
GitHub's ``security-severity``. A log over GitHub's limits (25,000 results per run,
10 MB per file) keeps the most severe results and says how many it dropped.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from memlint import REPOSITORY_URL, __version__
from memlint.diagnostics import Diagnostic, Fix, Range, Severity
from memlint.output.text import shown_line
from memlint.ruledoc import rule_url
from memlint.rules import rule_module

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SECTION = re.compile(r"^## (.{1,80})$", re.MULTILINE)
DESCRIPTION_LIMIT = 1024
FINGERPRINT_KEY = "memlint/v1"
SECURITY_PREFIX = "PV"  # the privacy rules: leaked secrets and personal data
SECURITY_SEVERITY = {Severity.ERROR: "8.0", Severity.WARNING: "5.0", Severity.INFO: "2.0"}
MAX_RESULTS = 25_000  # GitHub code scanning: results per run
MAX_BYTES = 10_000_000  # GitHub code scanning: size of a SARIF file


def relative_path(path: str, cwd: str) -> str | None:
    """``path`` relative to ``cwd`` with ``/`` separators, or ``None`` when outside it."""
    rel = os.path.relpath(path, cwd) if os.path.isabs(path) else path
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def artifact_location(path: str, cwd: str) -> dict:
    rel = relative_path(path, cwd)
    if rel is None:
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(os.fsencode(rel), safe="/"), "uriBaseId": "%SRCROOT%"}  # any bytes


def doc_sections(doc: str) -> dict[str, str]:
    """The ``## Heading`` sections of a rule docstring, by heading."""
    parts = SECTION.split(doc or "")
    return {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def _limit(text: str) -> str:
    return text if len(text) <= DESCRIPTION_LIMIT else text[: DESCRIPTION_LIMIT - 1] + "…"


def rule_descriptor(code: str) -> dict:
    module = rule_module(code)
    if module is None:  # a code the registry does not know (e.g. a crash report)
        return {
            "id": code,
            "shortDescription": {"text": code},
            "fullDescription": {"text": code},
            "help": {"text": code},
        }
    meta = module.META
    doc = (module.__doc__ or "").strip() or meta.summary
    what = doc_sections(doc).get("What it does") or meta.summary
    url = rule_url(meta.code)
    family = meta.code.rstrip("0123456789")
    properties: dict = {"tags": ["memlint", family, meta.scope.value]}
    if family == SECURITY_PREFIX:
        properties["tags"].append("security")
        properties["security-severity"] = SECURITY_SEVERITY[meta.severity]
    return {
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": _limit(meta.summary)},
        "fullDescription": {"text": _limit(" ".join(what.split()))},
        "helpUri": url,
        "help": {"text": f"{doc}\n\n{url}", "markdown": f"{doc}\n\n[Documentation]({url})"},
        "defaultConfiguration": {"level": LEVELS[meta.severity]},
        "properties": properties,
    }


def _region(rng: Range) -> dict:
    if rng == Range.file_start():
        return {"startLine": 1}
    return {
        "startLine": rng.start.line,
        "startColumn": rng.start.column,
        "endLine": rng.end.line,
        "endColumn": rng.end.column,
    }


def _fix(fix: Fix, cwd: str) -> dict:
    by_path: dict[str, list] = {}
    for edit in fix.edits:
        by_path.setdefault(edit.path, []).append(
            {
                "deletedRegion": {
                    "startLine": edit.range.start.line,
                    "startColumn": edit.range.start.column,
                    "endLine": edit.range.end.line,
                    "endColumn": edit.range.end.column,
                },
                "insertedContent": {"text": edit.content},
            }
        )
    return {
        "description": {"text": fix.title},
        "artifactChanges": [
            {"artifactLocation": artifact_location(path, cwd), "replacements": replacements}
            for path, replacements in sorted(by_path.items())
        ],
    }


def line_key(diagnostic: Diagnostic, ctx, masked: dict[str, str | None]) -> str:
    """The text of the finding's first line, secrets masked (a hash of a line in clear
    gives a short secret away to a search), with runs of white space collapsed (empty
    when the file's text is not available). ``masked``: see :func:`shown_line`."""
    source = ctx.sources.get(diagnostic.path)
    text = source.text if source is not None else None
    if text is None or diagnostic.range.start.line > len(source.line_starts):
        return ""
    return " ".join(shown_line(source, diagnostic.range.start.line, masked).split())


def fingerprints(diagnostics: list[Diagnostic], ctx) -> list[str]:
    """Per diagnostic: a hash of rule, file, normalized line text and the occurrence
    index of that triple (in position order), so inserting lines elsewhere keeps it."""
    seen: Counter = Counter()
    masked: dict[str, str | None] = {}
    out = []
    for d in diagnostics:
        key = (d.code, relative_path(d.path, ctx.cwd) or d.path, line_key(d, ctx, masked))
        seen[key] += 1
        text = "\0".join((*key, str(seen[key])))
        out.append(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return out


def _result(diagnostic: Diagnostic, index: int, cwd: str, fingerprint: str) -> dict:
    result = {
        "ruleId": diagnostic.code,
        "ruleIndex": index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(diagnostic.path, cwd),
                    "region": _region(diagnostic.range),
                }
            }
        ],
    }
    if diagnostic.fix is not None and diagnostic.fix.edits:
        result["fixes"] = [_fix(diagnostic.fix, cwd)]
    return result


def _ordered(diagnostics: list[Diagnostic], cwd: str) -> list[Diagnostic]:
    return sorted(
        diagnostics, key=lambda d: (relative_path(d.path, cwd) or d.path, *d.sort_key()[1:])
    )


def build_log(diagnostics: list[Diagnostic], ctx, *, dropped: int = 0) -> dict:
    """The log of ``diagnostics``; ``dropped`` results left out are noted in it."""
    from memlint.engine import CRASH_CODE

    codes = sorted({*ctx.rule_codes, *(d.code for d in diagnostics)})
    index = {code: i for i, code in enumerate(codes)}
    ordered = _ordered(diagnostics, ctx.cwd)
    prints = fingerprints(ordered, ctx)
    root_uri = Path(ctx.cwd).as_uri().rstrip("/") + "/"
    invocation: dict = {"executionSuccessful": not any(d.code == CRASH_CODE for d in diagnostics)}
    if dropped:
        note = (
            f"{dropped} of {dropped + len(diagnostics)} results were left out to stay within "
            f"GitHub code scanning's limits ({MAX_RESULTS} results, {MAX_BYTES} bytes); "
            "the least severe went first. Run memlint locally to see them all."
        )
        invocation["toolExecutionNotifications"] = [{"level": "warning", "message": {"text": note}}]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "memlint",
                        "version": __version__,
                        "informationUri": REPOSITORY_URL,
                        "rules": [rule_descriptor(code) for code in codes],
                    }
                },
                "invocations": [invocation],
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": [
                    _result(d, index[d.code], ctx.cwd, fingerprint)
                    for d, fingerprint in zip(ordered, prints, strict=True)
                ],
            }
        ],
    }


def _dump(log: dict) -> str:
    return json.dumps(log, indent=2, ensure_ascii=True) + "\n"


def render_sarif(diagnostics: list[Diagnostic], ctx) -> str:
    """The log, cut to GitHub's limits: results are dropped least severe first
    (then from the end of the file order) until at most ``MAX_RESULTS`` remain and
    the text is at most ``MAX_BYTES``."""
    by_rank = sorted(
        _ordered(diagnostics, ctx.cwd), key=lambda d: -d.severity
    )  # stable: file order within a severity
    keep = min(len(by_rank), MAX_RESULTS)
    while True:
        kept = by_rank[:keep]
        text = _dump(build_log(kept, ctx, dropped=len(by_rank) - keep))
        if len(text) <= MAX_BYTES or keep == 0:
            return text
        excess = len(text) - MAX_BYTES
        per_result = max(1, (len(text) - len(_dump(build_log([], ctx)))) // keep)
        keep = max(0, keep - max(1, -(-excess // per_result)))
