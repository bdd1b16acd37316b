"""``memlint hook claude-code``: recorded Claude Code payloads fed to the real command.

Each test asserts the exit status, what the agent would see (stderr or JSON on
stdout) and that the file system was not touched by the hook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memlint import hook
from tests.helpers import write_files

FIXTURES = Path(__file__).parent / "fixtures" / "hook"

GOOD = (
    "---\nname: feedback_tests\ndescription: run the full suite before landing\n"
    "type: feedback\n---\nRun the full suite before landing.\n\n"
    "**Why:** a partial run missed a regression.\n\n**How to apply:** before every merge.\n"
)
STORE = {
    "memory/MEMORY.md": (
        "- [Tests](feedback_tests.md) — run the full suite before landing\n"
        "- [Dev env](reference_dev_env.md) — where the toolchain lives\n"
    ),
    "memory/feedback_tests.md": GOOD,
    "memory/reference_dev_env.md": (
        "---\nname: reference_dev_env\ndescription: where the toolchain lives\n"
        "type: reference\n---\nThe toolchain is under the tools folder.\n"
    ),
    "src/app.py": "print('hello')\n",
    "docs/README.md": "# Docs\n",
}
NEW_MEMORY = (
    "---\nname: project_release\ndescription: releases go out on Tuesdays\n"
    "type: project\n---\nReleases go out on Tuesdays.\n\n"
    "**Why:** the support rota.\n\n**How to apply:** plan merges for Monday.\n"
)
USER_ROLE = NEW_MEMORY.replace("project_release", "user_role").replace(
    "type: project", "type: user"
)
BAD_YAML = NEW_MEMORY.replace(
    "description: releases go out on Tuesdays", "description: releases: go out: Tuesdays"
)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    write_files(root, STORE)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    return root


def _env(root: Path) -> dict:
    home = root.parent / "home"
    return {
        **os.environ,
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "XDG_CACHE_HOME": str(root.parent / "cache"),  # inside the snapshot: never written
    }


def payload(name: str, root: Path, **values) -> bytes:
    """A recorded payload with ``$ROOT``, ``$FILE``… replaced (a whole ``"$X"`` string
    may become any JSON value)."""
    values = {"ROOT": str(root), "HOME": str(root.parent / "home"), "SLUG": "x", **values}

    def fill(value):
        if isinstance(value, dict):
            return {key: fill(item) for key, item in value.items()}
        if isinstance(value, list):
            return [fill(item) for item in value]
        if isinstance(value, str):
            if value.startswith("$") and value[1:] in values:
                return values[value[1:]]
            for key, item in values.items():
                if isinstance(item, str):
                    value = value.replace(f"${key}", item)
        return value

    return json.dumps(fill(json.loads((FIXTURES / name).read_text()))).encode()


def snapshot(root: Path) -> dict:
    """Every path below ``root``, with its bytes and mtime (directories: mtime only)."""
    state = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        data = path.read_bytes() if path.is_file() else None
        state[str(path.relative_to(root))] = (data, st.st_mtime_ns)
    return state


def run_hook(root: Path, data: bytes, *args: str, cwd: Path | None = None):
    """The hook as Claude Code runs it; the tree below ``root.parent`` must not change."""
    before = snapshot(root.parent)
    result = subprocess.run(
        [sys.executable, "-m", "memlint", "hook", "claude-code", *args],
        input=data,
        capture_output=True,
        cwd=cwd or root,
        env=_env(root),
        timeout=120,
    )
    assert snapshot(root.parent) == before, "the hook touched the file system"
    assert "Traceback" not in result.stderr.decode()
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def write(root: Path, rel: str, content: str) -> Path:
    """What the Write tool does before PostToolUse fires."""
    path = root / rel
    path.write_text(content, encoding="utf-8")
    return path


# -- not a memory ------------------------------------------------------------------------


def test_not_a_write_tool_exits_at_once(project):
    assert run_hook(project, payload("post_bash.json", project)) == (0, "", "")


@pytest.mark.parametrize("rel", ["src/app.py", "docs/README.md"])
def test_a_file_in_no_store_is_left_alone(project, rel):
    path = project / rel
    data = payload("post_write.json", project, FILE=str(path), CONTENT="x", TYPE="update")
    assert run_hook(project, data) == (0, "", "")


def test_not_a_memory_imports_no_linter(project):
    """The fast path: nothing of the rule layer, YAML or Markdown parsing is imported."""
    data = payload("post_write.json", project, FILE=str(project / "src/app.py"), CONTENT="")
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "memlint", "hook", "claude-code"],
        input=data,
        capture_output=True,
        cwd=project,
        env=_env(project),
    )
    assert result.returncode == 0
    imported = {line.split("|")[-1].strip() for line in result.stderr.decode().splitlines()}
    assert "memlint.hook" in imported
    heavy = {"yaml", "markdown_it", "memlint.discovery", "memlint.engine", "argparse"}
    assert heavy.isdisjoint(imported)
    assert "json" not in imported  # with re and enum, it costs more than the rest


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _outcome(parse, data: bytes):
    try:
        return "value", repr(parse(data))  # (NaN is not NaN)
    except (ValueError, RecursionError) as exc:
        return "refused", type(exc)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans(), st.sampled_from(["", " ", "\n", "\ufeff"]))
def test_events_are_read_as_json_reads_them(value, ascii_only, lead):
    data = (lead + json.dumps(value, ensure_ascii=ascii_only) + " \n").encode("utf-8")
    assert hook.parse_json(data) == json.loads(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40).map(lambda t: t.encode("utf-8", "replace")))
def test_what_json_refuses_the_hook_refuses(data):
    assert _outcome(hook.parse_json, data) == _outcome(json.loads, data)


# -- PostToolUse -------------------------------------------------------------------------


def test_a_good_new_memory_passes(project):
    path = write(project, "memory/project_release.md", NEW_MEMORY)
    # a new file the index does not list yet is an error the write introduced (IX002)
    (project / "memory/MEMORY.md").write_text(
        STORE["memory/MEMORY.md"] + "- [Release](project_release.md) — releases on Tuesdays\n"
    )
    data = payload("post_write.json", project, FILE=str(path), CONTENT=NEW_MEMORY, TYPE="create")
    assert run_hook(project, data) == (0, "", "")


def test_a_new_memory_with_broken_yaml_is_reported_to_the_model(project):
    path = write(project, "memory/project_release.md", BAD_YAML)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=BAD_YAML, TYPE="create")
    code, out, err = run_hook(project, data)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert lines[0] == "memlint: this write left 2 new errors in the memory store"
    assert any(line.startswith("memory/project_release.md:3 FM003 ") for line in lines)
    assert any(" IX002 " in line and "— fix: Add" in line for line in lines)
    assert lines[-1] == "Apply the safe fixes: memlint check --fix memory/project_release.md"
    assert len(lines) <= 22


def test_harness_stamped_frontmatter_is_never_reported(project):
    stamped = GOOD.replace(
        "type: feedback\n",
        "type: feedback\nmodified: 2026-11-30T10:00:00Z\n"
        "originSessionId: 9f1c2a44-5b6e-4c1d-8a0f-2e7d3b9c1a55\n"
        "metadata:\n  node_type: memory\n  modified: 2026-11-30\n",
    )
    path = write(project, "memory/feedback_tests.md", stamped)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=GOOD, TYPE="update")
    assert run_hook(project, data) == (0, "", "")


def test_an_edit_that_introduces_an_error_exits_2(project):
    old, new = "description: run the full suite before landing", "description: run: it: all"
    path = write(project, "memory/feedback_tests.md", GOOD.replace(old, new))
    data = payload("post_edit.json", project, FILE=str(path), OLD=old, NEW=new)
    code, _, err = run_hook(project, data)
    assert code == 2
    assert "memory/feedback_tests.md:3 FM003 invalid YAML" in err


def test_an_edit_that_fixes_a_finding_is_silent(project):
    broken = GOOD.replace("run the full suite before landing\ntype", "run: it: all\ntype")
    write(project, "memory/feedback_tests.md", GOOD)
    path = project / "memory/feedback_tests.md"
    data = payload(
        "post_edit.json",
        project,
        FILE=str(path),
        OLD="description: run: it: all",
        NEW="description: run the full suite before landing",
    )
    assert broken != GOOD
    assert run_hook(project, data) == (0, "", "")


def test_errors_that_were_there_before_are_not_blamed_on_the_write(project):
    # an unindexed memory (IX002, an error) whose body the agent edits
    write(project, "memory/user_role.md", USER_ROLE)
    path = write(
        project,
        "memory/user_role.md",
        (project / "memory/user_role.md").read_text().replace("Tuesdays.\n", "Wednesdays.\n"),
    )
    data = payload("post_edit.json", project, FILE=str(path), OLD="Tuesdays.", NEW="Wednesdays.")
    assert run_hook(project, data) == (0, "", "")
    # the same file through Write with no way to know its old content is blamed whole
    content = path.read_text()
    data = payload("post_write.json", project, FILE=str(path), CONTENT=content, TYPE="update")
    code, _, err = run_hook(project, data)
    assert code == 2 and " IX002 " in err


def test_original_file_in_the_tool_response_is_the_state_before(project):
    write(project, "memory/user_role.md", USER_ROLE)
    path = project / "memory/user_role.md"
    data = json.loads(payload("post_write.json", project, FILE=str(path), CONTENT="", TYPE=""))
    data["tool_response"]["originalFile"] = path.read_text()
    assert run_hook(project, json.dumps(data).encode()) == (0, "", "")


def test_a_multiedit_that_introduces_an_error(project):
    edited = GOOD.replace("type: feedback", "type: feedbak").replace("a partial run", "a quick run")
    path = write(project, "memory/feedback_tests.md", edited)
    data = payload(
        "post_multiedit.json",
        project,
        FILE=str(path),
        OLD="type: feedback",
        NEW="type: feedbak",
        OLD2="a partial run",
        NEW2="a quick run",
    )
    code, _, err = run_hook(project, data)
    assert code == 2
    assert "memory/feedback_tests.md:4 FM010 " in err


def test_warnings_only_go_to_additional_context(project):
    old, new = "The toolchain is under the tools folder.", "Ask ops@corp.io for access."
    content = STORE["memory/reference_dev_env.md"].replace(old, new)
    path = write(project, "memory/reference_dev_env.md", content)
    data = payload("post_edit.json", project, FILE=str(path), OLD=old, NEW=new)
    code, out, err = run_hook(project, data)
    assert (code, err) == (0, "")
    context = json.loads(out)["hookSpecificOutput"]
    assert context["hookEventName"] == "PostToolUse"
    assert "PV004 (warning)" in context["additionalContext"]
    assert "ops@corp.io" not in context["additionalContext"]  # masked


@pytest.mark.parametrize("data", [b"", b"{not json", b"[1, 2]", b"\xff\xfe"])
def test_malformed_stdin_exits_0_with_a_line_on_stderr(project, data):
    code, out, err = run_hook(project, data)
    assert (code, out) == (0, "")
    assert err.startswith("memlint: hook: stdin is not a JSON")


def test_a_huge_content_is_checked_without_failing(project):
    content = NEW_MEMORY + ("filler line of a very long memory\n" * 60_000)  # about 2 MB
    path = write(project, "memory/project_release.md", content)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=content, TYPE="create")
    assert len(data) > 2_000_000
    code, _, err = run_hook(project, data)
    assert code == 2
    assert "memory/project_release.md:1 FS005 " in err


def test_a_broken_config_never_fails_the_session(project):
    (project / ".memlint.toml").write_text("select = [\n")
    path = write(project, "memory/project_release.md", BAD_YAML)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=BAD_YAML, TYPE="create")
    code, out, err = run_hook(project, data)
    assert (code, out) == (0, "")
    assert err.startswith("memlint: hook: configuration error")


@pytest.mark.parametrize("event", ["PostToolUse", "PreToolUse"])
@pytest.mark.parametrize("where", ["file", "cwd"])
def test_a_path_no_file_system_can_hold_is_left_alone_with_a_clear_line(project, event, where):
    """A lone surrogate cannot be encoded as a file name: no such file was written."""
    raw = str(project / "memory" / "x\ud800y.md")
    cwd = str(project) + "\ud800" if where == "cwd" else str(project)
    if where == "cwd":
        raw = "memory/feedback_tests.md"
    name = "post_write.json" if event == "PostToolUse" else "pre_write.json"
    data = payload(name, project, FILE=raw, CONTENT=BAD_YAML, TYPE="create", ROOT=cwd)
    args = ("--strict",) if event == "PreToolUse" else ()
    code, out, err = run_hook(project, data, *args)
    assert (code, out) == (0, "")
    assert err.startswith("memlint: hook: ") and "not a path this system can hold" in err
    assert "internal error" not in err


def test_stop_passes_over_paths_no_file_system_can_hold(project):
    broken = GOOD.replace("before landing\ntype", ": x: y\ntype")
    path = write(project, "memory/feedback_tests.md", broken)
    transcript = _transcript(project, (path, GOOD))
    with open(transcript, "a", encoding="utf-8") as handle:  # a write to an impossible path
        odd = {"toolUseResult": {"filePath": str(project / "memory/x\ud800.md")}}
        handle.write(json.dumps(odd) + "\n")
    code, out, err = run_hook(
        project, payload("stop.json", project, TRANSCRIPT=str(transcript), ACTIVE=False)
    )
    assert (code, err) == (0, "")
    assert "memory/feedback_tests.md:3 FM003" in json.loads(out)["reason"]
    odd_transcript = payload("stop.json", project, TRANSCRIPT=str(project) + "/\ud800.jsonl")
    code, out, err = run_hook(project, odd_transcript.replace(b'"$ACTIVE"', b"false"))
    assert (code, out) == (0, "")
    assert "internal error" not in err


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_the_output_stays_within_claude_codes_cap_as_it_counts(project):
    """Claude Code persists hook output over 10,000 characters, counted in UTF-16 code
    units, and shows the model a 2 KB preview: what the hook writes stays within that,
    however wide the characters of the paths it names, cut after a whole line."""
    folder = "memory/" + "/".join(["\U0001f4dd" * 60] * 3)  # 3 folders of 60 emoji
    links = "".join(f"See [[ghost-{n}]].\n" for n in range(30))
    content = NEW_MEMORY.replace("Releases go out on Tuesdays.\n", links)
    (project / folder).mkdir(parents=True)
    path = write(project, f"{folder}/project_release.md", content)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=content, TYPE="create")
    code, out, err = run_hook(project, data)
    assert (code, out) == (2, "")
    assert " IX002 " in err and " LK001 (warning) " in err
    assert _utf16_units(err) <= 10_000
    assert err.endswith("… (cut)\n")


# -- PreToolUse (--strict) ---------------------------------------------------------------

SECRET = NEW_MEMORY.replace(
    "Releases go out on Tuesdays.", "Deploy key: ghp_Zr8cQ2xVb7Nm4Lp9Ks3Jd6Hf1Gt5Wy0Ea2Uo"
)


def test_pre_tool_use_is_opt_in(project):
    path = project / "memory/project_release.md"
    data = payload("pre_write.json", project, FILE=str(path), CONTENT=SECRET)
    assert run_hook(project, data) == (0, "", "")


def test_strict_denies_a_credential_before_it_is_written(project):
    path = project / "memory/project_release.md"
    code, out, err = run_hook(
        project, payload("pre_write.json", project, FILE=str(path), CONTENT=SECRET), "--strict"
    )
    assert (code, err) == (0, "")
    decision = json.loads(out)["hookSpecificOutput"]
    assert decision["hookEventName"] == "PreToolUse"
    assert decision["permissionDecision"] == "deny"
    assert "a credential" in decision["permissionDecisionReason"]
    assert "PV001" in decision["permissionDecisionReason"]
    assert "ghp_Zr8cQ2xVb7Nm4Lp9Ks3Jd6Hf1Gt5Wy0Ea2Uo" not in out
    assert not path.exists()


def test_strict_allows_a_write_with_only_fixable_findings(project):
    # not indexed yet (IX002) is no certain breakage: the agent updates MEMORY.md next
    path = project / "memory/project_release.md"
    data = payload("pre_write.json", project, FILE=str(path), CONTENT=NEW_MEMORY)
    assert run_hook(project, data, "--strict") == (0, "", "")


def test_strict_denies_facts_written_inline_into_the_index(project):
    path = project / "memory/MEMORY.md"
    content = STORE["memory/MEMORY.md"] + "- The staging database is reset nightly at 02:00 UTC\n"
    data = payload("pre_write.json", project, FILE=str(path), CONTENT=content)
    code, out, _ = run_hook(project, data, "--strict")
    assert code == 0
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "IX010" in reason


def test_strict_applies_an_edit_to_the_file_on_disk(project):
    path = project / "memory/reference_dev_env.md"
    old, new = "name: reference_dev_env", "name: feedback_tests"
    data = payload("pre_edit.json", project, FILE=str(path), OLD=old, NEW=new)
    code, out, _ = run_hook(project, data, "--strict")
    assert code == 0
    reason = json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.startswith("memlint: this write would add a name that collides;")
    assert "memory/reference_dev_env.md:2 ID003 " in reason


def test_strict_lets_an_edit_the_tool_will_refuse_through(project):
    path = project / "memory/reference_dev_env.md"
    data = payload("pre_edit.json", project, FILE=str(path), OLD="not in the file", NEW="x: y: z")
    assert run_hook(project, data, "--strict") == (0, "", "")


# -- SessionStart and Stop ---------------------------------------------------------------


def _auto_memory(root: Path) -> Path:
    slug = "".join(c if c.isascii() and c.isalnum() else "-" for c in str(root))
    return root.parent / "home" / ".claude" / "projects" / slug / "memory"


def test_session_start_reports_how_the_index_loads(project):
    memory = _auto_memory(project)
    lines = "".join(f"- [Note {i}](user_note{i}.md) — note {i}\n" for i in range(210))
    write_files(memory, {"MEMORY.md": lines})
    code, out, err = run_hook(project, payload("session_start.json", project))
    assert (code, err) == (0, "")
    context = json.loads(out)["hookSpecificOutput"]
    assert context["hookEventName"] == "SessionStart"
    text = context["additionalContext"]
    assert text.startswith("memlint: MEMORY.md loads 200 of 210 lines")
    assert "cut from line 201" in text and "user_note200.md" in text
    assert "\n" not in text


def test_session_start_without_auto_memory_says_nothing(project):
    assert run_hook(project, payload("session_start.json", project)) == (0, "", "")


def _transcript(root: Path, *writes: tuple[Path, str | None]) -> Path:
    """A session transcript with one Edit call and its result per ``(path, originalFile)``."""
    transcript = root.parent / "home" / "transcript.jsonl"
    records = []
    for number, (path, original) in enumerate(writes):
        tool_id = f"toolu_{number}"
        use = {"type": "tool_use", "id": tool_id, "name": "Edit", "input": {"file_path": str(path)}}
        records.append({"type": "assistant", "message": {"role": "assistant", "content": [use]}})
        records.append(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": tool_id}],
                },
                "toolUseResult": {"filePath": str(path), "originalFile": original},
            }
        )
    transcript.write_text("".join(json.dumps(record) + "\n" for record in records))
    return transcript


def test_stop_is_blocked_once_while_the_session_left_an_error(project):
    broken = GOOD.replace("before landing\ntype", ": x: y\ntype")
    path = write(project, "memory/feedback_tests.md", broken)
    transcript = _transcript(project, (path, GOOD))
    code, out, _ = run_hook(
        project, payload("stop.json", project, TRANSCRIPT=str(transcript), ACTIVE=False)
    )
    assert code == 0
    decision = json.loads(out)
    assert decision["decision"] == "block"
    assert "memory/feedback_tests.md:3 FM003" in decision["reason"]
    again = payload("stop.json", project, TRANSCRIPT=str(transcript), ACTIVE=True)
    assert run_hook(project, again) == (0, "", "")


def test_stop_does_not_blame_errors_the_file_had_before_the_session(project):
    broken = GOOD.replace("before landing\ntype", ": x: y\ntype")
    path = write(project, "memory/feedback_tests.md", broken + "More.\n")
    transcript = _transcript(project, (path, broken))
    data = payload("stop.json", project, TRANSCRIPT=str(transcript), ACTIVE=False)
    assert run_hook(project, data) == (0, "", "")


def test_help_and_a_terminal_never_wait_for_an_event(project):
    import pty

    result = subprocess.run(
        [sys.executable, "-m", "memlint", "hook", "claude-code", "--help"],
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0 and b"--strict" in result.stdout
    leader, follower = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "memlint", "hook", "claude-code"],
            stdin=follower,
            capture_output=True,
            timeout=60,
        )
    finally:
        os.close(leader)
        os.close(follower)
    assert result.returncode == 0
    assert result.stderr.startswith(b"memlint: hook: reads one Claude Code hook event")


def test_stop_blames_a_new_file_only_for_its_own_errors(project):
    broken = GOOD.replace("before landing\ntype", ": x: y\ntype")
    old = write(project, "memory/feedback_tests.md", broken + "More.\n")
    new = write(project, "memory/reference_dev_env.md", STORE["memory/reference_dev_env.md"])
    transcript = _transcript(project, (new, None), (old, broken))
    data = payload("stop.json", project, TRANSCRIPT=str(transcript), ACTIVE=False)
    assert run_hook(project, data) == (0, "", "")


def test_the_store_config_file_applies_as_memlint_check_applies_it(project):
    """A config file in the store's folder is the one ``memlint check`` uses for that
    store: the hook never blocks on a rule the store turned off."""
    (project / "memory/.memlint.toml").write_text('ignore = ["FM003", "IX002"]\n')
    path = write(project, "memory/project_release.md", BAD_YAML)
    data = payload("post_write.json", project, FILE=str(path), CONTENT=BAD_YAML, TYPE="create")
    checked = subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--no-cache", "memory"],
        capture_output=True,
        cwd=project,
        env=_env(project),
        timeout=120,
    )
    assert checked.returncode == 0
    assert run_hook(project, data) == (0, "", "")


def test_a_rename_is_blamed_for_the_links_it_leaves_dangling_in_other_files(project):
    # feedback_tests links to reference_dev_env; the edit renames the linked memory
    linking = GOOD.replace("before every merge.", "before every merge; see [[reference_dev_env]].")
    write(project, "memory/feedback_tests.md", linking)
    write(project, "memory/notes_old.md", "---\nname: notes_old\n---\nSee [[missing_page]].\n")
    old, new = "name: reference_dev_env", "name: reference_tools"
    text = (project / "memory/reference_dev_env.md").read_text()
    path = write(project, "memory/reference_dev_env.md", text.replace(old, new))
    data = payload("post_edit.json", project, FILE=str(path), OLD=old, NEW=new)
    code, out, err = run_hook(project, data)
    shown = err if code == 2 else json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "memory/feedback_tests.md:" in shown and " LK001 " in shown
    assert "reference_dev_env" in shown
    assert "notes_old.md" not in shown  # its dangling link was there before the write


def test_an_edit_that_makes_a_near_duplicate_reports_it_on_the_other_memory(project):
    """DU001 reports a pair on its later memory: here the one the edit did not touch,
    and that nothing links to the edited one."""
    body = (
        "Releases are cut from the main branch every Tuesday morning after the "
        "full regression suite has passed on the staging cluster and the release "
        "notes have been reviewed by the support team.\n"
    )
    later = "---\nname: zz_release\ndescription: release day\ntype: project\n---\n" + body
    write(project, "memory/zz_release.md", later)
    with open(project / "memory/MEMORY.md", "a", encoding="utf-8") as index:
        index.write("- [Release](zz_release.md) — release day\n")
    old = "The toolchain is under the tools folder."
    content = STORE["memory/reference_dev_env.md"].replace(old, body.strip())
    path = write(project, "memory/reference_dev_env.md", content)
    data = payload("post_edit.json", project, FILE=str(path), OLD=old, NEW=body.strip())
    code, out, err = run_hook(project, data)
    assert (code, err) == (0, "")
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "memory/zz_release.md:1 DU001 (warning)" in context


def test_an_edit_that_changes_the_profile_reports_what_it_changed_elsewhere(tmp_path):
    """Two linked memories; an edit gives one a typed frontmatter, the store is read as
    typed, and the other memory, tied to it by nothing, now breaks the typed naming."""
    memory = "---\nname: {0}\ndescription: {0}\nmetadata:\n  type: user\n---\n{0} body\n"
    root = tmp_path / "project"
    write_files(
        root,
        {
            "memory/MEMORY.md": "- [A](alpha.md) — alpha\n- [B](beta.md) — beta\n",
            "memory/alpha.md": memory.format("alpha"),
            "memory/beta.md": memory.format("beta"),
        },
    )
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    old = "name: alpha\ndescription: alpha\nmetadata:\n  type: user"
    new = "name: Alpha\ndescription: alpha\ntype: user"
    path = write(root, "memory/alpha.md", memory.format("alpha").replace(old, new))
    data = payload("post_edit.json", root, FILE=str(path), OLD=old, NEW=new)
    code, out, err = run_hook(root, data)
    assert (code, err) == (0, "")
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "memory/beta.md:1 ID004 (warning)" in context
