"""Strict JSONL parsing of note stores: splitting, I-JSON checks and hostile input."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from memlint.sources.document import SourceFile
from memlint.sources.jsonl import note_file, parse_notes


def test_splits_on_newline_only():
    raw = '{"fact": "a\u2028b\u0085c"}\r\n{"fact": "d"}\n'.encode()
    notes = parse_notes(raw)
    assert [r.value for r in notes.records] == [{"fact": "a\u2028b\u0085c"}, {"fact": "d"}]
    assert not notes.torn


def test_torn_fused_blank_and_invalid():
    notes = parse_notes(b'{"a": 1}{"b": 2}\n\n{"c": \n{"d": 1}')
    fused, blank, broken, last = notes.records
    assert fused.fused_at == 8 and fused.value == {"a": 1}
    assert blank.blank
    assert broken.error is not None and not broken.parsed
    assert notes.torn and last.parsed


def test_i_json_problems():
    lines = [
        b'{"k": 1, "k": 2}',
        b'{"n": NaN, "m": -Infinity}',
        b'{"big": 1e400, "tiny": 1e-400}',
        b'{"i": 9007199254740993}',
        b'{"s": "\\udc00"}',
        b'{"x": ' + b"1" * 5000 + b"}",
    ]
    notes = parse_notes(b"\n".join(lines) + b"\n")
    messages = [[p.message for p in r.ijson] for r in notes.records]
    assert "duplicate key" in messages[0][0]
    assert len(messages[1]) == 2
    assert "overflows" in messages[2][0] and "underflows" in messages[2][1]
    assert "2^53" in messages[3][0]
    assert "surrogate" in messages[4][0]
    assert "digits" in messages[5][0]


def test_valid_records_have_no_problems():
    notes = parse_notes(b'{"fact": "\\ud83d\\ude00", "n": 1.5e300, "i": -9007199254740991}\n')
    record = notes.records[0]
    assert record.parsed and not record.ijson and record.error is None


def test_bom_invalid_utf8_and_deep_nesting():
    notes = parse_notes(b'\xef\xbb\xbf{"a": 1}\n{"b": "\xff"}\n' + b"[" * 100_000 + b"\n")
    bom, bad, deep = notes.records
    assert bom.parsed and "byte order mark" in bom.ijson[0].message
    assert bad.error.message == "record is not valid UTF-8"
    assert deep.error is not None


def test_key_and_value_columns():
    record = parse_notes(b'{"fact": "time", "time": "2024"}\n').records[0]
    assert record.key_column("time") == 17
    assert record.value_column("time") == 25


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_never_raises(raw):
    notes = parse_notes(raw)
    assert len(notes.records) == raw.count(b"\n") + (1 if notes.torn else 0)


def test_note_file_is_parsed_once_and_again_when_its_bytes_change():
    raw = b'{"fact": "one"}\n'
    source = SourceFile("/s/notes.jsonl", "notes.jsonl", "notes.jsonl", raw, raw.decode())
    first = note_file(source)
    assert note_file(source) is first
    source.raw = b'{"fact": "two"}\n{"fact": "three"}\n'
    assert [record.value["fact"] for record in note_file(source).records] == ["two", "three"]


def _reference_records(raw: bytes) -> list[tuple]:
    """What each line parses to with a fresh decoder per record and every string
    checked for a lone surrogate (the parser shares one decoder per file and checks
    strings only in a record that writes a ``\\u`` escape)."""
    from memlint.sources import jsonl

    found = []
    for number, chunk in enumerate(parse_notes(raw).records, 1):
        text = chunk.text
        problems: list = [p for p in chunk.ijson if "byte order mark" in p.message]
        value, parsed = None, False
        if chunk.error is None and text.strip():
            decoder = json.JSONDecoder(
                object_pairs_hook=lambda pairs, p=problems: jsonl._object(pairs, p),
                parse_constant=lambda name, p=problems: jsonl._constant(name, p),
                parse_int=lambda digits, p=problems: jsonl._integer(digits, p),
                parse_float=lambda digits, p=problems: jsonl._float(digits, p),
            )
            lead = len(text) - len(text.lstrip(" \t\r\n"))
            value, _ = decoder.raw_decode(text, lead)
            parsed = True
            jsonl._check_strings(value, problems)
        found.append((number, value, parsed, problems))
    return found


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
SPLICES = st.sampled_from(
    [
        '"\\ud800"',
        '"\\uDC01x"',
        '"a\\\\ud800"',
        "NaN",
        "1e400",
        "1e-400",
        '{"k": 1, "k": 2}',
        "[1, 2]",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(JSON_VALUES, st.booleans(), SPLICES, st.booleans()), max_size=6))
def test_one_decoder_per_file_parses_as_a_fresh_decoder_per_record(lines):
    texts = []
    for value, ascii_only, splice, spliced in lines:
        body = json.dumps({"fact": value, "n": 1}, ensure_ascii=ascii_only)
        texts.append(body[:-1] + ', "x": ' + splice + "}" if spliced else body)
    raw = "\n".join(texts).encode("utf-8", "surrogatepass") + b"\n"
    expected = _reference_records(raw)
    records = parse_notes(raw).records
    assert [(r.line, r.value, r.parsed, r.ijson) for r in records if r.parsed] == [
        e for e in expected if e[2]
    ]
