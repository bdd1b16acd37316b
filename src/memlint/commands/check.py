"""``memlint check``: settings, discovery, rules, the report and the exit status."""

from __future__ import annotations

import os
import sys

from memlint import api, console
from memlint.config import ConfigError, Overrides, resolve_settings, validate_selectors
from memlint.console import EXIT_ERROR, EXIT_OK
from memlint.diagnostics import Severity
from memlint.textutil import shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse

    from memlint.config import Settings, SettingsTree
    from memlint.replay import Recording


def settings_of(args: argparse.Namespace) -> SettingsTree:
    """The settings per folder that the command line's options ask for."""
    overrides = Overrides(
        select=tuple(args.select) if args.select is not None else None,
        extend_select=tuple(args.extend_select),
        ignore=tuple(args.ignore),
        fail_on=Severity.parse(args.fail_on) if args.fail_on else None,
        base_rev=args.base,
        exclude=tuple(args.exclude) if args.exclude is not None else None,
        extend_exclude=tuple(args.extend_exclude),
        force_exclude=args.force_exclude,
        respect_gitignore=args.respect_gitignore,
    )
    return resolve_settings(tuple(args.config), args.isolated, overrides, on_skip=console.skipping)


def run(args: argparse.Namespace) -> int:
    if args.no_cache:  # a run without the cache is not recorded (memlint.replay)
        return _recorded(args, None)
    from memlint.replay import recording

    with recording(args) as record:
        return _recorded(args, record)


def _recorded(args: argparse.Namespace, record: Recording | None) -> int:
    try:
        status = check(args, record)
    except console.OutputError as exc:
        return console.error(str(exc))
    if record is not None:
        record.finish(status)
    return status


def check(args: argparse.Namespace, record: Recording | None = None) -> int:
    """The run ``args`` asks for; ``record``: the recording of its output, if any."""
    from memlint.discovery import UsageError

    args.quiet = args.quiet or args.silent
    try:
        tree = settings_of(args)
        settings = tree.base
        validate_selectors(settings)
        console.check_report_options(console.ReportOptions.from_args(args))
        if args.show_settings:
            print(console.settings_for_paths_text(tree, args.paths))
            return EXIT_OK
    except ConfigError as exc:
        return console.error(str(exc))
    try:
        stdin = read_stdin(args, tree)
    except UsageError as exc:
        return console.error(str(exc))
    notices: list[str] = []
    fixing = (args.fix or args.diff or args.fix_only) and not (args.show_files or args.show_loaded)
    try:
        if fixing and args.staged:
            raise UsageError("--staged checks only; fix with the memlint-fix hook or name paths")
        paths, touched = named_paths(args, notices)
    except UsageError as exc:
        return console.error(str(exc))
    if fixing and not (args.auto_memory and not paths):
        from memlint.commands import fix

        args.paths = [*paths, *(["-"] if stdin else [])]  # with the auto memory folder
        return fix.run(args, tree, stdin)
    caches = result_caches(args, settings)
    if caches is not None and record is not None:
        caches.released = {}  # what the record needs of each store's cache
    try:
        if (args.staged or args.auto_memory) and not (paths or touched or stdin):
            report = sys.stdout if args.show_files else (None if args.quiet else sys.stderr)
            for notice in notices if report else ():
                print(f"{'' if args.show_files else 'memlint: '}{shown(notice)}", file=report)
            return EXIT_OK
        if args.show_files or args.show_loaded:
            return show_stores(args, paths, tree, stdin, caches, touched, notices)
        report = api.check(paths, settings, **inputs(args, tree, stdin, caches, touched, notices))
    except (UsageError, ConfigError) as exc:
        return console.error(str(exc))
    barren = api.barren_paths(args.paths, report.roots, settings, tree.settings_for)
    if console.barren_paths(barren):
        for notice in notices:
            console.say(shown(notice))
        return EXIT_ERROR
    notices = console.warn_unchecked(args, settings, notices)
    options = console.ReportOptions.from_args(args)
    lines = caches.shown_lines() if caches is not None and options.output_format == "full" else None
    output = console.render_report(report, options, lines)
    if lines is not None:
        lines.save()
    console.emit_report(args, output)
    if not report.roots and not args.quiet:
        console.no_store_found(notices)
    if record is not None:
        record.seen(report.roots, caches)
    return console.exit_status(report, args.exit_zero)


