"""The names memlint looks for in a tree: the index, config files and the folders it
never enters. No imports, so the replay can read them before anything else loads."""

INDEX_NAME = "MEMORY.md"
CONFIG_NAMES = (".memlint.toml", "memlint.toml", "pyproject.toml")
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".memlint_cache",
        ".hypothesis",
    }
)
