"""Regression tests of issue 16: each safe fix that made a store worse on the old code."""

from __future__ import annotations

from pathlib import Path

import pytest

from memlint.config import Settings
from memlint.engine import selected_rules
from memlint.fixer import fix_paths
from tests.helpers import lint_dir, write_files


def memory(name: str, description: str = "a fact", kind: str = "user", body: str = "body") -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: {kind}\n---\n{body}\n"
    )


def fix(root, select=None, unsafe=False, write=True):
    settings = Settings() if select is None else Settings().with_overrides(select=tuple(select))
    return fix_paths(
        [str(root)], settings, selected_rules(settings), cwd=str(root), unsafe=unsafe, write=write
    )


UNCLOSED_ENDINGS = {
    "comment": "<!-- maintainer notes\n",
    "backtick fence": "```\nsome code\n",
    "tilde fence": "~~~\nsome code\n",
    "details": "<details>\n<summary>old</summary>\n",
    "backtick run": "`````` never closed\n",
}


@pytest.mark.parametrize("ending", UNCLOSED_ENDINGS.values(), ids=UNCLOSED_ENDINGS.keys())
def test_ix002_never_appends_into_an_unclosed_block(tmp_path, ending):
    write_files(tmp_path, {"MEMORY.md": "# Index\n" + ending, "a.md": memory("a")})
    outcome = fix(tmp_path)
    assert not outcome.errors
    text = (tmp_path / "MEMORY.md").read_text()
    assert text.count("(a.md)") == 1
    assert text == "# Index\n- [a](a.md) — a fact\n" + ending
    assert not fix(tmp_path).changes


def test_ix002_indexes_150_memories_in_one_round(tmp_path):
    write_files(tmp_path, {"MEMORY.md": "# Index\n"})
    write_files(tmp_path, {f"m{i:03}.md": memory(f"m{i:03}", f"fact {i}") for i in range(150)})
    outcome = fix(tmp_path)
    assert not outcome.errors
    assert outcome.iterations == 1 and len(outcome.fixed) == 150
    lines = (tmp_path / "MEMORY.md").read_text().splitlines()
    assert len(lines) == 151 and lines[1] == "- [m000](m000.md) — fact 0"
    assert not [d for d in lint_dir(tmp_path) if d.code == "IX002"]


def test_ix002_declines_past_the_loader_cut_and_points_at_ix008(tmp_path):
    write_files(tmp_path, {"MEMORY.md": "# Index\n"})
    write_files(tmp_path, {f"m{i:03}.md": memory(f"m{i:03}") for i in range(250)})
    outcome = fix(tmp_path)
    assert not outcome.errors and not outcome.changes
    assert (tmp_path / "MEMORY.md").read_text() == "# Index\n"
    held = [d for d in outcome.remaining if d.code == "IX002"]
    assert len(held) == 250 and all(d.fix is None for d in held)
    assert "IX008" in held[0].notes[0]


def test_ix002_inserts_before_the_cut_under_the_type_heading(tmp_path):
    index = (
        "# Memory Index\n\n## User\n- [u1](u1.md) — u1\n\n"
        "## Project\n- [p1](p1.md) — p1\n\n"
        "Notes written after the entries.\n"
    )
    files = {
        "MEMORY.md": index,
        "u1.md": memory("u1", "u1"),
        "p1.md": memory("p1", "p1", "project"),
        "u2.md": memory("u2", "u2"),
        "p2.md": memory("p2", "p2", "project"),
    }
    write_files(tmp_path, files)
    fix(tmp_path)
    assert (tmp_path / "MEMORY.md").read_text() == (
        "# Memory Index\n\n## User\n- [u1](u1.md) — u1\n- [u2](u2.md) — u2\n\n"
        "## Project\n- [p1](p1.md) — p1\n- [p2](p2.md) — p2\n\n"
        "Notes written after the entries.\n"
    )


def test_ix002_and_ix001_keep_the_line_within_150_characters(tmp_path):
    long = "word " * 60
    one = tmp_path / "one"
    write_files(one, {"MEMORY.md": "# Index\n", "a.md": memory("a", long.strip())})
    outcome = fix(one, select=["ALL"])
    assert not [d for d in outcome.remaining if d.code in ("IX007", "IX012")]
    (line,) = (one / "MEMORY.md").read_text().splitlines()[1:]
    assert len(line) <= 150 and line.endswith("…") and line.startswith("- [a](a.md) — word")
    other = tmp_path / "other"
    write_files(other, {"a.md": memory("a", long.strip()), "b.md": memory("b")})
    fix(other)
    assert all(len(line) <= 150 for line in (other / "MEMORY.md").read_text().splitlines())


