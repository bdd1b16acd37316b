"""Command line: parse the arguments of ``memlint check [PATHS]`` (also bare
``memlint [PATHS]``), ``rule``, ``mv``, ``hook``, ``clean`` and ``server``, and hand
them to the command's module in :mod:`memlint.commands`. :mod:`memlint.console` says
what the exit statuses mean.
"""

from __future__ import annotations

import gc
import os
import sys

from memlint import __version__

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    import argparse

SUBCOMMANDS = ("check", "rule", "mv", "hook", "clean", "server")
OUTPUT_FORMATS = (
    "full",
    "concise",
    "json",
    "json-lines",
    "sarif",
    "github",
    "junit",
    "gitlab",
    "agent",
)
FAIL_ON_LEVELS = ("error", "warning", "info")
COLORS = ("auto", "always", "never")
EXIT_OK, EXIT_ERROR = 0, 2  # before a command runs; memlint.console owns the rest


def _codes(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``command`` one that parses only that subcommand:
    the others are listed (``memlint --help`` reads the same) but get no arguments."""
    parser = _parser_class()(
        prog="memlint",
        description="Lint and safely fix AI-agent memory stores.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command")
    check = sub.add_parser("check", help="lint memory stores (the default command)")
    if command in (None, "check"):
        _add_check_arguments(check)
    move = sub.add_parser("mv", help="rename a memory and update every reference to it")
    if command in (None, "mv"):
        _add_move_arguments(move)
    hook = sub.add_parser("hook", help="the Claude Code write-time gate")
    if command in (None, "hook"):
        from memlint.hook_install import add_hook_arguments

        add_hook_arguments(hook)
    clean = sub.add_parser("clean", help="remove the result cache")
    if command in (None, "clean"):
        clean.add_argument(
            "--cache-dir", help="the cache to remove (default: where check keeps it)"
        )
    server = sub.add_parser(
        "server", help="run the language server on stdio (needs the extra agent-memlint[lsp])"
    )
    if command in (None, "server"):
        server.add_argument("--stdio", action="store_true", help="accepted: stdio is the transport")
    rule = sub.add_parser("rule", help="explain a rule")
    if command in (None, "rule"):
        rule.add_argument("code", nargs="?", help="a rule code such as ID001")
        rule.add_argument("--all", action="store_true", help="explain every rule")
        rule.add_argument("--output-format", choices=("text", "json"), default="text")
    return parser


_PARSER_CLASS: type[argparse.ArgumentParser] | None = None


def _parser_class() -> type[argparse.ArgumentParser]:
    """argparse's parser, but it asks for the terminal's width only to print: adding
    an argument formats it once as a check, and the width is a system call each time
    (65 of them in building the parser)."""
    global _PARSER_CLASS
    if _PARSER_CLASS is not None:
        return _PARSER_CLASS
    import argparse  # not imported by the hook's fast path

    class Parser(argparse.ArgumentParser):
        _adding = False

        def add_argument(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            self._adding = True
            try:
                return super().add_argument(*args, **kwargs)
            finally:
                self._adding = False

        def add_subparsers(self, **kwargs):  # type: ignore[no-untyped-def]
            self._adding = True  # formats the usage once, for the subcommands' prog
            try:
                return super().add_subparsers(**kwargs)
            finally:
                self._adding = False

        def _get_formatter(self) -> argparse.HelpFormatter:
            if self._adding:  # a format not printed: its width does not matter
                return argparse.HelpFormatter(self.prog, width=80)
            return super()._get_formatter()

    _PARSER_CLASS = Parser
    return Parser


def _add_check_arguments(check: argparse.ArgumentParser) -> None:
    check.add_argument("paths", nargs="*", help="files or directories (default: .)")
    check.add_argument(
        "--output-format",
        choices=OUTPUT_FORMATS,
        default=os.environ.get("MEMLINT_OUTPUT_FORMAT") or "full",
    )
    check.add_argument("-o", "--output-file", help="write diagnostics to this file")
    check.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="with the path `-`: lint stdin as this file of its store",
    )
    # Repeated selection flags add up, as in ruff (``--select IX --select PV``).
    check.add_argument(
        "--select", type=_codes, action="extend", help="rule codes or prefixes to enable (or ALL)"
    )
    check.add_argument(
        "--extend-select", type=_codes, action="extend", default=[], help="enable these as well"
    )
    check.add_argument(
        "--ignore", type=_codes, action="extend", default=[], help="rule codes or prefixes to skip"
    )
    check.add_argument("-e", "--exit-zero", action="store_true", help="exit 0 despite findings")
    check.add_argument(
        "--fail-on",
        choices=FAIL_ON_LEVELS,
        help="lowest severity that makes the exit status 1 (default: error)",
    )
    check.add_argument(
        "--config", action="append", default=[], help="config file, or an inline 'KEY = VALUE'"
    )
    check.add_argument("--isolated", action="store_true", help="ignore all config files")
    _add_discovery_arguments(check)
    check.add_argument("--show-settings", action="store_true", help="print resolved settings")
    check.add_argument(
        "--show-files", action="store_true", help="print each store, its profile and why"
    )
    check.add_argument(
        "--show-loaded",
        action="store_true",
        help="print each index as the agent's loader sees it, and where it is cut",
    )
    check.add_argument("--statistics", action="store_true", help="count diagnostics per rule")
    check.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    check.add_argument(
        "-s",
        "--silent",
        action="store_true",
        help="print nothing but errors (the exit status still tells; -o files are written)",
    )
    check.add_argument("--color", choices=COLORS, default="auto")
    check.add_argument(
        "--base", metavar="REV", help="git revision whose note-store lines must be kept (NT016)"
    )
    check.add_argument(
        "--cache-dir",
        help="where to keep the result cache (default: the user's cache, ~/.cache/memlint)",
    )
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="processes that parse files (default 0: automatic, only for large stores)",
    )
    _add_fix_arguments(check)


def _add_move_arguments(move: argparse.ArgumentParser) -> None:
    move.add_argument("old", help="the memory's name or path")
    move.add_argument("new", help="the new path, or just the new stem")
    move.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    move.add_argument(
        "--config", action="append", default=[], help="config file, or an inline 'KEY = VALUE'"
    )
    move.add_argument("--isolated", action="store_true", help="ignore all config files")


def _add_discovery_arguments(check: argparse.ArgumentParser) -> None:
    """ruff's file selection options, and the two ways of naming stores without paths."""
    import argparse

    check.add_argument(
        "--exclude", type=_codes, metavar="PATTERNS", help="replace `exclude` (comma-separated)"
    )
    check.add_argument(
        "--extend-exclude", type=_codes, default=[], metavar="PATTERNS", help="add to `exclude`"
    )
    check.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        help="apply the excludes to paths named on the command line too (pre-commit)",
    )
    check.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        help="pass over what git ignores (the default)",
    )
    check.add_argument(
        "--staged",
        action="store_true",
        help="check every store that the staged git change touches, deletions included",
    )
    check.add_argument(
        "--auto-memory",
        action="store_true",
        help="check Claude Code's auto memory of this project (~/.claude/projects/…/memory)",
    )


