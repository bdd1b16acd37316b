"""``memlint hook``: the Claude Code hook itself (:mod:`memlint.hook`) and its
``install``/``uninstall`` (:mod:`memlint.hook_install`)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse


def run_event(argv: list[str]) -> int:
    """``memlint hook claude-code [--strict]``, reached before argparse: most events
    are not about memories, and they are answered without parsing the command line."""
    from memlint.hook import run_claude_code

    return run_claude_code(argv)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from memlint.hook_install import run_hook_command

    return run_hook_command(args, parser)
