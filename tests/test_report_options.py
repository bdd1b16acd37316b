"""Report options: one report builder for check and --fix, --statistics formats,
repeated selections, FORCE_COLOR, -q/-s."""

from __future__ import annotations

import json

import pytest

from memlint.cli import OUTPUT_FORMATS, main
from tests.helpers import write_files

# Findings with no fix at all (SU001, LK001, FS002): `--fix` has nothing to change.
UNFIXABLE = {
    "mem/MEMORY.md": "- [A](a.md) — a memory\n- [B](b.md) — b\n",
    "mem/a.md": (
        "---\nname: a\ndescription: superseded by [[gone]]\nmetadata:\n  type: user\n---\n"
        "See [[nowhere]].\n"
    ),
    "mem/b.md": {"bytes": "---\nname: b\n---\ncaf\xe9\n"},
}


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, UNFIXABLE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    for name in ("NO_COLOR", "FORCE_COLOR", "MEMLINT_OUTPUT_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--no-cache", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("output_format", OUTPUT_FORMATS)
def test_check_and_fix_render_an_unfixable_store_alike(store, capsys, output_format):
    before = {p: p.read_bytes() for p in (store / "mem").iterdir()}
    checked = run(capsys, "mem", "--output-format", output_format)
    fixed = run(capsys, "mem", "--fix", "--output-format", output_format)
    assert {p: p.read_bytes() for p in (store / "mem").iterdir()} == before
    assert checked[0] == fixed[0] == 1
    assert all(code in checked[1] for code in ("SU001", "LK001", "FS002"))
    assert fixed[1] == checked[1]


@pytest.mark.parametrize("output_format", OUTPUT_FORMATS)
def test_a_memoized_check_renders_as_fix_does(store, capsys, output_format):
    """A warm check lints no store (the cache holds the result), so it has selected no
    rule; its report still lists the rules that `--fix` lists, in every format."""
    cache = ["--cache-dir", str(store / "cache")]
    outputs = []
    for extra in ([], [], ["--fix"]):  # cold, warm (memoized), fix
        code = main(["check", "mem", "--output-format", output_format, *cache, *extra])
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0][0] == 1


@pytest.mark.parametrize("output_format", ["json", "json-lines"])
def test_statistics_honour_json(store, capsys, output_format):
    code, out, _ = run(capsys, "mem", "--statistics", "--output-format", output_format)
    rows = (
        json.loads(out)
        if output_format == "json"
        else [json.loads(x) for x in out.split("\n")[:-1]]
    )
    assert code == 1
    assert {row["code"]: row["count"] for row in rows} == {"FS002": 1, "LK001": 1, "SU001": 1}
    assert {row["name"] for row in rows} >= {"invalid-utf8"}
    assert all(row["fixable"] is False for row in rows)


@pytest.mark.parametrize("fix", [[], ["--fix"]])
def test_statistics_refuse_formats_that_are_no_table(store, capsys, fix):
    code, out, err = run(capsys, "mem", *fix, "--statistics", "--output-format", "sarif")
    assert (code, out) == (2, "")
    assert "memlint: error: --statistics writes the formats" in err


def test_repeated_selections_add_up(store, capsys):
    _, out, _ = run(capsys, "mem", "--select", "FS", "--select", "SU", "--statistics")
    assert "FS002" in out and "SU001" in out
    _, out, _ = run(capsys, "mem", "--ignore", "FS", "--ignore", "SU", "--statistics")
    assert "FS002" not in out and "SU001" not in out and "LK001" in out


def test_force_color(store, capsys, monkeypatch):
    assert "\x1b[" not in run(capsys, "mem")[1]
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[31;1mFS002" in run(capsys, "mem")[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run(capsys, "mem")[1]
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in run(capsys, "mem", "--color", "never")[1]


def test_quiet_prints_diagnostics_only(store, capsys):
    code, out, _ = run(capsys, "mem", "-q", "--output-format", "concise")
    assert code == 1 and "FS002" in out and "Found" not in out


@pytest.mark.parametrize("fix", [[], ["--fix"]])
def test_silent_prints_nothing_but_keeps_the_status(store, capsys, fix):
    assert run(capsys, "mem", *fix, "-s") == (1, "", "")
    assert run(capsys, "nowhere-empty", "--silent")[0] == 2  # errors still say why
    assert "memlint: error:" in run(capsys, "nowhere-empty", "-s")[2]
    assert run(capsys, "mem", *fix, "-s", "--output-format", "json", "-o", "r.json")[:2] == (1, "")
    assert {d["code"] for d in json.loads((store / "r.json").read_text())} >= {"FS002"}
