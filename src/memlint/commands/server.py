"""``memlint server``: the language server on stdio (:mod:`memlint.lsp`)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse


def run(args: argparse.Namespace) -> int:
    from memlint.lsp import run_server_command

    return run_server_command(args)
