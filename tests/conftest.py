"""Shared fixtures: the hostile corpus is generated once per session for read-only use."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import generate_hostile


@pytest.fixture(scope="session")
def hostile_corpus(tmp_path_factory) -> Path:
    """The shared hostile corpus (``--quick``); tests must not modify it."""
    return generate_hostile(tmp_path_factory.mktemp("hostile"))
