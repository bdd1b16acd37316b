"""JSON paths and doc links; the step summary's size cap."""

from __future__ import annotations

import json

from memlint import REPOSITORY_URL, __version__
from memlint.cli import main
from memlint.output.github import SUMMARY_LIMIT, render_github
from tests.helpers import write_files
from tests.output_helpers import context, diag

# ID001 (a safe fix editing a.md) and IX002 (a safe fix editing MEMORY.md).
STORE = {
    "mem/MEMORY.md": "# Memory\n\n- [A](a.md) — a memory\n- [C](c.md) — c\n- [D](d.md) — d\n",
    "mem/a.md": "---\nname: not a\ndescription: a memory\nmetadata:\n  type: user\n---\nBody.\n",
    **{
        f"mem/{x}.md": f"---\nname: {x}\ndescription: {x}\nmetadata:\n  type: user\n---\nBody.\n"
        for x in "bcd"
    },
}


def _json(capsys, *argv) -> list[dict]:
    assert main(["check", "--no-cache", *argv, "--output-format", "json", "--exit-zero"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_paths_are_all_relative_to_the_working_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("MEMLINT_DOCS_REF", raising=False)
    write_files(tmp_path, STORE)
    (tmp_path / "sub").mkdir()
    for cwd, target, prefix in ((tmp_path, "mem", "mem/"), (tmp_path / "sub", "../mem", "../mem/")):
        monkeypatch.chdir(cwd)
        found = {d["code"]: d for d in _json(capsys, target)}
        assert found["ID001"]["filename"] == f"{prefix}a.md"
        assert [e["filename"] for e in found["ID001"]["fix"]["edits"]] == [f"{prefix}a.md"]
        assert found["IX002"]["filename"] == f"{prefix}b.md"
        assert [e["filename"] for e in found["IX002"]["fix"]["edits"]] == [f"{prefix}MEMORY.md"]
    docs = f"{REPOSITORY_URL}/blob/v{__version__}/docs/rules.md"
    assert found["ID001"]["url"] == f"{docs}#id001-name-filename-mismatch"
    assert found["IX002"]["url"] == f"{docs}#ix002-unindexed-memory"


def test_step_summary_stays_below_one_mebibyte(tmp_path):
    summary = tmp_path / "summary.md"
    found = [diag(tmp_path, f"mem/f{i:05}.md", message="é" * 300) for i in range(3000)]
    render_github(found, context(tmp_path), environ={"GITHUB_STEP_SUMMARY": str(summary)})
    data = summary.read_bytes()
    assert len(data) <= SUMMARY_LIMIT < 1024 * 1024
    rows = [line for line in data.decode().splitlines() if line.startswith("| warning |")]
    assert 0 < len(rows) < 3000
    assert f"… and {3000 - len(rows)} more" in data.decode()
    small = tmp_path / "small.md"
    render_github(found[:10], context(tmp_path), environ={"GITHUB_STEP_SUMMARY": str(small)})
    assert "more" not in small.read_text(encoding="utf-8")
