"""``memlint clean``: remove the result cache (only a directory memlint tagged)."""

from __future__ import annotations

import os

from memlint import console
from memlint.console import EXIT_OK
from memlint.textutil import shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    from memlint.cachedir import cache_directory, remove_cache

    directory = cache_directory(args.cache_dir, os.getcwd())
    try:
        removed = remove_cache(directory)
    except OSError as exc:
        return console.error(str(exc))
    print(f"{'Removed' if removed else 'No cache at'} {shown(directory)}")
    return EXIT_OK
