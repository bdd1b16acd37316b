"""A client that does not report file changes (no ``workspace/didChangeWatchedFiles``):
the server notices changes on disk itself, before a lint, from the store's folder
listings and its files' ``lstat`` signatures, without reloading the store for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp_client import LspClient

pytest.importorskip("pygls", reason="the [lsp] extra is not installed")


def memory(name: str, body: str) -> str:
    return (
        f"---\nname: {name}\ndescription: {name} memory\nmetadata:\n  type: reference\n---\n\n"
        f"{body}\n"
    )


@pytest.fixture
def store(tmp_path) -> Path:
    root = tmp_path / "store"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "- [Alpha](alpha.md) — alpha memory\n- [Beta](beta.md) — beta memory\n",
        encoding="utf-8",
    )
    (root / "alpha.md").write_text(memory("alpha", "Alpha links to [[beta]]."), encoding="utf-8")
    (root / "beta.md").write_text(memory("beta", "Beta text."), encoding="utf-8")
    return root


@pytest.fixture
def client(tmp_path):
    started = LspClient(tmp_path, tmpdir=tmp_path, watch=False)
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


def codes(diagnostics: list[dict]) -> list[str]:
    return sorted(d["code"] for d in diagnostics)


def test_a_file_deleted_on_disk_is_noticed_at_the_next_keystroke(client, store):
    alpha = store / "alpha.md"
    client.open(alpha)
    assert client.diagnostics(alpha) == []
    (store / "beta.md").unlink()
    client.change(alpha, memory("alpha", "Alpha links to [[beta]]. Typed."))
    assert "LK001" in codes(client.diagnostics(alpha))  # [[beta]] dangles now


def test_a_memory_rewritten_in_place_on_disk_is_read_again_on_save(client, store):
    alpha = store / "alpha.md"
    client.open(alpha)
    assert client.diagnostics(alpha) == []
    beta = store / "beta.md"
    with beta.open("r+", encoding="utf-8") as handle:  # same inode, same folder listing
        handle.write(memory("gamma", "Beta text."))
        handle.truncate()
    client.save(alpha)
    assert "LK001" in codes(client.diagnostics(alpha))
    with beta.open("r+", encoding="utf-8") as handle:
        handle.write(memory("beta", "Beta text."))
        handle.truncate()
    client.save(alpha)
    assert client.diagnostics(alpha) == []


def test_a_config_file_written_on_disk_reloads_settings(client, store):
    alpha = store / "alpha.md"
    client.open(alpha)
    client.diagnostics(alpha)
    (store / "beta.md").unlink()
    client.save(alpha)
    assert "LK001" in codes(client.diagnostics(alpha))
    (store / ".memlint.toml").write_text('ignore = ["LK001"]\n', encoding="utf-8")
    client.save(alpha)
    assert "LK001" not in codes(client.diagnostics(alpha))
    (store / ".memlint.toml").write_text('ignore = ["IX003"]\n', encoding="utf-8")
    client.save(alpha)
    assert "LK001" in codes(client.diagnostics(alpha))
