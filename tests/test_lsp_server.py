"""``memlint server`` driven over stdio by a JSON-RPC client: one server per module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp_client import SRC, LspClient, LspError, apply_edits

pytest.importorskip("pygls", reason="the [lsp] extra is not installed")
pytest.importorskip("lsprotocol", reason="the [lsp] extra is not installed")

SECRET = "ghp_Zr8cQ2xVb7Nm4Lp9Ks3Jd6Hf1Gt5Wy0Ea2Uo"
INDEX = """# Memory

- [Alpha](alpha.md) — first memory
- [Beta](beta.md) — second memory
- [Old](old.md) — superseded by [[beta]]
"""


def memory(name: str, description: str, body: str) -> str:
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  type: reference\n---\n\n"
        f"{body}\n"
    )


ALPHA = memory("alpha", "first memory", "Alpha links to [[beta]] and to [[old]].")
BETA = memory("beta", "second memory", "Beta text.")
OLD = memory("old", "superseded by [[beta]]", "Old text.")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp")
    (root / "tmp").mkdir()
    store = root / "store"
    store.mkdir()
    (store / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    for name, text in (("alpha", ALPHA), ("beta", BETA), ("old", OLD)):
        (store / f"{name}.md").write_text(text, encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n\n[[anything]]\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def client(workspace):
    started = LspClient(workspace, tmpdir=workspace / "tmp")
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


@pytest.fixture(autouse=True)
def fresh_queue(request):
    """Each test starts with no notification queued (a closed file may be republished
    when a file it depends on changes)."""
    if "client" in request.fixturenames:
        request.getfixturevalue("client").drain()


def codes(diagnostics: list[dict]) -> list[str]:
    return sorted(d["code"] for d in diagnostics)


def test_initialize_advertises_the_features(client):
    capabilities = client.initialize_result["capabilities"]
    assert capabilities["positionEncoding"] == "utf-16"
    assert capabilities["codeActionProvider"]["codeActionKinds"] == [
        "quickfix",
        "source.fixAll.memlint",
    ]
    for provider in ("definitionProvider", "hoverProvider", "renameProvider"):
        assert capabilities[provider]
    assert capabilities["completionProvider"]["triggerCharacters"] == ["["]
    rename = capabilities["workspace"]["fileOperations"]["willRename"]
    assert rename["filters"][0]["pattern"]["glob"] == "**/*.md"
    client.drain()  # the registration request precedes the reply to a later request
    registered = [r["params"]["registrations"][0]["method"] for r in client.server_requests]
    assert "workspace/didChangeWatchedFiles" in registered


def test_open_publishes_diagnostics_with_code_link_and_tags(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    client.open(alpha)
    found = client.diagnostics(alpha)
    assert codes(found) == ["LK004"]
    (link,) = found
    assert link["source"] == "memlint"
    assert link["severity"] == 3  # information
    assert link["tags"] == [2]  # deprecated: a link to a superseded memory
    assert link["codeDescription"]["href"].endswith("docs/rules.md#lk004-link-to-superseded")
    assert link["range"] == {
        "start": {"line": 7, "character": 33},
        "end": {"line": 7, "character": 36},
    }
    client.close(alpha)
    assert client.diagnostics(alpha) == []


def test_change_lints_the_unsaved_text_and_save_and_close_follow(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    client.open(alpha)
    client.diagnostics(alpha)
    client.change(alpha, ALPHA.replace("[[old]]", "[[beta]]"))
    assert client.diagnostics(alpha) == []
    assert alpha.read_text(encoding="utf-8") == ALPHA  # nothing written
    client.change(alpha, ALPHA + "\n<!-- memlint: ignore[LK001] -->\nText.\n")
    found = client.diagnostics(alpha)
    assert codes(found) == ["LK004", "MX001"]
    unused = next(d for d in found if d["code"] == "MX001")
    assert unused["tags"] == [1]  # unnecessary
    client.save(alpha)  # the disk still holds ALPHA: the buffer is what is linted
    assert codes(client.diagnostics(alpha)) == ["LK004", "MX001"]
    client.close(alpha)
    assert client.diagnostics(alpha) == []


def test_a_change_republishes_files_that_link_in(client, workspace):
    beta = workspace / "store" / "beta.md"
    alpha = workspace / "store" / "alpha.md"
    client.drain()
    client.open(beta)
    assert client.diagnostics(beta) == []
    client.change(beta, BETA.replace("name: beta", "name: gamma"))
    published = client.published()
    assert "LK001" in codes(published[alpha.as_uri()])  # not open: [[beta]] now dangles
    assert codes(published[beta.as_uri()]) == ["ID001"]
    client.change(beta, BETA)
    published = client.published()
    assert codes(published[alpha.as_uri()]) == ["LK004"]
    client.close(beta)
    client.drain()


def test_watched_file_creation_and_deletion_republish(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    gamma = workspace / "store" / "gamma.md"
    client.open(alpha, ALPHA + "See [[gamma]].\n")
    assert codes(client.diagnostics(alpha)) == ["LK001", "LK004"]
    gamma.write_text(memory("gamma", "third memory", "Gamma."), encoding="utf-8")
    try:
        event = {"changes": [{"uri": gamma.as_uri(), "type": 1}]}
        client.notify("workspace/didChangeWatchedFiles", event)
        assert codes(client.diagnostics(alpha)) == ["LK004"]
    finally:
        gamma.unlink()
    client.notify(
        "workspace/didChangeWatchedFiles", {"changes": [{"uri": gamma.as_uri(), "type": 3}]}
    )
    assert codes(client.diagnostics(alpha)) == ["LK001", "LK004"]
    client.close(alpha)
    client.drain()


def test_positions_count_utf16_code_units_on_cjk_and_emoji(client, workspace):
    note = workspace / "store" / "wide.md"
    line = "日本語😀😀 see [[missing]] 👩‍💻."
    text = memory("wide", "wide characters", line)
    note.write_text(text, encoding="utf-8")
    try:
        client.open(note)
        found = client.diagnostics(note)
        pending = next(d for d in found if d["code"] == "LK001")
        cli = subprocess.run(
            [sys.executable, "-m", "memlint", "check", str(note), "--output-format", "json"],
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=SRC),
            cwd=workspace,
            check=False,
        )
        expected = next(d for d in json.loads(cli.stdout) if d["code"] == "LK001")
        start = expected["location"]["column"] - 1  # code points
        end = expected["end_location"]["column"] - 1

        def utf16(text: str) -> int:
            return len(text.encode("utf-16-le")) // 2

        assert pending["range"]["start"] == {"line": 7, "character": utf16(line[:start])}
        assert pending["range"]["end"] == {"line": 7, "character": utf16(line[:end])}
        assert utf16(line[:start]) != start  # the emoji really count twice
        client.close(note)
        client.diagnostics(note)
    finally:
        note.unlink()


def test_quick_fix_and_ignore_actions_apply_and_relint_clean(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    client.open(alpha)
    (link,) = client.diagnostics(alpha)
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": alpha.as_uri()},
            "range": link["range"],
            "context": {"diagnostics": [link]},
        },
    )
    titles = [a["title"] for a in actions]
    assert "memlint: ignore LK004 on this line" in titles
    fix = next(a for a in actions if a["kind"] == "quickfix" and a.get("isPreferred"))
    assert fix["diagnostics"][0]["code"] == "LK004"
    (change,) = fix["edit"]["documentChanges"]
    fixed = apply_edits(ALPHA, change["edits"])
    assert "[[beta]] and to [[beta]]" in fixed
    client.change(alpha, fixed)
    assert client.diagnostics(alpha) == []
    client.change(alpha, ALPHA)
    client.diagnostics(alpha)
    ignore = next(a for a in actions if a["title"] == "memlint: ignore LK004 on this line")
    ignored = apply_edits(ALPHA, ignore["edit"]["documentChanges"][0]["edits"])
    assert "<!-- memlint: ignore[LK004] -->" in ignored
    client.change(alpha, ignored)
    assert client.diagnostics(alpha) == []
    client.change(alpha, ALPHA)
    client.diagnostics(alpha)
    fix_all = next(a for a in actions if a["kind"] == "source.fixAll.memlint")
    (change,) = fix_all["edit"]["documentChanges"]
    assert apply_edits(ALPHA, change["edits"]) == fixed
    client.close(alpha)
    client.diagnostics(alpha)


def test_unsafe_fixes_say_so_and_are_not_preferred(client, workspace):
    index = workspace / "store" / "MEMORY.md"
    text = INDEX + "- [Gone](gone.md) — a file that does not exist\n"
    client.open(index, text)
    found = client.diagnostics(index)
    missing = next(d for d in found if d["code"] == "IX003")
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": index.as_uri()},
            "range": missing["range"],
            "context": {"diagnostics": [missing], "only": ["quickfix"]},
        },
    )
    unsafe = next(a for a in actions if a["title"].endswith("(unsafe fix)"))
    assert not unsafe.get("isPreferred")
    assert all(a["kind"] == "quickfix" for a in actions)
    fix_all = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": index.as_uri()},
            "range": missing["range"],
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        },
    )
    assert fix_all == []  # safe fixes only: nothing to do
    client.close(index)
    client.diagnostics(index)


def test_definition_links_hover_and_completion(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    beta = workspace / "store" / "beta.md"
    client.open(alpha)
    client.diagnostics(alpha)
    at_beta = {"line": 7, "character": 18}
    where = {"textDocument": {"uri": alpha.as_uri()}, "position": at_beta}
    location = client.request("textDocument/definition", where)
    assert location["uri"] == beta.as_uri()
    links = client.request("textDocument/documentLink", {"textDocument": {"uri": alpha.as_uri()}})
    assert [link["target"].rsplit("/", 1)[-1] for link in links] == ["beta.md", "old.md"]
    shown = client.request("textDocument/hover", where)["contents"]["value"]
    assert "second memory" in shown
    at_old = dict(where, position={"line": 7, "character": 35})
    assert (
        "superseded by [[beta]]"
        in client.request("textDocument/hover", at_old)["contents"]["value"]
    )
    client.change(alpha, ALPHA + "\nSee [[be")
    client.diagnostics(alpha)
    items = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": alpha.as_uri()}, "position": {"line": 9, "character": 8}},
    )["items"]
    beta_item = next(i for i in items if i["label"] == "beta")
    assert beta_item["textEdit"]["range"]["start"] == {"line": 9, "character": 6}
    assert beta_item["detail"] == "second memory"
    client.change(alpha, ALPHA + "\n<!-- memlint: ignore[LK004] -->\n")
    client.diagnostics(alpha)
    code_hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": alpha.as_uri()}, "position": {"line": 9, "character": 23}},
    )
    assert "LK004" in code_hover["contents"]["value"]
    client.close(alpha)
    client.diagnostics(alpha)


def test_supersession_link_leads_to_the_successor(client, workspace):
    old = workspace / "store" / "old.md"
    client.open(old)
    client.diagnostics(old)
    location = client.request(
        "textDocument/definition",
        {"textDocument": {"uri": old.as_uri()}, "position": {"line": 2, "character": 32}},
    )
    assert location["uri"].endswith("/store/beta.md")
    client.close(old)
    client.diagnostics(old)


def test_index_links_resolve_to_their_memory(client, workspace):
    index = workspace / "store" / "MEMORY.md"
    client.open(index)
    client.diagnostics(index)
    location = client.request(
        "textDocument/definition",
        {"textDocument": {"uri": index.as_uri()}, "position": {"line": 2, "character": 12}},
    )
    assert location["uri"].endswith("/store/alpha.md")
    client.close(index)
    client.diagnostics(index)


def test_prepare_rename_names_the_span_and_the_stem(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    index = workspace / "store" / "MEMORY.md"
    assert client.initialize_result["capabilities"]["renameProvider"] == {"prepareProvider": True}
    client.open(alpha)
    client.diagnostics(alpha)

    def prepare(path, line, character):
        return client.request(
            "textDocument/prepareRename",
            {
                "textDocument": {"uri": path.as_uri()},
                "position": {"line": line, "character": character},
            },
        )

    on_link = prepare(alpha, 7, 18)  # inside [[beta]]: the target, not the brackets
    assert on_link == {
        "range": {"start": {"line": 7, "character": 17}, "end": {"line": 7, "character": 21}},
        "placeholder": "beta",
    }
    on_name = prepare(alpha, 1, 2)  # on `name: alpha`
    assert on_name["placeholder"] == "alpha"
    assert on_name["range"]["start"] == {"line": 1, "character": 6}
    with pytest.raises(LspError, match="rename works on"):
        prepare(alpha, 7, 2)  # plain body text
    client.open(index)
    client.diagnostics(index)
    on_entry = prepare(index, 2, 12)  # the href of `- [Alpha](alpha.md)`
    assert on_entry == {
        "range": {"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 18}},
        "placeholder": "alpha",
    }
    for path in (alpha, index):
        client.close(path)
        client.diagnostics(path)


def test_rename_returns_mv_edits_and_the_file_rename(client, workspace):
    alpha = workspace / "store" / "alpha.md"
    client.open(alpha)
    client.diagnostics(alpha)
    edit = client.request(
        "textDocument/rename",
        {
            "textDocument": {"uri": alpha.as_uri()},
            "position": {"line": 7, "character": 18},
            "newName": "beta-notes",
        },
    )
    changes = edit["documentChanges"]
    renames = [c for c in changes if c.get("kind") == "rename"]
    assert renames == [
        {
            "kind": "rename",
            "oldUri": (workspace / "store" / "beta.md").as_uri(),
            "newUri": (workspace / "store" / "beta-notes.md").as_uri(),
        }
    ]
    edited = {c["textDocument"]["uri"].rsplit("/", 1)[-1]: c["edits"] for c in changes[:-1]}
    assert set(edited) == {"MEMORY.md", "alpha.md", "beta.md", "old.md"}
    assert "[[beta-notes]]" in apply_edits(ALPHA, edited["alpha.md"])
    assert "name: beta-notes" in apply_edits(BETA, edited["beta.md"])
    assert (workspace / "store" / "beta.md").exists()  # nothing was written
    files = client.request(
        "workspace/willRenameFiles",
        {"files": [{"oldUri": renames[0]["oldUri"], "newUri": renames[0]["newUri"]}]},
    )
    assert all(c.get("kind") != "rename" for c in files["documentChanges"])
    assert len(files["documentChanges"]) == 4
    client.change(alpha, ALPHA + "unsaved\n")
    client.diagnostics(alpha)
    with pytest.raises(LspError, match="unsaved changes"):
        client.request(
            "textDocument/rename",
            {
                "textDocument": {"uri": alpha.as_uri()},
                "position": {"line": 7, "character": 18},
                "newName": "beta-notes",
            },
        )
    client.close(alpha)
    client.diagnostics(alpha)


def test_a_file_outside_any_store_gets_an_empty_result(client, workspace):
    guide = workspace / "docs" / "guide.md"
    client.open(guide)
    assert client.diagnostics(guide) == []
    client.close(guide)
    client.diagnostics(guide)


def test_malformed_documents_get_diagnostics_not_a_crash(client, workspace):
    broken = workspace / "store" / "broken.md"
    client.open(broken, "---\nname: [unclosed\ndescription: x\n---\n\nBody\n")
    assert "FM003" in codes(client.diagnostics(broken))
    client.change(broken, "---\nname: x\n\x00 binary \ud800 tail")
    assert "FS004" in codes(client.diagnostics(broken))
    client.change(broken, "")
    client.diagnostics(broken)
    client.close(broken)
    assert client.diagnostics(broken) == []
    assert (
        client.request(
            "textDocument/hover",
            {"textDocument": {"uri": broken.as_uri()}, "position": {"line": 9, "character": 99}},
        )
        is None
    )


def test_secrets_in_messages_are_masked(workspace):
    store = workspace / "secret-store"
    store.mkdir()
    (store / "MEMORY.md").write_text("# Memory\n\n- [Keys](keys.md) — keys\n", encoding="utf-8")
    keys = store / "keys.md"
    keys.write_text(memory("keys", f"deploy key {SECRET}", "Body."), encoding="utf-8")
    second = LspClient(workspace, encodings=["utf-8"])
    try:
        assert second.initialize_result["capabilities"]["positionEncoding"] == "utf-8"
        second.open(keys)
        found = second.diagnostics(keys)
        assert "PV001" in codes(found)
        published = b"".join(b for b in second.traffic if b"publishDiagnostics" in b)
        assert SECRET.encode() not in published
        assert second.stop() == 0
    finally:
        if second.process.poll() is None:
            second.process.kill()


def test_fix_all_includes_unsafe_fixes_when_the_client_asks(workspace):
    index = workspace / "store" / "MEMORY.md"
    text = INDEX + "- [Gone](gone.md) — a file that does not exist\n"
    unsafe = LspClient(workspace, options={"unsafeFixes": True}, resolve=True)
    try:
        unsafe.open(index, text)
        assert "IX003" in codes(unsafe.diagnostics(index))
        (action,) = unsafe.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": index.as_uri()},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": ["source.fixAll.memlint"]},
            },
        )
        assert action["title"] == "memlint: fix all (unsafe fixes included)"
        assert "edit" not in action  # the client resolves it: the fixer runs only then
        action = unsafe.request("codeAction/resolve", action)
        (change,) = action["edit"]["documentChanges"]
        assert apply_edits(text, change["edits"]) == INDEX
        assert unsafe.stop() == 0
    finally:
        if unsafe.process.poll() is None:
            unsafe.process.kill()


def test_each_store_is_linted_and_fixed_with_its_own_settings_as_check_does(tmp_path):
    """A config file in a store's subfolder does not change the store's settings: the
    server's diagnostics and fix-all follow the store's, as ``memlint check`` does."""
    store = tmp_path / "store"
    (store / "sub").mkdir(parents=True)
    (store / "MEMORY.md").write_text(
        "# Memory\n\n- [Beta](beta.md) — second\n- [Old](old.md) — superseded by [[beta]]\n"
        "- [X](sub/x.md) — x\n",
        encoding="utf-8",
    )
    (store / "beta.md").write_text(BETA, encoding="utf-8")
    (store / "old.md").write_text(OLD, encoding="utf-8")
    x = store / "sub" / "x.md"
    text = memory("x", "x", "See [[old]].")
    x.write_text(text, encoding="utf-8")
    (store / "sub" / ".memlint.toml").write_text('ignore = ["LK004"]\n', encoding="utf-8")
    cli = subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--output-format", "json"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=SRC),
        cwd=tmp_path,
        check=False,
    )
    assert [d["code"] for d in json.loads(cli.stdout)] == ["LK004"]
    own = LspClient(tmp_path)
    try:
        own.open(x)
        assert codes(own.diagnostics(x)) == ["LK004"]
        (action,) = own.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": x.as_uri()},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": ["source.fixAll.memlint"]},
            },
        )
        (change,) = action["edit"]["documentChanges"]
        assert apply_edits(text, change["edits"]) == text.replace("[[old]]", "[[beta]]")
        assert own.stop() == 0
    finally:
        if own.process.poll() is None:
            own.process.kill()


def test_rapid_changes_are_linted_together_and_the_last_text_wins(tmp_path):
    """Changes that arrive while a lint runs are not linted one by one: the server
    publishes fewer times than the client changed the document, never an older
    version after a newer one, and last the findings of the last text."""
    store = tmp_path / "store"
    store.mkdir()
    lines = ["# Memory", ""]
    for n in range(120):
        (store / f"m{n}.md").write_text(memory(f"m{n}", f"memory {n}", "Text."), encoding="utf-8")
        lines.append(f"- [M{n}](m{n}.md) — memory {n}")
    (store / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    target = store / "m7.md"
    text = target.read_text(encoding="utf-8")
    rapid = LspClient(tmp_path)
    try:
        rapid.open(target)
        assert rapid.diagnostics(target) == []
        changes = 40
        for n in range(changes):
            rapid.change(target, text + f"See [[missing-{n}]].\n")
        rapid.change(target, text + "See [[m8]].\n")
        rapid.request(
            "textDocument/hover",
            {"textDocument": {"uri": target.as_uri()}, "position": {"line": 0, "character": 0}},
        )  # answered once every lint asked for before it is published
        versions, last = [], None
        while not rapid.notifications.empty():
            message = rapid.notifications.get_nowait()
            if message["method"] == "textDocument/publishDiagnostics":
                params = message["params"]
                if params["uri"] == target.as_uri():
                    versions.append(params["version"])
                    last = params["diagnostics"]
        assert versions == sorted(versions)
        assert versions[-1] == changes + 2
        assert last == []
        assert len(versions) < changes
        assert rapid.stop() == 0
    finally:
        if rapid.process.poll() is None:
            rapid.process.kill()


def test_watched_config_change_reloads_settings(workspace):
    third = LspClient(workspace)
    try:
        alpha = workspace / "store" / "alpha.md"
        third.open(alpha)
        assert codes(third.diagnostics(alpha)) == ["LK004"]
        config = workspace / ".memlint.toml"
        config.write_text('ignore = ["LK004"]\n', encoding="utf-8")
        try:
            third.notify(
                "workspace/didChangeWatchedFiles",
                {"changes": [{"uri": config.as_uri(), "type": 1}]},
            )
            assert third.diagnostics(alpha) == []
        finally:
            config.unlink()
        assert third.stop() == 0
    finally:
        if third.process.poll() is None:
            third.process.kill()


def test_shutdown_and_exit_end_the_process_and_remove_its_cache(client, workspace):
    assert list((workspace / "tmp").iterdir())  # the server's private cache folder
    assert client.stop() == 0
    assert list((workspace / "tmp").iterdir()) == []


def test_completion_never_offers_a_name_that_holds_a_secret(tmp_path):
    """A memory named with a token: completion would print it in clear and insert it
    into the document; it is left out (the other names are offered)."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    store = tmp_path / "store"
    store.mkdir()
    (tmp_path / "tmp").mkdir()
    (store / "MEMORY.md").write_text("- [A](alpha.md) — a\n- [T](tok.md) — t\n", encoding="utf-8")
    (store / "alpha.md").write_text(memory("alpha", "first", "See [["), encoding="utf-8")
    (store / "tok.md").write_text(memory(token, "the token", "x"), encoding="utf-8")
    started = LspClient(tmp_path, tmpdir=tmp_path / "tmp")
    try:
        alpha = store / "alpha.md"
        started.open(alpha)
        started.diagnostics(alpha)
        where = {"textDocument": {"uri": alpha.as_uri()}, "position": {"line": 7, "character": 6}}
        items = started.request("textDocument/completion", where)["items"]
        assert [item["label"] for item in items] == ["alpha"]
        assert token not in json.dumps(items)
    finally:
        started.stop()
