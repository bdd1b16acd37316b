"""Settings: defaults, config file discovery and validation.

Discovery walks up from the working directory: ``.memlint.toml`` >
``memlint.toml`` > ``pyproject.toml`` (only with ``[tool.memlint]``).
A ``.memlint.toml`` written for memvet (which was called memlint until its
v0.12) is skipped with a notice. Command-line options override every file.
"""

from __future__ import annotations

import errno
import os
import stat

from memlint.diagnostics import Severity
from memlint.records import dataclass, field, replace
from memlint.treenames import CONFIG_NAMES

TYPE_CHECKING = False  # typing is not imported at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

PROFILES = ("linked", "typed", "notes", "freeform")
DEFAULT_EXCLUDE = ("README.md", "SCHEMA.md", "CLAUDE.md", "AGENTS.md", "CHANGELOG.md")


# memvet's rule tables: a `.memlint.toml` made only of these is memvet's configuration.
MEMVET_TABLES = frozenset(
    {
        "pointers",
        "append_only",
        "mirrors",
        "blocks",
        "human_brief",
        "ids",
        "tokens",
        "stamps",
        "junk",
        "secrets",
    }
)


class ConfigError(Exception):
    """An invalid configuration file or option (exit status 2)."""


@dataclass(frozen=True, slots=True)
class StoreConfig:
    path: str
    profile: str | None = None
    local_only: bool = False


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    severity: tuple[tuple[str, Severity], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False
    respect_gitignore: bool = True
    stores: tuple[StoreConfig, ...] = ()
    notes: tuple[str, ...] = ()
    max_file_size: int = 1024 * 1024
    fail_on: Severity = Severity.ERROR
    redaction_marker: str = "[REDACTED]"
    base_rev: str | None = None
    rule_options: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()
    shared: tuple[tuple[str, object], ...] = ()
    config_path: str | None = None
    config_dir: str = field(default_factory=os.getcwd)
    # where each setting came from, and config files passed over: for --show-settings only
    origins: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)
    skipped_configs: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)

    def with_overrides(self, **changes) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def options_for(self, code: str) -> dict[str, object]:
        for rule_code, options in self.rule_options:
            if rule_code == code:
                return dict(options)
        return {}

    def shared_value(self, name: str) -> object:
        """The shared setting ``name`` (``[shared]``, see ``memlint.rules.shared``)."""
        for key, value in self.shared:
            if key == name:
                return value
        from memlint.rules.shared import SHARED

        return SHARED[name].default

    def severity_for(self, code: str) -> Severity | None:
        for rule_code, severity in self.severity:
            if rule_code == code:
                return severity
        return None


_KEYS = {
    "select",
    "extend-select",
    "ignore",
    "per-file-ignores",
    "severity",
    "exclude",
    "extend-exclude",
    "force-exclude",
    "respect-gitignore",
    "stores",
    "notes",
    "max-file-size",
    "fail-on",
    "redaction-marker",
    "rules",
    "shared",
}


