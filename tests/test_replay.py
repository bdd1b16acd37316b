"""The whole-run replay prints exactly what a run without it prints, and replays only
a record this user's memlint sealed for exactly these inputs."""

from __future__ import annotations

import marshal
import os
import re
import shutil
from pathlib import Path

import pytest

import memlint.replay
from memlint.cachedir import HEADER_SIZE, MAGIC, _mac, _secret, user_cache_home
from memlint.cli import OUTPUT_FORMATS, main
from tests.helpers import generate_store

SRC = Path(memlint.replay.__file__).parent


@pytest.fixture
def store(tmp_path: Path, monkeypatch) -> Path:
    """A generated store, checked from its parent folder; a file is trusted by its
    signature as soon as the run that read it has started (no racy window)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(memlint.replay, "RACY_NS", 0)
    return generate_store(tmp_path / "store", 60, seed=3, defect_rate=0.4, notes=8)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["check", *argv])
    out, err = capsys.readouterr()
    return status, out, err


class Replayed:
    """Counts the runs that replayed a record (``replayed`` returned a status)."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        real = memlint.replay.replayed

        def counting(args):
            found = real(args)
            self.count += found is not None
            return found

        monkeypatch.setattr(memlint.replay, "replayed", counting)


def same_as_uncached(capsys, *argv: str) -> tuple[int, str, str]:
    """The run of ``argv`` with the cache, checked equal to one without it."""
    cached = run(capsys, *argv)
    assert cached == run(capsys, *argv, "--no-cache")
    return cached


def records(cache: Path) -> list[Path]:
    return sorted(cache.glob("replay-*"))


@pytest.mark.parametrize("output_format", OUTPUT_FORMATS)
def test_replay_prints_what_a_run_without_cache_prints(store, capsys, monkeypatch, output_format):
    replayed = Replayed(monkeypatch)
    argv = ("store", "--output-format", output_format, "--cache-dir", "cache")
    first = run(capsys, *argv)
    assert first[0] == 1 and first[1]  # findings, reported
    assert replayed.count == 0 and records(Path("cache"))
    assert run(capsys, *argv) == first == run(capsys, *argv[:3], "--no-cache")
    assert replayed.count == 1


@pytest.mark.parametrize("extra", [(), ("-q",), ("--statistics",), ("--exit-zero", "-s")])
def test_replay_keeps_the_exit_status_and_stderr(store, capsys, monkeypatch, extra):
    replayed = Replayed(monkeypatch)
    argv = ("store", "--cache-dir", "cache", *extra)
    first = run(capsys, *argv)
    assert run(capsys, *argv) == first
    assert replayed.count == 1
    assert first[0] == (0 if "--exit-zero" in extra else 1)


def rewrite_same_size_same_mtime(path: Path) -> None:
    st = path.stat()
    text = path.read_bytes()
    changed = text.replace(b"a", b"b", 1) if b"a" in text else text.replace(b"e", b"f", 1)
    assert len(changed) == len(text) and changed != text
    path.write_bytes(changed)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def memories(store: Path) -> list[Path]:
    return sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")


EDITS = {
    "edit": lambda store: memories(store)[0].write_text(
        memories(store)[0].read_text() + "\nsk-live-51Habcdefghijklmnopqrstuvwxyz0123\n"
    ),
    "same size and mtime": lambda store: rewrite_same_size_same_mtime(memories(store)[1]),
    "rename": lambda store: memories(store)[2].rename(memories(store)[2].with_name("renamed.md")),
    "delete": lambda store: memories(store)[3].unlink(),
    "new file": lambda store: (store / "new-one.md").write_text("# no frontmatter\n"),
    "index": lambda store: (store / "MEMORY.md").write_text(
        (store / "MEMORY.md").read_text() + "- [Gone](gone.md)\n"
    ),
    "notes": lambda store: next(store.rglob("*.jsonl")).write_text("not json\n"),
    "config in the store": lambda store: (store / "memlint.toml").write_text('ignore = ["IX"]\n'),
    "config above the store": lambda store: (store.parent / "memlint.toml").write_text(
        'extend-select = ["ALL"]\n'
    ),
    "gitignore": lambda store: (
        (store / ".git").mkdir(),
        (store / ".gitignore").write_text(memories(store)[4].name + "\n"),
    ),
    "subfolder": lambda store: (
        (store / "sub").mkdir() or (store / "sub" / "x.md").write_text("---\nname: x\n---\nbody\n")
    ),
    "symlink": lambda store: (store / "link.md").symlink_to(memories(store)[5]),
    "dangling symlink": lambda store: (store / "link.md").symlink_to(store / "later.md"),
}


