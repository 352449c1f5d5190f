"""The exact endgame search agrees with a plain minimax written here from the rules.

The brute force shares nothing with :mod:`literaki_cli.endgame`: its moves come from
:func:`tests.bruteforce.all_moves` (scored by :mod:`tests.rules_oracle`, which reads the rules
file itself), its leftover values from the oracle's tile values, and its end rules from the
text of ../shared/docs/rules-literaki.md ("End of game").  It visits every node of the game
tree, with no pruning and no table of values: only move lists are remembered, per grid and
rack, because enumerating them is the slow part.

Positions are seeded: a board half filled by random moves, two racks of 1..3 tiles (sometimes
a blank), the bag empty, 0..3 passes in a row before the position.  A position whose game
tree is too large for the brute force is skipped for the next seed: first by counting its
first moves (with the library's generator, which only chooses the positions and values
nothing), then by a budget of nodes and move enumerations, never of time, so that every run
tests the same 300 positions.  One solver per board serves every position, so its
transposition table also meets entries of unrelated earlier positions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import pytest

from literaki_cli.endgame.solver import EndgameMove, EndgameResult, EndgameSolver
from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.movegen import TILES, MoveGenerator, record_tiles
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import Variant
from tests.bruteforce import MoveKey, all_moves
from tests.rules_oracle import Grid, Rules, grid_of, rules_from_text, rules_of
from tests.test_movegen import LETTERS, LITERAKI, SMALL, play_random_moves, random_word_lexicon, small_board_text

#: Passes in a row that end a two-player game: each player passes twice (rules-literaki.md).
PASSES_TO_END = 4
BLANK = "?"
#: Words of the random lexicon: fewer than test_movegen's, so that whole game trees stay small.
WORD_COUNT = 150
#: The chance of each rack tile being a blank.
BLANK_CHANCE = 0.06
#: Positions whose first moves that do not play out, (mover's + 1) * (opponent's + 1), exceed
#: this are skipped before the brute force starts: their trees take it minutes.
FIRST_MOVES_LIMIT = 60
#: The brute force's budget per position (a backstop): nodes visited and move lists enumerated.
NODE_BUDGET = 50_000
ENUMERATION_BUDGET = 400
#: Seeds tried per position wanted before a case gives up (about half fit on 15x15).
SEEDS_PER_POSITION = 4
#: The root moves whose values value_of is asked for, per position (and the pass).
VALUE_OF_MOVES = 3
#: First moves given exact values by solve.
KEEP = 5

ORACLE_SMALL = rules_from_text(small_board_text())
ORACLE_LITERAKI = rules_of("literaki")
#: Each board with its oracle rules and the most random moves that fill it (to about half full).
VARIANTS = {"custom-7x9": (SMALL, ORACLE_SMALL, 14), "literaki-15x15": (LITERAKI, ORACLE_LITERAKI, 45)}
#: (board, first seed, positions): 300 positions in all.
CASES = [
    ("custom-7x9", 0, 50),
    ("custom-7x9", 10_000, 50),
    ("custom-7x9", 20_000, 50),
    ("custom-7x9", 30_000, 50),
    ("literaki-15x15", 0, 50),
    ("literaki-15x15", 10_000, 50),
]
CASE_IDS = [f"{name}-{first}" for name, first, _ in CASES]


# ----------------------------------------------------------------- the brute force


class TooLarge(Exception):
    """The position's game tree is beyond the brute force's budget."""


def leftover(rules: Rules, rack: str) -> int:
    """A rack's value at the end of the game: its tiles' values, a blank 0."""
    return sum(0 if ch == BLANK else rules.tile_value(ch, blank=False) for ch in rack)


def rest_of(rack: str, tiles) -> str:
    """The rack after laying ``tiles`` (a blank tile takes a '?')."""
    left = Counter(rack)
    left.subtract(BLANK if blank else letter for _, _, letter, blank in tiles)
    assert all(n >= 0 for n in left.values()), (rack, sorted(tiles))
    return "".join(sorted(left.elements()))


@dataclass
class BruteForce:
    """Plain minimax over every move and the pass; values are spread changes for the player to move."""

    rules: Rules
    words: set[str]
    move_lists: dict = field(default_factory=dict)
    nodes: int = 0
    enumerations: int = 0

    def moves(self, grid: Grid, rack: str) -> list[tuple[MoveKey, int]]:
        key = (frozenset(grid.items()), "".join(sorted(rack)))
        if key not in self.move_lists:
            self.enumerations += 1
            if self.enumerations > ENUMERATION_BUDGET:
                raise TooLarge
            self.move_lists[key] = list(all_moves(grid, self.rules, rack, self.words).items())
        return self.move_lists[key]

    def value(self, grid: Grid, racks: tuple[str, str], passes: int) -> int:
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            raise TooLarge
        best = self.move_value(grid, racks, passes, None, 0)
        for tiles, score in self.moves(grid, racks[0]):
            best = max(best, self.move_value(grid, racks, passes, tiles, score))
        return best

    def move_value(self, grid: Grid, racks: tuple[str, str], passes: int, tiles: MoveKey | None, score: int) -> int:
        """The value of one move (None: the pass) for the player making it."""
        mine, theirs = racks
        if tiles is None:
            if passes + 1 == PASSES_TO_END:  # the game ends: each loses their own leftovers
                return leftover(self.rules, theirs) - leftover(self.rules, mine)
            return -self.value(grid, (theirs, mine), passes + 1)
        rest = rest_of(mine, tiles)
        if not rest:  # played out: gains the opponent's leftovers, the opponent loses them
            return score + 2 * leftover(self.rules, theirs)
        child = dict(grid)
        child.update({(r, c): (letter, blank) for r, c, letter, blank in tiles})
        return score - self.value(child, (theirs, rest), 0)

    def root_values(self, grid: Grid, racks: tuple[str, str], passes: int) -> dict[MoveKey | None, int]:
        """The value of every first move (None: the pass)."""
        values = {None: self.move_value(grid, racks, passes, None, 0)}
        for tiles, score in self.moves(grid, racks[0]):
            values[tiles] = self.move_value(grid, racks, passes, tiles, score)
        return values


# ----------------------------------------------------------------- positions


@dataclass
class Position:
    seed: int
    variant: Variant
    rules: Rules
    board: Board
    racks: tuple[str, str]
    passes: int
    root_values: dict[MoveKey | None, int]

    @property
    def value(self) -> int:
        return max(self.root_values.values())

    def describe(self) -> str:
        rows = "\n".join(self.board.to_rows())
        return f"seed {self.seed}, racks {self.racks}, passes {self.passes}, board:\n{rows}"


def random_rack(rng: random.Random) -> str:
    return "".join(BLANK if rng.random() < BLANK_CHANCE else rng.choice(LETTERS) for _ in range(rng.randint(1, 3)))


def make_position(name: str, seed: int, generator: MoveGenerator, words: set[str]) -> Position | None:
    """The seeded position, valued by the brute force; None when its tree is too large."""
    variant, rules, most_moves = VARIANTS[name]
    rng = random.Random(f"{name}/{seed}")
    board = Board.for_variant(variant)
    play_random_moves(generator, board, rng, rng.randint(1, most_moves))
    racks = (random_rack(rng), random_rack(rng))
    passes = rng.randint(0, PASSES_TO_END - 1)
    # Only choosing which positions to test: the library's generator counts quickly.
    first_moves = 1
    for rack in racks:
        first_moves *= 1 + int(np.count_nonzero(generator.generate(board, rack).records[:, TILES] < len(rack)))
    if first_moves > FIRST_MOVES_LIMIT:
        return None
    try:
        values = BruteForce(rules, words).root_values(grid_of(board), racks, passes)
    except TooLarge:
        return None
    return Position(seed, variant, rules, board, racks, passes, values)


def tiles_key(tiles: list[Tile]) -> MoveKey:
    """The library's tiles as the brute force keys a move: its new (row, col, letter, blank)."""
    return frozenset((t.row, t.col, t.letter, t.blank) for t in tiles)


