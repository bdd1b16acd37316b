"""Rules that name the other members of a cluster name a few, so a cluster costs O(k)."""

from __future__ import annotations

from tests.helpers import lint_files


def test_case_collision_names_three_others_and_counts_the_rest(tmp_path) -> None:
    variants = ["note", "Note", "NOTE", "nOte", "noTe", "notE"]
    files = {"MEMORY.md": "# Index\n"}
    for stem in variants:
        files[f"{stem}-x.md"] = f"---\nname: {stem}\ndescription: d\ntype: user\n---\nbody\n"
    found = [d for d in lint_files(tmp_path, files, select=["ID007"])]
    name_messages = [d.message for d in found if d.message.startswith("name ")]
    assert len(name_messages) == len(variants)
    for message in name_messages:
        assert message.count("(") == 3, message
        assert message.endswith(" and 2 more"), message