def inputs(args, tree, stdin, caches, touched, notices) -> dict:
    """What ``api.check`` and ``api.load`` take besides the paths and the settings."""
    return {
        "settings_for": tree.settings_for,
        "stdin": stdin,
        "caches": caches,
        "jobs": args.jobs,
        "touched": touched,
        "notices": notices,
    }


def show_stores(args, paths, tree, stdin, caches, touched, notices) -> int:
    """``--show-files`` or ``--show-loaded``: what the stores under ``paths`` hold."""
    settings = tree.base
    stores = api.load(paths, settings, **inputs(args, tree, stdin, caches, touched, notices))
    roots = [store.root for store in stores]
    if console.barren_paths(api.barren_paths(args.paths, roots, settings, tree.settings_for)):
        for notice in notices:
            console.say(shown(notice))
        return EXIT_ERROR
    if args.show_files:
        sys.stdout.write(console.files_text(stores, notices))
        return EXIT_OK
    from memlint.budget import loaded_text

    sys.stdout.write(loaded_text(stores, settings))
    return EXIT_OK


def named_paths(args: argparse.Namespace, notices: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """The paths to check (from the command line, and Claude Code's auto memory folder
    with ``--auto-memory``) and the paths the staged change touched (``--staged``)."""
    from memlint.discovery import UsageError

    paths = [p for p in args.paths if p != "-"]
    touched: tuple[str, ...] = ()
    if args.staged:
        from memlint.gitbase import GitUnavailable, staged_changes

        try:
            changed, gone = staged_changes(os.getcwd())
        except GitUnavailable as exc:
            raise UsageError(f"--staged: {exc}") from None
        touched = (*changed, *gone)
        if not touched:
            notices.append("--staged: nothing is staged")
    if args.auto_memory:
        from memlint.discovery import auto_memory_candidates

        found = None
        for candidate in auto_memory_candidates(os.getcwd()):
            exists = os.path.isdir(candidate) and not os.path.islink(candidate)
            notices.append(
                f"auto memory: looked in {candidate} ({'found' if exists else 'not there'})"
            )
            if exists:
                found = candidate
                break
        if found is not None:
            paths.append(found)
    return paths, touched


def stdin_cap(args: argparse.Namespace, tree: SettingsTree) -> int:
    """The size cap of the file ``--stdin-filename`` names: its store's, as a read's."""
    from memlint.discovery import Discovery

    finder = Discovery(tree.base, os.getcwd(), settings_for=tree.settings_for)
    return finder.cap_of(os.path.abspath(args.stdin_filename))


def read_stdin(args: argparse.Namespace, tree: SettingsTree) -> tuple[str, bytes] | None:
    """``(filename, bytes)`` when the path ``-`` asks to lint stdin, else ``None``."""
    from memlint.discovery import UsageError

    if "-" not in args.paths:
        if args.stdin_filename:
            raise UsageError("--stdin-filename needs the path `-` (read stdin)")
        return None
    if not args.stdin_filename:
        raise UsageError("reading stdin (`-`) needs --stdin-filename PATH inside a store")
    if sys.stdin is None:
        raise UsageError("stdin is closed; nothing to read for `-`")
    try:
        data = sys.stdin.buffer.read(stdin_cap(args, tree) + 1)
    except OSError as exc:
        raise UsageError(f"cannot read stdin: {exc.strerror or exc}") from None
    return args.stdin_filename, data


def result_caches(args: argparse.Namespace, settings: Settings):
    """The run's result cache, or ``None`` with ``--no-cache``."""
    if args.no_cache:
        return None
    from memlint.cache import open_caches

    return open_caches(args.cache_dir, settings, os.getcwd())