def move_key(move: EndgameMove) -> MoveKey | None:
    return None if move.is_pass else tiles_key(move.tiles)


# ----------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory) -> tuple[Lexicon, set[str]]:
    """A small random word list over a few letters (as in test_movegen), built into a lexicon."""
    return random_word_lexicon(tmp_path_factory.mktemp("endgame"), WORD_COUNT)


@pytest.fixture(scope="module")
def solvers(lexicon) -> dict[str, EndgameSolver]:
    """One solver per board for the whole module: later solves meet earlier ones' table entries."""
    return {name: EndgameSolver(lexicon[0], variant) for name, (variant, _, _) in VARIANTS.items()}


@pytest.fixture(scope="module")
def positions(lexicon):
    """The positions of each case, made once for all the tests of the module."""
    made: dict[tuple[str, int, int], list[Position]] = {}

    def of_case(name: str, first: int, count: int) -> list[Position]:
        if (name, first, count) not in made:
            generator = MoveGenerator(lexicon[0], VARIANTS[name][0])
            found: list[Position] = []
            for seed in range(first, first + SEEDS_PER_POSITION * count):
                position = make_position(name, seed, generator, lexicon[1])
                if position is not None:
                    found.append(position)
                    if len(found) == count:
                        break
            assert len(found) == count, f"only {len(found)} of the seeds' positions fit the brute force"
            made[name, first, count] = found
        return made[name, first, count]

    return of_case