def _add_fix_arguments(check: argparse.ArgumentParser) -> None:
    """ruff's fix flags: ``--fix`` applies safe fixes, ``--unsafe-fixes`` adds unsafe ones."""
    check.add_argument("--fix", action="store_true", default=False, help="apply safe fixes")
    check.add_argument("--no-fix", dest="fix", action="store_false", help="do not apply fixes")
    check.add_argument(
        "--unsafe-fixes",
        action="store_true",
        default=False,
        help="show unsafe fixes, and apply them with --fix",
    )
    check.add_argument("--no-unsafe-fixes", dest="unsafe_fixes", action="store_false")
    check.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff, write nothing"
    )
    check.add_argument("--show-fixes", action="store_true", help="list the fixes applied")
    check.add_argument(
        "--fix-only", action="store_true", help="apply fixes, do not report what remains"
    )
    check.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="exit 1 when a file was changed, even if nothing remains",
    )


def version_text() -> str:
    return f"memlint {__version__}"


def normalize_argv(argv: list[str]) -> list[str]:
    """Make bare ``memlint [OPTIONS] [PATHS]`` mean ``memlint check …``."""
    if not argv:
        return ["check"]
    first = argv[0]
    if first in SUBCOMMANDS or first in ("-h", "--help", "--version"):
        return argv
    return ["check", *argv]


