"""The result cache never changes what memlint reports."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memlint.cache import CacheSet, StoreCache, config_key, source_digest
from memlint.cachedir import HEADER_SIZE, MAGIC, _mac, _secret, user_cache_home
from memlint.cli import main
from memlint.config import Settings
from memlint.discovery import discover
from memlint.engine import lint_store, selected_rules
from memlint.sources.document import SourceFile
from tests.helpers import generate_store


@pytest.fixture
def generated(tmp_path: Path) -> Path:
    store = generate_store(tmp_path / "store", 120, seed=7, defect_rate=0.3, notes=20)
    return store


def report(store: Path, capsys, *extra: str) -> str:
    return checked(store, capsys, *extra)


def checked(path: Path, capsys, *extra: str) -> str:
    """``report`` of ``path``: a store, or one of its files (findings on it alone)."""
    capsys.readouterr()
    main(["check", str(path), "--output-format", "json", "--exit-zero", *extra])
    return capsys.readouterr().out


SECRET = b"k" * 32  # the key of caches built directly in these tests


def user_secret() -> bytes:
    """The key of the session's user cache (what ``memlint check`` runs use)."""
    os.makedirs(user_cache_home(), exist_ok=True)
    return _secret(user_cache_home(), create=True)


def unseal(path: Path) -> tuple:
    """``(key, payload)`` of a cache file memlint wrote."""
    import pickle

    return pickle.loads(path.read_bytes()[HEADER_SIZE:])


def reseal(path: Path, key: str, payload) -> None:
    """Write ``payload`` as memlint would, under the user's key: what the validation
    behind the MAC sees if memlint itself ever wrote such an entry."""
    import pickle

    body = pickle.dumps((key, payload))
    path.write_bytes(MAGIC + _mac(user_secret(), body) + body)


MEMO_FIELDS = ("digest", "profile", "reason", "guess", "found", "again", "outside")


def memo_with(memo: tuple, **fields) -> tuple:
    """A sealed memo's payload with some fields replaced (a memo of any other length
    is not used at all, so a test forging one field must keep the layout)."""
    assert len(memo) == len(MEMO_FIELDS)
    return tuple(fields.get(name, value) for name, value in zip(MEMO_FIELDS, memo, strict=True))


def test_a_memo_of_the_right_layout_is_used(generated: Path, tmp_path: Path, capsys) -> None:
    """The memo forgeries below change one field each; this one shows that the layout
    they keep is the one memlint reads (an empty result is taken as it is)."""
    cache_dir = tmp_path / "cache"
    assert '"code"' in report(generated, capsys, "--cache-dir", str(cache_dir))
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    key, memo = unseal(memo_path)
    reseal(memo_path, key, memo_with(memo, found=[]))
    assert '"code"' not in report(generated, capsys, "--cache-dir", str(cache_dir))


def test_a_memo_keeps_why_the_profile_is_a_guess(tmp_path: Path, capsys) -> None:
    """A store loaded from a memo has the profile, its reason and why it is a guess
    (the server and the hook run rules on such a store again: MX003 was lost)."""
    store = tmp_path / "store"
    store.mkdir()
    (store / "MEMORY.md").write_text("- [a](a.md) — fact a\n", encoding="utf-8")
    for name in ("a", "b"):
        (store / f"{name}.md").write_text(
            f"---\nname: the {name}\ndescription: fact {name}\nmetadata:\n  type: user\n---\nx\n",
            encoding="utf-8",
        )
    cache_dir = tmp_path / "cache"
    assert "MX003" in report(store, capsys, "--cache-dir", str(cache_dir))
    settings = Settings()
    (cold,) = discover([str(store)], settings)
    assert cold.profile_guess
    key = config_key(settings, os.getcwd())
    caches = CacheSet(str(cache_dir), key, user_secret())
    (warm,) = discover([str(store)], settings, caches=caches)
    assert warm.memo is not None
    assert (warm.profile, warm.profile_reason, warm.profile_guess) == (
        cold.profile,
        cold.profile_reason,
        cold.profile_guess,
    )


def edit_files(store: Path) -> None:
    memories = sorted(p for p in store.rglob("*.md") if p.name != "MEMORY.md")
    memories[0].write_text("---\nname: [broken\n---\nbody \u200b [[nowhere]]\n", encoding="utf-8")
    memories[1].unlink()
    memories[2].write_text(memories[2].read_text(encoding="utf-8") + "\nmore [[ghost]]\n")
    (store / "new-one.md").write_text("---\nname: new-one\n---\n[[x]]\n", encoding="utf-8")


