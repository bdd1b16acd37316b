"""``memlint mv OLD NEW``: rename a memory and every reference to it (see
:mod:`memlint.rename`), or with ``--dry-run`` show the diff."""

from __future__ import annotations

import os
import sys

from memlint import console
from memlint.console import EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK
from memlint.textutil import plural, shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    from memlint import writer
    from memlint.config import ConfigError, resolve_settings
    from memlint.discovery import UsageError
    from memlint.edits import diff_text
    from memlint.rename import MoveError, commit_move, display_path, plan_move

    cwd = os.getcwd()
    try:
        tree = resolve_settings(tuple(args.config), args.isolated, on_skip=console.skipping)
        plan = plan_move(args.old, args.new, tree.base, cwd)
        display_target = display_path(plan.target, cwd)
        if args.dry_run:
            print(f"Would rename {shown(plan.memory.file.display)} -> {shown(display_target)}")
            sys.stdout.write(diff_text(plan.changes))
            return EXIT_OK
        commit_move(plan)
    except (MoveError, UsageError, ConfigError) as exc:
        return console.error(str(exc))
    except writer.WriteError as exc:
        console.say(f"error: {shown(exc.path)}: {shown(exc.reason)}")
        return EXIT_ERROR
    except KeyboardInterrupt:
        console.say("interrupted; every file was restored, nothing renamed")
        return EXIT_INTERRUPTED
    edited = sum(1 for change in plan.changes if change.path != plan.source)
    print(
        f"Renamed {shown(plan.memory.file.display)} -> {shown(display_target)}; "
        f"updated {plural(plan.references, 'reference')} in {plural(edited, 'other file')}."
    )
    return EXIT_OK
