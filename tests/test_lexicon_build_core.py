"""The word graph built in the Rust core (issue 41): the same arcs as the Python builder it replaced,
bit for bit, on a golden word list and on the real SJP dump; bad word lists refused with one line."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_build.dawg import build_word_graph, sorted_code_buffer, word_buffer
from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError

GOLDEN = Path(__file__).parent / "data" / "golden" / "wordgraph.npz"

#: SHA-256 of the arcs the builder before the core (2c8f081) made from sjp-20260201.zip with the default
#: options (5,523,796 arcs): a fingerprint of the file, not the file.
SJP_ARCS_SHA256 = "02e5b991d32ae79715b9108fc488f44d87685dfe230cdab6ab3b62d1e3517800"
SJP_ROOTS = {"all": 437819, "gaddag": 4826360, "popular": 511737, "popular_gaddag": 5523764}


def golden_words() -> list[str]:
    """The word list of the golden graph: made-up stems with Polish endings (shared prefixes and
    suffixes, as in a real list) and random strings up to 15 letters."""
    rng = random.Random(2026)
    letters = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
    stems = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 8))) for _ in range(300)]
    ends = ["", "a", "y", "ami", "ach", "om", "ów", "ę", "ą", "ie", "ować", "ujący"]
    words = {s + e for s in stems for e in rng.sample(ends, 5)}
    words |= {"".join(rng.choice(letters) for _ in range(rng.randint(2, 15))) for _ in range(800)}
    return sorted(w for w in words if 2 <= len(w) <= 15)


def test_the_graph_has_the_arcs_the_former_builder_made():
    """Two word sets and their GADDAGs through one register, as build-lexicon builds them: the arcs
    and roots tests/data/golden/wordgraph.npz holds (written by the builder before the core)."""
    codes = sorted(alphabet.to_code_string(w) for w in golden_words())
    popular = codes[::7]
    gaddags = {"gaddag": codes, "popular_gaddag": popular}
    arcs, roots = build_word_graph({"all": codes, "popular": popular}, gaddags=gaddags)
    golden = np.load(GOLDEN)
    assert np.array_equal(arcs, golden["arcs"]) and arcs.dtype == np.uint32
    assert roots == {name: int(golden[f"root_{name}"]) for name in roots}


def test_the_sjp_lexicon_has_the_arcs_the_former_builder_made(sjp_build):
    from literaki_cli.engine.lexicon import Lexicon

    lexicon = Lexicon.open(sjp_build.output)
    assert lexicon.meta["graph"]["roots"] == SJP_ROOTS
    assert hashlib.sha256(np.ascontiguousarray(lexicon.arcs).tobytes()).hexdigest() == SJP_ARCS_SHA256


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet="aąbcćeęłoóśżź", min_size=1, max_size=12), max_size=60))
def test_the_core_sorts_words_as_python_sorts_their_code_strings(words):
    expected = word_buffer(sorted(alphabet.to_code_string(w) for w in words))
    assert np.array_equal(sorted_code_buffer(words), expected)


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        ({"all": ["\x01" * 25]}, "a word of 25 letters"),
        ({"all": ["\x02\x01", "\x01\x02"]}, "not sorted and unique"),
        ({"all": ["\x01\x02", "\x01\x02"]}, "not sorted and unique"),
    ],
)
def test_bad_word_lists_are_refused_with_one_line(sets, message):
    with pytest.raises(InputError, match=message) as refused:
        build_word_graph(sets)
    assert "\n" not in str(refused.value)


def test_a_gaddag_of_words_too_long_for_its_strings_is_refused():
    with pytest.raises(InputError, match="a word of 24 letters"):
        build_word_graph({}, gaddags={"gaddag": ["\x01" * 24]})


def test_a_word_with_no_letter_code_is_refused_by_the_sort():
    with pytest.raises(InputError, match="word 2: a character with no letter code"):
        sorted_code_buffer(["kot", "qx€"])
