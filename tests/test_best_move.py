"""``MoveGenerator.best``: the best move by equity with shadow bounds must be exactly as good as
the best of every generated move (the generator itself is checked against the brute force in
tests/test_generator_properties.py).  Leave values here are arbitrary numbers, and the leave of
each move is found in plain Python from its tiles, not by the compiled numbering."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.engine.movegen import BLANK_SLOT, SCORE, MoveGenerator, record_tiles
from literaki_cli.engine.position import BLANK
from literaki_cli.equity.leaves import N_SLOTS
from tests.test_generator_properties import SCENARIOS, WORDS, position
from tests.test_movegen import BOARDS, LITERAKI


@pytest.fixture(scope="module")
def word_lexicon(tmp_path_factory):
    """The long-word list of tests/test_generator_properties.py (bingos, words through the board)."""
    from lexicon_build.build import build_lexicon
    from literaki_cli.engine.lexicon import Lexicon

    folder = tmp_path_factory.mktemp("bestwords")
    (folder / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "words.txt", folder / "w.lexicon", LITERAKI).output)


def leave_numbering(rack: str) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Place values of the rack's tile slots and every sub-multiset in number order (plain Python)."""
    from literaki_cli.engine import alphabet

    counts = [0] * 64
    for ch in rack:
        counts[BLANK_SLOT if ch == BLANK else alphabet.CODE_OF[ch]] += 1
    place = np.zeros(64, dtype=np.int64)
    total = 1
    for slot in range(N_SLOTS):
        if counts[slot]:
            place[slot] = total
            total *= counts[slot] + 1
    subsets = []
    for number in range(total):
        subsets.append(tuple(number // int(place[s]) % (counts[s] + 1) if counts[s] else 0 for s in range(64)))
    return place, subsets


def leave_of(rack: str, record) -> tuple[int, ...]:
    from literaki_cli.engine import alphabet

    counts = [0] * 64
    for ch in rack:
        counts[BLANK_SLOT if ch == BLANK else alphabet.CODE_OF[ch]] += 1
    tiles, _ = record_tiles(record)
    for t in tiles:
        counts[BLANK_SLOT if t.blank else alphabet.CODE_OF[t.letter]] -= 1
    return tuple(counts)


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), n_moves=st.integers(0, 6), scenario=st.sampled_from(SCENARIOS),
       blanks=st.integers(0, 2), spread=st.sampled_from([0.0, 5.0, 40.0]))  # fmt: skip
def test_best_is_the_best_of_all_moves(word_lexicon, variant, rules, seed, n_moves, scenario, blanks, spread):
    generator = MoveGenerator(word_lexicon, variant)
    board, rack, _ = position(variant, rules, generator, seed, n_moves, scenario, blanks, WORDS)
    place, subsets = leave_numbering(rack)
    values = np.random.default_rng(seed).uniform(-spread, spread, len(subsets))
    number = {counts: i for i, counts in enumerate(subsets)}
    moves = generator.generate(board, rack).records
    sizes = np.array([sum(counts) for counts in subsets])
    best = generator.best(board, rack, SimpleNamespace(place=place, values=values, sizes=sizes))
    if not len(moves):
        assert best is None
        return
    equities = [int(m[SCORE]) + values[number[leave_of(rack, m)]] for m in moves]
    assert best is not None
    assert int(best[SCORE]) + values[number[leave_of(rack, best)]] == pytest.approx(max(equities), abs=1e-9)
    assert any((best == m).all() for m in moves)  # a real move, record for record


