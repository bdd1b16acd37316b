"""The result cache: per-file parse facts and per-file rule results, keyed by content.

One pickle per store root lives in ``.memlint_cache/`` (or ``--cache-dir``).
An entry is valid while the file's bytes hash the same (blake2b) and the
cache key (memlint version, settings, selected rules, working directory)
is unchanged. Entries hold compact tuples, never YAML objects: a memory's
frontmatter fields, body start and wikilinks, from which ``Memory`` is
rebuilt without parsing. Results of ``Scope.FILE`` rules, which see one
file only, are kept per rule and per profile; every other rule, and all
cross-file checks, always run on the rebuilt store. Writes are atomic;
loading admits memlint's own value classes only.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile

from memlint import __version__
from memlint.sources.document import SourceFile
from memlint.sources.frontmatter import Field, Frontmatter, FrontmatterProblem
from memlint.sources.markdown import WikiLink
from memlint.store import Memory

CACHE_DIR_NAME = ".memlint_cache"
FORMAT = 3
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by memlint.\n"
)


def config_key(settings, rule_codes: list[str], cwd: str) -> str:
    """What every cached result depends on besides the file's own bytes."""
    text = repr((FORMAT, __version__, settings, rule_codes, cwd))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class _FactsUnpickler(pickle.Unpickler):
    """Refuses every class but memlint's plain value types: a planted cache file
    can at worst be wrong, never run code."""

    ALLOWED = frozenset(
        [
            ("memlint.sources.frontmatter", "YamlScalar"),
            *(
                ("memlint.diagnostics", name)
                for name in ("Severity", "Applicability", "Position", "Range", "Edit", "Fix")
            ),
            ("memlint.diagnostics", "Diagnostic"),
        ]
    )

    def find_class(self, module: str, name: str):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a memlint cache")
        return super().find_class(module, name)


def content_digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


class StoreCache:
    """Cached facts and results of one store's files, by store-relative path."""

    def __init__(self, path: str, key: str) -> None:
        self.path = path
        self.key = key
        self.entries: dict[str, list] = {}
        self.changed = False
        self._digests: dict[str, bytes] = {}
        try:
            with open(path, "rb") as handle:
                stored_key, entries = _FactsUnpickler(handle).load()
        except Exception:  # missing, truncated or foreign: start empty
            return
        if stored_key == key and isinstance(entries, dict):
            self.entries = entries

    def _entry(self, source: SourceFile) -> list | None:
        digest = self._digests.get(source.rel)
        if digest is None:
            digest = self._digests[source.rel] = content_digest(source.raw)
        entry = self.entries.get(source.rel)
        if entry is None or entry[0] != digest:
            entry = [digest, None, None]
            self.entries[source.rel] = entry
            self.changed = True
        return entry

    def memory_facts(self, source: SourceFile) -> tuple | None:
        return self._entry(source)[1]

    def remember_memory_facts(self, source: SourceFile, facts: tuple) -> None:
        self._entry(source)[1] = facts
        self.changed = True

    def file_results(self, source: SourceFile, profile: str, code: str) -> list | None:
        results = self._entry(source)[2]
        if results is None or results[0] != profile:
            return None
        return results[1].get(code)

    def remember_file_results(self, source: SourceFile, profile: str, code: str, found) -> None:
        entry = self._entry(source)
        if entry[2] is None or entry[2][0] != profile:
            entry[2] = (profile, {})
        entry[2][1][code] = list(found)
        self.changed = True

    def forget_missing(self, present: set[str]) -> None:
        for rel in [rel for rel in self.entries if rel not in present]:
            del self.entries[rel]
            self.changed = True

    def save(self) -> None:
        """Write atomically (temp file + rename); a failure leaves the old cache intact."""
        if not self.changed:
            return
        directory = os.path.dirname(self.path)
        try:
            prepare_dir(directory)
            handle, temp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".pickle")
            try:
                with os.fdopen(handle, "wb") as out:
                    pickle.dump((self.key, self.entries), out, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(temp, self.path)
            except BaseException:
                os.unlink(temp)
                raise
        except OSError:
            return


class CacheSet:
    """The caches of every store in one run, under one directory."""

    def __init__(self, directory: str, key: str) -> None:
        self.directory = directory
        self.key = key
        self.stores: dict[str, StoreCache] = {}

    def for_store(self, root: str) -> StoreCache:
        found = self.stores.get(root)
        if found is None:
            name = hashlib.blake2b(root.encode("utf-8", "surrogatepass"), digest_size=12)
            path = os.path.join(self.directory, f"store-{name.hexdigest()}.pickle")
            found = self.stores[root] = StoreCache(path, self.key)
        return found

    def save(self) -> None:
        for cache in self.stores.values():
            cache.save()


def prepare_dir(directory: str) -> None:
    """Create the cache directory with ``CACHEDIR.TAG`` and a ``.gitignore`` of ``*``."""
    os.makedirs(directory, exist_ok=True)
    for name, content in (("CACHEDIR.TAG", TAG), (".gitignore", "*\n")):
        target = os.path.join(directory, name)
        if not os.path.exists(target):
            with open(target, "w", encoding="utf-8") as handle:
                handle.write(content)


# -- compact facts ------------------------------------------------------------


def _field_tuple(found: Field) -> tuple:
    children = found.children
    return (
        found.key,
        found.value,
        found.key_start,
        found.value_start,
        found.value_end,
        found.style,
        found.flow,
        None if children is None else tuple(_field_tuple(c) for c in children.values()),
    )


def _field(data: tuple) -> Field:
    key, value, key_start, value_start, value_end, style, flow, children = data
    return Field(
        key,
        value,
        key_start,
        value_start,
        value_end,
        style,
        flow,
        None if children is None else {c[0]: _field(c) for c in children},
    )


def frontmatter_facts(fm: Frontmatter | None) -> tuple | None:
    if fm is None:
        return None
    return (
        fm.start,
        fm.content_start,
        fm.content_end,
        fm.end,
        tuple(_field_tuple(f) for f in fm.fields.values()),
        tuple((p.kind, p.message, p.offset) for p in fm.problems),
        tuple(sorted(fm.duplicate_keys)),
        fm.parsed,
    )


def rebuild_frontmatter(data: tuple | None) -> Frontmatter | None:
    if data is None:
        return None
    start, content_start, content_end, end, fields, problems, duplicates, parsed = data
    return Frontmatter(
        start,
        content_start,
        content_end,
        end,
        {f[0]: _field(f) for f in fields},
        [FrontmatterProblem(*p) for p in problems],
        set(duplicates),
        parsed,
    )


def memory_facts(memory) -> tuple:
    links = tuple(
        (x.raw, x.target, x.heading, x.label, x.start, x.end, x.target_start, x.target_end)
        for x in memory.links
    )
    return (frontmatter_facts(memory.frontmatter), memory.body_start, links, memory.fingerprint)


def rebuild_memory(source: SourceFile, facts: tuple) -> Memory:
    frontmatter, body_start, links, fingerprint = facts
    stem = source.rel.rsplit("/", 1)[-1][:-3]
    return Memory(
        source,
        stem,
        rebuild_frontmatter(frontmatter),
        body_start,
        [WikiLink(*link) for link in links],
        fingerprint,
    )


def cached_file_results(cache: StoreCache, profile: str, code: str, source, run) -> list:
    """Results of a one-file rule on ``source``, from the cache or ``run()``."""
    found = cache.file_results(source, profile, code)
    if found is None:
        found = run()
        cache.remember_file_results(source, profile, code, found)
    return found
