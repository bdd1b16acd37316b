"""A small JSON-RPC client that drives ``memlint server`` over stdio, for the tests."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
WAIT = 60  # seconds before a test gives up on a reply (never a timing assertion)


class LspClient:
    """One server process; notifications are queued, server requests answered."""

    def __init__(
        self,
        cwd: Path,
        encodings: list[str] | None = None,
        tmpdir: Path | None = None,
        options: dict | None = None,
        resolve: bool = False,
        watch: bool = True,
    ) -> None:
        env = dict(os.environ, PYTHONPATH=SRC)
        if tmpdir is not None:
            env["TMPDIR"] = str(tmpdir)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "memlint", "server"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.next_id = 0
        self.replies: dict[int, queue.Queue] = {}
        self.notifications: queue.Queue = queue.Queue()
        self.traffic: list[bytes] = []  # every message body the server sent
        self.server_requests: list[dict] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        general = {"positionEncodings": encodings} if encodings else {}
        self.initialize_result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": cwd.as_uri(),
                "initializationOptions": options,
                "capabilities": {
                    "general": general,
                    "textDocument": {
                        "codeAction": {"resolveSupport": {"properties": ["edit"]}}
                        if resolve
                        else {},
                        "rename": {"prepareSupport": True},
                    },
                    "workspace": {
                        "workspaceEdit": {"documentChanges": True},
                        "didChangeWatchedFiles": {"dynamicRegistration": watch},
                        "fileOperations": {"willRename": True},
                    },
                },
            },
        )
        self.notify("initialized", {})
        self.versions: dict[str, int] = {}
        self.log = ""  # what the server wrote to stderr, read when it stopped

    # -- transport ------------------------------------------------------------------

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = stream.read(length)
            self.traffic.append(body)
            message = json.loads(body)
            if "id" in message and "method" in message:  # a request from the server
                self.server_requests.append(message)
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                self.replies.setdefault(message["id"], queue.Queue()).put(message)
            else:
                self.notifications.put(message)

    def request(self, method: str, params: dict) -> object:
        self.next_id += 1
        number = self.next_id
        self.replies.setdefault(number, queue.Queue())
        message = {"jsonrpc": "2.0", "id": number, "method": method}
        self._send(message if params is None else {**message, "params": params})
        reply = self.replies[number].get(timeout=WAIT)
        if "error" in reply:
            raise LspError(reply["error"])
        return reply["result"]

    def notify(self, method: str, params: dict) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        self._send(message if params is None else {**message, "params": params})

    # -- documents ------------------------------------------------------------------------

    def open(self, path: Path, text: str | None = None) -> None:
        text = path.read_text(encoding="utf-8") if text is None else text
        self.versions[path.as_uri()] = 1
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": path.as_uri(),
                    "languageId": "markdown",
                    "version": 1,
                    "text": text,
                }
            },
        )

    def change(self, path: Path, text: str) -> None:
        uri = path.as_uri()
        self.versions[uri] += 1
        self.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": self.versions[uri]},
                "contentChanges": [{"text": text}],
            },
        )

    def save(self, path: Path) -> None:
        self.notify("textDocument/didSave", {"textDocument": {"uri": path.as_uri()}})

    def close(self, path: Path) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": path.as_uri()}})

    def diagnostics(self, path: Path) -> list[dict]:
        """The next diagnostics published for ``path`` (earlier ones for others are kept)."""
        uri = path.as_uri()
        kept = []
        try:
            while True:
                message = self.notifications.get(timeout=WAIT)
                params = message.get("params") or {}
                if message["method"] == "textDocument/publishDiagnostics" and (
                    params["uri"] == uri
                ):
                    return params["diagnostics"]
                kept.append(message)
        finally:
            for message in kept:
                self.notifications.put(message)

    def drain(self) -> None:
        """Forget queued notifications (after a request, every earlier one has arrived)."""
        self.request("textDocument/hover", _nowhere())
        while not self.notifications.empty():
            self.notifications.get_nowait()

    def published(self) -> dict[str, list[dict]]:
        """Every diagnostics notification queued now, by URI (the last one wins)."""
        self.request("textDocument/hover", _nowhere())
        found = {}
        while not self.notifications.empty():
            message = self.notifications.get_nowait()
            if message["method"] == "textDocument/publishDiagnostics":
                found[message["params"]["uri"]] = message["params"]["diagnostics"]
        return found

    def stop(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        code = self.process.wait(timeout=WAIT)
        self.log = self.process.stderr.read().decode("utf-8", "replace")
        self.process.stdout.close()
        self.process.stdin.close()
        self.process.stderr.close()
        return code


def _nowhere() -> dict:
    return {
        "textDocument": {"uri": "file:///nonexistent/x.txt"},
        "position": {"line": 0, "character": 0},
    }


class LspError(Exception):
    """The server answered a request with an error."""


def apply_edits(text: str, edits: list[dict]) -> str:
    """``text`` with LSP text edits applied (UTF-16 positions)."""
    lines = text.split("\n")

    def offset(position: dict) -> int:
        before = sum(len(line) + 1 for line in lines[: position["line"]])
        line = lines[position["line"]] if position["line"] < len(lines) else ""
        units = 0
        for index, ch in enumerate(line):
            if units >= position["character"]:
                return before + index
            units += 2 if ord(ch) > 0xFFFF else 1
        return before + len(line)

    spans = sorted(
        ((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text
