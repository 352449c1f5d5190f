"""The three ways a word set answers a lookup agree: plain Python for a few words, a compiled
kernel over a few words encoded in Python, and the kernel over arrays encoded by numpy."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.engine import wordgraph
from literaki_cli.engine.lexicon import FEW_WORDS, Lexicon, encode_many
from tests.conftest import SMALL_WORDS

LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżqxKÓ-1 "
words = st.lists(st.one_of(st.sampled_from(SMALL_WORDS), st.text(LETTERS, max_size=9)), max_size=FEW_WORDS)


@settings(max_examples=200, deadline=None)
@given(batch=words)
def test_lookup_paths_agree(small_lexicon, batch):
    word_set = Lexicon.open(small_lexicon).words
    expected = wordgraph.lookup_words(word_set.arcs, word_set.root, *encode_many(batch)).tolist()
    assert word_set.lookup(batch).tolist() == expected
    assert word_set.lookup(batch, compiled=True).tolist() == expected
    assert all(expected[i] == (w in SMALL_WORDS) for i, w in enumerate(batch) if w in SMALL_WORDS)
