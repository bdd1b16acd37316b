"""The result cache: per-file parse facts and rule results, and whole-store results.

A cache memlint did not write is never trusted. The cache lives in the user's
cache folder (``$XDG_CACHE_HOME/memlint`` or ``~/.cache/memlint``), one folder
per project (by the real path of the working directory), or in ``--cache-dir``;
a ``.memlint_cache`` in the work tree is never read by default. Every file
starts with an HMAC-SHA256 of its content under a random key kept in the user's
cache folder (``key``, mode 0600, never in the work tree): a file whose MAC does
not match is not unpickled. A cache folder or key that is a symlink (or reached
through one inside the working directory) or belongs to another user is refused,
and so is a cache folder holding files memlint did not write (the run goes on
without the cache, with a warning).

Each store root has these files in the cache folder:

- ``store-<id>-<nn>.pickle``, ``SHARDS`` of them (a file's shard is the CRC-32 of
  its store-relative path): per file, the content digest (SHA-256), a blob
  holding the parse facts of a memory (frontmatter fields, body start,
  wikilinks, fingerprint: compact tuples from which ``Memory`` is rebuilt
  without parsing, unpickled only when asked for) and the results of the
  ``local`` rules on that file for one profile. An entry is valid while the
  file's digest is unchanged. A shard is read when one of its files is asked
  for and written again only when one of its entries changed: one edited file
  rewrites a 64th of the facts.
- ``store-<id>.files.pickle``: per file, its ``lstat`` signature (size,
  mtime, ctime, inode, device) when last read, with its digest and whether it
  mentions a suppression. A file whose signature is unchanged is not read
  again: its digest is taken from here and its content read only if some
  rule or renderer asks for it (as git's index does). A signature is kept
  only when the file's mtime was at least ``RACY_NS`` older than the run
  that read it, so a write in the same clock tick as the read is never missed.
  Kept as two columns (paths, records joined; ``marshal``).
- ``store-<id>.index``: per memory, what the cross-file rules and profile
  detection read without parsing it (``store.Summary``: name, description,
  link targets, profile signals, memory type) and its near-duplicate fingerprint, for the
  digest it was computed from; kept as columns (one list per field, written
  with ``marshal``): 10,000 rows load in milliseconds, where one object graph
  per file took a quarter of a second. A memory whose row is valid is built
  from it, and parsed (from its facts above, else its file) only when a rule
  asks for more.
- ``store-<id>.entries``: the entries of the store's ``MEMORY.md`` as parsed
  (``sources.index.IndexEntry`` fields, marshal), for the digest of its content:
  a large index is not parsed again while it is unchanged.
- ``store-<id>.memo.pickle``: the profile, every non-external rule's
  diagnostics (before suppressions) and the names of the rules that run every
  time, for one store digest, which covers the digest and path of every file,
  the skipped and excluded entries. When no input changed the whole result is
  reused.
- ``store-<id>.basis``: what that store digest was computed from (the other
  inputs, each file's path and digest; marshal). When only memories changed
  since, their summaries as they were (the rows above, for the digests listed
  here) say which files the change can touch (``ties.Ties``): the rules run
  again on those only, and the memo's findings on every other file stand
  (``engine``). Anything else (a file added, removed or renamed, the index or
  a note file changed, another profile) runs every rule again.

Beside them, ``replay-<hash>`` (one per command line and working directory) holds a
whole run's output and what it depended on (:mod:`memlint.replay`). Where the cache
lives, its key and the sealing of its files are :mod:`memlint.cachedir`'s.

Everything also depends on the cache key (memlint and Python version,
settings, working directory). Rules that read git (``external``) are
never cached. Writes are atomic; loading admits memlint's own value classes only,
and cached facts or results with a field of the wrong type are not used (the
file is checked again).
"""

from __future__ import annotations

import io
import marshal
import os
import struct
import sys
import zlib
from functools import partial
from itertools import chain, compress, repeat, starmap
from operator import attrgetter, is_, is_not, itemgetter, ne, not_

from memlint import __version__
from memlint.cachedir import (
    CacheRefused,
    cache_folder,
    folder_name,
    seal,
    sealed_head,
    unseal,
)
from memlint.diagnostics import Applicability, Diagnostic, Edit, Fix, Position, Range, Severity
from memlint.records import NamedTuple
from memlint.rules import is_rule_name
from memlint.sources.document import BOM_BYTES, Known, SourceFile
from memlint.store import Summary
from memlint.suppression import DIRECTIVE_MARK

FORMAT = 20  # 19: the signature records in columns; 20: the index's columns apart
SHARDS = 64
RACY_NS = 2_000_000_000  # a signature younger than this at reading is not trusted
SIGNATURE = struct.Struct("<QqqQQ")  # size, mtime and ctime (ns), inode, device
DIGEST_SIZE = 16
RECORD_SIZE = SIGNATURE.size + DIGEST_SIZE + 1  # signature, digest, has-directive byte
_REL = attrgetter("rel")
_KNOWN = attrgetter("known")
_SIGNATURE_FIELDS = attrgetter("st_size", "st_mtime_ns", "st_ctime_ns", "st_ino", "st_dev")


class Memo(NamedTuple):
    """A store's whole result: its profile (why, and why it is a guess), the
    diagnostics of the rules that are not rerun, and the rules to run again (by
    ``memlint.rules.rule_name``)."""

    profile: str
    reason: str
    guess: str
    found: list
    again: tuple[str, ...]


