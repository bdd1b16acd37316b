"""``memlint hook install|uninstall``: memlint's entries in Claude Code's settings.json.

Entries are found again by their command (``memlint hook claude-code``), so installing
twice changes nothing and uninstalling removes only them. Every other key and hook is
kept in its place; the file's indentation and final newline are kept; the file is
replaced atomically. A settings file that is not valid JSON is never written.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from memlint.textutil import shown

COMMAND = "memlint hook claude-code"
TOOL_MATCHER = "Write|Edit|MultiEdit"
TIMEOUT = 30
SCOPES = ("user", "project", "local")
# --events name -> (Claude Code event, matcher or None, command)
EVENTS = {
    "post": ("PostToolUse", TOOL_MATCHER, COMMAND),
    "pre": ("PreToolUse", TOOL_MATCHER, f"{COMMAND} --strict"),
    "session": ("SessionStart", None, COMMAND),
    "stop": ("Stop", None, COMMAND),
}


class SettingsError(Exception):
    """The settings file cannot be changed safely (exit 2, nothing written)."""


def add_hook_arguments(hook) -> None:
    """The actions of ``memlint hook`` and their options."""
    actions = hook.add_subparsers(dest="hook_command", required=True)
    gate = actions.add_parser(
        "claude-code",
        help="run as a Claude Code hook (reads the event on stdin)",
        description="Read one Claude Code hook event (JSON) on stdin. PostToolUse of "
        "Write/Edit/MultiEdit on a memory: new errors exit 2 with a report on stderr, new "
        "warnings go to additionalContext. PreToolUse (--strict): deny certain breakage. "
        "SessionStart: one loader line. Stop: block once while this session's writes left "
        "errors. Never exits 1; never writes a file.",
    )
    gate.add_argument("--strict", action="store_true", help="also deny breaking PreToolUse writes")
    for name, text in (
        ("install", "add memlint's hooks to a Claude Code settings.json"),
        ("uninstall", "remove memlint's hooks from a Claude Code settings.json"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument(
            "--scope",
            choices=SCOPES,
            default="user",
            help="~/.claude/settings.json (user, default), .claude/settings.json (project) "
            "or .claude/settings.local.json (local)",
        )
        action.add_argument(
            "--dry-run", action="store_true", help="print the change as a diff, write nothing"
        )
        if name == "install":
            action.add_argument(
                "--events",
                type=_events,
                default=["post"],
                help="comma-separated: post (default), pre, session, stop",
            )


def _events(value: str) -> list[str]:
    names = [part.strip() for part in value.split(",") if part.strip()]
    unknown = [name for name in names if name not in EVENTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown event {unknown[0] if unknown else value!r} (use {', '.join(EVENTS)})"
        )
    return names


def settings_path(scope: str, cwd: str) -> str:
    if scope == "user":
        home = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
            os.path.expanduser("~"), ".claude"
        )
        return os.path.join(home, "settings.json")
    name = "settings.local.json" if scope == "local" else "settings.json"
    return os.path.join(cwd, ".claude", name)


def run_hook_command(args, parser) -> int:
    if args.hook_command == "claude-code":  # reached only through argparse's own paths
        from memlint.hook import run_claude_code

        return run_claude_code(["--strict"] if args.strict else [])
    path = settings_path(args.scope, os.getcwd())
    try:
        folder = os.path.dirname(path)
        if args.scope != "user" and os.path.islink(folder):  # committed: may point anywhere
            raise SettingsError(f"{folder}: is a symlink; not changed")
        old = _read(path)
        data = _parse(old, path)
        unchanged = json.dumps(data)
        if args.hook_command == "install":
            install(data, args.events)
        else:
            uninstall(data)
        if json.dumps(data) == unchanged:
            print(f"memlint: {shown(path)} already {_done(args.hook_command)}")
            return 0
        new = dump(data, old)
        if args.dry_run:
            sys.stdout.write(_diff(old or "", new, path))
            return 0
        _write(path, old, new)
    except SettingsError as exc:
        print(f"memlint: error: {shown(str(exc))}", file=sys.stderr)
        return 2
    print(f"memlint: {shown(path)}: memlint's hooks {_done(args.hook_command)}")
    if args.hook_command == "install" and shutil.which("memlint") is None:
        print(
            "memlint: warning: `memlint` is not on PATH, so Claude Code cannot run the hook; "
            "install it with pipx or put its folder on PATH",
            file=sys.stderr,
        )
    return 0


def _done(command: str) -> str:
    return "installed" if command == "install" else "removed"


def _read(path: str) -> str | None:
    """The file's text, ``None`` when it does not exist (a symlink is refused)."""
    from memlint.writer import read_bytes

    try:
        raw = read_bytes(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = "is a symlink" if os.path.islink(path) else (exc.strerror or str(exc))
        raise SettingsError(f"{path}: {reason}; not changed") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SettingsError(f"{path}: not UTF-8; not changed") from None


def _parse(text: str | None, path: str) -> dict:
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SettingsError(f"{path}: not valid JSON ({exc}); not changed") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: not a JSON object; not changed")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict) or not all(isinstance(v, list) for v in hooks.values()):
        raise SettingsError(f"{path}: `hooks` is not an object of lists; not changed")
    return data


def is_memlint_hook(hook) -> bool:
    return isinstance(hook, dict) and COMMAND in str(hook.get("command", ""))


def install(data: dict, events: list[str]) -> None:
    """Add (or update in place) memlint's entry for each of ``events``."""
    hooks = data.setdefault("hooks", {})
    for name in events:
        event, matcher, command = EVENTS[name]
        groups = hooks.setdefault(event, [])
        ours = [
            hook
            for group in groups
            if isinstance(group, dict) and isinstance(group.get("hooks"), list)
            for hook in group["hooks"]
            if is_memlint_hook(hook)
        ]
        if ours:
            for hook in ours:
                hook["command"] = command
            continue
        group: dict[str, object] = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": command, "timeout": TIMEOUT}]
        groups.append(group)


def uninstall(data: dict) -> None:
    """Remove memlint's hooks; groups and events left empty by that go too."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event in list(hooks):
        groups = hooks[event]
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(is_memlint_hook(h) for h in inner):
                inner = [h for h in inner if not is_memlint_hook(h)]
                if not inner:
                    continue
                group["hooks"] = inner
            kept.append(group)
        if kept != groups:
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    if not hooks:
        del data["hooks"]


def _indent(text: str | None) -> int | str | None:
    """The indentation of the file's first indented line (2 for a new file, ``None`` when
    the whole object is on one line)."""
    if text is None or not text.strip():
        return 2
    if "\n" not in text.strip():
        return None
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return lead if "\t" in lead else len(lead)
    return 2


def dump(data: dict, old: str | None) -> str:
    text = json.dumps(data, indent=_indent(old), ensure_ascii=False)
    newline = "\r\n" if old and "\r\n" in old else "\n"
    if newline != "\n":
        text = text.replace("\n", newline)
    final = newline if old is None or not old.strip() or old.endswith(("\n", "\r")) else ""
    return text + final


def _diff(old: str, new: str, path: str) -> str:
    """The change as a unified diff, secrets masked (settings hold tokens in ``env``)."""
    import difflib

    from memlint.privacy import mask_text

    lines = difflib.unified_diff(
        mask_text(old).splitlines(keepends=True),
        mask_text(new).splitlines(keepends=True),
        fromfile=path,
        tofile=path,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _write(path: str, old: str | None, new: str) -> None:
    from memlint.writer import WriteError, create_file, replace_file

    data = new.encode("utf-8")
    try:
        if old is None:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            create_file(path, data, 0o644)
        else:
            mode = os.lstat(path).st_mode & 0o7777
            replace_file(path, data, old.encode("utf-8"), mode)
    except (WriteError, OSError) as exc:
        raise SettingsError(f"{path}: cannot write ({exc}); not changed") from None
