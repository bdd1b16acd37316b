"""The fix engine: planning, overlap, convergence, refusals, and the CLI flags."""

from __future__ import annotations

import os
import types

import pytest

from memlint.cli import main
from memlint.config import Settings
from memlint.diagnostics import Edit, Fix, FixAvailability, Range, Severity
from memlint.engine import Rule
from memlint.fixer import MAX_ITERATIONS, fix_paths
from memlint.records import replace
from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope
from tests.helpers import write_files

INDEX = "- [a](a.md) - a\n"


def _rule(code, check, scope=Scope.FILE):
    meta = RuleMeta(code, code.lower(), "test rule", Severity.WARNING, scope, ALL_PROFILES)
    meta = RuleMeta(**{**meta.__dict__, "fix": FixAvailability.ALWAYS})
    return Rule(types.SimpleNamespace(META=meta, check=check))


def _edit(source, start, end, content, create=False):
    return Edit(source.path, start, end, content, Range.file_start(), create)


def _fix(tmp_path, files, rules, **kwargs):
    write_files(tmp_path, {"MEMORY.md": INDEX, **files})
    return fix_paths([str(tmp_path)], Settings(), rules, cwd=str(tmp_path), **kwargs)


def _on(name):
    """Decorate a check so that it only looks at file ``name``."""

    def wrap(check):
        def only(ctx, source):
            if source.rel == name:
                yield from check(ctx, source)

        return only

    return wrap


def test_overlapping_fixes_wait_for_the_next_round(tmp_path):
    @_on("a.md")
    def check(ctx, source):
        if source.raw.startswith(b"xx"):
            yield ctx.report(source, 0, 2, "xx", Fix.safe("x to y", _edit(source, 0, 2, "y")))
            yield ctx.report(source, 1, 2, "x", Fix.safe("x to z", _edit(source, 1, 2, "z")))

    outcome = _fix(tmp_path, {"a.md": "xxx\n"}, [_rule("TS001", check)])
    assert (tmp_path / "a.md").read_bytes() == b"yx\n"
    assert len(outcome.fixed) == 1 and outcome.iterations == 1 and not outcome.errors


def test_fixes_in_many_files_and_rounds_converge(tmp_path):
    def check(ctx, source):
        if source.path.endswith(".md") and b"TODO" in source.raw:
            at = source.raw.index(b"TODO")
            yield ctx.report(
                source, 0, 0, "todo", Fix.safe("done", _edit(source, at, at + 4, "done"))
            )

    files = {"a.md": "TODO TODO\n", "b.md": "TODO\r\n"}
    outcome = _fix(tmp_path, files, [_rule("TS002", check)])
    assert (tmp_path / "a.md").read_bytes() == b"done done\n"
    assert (tmp_path / "b.md").read_bytes() == b"done\r\n"
    assert len(outcome.fixed) == 3 and outcome.remaining == []


def test_never_settling_fix_is_reported_not_looped(tmp_path):
    @_on("a.md")
    def check(ctx, source):
        end = len(source.raw)
        yield ctx.report(source, 0, 0, "grow", Fix.safe("grow", _edit(source, end, end, "+")))

    outcome = _fix(tmp_path, {"a.md": "x"}, [_rule("TS003", check)])
    assert outcome.errors == [
        f"failed to converge after {MAX_ITERATIONS} fix iterations (TS003); "
        "those fixes were not applied"
    ]
    assert (tmp_path / "a.md").read_bytes() == b"x"
    assert not outcome.changes and not outcome.fixed


def test_fixes_undoing_each_other_are_reported(tmp_path):
    @_on("a.md")
    def check(ctx, source):
        other = "b" if source.raw[:1] == b"a" else "a"
        yield ctx.report(source, 0, 1, "flip", Fix.safe("flip", _edit(source, 0, 1, other)))

    outcome = _fix(tmp_path, {"a.md": "a\n"}, [_rule("TS004", check)])
    assert outcome.errors == [
        "failed to converge: fixes undo each other (TS004); those fixes were not applied"
    ]
    assert (tmp_path / "a.md").read_bytes() == b"a\n"


def test_a_stalled_rule_does_not_hold_back_the_others(tmp_path):
    @_on("a.md")
    def grow(ctx, source):
        end = len(source.raw)
        yield ctx.report(source, 0, 0, "grow", Fix.safe("grow", _edit(source, end, end, "+")))

    @_on("b.md")
    def upper(ctx, source):
        if source.raw == b"b\n":
            yield ctx.report(source, 0, 1, "upper", Fix.safe("upper", _edit(source, 0, 1, "B")))

    rules = [_rule("TS003", grow), _rule("TS006", upper)]
    outcome = _fix(tmp_path, {"a.md": "x", "b.md": "b\n"}, rules)
    assert (tmp_path / "a.md").read_bytes() == b"x"
    assert (tmp_path / "b.md").read_bytes() == b"B\n"
    assert [d.code for d in outcome.fixed] == ["TS006"]
    assert "(TS003)" in outcome.errors[0]


