"""The pre-endgame (``solve --peg``) agrees with a plain game-tree search written here.

The brute force shares nothing with :mod:`literaki_cli.endgame`: its moves come from
:func:`tests.bruteforce.all_moves` (scored by :mod:`tests.rules_oracle`, which reads the rules
file itself), its endgames are the plain minimax of :mod:`tests.test_endgame_bruteforce`, and
its splits are counted here from the unseen tiles.  The conventions it follows are the ones
docs/endgame.md states for the pre-endgame: the unseen tiles are split into the opponent's rack
and the bag with the probability of the bag being a random draw of them; once split, every tile
is known to both players, each of whom makes the move of the best spread change; a move that
empties the bag draws it and leads to the exact endgame; the pass goes on with the same bag and
four zero-scoring turns in a row end the game.

Positions are seeded: a board half filled by random moves (a 7 x 9 test board and the 15 x 15
Literaki board), a rack of 1..3 tiles to move, 2..4 unseen tiles of which 1 (or 2) are in the
bag, a spread of -15..15 and 0..2 passes in a row.  A position whose tree is beyond the brute
force's budget (nodes and move enumerations, never time) is skipped for the next seed, so that
every run checks the same positions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from literaki_cli.endgame.peg import PegPosition, PegSettings, PreEndgameSolver
from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.engine.board import Board
from literaki_cli.engine.movegen import MoveGenerator
from tests.bruteforce import MoveKey
from tests.rules_oracle import Grid, grid_of
from tests.test_endgame_bruteforce import (
    PASSES_TO_END,
    VARIANTS,
    BruteForce,
    TooLarge,
    leftover,
    move_key,
    rest_of,
)
from tests.test_movegen import LETTERS, play_random_moves, random_word_lexicon

WORD_COUNT = 150
#: (board, first seed, positions, tiles in the bag)
CASES = [("custom-7x9", 0, 30, 1), ("literaki-15x15", 0, 12, 1), ("custom-7x9", 5_000, 12, 2)]
SEEDS_PER_POSITION = 8
#: Every setting that could cut the search short, off: the answer must be exact.
EXACT = PegSettings(candidates=None, nodes=None, replies=None, splits=None)


def distinct_splits(unseen: str, bag: int) -> list[tuple[str, str, float]]:
    """(opponent's rack, bag, probability) for every bag a random draw of ``bag`` unseen tiles
    can be, counted by drawing the tiles one by one (ordered draws, merged)."""
    found: Counter = Counter()
    total = 0

    def draw(left: list[str], taken: list[str]) -> None:
        nonlocal total
        if len(taken) == bag:
            found["".join(sorted(left)), "".join(sorted(taken))] += 1
            total += 1
            return
        for i in range(len(left)):
            draw(left[:i] + left[i + 1 :], taken + [left[i]])

    draw(list(unseen), [])
    return [(opponent, in_bag, n / total) for (opponent, in_bag), n in sorted(found.items())]


Outcome = list[tuple[float, int]]  # (probability, spread change for the player it belongs to)


@dataclass
class PegBruteForce:
    """Every move and pass of both players through the chance of the draws, no pruning."""

    endgame: BruteForce

    def root(self, grid: Grid, rack: str, unseen: str, bag: int, spread: int, passes: int):
        """{first move (None: the pass): (win chance, mean spread change)}."""
        splits = distinct_splits(unseen, bag)
        answers = {}
        for key, score in [(None, 0)] + self.endgame.moves(grid, rack):
            win = mean = 0.0
            for opponent, in_bag, weight in splits:
                outcome = self.option(grid, rack, opponent, in_bag, passes, key, score, spread)
                win += weight * chance_to_win(outcome, spread)
                mean += weight * sum(p * v for p, v in outcome)
            answers[key] = (win, mean)
        return answers

    def node(self, grid: Grid, mover: str, other: str, bag: str, passes: int, lead: int) -> Outcome:
        if not bag:
            return [(1.0, self.endgame.value(grid, (mover, other), passes))]
        best, best_key = None, None
        for key, score in [(None, 0)] + self.endgame.moves(grid, mover):
            outcome = self.option(grid, mover, other, bag, passes, key, score, lead)
            rank = (sum(p * v for p, v in outcome), chance_to_win(outcome, lead))
            if best_key is None or rank > best_key:
                best, best_key = outcome, rank
        return best

    def option(self, grid: Grid, mover: str, other: str, bag: str, passes: int, tiles: MoveKey | None, score: int,
               lead: int) -> Outcome:  # fmt: skip
        if tiles is None:
            if passes + 1 == PASSES_TO_END:
                rules = self.endgame.rules
                return [(1.0, leftover(rules, other) - leftover(rules, mover))]
            return [(p, -v) for p, v in self.node(grid, other, mover, bag, passes + 1, -lead)]
        rest = rest_of(mover, tiles)
        child = dict(grid)
        child.update({(r, c): (letter, blank) for r, c, letter, blank in tiles})
        if len(tiles) >= len(bag):  # the mover draws the whole bag: the endgame, the other to move
            return [(1.0, score - self.endgame.value(child, (other, rest + bag), 0))]
        outcome = []
        for i in sorted(set(range(len(bag))), key=lambda i: bag[i]):  # each tile of the bag drawn
            drawn, left = bag[i], bag[:i] + bag[i + 1 :]
            reply = self.node(child, other, "".join(sorted(rest + drawn)), left, 0, -(lead + score))
            outcome += [(p / len(bag), score - v) for p, v in reply]
        return outcome


def chance_to_win(outcome: Outcome, lead: int) -> float:
    return sum(p * (1.0 if lead + v > 0 else 0.5 if lead + v == 0 else 0.0) for p, v in outcome)


@dataclass
class Case:
    seed: int
    board: Board
    rack: str
    unseen: str
    bag: int
    spread: int
    passes: int
    answers: dict

    def describe(self) -> str:
        rows = "\n".join(self.board.to_rows())
        return (f"seed {self.seed}, rack {self.rack}, unseen {self.unseen} ({self.bag} in the bag), "
                f"spread {self.spread}, passes {self.passes}, board:\n{rows}")  # fmt: skip


def tiles(rng: random.Random, count: int) -> str:
    return "".join("?" if rng.random() < 0.05 else rng.choice(LETTERS) for _ in range(count))


def make_case(name: str, seed: int, bag: int, generator: MoveGenerator, words: set[str]) -> Case | None:
    variant, rules, most_moves = VARIANTS[name]
    rng = random.Random(f"peg/{name}/{seed}")
    board = Board.for_variant(variant)
    play_random_moves(generator, board, rng, rng.randint(1, most_moves))
    rack = tiles(rng, rng.randint(1, 3))
    unseen = "".join(sorted(tiles(rng, rng.randint(1, 3) + bag)))
    spread, passes = rng.randint(-15, 15), rng.randint(0, 2)
    try:
        answers = PegBruteForce(BruteForce(rules, words)).root(grid_of(board), rack, unseen, bag, spread, passes)
    except TooLarge:
        return None
    return Case(seed, board, rack, unseen, bag, spread, passes, answers)


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    return random_word_lexicon(tmp_path_factory.mktemp("peg"), WORD_COUNT)


@pytest.mark.parametrize("name, first, count, bag", CASES, ids=[f"{c[0]}-bag{c[3]}" for c in CASES])
@pytest.mark.slow
def test_every_candidate_equals_the_brute_force(lexicon, name, first, count, bag):
    library_lexicon, words = lexicon
    variant = VARIANTS[name][0]
    generator = MoveGenerator(library_lexicon, variant)
    solver = PreEndgameSolver(EndgameSolver(library_lexicon, variant))
    checked = 0
    for seed in range(first, first + SEEDS_PER_POSITION * count):
        case = make_case(name, seed, bag, generator, words)
        if case is None:
            continue
        position = PegPosition(case.board, case.rack, case.unseen, bag, case.spread, case.passes)
        result = solver.solve(position, EXACT)
        assert not result.interrupted and not result.sampled, case.describe()
        assert result.splits == result.all_splits == len(distinct_splits(case.unseen, bag)), case.describe()
        judged = {move_key(c.move): c for c in result.candidates}
        assert set(judged) == set(case.answers), case.describe()
        for key, (win, mean) in case.answers.items():
            candidate = judged[key]
            where = f"{candidate.move.coord} {candidate.move.word}\n{case.describe()}"
            assert candidate.win == pytest.approx(win, abs=1e-9), where
            assert candidate.value == pytest.approx(mean, abs=1e-9), where
            assert candidate.spread == pytest.approx(case.spread + mean, abs=1e-9), where
            assert candidate.exact == candidate.splits == result.splits, where
        ranks = [(c.win, c.value) for c in result.candidates]
        assert ranks == sorted(ranks, reverse=True), case.describe()
        checked += 1
        if checked == count:
            break
    assert checked == count, f"only {checked} of the seeds' positions fit the brute force"


def test_the_splits_and_their_weights():
    position = PegPosition(Board.for_variant(VARIANTS["custom-7x9"][0]), "ak", "aako", 1)
    assert sorted((s.opponent, s.bag, s.weight) for s in position.splits()) == [("aak", "o", 0.25), ("aao", "k", 0.25),
                                                                                ("ako", "a", 0.5)]  # fmt: skip
    two = PegPosition(position.board, "ak", "aakot", 2)
    assert sorted((s.opponent, s.bag, s.weight) for s in two.splits()) == sorted(distinct_splits("aakot", 2))
    assert sum(s.weight for s in two.splits()) == pytest.approx(1.0)
    stated = PegPosition(position.board, "ak", "aakot", 2, opponent_rack="kta")
    assert [(s.opponent, s.bag, s.weight) for s in stated.splits()] == [("akt", "ao", 1.0)]
    sample = two.sampled_splits(5, seed=3)
    assert sample == two.sampled_splits(5, seed=3) and sum(s.weight for s in sample) == pytest.approx(1.0)
    assert {(s.opponent, s.bag) for s in sample} <= {(s.opponent, s.bag) for s in two.splits()}
