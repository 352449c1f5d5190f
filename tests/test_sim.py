"""``solve --sim``: Monte Carlo simulation of candidate moves (literaki_cli.montecarlo.simulation)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.position import Position
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.montecarlo.settings import SimSettings
from literaki_cli.montecarlo.simulation import (
    ROUND,
    SimPosition,
    Simulator,
    draw_future,
    simulate_candidates,
    static_candidates,
)
from literaki_cli.montecarlo.winmodel import open_win_model
from tests.conftest import run_cli

#: One bingo for the rack KOTLINA through the Z of the board below, two-letter words beside it.
BINGO_WORDS = ["zkotlina", "za", "az", "ko", "to", "ta", "na", "ni", "li", "ok", "ot"]


@pytest.fixture(scope="module")
def bingo_lexicon(tmp_path_factory, variant):
    """A lexicon where the rack KOTLINA has one bingo on :func:`bingo_board` and only two-letter
    words beside it."""
    from lexicon_build.build import build_lexicon

    folder = tmp_path_factory.mktemp("bingo")
    (folder / "w.txt").write_text("\n".join(BINGO_WORDS) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "b.lexicon", variant).output)


def bingo_board(variant) -> Board:
    """Z in the centre, Ź below it: ZKOTLINA fits across from the Z only (down it would run into the Ź)."""
    board = Board.for_variant(variant)
    board.set_cell(7, 7, "z", False)
    board.set_cell(8, 7, "ź", False)
    return board


def start(variant, rack: str, racks: tuple[str, ...] = (), scores=(0, 0), board: Board | None = None) -> SimPosition:
    board = board if board is not None else Board.for_variant(variant)
    return SimPosition.of(Position(variant, board, [rack, *racks], list(scores)), rack)


def run(lexicon, sim: SimPosition, **settings) -> object:
    equity = Equity(open_leaves(), sim.variant)
    return simulate_candidates(sim, lexicon, equity, open_win_model(), SimSettings(**settings))


def comparable(result) -> dict:
    record = result.as_dict()["sim"]
    del record["seconds"], record["workers"]
    return record


def test_an_obvious_bingo_ranks_first_separated_and_the_stopping_rule_stops(bingo_lexicon, variant):
    sim = start(variant, "kotlina", board=bingo_board(variant))
    result = run(bingo_lexicon, sim, iterations=2000, candidates=5, stop=95, seed=3, workers=1)
    best, *others = result.candidates
    assert best.candidate.bingo and (best.candidate.word, best.candidate.display) == ("ZKOTLINA", "(Z)KOTLINA")
    assert others and all(o.cut for o in others) and not best.cut
    lo = best.equity[1]
    assert all(lo > o.equity[2] for o in others)  # separated 95 % intervals
    assert result.stopped and result.iterations < 2000
    assert best.iterations == result.iterations


def test_without_a_stopping_rule_every_candidate_runs_every_iteration(bingo_lexicon, variant):
    sim = start(variant, "kotlina", board=bingo_board(variant))
    result = run(bingo_lexicon, sim, iterations=40, candidates=3, seed=1, workers=1)
    assert not result.stopped and result.iterations == 40
    assert [c.iterations for c in result.candidates] == [40, 40, 40] and not any(c.cut for c in result.candidates)
    equities = [c.equity[0] for c in result.candidates]
    assert equities == sorted(equities, reverse=True)


def test_same_seed_same_results_whatever_the_workers(flowing_lexicon, variant):
    sim = start(variant, "aeiknst")
    one = run(flowing_lexicon, sim, iterations=2 * ROUND + 5, candidates=4, seed=11, workers=1)
    two = run(flowing_lexicon, sim, iterations=2 * ROUND + 5, candidates=4, seed=11, workers=2)
    assert comparable(one) == comparable(two)
    other = run(flowing_lexicon, sim, iterations=2 * ROUND + 5, candidates=4, seed=12, workers=1)
    assert comparable(other) != comparable(one)  # the seed matters: the comparison above can fail


def test_common_random_numbers_every_candidate_sees_the_same_future(variant):
    sim = start(variant, "aeiknst")
    assert draw_future(sim, 5, 17) == draw_future(sim, 5, 17)
    assert draw_future(sim, 5, 17) != draw_future(sim, 5, 18)
    future = draw_future(sim, 5, 17)
    assert len(future.opponent_rack) == 7 and len(future.bag) == sim.bag_size
    assert sorted(future.opponent_rack + "".join(future.bag)) == sim.unseen


def test_a_known_opponent_rack_is_kept(variant):
    sim = start(variant, "aeiknst", racks=("kotlina",))
    assert sim.bag_size == variant.tile_count - 14
    assert all(draw_future(sim, 1, i).opponent_rack == "kotlina" for i in range(5))


def test_ctrl_c_keeps_the_finished_rounds(flowing_lexicon, variant):
    calls = []

    def progress(n: int) -> None:
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    sim = start(variant, "aeiknst")
    equity = Equity(open_leaves(), variant)
    settings = SimSettings(iterations=10 * ROUND, candidates=3, workers=1)
    result = simulate_candidates(sim, flowing_lexicon, equity, open_win_model(), settings, progress=progress)
    assert result.interrupted and result.iterations == 2 * ROUND
    assert all(c.iterations == 2 * ROUND for c in result.candidates)


def test_going_out_with_the_bag_empty_counts_the_opponents_tiles_twice(flowing_lexicon, variant):
    """The candidate lays the last two tiles: the game ends, no ply follows, and the spread
    gains twice the opponent's tile values (they lose them, the mover gains them)."""
    opponent = "źż"
    sim = SimPosition(variant, Board.for_variant(variant), "ta", opponent, [], spread=-3)
    equity = Equity(open_leaves(), variant)
    candidates = [c for c in static_candidates(sim, flowing_lexicon, equity, 50) if len(c.tiles) == 2]
    assert candidates
    simulator = Simulator(sim, flowing_lexicon, equity, open_win_model(), plies=2, candidates=candidates)
    for i, c in enumerate(candidates):
        outcome = simulator.play(i, draw_future(sim, 1, 0))
        assert outcome.equity == c.score + 2 * (variant.value_of("ź") + variant.value_of("ż"))
        assert outcome.ply_scores == ()
        assert outcome.win == (1.0 if -3 + outcome.equity > 0 else 0.0)