def test_a_fix_that_adds_a_finding_is_withheld(tmp_path):
    """Invariant 1: TS007's rename of a.md would make TS008 fire in b.md; its other
    fix (in c.md) adds nothing and is applied."""

    def rename_or_upper(ctx, source):
        if source.rel == "a.md" and source.raw == b"old\n":
            fix = Fix.safe("rename", _edit(source, 0, 3, "new"))
            yield ctx.report(source, 0, 3, "rename", fix)
        if source.rel == "c.md" and source.raw == b"c\n":
            yield ctx.report(source, 0, 1, "upper", Fix.safe("upper", _edit(source, 0, 1, "C")))

    def dangling(ctx, source):
        if source.rel == "b.md" and b"old" not in ctx.store.by_rel["a.md"].file.raw:
            yield ctx.report(source, 0, 0, "dangling")

    files = {"a.md": "old\n", "b.md": "[[old]]\n", "c.md": "c\n"}
    rules = [_rule("TS007", rename_or_upper), _rule("TS008", dangling)]
    outcome = _fix(tmp_path, files, rules)
    assert (tmp_path / "a.md").read_bytes() == b"old\n"
    assert (tmp_path / "c.md").read_bytes() == b"C\n"
    assert [d.message for d in outcome.fixed] == ["upper"]
    assert not [d for d in outcome.remaining if d.code == "TS008"]
    (held,) = [d for d in outcome.remaining if d.code == "TS007"]
    assert held.fix.applicability.value == "unsafe"
    assert any("TS008" in note for note in held.notes)
    assert any("TS007 fix withheld" in w and "TS008" in w for w in outcome.warnings)


def test_refused_fixes_leave_files_alone(tmp_path):
    write_files(tmp_path, {"notes.jsonl": '{"fact": "x"}\n'})

    @_on("a.md")
    def check(ctx, source):
        notes = os.path.join(os.path.dirname(source.path), "notes.jsonl")
        split_char = Fix.safe("split é", _edit(source, 1, 2, "x"))
        into_notes = Fix.safe("edit notes", Edit(notes, 0, 1, "[", Range.file_start()))
        past_end = Fix.safe("past end", _edit(source, 0, 999, ""))
        both = Fix.safe("half notes", _edit(source, 0, 0, "ok"), into_notes.edits[0])
        for fix in (split_char, into_notes, past_end, both):  # past what ctx.report offers
            yield replace(ctx.report(source, 0, 0, fix.title), fix=fix)

    outcome = _fix(tmp_path, {"a.md": "é\n"}, [_rule("TS005", check)])
    assert (tmp_path / "a.md").read_bytes() == "é\n".encode()
    assert (tmp_path / "notes.jsonl").read_bytes() == b'{"fact": "x"}\n'
    assert outcome.fixed == [] and outcome.changes == []
    reasons = " ".join(outcome.warnings)
    assert "not be valid UTF-8" in reasons and "never edited" in reasons
    assert "outside the file" in reasons


def test_create_edit_creates_once_and_never_overwrites(tmp_path):
    def check(ctx, store):
        for name in ("new.md", "a.md"):
            path = os.path.join(store.root, name)
            if not os.path.exists(path) and name not in [s.rel for s in store.files]:
                edit = Edit(path, 0, 0, "created\n", Range.file_start(), create=True)
                yield ctx.report_at(
                    path, name, Range.file_start(), "missing", Fix.safe("create", edit)
                )
            elif name == "a.md":
                edit = Edit(path, 0, 0, "clobber\n", Range.file_start(), create=True)
                yield ctx.report_at(
                    path, name, Range.file_start(), "again", Fix.safe("create", edit)
                )

    outcome = _fix(tmp_path, {"a.md": "keep\n"}, [_rule("TS006", check, Scope.STORE)])
    assert (tmp_path / "new.md").read_bytes() == b"created\n"
    assert (tmp_path / "a.md").read_bytes() == b"keep\n"
    assert any("already exists" in w for w in outcome.warnings)


def test_diff_mode_writes_nothing(tmp_path):
    @_on("a.md")
    def check(ctx, source):
        if source.raw != b"fixed\n":
            edit = _edit(source, 0, len(source.raw), "fixed\n")
            yield ctx.report(source, 0, 0, "fix me", Fix.safe("fix", edit))

    outcome = _fix(tmp_path, {"a.md": "broken\n"}, [_rule("TS007", check)], write=False)
    assert (tmp_path / "a.md").read_bytes() == b"broken\n"
    assert [c.new for c in outcome.changes] == [b"fixed\n"]