@pytest.mark.parametrize("chunk", [memlint.replay.CHUNK, 3])
@pytest.mark.parametrize("edit", list(EDITS))
def test_replay_after_a_change_equals_a_run_without_cache(store, capsys, monkeypatch, edit, chunk):
    monkeypatch.setattr(memlint.replay, "CHUNK", chunk)  # 3: a change in any of many chunks
    replayed = Replayed(monkeypatch)
    argv = ("store", "--output-format", "concise", "--cache-dir", "cache")
    before = same_as_uncached(capsys, *argv)
    EDITS[edit](store)
    after = same_as_uncached(capsys, *argv)
    assert replayed.count == 0
    assert after != before
    assert run(capsys, *argv) == after  # recorded anew, and replayed
    assert replayed.count == 1


def test_a_replay_stops_at_the_first_chunk_that_changed(store, capsys, monkeypatch):
    monkeypatch.setattr(memlint.replay, "CHUNK", 4)
    marks = []
    real = memlint.replay.Observation._mark

    def counting(self):
        marks.append(self.expected is not None)
        real(self)

    monkeypatch.setattr(memlint.replay.Observation, "_mark", counting)
    argv = ("store", "--cache-dir", "cache")
    run(capsys, *argv)
    run(capsys, *argv)  # replayed: every chunk compared
    whole = marks.count(True)
    assert whole > 10
    first = next(e for e in os.scandir(store) if e.name.endswith(".md") and e.name != "MEMORY.md")
    Path(first.path).write_text(Path(first.path).read_text() + "\nedited\n")
    marks.clear()
    after = run(capsys, *argv)
    assert marks.count(True) <= 2  # the walk stopped at the changed file's chunk
    assert after == run(capsys, *argv, "--no-cache")


def test_a_symlink_target_that_appears_is_seen(store, capsys, monkeypatch):
    replayed = Replayed(monkeypatch)
    (store / "link.md").symlink_to(store.parent / "later.md")
    argv = ("store", "--output-format", "concise", "--cache-dir", "cache")
    dangling = same_as_uncached(capsys, *argv)
    assert "dangling" in dangling[1]
    (store.parent / "later.md").write_text("# outside\n")
    assert same_as_uncached(capsys, *argv) != dangling
    assert replayed.count == 0


def test_replay_of_a_run_without_paths_and_of_a_folder_without_index(store, capsys, monkeypatch):
    """From the store itself (no path named), and from a folder of memory files without
    an index (whose store discovery may find above it)."""
    replayed = Replayed(monkeypatch)
    monkeypatch.chdir(store)
    first = same_as_uncached(capsys, "--cache-dir", "../cache")
    assert run(capsys, "--cache-dir", "../cache") == first and replayed.count == 1
    (store / "MEMORY.md").unlink()
    second = same_as_uncached(capsys, "--cache-dir", "../cache")
    assert second != first
    assert run(capsys, "--cache-dir", "../cache") == second and replayed.count == 2
    (store.parent / "loose.md").write_text("---\ndescription: d\ntype: user\n---\nx\n")
    assert same_as_uncached(capsys, "--cache-dir", "../cache")[0] in (0, 1)
    assert replayed.count == 2


def test_a_cache_folder_inside_the_store_is_replayed_and_its_memories_seen(
    store, capsys, monkeypatch
):
    replayed = Replayed(monkeypatch)
    argv = ("store", "--output-format", "concise", "--cache-dir", "store/cache")
    first = same_as_uncached(capsys, *argv)  # creating the cache folder changed the store's
    assert run(capsys, *argv) == first and replayed.count == 0
    assert run(capsys, *argv) == first and replayed.count == 1
    (store / "cache" / "planted.md").write_text("# planted\n")
    assert same_as_uncached(capsys, *argv) != first
    assert replayed.count == 1


