"""The pre-endgame: the best move while 1 or 2 tiles are still in the bag (``solve --peg``).

The mover sees their own rack and the *unseen* tiles: the bag and the opponent's rack together
(at most 2 + 7).  Which of them are in the bag decides what each player holds at the end, so a
candidate move is judged over every **split** of the unseen tiles into the opponent's rack and
the bag, each weighted by its probability (a rack the position states leaves one split).  Given
the split, the rest of the game is played with every tile known to both players, as it is
anyway once the bag is empty (the tiles can be counted): a move that empties the bag leads to
an endgame valued by the endgame search (:mod:`literaki_cli.endgame.solver`) within a budget;
a move that leaves tiles in the bag (a pass, or one tile laid from a bag of two) leads to a
position where the next player chooses among their moves in the same way, the draw of one tile
from two being a chance of one half each.

Each player chooses the move of the best mean spread change, and among equals the best chance
to win; the outcome of a candidate is the distribution of the final spread over the splits
(and draws), from which its **win chance** (a draw counts one half) and **mean spread** come.
The candidates are ranked by win chance, then mean spread.  This is the method of Macondo's
pre-endgame solver (its "PEG"), written for this engine; the conventions are ours and
documented in docs/endgame.md ("The pre-endgame").
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from literaki_cli.endgame.solver import PASSES_TO_END, EndgameMove, EndgameSolver, OutOfTime, describe_move
from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.movegen import (
    BLANK_FLAG,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    LENGTH,
    RECORD_WIDTH,
    SCORE,
    TILES,
    record_tiles,
)
from literaki_cli.engine.position import BLANK

#: The most tiles in the bag the pre-endgame handles.
MAX_BAG = 2
#: Candidates judged unless asked otherwise (the best by static equity, and the pass).
DEFAULT_CANDIDATES = 10
#: Search nodes per endgame unless a time is given (about 0.02-0.05 s each).
DEFAULT_NODES = 4000
#: Splits of the unseen tiles an answer judges at most (sampled when there are more: with 2 tiles
#: in the bag), ``solve --peg``'s and the board's.
DEFAULT_SPLITS = 12
#: Replies considered in a position with tiles still in the bag after the candidate (the best
#: by score, and the pass).
DEFAULT_REPLIES = 8

#: One outcome of a candidate: (probability, spread change for the player making it).
Distribution = list[tuple[float, int]]


@dataclass(frozen=True)
class Split:
    """One way the unseen tiles lie: the opponent's rack and the bag (both sorted)."""

    opponent: str
    bag: str
    weight: float  # its probability (or share of the sample)


@dataclass(frozen=True)
class PegPosition:
    """What the pre-endgame starts from, as the player to move sees it."""

    board: Board
    rack: str
    unseen: str  # the bag and the opponent's rack together
    bag: int  # tiles in the bag
    spread: int = 0  # the mover's score minus the opponent's
    passes: int = 0  # zero-scoring turns in a row before this one
    opponent_rack: str | None = None  # when the position states it

    def splits(self) -> list[Split]:
        """Every split of the unseen tiles, with its probability: the bag is a random draw of
        ``bag`` tiles from the unseen ones (or what a stated rack leaves)."""
        if self.opponent_rack is not None:
            rest = Counter(self.unseen)
            rest.subtract(self.opponent_rack)
            return [Split(_sorted(self.opponent_rack), _sorted(rest.elements()), 1.0)]
        counts = Counter(self.unseen)
        total = math.comb(len(self.unseen), self.bag)
        splits = []
        for bag in itertools.combinations_with_replacement(sorted(counts), self.bag):
            need = Counter(bag)
            if any(counts[t] < n for t, n in need.items()):
                continue
            ways = math.prod(math.comb(counts[t], n) for t, n in need.items())
            rest = counts.copy()
            rest.subtract(need)
            splits.append(Split(_sorted(rest.elements()), "".join(bag), ways / total))
        return splits

    def sampled_splits(self, count: int, seed: int) -> list[Split]:
        """``count`` splits drawn at random (the bag's tiles drawn from the unseen ones), the
        same draws merged: an unbiased sample of :meth:`splits`, for a faster answer."""
        rng = random.Random(f"literaki-peg-{seed}")
        tiles = sorted(self.unseen)
        drawn: Counter = Counter()
        for _ in range(count):
            bag = rng.sample(tiles, self.bag)
            rest = Counter(tiles)
            rest.subtract(bag)
            drawn[_sorted(rest.elements()), _sorted(bag)] += 1
        return [Split(opponent, bag, n / count) for (opponent, bag), n in sorted(drawn.items())]


