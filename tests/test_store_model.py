"""One store model: a folder, the repository root, every file, and the staged change
(the pre-commit hook) all find the same stores and the same findings."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import write_files

CHECKOUT = Path(__file__).resolve().parents[1]
SRC = CHECKOUT / "src"
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "memlint tests",
    "GIT_AUTHOR_EMAIL": "tests@invalid",
    "GIT_COMMITTER_NAME": "memlint tests",
    "GIT_COMMITTER_EMAIL": "tests@invalid",
}


def memory(name: str, extra: str = "") -> str:
    return (
        f"---\nname: {name}\ndescription: about {name}\ntype: user\n---\nBody of {name}.\n{extra}"
    )


TREE = {
    # an index at the repository root that indexes memory/: README and docs/ are not memories
    "MEMORY.md": "# Index\n\n- [A](memory/user_a.md) — a\n- [B](memory/user_b.md) — b\n",
    "README.md": "# Project\n\nDefault DB password: hunter22\n",
    "docs/plan.md": "---\nname: plan\ndescription: the plan\n---\nA plan.\n",
    "memory/user_a.md": memory("user_a"),
    "memory/user_b.md": memory("user_b"),
    "memory/user_c.md": memory("user_c"),  # not indexed: IX002
    # a store without an index, found from the root: IX001 at its first memory
    ".claude/agent-memory/reviewer/user_x.md": memory("user_x"),
    ".claude/agent-memory/reviewer/user_y.md": memory("user_y"),
    # a code folder named memory/: never a store
    "src/memory/allocator.md": "# Allocator\n\nDefault DB password: hunter22\n",
    # a gitignored store and an excluded store
    "build/MEMORY.md": "- [Z](user_z.md) — z\n- [Gone](gone.md) — g\n",
    "build/user_z.md": memory("user_z"),
    "examples/store/MEMORY.md": "- [Q](user_q.md) — q\n- [Gone](gone.md) — g\n",
    "examples/store/user_q.md": memory("user_q"),
    # nested stores, a note store above them, a JSONL log of another schema inside one
    "team/MEMORY.md": "- [T](user_t.md) — t\n",
    "team/user_t.md": memory("user_t"),
    "team/events.jsonl": '{"event": "login", "who": "bob.smith@corp-mail.com"}\n{"event": \n',
    "team/sub/MEMORY.md": "- [S](user_s.md) — s\n- [Gone](user_gone.md) — g\n",
    "team/sub/user_s.md": memory("user_s"),
    "notes.jsonl": '{"time": "2026-01-01T00:00:00Z", "project": "p", "fact": "Tea."}\n',
    ".gitignore": "build/\n",
    "memlint.toml": 'extend-exclude = ["examples"]\n',
}
EXPECTED = {
    ("FS006", "team/link.md", 1),
    ("IX001", ".claude/agent-memory/reviewer/user_x.md", 1),
    ("IX002", "memory/user_c.md", 1),
    ("IX003", "team/sub/MEMORY.md", 2),
    ("PV004", "team/events.jsonl", 1),
    ("NT001", "team/events.jsonl", 2),  # JSON validity on a JSONL file of another schema
}
STORES = [".", ".claude/agent-memory/reviewer", "team", "team/sub"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(
        [_tool("git"), "-C", str(repo), *args],
        check=True,
        env=env,
        timeout=60,
        capture_output=True,
        text=True,
    )
    return done.stdout


def memlint(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--no-cache", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def findings(repo: Path, *args: str) -> set[tuple[str, str, int]]:
    done = memlint(repo, "--output-format", "json", "--exit-zero", *args)
    assert done.returncode == 0, done.stderr
    return {(d["code"], d["filename"], d["location"]["row"]) for d in json.loads(done.stdout)}


def stores(repo: Path, *args: str) -> list[str]:
    done = memlint(repo, "--show-files", *args)
    roots = [
        line.split(": profile ")[0] for line in done.stdout.splitlines() if ": profile " in line
    ]
    return sorted("." if root == str(repo) else root for root in roots)


@pytest.fixture
def tree(tmp_path) -> Path:
    write_files(tmp_path, TREE)
    (tmp_path / "team" / "link.md").symlink_to("../memory/user_a.md")
    (tmp_path / "mirror").symlink_to("memory", target_is_directory=True)
    git(tmp_path, "init", "-q")
    return tmp_path


def every_file(repo: Path) -> list[str]:
    names = []
    for folder, dirs, files in os.walk(repo):
        dirs[:] = [d for d in dirs if d != ".git"]
        names.extend(os.path.relpath(os.path.join(folder, f), repo) for f in files)
    return sorted(names)


def test_every_entry_point_finds_the_same_stores_and_findings(tree):
    whole = findings(tree, ".")
    assert whole == EXPECTED
    assert stores(tree, ".") == STORES
    assert findings(tree, *STORES) == EXPECTED
    assert stores(tree, *STORES) == STORES
    # pre-commit names every file: the excludes apply to named paths with --force-exclude
    named = [*every_file(tree), "mirror/user_a.md"]  # a file behind a symlinked folder
    assert findings(tree, "--force-exclude", *named) == EXPECTED
    assert stores(tree, "--force-exclude", *named) == STORES
    git(tree, "add", "-A")
    assert findings(tree, "--staged") == EXPECTED
    assert stores(tree, "--staged") == STORES


def test_show_files_explains_what_was_passed_over(tree):
    out = memlint(tree, "--show-files").stdout
    assert f"{tree}: profile typed" in out
    assert "store because it has MEMORY.md, which indexes the memory files in memory/" in out
    assert "README.md" not in out.split("\n.: ")[0] and "docs/plan.md" not in out
    assert ".: MEMORY.md indexes memory/ only; not the store's: README.md, build/, docs/" in out
    assert "is a .claude/agent-memory/<agent>/ folder whose Markdown has frontmatter" in out
    assert "build/: skipped (ignored by git)" in out
    assert "examples/: skipped (excluded by `examples`)" in out
    assert (
        "team/events.jsonl (not a note store: 0 of its first 2 records have a `fact`, "
        "or a `time` and a `project`" in out
    )
    assert "  notes   notes.jsonl" in out  # beside the index: the root store's


def test_named_paths_are_checked_unless_force_exclude(tree):
    assert ("IX003", "build/MEMORY.md", 2) in findings(tree, "build")
    assert findings(tree, "build", "--force-exclude") == set()
    assert ("IX003", "examples/store/MEMORY.md", 2) in findings(tree, "examples/store")
    assert ("IX003", "build/MEMORY.md", 2) in findings(tree, "--no-respect-gitignore")
    isolated = findings(tree, "--isolated")
    assert ("IX003", "examples/store/MEMORY.md", 2) in isolated
    assert findings(tree, "--isolated", "--exclude", "README.md,examples") == EXPECTED
    assert findings(tree, "--isolated", "--extend-exclude", "examples/*") == EXPECTED
    assert ("IX002", "memory/user_c.md", 1) not in findings(tree, "--extend-exclude", "memory")


def test_a_store_without_an_index_stops_at_another_git_work_tree(tmp_path):
    write_files(
        tmp_path,
        {
            "memory/user_a.md": memory("user_a"),
            "memory/repo/.git/HEAD": "ref: refs/heads/main\n",
            "memory/repo/notes.md": "Plain notes, not a memory.\n",
        },
    )
    assert stores(tmp_path, ".") == ["memory"]
    assert "notes.md" not in memlint(tmp_path, "--show-files").stdout
    assert findings(tmp_path, ".") == findings(tmp_path, *every_file(tmp_path))
    done = memlint(tmp_path, "memory/repo/notes.md")
    assert "memory/repo/notes.md: not in a store" in done.stderr


def test_a_file_behind_a_symlinked_folder_is_never_read(tree):
    done = memlint(tree, "mirror/user_a.md")
    assert done.returncode == 0 and "0 stores" in done.stdout
    assert "mirror/user_a.md: skipped (reached through mirror, a symlink" in done.stderr
    behind = ["-", "--stdin-filename", "mirror/user_b.md"]
    done = subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--no-cache", *behind],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        input=memory("user_b"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "mirror/user_b.md: skipped (reached through mirror, a symlink" in done.stderr


def test_a_named_file_outside_every_store_is_not_linted(tree):
    assert findings(tree, "src/memory/allocator.md", "README.md", "docs/plan.md") == set()
    err = memlint(tree, "src/memory/allocator.md").stderr
    assert "src/memory/allocator.md: not in a store" in err


def test_gitignore_negation_and_info_exclude(tree):
    (tree / ".gitignore").write_text("build/\n*.md\n!MEMORY.md\n!user_*.md\n")
    assert findings(tree, ".") == EXPECTED
    (tree / ".git" / "info").mkdir(exist_ok=True)
    (tree / ".git" / "info" / "exclude").write_text("team/sub/\n")
    assert ("IX003", "team/sub/MEMORY.md", 2) not in findings(tree, ".")


NESTED_CONFIGS = {
    # team's own config: its extend-exclude is relative to team/ and applies below it only
    "team/.memlint.toml": 'extend-exclude = ["sub/drafts"]\n',
    "team/sub/drafts/MEMORY.md": "- [D](user_d.md) — d\n- [Gone](gone.md) — g\n",
    "team/sub/drafts/user_d.md": memory("user_d"),
    "sub/drafts/MEMORY.md": "- [E](user_e.md) — e\n- [Gone](gone.md) — g\n",  # not below team
    "sub/drafts/user_e.md": memory("user_e"),
    # keep/'s config lints what git ignores below it: keep/build/ is a store
    "keep/.memlint.toml": "respect-gitignore = false\n",
    "keep/build/MEMORY.md": "- [K](user_k.md) — k\n- [Gone](gone.md) — g\n",
    "keep/build/user_k.md": memory("user_k"),
}
NESTED_EXPECTED = EXPECTED | {
    ("IX003", "sub/drafts/MEMORY.md", 2),
    ("IX003", "keep/build/MEMORY.md", 2),
}
NESTED_STORES = sorted([*STORES, "sub/drafts", "keep/build"])


def test_excludes_and_gitignore_follow_the_nearest_config_file(tree):
    write_files(tree, NESTED_CONFIGS)
    assert findings(tree, ".") == NESTED_EXPECTED
    assert stores(tree, ".") == NESTED_STORES
    assert findings(tree, *NESTED_STORES) == NESTED_EXPECTED
    named = every_file(tree)
    assert findings(tree, "--force-exclude", *named) == NESTED_EXPECTED
    assert stores(tree, "--force-exclude", *named) == NESTED_STORES
    out = memlint(tree, "--show-files").stdout
    assert "team/sub/drafts/: skipped (excluded by `sub/drafts`)" in out
    assert "build/: skipped (ignored by git)" in out


def test_core_excludes_file_of_the_users_git_config(tree, monkeypatch):
    home = tree.parent / "home"
    write_files(home, {".gitconfig": "[user]\n\tname = x\n[core]\n\texcludesFile = ~/ignored\n"})
    (home / "ignored").write_text("team/sub/\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    assert findings(tree, ".") == EXPECTED - {("IX003", "team/sub/MEMORY.md", 2)}
    assert "team/sub/: skipped (ignored by git)" in memlint(tree, "--show-files").stdout


def test_gitignore_applies_only_inside_a_git_work_tree(tmp_path):
    write_files(tmp_path, {".gitignore": "build/\n", "build/MEMORY.md": "- [G](g.md) — g\n"})
    assert findings(tmp_path, ".") == {("IX003", "build/MEMORY.md", 1)}


def test_no_store_message_names_the_jsonl_files_seen(tmp_path):
    write_files(tmp_path, {"logs/run.jsonl": '{"event": "start"}\n{"event": "stop"}\n'})
    why = (
        "logs/run.jsonl: not a note store (0 of its first 2 records have a `fact`, "
        "or a `time` and a `project`); "
        "list it in `notes = [...]` to lint it as one"
    )
    done = memlint(tmp_path)
    assert done.returncode == 0
    assert "no memory store found" in done.stderr and why in done.stderr
    done = memlint(tmp_path, ".")  # a folder named that yields no store is an error
    assert done.returncode == 2
    assert ".: holds no memory store" in done.stderr and why in done.stderr
    assert why in memlint(tmp_path, "--show-files").stdout


def test_auto_memory_is_found_from_the_project_on_a_fake_home(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "work" / "my_project.v2"
    (project / "src").mkdir(parents=True)
    git(project, "init", "-q")
    slug = str(project).replace("/", "-").replace("_", "-").replace(".", "-")
    folder = home / ".claude" / "projects" / slug / "memory"
    write_files(folder, {"MEMORY.md": "- [Gone](gone.md) — g\n"})
    env_home = {"HOME": str(home)}
    os.environ.pop("CLAUDE_CONFIG_DIR", None)
    done = _run_in(project / "src", env_home, "--auto-memory", "--show-files")
    assert f"auto memory: looked in {folder} (found)" in done.stdout
    assert f"{folder}: profile" in done.stdout
    done = _run_in(project / "src", env_home, "--auto-memory", "--output-format", "concise")
    assert done.returncode == 1 and "IX003" in done.stdout
    (folder / "MEMORY.md").unlink()
    folder.rmdir()
    done = _run_in(project / "src", env_home, "--auto-memory")
    assert done.returncode == 0
    assert f"auto memory: looked in {folder} (not there)" in done.stderr


def test_auto_memory_fix_fixes_that_folder_only(tmp_path):
    home = tmp_path / "home"
    project = tmp_path / "proj"
    write_files(
        project, {"memory/MEMORY.md": "- [A](user_a.md) — a", "memory/user_a.md": memory("a")}
    )
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project))
    folder = home / ".claude" / "projects" / slug / "memory"
    write_files(folder, {"MEMORY.md": "- [B](user_b.md) — b", "user_b.md": memory("b")})
    done = _run_in(project, {"HOME": str(home)}, "--auto-memory", "--fix", "--select", "FS008")
    assert done.returncode == 0, done.stdout + done.stderr
    assert (folder / "MEMORY.md").read_text().endswith("— b\n")
    assert (project / "memory" / "MEMORY.md").read_text().endswith("— a")


def test_staged_with_fix_is_a_usage_error(tree):
    done = memlint(tree, "--staged", "--fix")
    assert done.returncode == 2 and "--staged checks only" in done.stderr


def _run_in(cwd: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    full = {**os.environ, **env, "PYTHONPATH": str(SRC)}
    full.pop("CLAUDE_CONFIG_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "memlint", "check", "--no-cache", *args],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_jsonl_nested_too_deep_is_explained_not_a_traceback(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    write_files(tmp_path, {"logs/deep.jsonl": deep + "\n"})
    for args in ((), ("--show-files",)):
        done = memlint(tmp_path, *args)
        assert "Traceback" not in done.stderr
        assert "logs/deep.jsonl" in done.stderr + done.stdout
        assert "0 of its first 1 records" in done.stderr + done.stdout


def test_a_named_store_keeps_its_nested_stores_separate(tmp_path):
    index = "# I\n- [{0}]({0}.md) — fact {0}\n"
    write_files(
        tmp_path,
        {
            "s/MEMORY.md": index.format("user_a"),
            "s/user_a.md": memory("user_a"),
            "s/sub/MEMORY.md": index.format("user_b"),
            "s/sub/user_b.md": memory("user_b"),
            "s/sub/user_c.md": memory("user_c"),
        },
    )
    expected = {("IX002", "s/sub/user_c.md", 1)}
    for named in (
        (".",),
        ("s",),
        ("s/sub",),
        ("s/user_a.md", "s/sub/user_b.md", "s/sub/user_c.md"),
    ):
        assert findings(tmp_path, *named) == expected, named
    assert stores(tmp_path, "s") == stores(tmp_path, ".") == ["s", "s/sub"]


def test_a_file_named_alone_keeps_the_nested_stores_out_of_its_store(tmp_path):
    """Naming only a file of the outer store (pre-commit, the hook, the server) must not
    pull a nested store's files into it: no collision with a memory that lives there."""
    write_files(
        tmp_path,
        {
            "s/MEMORY.md": "- [A](user_a.md) — fact a\n",
            "s/user_a.md": memory("user_a", "See [[user_b]].\n"),
            "s/sub/MEMORY.md": "- [A](user_a.md) — fact a\n- [B](user_b.md) — fact b\n",
            "s/sub/user_a.md": memory("user_a"),
            "s/sub/user_b.md": memory("user_b"),
        },
    )
    whole = findings(tmp_path, ".")
    assert ("LK001", "s/user_a.md", 7) in whole
    on_a = {found for found in whole if found[1] == "s/user_a.md"}
    assert findings(tmp_path, "s/user_a.md") == on_a
    assert findings(tmp_path, "s/user_a.md", "s/MEMORY.md") == {
        found for found in whole if found[1] in ("s/user_a.md", "s/MEMORY.md")
    }
    assert stores(tmp_path, "s/user_a.md") == ["s"]