@pytest.mark.sjp
def test_best_agrees_on_the_example_positions_with_the_real_lexicon_and_leaves(sjp_lexicon):
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.games.bag import unseen_tiles
    from literaki_cli.io.positionio import load_position
    from tests.conftest import ROOT

    rng = np.random.default_rng(3)
    checked = 0
    for path in sorted((ROOT / "examples" / "positions").glob("*.cgp")):
        pos = load_position(str(path))
        generator = MoveGenerator(sjp_lexicon, pos.variant)
        equity = Equity(open_leaves(), pos.variant)
        unseen = unseen_tiles(pos.variant, pos.board, [])
        for _ in range(4):
            rack = "".join(rng.permutation(unseen)[:7])
            leaves = equity.for_rack(rack, int(rng.integers(0, 60)))
            moves = generator.generate(pos.board, rack).records
            best = generator.best(pos.board, rack, leaves)
            if not len(moves):
                assert best is None
                continue
            expected = (moves[:, SCORE] + leaves.of_moves(moves)).max()
            assert best[SCORE] + leaves.of_moves(best[None])[0] == pytest.approx(expected, abs=1e-9), (path.name, rack)
            checked += 1
    assert checked > 50


# --------------------------------------------------------------------------- ties


def first_best(moves: np.ndarray, equities: list[float]) -> np.ndarray:
    """The first move of the greatest equity in the generator's order (what a player that takes
    the first best of every generated move plays)."""
    top = max(equities)
    return moves[next(i for i, e in enumerate(equities) if e == top)]


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), n_moves=st.integers(0, 6), scenario=st.sampled_from(SCENARIOS),
       blanks=st.integers(0, 2), spread=st.sampled_from([0, 1, 3]))  # fmt: skip
def test_best_in_generation_order_is_the_first_best_of_all_moves(word_lexicon, variant, rules, seed, n_moves,
                                                                  scenario, blanks, spread):  # fmt: skip
    """``ties_in_order``: record for record the first best of every generated move, with leave
    values that are small whole numbers (or all 0: no leaves) so that many moves tie."""
    generator = MoveGenerator(word_lexicon, variant)
    board, rack, _ = position(variant, rules, generator, seed, n_moves, scenario, blanks, WORDS)
    place, subsets = leave_numbering(rack)
    values = np.random.default_rng(seed).integers(-spread, spread + 1, len(subsets)).astype(np.float64)
    number = {counts: i for i, counts in enumerate(subsets)}
    moves = generator.generate(board, rack).records
    sizes = np.array([sum(counts) for counts in subsets])
    best = generator.best(board, rack, SimpleNamespace(place=place, values=values, sizes=sizes), ties_in_order=True)
    if not len(moves):
        assert best is None
        return
    equities = [int(m[SCORE]) + values[number[leave_of(rack, m)]] for m in moves]
    assert (best == first_best(moves, equities)).all()


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), n_moves=st.integers(0, 6), scenario=st.sampled_from(SCENARIOS),
       blanks=st.integers(0, 2), bag=st.sampled_from([0, 3, 9, 40]))  # fmt: skip
def test_best_with_the_real_leaves_and_the_bag_end_rule(word_lexicon, variant, rules, seed, n_moves, scenario,
                                                         blanks, bag):  # fmt: skip
    """The shipped leave values as :class:`Equity` weighs them for the bag (full value, shrinking
    below 10 tiles, kept tiles' cost with an empty bag, where leaves of equal points tie): as good
    as the best of every move, in both tie orders, and in generation order the first of them."""
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import open_leaves

    generator = MoveGenerator(word_lexicon, variant)
    board, rack, _ = position(variant, rules, generator, seed, n_moves, scenario, blanks, WORDS)
    leaves = Equity(open_leaves(), variant).for_rack(rack, bag)
    moves = generator.generate(board, rack).records
    best = generator.best(board, rack, leaves)
    in_order = generator.best(board, rack, leaves, ties_in_order=True)
    if not len(moves):
        assert best is None and in_order is None
        return
    equities = list(moves[:, SCORE] + leaves.of_moves(moves))
    assert best[SCORE] + leaves.of_moves(best[None])[0] == max(equities)
    assert any((best == m).all() for m in moves)
    assert (in_order == first_best(moves, equities)).all()
