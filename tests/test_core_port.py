"""The Rust core (literaki_cli._core): a release build, the simulation the same on any number of
threads, a rack's leave values those of the table, and its faults are one-line errors.  (Its
moves and best moves are checked against brute force and the golden answers elsewhere.)"""

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
from tests.test_movegen import LITERAKI, play_random_moves, small_lexicon  # noqa: F401


def test_the_core_is_a_release_build():
    assert _core.BUILD == "release", "tests and benchmarks must not measure a debug build"


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
def test_every_moves_leave_value_is_the_tables_value_of_what_it_keeps(small_lexicon, rack, weight, kept_factor):  # noqa: F811
    """A rack's leaves valued at once (numbered sub-multisets) against the table's value of each
    move's leave alone, less its tile points: ``weight`` x value - ``kept_factor`` x points."""
    from literaki_cli.engine import alphabet
    from literaki_cli.engine.movegen import BLANK_FLAG, BOARD_FLAG, CELLS, CODE_MASK, LENGTH, rack_counts
    from literaki_cli.equity.leaves import rack_leaves

    table = open_leaves()
    tile_value = LITERAKI.tables.tile_value.astype(np.int64)
    leaves = rack_leaves(rack, table, tile_value, weight, kept_factor)
    records = MoveGenerator(small_lexicon[0], LITERAKI).generate(Board.for_variant(LITERAKI), rack).records
    expected = []
    for record in records:
        kept = rack_counts(rack)
        for cell in record[CELLS:CELLS + record[LENGTH]]:
            if not cell & BOARD_FLAG:
                kept[0 if cell & BLANK_FLAG else cell & CODE_MASK] -= 1
        leave = "".join(alphabet.LETTER_OF[slot] * int(n) for slot, n in enumerate(kept) if slot and n) + "?" * kept[0]
        points = int((kept * tile_value).sum())
        expected.append(weight * table.value(leave) - kept_factor * points)
    assert leaves.of_moves(records).tolist() == pytest.approx(expected, rel=1e-12, abs=1e-12)


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