@dataclass(frozen=True)
class PegSettings:
    """How hard the pre-endgame looks (docs/endgame.md)."""

    candidates: int | None = DEFAULT_CANDIDATES  # None: every move
    nodes: int | None = DEFAULT_NODES  # per endgame; None: no node limit
    seconds: float | None = None  # the whole answer's time (shared out among the endgames)
    #: with ``seconds``: a deadline for the whole answer, every endgame search cut there, the
    #: candidates not judged by then left out (``solve --peg --time``); else every candidate is
    #: judged and each endgame searches one ply at least, whatever the clock says
    strict_time: bool = False
    replies: int | None = DEFAULT_REPLIES  # None: every move
    splits: int | None = None  # at most this many splits, sampled when there are more; None: all
    seed: int = 1  # of the sample


@dataclass
class PegCandidate:
    """One candidate's outcome over the splits judged."""

    move: EndgameMove
    static_equity: float
    win: float = 0.0  # chance (0..1) over the splits judged
    spread: float = 0.0  # mean final spread (the mover's score minus the opponent's at the end)
    value: float = 0.0  # mean spread change from now on
    splits: int = 0
    exact: int = 0  # splits whose every endgame was solved exactly, with no reply left out
    outcomes: list[tuple[Split, Distribution]] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        m = self.move
        return {"coord": m.coord, "word": m.word, "display": m.display, "score": m.score,
                "static_equity": round(self.static_equity, 3), "win_pct": round(100 * self.win, 3),
                "spread": round(self.spread, 3), "value": round(self.value, 3), "splits": self.splits,
                "exact_splits": self.exact}  # fmt: skip


@dataclass
class PegResult:
    candidates: list[PegCandidate]  # judged, best first
    bag: int
    splits: int  # splits judged per candidate
    all_splits: int  # distinct splits there are
    sampled: bool
    endgames: int  # endgame searches made
    seconds: float
    considered: int  # candidates asked for (judged or not)
    interrupted: bool = False  # Ctrl-C: the candidates finished before it
    out_of_time: bool = False  # the deadline (``strict_time``): the candidates finished before it

    @property
    def best(self) -> PegCandidate | None:
        return self.candidates[0] if self.candidates else None

    def as_dict(self) -> dict:
        return {"peg": {"bag": self.bag, "splits": self.splits, "all_splits": self.all_splits,
                        "sampled": self.sampled, "endgames": self.endgames, "seconds": round(self.seconds, 3),
                        "considered": self.considered, "judged": len(self.candidates),
                        "interrupted": self.interrupted, "out_of_time": self.out_of_time,
                        "candidates": [c.as_dict() for c in self.candidates]}}  # fmt: skip


class _Interrupted(Exception):
    """Ctrl-C inside an endgame search: the candidate being judged is dropped."""


