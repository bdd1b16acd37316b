"""``memlint mv``: one transactional rename with every reference updated."""

from __future__ import annotations

import os
import unicodedata

import pytest

from memlint.cli import main
from tests.helpers import write_files


def _memory(name, description="d", body=""):
    return f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: user\n---\n{body}"


STORE = {
    "MEMORY.md": (
        "- [Alpha](alpha.md) — a\n- [Beta](beta.md#top) — b\n- [Gamma](sub/gamma.md) — c\n"
    ),
    "alpha.md": _memory(
        "alpha",
        "superseded by [[beta]]",
        "See [[beta#Why|the beta]], `[[beta]]` and [[betamax]].\n\n```\n[[beta]]\n```\n",
    ),
    "beta.md": _memory("beta", body="Back to [[alpha]].\n"),
    "sub/gamma.md": _memory("gamma", body="[[beta]] [[alpha|A]]\n"),
}


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _snapshot(root):
    return {
        os.path.relpath(os.path.join(d, f), root): open(os.path.join(d, f), "rb").read()
        for d, _, files in os.walk(root)
        for f in files
    }


def test_mv_updates_name_index_links_and_supersession(store, capsys):
    assert main(["mv", "beta", "delta"]) == 0
    assert "updated 4 references in 3 other files" in capsys.readouterr().out
    assert not (store / "beta.md").exists()
    assert (store / "delta.md").read_text() == _memory("delta", body="Back to [[alpha]].\n")
    alpha = (store / "alpha.md").read_text()
    assert "description: superseded by [[delta]]" in alpha
    assert "See [[delta#Why|the beta]], `[[beta]]` and [[betamax]].\n\n```\n[[beta]]\n```" in alpha
    assert "- [Beta](delta.md#top) — b" in (store / "MEMORY.md").read_text()
    assert (store / "sub/gamma.md").read_text().endswith("[[delta]] [[alpha|A]]\n")


def test_mv_by_path_into_a_subdirectory_with_crlf(store):
    (store / "beta.md").write_bytes(_memory("beta", body="x\n").replace("\n", "\r\n").encode())
    assert main(["mv", "beta.md", "sub/my beta.md"]) == 0
    assert (store / "sub/my beta.md").read_bytes() == _memory("my beta", body="x\n").replace(
        "\n", "\r\n"
    ).encode()
    assert "- [Beta](sub/my%20beta.md#top) — b" in (store / "MEMORY.md").read_text()


def test_swap_and_chain_renames(store):
    before = _snapshot(store)
    assert main(["mv", "alpha", "tmp"]) == 0
    assert main(["mv", "beta", "alpha"]) == 0
    assert main(["mv", "tmp", "beta"]) == 0
    after = _snapshot(store)
    assert after["alpha.md"] == _memory("alpha", body="Back to [[beta]].\n").encode()
    assert (
        after["beta.md"]
        == _memory(
            "beta",
            "superseded by [[alpha]]",
            "See [[alpha#Why|the beta]], `[[beta]]` and [[betamax]].\n\n```\n[[beta]]\n```\n",
        ).encode()
    )
    assert after["MEMORY.md"] == before["MEMORY.md"].replace(b"(alpha", b"(x").replace(
        b"(beta", b"(alpha"
    ).replace(b"(x", b"(beta")
    assert main(["mv", "gamma", "g2"]) == 0
    assert main(["mv", "g2", "g3"]) == 0
    assert sorted(os.listdir(store / "sub")) == ["g3.md"]
    assert "(sub/g3.md)" in (store / "MEMORY.md").read_text()


@pytest.mark.parametrize(
    "new",
    [
        "alpha",  # an existing file
        "Alpha",  # case-only collision
        "gamma",  # the stem of a file in another directory
        "../outside",  # outside the store
        "notes.jsonl",  # a note store
        "we[i]rd",  # would break wikilinks
        "MEMORY",  # the index
    ],
)
def test_collisions_and_unsafe_targets_are_refused(store, capsys, new):
    before = _snapshot(store)
    assert main(["mv", "beta", new]) == 2
    assert "error" in capsys.readouterr().err
    assert _snapshot(store) == before


def test_normalization_only_collision_is_refused(store, capsys):
    write_files(store, {unicodedata.normalize("NFD", "café.md"): _memory("café")})
    before = _snapshot(store)
    assert main(["mv", "beta", unicodedata.normalize("NFC", "café")]) == 2
    assert _snapshot(store) == before


def test_dry_run_prints_the_plan_and_writes_nothing(store, capsys):
    before = _snapshot(store)
    assert main(["mv", "beta", "delta", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Would rename beta.md -> delta.md\n")
    assert "+- [Beta](delta.md#top) — b" in out and "+name: delta" in out
    assert _snapshot(store) == before


def test_unknown_and_ambiguous_names(store, capsys):
    assert main(["mv", "nobody", "x"]) == 2
    assert "no memory named" in capsys.readouterr().err