def test_cached_output_equals_uncached(generated: Path, tmp_path: Path, capsys) -> None:
    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert '"code"' in reference
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    assert (cache_dir / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d17")
    assert (cache_dir / ".gitignore").read_text() == "*\n"
    edit_files(generated)
    changed = report(generated, capsys, "--no-cache")
    assert changed != reference
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == changed
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == changed


def test_warm_run_parses_nothing(generated: Path, tmp_path: Path, monkeypatch) -> None:
    settings = Settings()
    rules = selected_rules(settings)
    key = config_key(settings, str(tmp_path))
    caches = CacheSet(str(tmp_path / "cache"), key, SECRET)
    for store in discover([str(generated)], settings, caches=caches):
        lint_store(store, settings, rules, caches.for_store(store.root))
    caches.save()

    def refuse(source):
        raise AssertionError(f"parsed {source.rel} although it was cached")

    monkeypatch.setattr("memlint.parse.load_memory", refuse)
    warm = CacheSet(str(tmp_path / "cache"), key, SECRET)
    stores = discover([str(generated)], settings, caches=warm)
    assert stores[0].memories


def test_default_cache_is_in_the_user_cache_folder(generated: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(generated.parent / "user-cache"))
    monkeypatch.chdir(generated.parent)
    main(["check", str(generated), "-q", "--exit-zero"])
    assert not (generated.parent / ".memlint_cache").exists()
    (project,) = Path(user_cache_home(), "projects").glob("*")  # one per working directory
    assert (project / "CACHEDIR.TAG").is_file() and list(project.glob("store-*.pickle"))
    key = Path(user_cache_home(), "key")
    assert key.stat().st_size == 32 and key.stat().st_mode & 0o777 == 0o600
    monkeypatch.chdir(generated)
    main(["check", ".", "-q", "--exit-zero", "--no-cache"])
    assert len(list(Path(user_cache_home(), "projects").glob("*"))) == 1


def test_foreign_or_broken_cache_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "store.pickle"
    cache = StoreCache(str(path), "key", SECRET)
    Path(cache.shard_path("a.md")).write_bytes(b"not a pickle")
    assert cache.entries_for("a.md") == {}
    source = SourceFile(path="/s/a.md", rel="a.md", display="a.md", raw=b"x", text="x")
    cache.remember_local_results(source, "linked", [])
    cache.save()
    assert StoreCache(str(path), "key", SECRET).local_results(source, "linked") == []
    assert StoreCache(str(path), "other", SECRET).entries_for("a.md") == {}
    assert StoreCache(str(path), "key", b"x" * 32).entries_for("a.md") == {}  # another user's
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_planted_pickle_runs_nothing(tmp_path: Path) -> None:
    import pickle

    marker = tmp_path / "ran"

    class Exploit:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    store_path = str(tmp_path / "store.pickle")
    path = Path(StoreCache(store_path, "key", SECRET).shard_path("a.md"))
    path.write_bytes(pickle.dumps(("key", {"a.md": [b"", Exploit(), None]})))
    assert StoreCache(store_path, "key", SECRET).entries_for("a.md") == {}  # no MAC: not read
    body = pickle.dumps(("key", {"a.md": [b"", Exploit(), None]}))
    path.write_bytes(MAGIC + _mac(SECRET, body) + body)  # even under the key: refused class
    assert StoreCache(store_path, "key", SECRET).entries_for("a.md") == {}
    assert not marker.exists()
    source = SourceFile(path="/s/a.md", rel="a.md", display="a.md", raw=b"x", text="x")
    digest = source_digest(source)
    body = pickle.dumps(("key", {"a.md": [digest, pickle.dumps(Exploit()), None]}))
    path.write_bytes(MAGIC + _mac(SECRET, body) + body)
    assert StoreCache(store_path, "key", SECRET).memory_facts(source) is None  # blob refused
    assert not marker.exists()


def test_cached_fix_diagnostics_round_trip(tmp_path: Path, capsys) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "MEMORY.md").write_text("# Index\n\n- [A](a.md) — a\n", encoding="utf-8")
    (store / "a.md").write_bytes(b"\xef\xbb\xbf---\nname: a\n---\nno newline \xe2\x80\x8b")
    reference = report(store, capsys, "--no-cache")
    assert '"fix"' in reference
    cache_dir = str(tmp_path / "cache")
    assert report(store, capsys, "--cache-dir", cache_dir) == reference
    assert report(store, capsys, "--cache-dir", cache_dir) == reference