def test_a_named_file_its_store_leaves_out_is_not_checked(tmp_path):
    """One store model: the store decides its files, not the command line. A named file
    the store excludes (by name, by folder, by git) is not made one of its memories, so
    naming it changes no finding, on itself or on the files that link to it; it is
    listed as not checked (``--show-files``)."""
    git(tmp_path, "init", "-q")
    write_files(
        tmp_path,
        {
            "memory/MEMORY.md": "# I\n- [Deploy](user_deploy.md) — deploy\n",
            "memory/user_deploy.md": memory("user_deploy", "See [[user_y]] and [[user_x]].\n"),
            "memory/user_y.md": memory("user_y", "Default DB password: hunter22\n"),
            "memory/drafts/user_x.md": memory("user_x", "Default DB password: hunter22\n"),
            "memory/.gitignore": "user_ignored.md\n",
            "memory/user_ignored.md": memory("user_ignored", "Default DB password: hunter22\n"),
            "memory/.memlint.toml": 'extend-exclude = ["drafts", "user_y.md"]\n',
        },
    )
    whole = findings(tmp_path, "memory")
    assert ("LK001", "memory/user_deploy.md", 7) in whole
    left_out = ["memory/user_y.md", "memory/drafts/user_x.md", "memory/user_ignored.md"]
    assert findings(tmp_path, "memory/user_deploy.md", *left_out) == whole
    shown = memlint(tmp_path, "--show-files", *left_out).stdout
    assert "memory/user_y.md: not checked (excluded by `user_y.md`" in shown
    assert "memory/drafts/user_x.md: not checked (excluded by `drafts`, in drafts/" in shown
    assert "memory/user_ignored.md: not checked (ignored by git" in shown