def test_ix012_is_unsafe_and_keeps_hand_written_summaries(tmp_path):
    index = "# Index\n- [a](a.md) — my own short hook\n"
    write_files(tmp_path, {"MEMORY.md": index, "a.md": memory("a", "the full description")})
    outcome = fix(tmp_path, select=["ALL"])
    assert (tmp_path / "MEMORY.md").read_text() == index
    (stale,) = [d for d in outcome.remaining if d.code == "IX012"]
    assert stale.fix.applicability.value == "unsafe"


def test_readme_config_example_does_not_select_all():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert 'select = ["ALL"]' not in readme


def test_id001_rewrites_the_wikilinks_that_resolved_to_the_old_name(tmp_path):
    files = {
        "MEMORY.md": "# I\n- [coffee](coffee-preference.md) — c\n- [tea](tea.md) — t\n"
        "- [standup](standup.md) — s\n",
        "coffee-preference.md": memory("Coffee preference", "prefers espresso"),
        "tea.md": memory("tea", "green tea", body="See [[Coffee preference#why|coffee]]."),
        "standup.md": memory("standup", "superseded by [[Coffee preference]]"),
    }
    write_files(tmp_path, files)
    before = {(d.code, d.path) for d in lint_dir(tmp_path)}
    outcome = fix(tmp_path)
    assert not outcome.errors
    assert "name: coffee-preference\n" in (tmp_path / "coffee-preference.md").read_text()
    assert "[[coffee-preference#why|coffee]]" in (tmp_path / "tea.md").read_text()
    assert "superseded by [[coffee-preference]]" in (tmp_path / "standup.md").read_text()
    after = {(d.code, d.path) for d in lint_dir(tmp_path)}
    assert after <= before and not [d for d in after if d[0] == "LK001"]
    (fixed,) = [d for d in outcome.fixed if d.code == "ID001"]
    assert "rewrite 2 wikilinks" in fixed.fix.title


REDACTION_CASES = {
    "whole value": ("token: {secret}\n", "token", "[REDACTED]"),
    "inside a plain value": (
        "description: {secret} is the token\n",
        "description",
        "[REDACTED] is the token",
    ),
    "nested value": ("metadata:\n  type: user\n  key: {secret}\n", "metadata", None),
}
SECRET = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB"


@pytest.mark.parametrize("case", REDACTION_CASES.values(), ids=REDACTION_CASES.keys())
def test_redaction_keeps_the_frontmatter_keys_and_types(tmp_path, case):
    from memlint.sources.frontmatter import parse_frontmatter

    line, key, expected = case
    head = "---\nname: a\n" + ("description: d\n" if key != "description" else "")
    text = head + line.format(secret=SECRET) + "---\nbody\n"
    write_files(tmp_path, {"MEMORY.md": "# I\n- [a](a.md) — d\n", "a.md": text})
    before = parse_frontmatter(text)
    fix(tmp_path, select=["PV001"], unsafe=True)
    written = (tmp_path / "a.md").read_text()
    assert SECRET not in written
    after = parse_frontmatter(written)
    assert not after.problems and list(after.fields) == list(before.fields)
    if expected is not None:
        assert after.value(key) == expected
    else:
        assert after.value(key) == {"type": "user", "key": "[REDACTED]"}


def test_redaction_of_a_secret_used_as_a_key_is_refused(tmp_path):
    text = f"---\nname: a\ndescription: d\n{SECRET}: value\n---\nbody\n"
    write_files(tmp_path, {"MEMORY.md": "# I\n- [a](a.md) — d\n", "a.md": text})
    outcome = fix(tmp_path, select=["PV001"], unsafe=True)
    assert (tmp_path / "a.md").read_text() == text
    (found,) = outcome.remaining
    assert found.fix is None and "by hand" in found.notes[0]


def test_the_engine_refuses_any_fix_that_changes_frontmatter_types(tmp_path):
    """Invariant 2, whatever the rule: a fix turning a string into a list is not applied."""
    import types

    from memlint.diagnostics import Fix, FixAvailability, Severity
    from memlint.engine import Rule
    from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

    def check(ctx, source):
        at = (source.text or "").find("tok")
        if source.rel == "a.md" and at >= 0:
            yield ctx.report(
                source, at, at + 3, "x", Fix.safe("list", source.edit(at, at + 3, "[x]"))
            )

    meta = RuleMeta(
        "TS009", "t", "t", Severity.WARNING, Scope.FILE, ALL_PROFILES, fix=FixAvailability.ALWAYS
    )
    text = "---\nname: a\ndescription: tok\n---\nbody\n"
    write_files(tmp_path, {"MEMORY.md": "# I\n", "a.md": text})
    rule = Rule(types.SimpleNamespace(META=meta, check=check))
    outcome = fix_paths([str(tmp_path)], Settings(), [rule], cwd=str(tmp_path))
    assert (tmp_path / "a.md").read_text() == text
    assert any("keys or value types" in w for w in outcome.warnings)