def config_key(settings, cwd: str) -> str:
    """What every cached result depends on besides the files themselves (the rules
    selected follow from the settings and memlint's version)."""
    import hashlib  # hashlib, hmac and pickle: imported only when a cache is used

    text = repr((FORMAT, __version__, sys.version_info[:2], settings, cwd))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


ALLOWED_CLASSES = frozenset(
    [
        ("memlint.sources.frontmatter", "YamlScalar"),
        *(
            ("memlint.diagnostics", name)
            for name in ("Severity", "Applicability", "Position", "Range", "Edit", "Fix")
        ),
        ("memlint.diagnostics", "Diagnostic"),
    ]
)
_unpickler_class: type | None = None


def _unpickle(stream: io.BytesIO):
    """Unpickle refusing every class but memlint's plain value types: a planted
    cache file can at worst be wrong, never run code."""
    global _unpickler_class
    if _unpickler_class is None:
        import pickle

        class FactsUnpickler(pickle.Unpickler):
            def find_class(self, module: str, name: str):
                if (module, name) not in ALLOWED_CLASSES:
                    message = f"{module}.{name} is not allowed in a memlint cache"
                    raise pickle.UnpicklingError(message)
                return super().find_class(module, name)

        _unpickler_class = FactsUnpickler
    return _unpickler_class(stream).load()


def _load(path: str, key: str, secret: bytes, columns: bool = False):
    """The payload stored under ``key`` at ``path`` if this user's ``secret``
    authenticates it, else ``None`` (nothing of a forged file is unpickled);
    ``columns``: written with ``marshal`` (plain values only), not pickle."""
    body = unseal(path, secret)
    if body is None:
        return None
    try:
        if columns:
            stored_key, payload = marshal.loads(bytes(body))  # (2x faster than from a view)
        else:
            stored_key, payload = _unpickle(io.BytesIO(body))
    except Exception:  # written by another memlint version: start empty
        return None
    return payload if stored_key == key else None


def _loads(blob) -> object:
    """One entry's pickle, admitting memlint's value classes only; ``None`` if broken."""
    if not isinstance(blob, bytes):
        return None
    try:
        return _unpickle(io.BytesIO(blob))
    except Exception:  # truncated or foreign: the entry is rebuilt
        return None


def _dump(path: str, key: str, secret: bytes, payload, columns: bool = False) -> None:
    """Write atomically (temp file + rename); a failure leaves the old file intact."""
    import pickle

    if columns:
        body = marshal.dumps((key, payload))
    else:
        body = pickle.dumps((key, payload), protocol=pickle.HIGHEST_PROTOCOL)
    seal(path, secret, body)