class PreEndgameSolver:
    """Judges the candidates of a pre-endgame with one endgame solver (its transposition table
    serves every endgame of the answer)."""

    def __init__(self, endgame: EndgameSolver) -> None:
        self.endgame = endgame
        self.generator = endgame.generator
        self.variant = endgame.variant

    def solve(self, position: PegPosition, settings: PegSettings = PegSettings(), equity=None,
              progress: Callable[[int, int], None] | None = None,
              also: np.ndarray | None = None) -> PegResult:  # fmt: skip
        """Every candidate's win chance and mean spread, best first.  ``equity`` (an
        :class:`~literaki_cli.equity.equity.Equity`) ranks the moves that become candidates
        (else their score); ``also``: a move (generator record) judged too, first, whether or
        not it is among them (``analyze`` values the move played); ``progress(done,
        candidates)`` after each candidate.  Ctrl-C ends the answer with the candidates judged
        so far (``interrupted``), and so does the deadline of ``settings.strict_time``
        (``out_of_time``): the candidate being judged then is left out."""
        ranked = self._candidates(position, settings, equity)
        started = time.perf_counter()
        exact_splits = position.splits()
        sampled = settings.splits is not None and len(exact_splits) > settings.splits
        splits = position.sampled_splits(settings.splits, settings.seed) if sampled else exact_splits
        if also is not None:
            ranked = _first(ranked, also, equity, position)
        deadline = started + settings.seconds if settings.seconds is not None and settings.strict_time else None
        self._run = _Run(settings, started, len(ranked) * len(splits) * self._endgames_per_split(settings), deadline)
        result = PegResult([], position.bag, len(splits), len(exact_splits), sampled, 0, 0.0, len(ranked))
        try:
            for number, (record, static) in enumerate(ranked, 1):
                result.candidates.append(self._judge(position, record, static, splits))
                if progress is not None:
                    progress(number, len(ranked))
        except (KeyboardInterrupt, _Interrupted):
            result.interrupted = True
        except OutOfTime:
            result.out_of_time = True
        result.candidates.sort(key=lambda c: (-c.win, -c.value))  # stable: the static order among equals
        result.endgames, result.seconds = self._run.endgames, time.perf_counter() - started
        return result

    # ----------------------------------------------------------------- the candidates

    def _candidates(self, position: PegPosition, settings: PegSettings, equity) -> list[tuple[np.ndarray, float]]:
        """The best placements by static equity (or score), then the pass: (record, equity)."""
        records = self.generator.generate(position.board, position.rack).records
        static = records[:, SCORE].astype(np.float64)
        if equity is not None and len(records):
            static = static + equity.for_rack(position.rack, position.bag).of_moves(records)
        order = np.argsort(-static, kind="stable")
        if settings.candidates is not None:
            order = order[: settings.candidates]
        pass_equity = 0.0
        if equity is not None:
            pass_equity = float(equity.for_rack(position.rack, position.bag).of_moves(pass_record()[None, :])[0])
        return [(records[i], float(static[i])) for i in order] + [(pass_record(), pass_equity)]

    @staticmethod
    def _endgames_per_split(settings: PegSettings) -> int:
        """A rough count of the endgames one candidate's split needs, to share out a time: one
        for a move that empties the bag, about a reply's worth for the others."""
        return 1 + (settings.replies or 20) // 4

    def _judge(self, position: PegPosition, record: np.ndarray, static: float, splits: list[Split]) -> PegCandidate:
        candidate = PegCandidate(describe_move(record, 1), static)
        total = sum(s.weight for s in splits)
        for split in splits:
            self._run.exact = True
            outcome = self._option(position.board, position.rack, split.opponent, split.bag, position.passes,
                                   record, position.spread)  # fmt: skip
            weight = split.weight / total
            candidate.outcomes.append((split, outcome))
            candidate.splits += 1
            candidate.exact += self._run.exact
            candidate.win += weight * _win_chance(outcome, position.spread)
            candidate.value += weight * _mean(outcome)
        candidate.spread = position.spread + candidate.value
        return candidate

    # ----------------------------------------------------------------- the game tree

    def _node(self, board: Board, mover: str, other: str, bag: str, passes: int, lead: int) -> Distribution:
        """The outcome for ``mover`` (spread change from here) of the best of their moves and
        the pass, every tile known; ``lead``: the mover's spread now (for the win chances that
        break ties)."""
        if not bag:
            return [(1.0, self._endgame(board, mover, other, passes))]
        records = self.generator.generate(board, mover).records
        limit = self._run.settings.replies
        order = np.argsort(-records[:, SCORE], kind="stable")
        if limit is not None and len(order) > limit:
            order = order[:limit]
            self._run.exact = False
        best: Distribution | None = None
        best_key = None
        for record in [records[i] for i in order] + [pass_record()]:
            outcome = self._option(board, mover, other, bag, passes, record, lead)
            key = (_mean(outcome), _win_chance(outcome, lead))
            if best_key is None or key > best_key:
                best, best_key = outcome, key
        return best

    def _option(self, board: Board, mover: str, other: str, bag: str, passes: int, record: np.ndarray,
                lead: int) -> Distribution:  # fmt: skip
        """The outcome for ``mover`` of the move ``record`` (the pass when it lays nothing)."""
        if record[LENGTH] == 0:
            if passes + 1 >= PASSES_TO_END:  # the game ends: each loses the value of their own tiles
                return [(1.0, self._rack_value(other) - self._rack_value(mover))]
            return _negated(self._node(board, other, mover, bag, passes + 1, -lead))
        score = int(record[SCORE])
        tiles, _ = record_tiles(record)
        after = board.with_tiles(tiles)
        rest = _rest(mover, record)
        laid = int(record[TILES])
        if laid >= len(bag):  # the bag empties: an endgame, the other player to move
            return [(1.0, score - self._endgame(after, other, rest + bag, 0))]
        outcome: Distribution = []
        for tile, count in sorted(Counter(bag).items()):  # one tile drawn of two
            left = bag.replace(tile, "", 1)
            chance = count / len(bag)
            reply = self._node(after, other, _sorted(rest + tile), left, 0, -(lead + score))
            outcome += [(chance * p, score - v) for p, v in reply]
        return outcome

    def _endgame(self, board: Board, mover: str, other: str, passes: int) -> int:
        """The endgame's value for ``mover`` (to move), within the budget; a table of the answer's
        endgames serves the same one met again."""
        key = (board.letters.tobytes(), board.blanks.tobytes(), _sorted(mover), _sorted(other), passes)
        found = self._run.endgame_values.get(key)
        if found is None:
            run = self._run
            result = self.endgame.solve(board, (mover, other), passes, seconds=run.slice(), nodes=run.settings.nodes,
                                        keep=1, line=False, deadline=run.deadline)  # fmt: skip
            if result.interrupted:
                raise _Interrupted
            run.endgames += 1
            found = run.endgame_values[key] = (int(result.value), result.exact)
        self._run.exact &= found[1]
        return found[0]

    def _rack_value(self, rack: str) -> int:
        return self.variant.rack_value(rack)


