"""Requests the server declines and messages whose parameters do not fit get a clean
LSP answer (or are dropped, for notifications), the server goes on, and its log
holds one line for each, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp_client import LspClient, LspError

pytest.importorskip("pygls", reason="the [lsp] extra is not installed")

REQUEST_FAILED = -32803
INVALID_PARAMS = -32602


def error_of(client: LspClient, method: str, params: dict) -> dict:
    with pytest.raises(LspError) as raised:
        client.request(method, params)
    return raised.value.args[0]


def test_declined_and_malformed_requests_get_clean_errors_and_no_traceback(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    (store / "MEMORY.md").write_text("- [Alpha](alpha.md) — first\n", encoding="utf-8")
    alpha = store / "alpha.md"
    alpha.write_text(
        "---\nname: alpha\ndescription: first\nmetadata:\n  type: reference\n---\n\n"
        "Plain text, no link.\n",
        encoding="utf-8",
    )
    client = LspClient(tmp_path, tmpdir=tmp_path)
    try:
        client.open(alpha)
        client.diagnostics(alpha)
        nowhere = {"textDocument": {"uri": alpha.as_uri()}, "position": {"line": 7, "character": 2}}
        declined = error_of(client, "textDocument/rename", {**nowhere, "newName": "beta"})
        assert declined["code"] == REQUEST_FAILED
        assert "rename works on" in declined["message"]
        declined = error_of(client, "textDocument/prepareRename", nowhere)
        assert declined["code"] == REQUEST_FAILED
        outside = {
            "textDocument": {"uri": Path(tmp_path / "elsewhere.md").as_uri()},
            "position": {"line": 0, "character": 0},
            "newName": "beta",
        }
        assert error_of(client, "textDocument/rename", outside)["code"] == REQUEST_FAILED
        malformed = {"textDocument": {"uri": 5}, "position": {"line": 0}}
        invalid = error_of(client, "textDocument/hover", malformed)
        assert invalid["code"] == INVALID_PARAMS
        client.notify("textDocument/didChange", {"textDocument": {"uri": 7}})
        hover = {"textDocument": {"uri": alpha.as_uri()}, "position": {"line": 0, "character": 0}}
        assert client.request("textDocument/hover", hover) is None  # still answering
        assert client.stop() == 0
    finally:
        if client.process.poll() is None:
            client.process.kill()
            client.process.wait()
    assert "Traceback" not in client.log
    assert "textDocument/hover" in client.log  # one line for what was dropped
    assert len(client.log.splitlines()) <= 3