def test_replay_follows_the_environment_and_the_command_line(store, capsys, monkeypatch):
    replayed = Replayed(monkeypatch)
    argv = ("store", "--cache-dir", "cache")
    plain = run(capsys, *argv)
    monkeypatch.setenv("MEMLINT_OUTPUT_FORMAT", "json")
    as_json = same_as_uncached(capsys, *argv)
    assert as_json != plain and replayed.count == 0
    monkeypatch.delenv("MEMLINT_OUTPUT_FORMAT")
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = same_as_uncached(capsys, *argv)
    assert "\x1b[" in coloured[1] and replayed.count == 0
    ignoring = same_as_uncached(capsys, *argv, "--ignore", "IX")
    assert ignoring != coloured and replayed.count == 0


def test_a_racy_file_is_compared_by_content(store, capsys, monkeypatch):
    """A file changed as the recording run started is replayed only while its bytes
    are those that run read (its signature may not tell a rewrite in the same tick)."""
    replayed = Replayed(monkeypatch)
    memory = memories(store)[0]
    later = memory.stat().st_mtime_ns + 3600 * 10**9
    os.utime(memory, ns=(later, later))  # "changed after the run started"
    argv = ("store", "--output-format", "concise", "--cache-dir", "cache")
    first = same_as_uncached(capsys, *argv)
    (record,) = records(Path("cache"))
    content = marshal.loads(record.read_bytes()[HEADER_SIZE:])[3]
    assert list(content) == [str(memory)]
    assert run(capsys, *argv) == first and replayed.count == 1
    text = memory.read_text()
    memory.write_text(text.replace("\n", "\nTODO fix me\n", 1)[: len(text)])  # same size
    os.utime(memory, ns=(later, later))
    assert same_as_uncached(capsys, *argv) != first
    assert replayed.count == 1


def test_no_record_of_a_racy_file_the_run_did_not_read(store, capsys, monkeypatch):
    (store / "notes.txt").write_text("not a memory\n")
    later = (store / "notes.txt").stat().st_mtime_ns + 3600 * 10**9
    os.utime(store / "notes.txt", ns=(later, later))
    run(capsys, "store", "--cache-dir", "cache")
    assert not records(Path("cache"))


def seal_forged(record: Path, secret: bytes, output: str) -> None:
    """Rewrite ``record`` to print ``output`` and exit 0, sealed with ``secret``."""
    loaded = list(marshal.loads(record.read_bytes()[HEADER_SIZE:]))
    loaded[5] = ((False, output),)
    loaded[6] = 0
    body = marshal.dumps(tuple(loaded))
    record.write_bytes(MAGIC + _mac(secret, body) + body)


def test_a_forged_or_damaged_record_is_not_replayed(store, capsys, monkeypatch):
    replayed = Replayed(monkeypatch)
    argv = ("store", "--cache-dir", "cache")
    first = run(capsys, *argv)
    (record,) = records(Path("cache"))
    seal_forged(record, b"k" * 32, "all clean\n")  # not this user's key
    assert run(capsys, *argv) == first and replayed.count == 0
    data = bytearray(record.read_bytes())
    data[-3] ^= 1
    record.write_bytes(bytes(data))  # damaged
    assert run(capsys, *argv) == first and replayed.count == 0
    # the test can forge one: with the user's key, the record is trusted as it is
    seal_forged(record, _secret(user_cache_home(), create=False), "all clean\n")
    assert run(capsys, *argv) == (0, "all clean\n", "")
    assert replayed.count == 1


