"""The lexicon of one endgame (literaki_cli.endgame.wordprune): a subset of the lexicon's words
that holds every word the endgame's moves could form, so that the search's moves, cross-checks
and values are what the whole lexicon gives.

The oracle here is written from the rules, not from the pruning code: the words an endgame can
form are found by trying every word of the lexicon on every span of every row and column (the
span's squares next to its ends empty or off the board, its empty squares filled from the
pool of both racks, a blank for any letter), and every GADDAG string of each such word is
looked up in the pruned graph with the plain lookup of literaki_cli.engine.wordgraph.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.endgame.wordprune import endgame_graph
from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.board import Board
from literaki_cli.engine.move import rack_needs, take_from_rack
from literaki_cli.engine.movegen import MoveGenerator, rack_counts, record_tiles
from tests.test_movegen import LETTERS, LITERAKI, SMALL, play_random_moves, random_word_lexicon

BLANK = "?"


@pytest.fixture(scope="module")
def random_lexicon(tmp_path_factory):
    return random_word_lexicon(tmp_path_factory.mktemp("prune"), 400)


def _lines(board: Board) -> list[list[str]]:
    """Every row and column of the board as letters ('' for an empty square)."""
    rows, cols = board.letters.shape
    grid = [[alphabet.LETTER_OF[int(board.letters[r, c])] if board.letters[r, c] else "" for c in range(cols)]
            for r in range(rows)]  # fmt: skip
    return grid + [[grid[r][c] for r in range(rows)] for c in range(cols)]


def _fits(word: str, line: list[str], start: int, pool: Counter) -> bool:
    """Whether ``word`` can lie on ``line`` from ``start``: its ends next to empty squares (or the
    edge), the line's letters matched, the empty squares filled from ``pool``."""
    end = start + len(word)
    if end > len(line) or (start > 0 and line[start - 1]) or (end < len(line) and line[end]):
        return False
    need = Counter()
    for letter, on_line in zip(word, line[start:end], strict=True):
        if on_line:
            if on_line != letter:
                return False
        else:
            need[letter] += 1
    missing = sum((need - pool).values())
    return missing <= pool[BLANK]


def endgame_words(board: Board, racks: tuple[str, str], words: set[str]) -> set[str]:
    """The oracle: every word of ``words`` that fits some span of some line."""
    pool = Counter(racks[0]) + Counter(racks[1])
    found = set()
    for line in _lines(board):
        for word in words:
            if word not in found and any(_fits(word, line, start, pool) for start in range(len(line) - len(word) + 1)):
                found.add(word)
    return found


def _codes(text: str) -> list[int]:
    return list(alphabet.encode(text))


def gaddag_strings(word: str) -> list[list[int]]:
    """reverse(word[:i]) + separator + word[i:] for each split (no separator when i = len)."""
    codes = _codes(word)
    out = []
    for i in range(1, len(codes) + 1):
        out.append(codes[:i][::-1] + ([wordgraph.SEPARATOR] + codes[i:] if i < len(codes) else []))
    return out


def accepted(arcs: np.ndarray, root: int, strings: list[list[int]]) -> np.ndarray:
    flat = np.array([c for s in strings for c in s], dtype=np.int64)
    ends = np.cumsum([len(s) for s in strings])
    starts = ends - np.array([len(s) for s in strings])
    return wordgraph.lookup_words(arcs, root, flat, starts.astype(np.int64), ends.astype(np.int64))


def graph_words(graph) -> set[str]:
    """Every word the pruned graph's DAWG accepts."""
    flat = wordgraph.enumerate_words(graph.arcs, graph.dawg_root, 32, 1 << 22)
    text = bytes(flat).split(bytes([wordgraph.WORD_SEPARATOR]))
    return {alphabet.decode(word) for word in text if word}


def pruned_for(generator: MoveGenerator, board: Board, racks: tuple[str, str]):
    letters = np.ascontiguousarray(board.letters, dtype=np.int8)
    counts = np.stack([rack_counts(rack) for rack in racks])
    rules = generator.rules
    graph, _ = endgame_graph(generator.graph, letters, counts, rules.min_word, rules.max_word)
    return graph


endgame_racks = st.tuples(
    st.text(alphabet=LETTERS + BLANK, min_size=1, max_size=7).filter(lambda r: r.count(BLANK) <= 1),
    st.text(alphabet=LETTERS + BLANK, min_size=1, max_size=7).filter(lambda r: r.count(BLANK) <= 1),
)


@pytest.mark.parametrize("variant", [LITERAKI, SMALL], ids=["literaki-15x15", "custom-7x9"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), racks=endgame_racks)
@pytest.mark.slow
def test_pruned_graph_holds_every_endgame_word_and_only_words(random_lexicon, variant, seed, racks):
    lexicon, words = random_lexicon
    generator = MoveGenerator(lexicon, variant)
    board = Board.for_variant(variant)
    play_random_moves(generator, board, random.Random(seed), 4)
    graph = pruned_for(generator, board, racks)
    kept = graph_words(graph)
    assert kept <= words, f"words the lexicon does not have: {sorted(kept - words)[:5]}"
    needed = endgame_words(board, racks, words)
    assert needed <= kept, f"endgame words dropped: {sorted(needed - kept)[:5]}"
    strings = [s for word in sorted(needed) for s in gaddag_strings(word)]
    if strings:
        found = accepted(graph.arcs, graph.gaddag_root, strings)
        assert found.all(), f"GADDAG strings dropped: {[strings[i] for i in np.flatnonzero(~found)][:5]}"


