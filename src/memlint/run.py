"""``memlint check``: settings, discovery, rules, rendering, exit status."""

from __future__ import annotations

import os
import sys
from collections import Counter

from memlint.cli import EXIT_ERROR, EXIT_FAIL, EXIT_OK
from memlint.config import ConfigError, Settings, find_config, load_settings, settings_from_mapping
from memlint.diagnostics import Applicability, Diagnostic, Severity, applicable
from memlint.textutil import escape, plural

STATISTICS_FORMATS = frozenset({"full", "concise", "json", "json-lines"})


def resolve_settings(args) -> Settings:
    """The settings of the working directory: see :func:`settings_tree`."""
    return settings_tree(args).base


def settings_tree(args) -> SettingsTree:
    """Settings per folder, as in ruff: the nearest config file at or above a folder
    (``.memlint.toml`` > ``memlint.toml`` > ``pyproject.toml``) with the command line's
    ``--config KEY=VALUE`` and options on top. ``--config FILE`` or ``--isolated`` gives
    every folder the same settings. A ``.memlint.toml`` that is another tool's
    configuration is passed over with one line on stderr."""
    inline: dict = {}
    config_file = None
    for value in args.config:
        if os.path.isfile(value):
            config_file = value
        elif "=" in value:
            import tomllib

            try:
                inline.update(tomllib.loads(value))
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"--config {value!r}: {exc}") from None
        else:
            raise ConfigError(f"--config {value!r}: no such file")
    inline_settings = settings_from_mapping(inline) if inline else None

    def settings_at(path: str | None, skipped: tuple[tuple[str, str], ...]) -> Settings:
        return _with_overrides(args, load_settings(path), path, inline_settings, skipped)

    if config_file is not None or args.isolated:
        return SettingsTree(settings_at(config_file, ()), None)
    return SettingsTree(None, settings_at)


class SettingsTree:
    """The settings that apply to each folder (``for_folder``), and those of the
    working directory (``base``)."""

    def __init__(self, base: Settings | None, settings_at) -> None:
        self.settings_at = settings_at
        self.by_config: dict[str | None, Settings] = {}
        self.reported: set[str] = set()
        self.base = base if base is not None else self.for_folder(os.getcwd())

    @property
    def hierarchical(self) -> bool:
        return self.settings_at is not None

    def for_folder(self, folder: str) -> Settings:
        if self.settings_at is None:
            return self.base
        skipped: list[tuple[str, str]] = []
        path = find_config(folder, skipped)
        for skipped_path, why in skipped:
            if skipped_path not in self.reported:
                self.reported.add(skipped_path)
                print(f"memlint: skipping {escape(skipped_path)}: {escape(why)}", file=sys.stderr)
        found = self.by_config.get(path)
        if found is None:
            found = self.by_config[path] = self.settings_at(path, tuple(skipped))
        return found


def _with_overrides(
    args, settings: Settings, config_file: str | None, inline: Settings | None, skipped
) -> Settings:
    """``settings`` (read from ``config_file``) under ``--config KEY=VALUE`` and the
    command line's options, recording where each setting came from."""
    defaults = Settings()
    origins = {
        key: config_file
        for key in _SHOWN_FIELDS
        if config_file and getattr(settings, key) != getattr(defaults, key)
    }
    if inline is not None:
        changed = {
            key: getattr(inline, key)
            for key in settings.__dataclass_fields__
            if getattr(inline, key) != getattr(defaults, key) and key != "config_dir"
        }
        settings = settings.with_overrides(**changed)
        origins.update(dict.fromkeys(changed, "--config"))
    overrides = {
        "select": tuple(args.select) if args.select is not None else None,
        "extend_select": (*settings.extend_select, *args.extend_select) or None,
        "ignore": (*settings.ignore, *args.ignore) or None,
        "fail_on": Severity.parse(args.fail_on) if args.fail_on else None,
        "base_rev": getattr(args, "base", None),
        "exclude": tuple(args.exclude) if getattr(args, "exclude", None) is not None else None,
        "extend_exclude": (*settings.extend_exclude, *getattr(args, "extend_exclude", ())) or None,
        "force_exclude": getattr(args, "force_exclude", None),
        "respect_gitignore": getattr(args, "respect_gitignore", None),
    }
    cli = {
        key: value
        for key, value in overrides.items()
        if value is not None and value != getattr(settings, key)
    }
    origins.update(dict.fromkeys(cli, "command line"))
    return settings.with_overrides(
        **overrides,
        origins=tuple(sorted(origins.items())),
        skipped_configs=tuple(skipped),
    )