def test_a_record_for_other_inputs_is_not_replayed(store, capsys, monkeypatch):
    """A record of another command line (valid seal, stale key) or reached through a
    symlink is refused."""
    replayed = Replayed(monkeypatch)
    quiet = run(capsys, "store", "--cache-dir", "cache", "-q")
    (quiet_record,) = records(Path("cache"))
    full = run(capsys, "store", "--cache-dir", "cache")
    full_record = next(p for p in records(Path("cache")) if p != quiet_record)
    shutil.copyfile(quiet_record, full_record)  # sealed, but for -q
    assert run(capsys, "store", "--cache-dir", "cache") == full and replayed.count == 0
    target = Path("elsewhere")
    shutil.copyfile(full_record, target)
    full_record.unlink()
    full_record.symlink_to(target.resolve())
    assert run(capsys, "store", "--cache-dir", "cache") == full and replayed.count == 0
    assert quiet != full


def test_replayed_output_holds_no_secret_unmasked(store, capsys, monkeypatch):
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    memory = memories(store)[0]
    memory.write_text(memory.read_text() + f"\ntoken: {secret}\n")
    argv = ("store", "--cache-dir", "cache")
    first = run(capsys, *argv)
    assert "PV001" in first[1] and secret not in first[1]
    (record,) = records(Path("cache"))
    assert secret.encode() not in record.read_bytes()
    assert run(capsys, *argv) == first


def test_no_record_when_git_is_read(store, capsys, monkeypatch):
    """Rules that read git (NT016 with PRE_COMMIT or --base) are never cached."""
    monkeypatch.setenv("PRE_COMMIT", "1")
    run(capsys, "store", "--cache-dir", "cache")
    assert not records(Path("cache"))
    monkeypatch.delenv("PRE_COMMIT")
    run(capsys, "store", "--cache-dir", "cache", "--base", "HEAD")
    assert not records(Path("cache"))
    run(capsys, "store", "--cache-dir", "cache")  # the same process, git not read
    assert records(Path("cache"))


@pytest.mark.parametrize(
    "extra",
    [("--fix",), ("--diff",), ("--no-cache",), ("-o", "out.txt"), ("--show-files",), ("--staged",)],
)
def test_no_record_of_runs_that_write_or_read_more(store, capsys, extra):
    run(capsys, "store", "--cache-dir", "cache", *extra)
    assert not records(Path("cache"))


def test_no_record_when_a_file_is_named(store, capsys):
    """A pre-commit run names files: it is not recorded (its walk would cost it more
    than it saves)."""
    run(capsys, str(memories(store)[0]), "--cache-dir", "cache")
    assert not records(Path("cache"))


def test_every_environment_variable_read_is_in_the_key():
    pattern = re.compile(r"""(?:environ\.get|getenv|environ\[)\(?\s*["']([A-Z_][A-Z0-9_]*)""")
    names = {
        name
        for path in SRC.rglob("*.py")
        if "lsp" not in path.parts
        for name in pattern.findall(path.read_text(encoding="utf-8"))
    }
    assert names, "the pattern finds the variables read"
    missing = {
        name
        for name in names
        if name not in memlint.replay.ENV_NAMES
        and not name.startswith(memlint.replay.ENV_PREFIXES)
        and name not in ("PATH", "GITHUB_STEP_SUMMARY")
    }
    assert not missing


def test_an_edit_of_info_exclude_of_a_linked_work_tree_is_seen(store, capsys, monkeypatch):
    """In a linked work tree (``.git`` a file naming ``…/worktrees/<name>``, whose
    ``commondir`` names the main ``.git``) git's ``info/exclude`` is the common folder's:
    the record covers that file, so an edit of it is not answered by a stale replay."""
    replayed = Replayed(monkeypatch)
    gitdir = Path("main.git", "worktrees", "store")
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    Path("main.git", "info").mkdir()
    exclude = Path("main.git", "info", "exclude")
    exclude.write_text("# nothing yet\n")
    (store / ".git").write_text(f"gitdir: {gitdir.resolve()}\n")
    argv = ("store", "--output-format", "concise", "--cache-dir", "cache")
    before = same_as_uncached(capsys, *argv)
    assert run(capsys, *argv) == before and replayed.count == 1
    exclude.write_text(memories(store)[0].name + "\n")
    after = run(capsys, *argv)
    assert after == run(capsys, *argv, "--no-cache") and after != before
    assert replayed.count == 1
