"""The Rust core (literaki_cli._core) against the numba kernels it replaces: the same moves in the
same order, the same best move in both tie orders, on random boards of three variants and on the
real SJP positions; and its faults are one-line errors."""

import json
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli import _core
from literaki_cli.engine.board import Board
from literaki_cli.engine.movegen import MoveGenerator
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.errors import LiterakiError
from tests.conftest import ROOT
from tests.test_movegen import BOARDS, LETTERS, LITERAKI, play_random_moves, small_lexicon  # noqa: F401

racks = st.text(alphabet=LETTERS + "?", min_size=1, max_size=7).filter(lambda r: r.count("?") <= 2)


def assert_same(generator: MoveGenerator, equity: Equity, board: Board, rack: str, bag: int) -> None:
    expected = generator.generate_numba(board, rack).records
    got = generator.generate(board, rack).records
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert (got == expected).all(), "the same moves, in the same order"
    leaves = equity.for_rack(rack, bag)
    for ties_in_order in (False, True):
        old = generator.best_numba(board, rack, leaves, ties_in_order)
        for bingo_index in (False, True):  # a long job's searches have it (it only tightens bounds)
            if bingo_index:
                generator.core.prepare_bingo_index()
            new = generator.best(board, rack, leaves, ties_in_order)
            assert (old is None) == (new is None)
            if old is not None:
                assert (old == new).all(), f"best move, ties_in_order={ties_in_order}, bingo index {bingo_index}"


def test_the_core_is_a_release_build():
    assert _core.BUILD == "release", "tests and benchmarks must not measure a debug build"


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 100_000), n_moves=st.integers(0, 8), rack=racks, bag=st.integers(0, 80))
def test_the_core_equals_the_numba_kernels(small_lexicon, variant, rules, seed, n_moves, rack, bag):  # noqa: F811
    lexicon, _ = small_lexicon
    generator = MoveGenerator(lexicon, variant)
    board = Board.for_variant(variant)
    play_random_moves(generator, board, random.Random(seed), n_moves)
    assert_same(generator, Equity(open_leaves(), variant), board, rack, bag)


@pytest.mark.sjp
def test_the_core_equals_the_numba_kernels_on_the_sjp_positions(sjp_lexicon):
    from literaki_cli.io.positionio import read_cgp

    rows = [json.loads(line) for line in (ROOT / "tests/data/golden/positions.jsonl").read_text("utf-8").splitlines()]
    positions = {row["position"] for row in rows}
    assert len(positions) > 200
    generator = MoveGenerator(sjp_lexicon, LITERAKI)
    equity = Equity(open_leaves(), LITERAKI)
    for text in sorted(positions):
        position = read_cgp(text, None, "golden")
        assert_same(generator, equity, position.board, position.rack, 50)


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 100_000), n_moves=st.integers(0, 8), rack=racks, unseen=st.integers(0, 30),
       plies=st.integers(1, 4))  # fmt: skip
def test_the_cores_rollouts_equal_the_numba_rollout(small_lexicon, variant, rules, seed, n_moves, rack, unseen, plies):  # noqa: F811
    """Every candidate (placements, exchanges, a pass) in a few futures, bag sizes from empty (the
    game ends) to mid-game, the empty board (no shared reply) included: the same numbers."""
    from literaki_cli.montecarlo.rollout_numba import numba_answer
    from literaki_cli.montecarlo.simulation import Candidate, SimPosition, Simulator, draw_future, static_candidates
    from literaki_cli.montecarlo.winmodel import open_win_model

    lexicon, _ = small_lexicon
    rng = random.Random(seed)
    board = Board.for_variant(variant)
    play_random_moves(MoveGenerator(lexicon, variant), board, rng, n_moves)
    sim = SimPosition(variant, board, rack, None, sorted(rng.choice(LETTERS + "?") for _ in range(unseen)), spread=5)
    equity = Equity(open_leaves(), variant)
    candidates = static_candidates(sim, lexicon, equity, 6) + [Candidate.of_pass(rack, 0.0)]
    simulator = Simulator(sim, lexicon, equity, open_win_model(), plies, candidates, workers=1)
    futures = [draw_future(sim, seed, i) for i in range(3)]
    got = simulator.answers(futures, list(range(len(candidates))))
    for i, future in enumerate(futures):
        for j in range(len(candidates)):
            expected = numba_answer(simulator, j, future)
            assert got[i, j].tobytes() == expected.tobytes(), (candidates[j], future)


def test_the_simulation_is_the_same_on_any_number_of_threads(small_lexicon):  # noqa: F811
    from literaki_cli.montecarlo.simulation import SimPosition, Simulator, draw_future, static_candidates
    from literaki_cli.montecarlo.winmodel import open_win_model

    lexicon, _ = small_lexicon
    board = Board.for_variant(LITERAKI)
    play_random_moves(MoveGenerator(lexicon, LITERAKI), board, random.Random(3), 6)
    sim = SimPosition(LITERAKI, board, "aeio?kr", None, sorted("abcdefghijklmnoprstuwyzż?" * 2), spread=0)
    equity = Equity(open_leaves(), LITERAKI)
    candidates = static_candidates(sim, lexicon, equity, 8)
    futures = [draw_future(sim, 11, i) for i in range(24)]
    answers = [Simulator(sim, lexicon, equity, open_win_model(), 2, candidates, workers=n).answers(futures, [0, 2, 5])
               for n in (1, 2, 3)]  # fmt: skip
    assert answers[0].tobytes() == answers[1].tobytes() == answers[2].tobytes()


