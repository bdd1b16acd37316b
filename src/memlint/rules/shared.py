"""Settings that several rules read, declared once: the ``[shared]`` table.

A rule reads its own options (``ctx.options``, from ``[rules.CODE]``) and the shared
settings its ``META.shared`` names (``ctx.shared(name)``); never another rule's
options. ``memlint rule CODE`` lists both. A shared setting that began as one
rule's option is still read from that rule's table (``ALIASES``), so a config
written for it keeps working: the value applies to every reader, as it did.
"""

from __future__ import annotations

from memlint.budget import MAX_LINES, MAX_SIZE, SIZE_UNITS
from memlint.rules.base import Option

INDEX_LINE_LENGTH = 150

SHARED = {
    option.name: option
    for option in (
        Option(
            "loader-max-lines",
            int,
            MAX_LINES,
            "the lines of MEMORY.md the agent's loader keeps",
            minimum=1,
        ),
        Option(
            "loader-max-size", int, MAX_SIZE, "the size of MEMORY.md the loader keeps", minimum=1
        ),
        Option(
            "loader-size-unit",
            str,
            "bytes",
            "how the loader counts size",
            choices=SIZE_UNITS,
        ),
        Option(
            "index-line-length",
            int,
            INDEX_LINE_LENGTH,
            "the longest index entry line, in characters",
            minimum=1,
        ),
        Option("why-labels", list, ["Why"], "the labels of a memory's Why section"),
        Option(
            "how-to-apply-labels",
            list,
            ["How to apply"],
            "the labels of a memory's How to apply section",
        ),
    )
}
LOADER = ("loader-max-lines", "loader-max-size", "loader-size-unit")
SECTION_LABELS = ("why-labels", "how-to-apply-labels")

# (rule code, option) -> the shared setting it is another name for.
ALIASES = {
    ("IX007", "max-length"): "index-line-length",
    ("IX008", "max-lines"): "loader-max-lines",
    ("IX008", "max-size"): "loader-max-size",
    ("IX008", "size-unit"): "loader-size-unit",
    ("TY001", "labels"): "why-labels",
    ("TY002", "labels"): "how-to-apply-labels",
}
