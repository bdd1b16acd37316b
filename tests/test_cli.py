"""The command line: options, exit codes, config discovery, partial file lists."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys

import pytest

from memlint import __version__
from memlint.cli import (
    CHECK_FLAGS,
    CHECK_VALUES,
    SUBCOMMANDS,
    build_parser,
    main,
    plain_check_args,
)
from tests.helpers import write_files

GOOD = "---\nname: a\ndescription: a memory\nmetadata:\n  type: user\n---\nBody.\n"
STORE = {
    "mem/MEMORY.md": "- [A](a.md) — a memory\n- [B](b.md) — b\n",
    "mem/a.md": GOOD,
    "mem/b.md": {"bytes": "---\nname: b\n---\ncaf\xe9\n"},
}


@pytest.fixture
def store(tmp_path, monkeypatch):
    write_files(tmp_path, STORE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_bare_command_is_check(store, capsys):
    assert run(capsys, "mem", "--select", "FS002") == run(
        capsys, "check", "mem", "--select", "FS002"
    )


def test_the_cyclic_collector_is_off_while_checking_only(store, capsys, monkeypatch):
    """A run leaves next to no cyclic garbage, so the collector is off while it checks;
    a caller of ``main`` (as here) gets it back, even when the check raises."""
    import gc

    import memlint.commands.check

    seen = []
    check = memlint.commands.check.run

    def recording(args):
        seen.append(gc.isenabled())
        return check(args)

    monkeypatch.setattr(memlint.commands.check, "run", recording)
    assert gc.isenabled()
    assert run(capsys, "mem", "--select", "FS002")[0] == 1
    assert seen == [False] and gc.isenabled()

    def failing(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(memlint.commands.check, "run", failing)
    with pytest.raises(RuntimeError):
        main(["mem"])
    assert gc.isenabled()


def test_default_path_is_cwd(store, capsys):
    code, out, _ = run(capsys, "--select", "FS002", "--output-format", "concise")
    assert code == 1
    assert out.startswith("mem/b.md:4:1: FS002 error: file is not UTF-8")


def test_full_format_shows_location_and_summary(store, capsys):
    code, out, _ = run(capsys, "check", "--select", "FS002")
    assert code == 1
    assert "FS002 error: file is not UTF-8: invalid UTF-8 at byte 19" in out
    assert " --> mem/b.md:4:1" in out
    assert "Found 1 problem (1 error)." in out


def test_json_and_json_lines(store, capsys):
    _, out, _ = run(capsys, "--select", "FS002", "--output-format", "json")
    data = json.loads(out)
    assert [(d["code"], d["name"], d["filename"], d["location"]) for d in data] == [
        ("FS002", "invalid-utf8", "mem/b.md", {"row": 4, "column": 1})
    ]
    _, lines, _ = run(capsys, "--select", "FS002", "--output-format", "json-lines")
    assert [json.loads(line) for line in lines.splitlines()] == data


def test_output_file(store, capsys):
    code, out, _ = run(capsys, "--select", "FS002", "--output-format", "json", "-o", "r.json")
    assert code == 1 and out == ""
    assert json.loads((store / "r.json").read_text())[0]["code"] == "FS002"


def test_select_ignore_prefixes(store, capsys):
    assert run(capsys, "--select", "FS", "--ignore", "FS002")[0] == 0
    assert run(capsys, "--select", "FS", "--ignore", "FS")[0] == 0
    assert run(capsys, "--select", "FS002", "--ignore", "FS")[0] == 1
    assert run(capsys, "--select", "FS004", "--extend-select", "FS002")[0] == 1


def test_unknown_selector_is_usage_error(store, capsys):
    code, _, err = run(capsys, "--select", "ZZ9")
    assert code == 2
    assert "unknown rule selector `ZZ9`" in err


def test_exit_zero_and_fail_on(store, capsys):
    assert run(capsys, "--select", "FS002", "--exit-zero")[0] == 0
    write_files(store, {"mem/b.md": GOOD.replace("name: a", "name: b")})
    assert run(capsys, "--select", "FS")[0] == 0


def test_fail_on_warning_counts_warnings(tmp_path, monkeypatch, capsys):
    write_files(tmp_path, {"mem/MEMORY.md": "x\n", "mem/a.md": GOOD})
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".memlint.toml").write_text('[severity]\nFS002 = "warning"\n')
    write_files(tmp_path, {"mem/b.md": {"bytes": "caf\xe9"}})
    assert run(capsys, "--select", "FS002")[0] == 0
    assert run(capsys, "--select", "FS002", "--fail-on", "warning")[0] == 1


def test_statistics(store, capsys):
    code, out, _ = run(capsys, "--select", "FS", "--statistics")
    assert code == 1
    assert out == "1\tFS002\tinvalid-utf8\n"


def test_quiet_prints_no_summary(store, capsys):
    _, out, _ = run(capsys, "--select", "FS002", "-q")
    assert "Found" not in out and "FS002" in out


def test_color_always_and_never(store, capsys):
    _, out, _ = run(capsys, "--select", "FS002", "--color", "always")
    assert "\x1b[" in out
    _, out, _ = run(capsys, "--select", "FS002", "--color", "never")
    assert "\x1b[" not in out


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"memlint {__version__}"


def test_show_files_explains_profile(store, capsys):
    code, out, _ = run(capsys, "--show-files")
    assert code == 0
    assert out.splitlines()[0] == (
        "mem: profile linked (1 of 1 memory file has `name` equal to the filename;"
        " signals of 1 memory file: typed none; linked `metadata.type` 1, `name` = filename 1;"
        " index bullets 2); store because it has MEMORY.md"
    )
    assert "  memory  mem/a.md" in out and "  unread  mem/b.md" in out


def test_config_discovery_order(store, capsys):
    (store / "pyproject.toml").write_text('[tool.memlint]\nselect = ["FS004"]\n')
    assert run(capsys)[0] == 0
    (store / "memlint.toml").write_text('select = ["FS002"]\n')
    assert run(capsys)[0] == 1
    (store / ".memlint.toml").write_text('select = ["FS004"]\n')
    assert run(capsys)[0] == 0
    _, out, _ = run(capsys, "--show-settings")
    assert f"Settings path: {store / '.memlint.toml'}" in out
    assert run(capsys, "--isolated", "--select", "FS002")[0] == 1


def test_pyproject_without_tool_table_is_skipped(store, capsys):
    (store / "pyproject.toml").write_text('[project]\nname = "x"\n')
    _, out, _ = run(capsys, "--show-settings")
    assert "Settings path: (none)" in out


def test_config_file_and_inline_override(store, capsys):
    (store / "custom.toml").write_text('select = ["FS004"]\n')
    assert run(capsys, "--config", "custom.toml")[0] == 0
    assert run(capsys, "--config", "custom.toml", "--config", "select = ['FS002']")[0] == 1


def test_invalid_config_is_exit_2(store, capsys):
    (store / ".memlint.toml").write_text("bogus-option = 1\n")
    code, _, err = run(capsys)
    assert code == 2 and "unknown option(s): bogus-option" in err
    (store / ".memlint.toml").write_text("select = [\n")
    assert run(capsys)[0] == 2


def test_per_file_ignores(store, capsys):
    (store / ".memlint.toml").write_text('[per-file-ignores]\n"mem/b.md" = ["FS002"]\n')
    assert run(capsys, "--select", "FS002")[0] == 0
    (store / ".memlint.toml").write_text('[per-file-ignores]\n"!mem/b.md" = ["FS002"]\n')
    assert run(capsys, "--select", "FS002")[0] == 1


def test_partial_file_list_reports_only_given_files(store, capsys):
    assert run(capsys, "mem/a.md", "--select", "FS002")[0] == 0
    code, out, _ = run(capsys, "mem/b.md", "--select", "FS002", "--output-format", "concise")
    assert code == 1 and out.startswith("mem/b.md:")


def test_missing_path_is_usage_error(store, capsys):
    code, _, err = run(capsys, "nope")
    assert code == 2 and "nope" in err


def test_bad_option_is_usage_error(capsys):
    assert main(["check", "--output-format", "bogus"]) == 2


def test_no_store_in_code_repo(tmp_path, monkeypatch, capsys):
    write_files(tmp_path, {"README.md": "# x\n", "docs/guide.md": "text [[x]]\n"})
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys)
    assert code == 0 and out == "All checks passed (0 stores).\n"
    assert "no memory store found" in err


def test_rule_command(capsys):
    assert main(["rule", "FS002"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# invalid-utf8 (FS002)") and "## What it does" in out
    assert main(["rule", "--all", "--output-format", "json"]) == 0
    codes = [r["code"] for r in json.loads(capsys.readouterr().out)]
    assert codes == sorted(codes) and "FS002" in codes
    assert main(["rule", "XX999"]) == 2


def test_output_is_deterministic(store, capsys):
    first = run(capsys, "--output-format", "json")
    assert run(capsys, "--output-format", "json") == first


def test_python_dash_m_and_console_script(store):
    proc = subprocess.run(
        [sys.executable, "-m", "memlint", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and proc.stdout.strip() == f"memlint {__version__}"
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "memlint", "check", "mem", "--select", "FS002"],
        capture_output=True,
        text=True,
        cwd=store,
        env=env,
    )
    assert proc.returncode == 1 and "FS002" in proc.stdout


def test_command_exits_fast_with_all_output_and_its_status(tmp_path, capsys):
    """The command skips the interpreter's teardown: everything written must still
    arrive, through a pipe or into a file, with the same exit status as ``main``."""
    from tests.helpers import generate_store

    generated = generate_store(tmp_path / "store", 1000, seed=3, defect_rate=0.3)
    argv = ["check", str(generated), "--output-format", "json", "--no-cache", "--jobs", "2"]
    expected_status = main(argv)
    expected = capsys.readouterr().out
    assert len(expected) > 100_000 and expected_status == 1  # more than a pipe holds (64 KiB)
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    command = [sys.executable, "-m", "memlint", *argv]
    proc = subprocess.run(command, capture_output=True, env=buffered)
    assert proc.returncode == expected_status
    assert proc.stdout.decode() == expected
    with open(tmp_path / "out.json", "wb") as handle:
        subprocess.run(command, stdout=handle, check=False, env=buffered)
    assert (tmp_path / "out.json").read_text(encoding="utf-8") == expected
    for jobs in ("1", "2"):  # a short table (less than one buffer), with and without a pool
        small = [*argv, "--statistics", "--jobs", jobs]
        status = main(small)
        expected = capsys.readouterr().out
        assert 0 < len(expected) < 4096
        proc = subprocess.run(
            [sys.executable, "-m", "memlint", *small], capture_output=True, env=buffered
        )
        assert proc.returncode == status and proc.stdout.decode() == expected


def test_a_closed_pipe_ends_the_command_quietly(store):
    head = subprocess.Popen(
        f"{sys.executable} -m memlint check mem --select FS002 | head -c 1",
        shell=True,
        cwd=store,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = head.communicate(timeout=60)
    assert len(out) == 1
    assert b"Traceback" not in err and b"Exception ignored" not in err


def test_plural():
    from memlint.textutil import plural

    assert [plural(1, "error"), plural(2, "error"), plural(2, "hidden fix")] == [
        "1 error",
        "2 errors",
        "2 hidden fixes",
    ]


HELP_PATHS = [[], *([name] for name in SUBCOMMANDS)]
HELP_PATHS += [["hook", action] for action in ("claude-code", "install", "uninstall")]


@pytest.mark.parametrize("path", HELP_PATHS, ids=lambda path: " ".join(path) or "memlint")
def test_the_parser_of_one_subcommand_helps_and_errs_as_the_whole_parser(
    path, monkeypatch, capsys
) -> None:
    """A run builds only its subcommand's arguments; ``--help`` and the error for an
    unknown option read the same, byte for byte, at any terminal width."""
    for columns in ("100", "40"):
        monkeypatch.setenv("COLUMNS", columns)
        outputs = []
        for parser in (build_parser(), build_parser(path[0] if path else None)):
            for tail in (["--help"], ["--no-such-option"]):
                with pytest.raises(SystemExit):
                    parser.parse_args([*path, *tail])
                outputs.append(capsys.readouterr())
        assert outputs[:2] == outputs[2:]
        assert outputs[0].out.startswith("usage: memlint")


def _argparse_check(argv: list[str]) -> tuple[dict | None, str]:
    """What the whole parser makes of ``argv``: its namespace (``None`` when it exits)
    and what it printed."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stderr(printed), contextlib.redirect_stdout(printed):
            return vars(build_parser().parse_args(argv)), printed.getvalue()
    except SystemExit:
        return None, printed.getvalue()