def _endgame_line(generator, board, racks, rng, plies):
    """Boards and racks along a random line of endgame moves (each side plays one of its moves)."""
    hands = list(racks)
    side = 0
    for _ in range(plies):
        yield board.copy(), tuple(hands), side
        moves = generator.generate(board, hands[side])
        if not len(moves):
            side = 1 - side
            continue
        tiles, _ = record_tiles(moves.records[rng.randrange(len(moves))])
        board = board.with_tiles(tiles)
        hands[side], _ = take_from_rack(rack_needs(tiles), hands[side])
        if not hands[side]:
            return
        side = 1 - side


@pytest.mark.parametrize("variant", [LITERAKI, SMALL], ids=["literaki-15x15", "custom-7x9"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), racks=endgame_racks)
@pytest.mark.slow
def test_moves_along_an_endgame_are_those_of_the_whole_lexicon(random_lexicon, variant, seed, racks):
    """The pruned graph is built once, at the endgame's start; every later position of the
    endgame must still get, for either rack, exactly the moves of the whole lexicon."""
    lexicon, _ = random_lexicon
    generator = MoveGenerator(lexicon, variant)
    whole = EndgameSolver(lexicon, variant, prune=False, table_bits=4)
    pruned = EndgameSolver(lexicon, variant, prune=True, table_bits=4)
    board = Board.for_variant(variant)
    rng = random.Random(seed)
    play_random_moves(generator, board, rng, 4)
    limits = (np.inf, np.inf)
    graph = pruned._state(board, racks, limits).graph  # the endgame's, built at its start
    for later, hands, _ in _endgame_line(generator, board, racks, rng, 6):
        whole_state = whole._state(later, hands, limits)
        pruned_state = pruned._state(later, hands, limits, graph)
        for side in (0, 1):
            expected = whole_state.placements(side)
            got = pruned_state.placements(side)
            assert np.array_equal(expected, got), f"rack {hands[side]!r}: {len(got)} moves, expected {len(expected)}"


def test_an_endgame_with_no_word_left_prunes_to_an_empty_graph(random_lexicon):
    lexicon, _ = random_lexicon
    generator = MoveGenerator(lexicon, LITERAKI)
    board = Board.for_variant(LITERAKI)
    graph = pruned_for(generator, board, ("ź", "ź"))  # the words are over LETTERS, without ź
    assert graph_words(graph) == set()
    solver = EndgameSolver(lexicon, LITERAKI)
    assert solver.solve(board, ("ź", "ź")).best.is_pass


def test_sjp_endgames_generate_the_whole_lexicons_moves(sjp_lexicon):
    """Real endgames (7 tiles a side, from greedy self-play on SJP): every move along a random
    line of play, for both racks, is the same with the endgame's pruned lexicon."""
    lexicon = sjp_lexicon
    generator = MoveGenerator(lexicon, LITERAKI)
    whole = EndgameSolver(lexicon, LITERAKI, prune=False, table_bits=4)
    pruned = EndgameSolver(lexicon, LITERAKI, prune=True, table_bits=4)
    limits = (np.inf, np.inf)
    for board, racks, seed in _sjp_endgames(generator, 3):
        graph = pruned._state(board, racks, limits).graph
        assert 0 < graph.arcs.shape[0] < generator.graph.arcs.shape[0] // 20
        for later, hands, _ in _endgame_line(generator, board, racks, random.Random(seed), 6):
            whole_state = whole._state(later, hands, limits)
            pruned_state = pruned._state(later, hands, limits, graph)
            for side in (0, 1):
                assert np.array_equal(whole_state.placements(side), pruned_state.placements(side))


def _sjp_endgames(generator, count):
    """The first ``count`` positions of seeded greedy games where the bag has just emptied."""
    from literaki_cli.games.bag import Bag, full_bag

    found = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        bag = Bag(full_bag(LITERAKI), rng)
        board = Board.for_variant(LITERAKI)
        racks = [bag.draw(7), bag.draw(7)]
        mover, idle = 0, 0
        while idle < 2 and bag:
            moves = generator.generate(board, racks[mover])
            if not len(moves):
                idle += 1
            else:
                idle = 0
                tiles, _ = record_tiles(moves.records[moves.ranked()[0]])
                board = board.with_tiles(tiles)
                leave, _ = take_from_rack(rack_needs(tiles), racks[mover])
                racks[mover] = leave + bag.draw(len(tiles))
                if not bag and all(racks):
                    found.append((board, (racks[1 - mover], racks[mover]), seed))
            mover = 1 - mover
        seed += 1
    return found
