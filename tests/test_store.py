"""The store model's identity key."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memlint.store import fold


def reference_fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_fold_equals_nfc_then_casefold(text: str) -> None:
    assert fold(text) == reference_fold(text)


def test_fold_of_lower_case_ascii_is_the_same_string() -> None:
    name = "".join(["user-", "role"])  # built at run time: not a shared constant
    assert fold(name) is name
    assert fold("User-Role") == "user-role"
    assert fold("Café") == reference_fold("Café") == "café"