def test_unsafe_fixes_need_the_flag(tmp_path):
    @_on("a.md")
    def check(ctx, source):
        if source.raw != b"fixed\n":
            edit = _edit(source, 0, len(source.raw), "fixed\n")
            yield ctx.report(source, 0, 0, "fix me", Fix.unsafe("fix", edit))

    rules = [_rule("TS008", check)]
    assert _fix(tmp_path, {"a.md": "x\n"}, rules).changes == []
    assert _fix(tmp_path, {"a.md": "x\n"}, rules, unsafe=True).fixed


def test_no_fix_is_offered_on_a_jsonl_file(tmp_path, monkeypatch, capsys):
    """A fix that edits a JSONL file is never applied (note stores are append-only), so
    none is offered: FS003 on a note store was shown as `[*]` fixable by `--fix` even
    in the report of the `--fix` run that refused it."""
    write_files(
        tmp_path,
        {
            "MEMORY.md": INDEX,
            "a.md": "---\nname: a\ndescription: d\n---\nbody\n",
            "notes.jsonl": {"bytes": '\xef\xbb\xbf{"time": "2024-01-01T00:00:00Z", "fact": "x"}\n'},
        },
    )
    monkeypatch.chdir(tmp_path)
    for fix in ([], ["--fix"]):
        code = main(["check", ".", "--select", "FS003", "--output-format", "concise", *fix])
        out = capsys.readouterr().out
        assert code == 0 and "notes.jsonl:1:1: FS003 warning" in out, out
        assert "[*]" not in out and "fixable" not in out, out
    assert (tmp_path / "notes.jsonl").read_bytes().startswith(b"\xef\xbb\xbf")


# -- the command line (real rules: FS003 BOM, FS008 final newline) ---------------------------

BOM_NO_NEWLINE = {"bytes": "\xef\xbb\xbf---\nname: a\ndescription: d\n---\nbody"}


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, {"MEMORY.md": INDEX, "a.md": BOM_NO_NEWLINE})
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(capsys, *argv):
    code = main(["check", ".", "--select", "FS003,FS008", "--output-format", "concise", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_fix_summary_and_show_fixes(store, capsys):
    code, out, _ = _run(capsys, "--fix", "--show-fixes")
    assert code == 0
    assert (store / "a.md").read_bytes() == b"---\nname: a\ndescription: d\n---\nbody\n"
    assert "Fixed 2 problems:\n- a.md:\n    1 × FS003 (utf8-bom)" in out
    assert out.endswith("Found 2 problems (2 fixed, 0 remaining).\n")
    assert _run(capsys, "--fix", "--exit-non-zero-on-fix")[0] == 0


def test_cli_diff_writes_nothing_and_exits_one(store, capsys):
    before = (store / "a.md").read_bytes()
    code, out, err = _run(capsys, "--diff")
    assert code == 1 and (store / "a.md").read_bytes() == before
    assert out.startswith("--- a.md\n+++ a.md\n") and "-\\ufeff---" in out
    assert "Would fix 2 problems." in err


def test_cli_fix_only_and_exit_non_zero_on_fix(store, capsys):
    code, out, _ = _run(capsys, "--fix-only", "--exit-non-zero-on-fix")
    assert code == 1 and out == "Fixed 2 problems.\n"
    code, out, _ = _run(capsys, "--diff")
    assert code == 0 and out == ""


def test_two_culprits_are_both_withheld_and_the_innocent_fixes_applied(tmp_path):
    """Fixes of a.md and c.md each add a TS013 finding; those of b.md and d.md do not."""
    names = ("a.md", "b.md", "c.md", "d.md")

    def upper(ctx, source):
        if source.rel in names and source.raw[:1].islower():
            fix = Fix.safe(f"upper {source.rel}", _edit(source, 0, 1, source.text[0].upper()))
            yield ctx.report(source, 0, 1, "upper", fix)

    def watch(ctx, source):
        if source.rel == "z.md":
            for rel in ("a.md", "c.md"):
                if ctx.store.by_rel[rel].file.raw.startswith(b"X"):
                    yield ctx.report(source, 0, 0, f"{rel} changed")

    files = {**dict.fromkeys(names, "x\n"), "z.md": "z\n"}
    outcome = _fix(tmp_path, files, [_rule("TS012", upper), _rule("TS013", watch)])
    assert [(tmp_path / n).read_bytes() for n in names] == [b"x\n", b"X\n", b"x\n", b"X\n"]
    assert [d.fix.title for d in outcome.fixed] == ["upper b.md", "upper d.md"]
    assert not [d for d in outcome.remaining if d.code == "TS013"]