def _check_subparser():
    parser = build_parser("check")
    subparsers = next(a for a in parser._actions if a.dest == "command")
    return subparsers.choices["check"]


def test_check_arguments_parsed_without_argparse_are_what_argparse_gives() -> None:
    """``memlint check`` with plain arguments does not build the parser (plain_check_args);
    what it takes reads as argparse reads it, and what it leaves (help, errors,
    abbreviations, ``--``, combined flags) goes to argparse, whose output is unchanged."""
    pool = [
        *("a", "b c", "-", "", "=x", "-1", "--", "-qe", "-h", "--help", "--version"),
        *("--no-c", "--quiet=1", "--output-format=bad", "-o=x", "--jobs", "x", "--jobs=-1"),
        *("--select", "IX,PV", "--select=ID,", "--ignore=", "json", "never", "3", "HEAD"),
        *("--output-format=sarif", "--exclude", "x,y", "--extend-exclude=", "--fail-on"),
        *CHECK_FLAGS,
        *CHECK_VALUES,
    ]
    rng = random.Random(21)
    taken = refused = 0
    for _ in range(6000):
        argv = ["check", *(rng.choice(pool) for _ in range(rng.randrange(7)))]
        plain = plain_check_args(argv)
        expected, printed = _argparse_check(argv)
        if plain is None:
            refused += 1
            continue
        taken += 1
        assert expected is not None and printed == "", argv
        assert vars(plain) == expected, argv
    assert taken > 1000 and refused > 1000


