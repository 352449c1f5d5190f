"""The 5x5 grid game: path rules, premiums, brute force against the core's search, rack anagrams."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon_build.build import build_lexicon
from literaki_cli.cli import main
from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.variant import load_variant
from literaki_cli.errors import InputError
from literaki_cli.games.grid5 import (
    draw_grid,
    find_words,
    load_grid_rules,
    parse_grid,
    path_is_legal,
    path_score,
    premiums,
    rack_anagrams,
)

RULES = load_grid_rules()
LETTERS = "akotreiłż"


@pytest.fixture(scope="module")
def grid_lexicon(tmp_path_factory):
    rng = random.Random(11)
    words = {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 6))) for _ in range(1500)}
    words |= {"kot", "kota", "tok", "oko", "rok", "kret", "karo", "ok", "ko", "to"}
    folder = tmp_path_factory.mktemp("grid")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "g.lexicon", load_variant()).output), words


def test_path_rules():
    assert path_is_legal(((0, 0), (0, 1), (1, 2)))
    assert not path_is_legal(((0, 0), (0, 1), (0, 0)))  # a cell twice
    assert not path_is_legal(((0, 0), (0, 2)))  # not adjacent
    assert not path_is_legal(((0, 0), (1, 1), (0, 1), (1, 0)))  # the two diagonals of one block cross
    # all eight directions
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        if (dr, dc) != (0, 0):
            assert path_is_legal(((2, 2), (2 + dr, 2 + dc)))


def test_premium_at_every_crossing_point():
    cells = parse_grid("aaaaa aaaaa aażaa aaaaa aaaak")  # ż (class 5) at c3, k (class 2) at e5
    prem = premiums(cells, RULES)
    expected = [[1, 1, 1, 1], [1, 5, 5, 1], [1, 5, 5, 1], [1, 1, 1, 2]]
    assert prem.tolist() == expected
    assert path_score(((2, 2), (1, 1)), cells, RULES) == 2 + 5
    assert path_score(((2, 2), (2, 3)), cells, RULES) == 2
    custom = RULES.with_class_values((1, 1, 1, 1, 10))
    assert premiums(cells, custom)[1, 1] == 10


def test_class_table_covers_the_alphabet():
    assert sorted(RULES.class_of) == sorted(alphabet.POLISH_LETTERS)
    assert [RULES.letter_value(ch) for ch in "acjąć"] == [1, 2, 3, 4, 5]


def brute_force(cells, words, rules, max_len=6):
    """Every legal path up to max_len cells, by plain recursion; best score per word."""
    n = rules.size
    best = {}

    def extend(path):
        word = "".join(cells[r * n + c] for r, c in path)
        if len(path) >= 2 and word in words:
            best[word] = max(best.get(word, 0), path_score(tuple(path), cells, rules))
        if len(path) == max_len:
            return
        r, c = path[-1]
        for dr, dc in itertools.product((-1, 0, 1), repeat=2):
            nxt = (r + dr, c + dc)
            if (dr, dc) != (0, 0) and path_is_legal(tuple(path) + (nxt,), n):
                extend(path + [nxt])

    for r in range(n):
        for c in range(n):
            extend([(r, c)])
    return best


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(LETTERS), min_size=25, max_size=25))
@pytest.mark.slow
def test_search_agrees_with_brute_force(grid_lexicon, cells):
    lexicon, words = grid_lexicon
    found = find_words(cells, lexicon.words, RULES)
    assert {w.word: w.score for w in found} == brute_force(cells, words, RULES)
    for w in found:
        assert path_is_legal(w.path) and path_score(w.path, cells, RULES) == w.score
        assert "".join(cells[r * 5 + c] for r, c in w.path) == w.word
    scores = [w.score for w in found]
    assert scores == sorted(scores, reverse=True)


def test_parse_grid_forms_and_errors():
    assert parse_grid("ABCDE\nFGHIJ\nKLMNO\nPRSTU\nWYZŻŹ") == list("abcdefghijklmnoprstuwyzżź")
    with pytest.raises(InputError, match="24 letters"):
        parse_grid("a" * 24)
    with pytest.raises(InputError, match="letter 3 'q'"):
        parse_grid("abq" + "a" * 22)


def test_draw_grid_is_seeded_and_uses_tile_letters():
    freq = RULES.letter_frequencies
    a, b = draw_grid(random.Random(3), freq), draw_grid(random.Random(3), freq)
    assert a == b and len(a) == 25 and set(a) <= set(alphabet.POLISH_LETTERS)
    many = Counter(draw_grid(random.Random(1), freq) + sum((draw_grid(random.Random(i), freq) for i in range(200)), []))
    assert many["a"] > many["ż"]


def test_rack_anagrams_brute_force(grid_lexicon):
    lexicon, words = grid_lexicon
    for rack in ("kot", "okra?", "??", "łżkt"):
        groups = rack_anagrams(rack, lexicon.words)
        got = {w.lower() for ws in groups.values() for w in ws}
        expected = set()
        for w in words:
            need = Counter(w)
            have = Counter(rack)
            short = sum(max(0, need[ch] - have[ch]) for ch in need)
            if short <= have["?"] and len(w) <= len(rack):
                expected.add(w)
        assert got == expected, rack
        assert list(groups) == sorted(groups, reverse=True)
        for n, ws in groups.items():
            assert all(len(w) == n for w in ws)
    # A word makeable without the blank is shown without it.
    assert "KOT" in rack_anagrams("kot?", lexicon.words)[3]


def test_the_cores_searches_refuse_what_they_cannot_read_in_one_line(grid_lexicon):
    """A grid or rack the core cannot search, or a corrupt word graph, is a LiterakiError of one
    line naming the search (a panic inside the core is caught at the boundary)."""
    import numpy as np

    from literaki_cli import _core
    from literaki_cli.engine.movegen import core_call, rack_counts
    from literaki_cli.errors import LiterakiError

    words = grid_lexicon[0].words
    codes = np.array([alphabet.CODE_OF[ch] for ch in "kot" * 8 + "k"], dtype=np.int64)
    premium = np.zeros(16, dtype=np.int64)
    with pytest.raises(LiterakiError, match=r"^a 5x5 grid needs 25 letters and their premiums$"):
        core_call(_core.grid_words, words.arcs, int(words.root), codes[:24], 5, premium, 1, 3)
    with pytest.raises(LiterakiError, match="^a rack must be 64 counts"):
        core_call(_core.rack_words, words.arcs, int(words.root), np.full(64, -1, dtype=np.int64), 5)
    # every arc's target past the end of the graph: the walk would read out of it
    corrupt = (words.arcs & ~np.uint32((1 << 24) - 1)) | np.uint32((1 << 24) - 1)
    for call in (lambda: core_call(_core.grid_words, corrupt, int(words.root), codes, 5, premium, 1, 3),
                 lambda: core_call(_core.rack_words, corrupt, int(words.root), rack_counts("kot"), 3)):  # fmt: skip
        with pytest.raises(LiterakiError, match=r"^internal error in the engine core \((grid search|rack words)\)"):
            call()


def test_anagram_cli(grid_lexicon, capsys):
    lexicon, _ = grid_lexicon
    lex = str(lexicon.path)
    assert main(["anagram", "kotak", "oreło", "kiert", "żokta", "rokit", "--lexicon", lex, "--json"]) == 0
    data = __import__("json").loads(capsys.readouterr().out)
    assert data["count"] == len(data["words"]) > 0
    assert set(data["words"][0]) == {"word", "score", "path"} and isinstance(data["words"][0]["path"][0], list)
    assert main(["anagram", "kotakorełokiertżoktarokit", "--lexicon", lex, "--top", "3"]) == 0
    assert "best:" in capsys.readouterr().out
    assert main(["anagram", "--letters", "kot", "--lexicon", lex, "--json"]) == 0
    data = __import__("json").loads(capsys.readouterr().out)
    assert data["groups"][0]["length"] == 3 and "KOT" in data["groups"][0]["words"]
    assert main(["anagram", "abc", "--lexicon", lex]) == 2
    assert main(["anagram", "--lexicon", lex]) == 2
