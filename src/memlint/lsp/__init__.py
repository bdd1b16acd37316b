"""``memlint server``: a language server (stdio) on pygls, the optional extra ``[lsp]``.

:mod:`memlint.lsp.model` lints and navigates stores with unsaved buffers (no pygls);
:mod:`memlint.lsp.server` speaks the protocol. The core never imports either.
"""

from __future__ import annotations

import importlib.util
import sys

MISSING_EXTRA = (
    "memlint: error: `memlint server` needs the optional extra: "
    "pip install 'agent-memlint[lsp]' (pygls and lsprotocol are not installed)"
)


def run_server_command(args) -> int:
    """Serve over stdio until the client says exit; exit 2 without the extra."""
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        print(MISSING_EXTRA, file=sys.stderr)
        return 2
    from memlint.lsp.server import serve

    return serve()