def test_plain_check_args_know_every_check_option_as_argparse_declares_it() -> None:
    """A new ``check`` option must be added to CHECK_FLAGS or CHECK_VALUES too."""
    declared = {}
    for action in _check_subparser()._actions:
        for option in action.option_strings:
            declared[option] = action.dest
    declared.pop("-h")
    declared.pop("--help")
    listed = {option: kept[0] for option, kept in {**CHECK_FLAGS, **CHECK_VALUES}.items()}
    assert listed == declared
    assert vars(plain_check_args(["check"])) == _argparse_check(["check"])[0]
    for option, (dest, value) in CHECK_FLAGS.items():
        assert getattr(plain_check_args(["check", option]), dest) is value
        assert vars(plain_check_args(["check", option])) == _argparse_check(["check", option])[0]
    for option in CHECK_VALUES:
        argv = ["check", option, "json" if option != "--jobs" else "2"]
        if option in ("--fail-on", "--color"):
            argv[2] = "never" if option == "--color" else "info"
        assert vars(plain_check_args(argv)) == _argparse_check(argv)[0], argv


def test_a_check_error_or_help_is_argparse_own_byte_for_byte(capsys) -> None:
    for tail in (["--no-such-option"], ["--help"], ["--jobs", "x"], ["a", "-q", "b"]):
        expected = _argparse_check(["check", *tail])[1]
        main(["check", *tail])
        captured = capsys.readouterr()
        assert captured.out + captured.err == expected
        assert expected.startswith("usage: memlint")


@pytest.mark.parametrize("extra", [[], ["--no-cache"]])
def test_a_removed_working_folder_is_a_clear_error_not_a_traceback(tmp_path, extra) -> None:
    write_files(tmp_path / "store", {"MEMORY.md": "# Memory\n"})
    gone = tmp_path / "gone"
    gone.mkdir()
    code = (
        "import os, sys\n"
        f"os.chdir({str(gone)!r}); os.rmdir({str(gone)!r})\n"
        "from memlint.cli import main\n"
        f"sys.exit(main(['check', {str(tmp_path / 'store')!r}, *{extra!r}]))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("memlint: error: the working folder cannot be read"), done.stderr
    assert "Traceback" not in done.stderr
