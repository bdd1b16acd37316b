"""Profile detection: which contract a store follows, with the reason why."""

from __future__ import annotations

import json
import os
import re
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memlint.config import Settings, StoreConfig
    from memlint.store import Store

TYPED_STEM = re.compile(r"(?:user|feedback|project|reference)_")
TYPE_LINE = re.compile(r"^\s*type:\s*['\"]?(?:user|feedback|project|reference)['\"]?\s*$", re.M)
MEMORY_DIR_NAMES = frozenset({"memory", "memories"})
NOTE_SAMPLE_BYTES = 64 * 1024
NOTE_SAMPLE_RECORDS = 5
MEMORY_TYPES = ("user", "feedback", "project", "reference")


def detect_profile(store: Store, config: StoreConfig | None) -> tuple[str, str]:
    """The store's profile and a one-line reason (shown by ``--show-files``)."""
    if config is not None and config.profile:
        return config.profile, "set in config"
    memories = store.memories
    total = len(memories)
    if total == 0:
        if store.notes and store.index is None:
            return "notes", "only JSONL note stores here"
        return "freeform", "no memory files"
    if not any(m.has_frontmatter for m in memories):
        return "freeform", f"none of the {total} memory files has frontmatter"
    typed = sum(1 for m in memories if TYPED_STEM.match(m.stem))
    if typed * 2 > total:
        return "typed", f"{typed} of {total} memory files are named <type>_<slug>.md"
    flat = sum(1 for m in memories if _flat_type(m))
    if flat * 2 > total:
        return "typed", (
            f"{flat} of {total} memory files keep a memory `type` at the top level "
            "(the typed layout; linked stores use `metadata.type`)"
        )
    same = sum(1 for m in memories if m.name is not None and m.name.strip() == m.stem)
    if same * 2 > total:
        return "linked", f"{same} of {total} memory files have `name` equal to their filename"
    if any(m.supersession is not None for m in memories):
        return "linked", "uses `superseded by [[…]]`"
    return "freeform", (
        f"fits no contract: {typed} of {total} files typed, {same} with `name` = filename"
    )


def _flat_type(memory) -> bool:
    return memory.value("type") in MEMORY_TYPES


def _open_regular(path: str) -> int | None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def read_head(path: str, size: int) -> bytes:
    """Up to ``size`` bytes of a regular file (never a link, FIFO or device)."""
    fd = _open_regular(path)
    if fd is None:
        return b""
    try:
        return os.read(fd, size)
    except OSError:
        return b""
    finally:
        os.close(fd)


def is_note_store(path: str) -> bool:
    """Whether most of the first records of a JSONL file carry a ``fact`` key."""
    head = read_head(path, NOTE_SAMPLE_BYTES)
    records = 0
    facts = 0
    for line in head.split(b"\n"):
        if not line.strip():
            continue
        records += 1
        try:
            value = json.loads(line)
        except Exception:
            value = None
        if isinstance(value, dict) and "fact" in value:
            facts += 1
        if records >= NOTE_SAMPLE_RECORDS:
            break
    return records > 0 and facts * 2 > records


def looks_like_memory_dir(directory: str, settings: Settings) -> bool:
    """A directory without ``MEMORY.md`` is still a store when it is named like one
    (``memory/``, ``memories/``) and holds Markdown, or when most of its Markdown
    files carry memory frontmatter (a ``description`` and a memory ``type``)."""
    excluded = set(settings.exclude) | set(settings.extend_exclude)
    try:
        with os.scandir(directory) as iterator:
            names = sorted(
                e.name
                for e in iterator
                if e.name.endswith(".md")
                and e.name not in excluded
                and not e.name.startswith(".")
                and e.is_file(follow_symlinks=False)
            )
    except OSError:
        return False
    if not names:
        return False
    if os.path.basename(directory).lower() in MEMORY_DIR_NAMES:
        return True
    memory_like = 0
    sample = names[:25]
    for name in sample:
        head = read_head(os.path.join(directory, name), 4096).decode("utf-8", "replace")
        if head.startswith("---") and "\ndescription:" in head and TYPE_LINE.search(head):
            memory_like += 1
    return memory_like > 0 and memory_like * 2 >= len(sample)
