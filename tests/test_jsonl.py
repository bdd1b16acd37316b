"""Strict JSONL parsing of note stores: splitting, I-JSON checks and hostile input."""

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
