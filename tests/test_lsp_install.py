"""The README's command for the extra ``[lsp]`` installs a working server into a clean
virtual environment. ``agent-memlint`` is not on the package registry yet, so the
command is run as the README gives it with the distribution name pointing at this
checkout; its dependencies (and the build backend) come from the registry. The test
is skipped, saying why, when the registry cannot be reached."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "agent-memlint"
PIP_QUIET = ["--disable-pip-version-check", "--no-input", "--quiet"]

pytestmark = pytest.mark.slow


def readme_command() -> list[str]:
    """The README's install command for the extra (``python3 -m pip install '…[lsp]'``)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^python3 -m pip install '(" + DISTRIBUTION + r"\[lsp\])'$", text, re.M)
    assert found is not None, "the README gives no install command for the [lsp] extra"
    return ["-m", "pip", "install", found.group(1)]


def clean_env() -> dict[str, str]:
    """The environment without anything that points Python at this checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run(argv: list[str], **options) -> subprocess.CompletedProcess:
    return subprocess.run(
        argv, capture_output=True, text=True, env=clean_env(), check=False, **options
    )


def exchange(argv: list[str], cwd: Path) -> tuple[dict, int, str]:
    """initialize, shutdown and exit over stdio: the reply to initialize, the exit
    status and what the server wrote to stderr."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    stdin = b"".join(
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        for body in (json.dumps(m).encode("utf-8") for m in messages)
    )
    done = subprocess.run(
        argv, input=stdin, capture_output=True, env=clean_env(), cwd=cwd, timeout=120, check=False
    )
    replies, rest = [], done.stdout
    while rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
        replies.append(json.loads(rest[:length]))
        rest = rest[length:]
    initialized = next(r for r in replies if r.get("id") == 1)
    return initialized, done.returncode, done.stderr.decode("utf-8", "replace")


def test_the_readme_command_installs_the_extra_into_a_clean_venv(tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = str(env_dir / ("Scripts" if sys.platform == "win32" else "bin") / "python")
    probe = run([python, "-m", "pip", "download", *PIP_QUIET, "--no-deps", "--dest",
                 str(tmp_path / "probe"), "pygls>=2,<3"])  # fmt: skip
    if probe.returncode != 0:
        pytest.skip(f"the package registry is unreachable: {probe.stderr.strip()[-300:]}")
    command = readme_command()
    command[-1] = command[-1].replace(DISTRIBUTION, str(ROOT), 1)
    installed = run([python, *command[:3], *PIP_QUIET, *command[3:]], cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]
    found = run([python, "-c", "import memlint, pygls, lsprotocol; print(memlint.__file__)"])
    assert found.returncode == 0, found.stderr
    assert str(env_dir) in found.stdout  # the installed copy, not this checkout's src
    script = env_dir / ("Scripts" if sys.platform == "win32" else "bin") / "memlint"
    reply, status, log = exchange([str(script), "server"], tmp_path)
    assert reply["result"]["serverInfo"]["name"] == "memlint"
    assert reply["result"]["capabilities"]["codeActionProvider"]
    assert status == 0, log
    assert "Traceback" not in log
