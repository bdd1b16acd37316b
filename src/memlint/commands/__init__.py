"""One module per command, each with ``run(args) -> int`` (the exit status):
``check``, ``fix`` (``check --fix``/``--diff``/``--fix-only``), ``mv``, ``rule``,
``hook``, ``clean`` and ``server``. :mod:`memlint.cli` parses the arguments and
dispatches here; :mod:`memlint.console` shows the results."""
