"""The index loader simulation (IX008/IX009) at its exact boundaries."""

from __future__ import annotations

from memlint.budget import MAX_SIZE, simulate
from memlint.cli import main
from tests.helpers import lint_files, summary

MEMORY = "---\nname: {0}\ndescription: d\ntype: user\n---\nBody\n"


def _entries(count: int) -> str:
    return "".join(f"- [M{i}](user_m{i}.md) — memory {i}\n" for i in range(count))


def test_line_200_is_loaded_and_201_is_cut():
    assert not simulate(_entries(200), 0).cut
    result = simulate(_entries(201), 0)
    assert result.cut and result.kept == 200
    assert result.first_lost.number == 201


def test_frontmatter_comments_and_surrounding_blank_lines_are_not_counted():
    text = "---\ntitle: x\n---\n\n<!--\none\ntwo\n-->\n" + _entries(200) + "<!-- end -->\n\n"
    result = simulate(text, len("---\ntitle: x\n---\n"))
    assert not result.cut
    assert len(result.lines) == 200
    assert result.stripped == [5, 6, 7, 8, 209]


def test_exactly_max_size_bytes_loads_and_one_more_byte_is_cut():
    exact = "\n".join(["x" * 99] * 250)[: MAX_SIZE - 1] + "y"
    assert len(exact.encode()) == MAX_SIZE
    assert not simulate(exact, 0, max_lines=1000).cut
    assert simulate(exact + "z", 0, max_lines=1000).cut


def test_size_cut_keeps_whole_lines_only():
    lines = ["a" * 9] * 10  # each line with its break is 10 bytes
    result = simulate("\n".join(lines), 0, max_size=45)
    assert result.cut and result.kept == 4  # the 4th line's break is byte 40 (<= 45)


def test_cjk_counts_bytes_by_default_and_utf16_units_on_request():
    text = "\n".join(["用户角色定位" * 10] * 10)  # 60 characters, 180 bytes per line
    assert simulate(text, 0, max_size=1000).cut
    assert not simulate(text, 0, max_size=1000, unit="utf-16").cut


def test_one_overlong_first_line_is_cut_mid_line():
    result = simulate("é" * 20, 0, max_size=11)
    assert result.cut and result.kept == 0 and result.partial == 5


def test_each_entry_past_the_cut_names_its_memory(tmp_path):
    files = {"MEMORY.md": _entries(203)}
    files.update({f"user_m{i}.md": MEMORY.format(f"name-{i}") for i in range(203)})
    found = lint_files(tmp_path, files, select=["IX008"])
    assert [(code, line) for code, _, line, _ in summary(found)] == [
        ("IX008", 201),
        ("IX008", 202),
        ("IX008", 203),
    ]
    assert "memory `name-200`" in found[0].message


def test_near_budget_warns_above_140_lines(tmp_path):
    files = {"MEMORY.md": "# Index\n" + "\n".join(f"line {i}" for i in range(140)) + "\n"}
    found = lint_files(tmp_path, files, select=["IX009"])
    assert [(code, line) for code, _, line, _ in summary(found)] == [("IX009", 141)]
    files = {"MEMORY.md": "# Index\n" + "\n".join(f"line {i}" for i in range(139)) + "\n"}
    assert lint_files(tmp_path, files, select=["IX009"]) == []


def test_show_loaded_prints_the_cut(tmp_path, capsys):
    (tmp_path / "MEMORY.md").write_text("<!-- hi -->\n" + _entries(202), encoding="utf-8")
    assert main(["check", "--show-loaded", "--isolated", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "(stripped as HTML comments: lines 1)" in out
    assert "  201 | - [M199](user_m199.md) — memory 199\n" in out
    assert "----- cut: 202 lines, over the 200-line limit" in out
    assert "  203 x - [M201](user_m201.md) — memory 201\n" in out
