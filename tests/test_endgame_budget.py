"""An endgame budget holds whatever its size: a search whose first iteration the budget cuts
finishes that one-ply iteration (it needs an answer) and stops there, instead of deepening on
with no limit at all (a ``mistrz`` with ``endgame_nodes = 1`` took a minute a game).  And
``mistrz``'s games with such a budget still repeat exactly with any number of workers.

Node counts, never seconds: a budget of nodes gives the same search on every machine, and a
deadline already past is met at the first look at the clock."""

from __future__ import annotations

import polars as pl
import pytest

from literaki_cli.cli import main
from literaki_cli.endgame import search
from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.io.positionio import read_position
from tests.conftest import TEST_LEVELS
from tests.test_game import V

#: An endgame from self-play over the flowing lexicon: '?wz?' to move against 'sz'.  Solved
#: exactly it takes about 14,000 nodes (9 plies); its first iteration (one ply) about 500.
ENDGAME = (
    "6BŃ7/6IDE6/8AH5/3FŁ3IAI4/3TPA4ZI3/5MEI2AYM2/3OOE1CJ3AĄ1/2NCL2EYE1ANE1/1ŹB1OSU2RND3/MK3E1HG1RCR2/"
    "3T1PO1WWP1ŻW1/3ŚI1A2L3GI/4AKO1JD1ZN1Y/3USZ1ĘĆ1LN1ŁO/2ÓY1KSR3TIA1 ?WZ?/SZ 300/300 0 var literaki;"
)
#: A small table: these tests solve small endgames only.
TABLE_BITS = 16


@pytest.fixture(scope="module")
def endgame(flowing_lexicon):
    """(solver, board, racks) for ENDGAME, and what an exact solve and a one-ply solve take."""
    position = read_position(ENDGAME, "ENDGAME", V)
    board, racks = position.board, (position.racks[0], position.racks[1])
    solver = EndgameSolver(flowing_lexicon, V, table_bits=TABLE_BITS)
    solver.forget()
    exact = solver.solve(board, racks, keep=1, line=False)
    solver.forget()
    one_ply = solver.solve(board, racks, depth=1, keep=1, line=False)
    assert exact.exact and exact.depth > 2 and not one_ply.exact and one_ply.depth == 1
    assert exact.nodes > 20 * one_ply.nodes  # the position tells a deepening budget from a kept one
    return solver, board, racks, exact, one_ply


def _budgeted(endgame, **limits):
    solver, board, racks, _, _ = endgame
    solver.forget()
    return solver.solve(board, racks, keep=1, line=False, **limits)


@pytest.mark.parametrize("budget", [1, 10, 100])
def test_a_node_budget_smaller_than_one_ply_stops_after_the_first_iteration(endgame, budget):
    """The budget cuts the first iteration: it is finished without the budget (the answer must
    be some move), and the search stops there: the nodes are the budget's and one ply's at most
    (the old search went on to the exact solve, every iteration unbounded)."""
    _, _, _, exact, one_ply = endgame
    result = _budgeted(endgame, nodes=budget)
    assert result.depth == 1 and not result.exact and not result.interrupted
    assert result.best.coord is not None or result.best.is_pass
    assert result.nodes <= budget + 1 + one_ply.nodes
    assert result.nodes * 10 < exact.nodes
    assert result.best.word == one_ply.best.word and result.value == one_ply.value  # the one-ply answer


def test_a_node_budget_gives_the_same_answer_every_time(endgame):
    first = _budgeted(endgame, nodes=1)
    again = _budgeted(endgame, nodes=1)
    assert (first.best.coord, first.best.word, first.value, first.nodes) == (
        again.best.coord, again.best.word, again.value, again.nodes)  # fmt: skip


def test_a_budget_the_search_never_meets_changes_nothing(endgame):
    """A budget above what the exact solve takes: the same exact answer, the same nodes."""
    _, _, _, exact, _ = endgame
    result = _budgeted(endgame, nodes=exact.nodes + 1)
    assert result.exact and (result.best.word, result.value, result.nodes, result.depth) == (
        exact.best.word, exact.value, exact.nodes, exact.depth)  # fmt: skip


def test_a_node_budget_above_one_ply_keeps_the_last_complete_iteration(endgame):
    """A budget the first iteration fits in but a later one does not: the search stops at the
    budget (plus the node that met it) with a deeper iteration's answer."""
    _, _, _, exact, one_ply = endgame
    budget = 2 * one_ply.nodes
    result = _budgeted(endgame, nodes=budget)
    assert 1 <= result.depth < exact.depth and not result.exact
    assert result.nodes == budget + 1


def test_a_deadline_already_past_stops_after_the_first_iteration(endgame):
    """``seconds = 1e-300``: the deadline is the start itself, met at the first look at the
    clock (every CLOCK_EVERY nodes); then as a node budget."""
    _, _, _, exact, one_ply = endgame
    result = _budgeted(endgame, seconds=1e-300)
    assert result.depth == 1 and not result.exact and not result.interrupted
    assert result.nodes <= search.CLOCK_EVERY + 1 + one_ply.nodes
    assert result.nodes * 10 < exact.nodes


def test_the_value_of_one_move_keeps_a_past_deadline(endgame):
    """``value_of`` deepens the same way: with a deadline already past it stops at the first
    look at the clock (its first iteration, one node, may end before it)."""
    solver, board, racks, exact, _ = endgame
    solver.forget()
    found = solver.value_of(board, racks, exact.best.record, seconds=1e-300)
    assert not found.exact and not found.interrupted and found.nodes <= search.CLOCK_EVERY + 2


# --------------------------------------------------------------------------- mistrz in simulate


def _simulate(lexicon, levels, out, workers: int) -> dict[str, pl.DataFrame]:
    args = ["simulate", "--players", "slaby,mistrz", "--games", "4", "--seed", "3", "--workers", str(workers),
            "--lexicon", str(lexicon.path), "--levels", str(levels), "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    return {name: pl.read_parquet(out / f"{name}.parquet") for name in ("turns", "games", "players")}


def test_mistrz_with_a_budget_of_one_node_plays_repeatable_games(flowing_lexicon, tmp_path, capsys, monkeypatch):
    """``literaki simulate`` with ``mistrz`` at ``endgame_nodes = 1``: every endgame search
    stops after its first iteration (one ply), and the games are the same with one worker
    and with two."""
    levels = tmp_path / "levels.toml"
    levels.write_text(TEST_LEVELS.replace('leaves = "none"\n', 'leaves = "none"\nendgame_nodes = 1\n', 1),
                      encoding="utf-8")  # fmt: skip
    measure = EndgameSolver(flowing_lexicon, V, table_bits=TABLE_BITS)  # its own table: the games' is untouched
    solves = []
    solve = EndgameSolver.solve

    def recorded(self, board, racks, *args, **kwargs):
        result = solve(self, board, racks, *args, **kwargs)
        if self is not measure:
            one_ply = measure.solve(board, racks, *args[:1], depth=1, keep=1, line=False)
            solves.append((result.nodes, result.depth, one_ply.nodes))
        return result

    monkeypatch.setattr(EndgameSolver, "solve", recorded)
    one = _simulate(flowing_lexicon, levels, tmp_path / "one", 1)
    monkeypatch.undo()
    assert solves, "no game reached an endgame: the test needs other seeds"
    assert all(depth == 1 and nodes <= 2 + one_ply for nodes, depth, one_ply in solves), solves
    two = _simulate(flowing_lexicon, levels, tmp_path / "two", 2)
    capsys.readouterr()
    assert one["games"].height == 4
    for name, table in one.items():
        assert table.equals(two[name]), name