@dataclass
class _Run:
    """The budget and the counts of one answer."""

    settings: PegSettings
    started: float
    planned: int  # endgames the answer is expected to need
    deadline: float | None = None  # every endgame search stops there (``strict_time``)
    endgames: int = 0
    exact: bool = True  # the current split's endgames were all exact
    endgame_values: dict = field(default_factory=dict)

    def slice(self) -> float | None:
        """The seconds the next endgame may take: the time left shared among the endgames still
        expected (None without a time)."""
        if self.settings.seconds is None:
            return None
        left = self.settings.seconds - (time.perf_counter() - self.started)
        return max(0.001, left / max(1, self.planned - self.endgames))


def _first(ranked: list[tuple[np.ndarray, float]], move: np.ndarray, equity, position: PegPosition):
    """``ranked`` with ``move`` first (taken from among them when it is there: the same tiles)."""
    key = move_key(move)
    at = next((i for i, (record, _) in enumerate(ranked) if move_key(record) == key), None)
    if at is not None:
        return [ranked[at]] + ranked[:at] + ranked[at + 1 :]
    static = float(move[SCORE])
    if equity is not None:
        static += float(equity.for_rack(position.rack, position.bag).of_moves(move[None, :])[0])
    return [(move, static)] + ranked


def move_key(record: np.ndarray) -> frozenset:
    """What tells two moves apart: the tiles they lay (the pass lays none)."""
    if record[LENGTH] == 0:
        return frozenset()
    return frozenset(record_tiles(record)[0])


def _win_chance(outcome: Distribution, lead: int) -> float:
    return sum(p * (1.0 if lead + v > 0 else 0.5 if lead + v == 0 else 0.0) for p, v in outcome)


def _mean(outcome: Distribution) -> float:
    return sum(p * v for p, v in outcome)


def _negated(outcome: Distribution) -> Distribution:
    return [(p, -v) for p, v in outcome]


def _sorted(tiles) -> str:
    return "".join(sorted(tiles))


def _rest(rack: str, record: np.ndarray) -> str:
    """The rack after the move ``record`` (a blank laid takes a '?')."""
    left = Counter(rack)
    cells = record[CELLS : CELLS + int(record[LENGTH])]
    for cell in cells:
        if cell & BOARD_FLAG:
            continue
        left[BLANK if cell & BLANK_FLAG else alphabet.LETTER_OF[int(cell & CODE_MASK)]] -= 1
    return _sorted(left.elements())


def pass_record() -> np.ndarray:
    """The pass as a generator record: a move laying nothing."""
    return np.zeros(RECORD_WIDTH, dtype=np.int32)


__all__ = ["MAX_BAG", "PegCandidate", "PegPosition", "PegResult", "PegSettings", "PreEndgameSolver", "Split",
           "move_key", "pass_record"]