# ``check``'s options as ``_add_check_arguments`` declares them, for ``plain_check_args``
# (a test compares the two): flags, with the value they store in their ``dest``.
CHECK_FLAGS = {
    "-e": ("exit_zero", True),
    "--exit-zero": ("exit_zero", True),
    "--isolated": ("isolated", True),
    "--force-exclude": ("force_exclude", True),
    "--no-force-exclude": ("force_exclude", False),
    "--respect-gitignore": ("respect_gitignore", True),
    "--no-respect-gitignore": ("respect_gitignore", False),
    "--staged": ("staged", True),
    "--auto-memory": ("auto_memory", True),
    "--show-settings": ("show_settings", True),
    "--show-files": ("show_files", True),
    "--show-loaded": ("show_loaded", True),
    "--statistics": ("statistics", True),
    "-q": ("quiet", True),
    "--quiet": ("quiet", True),
    "-s": ("silent", True),
    "--silent": ("silent", True),
    "--no-cache": ("no_cache", True),
    "--fix": ("fix", True),
    "--no-fix": ("fix", False),
    "--unsafe-fixes": ("unsafe_fixes", True),
    "--no-unsafe-fixes": ("unsafe_fixes", False),
    "--diff": ("diff", True),
    "--show-fixes": ("show_fixes", True),
    "--fix-only": ("fix_only", True),
    "--exit-non-zero-on-fix": ("exit_non_zero_on_fix", True),
}
# Options that take a value: ``dest``, how it is kept ("store", "extend" a list of
# codes, "append", "int", "codes": a list of codes, replaced) and the values allowed
# (``None``: any).
CHECK_VALUES = {
    "--output-format": ("output_format", "store", OUTPUT_FORMATS),
    "-o": ("output_file", "store", None),
    "--output-file": ("output_file", "store", None),
    "--stdin-filename": ("stdin_filename", "store", None),
    "--select": ("select", "extend", None),
    "--extend-select": ("extend_select", "extend", None),
    "--ignore": ("ignore", "extend", None),
    "--fail-on": ("fail_on", "store", FAIL_ON_LEVELS),
    "--config": ("config", "append", None),
    "--exclude": ("exclude", "codes", None),
    "--extend-exclude": ("extend_exclude", "codes", None),
    "--color": ("color", "store", COLORS),
    "--base": ("base", "store", None),
    "--cache-dir": ("cache_dir", "store", None),
    "--jobs": ("jobs", "int", None),
}


def check_defaults() -> dict[str, object]:
    """What argparse gives ``check``'s arguments that are not on the command line."""
    flags: dict[str, object] = {dest: False for dest, _ in CHECK_FLAGS.values()}
    flags.update(force_exclude=None, respect_gitignore=None)
    values: dict[str, object] = {dest: None for dest, _, _ in CHECK_VALUES.values()}
    values.update(
        output_format=os.environ.get("MEMLINT_OUTPUT_FORMAT") or "full",
        extend_select=[],
        ignore=[],
        config=[],
        extend_exclude=[],
        color="auto",
        jobs=0,
    )
    return {"command": "check", "paths": [], **flags, **values}


if TYPE_CHECKING:
    from argparse import Namespace as Arguments
else:

    class Arguments:
        """The parsed command line, as ``argparse.Namespace`` holds it (type checkers
        see that class)."""

        def __init__(self, **values: object) -> None:
            self.__dict__.update(values)