def find_config(start: str, skipped: list[tuple[str, str]] | None = None) -> str | None:
    """The nearest config file at or above ``start``; another tool's ``.memlint.toml``
    is passed over and added to ``skipped`` as ``(path, why)``."""
    directory = os.path.abspath(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = os.path.join(directory, name)
            if not os.path.isfile(candidate):
                continue
            if name == "pyproject.toml" and not _has_tool_table(candidate):
                continue
            if name == ".memlint.toml":
                why = foreign_config(candidate)
                if why is not None:
                    if skipped is not None:
                        skipped.append((candidate, why))
                    continue
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def foreign_config(path: str) -> str | None:
    """Why the ``.memlint.toml`` at ``path`` is memvet's configuration, or ``None``
    (it has a memlint key, none of memvet's tables, or cannot be read: then it is
    loaded, and reported, as memlint's own)."""
    try:
        data = _read_toml(path)
    except ConfigError:
        return None
    keys = set(data)
    if keys & _KEYS or not keys & MEMVET_TABLES:
        return None
    tables = ", ".join(f"[{key}]" for key in sorted(keys & MEMVET_TABLES))
    return f"memvet's configuration ({tables}), not memlint's"


def _has_tool_table(path: str) -> bool:
    try:
        data = _read_regular(path)
    except OSError:
        return False
    if not may_name_memlint_tool(data):
        return False  # not worth importing tomllib
    try:
        return "memlint" in _read_toml(path).get("tool", {})
    except ConfigError:
        return False


def may_name_memlint_tool(data: bytes) -> bool:
    """Whether a ``pyproject.toml`` holding ``data`` can have a ``[tool.memlint]`` table.
    Escapes (``\\u``) could spell any key; else the key ``memlint`` of the ``tool`` table
    is written on a line that also says ``tool`` (a header, a dotted key or an inline
    table, none of which may span lines), or below a ``[tool]`` header."""
    if b"\\u" in data or b"\\U" in data:
        return True
    if b"memlint" not in data:
        return False
    for line in data.splitlines():
        if b"tool" in line and b"memlint" in line:
            return True
        bare = line.translate(None, b" \t\"'")
        if bare.startswith((b"[tool]", b"[[tool]]")):
            return True
    return False


def _read_regular(path: str) -> bytes:
    """A regular file's bytes (links followed); a FIFO or device is refused, never waited on."""
    with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        return handle.read()


def _read_toml(path: str) -> dict:
    import tomllib

    try:
        return tomllib.loads(_read_regular(path).decode("utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config {path}: {exc}") from None
    except RecursionError:
        raise ConfigError(f"cannot read config {path}: nested too deep") from None


def load_settings(path: str | None) -> Settings:
    """Settings from the config file at ``path`` (defaults when ``None``)."""
    if path is None:
        return Settings()
    data = _read_toml(path)
    if os.path.basename(path) == "pyproject.toml":
        data = data.get("tool", {}).get("memlint", {})
    return settings_from_mapping(data, path)


def settings_from_mapping(data: dict, path: str | None = None) -> Settings:
    unknown = sorted(set(data) - _KEYS)
    where = path or "config"
    if unknown:
        memvet = sorted(set(unknown) & MEMVET_TABLES)
        hint = (
            f" ({', '.join(memvet)} are memvet's tables: keep them in .memvet.toml)"
            if memvet
            else ""
        )
        raise ConfigError(f"{where}: unknown option(s): {', '.join(unknown)}{hint}")
    config_dir = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
    changes: dict[str, Any] = {"config_path": path, "config_dir": config_dir}  # Settings(**)
    for key in ("select", "extend-select", "ignore", "exclude", "extend-exclude", "notes"):
        if key in data:
            changes[key.replace("-", "_")] = tuple(_strings(data[key], f"{where}: {key}"))
    for key in ("select", "extend-select", "ignore"):
        _check_selectors(changes.get(key.replace("-", "_"), ()), where, key)
    if "per-file-ignores" in data:
        table = _table(data["per-file-ignores"], f"{where}: per-file-ignores")
        changes["per_file_ignores"] = tuple(
            (glob, tuple(_strings(codes, f"{where}: per-file-ignores.{glob}")))
            for glob, codes in table.items()
        )
        for glob, codes in changes["per_file_ignores"]:
            _check_selectors(codes, where, f"[per-file-ignores] {glob!r}")
    if "severity" in data:
        table = _table(data["severity"], f"{where}: severity")
        for code in table:
            _rule_module(code, where, "[severity]")
        try:
            changes["severity"] = tuple(
                (code, Severity.parse(str(level))) for code, level in table.items()
            )
        except ValueError as exc:
            raise ConfigError(f"{where}: severity: {exc}") from None
    if "stores" in data:
        changes["stores"] = tuple(_store(entry, where, config_dir) for entry in data["stores"])
    for key in ("force-exclude", "respect-gitignore"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ConfigError(f"{where}: {key} must be true or false")
            changes[key.replace("-", "_")] = data[key]
    if "max-file-size" in data:
        size = data["max-file-size"]
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise ConfigError(f"{where}: max-file-size must be a positive integer")
        changes["max_file_size"] = size
    if "fail-on" in data:
        try:
            changes["fail_on"] = Severity.parse(str(data["fail-on"]))
        except ValueError as exc:
            raise ConfigError(f"{where}: fail-on: {exc}") from None
    if "redaction-marker" in data:
        marker = data["redaction-marker"]
        if not isinstance(marker, str) or not marker:
            raise ConfigError(f"{where}: redaction-marker must be a non-empty string")
        changes["redaction_marker"] = marker
    shared: dict[str, tuple[object, str]] = {}  # name -> (value, where it was set)
    if "rules" in data:
        table = _table(data["rules"], f"{where}: rules")
        changes["rule_options"] = tuple(
            (code, _rule_options(code, options, where, shared)) for code, options in table.items()
        )
    if "shared" in data:
        _shared_settings(_table(data["shared"], f"{where}: shared"), where, shared)
    if shared:
        changes["shared"] = tuple(sorted((name, value) for name, (value, _) in shared.items()))
    if "notes" in changes:
        changes["notes"] = tuple(
            os.path.normpath(os.path.join(config_dir, p)) for p in changes["notes"]
        )
    return Settings(**changes)


def _check_selectors(selectors, where: str, table: str) -> None:
    from memlint.rules import is_selector

    for selector in selectors:
        if not is_selector(selector):
            raise ConfigError(f"{where}: {table}: no rule code starts with `{selector}`")


def _rule_module(code: str, where: str, table: str):
    """The rule module of ``code``, imported alone; ConfigError when no rule has it."""
    from memlint.rules import load_rule, rule_module_name

    name = rule_module_name(code) if isinstance(code, str) else None
    if name is None:
        raise ConfigError(f"{where}: {table}: `{code}` is not a rule code")
    return load_rule(name)


def _rule_options(code: str, options, where: str, shared: dict) -> tuple[tuple[str, object], ...]:
    """``[rules.CODE]`` checked against the options the rule declares; an option that
    is now a shared setting (``ALIASES``) goes into ``shared``."""
    from memlint.rules.shared import ALIASES, SHARED

    table = f"[rules.{code}]"
    meta = _rule_module(code, where, "[rules]").META
    aliases = {key: name for (rule, key), name in ALIASES.items() if rule == code}
    checked = []
    for key, value in _table(options, f"{where}: {table}").items():
        option = meta.option(key) or (SHARED[aliases[key]] if key in aliases else None)
        if option is None:
            known = ", ".join([*(o.name for o in meta.options), *aliases]) or "none"
            raise ConfigError(f"{where}: {table}: unknown option `{key}` (options: {known})")
        try:
            parsed = option.parse(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: {table} {key}: {exc}") from None
        if key in aliases:
            shared[aliases[key]] = (parsed, f"{table} {key}")
        else:
            checked.append((key, parsed))
    return tuple(checked)


def _shared_settings(table: dict, where: str, shared: dict) -> None:
    """``[shared]`` checked against ``memlint.rules.shared.SHARED`` into ``shared``; one
    value set both there and under its old name in ``[rules.CODE]`` must agree."""
    from memlint.rules.shared import SHARED

    for key, value in table.items():
        option = SHARED.get(key)
        if option is None:
            known = ", ".join(SHARED)
            raise ConfigError(f"{where}: [shared]: unknown setting `{key}` (settings: {known})")
        try:
            parsed = option.parse(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: [shared] {key}: {exc}") from None
        if key in shared and shared[key][0] != parsed:
            raise ConfigError(f"{where}: [shared] {key} differs from {shared[key][1]}: set one")
        shared[key] = (parsed, f"[shared] {key}")


def _strings(value, where: str) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return value
    raise ConfigError(f"{where} must be a list of strings")


def _table(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table")
    return value


def _store(entry, where: str, config_dir: str) -> StoreConfig:
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        raise ConfigError(f"{where}: each [[stores]] entry needs a path")
    extra = set(entry) - {"path", "profile", "local-only"}
    if extra:
        raise ConfigError(f"{where}: unknown [[stores]] key(s): {', '.join(sorted(extra))}")
    profile = entry.get("profile")
    if profile is not None and profile not in PROFILES:
        raise ConfigError(f"{where}: profile must be one of {', '.join(PROFILES)}")
    local_only = entry.get("local-only", False)
    if not isinstance(local_only, bool):
        raise ConfigError(f"{where}: local-only must be true or false")
    path = os.path.normpath(os.path.join(config_dir, entry["path"]))
    return StoreConfig(path, profile, local_only)


# -- settings per folder, from plain values (the command line's, or a caller's) -----------

SHOWN_FIELDS = tuple(
    key
    for key in Settings.__dataclass_fields__
    if key not in ("config_path", "config_dir", "origins", "skipped_configs")
)


@dataclass(frozen=True)
class Overrides:
    """Settings given on top of every config file (the command line's options);
    ``None`` and empty leave the file's value."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: Severity | None = None
    base_rev: str | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    respect_gitignore: bool | None = None


def resolve_settings(
    config: tuple[str, ...] = (),
    isolated: bool = False,
    overrides: Overrides | None = None,
    on_skip: Callable[[str, str], None] | None = None,
    cwd: str | None = None,
) -> SettingsTree:
    """Settings per folder, as in ruff: the nearest config file at or above a folder
    (``.memlint.toml`` > ``memlint.toml`` > ``pyproject.toml``) with the ``config``
    values that are inline ``KEY = VALUE`` and ``overrides`` on top. A ``config`` value
    naming a file, or ``isolated``, gives every folder the same settings. A
    ``.memlint.toml`` that is another tool's configuration is passed over and given to
    ``on_skip(path, why)`` once. The tree's ``base`` holds the settings of ``cwd``."""
    inline: dict = {}
    config_file = None
    for value in config:
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
    given = overrides or Overrides()

    def settings_at(path: str | None, skipped: tuple[tuple[str, str], ...]) -> Settings:
        return _overridden(load_settings(path), path, inline_settings, given, skipped)

    folder = cwd or os.getcwd()
    if config_file is not None or isolated:
        return SettingsTree(folder, settings_at, fixed=settings_at(config_file, ()))
    return SettingsTree(folder, settings_at, on_skip=on_skip)


class SettingsTree:
    """The settings that apply to each folder (``for_folder``), and those of the
    working directory (``base``); ``hierarchical`` when they may differ by folder."""

    def __init__(
        self,
        cwd: str,
        settings_at: Callable[[str | None, tuple[tuple[str, str], ...]], Settings],
        fixed: Settings | None = None,
        on_skip: Callable[[str, str], None] | None = None,
    ) -> None:
        self.settings_at = settings_at
        self.hierarchical = fixed is None
        self.on_skip = on_skip
        self.by_config: dict[str | None, Settings] = {}
        self.reported: set[str] = set()
        self.base = fixed if fixed is not None else self.for_folder(cwd)

    @property
    def settings_for(self) -> Callable[[str], Settings] | None:
        """``for_folder`` when settings may differ by folder, else ``None``."""
        return self.for_folder if self.hierarchical else None

    def for_folder(self, folder: str) -> Settings:
        if not self.hierarchical:
            return self.base
        skipped: list[tuple[str, str]] = []
        path = find_config(folder, skipped)
        for skipped_path, why in skipped:
            if skipped_path not in self.reported:
                self.reported.add(skipped_path)
                if self.on_skip is not None:
                    self.on_skip(skipped_path, why)
        found = self.by_config.get(path)
        if found is None:
            found = self.by_config[path] = self.settings_at(path, tuple(skipped))
        return found


def _overridden(
    settings: Settings,
    config_file: str | None,
    inline: Settings | None,
    given: Overrides,
    skipped: tuple[tuple[str, str], ...],
) -> Settings:
    """``settings`` (read from ``config_file``) under inline ``--config KEY=VALUE`` and
    ``given``, recording where each setting came from."""
    defaults = Settings()
    origins = {
        key: config_file
        for key in SHOWN_FIELDS
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
        "select": given.select,
        "extend_select": (*settings.extend_select, *given.extend_select) or None,
        "ignore": (*settings.ignore, *given.ignore) or None,
        "fail_on": given.fail_on,
        "base_rev": given.base_rev,
        "exclude": given.exclude,
        "extend_exclude": (*settings.extend_exclude, *given.extend_exclude) or None,
        "force_exclude": given.force_exclude,
        "respect_gitignore": given.respect_gitignore,
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
        skipped_configs=skipped,
    )


def validate_selectors(settings: Settings) -> None:
    """Every selector of ``settings`` names some rule (a typo is an error, not a no-op)."""
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
