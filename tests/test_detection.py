"""Profile detection on every folder of the real corpus (hand-reviewed) and on small cases."""

from __future__ import annotations

import pytest

from memlint.config import Settings
from memlint.discovery import discover
from tests.helpers import SHARED, lint_files, write_files

REAL = SHARED / "corpus" / "real"

# folder -> (store path inside it, profile), reviewed by hand against the files.
EXPECTED = {
    "ActorForth__ActorForth": (".", "freeform"),  # single-file MEMORY.md dump
    "AlekseyMalakhov__expense-tracker-starter": ("code-reviewer", "typed"),  # subagent, flat type
    "AnotherSava__agterm": (".", "linked"),  # name == stem, metadata.type
    "Blueberry0120x__Keynote-Suite": (".", "typed"),
    "FlaxAdvisors__sonic-wedge100s-devel": (".", "typed"),
    "HSRyuuu__harness-as-usual": (".", "freeform"),  # single-file, comment preamble
    "HanSJTU__Fin-Memory": (".", "freeform"),  # Hermes § entries
    "JohnsonzxChang__ss_client": (".", "typed"),  # typed filenames + metadata.type
    "JuaanDiiaz__jewerly_ipad": (".", "typed"),
    "KirillSachkov__telegram-bot-flow": ("code-reviewer", "freeform"),  # subagent stub
    "Mekan-developer__usta-panel": (".", "typed"),
    "VytCepas__projects-orchestrator": (".", "typed"),  # README/SCHEMA excluded
    "callingcard1973__jobsinromania": (".", "typed"),  # no MEMORY.md
    "datou8283__prd-writer": (".", "typed"),  # mixed filenames, all flat `type`
    "igorfazlyev__todo": (".", "typed"),  # no MEMORY.md, metadata.type
    "lernenrocks__ESP32-C3_RemoteSensor": (".", "typed"),
    "lqyzzplw__quickquote-ca": (".", "typed"),  # typed filenames, no frontmatter: fails closed
    "salesthiago__wticket-backend": (".", "typed"),
    "sxc19960907__StarClaw": (".", "typed"),  # no MEMORY.md, mixed filenames
    "tamwng__2026-docking-empc-collab": (".", "typed"),
    "unb-mds__2025-1-NoFluxoUNB": (".", "typed"),
    "xiaolei-liaoning__xiaolei-agent": (".", "typed"),  # 7 of 9 typed filenames
}
NOTE_ONLY = ("chingfhen__agent-core", "mizuharaa__rune_agent_os", "nickwilliamsdev__elysiamind")


def _profiles(path) -> dict[str, str]:
    stores = discover([str(path)], Settings(), cwd=str(path))
    return {
        store.display_root if store.root != str(path) else ".": store.profile for store in stores
    }


@pytest.mark.shared
@pytest.mark.parametrize("folder", sorted(EXPECTED))
def test_real_folder_profile(folder):
    where, profile = EXPECTED[folder]
    assert _profiles(REAL / folder) == {where: profile}


@pytest.mark.shared
def test_table_covers_every_real_folder():
    folders = {p.name for p in REAL.iterdir() if p.is_dir()}
    assert folders == set(EXPECTED) | set(NOTE_ONLY)


@pytest.mark.shared
@pytest.mark.parametrize("folder", NOTE_ONLY)
def test_foreign_jsonl_stores_are_not_linted(folder):
    assert _profiles(REAL / folder) == {}


MEMORY = "---\nname: {name}\ndescription: d\n{type}---\nBody\n"


@pytest.mark.parametrize(
    ("files", "profile"),
    [
        ({"user_a.md": MEMORY.format(name="A", type="type: user\n")}, "typed"),
        ({"a-b.md": MEMORY.format(name="a-b", type="metadata:\n  type: user\n")}, "linked"),
        ({"a_b.md": MEMORY.format(name="a_b", type="type: project\n")}, "typed"),
        ({"user_a.md": "no frontmatter\n"}, "typed"),
        ({"notes.md": "no frontmatter\n"}, "freeform"),
        ({"notes.md": MEMORY.format(name="Notes", type="metadata:\n  type: user\n")}, "linked"),
        ({"notes.md": "---\ndescription: d\n---\nBody\n"}, "freeform"),
        # unparseable frontmatter still shows where the type is kept
        ({"a.md": '---\ndescription: "x" y\nmetadata:\n  type: user\n---\n'}, "linked"),
        ({"a.md": '---\ndescription: "x" y\ntype: user\n---\n'}, "typed"),
        # non-standard prefixes and kebab names with complete frontmatter (issue 18.5)
        (
            {
                f"decision_{n}.md": MEMORY.format(
                    name=f"decision-{n}", type="metadata:\n  type: project\n"
                )
                for n in ("a", "b")
            },
            "typed",
        ),
    ],
)
def test_small_stores(tmp_path, files, profile):
    write_files(tmp_path, {"MEMORY.md": "# Index\n", **files})
    assert _profiles(tmp_path) == {".": profile}


def test_a_guessed_profile_says_how_to_pin_it(tmp_path, monkeypatch):
    write_files(tmp_path, {"MEMORY.md": "# Index\n", "notes.md": "---\nname: Notes\n"
                           "description: d\nmetadata:\n  type: user\n---\nBody\n"})  # fmt: skip
    monkeypatch.chdir(tmp_path)
    stores = discover([str(tmp_path)], Settings(), cwd=str(tmp_path))
    assert stores[0].profile_guess == (
        "signals are thin: one memory file "
        "(typed signals in 0, linked signals in 1 of 1 memory file)"
    )
    found = lint_files(tmp_path, {}, select=["MX003"])
    assert [d.message for d in found] == [
        "store read as `linked`: " + stores[0].profile_guess + "; if that is wrong, pin it in "
        'memlint.toml: `[[stores]]` with `path = "."` and `profile = "typed" or "freeform"`'
    ]