def plain_check_args(argv: list[str]) -> Arguments | None:
    """``memlint check …`` parsed without argparse (its import and the parser cost a
    10-file check a tenth of its time), or ``None``: then argparse parses ``argv``.
    Only what argparse reads one way is taken: options spelled out in full (``--opt
    VALUE``, ``--opt=VALUE``, ``-o VALUE``), values that do not start with ``-`` and
    are among the choices, and the paths in one run; anything else (help, errors,
    abbreviations, ``--``, ``-qe``) is argparse's, so its output is unchanged."""
    if argv[:1] != ["check"]:
        return None
    values = check_defaults()
    paths: list[str] = []
    paths_done = False
    at = 1
    while at < len(argv):
        token = argv[at]
        at += 1
        if token == "-" or not token.startswith("-"):
            if paths_done:
                return None  # argparse: "unrecognized arguments"
            paths.append(token)
            continue
        if paths:
            paths_done = True
        name, equals, value = token.partition("=")
        flag = CHECK_FLAGS.get(token)
        if flag is not None:
            values[flag[0]] = flag[1]
            continue
        kept = CHECK_VALUES.get(name)
        if kept is None or (equals and not name.startswith("--")):
            return None
        if not equals:
            if at == len(argv):
                return None
            value = argv[at]
            at += 1
        if value.startswith("-"):
            return None
        dest, how, choices = kept
        if choices is not None and value not in choices:
            return None
        if how in ("extend", "append"):
            listed = values[dest]
            added = _codes(value) if how == "extend" else [value]
            values[dest] = [*(listed if isinstance(listed, list) else ()), *added]
        elif how == "codes":
            values[dest] = _codes(value)
        elif how == "int":
            try:
                values[dest] = int(value)
            except ValueError:
                return None
        else:
            values[dest] = value
    values["paths"] = paths
    return Arguments(**values)


def main(argv: list[str] | None = None) -> int:
    argv = normalize_argv(list(sys.argv[1:] if argv is None else argv))
    if argv[:2] == ["hook", "claude-code"] and not {"-h", "--help"} & set(argv):
        from memlint.commands import hook  # before argparse: most events are not about memories

        return hook.run_event(argv[2:])
    from memlint import codecache

    codecache.install()  # memlint's other modules come from one file of their code
    args = plain_check_args(argv)
    if args is None:
        parser = build_parser(argv[0] if argv[0] in SUBCOMMANDS else None)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:
            return EXIT_ERROR if exc.code not in (0, None) else EXIT_OK
    try:
        os.getcwd()  # every command resolves paths and finds its cache from the working folder
    except OSError as exc:
        reason = exc.strerror
        print(f"memlint: error: the working folder cannot be read ({reason})", file=sys.stderr)
        return EXIT_ERROR
    if args.command == "mv":
        from memlint.commands import mv

        return mv.run(args)
    if args.command == "hook":
        from memlint.commands import hook

        return hook.run(args, parser)
    if args.command == "server":
        from memlint.commands import server

        return server.run(args)
    if args.command == "rule":
        from memlint.commands import rule

        return rule.run(args)
    if args.command == "clean":
        from memlint.commands import clean

        return clean.run(args)
    # A run builds one large, long-lived object graph and leaves next to no cyclic
    # garbage (under 600 unreachable objects at the end of any run measured, the
    # hostile corpus included): the cyclic collector would only rescan that graph,
    # 2.7 s of a 14 s pre-commit run on 100,000 files. It is off while checking, and
    # while importing what checks (8 collections, ~3.9 ms of a 10-file check). What
    # the run built then joins the oldest generation (freeze, unfreeze): left young,
    # it would all be scanned at the next allocation after ``enable``, ~100M
    # instructions (6%) of a pre-commit run on 10,000 files.
    gc.disable()
    try:
        if not args.no_cache:  # (a run without the cache is neither recorded nor replayed)
            from memlint.replay import replayed

            status = replayed(args)  # nothing changed since a run recorded this one's output
            if status is not None:
                return status
        from memlint.patterns import preload

        preload()  # compiled patterns, before the modules that check compile theirs
        from memlint.commands import check

        return check.run(args)
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def entry() -> None:
    """The ``memlint`` command: ``main``, then exit without freeing every object one
    by one (a large store is millions of them: at 10,000 files that teardown took
    0.37 s of a 4 s run). Output is flushed first; if a worker process is still
    alive, the interpreter exits normally and waits for it.

    When the reader of the output goes away (``memlint rule --all | head -1``),
    memlint stops quietly, as ruff does: no traceback, no "Exception ignored"."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with the descriptor closed (``>&-``)
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    status = None
    try:
        status = main()
        sys.stdout.flush()
        sys.stderr.flush()
        patterns = sys.modules.get("memlint.patterns")
        if patterns is not None:  # (imported by the commands that compile many)
            patterns.save()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):  # what is still buffered goes nowhere
            os.dup2(devnull, stream.fileno())
        status = status or EXIT_ERROR
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is not None and multiprocessing.active_children():
        sys.exit(status)
    os._exit(status)
