"""The word graph accepts exactly the words it was built from (the interpreted kernels and the Rust core alike)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_build.dawg import build_word_graph
from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.lexicon import WordSet, encode_many

LETTERS = "aąbcżź"
words_strategy = st.sets(st.text(alphabet=LETTERS, min_size=1, max_size=7), max_size=60)


def graph_of(*word_sets):
    named = {f"s{i}": sorted(alphabet.to_code_string(w) for w in ws) for i, ws in enumerate(word_sets)}
    arcs, roots = build_word_graph(named)
    return arcs, [WordSet(arcs, roots[f"s{i}"], len(ws), 16) for i, ws in enumerate(word_sets)]


def brute_contains(arcs, root, word):
    """Reference walk written independently of the kernels: decode each sibling list fully."""
    p = root
    accepted = False
    for ch in word:
        if p == 0:
            return False
        siblings = {}
        while True:
            arc = int(arcs[p])
            siblings[arc >> wordgraph.LETTER_SHIFT] = arc
            if arc & wordgraph.END_BIT:
                break
            p += 1
        arc = siblings.get(alphabet.CODE_OF[ch])
        if arc is None:
            return False
        accepted = bool(arc & wordgraph.ACCEPTS_BIT)
        p = arc & wordgraph.INDEX_MASK
    return accepted


@settings(max_examples=150, deadline=None)
@given(words_strategy, words_strategy, st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=8), max_size=40))
def test_graph_accepts_exactly_its_words(first, second, queries):
    arcs, (set1, set2) = graph_of(first, second)
    assert list(set1) == alphabet.polish_sorted(first)
    assert list(set2) == alphabet.polish_sorted(second)
    probes = sorted(first | second) + queries
    expected1 = [w in first for w in probes]
    expected2 = [w in second for w in probes]
    assert set1.lookup(probes).tolist() == expected1
    assert set2.lookup(probes).tolist() == expected2
    assert [brute_contains(arcs, set1.root, w) for w in probes] == expected1
    # The Rust core agrees with the interpreted kernels: the lookups, and every word in graph order.
    codes, starts, ends = encode_many(probes)
    assert wordgraph.core_lookup(arcs, set1.root, codes, starts, ends).tolist() == expected1
    assert wordgraph.lookup_words(arcs, set2.root, codes, starts, ends).tolist() == expected2
    assert wordgraph.core_lookup(arcs, set2.root, codes, starts, ends).tolist() == expected2
    for word_set in (set1, set2):
        capacity = word_set.count * (word_set.max_length + 1)
        interpreted = wordgraph.enumerate_words(arcs, word_set.root, word_set.max_length, capacity)
        in_core = wordgraph.core_words(arcs, word_set.root, word_set.max_length, capacity)
        assert in_core.tobytes() == interpreted.tobytes()


def test_sibling_lists_are_sorted_and_terminated():
    arcs, (ws,) = graph_of({"ab", "aż", "ba", "bą", "ąa"})
    assert arcs[0] & wordgraph.END_BIT
    p = ws.root
    letters = []
    while True:
        letters.append(int(arcs[p]) >> wordgraph.LETTER_SHIFT)
        if arcs[p] & wordgraph.END_BIT:
            break
        p += 1
    assert letters == sorted(letters) == [alphabet.CODE_OF[c] for c in "aąb"]


def test_minimisation_shares_suffixes():
    # Twenty words with the same ending: a trie needs >100 arcs, the minimal graph far fewer.
    words = {f"{a}{b}owanie" for a in "abcde" for b in "ąbcż"}
    arcs, (ws,) = graph_of(words)
    assert list(ws) == alphabet.polish_sorted(words)
    assert arcs.shape[0] < 40


def test_empty_set_and_non_letters():
    arcs, (empty, some) = graph_of(set(), {"ab"})
    assert empty.root == 0 and list(empty) == []
    assert empty.lookup(["ab", ""]).tolist() == [False, False]
    assert some.lookup(["ab", "a", "abc", "a1", "", "ą"]).tolist() == [True, False, False, False, False, False]


@settings(max_examples=80, deadline=None)
@given(words_strategy)
def test_gaddag_holds_every_split_of_every_word(words):
    codes = sorted(alphabet.to_code_string(w) for w in words)
    arcs, roots = build_word_graph({"dawg": codes}, gaddags={"gaddag": codes})
    expected = set()
    for w in codes:
        for i in range(1, len(w) + 1):
            expected.add(w[:i][::-1] + (chr(wordgraph.SEPARATOR) + w[i:] if i < len(w) else ""))
    buf = wordgraph.enumerate_words(arcs, roots["gaddag"], 16, 17 * max(1, len(expected)))
    found = buf.tobytes().decode("latin-1").split("\xff")[:-1]
    assert sorted(found) == sorted(expected) and len(found) == len(expected)
    # The DAWG in the same array is unchanged by the GADDAG beside it.
    assert list(WordSet(arcs, roots["dawg"], len(words), 16)) == alphabet.polish_sorted(words)


def test_the_cores_word_kernels_refuse_what_they_cannot_read_in_one_line():
    """Words out of range or a corrupt graph: a LiterakiError of one line, never a crash."""
    import numpy as np
    import pytest

    from literaki_cli.errors import LiterakiError

    arcs, (word_set,) = graph_of({"ab", "bać"})
    codes, starts, ends = encode_many(["ab"])
    with pytest.raises(LiterakiError, match="^words or a word graph out of range$"):
        wordgraph.core_lookup(arcs, word_set.root, codes, starts, ends + 5)
    corrupt = (arcs & ~np.uint32(wordgraph.INDEX_MASK)) | np.uint32(wordgraph.INDEX_MASK)  # every target past the end
    with pytest.raises(LiterakiError, match=r"^internal error in the engine core \(word list\)"):
        wordgraph.core_words(corrupt, word_set.root, word_set.max_length, 1000)
    with pytest.raises(LiterakiError, match=r"^internal error in the engine core \(word lookup\)"):
        wordgraph.core_lookup(corrupt, word_set.root, codes, starts, ends)