def signature(entry: os.DirEntry) -> bytes | None:
    """What changes whenever a file's content may have, from ``lstat``: size, mtime,
    ctime, inode and device, packed (a record is one bytes object: 100,000 of them
    unpickle 2x faster than tuples of ints)."""
    try:
        st = entry.stat(follow_symlinks=False)
        return SIGNATURE.pack(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
    except (OSError, struct.error):  # no signature: the file is read every time
        return None


def _load_signatures(path: str, key: str, secret: bytes) -> dict[str, bytes]:
    """The signature records at ``path`` (signature, digest, has-directive byte), kept
    as two columns (``_signature_columns``); none when malformed."""
    loaded = _load(path, key, secret, columns=True)
    if not (type(loaded) is tuple and len(loaded) == 2):
        return {}
    rels, records = loaded
    if not (
        type(rels) is list
        and type(records) is bytes
        and len(records) == RECORD_SIZE * len(rels)
        and set(map(type, rels)) <= {str}
    ):
        return {}
    size = RECORD_SIZE
    slices = [records[at : at + size] for at in range(0, len(records), size)]
    return dict(zip(rels, slices, strict=True))


def _signature_columns(records: dict[str, bytes]) -> tuple[list[str], bytes]:
    """``records`` as the paths and their records joined (``marshal`` loads 10,000
    of them 3x faster than a pickled dict)."""
    return list(records), b"".join(records.values())


def _position(found) -> bool:
    return type(found) is Position and type(found.line) is int and type(found.column) is int


def _range(found) -> bool:
    return type(found) is Range and _position(found.start) and _position(found.end)


def _edit(found) -> bool:
    return (
        type(found) is Edit
        and type(found.path) is str
        and type(found.start) is int
        and type(found.end) is int
        and type(found.content) is str
        and _range(found.range)
        and type(found.create) is bool
    )


def _fix(found) -> bool:
    return (
        type(found) is Fix
        and type(found.edits) is tuple
        and all(map(_edit, found.edits))
        and type(found.applicability) is Applicability
        and type(found.title) is str
    )


def _lookup(found) -> bool:
    return (
        type(found) is tuple
        and len(found) == 2
        and type(found[0]) is str
        and type(found[1]) is bool
    )


def _diagnostics(found) -> bool:
    """Whether ``found``, loaded from the cache, is a list of diagnostics whose every
    field has the type memlint writes (anything else is not used)."""
    if type(found) is not list:
        return False
    for item in found:
        if not (
            type(item) is Diagnostic
            and type(item.code) is str
            and type(item.message) is str
            and type(item.path) is str
            and type(item.display_path) is str
            and type(item.severity) is Severity
            and type(item.notes) is tuple
            and _range(item.range)
        ):
            return False
        if item.fix is not None and not _fix(item.fix):
            return False
        if item.notes and not all(type(note) is str for note in item.notes):
            return False
    return True


def source_digest(source: SourceFile) -> bytes:
    """The file's bytes, and why they could not be read if so (size, errno)."""
    import hashlib

    digest = hashlib.sha256(source.raw)  # the fastest here: hardware SHA, 2x blake2b
    if source.problem is not None:
        digest.update(repr(source.problem).encode("utf-8", "surrogatepass"))
    return digest.digest()[:DIGEST_SIZE]


def text_digest(source: SourceFile) -> bytes:
    """The digest of the bytes ``source``'s text was decoded from (``source_digest``
    of a file read without a problem): strict UTF-8 encodes back to the same bytes."""
    import hashlib

    text = source.text or ""
    raw = (BOM_BYTES if source.bom else b"") + text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(raw).digest()[:DIGEST_SIZE]


class StoreCache:
    """Cached facts and results of one store, per file and for the whole store.

    On disk a file's entry is ``[digest, blob, (profile, local results)]``, the blob a
    pickle of its facts: an unchanged file's blob is written back as it was read,
    so saving costs little when few files changed.
    """

    def __init__(self, path: str, key: str, secret: bytes, keep_facts: bool = True) -> None:
        self.path = path
        self.keep_facts = keep_facts  # else a memory's parsed values are parsed again on use
        self.memo_path = path.removesuffix(".pickle") + ".memo.pickle"
        self.files_path = path.removesuffix(".pickle") + ".files.pickle"
        self.index_path = path.removesuffix(".pickle") + ".index"
        self.entries_path = path.removesuffix(".pickle") + ".entries"
        self.basis_path = path.removesuffix(".pickle") + ".basis"
        self._index_entries: tuple | None = None  # (digest, body start, entries) to save
        self.key = key
        self.secret = secret
        self._shards: dict[int, dict[str, list]] = {}  # shard -> rel -> [digest, blob]
        self._changed_shards: set[int] = set()
        self.delta_path = path.removesuffix(".pickle") + "-delta.pickle"
        self._delta: dict[int, dict[str, list]] | None = None  # shard -> its newer entries
        self._delta_read: set[int] = set()  # the shards with entries in the delta file
        self._opened: dict[str, list] = {}  # rel -> [facts, results], unpickled this run
        self._dirty: set[str] = set()
        self._digests: dict[str, bytes] = {}
        self._store_digest: bytes | None = None
        self._memo: tuple | None = None
        # the index targets looked up outside the walk for the memo (rel, exists)
        self.outside: tuple | None = None
        self._signatures: dict[str, bytes] | None = None  # rel -> record
        self._signatures_seen: dict[str, bytes] = {}
        self._rows: dict[str, tuple] | None = None  # rel -> (digest, summary facts, fingerprint)
        self._columns: tuple | None = None  # the summary columns as loaded
        self._positions: dict[str, int] | None = None  # rel -> its place in the columns
        self._fresh_rows: dict[str, tuple] = {}  # the rows remembered this run
        self._rows_changed = False
        self._replaced_rows: dict[str, tuple | None] = {}  # rel -> its row before this run
        self._basis: tuple | None = None  # what the store digest was computed from
        self._digested: object = None  # the store it was computed for
        self._rows_removed = 0
        # a run that reports on some files only (pre-commit names a few): see ``save``
        self.partial = False

    def shard_path(self, rel: str) -> str:
        """The file holding the entry of ``rel``."""
        return f"{self.path.removesuffix('.pickle')}-{_shard(rel):02d}.pickle"

    def entries_for(self, rel: str) -> dict[str, list]:
        """The per-file entries of the shard holding ``rel``, read on first use (a memo
        hit reads none)."""
        shard = _shard(rel)
        found = self._shards.get(shard)
        if found is None:
            loaded = _load(self.shard_path(rel), self.key, self.secret)
            found = self._shards[shard] = loaded if isinstance(loaded, dict) else {}
            found.update(self._delta_entries().get(shard, {}))
        return found

    def _delta_entries(self) -> dict[int, dict[str, list]]:
        """The entries written since the shards were (``save``), by shard: read once."""
        if self._delta is None:
            loaded = _load(self.delta_path, self.key, self.secret)
            self._delta = {}
            for rel, entry in loaded.items() if isinstance(loaded, dict) else ():
                if type(rel) is str:
                    self._delta.setdefault(_shard(rel), {})[rel] = entry
            self._delta_read = set(self._delta)
        return self._delta

    def digest(self, source: SourceFile) -> bytes:
        known = source.known
        if known is not None:
            return known.digest
        found = self._digests.get(source.rel)
        if found is None:
            found = self._digests[source.rel] = source_digest(source)
        return found

    def digests(self, sources: list[SourceFile]) -> list[bytes]:
        """``digest`` of each of ``sources``, in C-level passes where the cache vouched
        for them (``known``: every unchanged file of a warm run)."""
        knowns: list = list(map(_KNOWN, sources))
        for position in compress(range(len(knowns)), map(is_, knowns, repeat(None))):
            knowns[position] = (self.digest(sources[position]),)
        return list(map(itemgetter(0), knowns))

    # -- unchanged files by signature ------------------------------------------

    def _records(self) -> dict[str, bytes]:
        if self._signatures is None:
            self._signatures = _load_signatures(self.files_path, self.key, self.secret)
        return self._signatures

    def known_many(self, rels: list[str], entries: list[os.DirEntry]) -> list[Known | None] | None:
        """``known`` of each of ``rels`` (the files ``entries``, ``lstat`` now), compared
        column-wise in C-level passes (a warm store's walk asks this of every file);
        ``None`` when an ``lstat`` fails (the caller asks file by file)."""
        try:
            stats = [entry.stat(follow_symlinks=False) for entry in entries]
            sigs = list(starmap(SIGNATURE.pack, map(_SIGNATURE_FIELDS, stats)))
        except (OSError, struct.error):
            return None
        records = self._records()
        found = list(map(records.get, rels, repeat(b"")))
        hits = list(map(bytes.startswith, found, sigs))
        self._signatures_seen.update(zip(compress(rels, hits), compress(found, hits), strict=True))
        at, end = SIGNATURE.size, SIGNATURE.size + DIGEST_SIZE
        digests = [record[at:end] for record in found]
        marks = [record[-1:] == b"\x01" for record in found]
        pairs = zip(digests, marks, strict=True)
        known: list[Known | None] = list(map(tuple.__new__, repeat(Known), pairs))
        for position in compress(range(len(hits)), map(not_, hits)):
            known[position] = None
        return known

    def known(self, rel: str, sig: bytes | None) -> Known | None:
        """What is known of ``rel`` if its signature is the one it had when read."""
        found = self._records().get(rel)
        if found is None or sig is None or not found.startswith(sig):
            return None
        self._signatures_seen[rel] = found
        digest = found[SIGNATURE.size : SIGNATURE.size + DIGEST_SIZE]
        return tuple.__new__(Known, (digest, found[-1] == 1))

    def digest_of(self, rel: str) -> bytes | None:
        """The digest of ``rel`` as this run read it, or as the cache vouched for it."""
        found = self._digests.get(rel)
        if found is None:
            record = self._signatures_seen.get(rel)
            if record is not None:
                found = record[SIGNATURE.size : SIGNATURE.size + DIGEST_SIZE]
        return found

    def remember_read(self, source: SourceFile, sig: bytes | None, started_ns: int) -> None:
        """Record ``source``, just read, under ``sig`` unless its mtime is too recent
        (before ``started_ns``, the run's start, by less than ``RACY_NS``)."""
        text = source.text
        if sig is None or text is None or source.problem is not None:
            return
        if SIGNATURE.unpack(sig)[1] >= started_ns - RACY_NS:
            return
        mark = b"\x01" if DIRECTIVE_MARK in text else b"\x00"
        self._signatures_seen[source.rel] = sig + self.digest(source) + mark

    def _entry(self, source: SourceFile) -> list:
        """``[facts, results]`` of ``source`` this run: the results cached when its digest
        is unchanged; facts only when remembered this run (cached ones stay in the
        entry's blob, unpickled when asked for: the local results of every file are
        read on a warm run, the facts of few)."""
        rel = source.rel
        opened = self._opened.get(rel)
        if opened is not None:
            return opened
        digest = self.digest(source)
        entries = self._entries_holding(rel, digest)
        entry = entries.get(rel)
        if type(entry) is list and len(entry) == 3 and entry[0] == digest:
            opened = [None, entry[2]]
        else:
            opened = [None, None]
            entries[rel] = [digest, None, None]
            self._dirty.add(rel)
        self._opened[rel] = opened
        return opened

    def _entries_holding(self, rel: str, digest: bytes) -> dict[str, list]:
        """The entries where ``rel``'s entry is, or goes: its shard's, read unless the
        delta holds it, or the summary row written with it is of another content (a
        file edited since: its entry is older too, but after a run that saved entries
        and no rows, when it only misses a result), then the delta's (``save``)."""
        shard = _shard(rel)
        if shard not in self._shards:
            delta = self._delta_entries()
            held = delta.get(shard)
            if held is not None and rel in held:
                return held
            row = self._row(rel)
            if row is not None and row[0] != digest:
                return delta.setdefault(shard, {})
        return self.entries_for(rel)

    def _entry_of(self, rel: str) -> list | None:
        """The entry of ``rel`` as this run has it (in its shard if read, else the delta)."""
        shard = _shard(rel)
        return self._shards.get(shard, self._delta_entries().get(shard, {})).get(rel)

    def memory_facts(self, source: SourceFile) -> tuple | None:
        """The parse facts of ``source``, if cached (not kept here once handed out:
        the caller rebuilds a ``Memory`` from them, and at 100,000 memories a second
        copy held here took 100 MB)."""
        facts = self._entry(source)[0]
        if facts is not None:
            return facts
        entry = self._entry_of(source.rel)
        blob = entry[1] if entry is not None else None
        found = _loads(blob) if blob is not None else None
        return found if type(found) is tuple else None

    # -- the index's entries ------------------------------------------------------

    def index_entries(self, source: SourceFile, body_start: int):
        """The entries of the index ``source`` as parsed from this content with its body
        at ``body_start``, if cached: a function from a field's position in
        ``IndexEntry`` to its column, unmarshalled and type-checked on each call
        (``None`` when malformed)."""
        loaded = _load(self.entries_path, self.key, self.secret, columns=True)
        if not (
            type(loaded) is tuple
            and len(loaded) == 4
            and loaded[0] == self.digest(source)
            and loaded[1] == body_start
            and type(loaded[2]) is int
            and type(loaded[3]) is list
            and len(loaded[3]) == len(INDEX_ENTRY_TYPES)
            and set(map(type, loaded[3])) <= {bytes}
        ):
            return None
        count, blobs = loaded[2], loaded[3]

        def column(at: int) -> list | None:
            try:
                found = marshal.loads(blobs[at])
            except Exception:  # (damaged: the index is parsed instead)
                return None
            if not (type(found) is list and len(found) == count):
                return None
            return found if set(map(type, found)) <= {INDEX_ENTRY_TYPES[at]} else None

        return column

    def remember_index_entries(self, source: SourceFile, body_start: int, columns: list) -> None:
        """Keep the entries of the index ``source`` as columns (one per ``IndexEntry``
        field), each marshalled apart: a run loads only those it reads."""
        count = len(columns[0]) if columns else 0
        blobs = [marshal.dumps(column) for column in columns]
        self._index_entries = (self.digest(source), body_start, count, blobs)

    # -- memory summaries, in columns -------------------------------------------

    @property
    def rows(self) -> dict[str, tuple]:
        """rel -> (digest, ``store.Summary`` or its facts, fingerprint or ``None``), from
        the columns (made on first use: a run that only reads them never makes it) and
        the rows remembered this run."""
        if self._rows is None:
            rels, digests, fingerprints, summaries = self._summary_columns()
            size = DIGEST_SIZE
            slices = [digests[at : at + size] for at in range(0, len(digests), size)]
            rows = zip(slices, summaries, fingerprints, strict=True)
            self._rows = dict(zip(rels, rows, strict=True))
            self._rows.update(self._fresh_rows)
        return self._rows

    def _summary_columns(self) -> tuple[list[str], bytes, list, list]:
        """The summary columns as loaded (rels, digests, fingerprints, summaries; see
        ``_summary_columns_of``), read on first use."""
        if self._columns is None:
            loaded = _load(self.index_path, self.key, self.secret, columns=True)
            self._columns = _summary_columns_of(loaded)
        return self._columns

    def _row(self, rel: str) -> tuple | None:
        """``rows.get(rel)``, without making ``rows``."""
        if self._rows is not None:
            return self._rows.get(rel)
        if rel in self._fresh_rows:
            return self._fresh_rows[rel]
        rels, digests, fingerprints, summaries = self._summary_columns()
        if self._positions is None:
            self._positions = dict(zip(rels, range(len(rels)), strict=True))
        at = self._positions.get(rel)
        if at is None:
            return None
        return digests[at * DIGEST_SIZE : (at + 1) * DIGEST_SIZE], summaries[at], fingerprints[at]

    def summaries(self, sources: list[SourceFile]) -> list[tuple | None]:
        """``rows``' row of each of ``sources`` (digest, ``store.Summary``, fingerprint)
        when it holds one for its content, else ``None``. When the sources are the
        columns' files in their order (a warm run), whole columns are compared."""
        digests = self.digests(sources)
        if self._rows is None and not self._fresh_rows:
            rels, joined, fingerprints, summaries = self._summary_columns()
            if list(map(_REL, sources)) == rels:
                found: list[tuple | None] = list(zip(digests, summaries, fingerprints, strict=True))
                if b"".join(digests) != joined:
                    size = DIGEST_SIZE
                    slices = [joined[at : at + size] for at in range(0, len(joined), size)]
                    for position in compress(range(len(slices)), map(ne, digests, slices)):
                        found[position] = None
                for position in compress(range(len(found)), map(is_, fingerprints, repeat(False))):
                    found[position] = None  # malformed when loaded (``_summary_columns_of``)
                return found
        rows = list(map(self._row, map(_REL, sources)))
        return [
            row if row is not None and row[0] == digest and row[2] is not False else None
            for row, digest in zip(rows, digests, strict=True)
        ]

    def remember_memory(self, source: SourceFile, facts: tuple, summary: tuple) -> None:
        """Keep a memory just parsed: its facts (unless ``keep_facts`` is false) and its
        summary facts."""
        if self.keep_facts:
            self.remember_memory_facts(source, facts)
        rel = source.rel
        if rel not in self._replaced_rows:
            self._replaced_rows[rel] = self._row(rel)
        row = self._fresh_rows[rel] = (self.digest(source), summary, facts[3])
        if self._rows is not None:
            self._rows[rel] = row
        self._rows_changed = True

    def remember_memory_facts(self, source: SourceFile, facts: tuple) -> None:
        self._entry(source)[0] = facts
        self._dirty.add(source.rel)

    def local_results(self, source: SourceFile, profile: str) -> list | None:
        """The local rules' diagnostics on ``source`` under ``profile``, if cached."""
        results = self._entry(source)[1]
        if not (isinstance(results, tuple) and len(results) == 2 and results[0] == profile):
            return None
        return results[1] if _diagnostics(results[1]) else None

    def remember_local_results(self, source: SourceFile, profile: str, found: list) -> None:
        self._entry(source)[1] = (profile, found)
        self._dirty.add(source.rel)

    def forget_missing(self, store) -> None:
        """Drop the per-file entries of files no longer in ``store`` (if they were read)."""
        if not self._shards and self._rows is None and self._columns is None:
            return
        present = set(map(_REL, chain(store.files, store.notes)))
        for shard, entries in self._shards.items():  # the shards read (the others stay)
            for rel in [rel for rel in entries if rel not in present]:
                del entries[rel]
                self._changed_shards.add(shard)
        columns = self._columns
        if self._rows is None and columns is not None and present.issuperset(columns[0]):
            return  # (the rows are not made)
        if self._rows is not None or self._columns is not None:
            rows = self.rows
            for rel in [rel for rel in rows if rel not in present]:
                del rows[rel]
                self._rows_changed = True
                self._rows_removed += 1

    # -- whole-store memo ------------------------------------------------------

    def store_digest(self, store) -> bytes:
        """Every input of a store's result: each file's path and digest, the
        skipped and excluded entries."""
        files = [*store.files, *store.notes]
        parts = (
            store.root,
            len(store.files),
            [(s.path, s.kind, s.detail) for s in store.skipped],
            sorted(store.excluded),
            store.local_only,
        )
        basis = (repr(parts), "\0".join([s.rel for s in files]), b"".join(self.digests(files)))
        self._basis, self._digested = basis, store
        self._store_digest = _basis_digest(*basis)
        return self._store_digest

    def _valid_memo(self, loaded, store) -> Memo | None:
        """The memo in ``loaded`` (a memo file's payload) if every field is well-typed
        and the index targets outside the walk are as they were."""
        if not (isinstance(loaded, tuple) and len(loaded) == 7):
            return None
        memo = Memo(*loaded[1:6])
        outside = loaded[6]
        if not (type(outside) is tuple and all(_lookup(found) for found in outside)):
            return None
        if any(store.exists_inside(rel) != exists for rel, exists in outside):
            return None  # a target outside the walk came or went
        self.outside = outside
        if not (type(memo.profile) is str and type(memo.reason) is str and type(memo.guess) is str):
            return None
        if not (type(memo.again) is tuple and all(map(is_rule_name, memo.again))):
            return None
        return memo if _diagnostics(memo.found) else None

    def memo(self, store) -> Memo | None:
        """The whole-store result saved for exactly this store's inputs."""
        digest = self.store_digest(store)
        if digest not in sealed_head(self.memo_path, MEMO_DIGEST_WITHIN):
            return None  # another store digest: not read further (nor unpickled)
        loaded = _load(self.memo_path, self.key, self.secret)
        if not (isinstance(loaded, tuple) and len(loaded) == 7 and loaded[0] == digest):
            return None
        return self._valid_memo(loaded, store)

    def previous(self, store) -> tuple[Memo, dict[str, tuple]] | None:
        """The last memo saved for this store when, since, only the content of some
        files changed (the same paths, skipped and excluded entries), with the row
        (``rows``: digest, summary facts, fingerprint) each changed file had then;
        ``None`` when a changed file has no such row (it was no memory then, or its
        row was replaced without a memo being saved) or nothing is known."""
        current = self._basis if self._digested is store else None
        if current is None:
            return None
        loaded = _load(self.memo_path, self.key, self.secret)
        basis = _load(self.basis_path, self.key, self.secret, columns=True)
        if not (
            isinstance(loaded, tuple)
            and len(loaded) == 7
            and type(basis) is tuple
            and len(basis) == 3
            and all(type(part) is type(now) for part, now in zip(basis, current, strict=True))
            and basis[:2] == current[:2]
            and len(basis[2]) == len(current[2])
            and loaded[0] == _basis_digest(*basis)
        ):
            return None
        memo = self._valid_memo(loaded, store)
        if memo is None:
            return None
        then, now = basis[2], current[2]
        rels = current[1].split("\0")
        changed: dict[str, tuple] = {}
        for at in range(0, len(now), DIGEST_SIZE):
            digest = then[at : at + DIGEST_SIZE]
            if digest != now[at : at + DIGEST_SIZE]:
                rel = rels[at // DIGEST_SIZE]
                row = self._replaced_rows[rel] if rel in self._replaced_rows else self._row(rel)
                if row is None or row[0] != digest:
                    return None
                if row[2] is not None and not _fingerprint(row[2]):
                    return None
                changed[rel] = row
        return memo, changed

    def remember_memo(self, store, found: list, again: list[str]) -> None:
        """Save ``found`` (every non-external rule's diagnostics) and the names of
        the rules that run every time (``again``) for this store's inputs, with the
        index targets looked up on disk outside its walk (``Store.outside_walk``)."""
        if self._store_digest is not None:
            outside = self.outside = tuple(store.outside_walk())
            self._memo = (
                self._store_digest,
                store.profile,
                store.profile_reason,
                store.profile_guess,
                list(found),
                tuple(again),
                outside,
            )

    def save(self) -> None:
        """Write back what changed. A ``partial`` run that changed at most
        ``FEW_CHANGES`` files' signature records or summary rows leaves those two
        whole-store files as they were (rewriting them costs the store's size; the next
        run reads and parses those few files again), so a whole-store run after it
        still finds the rows its last result was computed from (``previous``)."""
        import pickle

        whole = not (self.partial and self._changes() <= FEW_CHANGES)
        signatures = self._signatures
        if whole and signatures is not None and self._signatures_seen != signatures:
            columns = _signature_columns(self._signatures_seen)
            _dump(self.files_path, self.key, self.secret, columns, columns=True)
        updated: set[int] = set()
        for rel in self._dirty:
            entry = self._entry_of(rel)
            if entry is not None:
                facts, results = self._opened[rel]
                if facts is not None:  # else unchanged, or none: the blob stays
                    entry[1] = pickle.dumps(facts, protocol=pickle.HIGHEST_PROTOCOL)
                entry[2] = results
                self._delta_entries().setdefault(_shard(rel), {})[rel] = entry
                updated.add(_shard(rel))
        self._save_shards(updated)
        if self._memo is not None:
            _dump(self.memo_path, self.key, self.secret, self._memo)
            _dump(self.basis_path, self.key, self.secret, self._basis, columns=True)
        if whole and self._rows_changed:
            _dump(self.index_path, self.key, self.secret, _columns(self.rows), columns=True)
        if self._index_entries is not None:
            _dump(self.entries_path, self.key, self.secret, self._index_entries, columns=True)

    def _save_shards(self, updated: set[int]) -> None:
        """Write the entries changed in the shards ``updated``. When they span more than
        ``FEW_SHARDS`` shards (a 1% edit of 10,000 files rewrote 54 of the 64), they go
        into the delta file with those written there before, while it holds at most
        ``DELTA_LIMIT`` entries and a quarter of the store's files (the entries read, the
        signatures or summary rows known); else into their shards (all the delta's when it
        is full), and the delta keeps those of the other shards."""
        dropped = self._changed_shards
        if not (updated or dropped):
            return
        delta = self._delta_entries()
        pending = sum(map(len, delta.values()))
        rows = self._columns[0] if self._columns is not None else ()
        known = max(sum(map(len, self._shards.values())), len(self._signatures or ()), len(rows))
        if not dropped and len(updated) > FEW_SHARDS and pending <= min(DELTA_LIMIT, known // 4):
            entries = {rel: entry for found in delta.values() for rel, entry in found.items()}
            _dump(self.delta_path, self.key, self.secret, entries)
            return
        written = dropped | (delta.keys() if pending > DELTA_LIMIT else updated)
        for shard in sorted(written):
            found = self._shards.get(shard)
            if found is None:  # holds delta entries only: read it to write them in
                found = self.entries_for(next(iter(delta[shard])))
            path = f"{self.path.removesuffix('.pickle')}-{shard:02d}.pickle"
            _dump(path, self.key, self.secret, found)
        if written & self._delta_read:  # the delta file holds entries now in their shards
            kept = {shard: found for shard, found in delta.items() if shard not in written}
            entries = {rel: entry for found in kept.values() for rel, entry in found.items()}
            _dump(self.delta_path, self.key, self.secret, entries)

    def _changes(self) -> int:
        """How many files' signature records or summary rows differ from those loaded."""
        loaded = self._signatures or {}
        seen = self._signatures_seen
        records = sum(map(ne, map(loaded.get, seen), seen.values()))
        records += len(loaded.keys() - seen.keys())
        return max(records, len(self._replaced_rows) + self._rows_removed)


FEW_CHANGES = 16  # see ``StoreCache.save``
# a memo's pickle holds its store digest this near its start (after the cache key)
MEMO_DIGEST_WITHIN = 96
DELTA_LIMIT = 1024  # see ``StoreCache._save_shards``
FEW_SHARDS = 8


def _basis_digest(parts: str, rels: str, digests: bytes) -> bytes:
    """The store digest of a store's other inputs (``parts``), its files' paths (joined
    with NUL) and their digests."""
    import hashlib

    hasher = hashlib.blake2b(parts.encode("utf-8", "surrogatepass"), digest_size=16)
    hasher.update(rels.encode("utf-8", "surrogatepass"))
    hasher.update(b"\0")
    hasher.update(digests)  # 16 bytes each
    return hasher.digest()


def _shard(rel: str) -> int:
    return zlib.crc32(rel.encode("utf-8", "surrogatepass")) % SHARDS


INDEX_ENTRY_TYPES = (int, int, int, str, str, str, int, int, str, bool, bool)  # IndexEntry's


# the types of each field of ``facts.summary_facts``, column by column
SUMMARY_TYPES: tuple[set[type], ...] = (
    {str, type(None)},  # name
    {str, type(None)},  # description
    {bool},  # has frontmatter
    {tuple},  # link targets (each a str: checked apart)
    {int},  # profile signals
    {bool},  # plain ASCII
    {str, type(None)},  # memory type
)


def _fingerprint(found) -> bool:
    return (
        type(found) is tuple
        and len(found) == 2
        and type(found[0]) is int
        and type(found[1]) is bytes
        and len(found[1]) == FINGERPRINT_SIZE
    )


FINGERPRINT_SIZE = 256  # similarity.SIGNATURE_SIZE 4-byte values


def _fingerprints(column: list) -> bool:
    """Whether every fingerprint of ``column`` is ``None`` or well-formed (``_fingerprint``
    in a few C-level passes: a column holds one per memory)."""
    found = list(filter(partial(is_not, None), column))
    if not (set(map(type, found)) <= {tuple} and set(map(len, found)) <= {2}):
        return False
    signatures = list(map(itemgetter(1), found))
    return (
        set(map(type, map(itemgetter(0), found))) <= {int}
        and set(map(type, signatures)) <= {bytes}
        and set(map(len, signatures)) <= {FINGERPRINT_SIZE}
    )


def _columns(rows: dict[str, tuple]) -> tuple:
    """``rows`` as columns: rels, digests (one bytes), fingerprints, then one column
    per field of the summary facts."""
    rels = sorted(rows)
    summaries = [rows[rel][1] for rel in rels]
    return (
        rels,
        b"".join(rows[rel][0] for rel in rels),
        [rows[rel][2] for rel in rels],
        *(list(column) for column in zip(*summaries, strict=True)),
    )


def _summary_columns_of(columns) -> tuple[list[str], bytes, list, list]:
    """The columns of ``_columns`` as rels, digests (one bytes), fingerprints and
    ``store.Summary`` rows; every summary column is type-checked at once (a column of
    the wrong shape or type drops them all), and so are the fingerprints (a malformed
    one is ``False``: its row is not used)."""
    empty: tuple[list[str], bytes, list, list] = ([], b"", [], [])
    width = 3 + len(SUMMARY_TYPES)
    if not (type(columns) is tuple and len(columns) == width and type(columns[0]) is list):
        return empty
    rels, digests, fingerprints, *fields = columns
    count = len(rels)
    if not (
        type(digests) is bytes
        and len(digests) == DIGEST_SIZE * count
        and all(type(c) is list and len(c) == count for c in (fingerprints, *fields))
        and set(map(type, rels)) <= {str}
        and len(set(rels)) == count
        and all(set(map(type, c)) <= t for c, t in zip(fields, SUMMARY_TYPES, strict=True))
        and set(map(type, chain.from_iterable(fields[3]))) <= {str}
    ):
        return empty
    if not _fingerprints(fingerprints):
        fingerprints = [f if f is None or _fingerprint(f) else False for f in fingerprints]
    summaries = list(map(tuple.__new__, repeat(Summary), zip(*fields, strict=True)))
    return rels, digests, fingerprints, summaries


class CacheSet:
    """The caches of every store in one run, under one directory."""

    def __init__(self, directory: str, key: str, secret: bytes, keep_facts: bool = True) -> None:
        self.directory = directory
        self.keep_facts = keep_facts
        self.key = key
        self.secret = secret
        self.stores: dict[str, StoreCache] = {}
        # the caches saved and let go, kept while a run is recorded (``replay``)
        self.released: dict[str, StoreCache] | None = None

    def reopened(self) -> CacheSet:
        """The same cache for a new run (what this one read or remembered is dropped)."""
        return CacheSet(self.directory, self.key, self.secret, self.keep_facts)

    def for_store(self, root: str, key: str | None = None) -> StoreCache:
        """The cache of the store at ``root``; ``key`` is its :func:`config_key` when its
        settings are not the run's (a config file of its own)."""
        found = self.stores.get(root)
        if found is None:
            name = folder_name(os.path.realpath(root))
            path = os.path.join(self.directory, f"store-{name}.pickle")
            found = StoreCache(path, key or self.key, self.secret, self.keep_facts)
            self.stores[root] = found
        return found

    def save(self) -> None:
        for cache in self.stores.values():
            cache.save()

    def shown_lines(self) -> ShownLines:
        """The lines the full format showed in the last run that used this cache."""
        return ShownLines(os.path.join(self.directory, "shown-lines"), self.key, self.secret)

    def save_store(self, root: str) -> None:
        """Save the cache of the store at ``root`` and let go of it (a run that lints
        one store at a time holds one store's cache)."""
        found = self.stores.pop(root, None)
        if found is not None:
            found.save()
            if self.released is not None:
                self.released[root] = found


class ShownLines:
    """The lines of files the full format shows (secrets masked), by the file's path,
    the digest of its content and the line's number: a run that did not read a file
    (its signature vouched for its digest: ``Known``) shows them without reading it.
    A file edited since has another digest, so its lines are never taken from here.
    Saved with the lines this run showed only."""

    def __init__(self, path: str, key: str, secret: bytes) -> None:
        self.path = path
        self.key = key
        self.secret = secret
        loaded = _load(path, key, secret, columns=True)
        self._known: dict[tuple, str] = loaded if _shown_lines(loaded) else {}
        self._shown: dict[tuple, str] = {}

    def get(self, source: SourceFile, number: int) -> str | None:
        known = source.known
        if known is None:
            return None
        key = (source.path, known.digest, number)
        found = self._known.get(key)
        if found is not None:
            self._shown[key] = found
        return found

    def put(self, source: SourceFile, number: int, line: str) -> None:
        known = source.known
        if known is not None:
            self._shown[(source.path, known.digest, number)] = line

    def save(self) -> None:
        if self._shown != self._known:
            _dump(self.path, self.key, self.secret, self._shown, columns=True)


def _shown_lines(loaded) -> bool:
    """Whether ``loaded`` is a ``ShownLines`` table, every key and line of its types."""
    if type(loaded) is not dict:
        return False
    keys = list(loaded)
    return (
        set(map(type, keys)) <= {tuple}
        and set(map(len, keys)) <= {3}
        and set(map(type, map(itemgetter(0), keys))) <= {str}
        and set(map(type, map(itemgetter(1), keys))) <= {bytes}
        and set(map(type, map(itemgetter(2), keys))) <= {int}
        and set(map(type, loaded.values())) <= {str}
    )


def open_caches(cache_dir: str | None, settings, cwd: str, create: bool = True) -> CacheSet | None:
    """The run's result cache, in ``cache_dir`` or this project's folder of the user's
    cache; ``None`` when there is none yet (``create`` false) or it is refused (with
    a warning on stderr: the run goes on without it)."""
    try:
        found = cache_folder(cache_dir, cwd, create)
    except CacheRefused as exc:
        from memlint.textutil import shown

        print(f"memlint: warning: {shown(str(exc))}; running without the cache", file=sys.stderr)
        return None
    if found is None:
        return None
    directory, secret = found
    return CacheSet(directory, config_key(settings, cwd), secret)