@pytest.fixture(scope="module")
def results(positions, solvers):
    """The solver's answer for each position, solved once."""
    solved: dict[tuple[str, int], EndgameResult] = {}

    def of_case(name: str, first: int, count: int) -> list[tuple[Position, EndgameResult]]:
        pairs = []
        for p in positions(name, first, count):
            if (name, p.seed) not in solved:
                board = p.board.copy()
                solved[name, p.seed] = solvers[name].solve(board, p.racks, passes=p.passes, keep=KEEP)
                assert board == p.board, "solve changed the board it was given"
            pairs.append((p, solved[name, p.seed]))
        return pairs

    return of_case


# ----------------------------------------------------------------- the tests


@pytest.mark.parametrize("name, first, count", CASES, ids=CASE_IDS)
@pytest.mark.slow
def test_value_equals_brute_force(results, name, first, count):
    for p, result in results(name, first, count):
        assert result.exact, p.describe()
        assert result.value == p.value, p.describe()


@pytest.mark.parametrize("name, first, count", CASES, ids=CASE_IDS)
def test_first_move_values_equal_brute_force(results, name, first, count):
    for p, result in results(name, first, count):
        assert result.moves, p.describe()
        assert result.moves[0].value == p.value, p.describe()
        assert move_key(result.best) in p.root_values and p.root_values[move_key(result.best)] == p.value
        values = [m.value for m in result.moves]
        assert values == sorted(values, reverse=True), p.describe()
        keys = [move_key(m) for m in result.moves]
        assert len(set(keys)) == len(keys), p.describe()
        assert len(keys) == min(KEEP, len(p.root_values)), p.describe()
        for move, key in zip(result.moves, keys, strict=True):
            assert key in p.root_values, f"{move.coord} {move.word} is no legal first move\n{p.describe()}"
            assert move.value == p.root_values[key], f"{move.coord} {move.word}\n{p.describe()}"
        # The kept moves are the best ones: no first move left out is better than the last kept.
        left_out = [v for k, v in p.root_values.items() if k not in set(keys)]
        assert all(v <= values[-1] for v in left_out), p.describe()