leave_racks = st.text(alphabet="aąeiozżkrtsnłć?", min_size=0, max_size=7).filter(lambda r: r.count("?") <= 2)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rack=leave_racks, weight=st.sampled_from([0.0, 1.0, 0.75, 1.3]), kept_factor=st.sampled_from([0.0, 0.5, 1.25]))
def test_the_cores_leave_values_equal_the_numba_kernels(small_lexicon, rack, weight, kept_factor):  # noqa: F811
    from literaki_cli.engine.movegen import CELLS, LENGTH
    from literaki_cli.engine.movegen_numba import leave_number
    from literaki_cli.equity.leaves import rack_leaves, rack_leaves_numba

    table = open_leaves()
    tile_value = LITERAKI.tables.tile_value.astype(np.int64)
    new = rack_leaves(rack, table, tile_value, weight, kept_factor)
    old = rack_leaves_numba(rack, table, tile_value, weight, kept_factor)
    assert (new.place == old.place).all() and (new.sizes == old.sizes).all()
    assert new.values.tobytes() == old.values.tobytes(), "bit for bit"
    # A move's leave value: the table entry of its leave's number (the numba kernel's number).
    records = MoveGenerator(small_lexicon[0], LITERAKI).generate(Board.for_variant(LITERAKI), rack).records
    whole = new.values.shape[0] - 1
    expected = [new.values[leave_number(r, CELLS, CELLS + r[LENGTH], new.place, whole)] for r in records]
    assert new.of_moves(records).tolist() == expected


def test_a_board_of_the_wrong_size_is_a_one_line_error(small_lexicon):  # noqa: F811
    generator = MoveGenerator(small_lexicon[0], LITERAKI)
    board = Board(np.zeros((7, 9), dtype=np.uint8), np.zeros((7, 9), dtype=bool))
    with pytest.raises(LiterakiError, match=r"a board of \[7, 9\] for rules of a 15x15 board"):
        generator.generate(board, "kot")


def test_a_corrupt_arc_inside_the_core_is_a_one_line_error(small_lexicon):  # noqa: F811
    """An arc pointing past the array (which the file check refuses before) is a caught panic:
    the project's one-line error, nothing on stderr, never a crash."""
    lexicon = small_lexicon[0]
    generator = MoveGenerator(lexicon, LITERAKI)
    arcs = lexicon.arcs.copy()
    arcs[generator.graph.gaddag_root] = (arcs[generator.graph.gaddag_root] & ~np.uint32(0xFFFFFF)) | np.uint32(0xFFFFFE)
    broken = MoveGenerator(lexicon, LITERAKI)
    broken.graph = broken.graph._replace(arcs=arcs)
    board = Board.for_variant(LITERAKI)
    fault = r"^internal error in the engine core \(move generation\): index out of bounds"
    with pytest.raises(LiterakiError, match=fault):
        broken.generate(board, "akotżąe")
    assert generator.generate(board, "kot").records.shape[0] > 0  # the process goes on


def test_a_rack_the_core_cannot_hold_is_refused(small_lexicon):  # noqa: F811
    generator = MoveGenerator(small_lexicon[0], LITERAKI)
    board = Board.for_variant(LITERAKI)
    with pytest.raises(LiterakiError, match="a rack must be 64 counts"):
        generator.generate(board, "k" * 40)


def test_a_simulation_the_core_cannot_play_is_a_one_line_error(small_lexicon):  # noqa: F811
    """A candidate laying a tile on an occupied square (or off the board), and a future holding a
    code that is no tile, are refused with one line, never a crash."""
    from literaki_cli.engine.move import Tile
    from literaki_cli.games.game import PLACE
    from literaki_cli.montecarlo.simulation import Candidate, SimPosition, Simulator, draw_future
    from literaki_cli.montecarlo.winmodel import open_win_model

    lexicon, _ = small_lexicon
    board = Board.for_variant(LITERAKI)
    board.set_cell(7, 7, "k", False)
    sim = SimPosition(LITERAKI, board, "kota", None, sorted("abcdeeiko"), spread=0)
    equity = Equity(open_leaves(), LITERAKI)
    for square in ((7, 7), (20, 3)):
        bad = Candidate(PLACE, "8H", "K", 2, "ota", 0.0, tiles=(Tile(*square, "k", False),))
        with pytest.raises(LiterakiError) as caught:
            Simulator(sim, lexicon, equity, open_win_model(), 2, [bad])
        assert "\n" not in str(caught.value) and "candidate" in str(caught.value)
    simulator = Simulator(sim, lexicon, equity, open_win_model(), 2, [Candidate.of_pass("kota", 0.0)])
    future = draw_future(sim, 1, 0)
    from literaki_cli.engine.movegen import core_call

    with pytest.raises(LiterakiError, match="letter code"):
        core_call(simulator.core.run, [([40], [1, 2])], [0], 2)
    with pytest.raises(LiterakiError, match="do not fit"):
        simulator.answers([future], [3])