def test_a_plain_check_warns_of_a_named_file_it_does_not_check(tmp_path):
    """A named file its store excludes is reported on stderr by a plain check (as ruff
    warns), never silently passed over; ``--force-exclude`` (the pre-commit hooks) and
    ``-q`` stay silent, and the report and exit status do not change."""
    git(tmp_path, "init", "-q")
    write_files(
        tmp_path,
        {
            "memory/MEMORY.md": "# I\n- [Deploy](user_deploy.md) — deploy\n",
            "memory/user_deploy.md": memory("user_deploy"),
            "memory/user_y.md": memory("user_y", "Default DB password: hunter22\n"),
            ".memlint.toml": 'extend-exclude = ["memory/user_y.md"]\n',
        },
    )
    plain = memlint(tmp_path, "memory/user_y.md")
    warning = "memlint: warning: memory/user_y.md: not checked (excluded by `memory/user_y.md`"
    assert plain.returncode == 0 and "All checks passed" in plain.stdout
    assert plain.stderr.startswith(warning), plain.stderr
    assert memlint(tmp_path, "memory/user_deploy.md").stderr == ""
    for silent in (["--force-exclude"], ["-q"]):
        done = memlint(tmp_path, *silent, "memory/user_y.md", "memory/user_deploy.md")
        assert done.returncode == 0 and done.stderr == "", (silent, done.stderr)