def _check_selectors(settings: Settings) -> None:
    from memlint.rules import rule_names

    codes = rule_names()
    for selector in (
        *(settings.select or ()),
        *settings.extend_select,
        *settings.ignore,
        *(code for _, codes in settings.per_file_ignores for code in codes),
    ):
        if selector != "ALL" and not any(code.startswith(selector) for code in codes):
            raise ConfigError(f"unknown rule selector `{selector}`")


def run_check(args) -> int:
    from memlint.discovery import UsageError, discover
    from memlint.engine import CRASH_CODE, lint_store, selected_rules

    args.quiet = args.quiet or args.silent
    try:
        tree = settings_tree(args)
        settings = tree.base
        _check_selectors(settings)
        _check_report_options(args)
        if args.show_settings:
            print(_settings_for_paths(tree, args.paths))
            return EXIT_OK
    except ConfigError as exc:
        print(f"memlint: error: {escape(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    try:
        stdin = read_stdin(args, settings)
    except UsageError as exc:
        print(f"memlint: error: {escape(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    notices: list[str] = []
    fixing = (args.fix or args.diff or args.fix_only) and not (args.show_files or args.show_loaded)
    try:
        if fixing and args.staged:
            raise UsageError("--staged checks only; fix with the memlint-fix hook or name paths")
        paths, touched = _named_paths(args, notices)
    except UsageError as exc:
        print(f"memlint: error: {escape(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    if fixing and not (args.auto_memory and not paths):
        from memlint.fixer import run_fix

        args.paths = [*paths, *(["-"] if stdin else [])]  # with the auto memory folder
        settings_for = tree.for_folder if tree.hierarchical else None
        return run_fix(args, settings, selected_rules(settings), stdin, settings_for)
    caches = _result_caches(args, settings)
    try:
        if (args.staged or args.auto_memory) and not (paths or touched or stdin):
            report = sys.stdout if args.show_files else (None if args.quiet else sys.stderr)
            for notice in notices if report else ():
                print(f"{'' if args.show_files else 'memlint: '}{escape(notice)}", file=report)
            return EXIT_OK
        stores = discover(
            paths,
            settings,
            stdin=stdin,
            caches=caches,
            jobs=args.jobs,
            keep_raw=False,
            touched=touched,
            notices=notices,
            settings_for=tree.for_folder if tree.hierarchical else None,
        )
        for store in stores:
            if store.settings is not None:
                _check_selectors(store.settings)
    except (UsageError, ConfigError) as exc:
        print(f"memlint: error: {escape(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    settings_for = tree.for_folder if tree.hierarchical else None
    if report_barren_paths(args.paths, stores, settings, settings_for):
        for notice in notices:
            print(f"memlint: {escape(notice)}", file=sys.stderr)
        return EXIT_ERROR
    if args.show_files:
        sys.stdout.write(files_text(stores, notices))
        return EXIT_OK
    if args.show_loaded:
        from memlint.budget import loaded_text

        sys.stdout.write(loaded_text(stores, settings))
        return EXIT_OK
    rules = None  # selected (importing every rule) only when some store is not memoized
    own_rules: dict[int, list] = {}  # for stores with a config file of their own
    diagnostics: list[Diagnostic] = []
    failing = False
    for store in stores:
        cache = caches.for_store(store.root) if caches is not None else None
        store_settings = store.settings or settings
        if store.settings is not None:
            found = own_rules.get(id(store.settings))
            if found is None and store.memo is None:
                found = own_rules[id(store.settings)] = selected_rules(store.settings)
        else:
            if store.memo is None and rules is None:
                rules = selected_rules(settings)
            found = rules
        store_diagnostics = lint_store(store, store_settings, found or [], cache, args.jobs)
        failing = failing or any(d.severity >= store_settings.fail_on for d in store_diagnostics)
        diagnostics.extend(store_diagnostics)
        if cache is not None:
            cache.forget_missing(store)
    if caches is not None:
        caches.save()
    diagnostics.sort(key=Diagnostic.sort_key)
    emit_report(args, report_text(args, settings, diagnostics, stores, rules))
    if not stores and not args.quiet:
        print("memlint: no memory store found (a folder with MEMORY.md)", file=sys.stderr)
        for notice in notices:
            print(f"memlint: {escape(notice)}", file=sys.stderr)
    if any(d.code == CRASH_CODE for d in diagnostics):
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FAIL if failing else EXIT_OK


def report_barren_paths(paths: list[str], stores, settings: Settings, settings_for=None) -> bool:
    """Print an error for each folder named on the command line that yields no store
    (a link to a folder is never followed, so it yields none); whether there was one.
    Files are left alone: pre-commit names every changed Markdown file, memories or not;
    so are folders that ``--force-exclude`` passed over (``--show-files`` says so)."""
    from memlint.discovery import Pruner

    cwd = os.getcwd()
    roots = [store.root for store in stores]
    pruner = Pruner(settings, settings_for) if settings.force_exclude else None
    barren = False
    for raw in paths:
        path = os.path.normpath(os.path.join(cwd, raw))
        if raw == "-" or not os.path.isdir(path):
            continue
        if pruner is not None and pruner.why(path, True) is not None:
            continue
        if os.path.islink(path):
            reason = "is a symbolic link, which memlint never follows; name the folder itself"
        elif any(_nested(root, path) or _nested(path, root) for root in roots):
            continue
        else:
            reason = "holds no memory store (a folder with MEMORY.md, memory files or notes)"
        print(f"memlint: error: {escape(raw)}: {reason}", file=sys.stderr)
        barren = True
    return barren


def _nested(inner: str, outer: str) -> bool:
    return inner == outer or inner.startswith(outer.rstrip(os.sep) + os.sep)


def _check_report_options(args) -> None:
    if args.statistics and args.output_format not in STATISTICS_FORMATS:
        raise ConfigError(
            f"--statistics writes the formats {', '.join(sorted(STATISTICS_FORMATS))}, "
            f"not {args.output_format}"
        )


def report_text(args, settings: Settings, diagnostics, stores, rules, *, fixed=None) -> str:
    """The report of a run in ``args.output_format``: the one function through which
    ``check`` and ``check --fix`` build their output. ``fixed`` lists what a fix run
    fixed (``None`` for a plain check); ``rules`` may be ``None`` (selected on demand)."""
    from memlint.output import TEXT_FORMATS, RenderContext, render

    text_format = args.output_format in TEXT_FORMATS
    output = ""
    if not args.fix_only:
        if args.statistics:
            output = statistics_text(diagnostics, args.output_format)
        else:
            ctx = RenderContext(
                cwd=os.getcwd(),
                sources={s.path: s for store in stores for s in (*store.files, *store.notes)},
                color=_use_color(args),
                show_fixes=args.show_fixes,
                unsafe_fixes=args.unsafe_fixes,
                rule_codes=_listed_rules(args.output_format, rules, settings),
                stdin_filename=args.stdin_filename if "-" in args.paths else None,
            )
            output = render(args.output_format, diagnostics, ctx)
    if text_format and args.show_fixes and fixed is not None:
        from memlint.fixer import show_fixes_text

        output += show_fixes_text(fixed)
    if text_format and not args.quiet:
        if args.fix_only:
            output += f"Fixed {plural(len(fixed or ()), 'problem')}.\n"
        elif not args.statistics:
            output += summary_text(
                diagnostics, stores, fixed=len(fixed or ()), unsafe_fixes=args.unsafe_fixes
            )
    return output


def emit_report(args, output: str, stream=None) -> None:
    """Write the report; ``-s`` prints nothing (a file asked for with ``-o`` is still written)."""
    if args.silent and not args.output_file:
        return
    _emit(output, args.output_file, stream)


def _named_paths(args, notices: list[str]) -> tuple[list[str], tuple[str, ...]]:
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


def _listed_rules(output_format: str, rules, settings: Settings) -> tuple[str, ...]:
    """The selected rules' codes, for the formats that list them (SARIF)."""
    from memlint.engine import selected_rules
    from memlint.output import LISTS_RULES

    if output_format not in LISTS_RULES:
        return ()
    return tuple(rule.code for rule in rules or selected_rules(settings))


def read_stdin(args, settings: Settings) -> tuple[str, bytes] | None:
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
        data = sys.stdin.buffer.read(settings.max_file_size + 1)
    except OSError as exc:
        raise UsageError(f"cannot read stdin: {exc.strerror or exc}") from None
    return args.stdin_filename, data


def _result_caches(args, settings: Settings):
    """The run's result cache, or ``None`` with ``--no-cache``."""
    if args.no_cache:
        return None
    from memlint.cache import open_caches

    return open_caches(args.cache_dir, settings, os.getcwd())


class OutputError(Exception):
    """The report could not be written where ``-o`` asked."""


def _emit(output: str, output_file: str | None, stream=None) -> None:
    """Write ``output`` to ``output_file``, else to ``stream`` (default stdout)."""
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8", newline="") as handle:
                handle.write(output)
        except OSError as exc:
            raise OutputError(f"cannot write {output_file}: {exc.strerror or exc}") from None
    else:
        (stream or sys.stdout).write(output)


def _use_color(args) -> bool:
    """``--color``, then ``NO_COLOR``, then ``FORCE_COLOR`` (non-empty), then a terminal."""
    if args.color == "always":
        return True
    if args.color == "never" or args.output_file or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def summary_text(
    diagnostics: list[Diagnostic], stores, *, fixed: int = 0, unsafe_fixes: bool = False
) -> str:
    """ruff's summary: totals, ``(N fixed, M remaining)`` after fixing, and fix hints."""
    if not diagnostics and not fixed:
        return f"All checks passed ({plural(len(stores), 'store')}).\n"
    total = plural(len(diagnostics) + fixed, "problem")
    if fixed:
        lines = [f"Found {total} ({fixed} fixed, {len(diagnostics)} remaining)."]
    else:
        counts = Counter(d.severity for d in diagnostics)
        parts = [plural(counts[s], s.label) for s in reversed(Severity) if counts[s]]
        lines = [f"Found {total} ({', '.join(parts)})."]
    fixable = sum(1 for d in diagnostics if applicable(d.fix, unsafe_fixes))
    unsafe = Applicability.UNSAFE
    hidden = (
        0
        if unsafe_fixes
        else sum(1 for d in diagnostics if d.fix and d.fix.applicability is unsafe)
    )
    hint = f"{plural(hidden, 'hidden fix')} can be enabled with the `--unsafe-fixes` option"
    if fixable:
        option = "`--fix --unsafe-fixes`" if unsafe_fixes else "`--fix`"
        lines.append(
            f"[*] {fixable} fixable with the {option} option" + (f" ({hint})." if hidden else ".")
        )
    elif hidden:
        lines.append(f"No fixes available ({hint}).")
    return "\n".join(lines) + "\n"


def statistics_text(diagnostics: list[Diagnostic], output_format: str = "full") -> str:
    """Counts per rule: a table, or ruff's JSON (``code``, ``name``, ``count``, ``fixable``)."""
    from memlint.rules import rule_title

    counts = Counter(d.code for d in diagnostics)
    fixable = {d.code for d in diagnostics if d.fix and d.fix.applicability is Applicability.SAFE}
    if output_format in ("json", "json-lines"):
        import json

        rows = [
            {"code": code, "name": rule_title(code), "count": count, "fixable": code in fixable}
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
        if output_format == "json":
            return json.dumps(rows, indent=2, ensure_ascii=True) + "\n"
        return "".join(json.dumps(row, ensure_ascii=True) + "\n" for row in rows)
    width = max((len(str(n)) for n in counts.values()), default=1)
    lines = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        name = rule_title(code)
        marker = "[*] " if code in fixable else ""
        lines.append(f"{count:>{width}}\t{code}\t{marker}{name}")
    return "\n".join(lines) + ("\n" if lines else "")


def files_text(stores, notices: list[str] = ()) -> str:
    """Each store, why it is one, its profile and files, and what was passed over."""
    out = []
    for store in stores:
        out.append(
            f"{escape(store.display_root)}: profile {store.profile} "
            f"({escape(store.profile_reason)}); store because it {escape(store.reason)}\n"
        )
        if store.index is not None:
            out.append(f"  index   {escape(store.index.file.display)}\n")
        for memory in store.memories:
            out.append(f"  memory  {escape(memory.file.display)}\n")
        for source in store.files:
            if source.text is None:
                out.append(f"  unread  {escape(source.display)}\n")
        for source in store.notes:
            out.append(f"  notes   {escape(source.display)}\n")
        for rel in store.excluded:
            out.append(f"  excluded {escape(rel)}\n")
        for skipped in store.skipped:
            out.append(f"  skipped {escape(skipped.display)} ({escape(skipped.detail)})\n")
        for display, why in store.other_jsonl:
            out.append(
                f"  jsonl   {escape(display)} (not a note store: {escape(why)}; checked for "
                "privacy and encoding only; list it in `notes` to lint it as one)\n"
            )
    out.extend(f"{escape(notice)}\n" for notice in notices)
    return "".join(out)


_SHOWN_FIELDS = tuple(
    key
    for key in Settings.__dataclass_fields__
    if key not in ("config_path", "config_dir", "origins", "skipped_configs")
)


def _settings_for_paths(tree: SettingsTree, paths: list[str]) -> str:
    """``--show-settings``: the settings of the working directory, or those that apply
    to each path given (its folder's nearest config file)."""
    named = [p for p in paths if p != "-"]
    if not named:
        return settings_text(tree.base)
    texts = []
    for raw in named:
        path = os.path.abspath(raw)
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        texts.append(f"Settings for {escape(raw)}\n" + settings_text(tree.for_folder(folder)))
    return "\n\n".join(texts)


def settings_text(settings: Settings) -> str:
    """Every setting, with the file (or option) it came from, and the files passed over."""
    origins = dict(settings.origins)
    lines = [f"Settings path: {escape(settings.config_path or '(none)')}"]
    lines.extend(
        f"Skipped: {escape(path)} ({escape(why)})" for path, why in settings.skipped_configs
    )
    for key in _SHOWN_FIELDS:
        origin = origins.get(key, "default")
        lines.append(f"{key} = {getattr(settings, key)!r}  # {escape(origin)}")
    return "\n".join(lines)
