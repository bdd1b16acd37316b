"""What a command shows and returns: the report (:func:`render_report`, the one way
every command renders a :class:`~memlint.api.Report`), colour, summaries, statistics,
the ``--show-*`` listings, messages on stderr and the exit status.

Exit status: 0 clean, 1 when a diagnostic at or above ``--fail-on`` remains,
2 for usage or configuration errors and when a rule crashed, 130 on Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

from memlint.diagnostics import Applicability, Diagnostic, Severity, applicable
from memlint.records import dataclass
from memlint.textutil import plural, shown

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from typing import TextIO

    from memlint.api import Report
    from memlint.config import Settings, SettingsTree

EXIT_OK, EXIT_FAIL, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
STATISTICS_FORMATS = frozenset({"full", "concise", "json", "json-lines"})


class OutputError(Exception):
    """The report could not be written where ``-o`` asked."""


def error(message: str) -> int:
    """Print ``memlint: error: MESSAGE`` (masked, escaped) on stderr; the exit status of errors."""
    print(f"memlint: error: {shown(message)}", file=sys.stderr)
    return EXIT_ERROR


def say(text: str) -> None:
    """Print ``memlint: TEXT`` on stderr (the caller passes what it names through ``shown``)."""
    print(f"memlint: {text}", file=sys.stderr)


def skipping(path: str, why: str) -> None:
    """A config file passed over (another tool's ``.memlint.toml``)."""
    say(f"skipping {shown(path)}: {shown(why)}")


@dataclass(frozen=True)
class ReportOptions:
    """How a report is shown: the ``--output-format`` and the options that shape it."""

    output_format: str = "full"
    statistics: bool = False
    show_fixes: bool = False
    unsafe_fixes: bool = False
    quiet: bool = False
    fix_only: bool = False
    color: bool = False
    stdin_filename: str | None = None  # the file stdin was linted as

    @classmethod
    def from_args(cls, args) -> ReportOptions:
        """The options of ``memlint check``'s parsed command line."""
        return cls(
            output_format=args.output_format,
            statistics=args.statistics,
            show_fixes=args.show_fixes,
            unsafe_fixes=args.unsafe_fixes,
            quiet=args.quiet,
            fix_only=args.fix_only,
            color=use_color(args.color, args.output_file),
            stdin_filename=args.stdin_filename if "-" in args.paths else None,
        )


def check_report_options(options: ReportOptions) -> None:
    from memlint.config import ConfigError

    if options.statistics and options.output_format not in STATISTICS_FORMATS:
        raise ConfigError(
            f"--statistics writes the formats {', '.join(sorted(STATISTICS_FORMATS))}, "
            f"not {options.output_format}"
        )


def render_report(report: Report, options: ReportOptions, lines=None) -> str:
    """``report`` in ``options.output_format``: the one function through which ``check``
    and ``check --fix`` build their output, so the two cannot drift; ``lines``: the
    lines shown before (``cache.ShownLines``)."""
    from memlint.output import TEXT_FORMATS, RenderContext, render

    text_format = options.output_format in TEXT_FORMATS
    diagnostics = report.diagnostics
    output = ""
    if not options.fix_only:
        if options.statistics:
            output = statistics_text(diagnostics, options.output_format)
        else:
            from memlint.output import LISTS_RULES

            listed = options.output_format in LISTS_RULES
            ctx = RenderContext(
                cwd=os.getcwd(),
                sources=report.sources,
                color=options.color,
                show_fixes=options.show_fixes,
                unsafe_fixes=options.unsafe_fixes,
                rule_codes=report.listed_rules() if listed else (),
                stdin_filename=options.stdin_filename,
                lines=lines,
            )
            output = render(options.output_format, diagnostics, ctx)
    fixed = report.fixed
    if text_format and options.show_fixes and fixed is not None:
        output += show_fixes_text(fixed)
    if text_format and not options.quiet:
        if options.fix_only:
            output += f"Fixed {plural(len(fixed or ()), 'problem')}.\n"
        elif not options.statistics:
            output += summary_text(
                diagnostics,
                report.roots,
                fixed=len(fixed or ()),
                unsafe_fixes=options.unsafe_fixes,
            )
    return output


def barren_paths(barren: list[tuple[str, str]]) -> bool:
    """Print an error for each folder named that holds no store; whether there was one."""
    for raw, reason in barren:
        say(f"error: {shown(raw)}: {reason}")
    return bool(barren)


def exit_status(report: Report, exit_zero: bool = False) -> int:
    """2 when a rule crashed, else 1 when a diagnostic reaches its ``fail-on`` (0 with
    ``exit_zero``)."""
    from memlint.engine import CRASH_CODE

    if any(d.code == CRASH_CODE for d in report.diagnostics):
        return EXIT_ERROR
    if exit_zero:
        return EXIT_OK
    return EXIT_FAIL if report.failing else EXIT_OK


def emit_report(args, output: str, stream: TextIO | None = None) -> None:
    """Write the report; ``-s`` prints nothing (a file asked for with ``-o`` is still written)."""
    if args.silent and not args.output_file:
        return
    emit(output, args.output_file, stream)


def emit(output: str, output_file: str | None, stream: TextIO | None = None) -> None:
    """Write ``output`` to ``output_file``, else to ``stream`` (default stdout)."""
    if output_file:
        try:
            with open(output_file, "w", encoding="utf-8", newline="") as handle:
                handle.write(output)
        except OSError as exc:
            raise OutputError(f"cannot write {output_file}: {exc.strerror or exc}") from None
    else:
        (stream or sys.stdout).write(output)


def use_color(color: str, output_file: str | None) -> bool:
    """``--color``, then ``NO_COLOR``, then ``FORCE_COLOR`` (non-empty), then a terminal."""
    if color == "always":
        return True
    if color == "never" or output_file or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def summary_text(
    diagnostics: list[Diagnostic], roots, *, fixed: int = 0, unsafe_fixes: bool = False
) -> str:
    """ruff's summary: totals, ``(N fixed, M remaining)`` after fixing, and fix hints."""
    if not diagnostics and not fixed:
        return f"All checks passed ({plural(len(roots), 'store')}).\n"
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


def show_fixes_text(fixed: list[Diagnostic]) -> str:
    """ruff's ``--show-fixes`` listing: per file changed, how many of each rule were fixed."""
    if not fixed:
        return ""
    import posixpath

    from memlint.rules import rule_title

    def display_of(path: str, diagnostic: Diagnostic) -> str:
        """How ``path`` (a file a fix edits) is shown, in the style of the diagnostic's."""
        if path == diagnostic.path:
            return diagnostic.display_path
        rel = os.path.relpath(path, os.path.dirname(diagnostic.path)).replace(os.sep, "/")
        folder = posixpath.dirname(diagnostic.display_path)
        return posixpath.normpath(posixpath.join(folder, rel))

    per_file: dict[str, Counter] = {}
    for diagnostic in fixed:
        edits = diagnostic.fix.edits if diagnostic.fix else ()
        for path in dict.fromkeys(edit.path for edit in edits):
            per_file.setdefault(display_of(path, diagnostic), Counter())[diagnostic.code] += 1
    lines = [f"Fixed {plural(len(fixed), 'problem')}:"]
    for display, counts in sorted(per_file.items()):
        lines.append(f"- {shown(display)}:")
        for code, count in sorted(counts.items()):
            name = rule_title(code)
            lines.append(f"    {count} × {code} ({name})" if name else f"    {count} × {code}")
    return "\n".join(lines) + "\n"


def files_text(stores, notices: list[str] | tuple[str, ...] = ()) -> str:
    """Each store, why it is one, its profile and files, and what was passed over."""
    out = []
    for store in stores:
        out.append(
            f"{shown(store.display_root)}: profile {store.profile} "
            f"({shown(store.profile_reason)}); store because it {shown(store.reason)}\n"
        )
        if store.index is not None:
            out.append(f"  index   {shown(store.index.file.display)}\n")
        for memory in store.memories:
            out.append(f"  memory  {shown(memory.file.display)}\n")
        for source in store.files:
            if source.text is None:
                out.append(f"  unread  {shown(source.display)}\n")
        for source in store.notes:
            out.append(f"  notes   {shown(source.display)}\n")
        for rel in store.excluded:
            out.append(f"  excluded {shown(rel)}\n")
        for skipped in store.skipped:
            out.append(f"  skipped {shown(skipped.display)} ({shown(skipped.detail)})\n")
        for display, why in store.other_jsonl:
            out.append(
                f"  jsonl   {shown(display)} (not a note store: {shown(why)}; checked for "
                "privacy and encoding only; list it in `notes` to lint it as one)\n"
            )
    out.extend(f"{shown(notice)}\n" for notice in notices)
    return "".join(out)


def warn_unchecked(args, settings: Settings, notices: list[str]) -> list[str]:
    """Warn on stderr of each named file its store does not check (as ruff warns, with
    and without ``--fix``); the other notices. The hooks pass --force-exclude: silence."""
    from memlint.discovery import NOT_CHECKED

    if args.quiet or args.staged or settings.force_exclude:
        return notices
    unchecked = [notice for notice in notices if NOT_CHECKED in notice]
    for notice in unchecked:
        say(f"warning: {shown(notice)}")
    return [notice for notice in notices if notice not in unchecked]


def no_store_found(notices: list[str]) -> None:
    """Say on stderr that no store was found, and what was passed over and why."""
    say("no memory store found (a folder with MEMORY.md)")
    for notice in notices:
        say(shown(notice))


def settings_for_paths_text(tree: SettingsTree, paths: list[str]) -> str:
    """``--show-settings``: the settings of the working directory, or those that apply
    to each path given: its store's (the nearest config file of the store's root, as
    ``check`` lints it), else its folder's."""
    from memlint.discovery import Discovery

    named = [p for p in paths if p != "-"]
    if not named:
        return settings_text(tree.base)
    finder = Discovery(tree.base, os.getcwd(), settings_for=tree.settings_for)
    texts = []
    for raw in named:
        path = os.path.abspath(raw)
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        root = finder.store_of(folder)
        if root is not None and root.holds(path if folder != path else path + os.sep):
            folder = root.path
        texts.append(f"Settings for {shown(raw)}\n" + settings_text(tree.for_folder(folder)))
    return "\n\n".join(texts)


def settings_text(settings: Settings) -> str:
    """Every setting, with the file (or option) it came from, and the files passed over."""
    from memlint.config import SHOWN_FIELDS

    origins = dict(settings.origins)
    lines = [f"Settings path: {shown(settings.config_path or '(none)')}"]
    lines.extend(f"Skipped: {shown(path)} ({shown(why)})" for path, why in settings.skipped_configs)
    for key in SHOWN_FIELDS:
        origin = origins.get(key, "default")
        lines.append(f"{key} = {shown(repr(getattr(settings, key)))}  # {shown(origin)}")
    return "\n".join(lines)