def test_a_fix_run_warns_of_a_named_file_it_does_not_check(tmp_path):
    """``--fix``, ``--diff`` and ``--fix-only`` warn of a named file its store excludes
    as a plain check does (ruff warns in both), leave it as it is, and stay silent with
    ``--force-exclude`` (the memlint-fix hook) and ``-q``."""
    git(tmp_path, "init", "-q")
    secret = memory("user_y", "Default DB password: hunter22\n")
    write_files(
        tmp_path,
        {
            "memory/MEMORY.md": "# I\n- [Deploy](user_deploy.md) — deploy\n",
            "memory/user_deploy.md": memory("user_deploy"),
            "memory/user_y.md": secret,
            ".memlint.toml": 'extend-exclude = ["memory/user_y.md"]\n',
        },
    )
    warning = "memlint: warning: memory/user_y.md: not checked (excluded by `memory/user_y.md`"
    for mode in ("--fix", "--diff", "--fix-only"):
        done = memlint(tmp_path, mode, "memory/user_y.md")
        assert done.returncode == 0, (mode, done.stderr)
        assert warning in done.stderr, (mode, done.stderr)
        assert done.stderr.count("not checked") == 1, (mode, done.stderr)
        for silent in (["--force-exclude"], ["-q"]):
            quiet = memlint(tmp_path, mode, *silent, "memory/user_y.md", "memory/user_deploy.md")
            assert quiet.returncode == 0 and quiet.stderr == "", (mode, silent, quiet.stderr)
    assert (tmp_path / "memory/user_y.md").read_text() == secret


