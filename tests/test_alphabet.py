import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from literaki_cli.engine import alphabet


def test_thirty_two_letters_in_polish_order():
    assert alphabet.ALPHABET_SIZE == 32
    assert alphabet.POLISH_LETTERS == "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
    assert [alphabet.CODE_OF[ch] for ch in "aąbż"] == [1, 2, 3, 32]
    assert alphabet.NO_LETTER == 0 and 0 not in alphabet.LETTER_OF


def test_polish_collation_is_letter_by_letter():
    words = ["żółw", "zebra", "ćma", "cyrk", "ala", "ąbc", "łania", "lampa", "óśmy", "osa"]
    assert alphabet.polish_sorted(words) == [
        "ala",
        "ąbc",
        "cyrk",
        "ćma",
        "lampa",
        "łania",
        "osa",
        "óśmy",
        "zebra",
        "żółw",
    ]


def test_normalize_folds_case_and_composes():
    decomposed = unicodedata.normalize("NFD", "ŻÓŁW")
    assert decomposed != "ŻÓŁW"
    assert alphabet.normalize(decomposed) == "żółw"
    assert alphabet.normalize("ZAŻÓŁĆ") == "zażółć"


def test_encode_decode_and_errors():
    assert alphabet.decode(alphabet.encode("źdźbło")) == "źdźbło"
    assert alphabet.decode(alphabet.encode("źdźbło"), upper=True) == "ŹDŹBŁO"
    with pytest.raises(ValueError):
        alphabet.encode("a1")


def test_mask_of_uses_one_bit_per_letter():
    assert alphabet.mask_of("a") == 1
    assert alphabet.mask_of("ż") == 1 << 31
    assert alphabet.mask_of("aaż") == 1 | 1 << 31
    with pytest.raises(ValueError):
        alphabet.mask_of("q")


@given(st.text(alphabet=alphabet.LETTERS, max_size=20))
def test_code_string_round_trip(word):
    codes = alphabet.to_code_string(word)
    assert alphabet.from_code_string(codes) == word
    assert alphabet.decode_buffer(__import__("numpy").frombuffer(codes.encode("latin-1"), dtype="uint8")) == word


@given(st.lists(st.text(alphabet=alphabet.POLISH_LETTERS, min_size=1, max_size=6), max_size=30))
def test_collation_key_orders_like_the_alphabet_index(words):
    by_index = sorted(words, key=lambda w: [alphabet.POLISH_LETTERS.index(c) for c in w])
    assert alphabet.polish_sorted(words) == by_index
