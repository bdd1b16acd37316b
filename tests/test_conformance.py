"""Conformance table: each contract sentence of seeds 000 (typed), 001 (linked) and 002
(notes) against minimal stores that break it, alone and mixed with other breakage (a
one-file store, half the files broken, every file broken differently), and a store that
satisfies it. Each case asserts the detected profile, the codes found and the exit code.

Detection must fail closed: the more broken a store is, the more memlint checks it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from memlint.cli import main
from memlint.config import Settings
from memlint.discovery import discover
from tests.helpers import write_files

# --- seed 001: linked ---------------------------------------------------------------------


def linked(stem: str, name: str | None = "=", description: str | None = "d", mtype="user",
           body: str = "Body.\n", metadata: bool = True) -> str:  # fmt: skip
    lines = ["---"]
    if name is not None:
        lines.append(f"name: {stem if name == '=' else name}")
    if description is not None:
        lines.append(f"description: {description}")
    if metadata:
        lines.append("metadata:")
        if mtype is not None:
            lines.append(f"  type: {mtype}")
        else:
            lines.append("  node_type: memory")
    return "\n".join(lines) + "\n---\n" + body


# sentence -> (broken files {rel: text} replacing or adding to a good store, codes expected)
LINKED_SENTENCES = {
    "name: required": ({"x.md": linked("x", name=None)}, {"FM007"}),
    "name: unique": (
        {"x.md": linked("x", name="same"), "y.md": linked("y", name="same")},
        {"ID003", "ID001"},
    ),
    "name must match the filename": ({"x.md": linked("x", name="other-x")}, {"ID001"}),
    "description: required": ({"x.md": linked("x", description=None)}, {"FM007"}),
    "metadata.type: required": ({"x.md": linked("x", mtype=None)}, {"FM007"}),
    "metadata: required": ({"x.md": linked("x", metadata=False)}, {"FM007"}),
    "type: user | project | feedback | reference": (
        {"x.md": linked("x", mtype="person")},
        {"FM010"},
    ),
    "no two memories carry the same filename, across subdirectories": (
        {"x.md": linked("x"), "sub/x.md": linked("x")},
        {"ID002", "ID003"},
    ),
    "the index and the files agree: every file has an entry": (
        {"x.md": linked("x"), "MEMORY.md": None},
        {"IX002"},
    ),
    "the index and the files agree: every entry has a file": (
        {"MEMORY.md": "+- [Gone](gone.md) — d\n"},
        {"IX003"},
    ),
    "superseded by followed by a wikilink": (
        {"x.md": linked("x", description="superseded by a0")},
        {"SU006"},
    ),
    "the successor must exist": (
        {"x.md": linked("x", description="superseded by [[nowhere]]")},
        {"SU001"},
    ),
    "the successor must be a different memory": (
        {"x.md": linked("x", description="superseded by [[x]]")},
        {"SU002"},
    ),
    "a successor named by a file that exists: repair that file's name": (
        {"x.md": linked("x", description="superseded by [[y]]"), "y.md": linked("y", "why")},
        {"SU005", "ID001"},
    ),
    "an ordinary wikilink may be pending (warning)": (
        {"x.md": linked("x", body="See [[nowhere]].\n")},
        {"LK001"},
    ),
}
LINKED_ERRORS = {"FM007", "FM010", "ID002", "ID003", "IX002", "IX003", "SU001", "SU002",
                 "SU005", "SU006"}  # fmt: skip


def build(good: dict[str, str], broken: dict[str, str | None]) -> dict[str, str]:
    """The ``good`` files with their index, then ``broken`` applied: a text replaces or
    adds a file; ``MEMORY.md`` is ``None`` to leave the broken files out of the index, or
    a text starting with ``+`` to append to it."""
    files = {**good, **{rel: text for rel, text in broken.items() if rel != "MEMORY.md"}}
    leave_out = "MEMORY.md" in broken and broken["MEMORY.md"] is None
    index = "".join(f"- [T]({rel}) — d\n" for rel in files if not (leave_out and rel in broken))
    return {"MEMORY.md": index + (broken.get("MEMORY.md") or "+")[1:], **files}


def linked_store(good: int, broken: dict[str, str | None]) -> dict[str, str]:
    return build({f"a{i}.md": linked(f"a{i}") for i in range(good)}, broken)


# --- seed 000: typed ----------------------------------------------------------------------


def typed(mtype: str, name: str | None = None, description: str | None = "d",
          type_value: str | None = "=", sections: bool = True) -> str:  # fmt: skip
    lines = ["---"]
    if name != "":
        lines.append(f"name: {name or f'Title {next(TITLES)}'}")
    if description is not None:
        lines.append(f"description: {description}")
    if type_value is not None:
        lines.append(f"type: {mtype if type_value == '=' else type_value}")
    body = "Fact.\n"
    if sections and mtype in ("feedback", "project"):
        body += "\n**Why:** reason.\n\n**How to apply:** do it.\n"
    return "\n".join(lines) + "\n---\n" + body


TITLES = itertools.count()
TYPED_GOOD = ("user_role.md", "feedback_tests.md", "project_plan.md", "reference_docs.md")
TYPED_SENTENCES = {
    "a memory type must be feedback, project, user, or reference": (
        {"user_x.md": typed("user", type_value="person")},
        {"FM010"},
    ),
    "its filename is <type>_<slug>.md": ({"notes.md": typed("user")}, {"ID004"}),
    "the slug has only lowercase letters, digits and hyphens": (
        {"user_Big-Slug.md": typed("user")},
        {"ID005"},
    ),
    "the slug is at most 40 characters": ({f"user_{'s' * 41}.md": typed("user")}, {"ID005"}),
    "frontmatter must contain name": ({"user_x.md": typed("user", name="")}, {"FM007"}),
    "frontmatter must contain description": (
        {"user_x.md": typed("user", description=None)},
        {"FM007"},
    ),
    "frontmatter must contain type": ({"user_x.md": typed("user", type_value=None)}, {"FM007"}),
    "the keys are nonempty": ({"user_x.md": typed("user", name='""')}, {"FM008"}),
    "type must match the filename": (
        {"user_x.md": typed("user", type_value="project")},
        {"ID006", "TY001"},
    ),
    "a feedback or project body contains **Why:** and **How to apply:**": (
        {"project_x.md": typed("project", sections=False)},
        {"TY001"},  # one finding when both sections are missing
    ),
    "each MEMORY.md entry is one line of at most 150 characters": (
        {"MEMORY.md": "+- [Role](user_role.md) — " + "w" * 140 + "\n"},
        {"IX007", "IX005"},
    ),
    "every memory has its one-line MEMORY.md entry": (
        {"user_x.md": typed("user"), "MEMORY.md": None},
        {"IX002"},
    ),
}
TYPED_ERRORS = {"FM007", "FM008", "FM010", "ID006", "IX002"}


def typed_store(good: int, broken: dict[str, str | None]) -> dict[str, str]:
    return build({rel: typed(rel.split("_", 1)[0]) for rel in TYPED_GOOD[:good]}, broken)


# --- seed 002: notes ----------------------------------------------------------------------

GOOD_NOTE = {"time": "2026-01-02T03:04:05Z", "project": "shop", "fact": "The shop ships on Monday."}
NOTE_SENTENCES = {
    "time is RFC 3339": ({"time": "2026-01-02 03:04"}, {"NT006"}, True),
    "time is UTC": ({"time": "2026-01-02T03:04:05+02:00"}, {"NT007"}, False),
    "project is required": ({"project": None}, {"NT005"}, True),
    "fact is required": ({"fact": None}, {"NT005"}, True),
    "tags are omitted when there are none": ({"tags": []}, {"NT010"}, False),
    "tags are strings": ({"tags": [1]}, {"NT009"}, True),
    "one sentence or one short clause": (
        {"fact": "Ships Monday. Returns take a week. Call first."},
        {"NT012"},
        False,
    ),
    "no transcript echo": ({"fact": "User: please remember the shipping day"}, {"NT013"}, False),
    "redacted: email addresses": (
        {"fact": "Mail ana.lopez@shopmail.de about it."},
        {"PV004"},
        False,
    ),
    "redacted: numeric identifiers (cards)": (
        {"fact": "Customer card 4242 4242 4242 4242 is on file."},
        {"PV007"},
        True,
    ),
    "only time, project, fact and tags": ({"mood": "happy"}, {"NT011"}, False),
}


def note(change: dict) -> str:
    record = {**GOOD_NOTE, **change}
    return json.dumps({k: v for k, v in record.items() if v is not None}) + "\n"


# --- running ------------------------------------------------------------------------------


def run(root: Path, capsys) -> tuple[dict[str, str], set[str], int]:
    stores = discover([str(root)], Settings(), cwd=str(root))
    profiles = {store.display_root: store.profile for store in stores}
    capsys.readouterr()
    status = main(["check", str(root), "--isolated", "--no-cache", "--output-format", "json"])
    codes = {d["code"] for d in json.loads(capsys.readouterr().out)}
    return profiles, codes, status


def check(root, capsys, files, profile, expected, gates):
    write_files(root, files)
    profiles, codes, status = run(root, capsys)
    assert set(profiles.values()) == {profile}, profiles
    assert expected <= codes, (expected - codes, codes)
    assert status == (1 if gates else 0), codes


SHAPES = {"alone": 3, "one-file": 0, "half-broken": 1}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("sentence", LINKED_SENTENCES)
def test_linked_sentence(tmp_path, capsys, sentence, shape):
    broken, expected = LINKED_SENTENCES[sentence]
    good = SHAPES[shape]
    if shape == "one-file" and broken.get("MEMORY.md"):
        good = 1  # an index entry to a missing file needs a memory for the store to exist
    gates = bool(expected & LINKED_ERRORS)
    check(tmp_path, capsys, linked_store(good, broken), "linked", expected, gates)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("sentence", TYPED_SENTENCES)
def test_typed_sentence(tmp_path, capsys, sentence, shape):
    broken, expected = TYPED_SENTENCES[sentence]
    good = max(SHAPES[shape], 1 if broken.get("MEMORY.md") else 0)
    gates = bool(expected & TYPED_ERRORS)
    check(tmp_path, capsys, typed_store(good, broken), "typed", expected, gates)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("sentence", NOTE_SENTENCES)
def test_note_sentence(tmp_path, capsys, sentence, shape):
    change, expected, gates = NOTE_SENTENCES[sentence]
    good = [note({"fact": f"The shop ships on day {i}."}) for i in range(SHAPES[shape])]
    files = {"notes.jsonl": "".join([*good, note(change)])}
    check(tmp_path, capsys, files, "notes", expected, gates)


def test_linked_store_broken_differently_everywhere(tmp_path, capsys):
    """Every file misses a different required key or has an out-of-domain type."""
    files = {
        "a.md": linked("a", name=None),
        "b.md": linked("b", description=None),
        "c.md": linked("c", mtype=None),
        "d.md": linked("d", metadata=False),
        "e.md": linked("e", mtype="person"),
        "f.md": linked("f", name="f-title"),
    }
    files = build({}, files)
    write_files(tmp_path, files)
    profiles, codes, status = run(tmp_path, capsys)
    assert list(profiles.values()) == ["linked"]
    assert {"FM007", "FM010", "ID001"} <= codes and status == 1


def test_typed_store_broken_differently_everywhere(tmp_path, capsys):
    files = {
        "user_a.md": typed("user", name=""),
        "feedback_b.md": typed("feedback", sections=False),
        "project_c.md": typed("project", type_value="user"),
        "reference_d.md": typed("reference", type_value="person"),
        "user_E.md": typed("user"),
    }
    files = build({}, files)
    write_files(tmp_path, files)
    profiles, codes, status = run(tmp_path, capsys)
    assert list(profiles.values()) == ["typed"]
    assert {"FM007", "TY001", "ID006", "FM010", "ID005"} <= codes and status == 1


@pytest.mark.parametrize(
    ("profile", "files"),
    [
        ("linked", linked_store(3, {})),
        ("typed", typed_store(4, {})),
        (
            "notes",
            {"notes.jsonl": note({}) + note({"fact": "Returns take a week.", "tags": ["ops"]})},
        ),
    ],
)
def test_satisfying_store_passes(tmp_path, capsys, profile, files):
    write_files(tmp_path, files)
    profiles, codes, status = run(tmp_path, capsys)
    assert (list(profiles.values()), codes, status) == ([profile], set(), 0)