def test_a_loose_note_file_follows_its_folders_config_wherever_memlint_runs(tmp_path):
    """A JSONL file outside every store is a note store of its own folder: whether
    ``notes = [...]`` lists it, and which rules run on it, come from the config nearest
    to it (as a store's own settings do), not from the working directory's, so a walk
    from the root, the file named from the root, and a run inside its folder agree."""
    git(tmp_path, "init", "-q")
    write_files(
        tmp_path,
        {
            "logs/.memlint.toml": 'notes = ["log.jsonl"]\nignore = ["NT011"]\n',
            "logs/log.jsonl": '{"fact": "Tea.", "extra": 1}\n{"when": "now"}\n',
        },
    )
    inside = {(code, f"logs/{name}", row) for code, name, row in findings(tmp_path / "logs")}
    assert ("NT005", "logs/log.jsonl", 2) in inside
    assert not any(code == "NT011" for code, _, _ in inside)
    assert findings(tmp_path) == inside
    assert findings(tmp_path, "logs/log.jsonl") == inside
    assert findings(tmp_path, "logs") == inside


@pytest.mark.parametrize("layout", ["linked-worktree", "separate-git-dir"])
def test_info_exclude_of_a_git_file_work_tree_is_read_where_git_reads_it(tmp_path, layout):
    """When ``.git`` is a file (``gitdir: …``: a linked work tree, a submodule, a
    ``--separate-git-dir``), git reads ``info/exclude`` of the common folder (the gitdir's
    ``commondir``, else the gitdir), not ``.git/info/exclude``: memlint passes over the
    same files ``git check-ignore`` names, git not being run."""
    main = tmp_path / "main"
    if layout == "linked-worktree":
        git(tmp_path, "init", "-q", str(main))
        git(main, "commit", "-q", "--allow-empty", "-m", "init")
        git(main, "worktree", "add", "-q", str(tmp_path / "wt"))
        work, common = tmp_path / "wt", main / ".git"
    else:
        common = tmp_path / "sep.git"
        git(tmp_path, "init", "-q", f"--separate-git-dir={common}", str(tmp_path / "wt"))
        work = tmp_path / "wt"
    assert (work / ".git").is_file()
    write_files(
        work,
        {
            "memory/MEMORY.md": "# I\n- [A](user_a.md) — a\n",
            "memory/user_a.md": memory("user_a"),
            "memory/user_secret.md": memory("user_secret", "Default DB password: hunter22\n"),
            "drafts/MEMORY.md": "- [Gone](gone.md) — g\n",
        },
    )
    (common / "info").mkdir(exist_ok=True)
    (common / "info" / "exclude").write_text("user_secret.md\ndrafts/\n")
    ignored = git(work, "check-ignore", "memory/user_secret.md", "drafts/MEMORY.md").split()
    assert ignored == ["memory/user_secret.md", "drafts/MEMORY.md"]
    assert findings(work) == set()
    (common / "info" / "exclude").write_text("drafts/\n")
    assert ("IX002", "memory/user_secret.md", 1) in findings(work)


def test_a_fix_run_says_no_store_was_found_as_a_plain_check_does(tmp_path):
    """``--fix``, ``--diff`` and ``--fix-only`` of files outside every store say on stderr
    that no store was found, and why each file was passed over, as a plain check does."""
    write_files(tmp_path, {"loose.md": "# Loose\n", "events.jsonl": '{"event": "x"}\n'})
    plain = memlint(tmp_path, "loose.md", "events.jsonl")
    assert "no memory store found" in plain.stderr and "loose.md: not in a store" in plain.stderr
    for mode in ("--fix", "--diff", "--fix-only"):
        done = memlint(tmp_path, mode, "loose.md", "events.jsonl")
        assert (done.returncode, done.stderr) == (0, plain.stderr), mode
        assert memlint(tmp_path, mode, "-q", "loose.md").stderr == "", mode