def test_the_last_leave_counts_for_whoever_moved_last(flowing_lexicon, variant):
    """With one ply the opponent moved last: its leave value counts against the mover."""
    sim = start(variant, "aeiknst")
    equity = Equity(open_leaves(), variant)
    one = run(flowing_lexicon, sim, iterations=8, candidates=2, plies=1, seed=2, workers=1)
    assert len(one.candidates[0].plies()) == 1
    assert one.as_dict()["sim"]["plies"] == 1
    candidate = static_candidates(sim, flowing_lexicon, equity, 1)[0]
    simulator = Simulator(sim, flowing_lexicon, equity, open_win_model(), plies=1, candidates=[candidate])
    future = draw_future(sim, 2, 0)
    outcome = simulator.play(0, future)
    # Replay the opponent's reply independently: its best static equity on the board after the candidate.
    from literaki_cli.analysis.solve import solve

    board = sim.board.with_tiles(candidate.tiles)
    bag = len(future.bag) - len(candidate.tiles)
    reply = solve(board, variant, flowing_lexicon, future.opponent_rack, top=1, equity=equity, bag=bag, exchanges=1)
    best = reply.moves[0]
    if reply.exchanges and reply.exchanges[0].equity > best.equity:
        expected = candidate.score - reply.exchanges[0].equity
    else:
        expected = candidate.score - best.score - best.leave_value
    assert outcome.equity == pytest.approx(expected, abs=2e-3)  # solve rounds leave values to 0.001


def test_a_rounds_rows_are_each_outcome_to_the_last_bit(flowing_lexicon, variant):
    """Simulator.run takes the core's answers a column at a time; each row must be what
    Simulator.outcome makes of its answer alone (equity, win, ply scores and bingos, NaN for the
    plies not played), bit for bit, with games over and not over among them."""
    import numpy as np

    equity = Equity(open_leaves(), variant)
    for sim in (start(variant, "aeiknst", scores=(7, 30)),
                SimPosition(variant, Board.for_variant(variant), "ta", "źż", [], spread=-3)):  # fmt: skip
        candidates = static_candidates(sim, flowing_lexicon, equity, 4)
        for plies in (1, 2, 3):
            simulator = Simulator(sim, flowing_lexicon, equity, open_win_model(), plies=plies, candidates=candidates)
            iterations, active = list(range(6)), list(range(len(candidates)))
            rows = simulator.run(iterations, active, seed=5)
            answers = simulator.answers([draw_future(sim, 5, i) for i in iterations], active)
            for i in iterations:
                for j in active:
                    outcome = simulator.outcome(answers[i, j])
                    expected = [outcome.equity, outcome.win] + [np.nan] * (2 * plies)
                    for k, (score, bingo) in enumerate(zip(outcome.ply_scores, outcome.ply_bingos, strict=True)):
                        expected[2 + 2 * k: 4 + 2 * k] = [float(score), float(bingo)]
                    bits = np.array(expected).view(np.uint64)  # NaN is numpy's one NaN on both sides
                    assert np.array_equal(rows[i, j].view(np.uint64), bits), (plies, i, j, rows[i, j], expected)


