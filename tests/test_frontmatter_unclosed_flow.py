"""A block whose last line opens a flow list it never closes is reported without
PyYAML, with exactly what PyYAML's composer says (libyaml's words or the pure
parser's); every other block still goes to PyYAML."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memlint.sources import frontmatter
from memlint.sources.frontmatter import Frontmatter, load_yaml, unclosed_flow_list

BASE = 7
PREFIX_LINES = (
    "name: a-b\n",
    "description: 'quoted: fine'\n",
    "metadata:\n  type: user\n",
    "tags: [x, 'y z']\n",
    "empty:\n",
    "pinned: yes\n",
    "\n",
)
LAST_CHARS = "ab -,'\"[]{}:#&*!|>?%@`=~\\\t\r\x07é"


def yaml_problems(content: str) -> list:
    reference = Frontmatter(0, BASE, BASE + len(content), 0)
    load_yaml(reference, content, BASE)
    return reference.problems


@pytest.fixture(params=["libyaml", "pure"])
def backend(request, monkeypatch) -> str:
    if request.param == "pure":
        monkeypatch.setenv("MEMLINT_PURE_YAML", "1")
    else:
        monkeypatch.delenv("MEMLINT_PURE_YAML", raising=False)
    return request.param


def test_the_generators_broken_block_needs_no_yaml(backend) -> None:
    content = "name: x\nmetadata:\n  type: feedback\nbroken: [unclosed, list\n"
    problem = unclosed_flow_list(content, BASE)
    assert problem is not None
    assert [problem] == yaml_problems(content)


@pytest.mark.parametrize(
    "content",
    [
        "a: [b\n",
        "a: [b c, 'd e', \"f\"  \n\n\n",
        "a: b\nc: [d, e",
    ],
)
def test_answers_for_open_lists(backend, content: str) -> None:
    problem = unclosed_flow_list(content, BASE)
    assert problem is not None
    assert [problem] == yaml_problems(content)


@pytest.mark.parametrize(
    "content",
    [
        "a: [\n",  # no item: another message
        "a: [b,\n",  # a trailing comma: another message
        "a: [b,,c\n",
        "a: [b]\n",  # closed
        "a: [b\nc: d\n",  # not the last line
        "  a: [b\n",  # indented
        "a: [b: c\n",
        "a: [b # c\n",
        "a: ['b\n",  # an open quote
        "a: [-b\n",
        "a: [é\n",  # not ASCII: mark offsets left to YAML
        "a: [b\t\n",
        "a: 'b\nc: [d\n",  # an earlier line not plain
        "a: [b\n  \n",  # blanks after it
        "a: [b?\n",  # pure PyYAML ends the scalar at the ?
    ],
)
def test_leaves_other_blocks_to_yaml(backend, content: str) -> None:
    assert unclosed_flow_list(content, BASE) is None


@settings(max_examples=400, deadline=None)
@given(
    prefix=st.lists(st.sampled_from(PREFIX_LINES), max_size=4),
    key=st.sampled_from(["broken", "a", "x_y-z"]),
    gap=st.sampled_from([" ", "  "]),
    items=st.lists(
        st.one_of(
            st.sampled_from(["a", " b c ", "'q r'", '"d"', "1", "yes", "~", "x.y/z", ""]),
            st.text(alphabet=LAST_CHARS, max_size=4),
        ),
        max_size=4,
    ).map(",".join),
    tail=st.sampled_from(["", "\n", "\n\n"]),
)
@example(prefix=[], key="broken", gap=" ", items="unclosed, list", tail="\n")
@example(prefix=[], key="broken", gap=" ", items="a?", tail="")
def test_agrees_with_yaml_whenever_it_answers(prefix, key, gap, items, tail) -> None:
    content = f"{''.join(prefix)}{key}:{gap}[{items}{tail}"
    for pure in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("MEMLINT_PURE_YAML", "1" if pure else "0")
            problem = unclosed_flow_list(content, BASE)
            if problem is not None:
                assert [problem] == yaml_problems(content), content


def test_knows_libyaml_without_importing_yaml(monkeypatch) -> None:
    monkeypatch.delenv("MEMLINT_PURE_YAML", raising=False)
    code = (
        "import sys\n"
        "from memlint.sources.frontmatter import _libyaml\n"
        "print(_libyaml(), 'yaml' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(yaml.__with_libyaml__), "False"]
    assert frontmatter._libyaml() is yaml.__with_libyaml__


def test_a_check_of_the_generated_broken_block_imports_no_yaml(tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    (store / "MEMORY.md").write_text("- [Broken](broken.md) — a broken memory\n")
    (store / "broken.md").write_text(
        "---\nname: broken\ndescription: a broken memory\nbroken: [unclosed, list\n---\nBody.\n"
    )
    code = (
        "import json, sys\n"
        "from memlint.cli import main\n"
        f"main(['check', {str(store)!r}, '--no-cache', '--output-format', 'json', '--exit-zero'])\n"
        "sys.stderr.write(json.dumps('yaml' in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert json.loads(result.stderr.strip().splitlines()[-1]) is False
    codes = [d["code"] for d in json.loads(result.stdout)]
    assert "FM003" in codes
