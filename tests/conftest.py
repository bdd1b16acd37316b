"""Shared fixtures: the hostile corpus is generated once per session for read-only use."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import SHARED, generate_hostile, shared_available


def pytest_collection_modifyitems(config, items) -> None:
    """Tests marked ``shared`` skip, saying why, when ../shared is not there."""
    if shared_available():
        return
    skip = pytest.mark.skip(reason=f"needs ../shared at {SHARED} (set MEMLINT_SHARED)")
    for item in items:
        if "shared" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def user_cache_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("user-cache")


@pytest.fixture(autouse=True)
def _private_user_cache(user_cache_home, monkeypatch) -> None:
    """Runs keep their result cache (and its key) in a folder of the test session."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_cache_home))


@pytest.fixture(scope="session")
def hostile_corpus(tmp_path_factory) -> Path:
    """The shared hostile corpus (``--quick``); tests must not modify it. A test using it
    is marked ``shared``."""
    return generate_hostile(tmp_path_factory.mktemp("hostile"))