def test_json_schema_and_bad_options(capsys, bingo_lexicon, tmp_path):
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOTLINA/ 0/0 0"
    code, out, err = run_cli(capsys, "solve", cgp, "--sim", "--iterations", "40", "--candidates", "3", "--workers", "1",
                             "--json", "--lexicon", str(bingo_lexicon.path))  # fmt: skip
    assert code == 0, err
    sim = json.loads(out)["sim"]
    assert sim["iterations"] == 40 and sim["plies"] == 2 and sim["seed"] == 1
    first = sim["candidates"][0]
    for key in ("coord", "word", "score", "leave", "equity", "equity_ci", "win_pct", "win_ci", "iterations", "cut",
                "plies"):  # fmt: skip
        assert key in first
    assert len(first["plies"]) == 2 and set(first["plies"][0]) == {"mean_score", "bingo_pct"}
    assert first["equity_ci"][0] <= first["equity"] <= first["equity_ci"][1]
    assert 0 <= first["win_ci"][0] <= first["win_pct"] <= first["win_ci"][1] <= 100
    for bad, what in ((["--stop", "90"], "--stop 90"), (["--plies", "0"], "--plies"), (["--iterations", "0"],
                      "--iterations")):  # fmt: skip
        code, out, err = run_cli(capsys, "solve", cgp, "--sim", *bad, "--lexicon", str(bingo_lexicon.path))
        assert code == 2 and what in err and "Traceback" not in err
    code, out, err = run_cli(capsys, "solve", cgp, "--sim", "--by", "score", "--min-tiles", "3",
                             "--lexicon", str(bingo_lexicon.path))  # fmt: skip
    assert code == 2 and "--sim does not take --by score, --min-tiles" in err
    code, out, err = run_cli(capsys, "solve", cgp, "--seed", "3", "--stop", "95", "--lexicon", str(bingo_lexicon.path))
    assert code == 2 and "--seed, --stop: only with --sim" in err
    three = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOTLINA// 0/0/0 0"
    code, out, err = run_cli(capsys, "solve", three, "--sim", "--lexicon", str(bingo_lexicon.path))
    assert code == 2 and "two-player" in err


@pytest.mark.slow
def test_ctrl_c_in_a_terminal_prints_the_results_so_far(flowing_lexicon, tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, LITERAKI_LEXICON=str(flowing_lexicon.path), COLUMNS="200", LINES="50")
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEIKNST/ 0/0 0"
    child = pexpect.spawn(sys.executable, ["-m", "literaki_cli", "solve", cgp, "--sim", "--iterations", "100000",
                                           "--candidates", "3", "--workers", "2"],
                          env=env, encoding="utf-8", timeout=120, dimensions=(50, 200), cwd=str(tmp_path))  # fmt: skip
    child.expect(r"simulating: +\d+%.*\| *[1-9]\d*/100000")  # the bar shows finished iterations
    child.sendintr()
    child.expect("sim equity")  # the table of the finished rounds
    child.expect("interrupted: the results of")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # README, "Exit codes": interrupted, what was finished kept


def test_literki_simulates_with_its_forced_exchange_squares(flowing_lexicon):
    """The rule itself (the next rack swapped while the bag allows) is tested in the core
    (rust/src/rollout.rs)."""
    from literaki_cli.engine.variant import load_variant

    literki = load_variant("literki")
    sim = start(literki, "aeiknst")
    result = run(flowing_lexicon, sim, iterations=8, candidates=3, seed=4, workers=1)
    assert result.iterations == 8 and result.candidates[0].iterations == 8


def test_an_empty_symmetric_board_offers_each_opening_once(flowing_lexicon, variant):
    from literaki_cli.engine.variant import ACROSS

    sim = start(variant, "aeiknst")
    candidates = static_candidates(sim, flowing_lexicon, Equity(open_leaves(), variant), 10)
    assert len(candidates) == 10
    assert all(c.direction == ACROSS for c in candidates if c.kind == "place")  # H8 mirrors 8H: not simulated twice


def test_the_command_gives_the_same_table_whatever_the_workers(capsys, bingo_lexicon):
    cgp = "15/15/15/15/15/15/15/7Z7/7Ź7/15/15/15/15/15/15 KOTLINA/ 10/25 0"
    records = []
    for workers in ("1", "2"):
        code, out, err = run_cli(capsys, "solve", cgp, "--lenient", "--sim", "--iterations", "70", "--candidates",
                                 "4", "--seed", "9", "--workers", workers, "--json",
                                 "--lexicon", str(bingo_lexicon.path))  # fmt: skip
        assert code == 0, err
        record = json.loads(out)["sim"]
        assert record["workers"] == int(workers)
        del record["seconds"], record["workers"]
        records.append(record)
    assert records[0] == records[1] and records[0]["iterations"] == 70
    assert records[0]["candidates"][0]["word"] == "ZKOTLINA"


def test_one_iteration_has_no_interval(bingo_lexicon, variant):
    result = run(bingo_lexicon, start(variant, "kotlina", board=bingo_board(variant)), iterations=1, candidates=2,
                 workers=1)  # fmt: skip
    record = result.as_dict()["sim"]["candidates"][0]
    assert record["iterations"] == 1 and record["equity_ci"] == [None, None] and record["win_ci"] == [None, None]
    assert record["equity"] is not None and 0 <= record["win_pct"] <= 100
