from memlint.cli import entry

entry()