def test_id001_converges_when_the_filename_ends_in_a_space_like_character(tmp_path):
    """A stem ending in NBSP: the fix writes it, and the next round must accept it."""
    stem = "note\u00a0"
    index = "# I\n- [n](note%C2%A0.md) — n\n- [a](a.md) — a\n- [b](b.md) — b\n"
    files = {
        "MEMORY.md": index,
        f"{stem}.md": memory("x"),
        "a.md": memory("a"),
        "b.md": memory("b"),
    }
    write_files(tmp_path, files)
    outcome = fix(tmp_path)
    assert not outcome.errors
    assert [d.code for d in outcome.fixed] == ["ID001"]
    assert not fix(tmp_path).changes


def test_an_unlistable_folder_is_reported_and_its_entries_are_not_removed(tmp_path, monkeypatch):
    """A folder without permissions (mode 000): root can list any folder, so the
    failing listing and lstat are simulated."""
    import os

    index = "# I\n- [a](a.md) — a\n- [deep](sub/deep.md) — deep\n"
    files = {"MEMORY.md": index, "a.md": memory("a"), "sub/deep.md": memory("deep")}
    write_files(tmp_path, files)
    real_scandir = os.scandir
    blocked = str(tmp_path / "sub")

    def scandir(path="."):
        if os.fspath(path) == blocked:
            raise PermissionError(13, "Permission denied", blocked)
        return real_scandir(path)

    real_lstat = os.lstat

    def lstat(path, *args, **kwargs):
        if os.fspath(path).startswith(blocked + os.sep):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_lstat(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "lstat", lstat)
    outcome = fix(tmp_path, unsafe=True)
    assert (tmp_path / "MEMORY.md").read_text() == index
    assert not [d for d in outcome.remaining if d.code == "IX003"]
    (unlisted,) = [d for d in outcome.remaining if d.code == "FS007"]
    assert unlisted.display_path.rstrip("/").endswith("sub")


def typed(name: str, description: str, kind: str = "user") -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{description}.\n\n"
        "**Why:** asked.\n**How to apply:** always.\n"
    )


TYPED_REST = {
    "user_tea.md": typed("Tea", "green tea after lunch"),
    "user_role.md": typed("Role", "backend lead"),
}


def test_a_hand_renamed_memory_keeps_its_entry_in_place(tmp_path):
    index = (
        "# Memory\n\n- [Tea](user_tea.md) — green tea after lunch\n"
        "- [Coffee](user_coffee.md) — my curated hook\n- [Role](user_role.md) — backend lead\n"
    )
    files = {
        "MEMORY.md": index,
        "user_coffee_order.md": typed("Coffee", "prefers espresso, no sugar"),
        **TYPED_REST,
    }
    write_files(tmp_path, files)
    fix(tmp_path)
    assert (tmp_path / "MEMORY.md").read_text() == index  # no entry appended at the end
    fix(tmp_path, unsafe=True)
    assert (tmp_path / "MEMORY.md").read_text() == index.replace(
        "(user_coffee.md)", "(user_coffee_order.md)"
    )


def test_ix003_never_retargets_onto_an_entry_ix005_would_then_delete(tmp_path):
    index = (
        "# Memory\n\n- [Alpha](user_alpha.md) — what the deleted memory said\n"
        "- [A](user_a.md) — the current summary\n- [Tea](user_tea.md) — green tea after lunch\n"
        "- [Role](user_role.md) — backend lead\n"
    )
    files = {
        "MEMORY.md": index,
        "user_a.md": typed("user_alpha", "the current summary"),
        **TYPED_REST,
    }
    write_files(tmp_path, files)
    fix(tmp_path, unsafe=True)
    text = (tmp_path / "MEMORY.md").read_text()
    assert "what the deleted memory said" not in text
    assert "- [A](user_a.md) — the current summary\n" in text


def test_a_note_store_above_a_store_does_not_commit_its_fixes_twice(tmp_path):
    note = '{"fact": "x is y.", "time": "2024-01-01T00:00:00Z", "project": "p"}\n'
    files = {
        "notes.jsonl": note,
        "s/MEMORY.md": "# I\n- [a](a.md) — a\n",
        "s/a.md": {"bytes": "\xef\xbb\xbf" + memory("a").rstrip("\n")},
    }
    write_files(tmp_path, files)
    outcome = fix(tmp_path)
    assert outcome.errors == []
    assert (tmp_path / "s" / "a.md").read_bytes() == memory("a").encode()
    assert not fix(tmp_path).changes