@pytest.mark.parametrize("name, first, count", CASES, ids=CASE_IDS)
def test_principal_variation_replays_to_the_value(results, lexicon, name, first, count):
    library_lexicon, words = lexicon
    for p, result in results(name, first, count):
        board = p.board.copy()
        racks = {1: p.racks[0], 2: p.racks[1]}
        spread, passes = 0, p.passes
        ended_by = None
        assert result.pv and result.pv[0].player == 1, p.describe()
        for ply, move in enumerate(result.pv):
            assert ended_by is None, f"the line goes on after the game ended\n{p.describe()}"
            assert move.player == 1 + ply % 2, p.describe()
            sign = 1 if move.player == 1 else -1
            if move.is_pass:
                assert move.score == 0 and not move.tiles, p.describe()
                passes += 1
                if passes == PASSES_TO_END:
                    ended_by = "passes"
                    points = (-leftover(p.rules, racks[1]), -leftover(p.rules, racks[2]))
                continue
            passes = 0
            scored = score_tiles(board, p.variant, move.tiles, move.direction)
            assert not scored.problems, f"{move.coord} {move.word}: {scored.problems}\n{p.describe()}"
            assert scored.total == move.score, p.describe()
            for word in scored.words:
                assert word.plain_word in words and word.plain_word in library_lexicon, p.describe()
            racks[move.player] = rest_of(racks[move.player], tiles_key(move.tiles))
            for t in move.tiles:
                board.set_cell(t.row, t.col, t.letter, t.blank)
            spread += sign * move.score
            if not racks[move.player]:
                ended_by = "out"
                gained = leftover(p.rules, racks[3 - move.player])
                points = (gained, -gained) if move.player == 1 else (-gained, gained)
        assert ended_by is not None and result.ended_by == ended_by, p.describe()
        assert result.end_points == points, p.describe()
        assert spread + points[0] - points[1] == result.value, p.describe()


@pytest.mark.parametrize("name", list(VARIANTS))
def test_value_of_first_moves_equals_brute_force(positions, solvers, lexicon, name):
    """value_of, for the pass and a few generator records of every other position."""
    generator = MoveGenerator(lexicon[0], VARIANTS[name][0])
    checked = 0
    for case in (c for c in CASES if c[0] == name):
        for p in positions(*case)[::2]:
            records = generator.generate(p.board, p.racks[0]).records
            chosen = random.Random(p.seed).sample(range(len(records)), min(VALUE_OF_MOVES, len(records)))
            for record in [None, *(records[i] for i in chosen)]:
                key = None if record is None else tiles_key(record_tiles(record)[0])
                shown = "the pass" if key is None else str(sorted(key))
                assert key in p.root_values, f"{shown} is no legal first move\n{p.describe()}"
                found = solvers[name].value_of(p.board.copy(), p.racks, record, p.passes)
                assert found.exact and not found.interrupted and found.nodes >= 0, p.describe()
                assert found.value == p.root_values[key], f"{shown}\n{p.describe()}"
                checked += 1
    assert checked >= 150


def test_brute_force_end_rules_by_hand(lexicon, solvers):
    """The brute force's end rules on positions worked out by hand (values from the rules' table:
    ż 5, k 2, a 1, t 2, blank 0), and the solver on the same positions."""
    words = lexicon[1]
    solver = solvers["custom-7x9"]
    # A full board: no one can move, so the game ends by passes and each loses their own tiles.
    full = Board.for_variant(SMALL)
    for r in range(SMALL.board.rows):
        for c in range(SMALL.board.columns):
            full.set_cell(r, c, "o", False)
    for passes, plies in ((0, 4), (2, 2), (3, 1)):
        brute_force = BruteForce(ORACLE_SMALL, words)
        assert brute_force.root_values(grid_of(full), ("ż?", "ka"), passes) == {None: (2 + 1) - (5 + 0)}
        result = solver.solve(full.copy(), ("ż?", "ka"), passes=passes)
        assert (result.value, result.ended_by, result.end_points) == (-2, "passes", (-5, -3))
        assert [m.is_pass for m in result.pv] == [True] * plies
    # KA on the start square; "kat" is a word: T plays out and gains the opponent's Ż twice.
    board = Board.for_variant(SMALL)
    board.set_cell(3, 3, "k", False)
    board.set_cell(3, 4, "a", False)
    outs = all_moves(grid_of(board), ORACLE_SMALL, "t", words)
    assert outs
    values = BruteForce(ORACLE_SMALL, words).root_values(grid_of(board), ("t", "ż"), 0)
    assert max(values.values()) == max(outs.values()) + 2 * 5
    result = solver.solve(board.copy(), ("t", "ż"))
    assert result.value == max(outs.values()) + 2 * 5 and result.ended_by == "out" and result.end_points == (5, -5)
