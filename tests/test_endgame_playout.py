"""Playout leaves (issue 27): a node at the depth limit valued by a greedy playout to the end.

The core's playout (``EndgameSearch.playout_value``) is checked against a
plain-Python greedy playout over the brute force's moves (tests/bruteforce.py, scored by the
rules oracle, with the end rules written from the rules text).  Where several moves tie for the
greedy choice the oracle follows each, and the kernel's value must be one of theirs.  A solver
with playouts must still give the brute force's exact values, and leave the position as it was."""

from __future__ import annotations

import numpy as np
import pytest

from literaki_cli.endgame.solver import EndgameSolver, _limits
from literaki_cli.engine.movegen import MoveGenerator
from tests.rules_oracle import grid_of
from tests.test_endgame_bruteforce import (  # noqa: F401 (a fixture)
    PASSES_TO_END,
    VARIANTS,
    BruteForce,
    leftover,
    lexicon,
    make_position,
    rest_of,
)

BOARD = "custom-7x9"
#: Positions of the brute force's kind (1-3 tiles a side) tried here, and the seeds they come from.
POSITION_COUNT = 12
FIRST_SEED = 7000


def greedy_values(force: BruteForce, grid, racks: tuple[str, str], passes: int) -> set[int]:
    """Every spread (for the player to move) a greedy playout can end with: each side plays the
    move of the highest score plus what it saves (out: the opponent's leftovers twice; else the
    values of the tiles laid), the most tiles on a tie; a pass when it has no move."""
    mine, theirs = racks
    rules = force.rules
    options = []
    for tiles, score in force.moves(grid, mine):
        rest = rest_of(mine, tiles)
        if rest:
            laid = sum(0 if blank else rules.tile_value(letter, blank=False) for _, _, letter, blank in tiles)
            options.append(((score + laid) * 64 + len(tiles), tiles, score, rest))
        else:
            options.append(((score + 2 * leftover(rules, theirs)) * 64 + len(tiles), tiles, score, rest))
    if not options:
        if passes + 1 >= PASSES_TO_END:
            return {leftover(rules, theirs) - leftover(rules, mine)}
        return {-v for v in greedy_values(force, grid, (theirs, mine), passes + 1)}
    top = max(option[0] for option in options)
    values: set[int] = set()
    for key, tiles, score, rest in options:
        if key != top:
            continue
        if not rest:
            values.add(score + 2 * leftover(rules, theirs))
            continue
        child = dict(grid)
        child.update({(r, c): (letter, blank) for r, c, letter, blank in tiles})
        values.update(score - v for v in greedy_values(force, child, (theirs, rest), 0))
    return values


@pytest.fixture(scope="module")
def positions(lexicon):  # noqa: F811 (the fixture's value)
    variant = VARIANTS[BOARD][0]
    generator = MoveGenerator(lexicon[0], variant)
    found = []
    for seed in range(FIRST_SEED, FIRST_SEED + 6 * POSITION_COUNT):
        position = make_position(BOARD, seed, generator, lexicon[1])
        if position is not None:
            found.append(position)
            if len(found) == POSITION_COUNT:
                break
    assert len(found) == POSITION_COUNT
    return found


def test_the_playout_is_a_greedy_game_to_the_end_and_restores_the_position(lexicon, positions):  # noqa: F811
    solver = EndgameSolver(lexicon[0], VARIANTS[BOARD][0])
    for position in positions:
        state = solver._state(position.board, position.racks, _limits(0.0, None, None))
        before = state.snapshot()
        value = state.playout_value(0, position.passes)
        force = BruteForce(position.rules, lexicon[1])
        expected = greedy_values(force, grid_of(position.board), position.racks, position.passes)
        assert value in expected, f"{position.describe()}\nplayout {value}, greedy games end with {sorted(expected)}"
        after = state.snapshot()
        assert after[0] == before[0] and all(np.array_equal(a, b) for a, b in zip(after[1:], before[1:], strict=True))


def test_with_playouts_the_exact_values_are_the_brute_forces(lexicon, positions):  # noqa: F811
    """Every iteration but the last meets the depth limit, so the playouts shape the table and the
    order the last one searches in; the values it proves are the same."""
    solver = EndgameSolver(lexicon[0], VARIANTS[BOARD][0], playout=True)
    for position in positions:
        result = solver.solve(position.board, position.racks, passes=position.passes)
        assert result.exact and result.value == position.value, position.describe()

