"""decode_text: UTF-8 (BOM or not), Windows-1250, ISO-8859-2, and files mixing UTF-8 lines with one of those."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.engine.textdecode import decode_text, decode_text_with_encoding
from literaki_cli.errors import InputError

POLISH = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"
WORDS = st.text(alphabet=POLISH, min_size=0, max_size=12)


def test_utf8_with_and_without_bom():
    assert decode_text("żółw\nkot\n".encode(), "f") == "żółw\nkot\n"
    assert decode_text(b"\xef\xbb\xbf" + "żółw\n".encode(), "f") == "żółw\n"
    assert decode_text_with_encoding(b"\xef\xbb\xbfkot", "f").encoding == "utf-8-sig"


@pytest.mark.parametrize("encoding", ["cp1250", "iso-8859-2"])
def test_single_byte_files(encoding):
    text = "zażółć gęślą jaźń\nŹDŹBŁO\nśląsk\n"
    decoded = decode_text_with_encoding(text.encode(encoding), "f")
    assert (decoded.text, decoded.encoding) == (text, encoding)


def test_mixed_file_keeps_every_word():
    data = "żółw\n".encode() + "źdźbło\n".encode("cp1250") + "zażółć\n".encode() + "więżą\n".encode("cp1250")
    decoded = decode_text_with_encoding(data, "f")
    assert decoded.text == "żółw\nźdźbło\nzażółć\nwiężą\n"
    assert decoded.encoding == "utf-8+cp1250 (per line)"


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.tuples(WORDS, st.sampled_from(["utf-8", "single"])), max_size=12),
    encoding=st.sampled_from(["cp1250", "iso-8859-2"]),
)
def test_any_mix_of_polish_lines_decodes_to_the_original(lines, encoding):
    # One line is surely not UTF-8 (a lone "ż" byte), so the file is not UTF-8 as a whole.
    lines = [*lines, ("żółw", "single")]
    data = b"\n".join(word.encode("utf-8" if how == "utf-8" else encoding) for word, how in lines)
    assert decode_text(data, "f") == "\n".join(word for word, _ in lines)


def test_a_line_that_is_neither_is_refused_with_its_number():
    with pytest.raises(InputError, match=r"^f: line 3: neither UTF-8 nor Windows-1250"):
        decode_text("kot\nżółw\n".encode("cp1250") + b"\x81\x98\n", "f")


def test_a_line_that_reads_both_ways_is_refused():
    # An arrow in UTF-8 (e2 86 92) reads as "â†’" in Windows-1250: both are text.
    data = "żółw\n".encode("cp1250") + "a\u2192b\n".encode()
    with pytest.raises(InputError, match="line 2"):
        decode_text(data, "f")


def test_control_bytes_of_iso_8859_2_are_not_text():
    with pytest.raises(InputError, match="line 2: neither UTF-8 nor ISO-8859-2"):
        decode_text("ąść\n".encode("iso-8859-2") + b"\x85\xb1\n", "f")


def test_decomposed_letters_are_composed():
    assert decode_text("z\u0307o\u0301łw".encode(), "f") == "żółw"


@settings(max_examples=400, deadline=None)
@given(data=st.binary(max_size=300))
def test_any_bytes_decode_or_are_refused_naming_a_line(data):
    try:
        text = decode_text(data, "f")
    except InputError as exc:
        assert str(exc).startswith("f: line ")
    else:
        assert isinstance(text, str)
        assert text.count("\n") == data.count(b"\n")  # one line of text per line of input