def test_unchanged_store_reuses_the_whole_result_without_parsing(
    generated: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    cache_dir = str(tmp_path / "cache")
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", cache_dir) == reference

    def refuse(*args):
        raise AssertionError("a memo hit parsed or read per-file entries")

    monkeypatch.setattr("memlint.parse.load_memory", refuse)
    monkeypatch.setattr("memlint.cache.StoreCache.memory_facts", refuse)
    monkeypatch.setattr("memlint.engine._StoreRun", refuse)
    assert report(generated, capsys, "--cache-dir", cache_dir) == reference


@pytest.mark.parametrize("change", ["symlink", "too_large_grows", "excluded", "suppression"])
def test_memo_follows_every_store_input(
    generated: Path, tmp_path: Path, capsys, change: str
) -> None:
    """Inputs besides the memories' bytes: skipped entries, read problems, excludes."""
    cache_dir = str(tmp_path / "cache")
    big = generated / "big.md"
    big.write_bytes(b"x" * 40_000)
    options = ("--config", "max-file-size = 30000", "--config", 'extend-exclude = ["skip-*.md"]')
    index = generated / "MEMORY.md"
    index.write_text(index.read_text(encoding="utf-8") + "- [Skip](skip-me.md) — x\n", "utf-8")
    before = report(generated, capsys, "--cache-dir", cache_dir, *options)
    if change == "symlink":
        (generated / "link.md").symlink_to(big)
    elif change == "too_large_grows":
        big.write_bytes(b"x" * 50_000)  # FS005 names the size, which the bytes read do not hold
    elif change == "excluded":
        (generated / "skip-me.md").write_text("---\nname: x\n---\n", encoding="utf-8")
    else:
        target = sorted(p for p in generated.glob("*.md") if p.name not in ("MEMORY.md", "big.md"))
        target[0].write_text(
            target[0].read_text(encoding="utf-8") + "\n<!-- memlint: file-ignore[ALL] -->\n",
            encoding="utf-8",
        )
    expected = report(generated, capsys, "--no-cache", *options)
    assert expected != before
    assert report(generated, capsys, "--cache-dir", cache_dir, *options) == expected


def test_rules_reading_git_run_on_a_memo_hit(tmp_path: Path, capsys, monkeypatch) -> None:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    store = tmp_path / "memory"
    store.mkdir()
    (store / "MEMORY.md").write_text("- [Role](user_role.md) — who\n", encoding="utf-8")
    (store / "user_role.md").write_text(
        "---\nname: Role\ndescription: who\ntype: user\n---\nBody\n", encoding="utf-8"
    )
    (tmp_path / ".memlint.toml").write_text(
        '[[stores]]\npath = "memory"\nlocal-only = true\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q"], check=True)
    subprocess.run(["git", "add", ".memlint.toml"], check=True)
    args = ("--select", "GT001", "--cache-dir", str(tmp_path / "cache"))
    before = report(store, capsys, *args)
    assert before.count("GT001") == 2  # both files could be committed
    (tmp_path / ".gitignore").write_text("memory/\n", encoding="utf-8")
    assert report(store, capsys, *args).count("GT001") == 0


def test_files_given_report_what_the_whole_run_reports_on_them(
    generated: Path, tmp_path: Path, capsys
) -> None:
    """Pre-commit names a few files: one-file rules run on those only, cross-file rules
    on the whole store; a partial run never leaves a whole-store memo behind."""
    import json

    full = json.loads(report(generated, capsys, "--no-cache"))
    chosen = sorted({d["filename"] for d in full})[:3]
    cache_dir = str(tmp_path / "cache")
    capsys.readouterr()
    main(["check", *chosen, "--output-format", "json", "--exit-zero", "--cache-dir", cache_dir])
    partial = json.loads(capsys.readouterr().out)
    assert partial == [d for d in full if d["filename"] in chosen]
    assert {d["code"][:2] for d in partial} & {"FM", "PV", "TY"}  # one-file rules ran there
    assert json.loads(report(generated, capsys, "--cache-dir", cache_dir)) == full


def test_a_local_rule_sees_only_the_profile(tmp_path: Path) -> None:
    """A rule declared ``local`` that reaches for the store would be cached wrongly per
    file: it gets a ProfileView, so the attempt is a reported crash, not a silent result."""
    from types import SimpleNamespace

    from memlint.diagnostics import Severity
    from memlint.engine import Rule
    from memlint.rules.base import ALL_PROFILES, RuleMeta, Scope

    def check(ctx, source):
        assert ctx.store.profile in ALL_PROFILES
        yield from ()
        len(ctx.store.memories)  # not part of a local rule's view

    meta = RuleMeta("ZZ001", "peeks", "peeks", Severity.ERROR, Scope.FILE, ALL_PROFILES, local=True)
    store_dir = generate_store(tmp_path / "s", 5, seed=1)
    settings = Settings()
    (store,) = discover([str(store_dir)], settings)
    found = lint_store(store, settings, [Rule(SimpleNamespace(META=meta, check=check))])
    assert found and {d.code for d in found} == {"MX002"}
    assert all("ZZ001 crashed (AttributeError" in d.message for d in found)


def age(store: Path, seconds: float = 3600) -> None:
    """Set every file's mtime back, so that its signature is trusted (not racy)."""
    then = time.time() - seconds
    for path in store.rglob("*"):
        os.utime(path, (then, then), follow_symlinks=False)


def count_reads(monkeypatch) -> list[str]:
    """The store-relative paths read from disk from now on, in order."""
    import memlint.discovery
    import memlint.sources.document as document

    reads: list[str] = []
    original = document.read_into

    def counted(source, max_bytes):
        reads.append(source.rel)
        original(source, max_bytes)

    monkeypatch.setattr(document, "read_into", counted)
    monkeypatch.setattr(memlint.discovery, "read_into", counted)
    return reads


@pytest.mark.parametrize("output_format", ["json", "full"])
def test_unchanged_files_are_not_read_again(
    generated: Path, tmp_path: Path, capsys, monkeypatch, output_format: str
) -> None:
    """Signatures stand for unchanged content: only the index, the note stores, files
    holding a suppression and (for snippets) files with findings are read."""
    import json

    target = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    target.write_text(
        target.read_text(encoding="utf-8") + "\n<!-- memlint: ignore[LK001] -->\n", "utf-8"
    )
    age(generated)
    options = ("--output-format", output_format, "--exit-zero")
    cache_dir = str(tmp_path / "cache")
    capsys.readouterr()
    main(["check", str(generated), *options, "--no-cache"])
    reference = capsys.readouterr().out
    main(["check", str(generated), *options, "--cache-dir", cache_dir])
    assert capsys.readouterr().out == reference
    reads = count_reads(monkeypatch)
    main(["check", str(generated), *options, "--cache-dir", cache_dir])
    assert capsys.readouterr().out == reference
    memories = {p.relative_to(generated).as_posix() for p in generated.rglob("*.md")}
    memories.discard("MEMORY.md")
    read_memories = set(reads) & memories
    assert target.name in read_memories  # its suppression is applied again
    if output_format == "json":
        assert read_memories == {target.name}
    else:  # the snippets show lines of the files with findings
        main(["check", str(generated), "--output-format", "json", "--no-cache", "--exit-zero"])
        found = {
            os.path.relpath(d["filename"], generated) for d in json.loads(capsys.readouterr().out)
        }
        assert read_memories == (found & memories) | {target.name}
    assert len(read_memories) < len(memories) / 2


def test_a_rewrite_keeping_size_and_mtime_is_seen(generated: Path, tmp_path: Path, capsys) -> None:
    age(generated)
    cache_dir = str(tmp_path / "cache")
    report(generated, capsys, "--cache-dir", cache_dir)
    target = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    content = target.read_bytes()
    stat = target.stat()
    broken = b"---\nname: [\n---\n"
    target.write_bytes(broken + b"x" * (len(content) - len(broken)))
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # ctime still moves
    assert target.stat().st_size == stat.st_size
    expected = report(generated, capsys, "--no-cache")
    assert "FM003" in expected
    assert report(generated, capsys, "--cache-dir", cache_dir) == expected


def test_a_file_written_just_before_the_run_is_read_every_time(
    generated: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    """A signature taken less than RACY_NS after the file's mtime is not trusted: a
    second write within the same clock tick would keep it."""
    age(generated)
    fresh = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    fresh.write_text(fresh.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    cache_dir = str(tmp_path / "cache")
    report(generated, capsys, "--cache-dir", cache_dir)
    reads = count_reads(monkeypatch)
    report(generated, capsys, "--cache-dir", cache_dir)
    memories = [r for r in reads if r != "MEMORY.md" and r.endswith(".md")]
    assert memories == [fresh.name]


def test_a_memo_hit_imports_only_the_rules_it_runs_again(generated: Path, tmp_path: Path) -> None:
    """Rules run every time (here the unused-suppression rule, which reports below,
    and the note-store rule reading git) are named in the memo; no other rule
    module, and no parser, is imported (text output: JSON shows rule metadata)."""
    import json
    import subprocess
    import sys

    target = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    target.write_text(
        target.read_text(encoding="utf-8") + "\n<!-- memlint: ignore[ID003] -->\n", "utf-8"
    )
    script = (
        "import json, sys\n"
        "from memlint.cli import main\n"
        "try:\n"
        f"    main(['check', {str(generated)!r}, '--output-format', 'concise', '--exit-zero',"
        f" '--cache-dir', {str(tmp_path / 'cache')!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "modules = sorted(m for m in sys.modules if m.startswith('memlint.'))\n"
        "print(json.dumps(modules), file=sys.stderr)\n"
    )

    def run() -> tuple[str, list[str]]:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
        return done.stdout, json.loads(done.stderr.splitlines()[-1])

    first, imported_cold = run()
    second, imported_warm = run()
    assert second == first
    assert ": MX001 " in second
    assert "memlint.rules.fm.fm001_missing_frontmatter" in imported_cold
    rules = {m for m in imported_warm if m.count(".") == 3 and m.startswith("memlint.rules.")}
    assert rules <= {
        "memlint.rules.mx.mx001_unused_suppression",
        "memlint.rules.nt.nt016_append_only_violation",
        "memlint.rules.nt.common",
    }
    assert "memlint.rules.mx.mx001_unused_suppression" in rules
    assert "memlint.parse" not in imported_warm


def test_a_memo_naming_an_unknown_rule_is_not_used(generated: Path, tmp_path: Path, capsys) -> None:

    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    key, memo = unseal(memo_path)
    reseal(memo_path, key, memo_with(memo, again=("os.system",)))
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference


def test_rule_names_are_checked_before_import() -> None:
    from memlint.rules import is_rule_name, load_rule, registry, rule_name

    for code, module in registry().items():
        assert is_rule_name(rule_name(module))
        assert load_rule(rule_name(module)).META.code == code
    for bad in ("os.system", "nt.common", "nt.", "", None, "fs.fs001_unreadable_file.x"):
        assert not is_rule_name(bad)
    with pytest.raises(KeyError):
        load_rule("nt.common")


def test_malformed_signature_records_are_ignored(generated: Path, tmp_path: Path, capsys) -> None:
    """Records of the wrong type or length are dropped (their files read again): a
    longer record would be trusted and misread, here hiding a file's suppression."""

    target = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    target.write_text(
        target.read_text(encoding="utf-8") + "\n<!-- memlint: file-ignore[ALL] -->\n", "utf-8"
    )
    age(generated)
    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    import marshal

    (records_path,) = cache_dir.glob("*.files.pickle")
    key, (rels, records) = marshal.loads(records_path.read_bytes()[HEADER_SIZE:])
    size = len(records) // len(rels)
    at = rels.index(target.name) * size
    longer = records[: at + size - 1] + b"\x00" + records[at + size - 1 :]  # (no directive)
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    for planted in (
        (rels, longer),
        ([*rels, "extra.md"], records),  # a path too many: every record shifts
        ([1, *rels[1:]], records),
        (rels, list(records)),
        (tuple(rels), records),
        (rels,),
    ):
        body = marshal.dumps((key, planted))
        records_path.write_bytes(MAGIC + _mac(user_secret(), body) + body)
        memo_path.unlink(missing_ok=True)
        assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference


def test_facts_handed_over_are_saved_again_when_results_change(tmp_path: Path) -> None:
    """An unchanged entry hands its facts out without keeping a copy; asked again,
    or saved with new local results (another profile), it reads them from its blob."""
    path = tmp_path / "store.pickle"
    source = SourceFile(path="/s/a.md", rel="a.md", display="a.md", raw=b"x")
    facts = (None, 0, (), (0, b""), True)
    first = StoreCache(str(path), "key", SECRET)
    first.remember_memory_facts(source, facts)
    first.remember_local_results(source, "typed", [])
    first.save()
    second = StoreCache(str(path), "key", SECRET)
    assert second.memory_facts(source) == facts
    assert second._opened["a.md"][0] is None  # not held twice
    assert second.memory_facts(source) == facts
    second.remember_local_results(source, "freeform", [])
    second.save()
    third = StoreCache(str(path), "key", SECRET)
    assert third.memory_facts(source) == facts
    assert third.local_results(source, "freeform") == []


def test_malformed_cached_facts_and_results_are_not_used(
    generated: Path, tmp_path: Path, capsys
) -> None:
    """Well-formed pickles of the wrong shape, sealed with the user's key (as a bug in
    memlint could write them; a planted file fails the MAC first), are cache misses:
    the files are parsed and checked again, and the output is the reference."""
    import pickle

    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    shards = [p for p in cache_dir.glob("*.pickle") if p.name.count(".") == 1]
    assert len(shards) > 1
    planted_facts = [("x",), (None, 0, ((1,),), (0, b""), True), "facts"]
    planted_results = [("linked", [1, 2]), ["linked", []], ("linked", "x")]
    n = 0
    for entries_path in shards:
        key, entries = unseal(entries_path)
        for entry in entries.values():
            n += 1
            facts, results = pickle.loads(entry[1]) if entry[1] else None, entry[2]
            if facts is not None and n % 2:
                fields = facts[0][4] if facts[0] else ()
                if fields and n % 4 == 1:  # a field whose key is not a string
                    fm = facts[0]
                    frontmatter = (*fm[:4], ((None, *fields[0][1:]), *fields[1:]), *fm[5:])
                    facts = (frontmatter, *facts[1:])
                else:
                    facts = planted_facts[n % len(planted_facts)]
            else:
                results = planted_results[n % len(planted_results)]
            entry[1], entry[2] = pickle.dumps(facts), results
        reseal(entries_path, key, entries)
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    memo_key, memo = unseal(memo_path)
    reseal(memo_path, memo_key, memo_with(memo, found=[3, 4]))
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference  # memo unused
    for path in generated.rglob("*.md"):  # touched: read again, digests unchanged
        os.utime(path)
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference


def test_diagnostics_with_a_field_of_the_wrong_type_are_not_used(
    generated: Path, tmp_path: Path, capsys
) -> None:
    """Each field of a cached diagnostic is checked: one wrong type and the memo is a miss
    (such entries crashed the renderers, or made them run for seconds)."""
    from memlint.diagnostics import Position, Range
    from memlint.records import replace

    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    key, memo = unseal(memo_path)
    first = memo[MEMO_FIELDS.index("found")][0]
    wrong = [
        replace(first, message=7),
        replace(first, notes=("ok", 3)),
        replace(first, range=Range(Position("1", 1), first.range.end)),
        replace(first, severity=2),
        replace(first, fix="fix"),
        replace(first, code=None),
    ]
    for bad in wrong:
        found = memo[MEMO_FIELDS.index("found")]
        reseal(memo_path, key, memo_with(memo, found=[bad, *found[1:]]))
        assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference


def _store_with_nested_target(root: Path) -> Path:
    """An index that links a file of a nested store (outside its own walk)."""
    store = root / "memory"
    (store / "sub").mkdir(parents=True)
    (store / "MEMORY.md").write_text("# Memory\n\n- [X](sub/x.md) — the x memory\n")
    (store / "sub" / "MEMORY.md").write_text("# Sub\n\n- [X](x.md) — the x memory\n")
    (store / "sub" / "x.md").write_text(
        "---\nname: x\ndescription: the x memory\ntype: user\n---\n\nbody\n"
    )
    return store


def test_a_memo_does_not_outlive_an_index_target_outside_the_walk(tmp_path, capsys):
    store = _store_with_nested_target(tmp_path)
    assert "IX003" not in report(store, capsys)  # the memo is written
    (store / "sub" / "x.md").unlink()
    for _ in range(2):  # the first run after the change and the one after it
        assert report(store, capsys) == report(store, capsys, "--no-cache")
    assert report(store, capsys).count("IX003") == 2  # the outer index's and the nested one's


def test_a_memo_does_not_outlive_a_target_that_appears(tmp_path, capsys):
    store = _store_with_nested_target(tmp_path)
    (store / "sub" / "x.md").unlink()
    assert report(store, capsys).count("IX003") == 2
    (store / "sub" / "x.md").write_text(
        "---\nname: x\ndescription: the x memory\ntype: user\n---\n\nbody\n"
    )
    assert "IX003" not in report(store, capsys)
    assert report(store, capsys) == report(store, capsys, "--no-cache")


def test_an_unchanged_index_is_not_parsed_again(
    generated: Path, tmp_path: Path, capsys, monkeypatch
):
    """The index's entries are kept for its digest: a run that re-lints the store after a
    memory changed does not parse MEMORY.md again; an edited index is parsed afresh."""
    cache_dir = tmp_path / "cache"
    report(generated, capsys, "--cache-dir", str(cache_dir))
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[3]
    memory.write_text(memory.read_text(encoding="utf-8") + "\nmore [[ghost]]\n", encoding="utf-8")
    reference = report(generated, capsys, "--no-cache")
    with monkeypatch.context() as patched:

        def refuse(*args):
            raise AssertionError("MEMORY.md parsed although its entries were cached")

        patched.setattr("memlint.parse.parse_index", refuse)
        assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    index = generated / "MEMORY.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "- [Gone](gone-for-good.md) — removed\n", encoding="utf-8")
    edited = report(generated, capsys, "--no-cache")
    assert "gone-for-good.md" in edited
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == edited
    index.write_text(text.replace("- [", "- [Renamed ", 1), encoding="utf-8")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == report(
        generated, capsys, "--no-cache"
    )


def test_malformed_cached_index_entries_are_not_used(generated: Path, tmp_path: Path, capsys):
    """Index entries of the wrong shape or types, sealed with the user's key, are a miss."""
    import marshal

    cache_dir = tmp_path / "cache"
    reference = report(generated, capsys, "--no-cache")
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    (path,) = cache_dir.glob("*.entries")
    key, (digest, body_start, count, blobs) = marshal.loads(path.read_bytes()[HEADER_SIZE:])
    columns = [marshal.loads(blob) for blob in blobs]
    assert count == len(columns[0]) > 0
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]

    def sealed(columns: list) -> list[bytes]:
        return [marshal.dumps(column) for column in columns]

    for planted in (
        (count, sealed([*columns[:3], [b"title", *columns[3][1:]], *columns[4:]])),  # bytes
        (count, sealed([*columns[:5], [b"x.md", *columns[5][1:]], *columns[6:]])),  # a target
        (count, sealed([*columns[:3], columns[3][1:], *columns[4:]])),  # a column too short
        (count + 1, blobs),  # every column too short
        (count, sealed([*columns[:9], [1, *columns[9][1:]], columns[10]])),  # int for a bool
        (count, blobs[:10]),  # a field missing
        (count, [*blobs[:5], blobs[5][:-3], *blobs[6:]]),  # a column cut short
        (count, [*blobs[:5], "x", *blobs[6:]]),
        ("entries",),
    ):
        body = marshal.dumps((key, (digest, body_start, *planted)))
        for target in (generated, memory):  # the whole store; one file (a few columns read)
            path.write_bytes(MAGIC + _mac(user_secret(), body) + body)
            memory.write_text(memory.read_text(encoding="utf-8") + "\n", encoding="utf-8")
            expected = checked(target, capsys, "--no-cache")
            assert checked(target, capsys, "--cache-dir", str(cache_dir)) == expected


def test_a_warm_run_naming_one_memory_loads_few_others(
    generated: Path, tmp_path: Path, capsys, monkeypatch
):
    """Naming one edited memory with a warm cache loads the parsed values of the memories
    its findings are about, not of every memory (supersession is known from summaries:
    SU003 loaded all of them)."""
    cache_dir = tmp_path / "cache"
    report(generated, capsys, "--cache-dir", str(cache_dir))
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[5]
    memory.write_text(memory.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    loaded = []
    rebuild = __import__("memlint.parse", fromlist=["rebuild_parsed"]).rebuild_parsed
    monkeypatch.setattr("memlint.parse.rebuild_parsed", lambda f: loaded.append(f) or rebuild(f))
    capsys.readouterr()
    main(
        [
            "check",
            str(memory),
            "--output-format",
            "json",
            "--exit-zero",
            "--cache-dir",
            str(cache_dir),
        ]
    )
    assert len(loaded) < 10


def test_a_memo_of_other_inputs_is_not_unpickled(
    generated: Path, tmp_path: Path, capsys, monkeypatch
):
    """A memo saved for other inputs (a file edited since) is told apart by the store
    digest near its start: it is neither authenticated in full nor unpickled; the memo
    of these inputs is."""
    cache_dir = tmp_path / "cache"
    report(generated, capsys, "--cache-dir", str(cache_dir))
    (memo_path,) = cache_dir.glob("*.memo.pickle")
    loads = []
    load = __import__("memlint.cache", fromlist=["_load"])._load
    monkeypatch.setattr(
        "memlint.cache._load", lambda path, *a, **k: loads.append(path) or load(path, *a, **k)
    )
    report(generated, capsys, "--cache-dir", str(cache_dir))
    assert str(memo_path) in loads  # nothing changed: the memo is read and used
    loads.clear()
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[3]
    memory.write_text(memory.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    main(["check", str(memory), "--exit-zero", "--cache-dir", str(cache_dir)])
    assert "1 store" in capsys.readouterr().out  # (a pre-commit run: linted)
    assert str(memo_path) not in loads


def test_malformed_summary_columns_are_not_used(generated: Path, tmp_path: Path, capsys):
    """Summary columns of the wrong shape or types, sealed with the user's key, are a miss:
    every memory is parsed again and the output is the reference."""
    import marshal

    cache_dir = tmp_path / "cache"
    assert report(generated, capsys, "--cache-dir", str(cache_dir))
    (path,) = cache_dir.glob("*.index")
    key, columns = marshal.loads(path.read_bytes()[HEADER_SIZE:])
    rels, digests, fingerprints, names, *rest = columns
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[0]
    for planted in (
        (rels, digests, fingerprints, [1, *names[1:]], *rest),  # an int for a name
        (rels, digests, fingerprints, names, rest[0], rest[1], [("x", 1), *rest[2][1:]], *rest[3:]),
        (rels, digests, fingerprints, names[1:], *rest),  # a column too short
        (rels, digests, fingerprints, names, *rest[:-1]),  # a field missing
        ([rels[1], *rels[1:]], digests, fingerprints, names, *rest),  # a path twice
        ([rels[1], rels[0], *rels[2:]], digests, fingerprints, names, *rest),  # rows swapped
        *(  # a malformed fingerprint (its row is not used)
            (rels, digests, [fingerprints[0], bad, *fingerprints[2:]], names, *rest)
            for bad in ((1, b"x"), (1, "x" * 256), ("1", b"x" * 256), (1,), [1, b"x" * 256])
        ),
    ):
        body = marshal.dumps((key, planted))
        path.write_bytes(MAGIC + _mac(user_secret(), body) + body)
        memory.write_text(memory.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        expected = report(generated, capsys, "--no-cache")
        assert report(generated, capsys, "--cache-dir", str(cache_dir)) == expected


def test_one_edited_file_rewrites_one_shard_of_facts(generated: Path, tmp_path: Path, capsys):
    """The per-file facts and results are kept in shards: a run after one memory changed
    writes back the shard holding it, not every file's entry."""
    cache_dir = tmp_path / "cache"
    report(generated, capsys, "--cache-dir", str(cache_dir))
    shards = {p: p.read_bytes() for p in cache_dir.glob("*.pickle") if p.name.count(".") == 1}
    assert len(shards) > 10
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[2]
    memory.write_text(memory.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    report(generated, capsys, "--cache-dir", str(cache_dir))
    assert sum(path.read_bytes() != data for path, data in shards.items()) == 1


def test_edits_across_many_shards_go_into_one_delta_file(tmp_path: Path, capsys, monkeypatch):
    """Edits spread over more than ``FEW_SHARDS`` shards are written to one delta file,
    not to their shards, and read back from it; when the delta is full its entries go
    into their shards."""
    import hashlib

    import memlint.cache
    from memlint.cache import FEW_SHARDS, _shard

    store = generate_store(tmp_path / "store", 400, seed=3, defect_rate=0.3)
    cache_dir = tmp_path / "cache"
    cache = ["--cache-dir", str(cache_dir)]
    report(store, capsys, *cache)
    shards = {p: p.read_bytes() for p in cache_dir.glob("store-*-[0-9][0-9].pickle")}
    assert len(shards) == 64
    memories = sorted(p for p in store.glob("*.md") if p.name != "MEMORY.md")
    by_shard = {_shard(p.name): p for p in memories}
    assert len(by_shard) > 2 * (FEW_SHARDS + 1)
    rounds = [list(by_shard.values())[: FEW_SHARDS + 1], list(by_shard.values())[-FEW_SHARDS - 1 :]]
    for number, edited in enumerate(rounds):
        for path in edited:
            path.write_text(path.read_text(encoding="utf-8") + f"\nround {number}\n", "utf-8")
        expected = report(store, capsys, "--no-cache")
        assert report(store, capsys, "--cache-dir", str(cache_dir)) == expected
        if number == 0:
            assert all(path.read_bytes() == data for path, data in shards.items())
            assert len(list(cache_dir.glob("store-*-delta.pickle"))) == 1
            key = config_key(Settings(), os.getcwd())
            cached = CacheSet(str(cache_dir), key, user_secret()).for_store(str(store))
            for path in edited:  # read through the delta, over the shards
                entry = cached.entries_for(path.name).get(path.name)
                assert entry is not None
                assert entry[0] == hashlib.sha256(path.read_bytes()).digest()[:16]
            monkeypatch.setattr(memlint.cache, "DELTA_LIMIT", FEW_SHARDS + 2)
    changed = sum(path.read_bytes() != data for path, data in shards.items())
    assert changed == 2 * (FEW_SHARDS + 1)  # the delta, full, went into its shards


def test_cached_local_results_are_read_without_the_facts(
    generated: Path, tmp_path: Path, capsys, monkeypatch
):
    """A warm run after one edit reads every file's cached local results, and unpickles
    the parse facts only of the memories a rule loads (every file's were unpickled)."""
    import memlint.cache

    cache_dir = tmp_path / "cache"
    report(generated, capsys, "--cache-dir", str(cache_dir))
    memory = sorted(p for p in generated.glob("*.md") if p.name != "MEMORY.md")[4]
    memory.write_text(memory.read_text(encoding="utf-8") + "\nmore\n", encoding="utf-8")
    reference = report(generated, capsys, "--no-cache")
    unpickled = []
    loads = memlint.cache._loads
    monkeypatch.setattr(memlint.cache, "_loads", lambda blob: unpickled.append(1) or loads(blob))
    assert report(generated, capsys, "--cache-dir", str(cache_dir)) == reference
    memories = len([p for p in generated.rglob("*.md") if p.name != "MEMORY.md"])
    assert len(unpickled) < memories // 2


def test_a_warm_run_shows_the_lines_of_unread_files_from_the_cache(
    tmp_path: Path, capsys, monkeypatch
):
    """The full format's snippets of files a warm run did not read come from the lines
    the last run showed (``ShownLines``), keyed by each file's digest: no file is read
    for them, and an edited file's line is shown as it is now."""
    import memlint.cache
    import memlint.discovery
    import memlint.sources.document

    monkeypatch.setattr(memlint.cache, "RACY_NS", 0)  # signatures kept at once
    store = generate_store(tmp_path / "store", 60, seed=3, defect_rate=0.4)
    argv = ["check", str(store), "--exit-zero", "--cache-dir", str(tmp_path / "cache")]
    reads: list[str] = []
    real = memlint.sources.document.read_into

    def counting(source, max_bytes):
        reads.append(source.path)
        real(source, max_bytes)

    monkeypatch.setattr(memlint.sources.document, "read_into", counting)
    monkeypatch.setattr(memlint.discovery, "read_into", counting)

    def full(*extra: str) -> tuple[str, set[str]]:
        capsys.readouterr()
        reads.clear()
        main([*argv, *extra])
        return capsys.readouterr().out, set(reads)

    full()
    memories = sorted(p for p in store.glob("*.md") if p.name != "MEMORY.md")
    shown = {line.split(" --> ")[-1].split(":")[0] for line in full()[0].splitlines()}
    edited = next(p for p in memories if str(p) in shown and "type: " in p.read_text())
    edited.write_text(edited.read_text().replace("type: ", "type:  ", 1))
    out, read = full("--no-cache")
    assert (out, len(read) > 0) == (full()[0], True)  # the edit reused the last result
    out, read = full()  # nothing changed: replayed (no read); then an edit elsewhere
    other = next(p for p in memories if p != edited and str(p) not in shown)
    other.write_text(other.read_text() + "\nmore\n")
    out, read = full()
    assert out == full("--no-cache")[0]
    assert read <= {str(other), str(edited), str(store / "MEMORY.md")}  # none for its lines
    monkeypatch.setattr(memlint.cache.ShownLines, "get", lambda self, source, number: None)
    other.write_text(other.read_text() + "\nagain\n")
    assert len(full()[1]) > 5  # (without them, each file with a finding is read)
