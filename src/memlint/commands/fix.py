"""``memlint check --fix | --diff | --fix-only``: fix, report, and pick the exit status.

With stdin, the fixed text goes to stdout and the report to stderr."""

from __future__ import annotations

import os
import shutil
import sys

from memlint import api, console
from memlint.config import ConfigError
from memlint.console import EXIT_ERROR, EXIT_FAIL, EXIT_INTERRUPTED, EXIT_OK
from memlint.textutil import plural

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse

    from memlint.config import SettingsTree


def run(args: argparse.Namespace, tree: SettingsTree, stdin: tuple[str, bytes] | None) -> int:
    from memlint.discovery import Discovery, UsageError
    from memlint.edits import diff_text
    from memlint.transaction import interrupted_text

    settings = tree.base
    try:
        outcome, report = api.fix(
            [p for p in args.paths if p != "-"],
            settings,
            unsafe=args.unsafe_fixes,
            write=not args.diff,
            stdin=stdin,
            settings_for=tree.settings_for,
        )
    except (UsageError, ConfigError) as exc:
        return console.error(str(exc))
    except KeyboardInterrupt as exc:
        console.say(f"interrupted; {interrupted_text(exc)}")
        return EXIT_INTERRUPTED
    barren = api.barren_paths(args.paths, report.roots, settings, tree.settings_for)
    if console.barren_paths(barren):
        return EXIT_ERROR
    notices = console.warn_unchecked(args, settings, outcome.notices)
    for message in [] if args.silent else outcome.warnings:
        console.say(f"warning: {message}")
    for message in outcome.errors:
        console.say(f"error: {message}")
    fixed = len(outcome.fixed)
    if stdin is not None and not args.diff:
        path = os.path.normpath(os.path.join(os.getcwd(), stdin[0]))
        new = next((c.new for c in outcome.changes if c.path == path), stdin[1])
        sys.stdout.flush()
        sys.stdout.buffer.write(new)
        finder = Discovery(settings, os.getcwd(), settings_for=tree.settings_for)
        if len(stdin[1]) > finder.cap_of(path):  # read to the cap: echo all
            shutil.copyfileobj(sys.stdin.buffer, sys.stdout.buffer, 1 << 20)
        sys.stdout.flush()
    report_stream = sys.stderr if stdin is not None else sys.stdout
    if args.diff:
        console.emit_report(args, diff_text(outcome.changes), report_stream)
        if fixed and not args.silent:
            print(f"Would fix {plural(fixed, 'problem')}.", file=sys.stderr)
    else:
        output = console.render_report(report, console.ReportOptions.from_args(args))
        console.emit_report(args, output, report_stream)
    if not report.roots and not args.quiet:
        console.no_store_found(notices)
    status = console.exit_status(report)
    if outcome.errors or status == EXIT_ERROR:
        return EXIT_ERROR
    if args.diff:
        return EXIT_FAIL if outcome.changes else EXIT_OK
    if args.exit_non_zero_on_fix and outcome.changes:
        return EXIT_FAIL
    if args.fix_only or args.exit_zero:
        return EXIT_OK
    return status