def test_a_nested_store_keeps_its_own_memories_whichever_path_is_named(tmp_path):
    files = {
        "s/MEMORY.md": "# I\n- [a](a.md) — a\n",
        "s/a.md": memory("a"),
        "s/sub/MEMORY.md": "# Sub\n- [b](b.md) — b\n",
        "s/sub/b.md": memory("b"),
        "s/sub/c.md": memory("c"),
    }
    write_files(tmp_path, files)
    fix(tmp_path / "s")
    assert (tmp_path / "s" / "MEMORY.md").read_text() == "# I\n- [a](a.md) — a\n"
    assert "(c.md)" in (tmp_path / "s" / "sub" / "MEMORY.md").read_text()


TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_a_memory_named_by_a_token_converges_under_unsafe_fixes(tmp_path):
    """A memory named by a token, indexed and linked: PV001 redacted the token in its
    ``name`` and in the entry's link, ID001 (name = stem) and IX003 (entry -> the file)
    wrote it back, and the run stopped with "fixes undo each other" (exit 2), redacting
    nothing. PV001 offers no fix where the token names a file now (rename it first):
    the run converges, redacts the token where nothing refers to the file by it, never
    writes it anywhere new, and a second run changes nothing."""
    files = {
        "MEMORY.md": f"- [{TOKEN}]({TOKEN}.md) — a token file\n- [b](b.md) — b\n",
        f"{TOKEN}.md": memory(TOKEN, "a token file"),
        "b.md": memory("b", "b", body=f"See [[{TOKEN}]]. The key was {TOKEN} once."),
    }
    write_files(tmp_path, files)
    outcome = fix(tmp_path, unsafe=True)
    assert not outcome.errors and not outcome.convergence
    after = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert after.keys() == files.keys()
    assert after["b.md"] == memory("b", "b", body=f"See [[{TOKEN}]]. The key was [REDACTED] once.")
    assert after[f"{TOKEN}.md"] == files[f"{TOKEN}.md"]
    assert after["MEMORY.md"].count(TOKEN) == 1  # the link's target; its label is redacted
    names = [d for d in outcome.remaining if d.code == "PV001"]
    assert len(names) == 3 and all("rename the file first" in d.notes[0] for d in names)
    again = fix(tmp_path, unsafe=True)
    assert not again.changes and not again.errors


def test_a_token_in_a_name_and_the_body_needs_one_unsafe_run(tmp_path):
    """A memory's ``name`` is a token that its own wikilink uses, and its body holds the
    token again: redacting the name would break the link (withheld), and the body's
    redaction had the same title in the same file, so it was withheld with it, and a
    second run redacted the body. The fixes of a frontmatter field are told apart."""
    key = "AKIAQ7RSTUVWXY234567"
    body = f"token {key} [[{key}]]"
    write_files(tmp_path, {"MEMORY.md": "", "a.md": memory(key, "a fact", body=body)})
    outcome = fix(tmp_path, unsafe=True)
    assert not outcome.errors
    assert (tmp_path / "a.md").read_text() == memory("a", "a fact", body="token [REDACTED] [[a]]")
    again = fix(tmp_path, unsafe=True)
    assert not again.changes and not again.errors


def test_a_fix_blamed_before_the_real_culprit_was_found_is_applied(tmp_path):
    """Fixes that add a finding are found one per pass by bisection: a pass can blame a
    fix that only mattered together with a culprit found in a later pass. That fix was
    withheld although the run was fine with it, and a second --fix applied it. Each
    blamed fix is tried again once the culprits are known."""
    key, token = "AKIAQ7RSTUVWXY234567", TOKEN
    files = {
        "d.md": f"---\nname: {key}\ndescription: superseded by [[d]]\n---\ntoken {key} [[{key}]]\n",
        "MEMORY.md": f"- [nAKI]({key}.md) — superseded by [[b]]\n",
        f"{key}.md": f"---\nname: nAKI\ndescription: superseded by [[b]]\n---\n"
        f"token {key} [[{token}]]\n",
        f"{token}/b.md": f"---\nname: b\n---\ntoken {token} [[d]] [[{key}]]\n",
    }
    write_files(tmp_path, files)
    outcome = fix(tmp_path, unsafe=True)
    assert not outcome.errors and outcome.changes
    again = fix(tmp_path, unsafe=True)
    assert not again.changes and not again.errors
