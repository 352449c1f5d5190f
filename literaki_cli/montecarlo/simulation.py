"""Monte Carlo simulation of candidate moves: which of the best static moves is best a few
turns ahead (``solve --sim``; ../shared/docs/strategy.md, "Simulation").

Each *iteration* draws one future: the opponent's rack from the unseen tiles (a rack the
position states is kept) and the order of the bag.  Every candidate is played into that same
future (common random numbers: the differences between candidates carry little noise): the
mover's rack is refilled from the front of the bag, then ``plies`` turns follow, each the
mover's best move by static equity (exchanges included, while the bag allows one).  The
outcome is the spread change from the candidate on, plus the leave value of whoever moved last
(minus, when that is the opponent); the game's end rules apply when a rack empties with the bag
empty.  A win-probability model (:mod:`literaki_cli.montecarlo.winmodel`) turns the final
spread and bag into a win estimate.

Iteration ``i`` draws from its own generator, seeded by (seed, i), and iterations run in rounds
of fixed size whose results are merged in iteration order, so the answer depends on the seed
only, not on how many worker processes share the rounds.  Between rounds, with a stopping rule,
every candidate that the best beats at the chosen confidence (paired differences over the same
iterations) is cut off; the simulation stops when one candidate is left, or after the
iterations asked for.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from literaki_cli.analysis.solve import FoundMove, solve
from literaki_cli.analysis.stats import mean_ci
from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.movegen import BLANK_SLOT as BLANK_CODE
from literaki_cli.engine.movegen import MoveGenerator, core_call
from literaki_cli.engine.position import BLANK, Position
from literaki_cli.engine.variant import ACROSS, Variant
from literaki_cli.equity.equity import Equity
from literaki_cli.errors import InputError, said
from literaki_cli.games.bag import unseen_tiles
from literaki_cli.games.game import EXCHANGE, PASS, PLACE
from literaki_cli.montecarlo.rollout import (
    BAG_LEFT,
    EXCHANGE_KIND,
    LAST,
    OVER,
    PASS_KIND,
    PLACE_KIND,
    PLAYED,
    PLY_SCORES,
    SPREAD,
)
from literaki_cli.montecarlo.settings import STOP_LEVELS, SimSettings, sim_answer

#: Iterations per round: results are merged and the stopping rule is applied between rounds.
ROUND = 32
#: Iterations per thread in one call into the core (Ctrl-C is seen between calls).
TASK = 4
#: The stopping rule waits for this many iterations (a few dozen lucky draws prove nothing).
MIN_ITERATIONS_TO_STOP = 64
#: Simulations are of two-player games.
PLAYERS = 2


@dataclass(frozen=True)
class Candidate:
    """A move to simulate: a placement or an exchange, with its static equity."""

    kind: str  # PLACE, EXCHANGE or PASS (a pass is simulated only when asked for: analyze a played pass)
    coord: str | None  # None for an exchange or a pass
    word: str  # the main word as solve writes it (tiles upper case, blanks lower); "-ABC" for an exchange, "-"
    score: int
    leave: str
    static_equity: float
    tiles: tuple[Tile, ...] = ()
    direction: int = ACROSS
    exchange: str = ""  # the tiles an exchange returns
    bingo: bool = False
    display: str = ""  # the main word with board tiles in parentheses: ŻÓ(Ł)W

    @classmethod
    def of_move(cls, move: FoundMove) -> Candidate:
        return cls(PLACE, move.coord, move.word, move.score, move.leave, move.equity, tuple(move.tiles),
                   move.direction, bingo=move.bingo, display=move.display)  # fmt: skip

    @classmethod
    def of_exchange(cls, tiles: str, keep: str, equity: float) -> Candidate:
        return cls(EXCHANGE, None, f"-{tiles.upper()}", 0, keep, round(equity, 3), exchange=tiles,
                   display=f"-{tiles.upper()}")  # fmt: skip

    @classmethod
    def of_pass(cls, rack: str, equity: float) -> Candidate:
        return cls(PASS, None, "-", 0, rack, round(equity, 3), display="-")


@dataclass
class SimPosition:
    """What a simulation starts from: the board, the mover's rack, the opponent's rack when
    known, the unseen tiles (bag plus the unknown rack) and the spread (mover minus opponent)."""

    variant: Variant
    board: Board
    rack: str
    opponent_rack: str | None
    unseen: list[str]  # sorted; includes the opponent's rack when it is unknown
    spread: int = 0

    @classmethod
    def of(cls, position: Position, rack: str) -> SimPosition:
        opponent = position.racks[1] if len(position.racks) > 1 and position.racks[1] else None
        if position.players != PLAYERS:
            raise InputError(said("--sim simulates two-player games; the position has {count} players",
                                  count=position.players))  # fmt: skip
        unseen = unseen_tiles(position.variant, position.board, [rack] + ([opponent] if opponent else []))
        spread = position.scores[0] - position.scores[1] if len(position.scores) >= 2 else 0
        return cls(position.variant, position.board, rack, opponent, sorted(unseen), spread)

    @property
    def bag_size(self) -> int:
        """Tiles in the bag now (the unseen tiles minus the opponent's rack)."""
        held = len(self.opponent_rack) if self.opponent_rack else min(self.variant.rack_size, len(self.unseen))
        return len(self.unseen) - (0 if self.opponent_rack else held)


# --------------------------------------------------------------------------- one future


@dataclass(frozen=True)
class Future:
    """The random part of one iteration: the opponent's rack and the bag's order."""

    opponent_rack: str
    bag: tuple[str, ...]


def draw_future(sim: SimPosition, seed: int, iteration: int) -> Future:
    """Iteration ``iteration``'s future, from a generator seeded by (seed, iteration) alone."""
    rng = np.random.default_rng([seed & 0xFFFFFFFF, seed >> 32 & 0xFFFFFFFF, iteration])
    tiles = list(sim.unseen)
    order = rng.permutation(len(tiles))
    shuffled = [tiles[i] for i in order]
    if sim.opponent_rack is not None:
        return Future(sim.opponent_rack, tuple(shuffled))
    held = min(sim.variant.rack_size, len(shuffled))
    return Future("".join(shuffled[:held]), tuple(shuffled[held:]))


@dataclass(frozen=True)
class Outcome:
    """One candidate in one future."""

    equity: float  # spread change from the candidate on (its score included) + the final leave term
    win: float  # the mover's chance to win (0..1)
    ply_scores: tuple[int, ...]
    ply_bingos: tuple[bool, ...]


class Simulator:
    """Plays a position's candidates into futures: the rollouts run in the Rust core
    (``_core.Simulation``, :mod:`literaki_cli.montecarlo.rollout` documents their rules), on
    ``workers`` threads; only the win model's lookup stays here."""

    def __init__(self, sim: SimPosition, lexicon: Lexicon, equity: Equity, win_model, plies: int,
                 candidates: list[Candidate], workers: int = 1) -> None:  # fmt: skip
        from literaki_cli import _core

        self.sim = sim
        self.equity = equity
        self.win_model = win_model
        self.plies = plies
        self.candidates = candidates
        self.generator = MoveGenerator(lexicon, sim.variant)
        variant, layout = sim.variant, sim.variant.board
        forced = [False] * (layout.rows * layout.columns)
        for r, c in variant.effect_squares("forced-exchange"):
            forced[r * layout.columns + c] = True
        rules = (int(equity.rules.shrink_below), float(equity.rules.kept_tile_factor), int(variant.exchange_min_bag),
                 variant.exchange_max_per_player > 0, forced, int(variant.forced_exchange_min_bag))  # fmt: skip
        self.core = core_call(_core.Simulation, self.generator.core, equity.leaves.core, equity.tile_value, rules,
                              np.ascontiguousarray(sim.board.letters, dtype=np.uint8),
                              np.ascontiguousarray(sim.board.blanks, dtype=np.bool_), _codes(sim.rack),
                              [_core_candidate(c) for c in candidates], workers)  # fmt: skip

    def answers(self, futures: list[Future], active: list[int]) -> np.ndarray:
        """The core's answers (see :mod:`literaki_cli.montecarlo.rollout`, SPREAD ...) for the
        candidates numbered ``active`` in each future: an array [futures, candidates, answer]."""
        futures_codes = [(_codes(f.opponent_rack), _codes("".join(f.bag))) for f in futures]
        return core_call(self.core.run, futures_codes, active, self.plies)

    def run(self, iterations: list[int], active: list[int], seed: int) -> np.ndarray:
        """Iterations ``iterations`` for the candidates numbered ``active``: an array
        [iterations, candidates, columns] (see EQUITY_COL ...)."""
        answers = self.answers([draw_future(self.sim, seed, i) for i in iterations], active)
        return self.outcome_rows(answers.reshape(-1, answers.shape[-1])).reshape(len(iterations), len(active), -1)

    def outcome_rows(self, answers: np.ndarray) -> np.ndarray:
        """:meth:`outcome` of each answer (one per row) as a row (EQUITY_COL ...) of one array:
        the columns taken whole, the win model asked only for the games not over, number by
        number as :meth:`outcome` asks it (the same floats to the last bit)."""
        out = np.full((answers.shape[0], PLY_COLS + 2 * self.plies), np.nan)
        spread = answers[:, SPREAD].astype(np.float64)
        out[:, EQUITY_COL] = spread
        played = answers[:, PLAYED].astype(np.int64)
        for k in range(self.plies):
            ply = played > k
            out[ply, PLY_COLS + 2 * k] = answers[ply, PLY_SCORES + 2 * k].astype(np.int64)
            out[ply, PLY_COLS + 2 * k + 1] = answers[ply, PLY_SCORES + 2 * k + 1] != 0
        final = self.sim.spread + spread
        over = answers[:, OVER] != 0
        out[over, WIN_COL] = np.where(final[over] > 0, 1.0, np.where(final[over] == 0, 0.5, 0.0))
        probability = self.win_model.probability
        for i in np.flatnonzero(~over).tolist():
            row = answers[i]
            mover_last = int(row[LAST]) == 0
            p = float(probability(float(final[i] if mover_last else -final[i]), int(row[BAG_LEFT])))
            out[i, WIN_COL] = p if mover_last else 1.0 - p
        return out

    def play(self, candidate: int, future: Future) -> Outcome:
        """Candidate number ``candidate`` followed by ``plies`` best replies in ``future``."""
        return self.outcome(self.answers([future], [candidate])[0, 0])

    def outcome(self, answer: np.ndarray) -> Outcome:
        """One rollout's answer (SPREAD ...) as an :class:`Outcome`, with its win estimate."""
        spread = float(answer[SPREAD])
        played = int(answer[PLAYED])
        scores = tuple(int(answer[PLY_SCORES + 2 * k]) for k in range(played))
        bingos = tuple(bool(answer[PLY_SCORES + 2 * k + 1]) for k in range(played))
        if answer[OVER]:
            final = self.sim.spread + spread
            win = 1.0 if final > 0 else 0.5 if final == 0 else 0.0
        else:
            last = int(answer[LAST])
            final = (1 if last == 0 else -1) * (self.sim.spread + spread)  # the last mover's view
            p = float(self.win_model.probability(final, int(answer[BAG_LEFT])))
            win = p if last == 0 else 1.0 - p
        return Outcome(spread, win, scores, bingos)


def _codes(tiles: str) -> list[int]:
    """Letter codes of a rack or bag written as text ('?' = a blank, code 0), in its order."""
    return [BLANK_CODE if ch == BLANK else alphabet.CODE_OF[ch] for ch in tiles]


def _core_candidate(candidate: Candidate) -> tuple:
    """A candidate as the core takes it: (kind, laid tiles, returned tiles, score)."""
    if candidate.kind == PLACE:
        laid = [(t.row, t.col, alphabet.CODE_OF[t.letter], t.blank) for t in candidate.tiles]
        return PLACE_KIND, laid, [], candidate.score
    kind = EXCHANGE_KIND if candidate.kind == EXCHANGE else PASS_KIND
    return kind, [], _codes(candidate.exchange) if kind == EXCHANGE_KIND else [], candidate.score


def _laid(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return "".join(BLANK if t.blank else t.letter for t in tiles)


# --------------------------------------------------------------------------- candidates


def static_candidates(sim: SimPosition, lexicon: Lexicon, equity: Equity, count: int) -> list[Candidate]:
    """The ``count`` best moves by static equity, exchanges among them (as ``solve`` ranks); on an
    empty board that is its own mirror image each opening once (its mirror image is the same
    move for the simulation: as good, with mirrored replies)."""
    result = solve(sim.board, sim.variant, lexicon, sim.rack, top=count, equity=equity, bag=sim.bag_size,
                   exchanges=count, fold_mirrors=True)  # fmt: skip
    ranked = [(m.equity, 0, i, Candidate.of_move(m)) for i, m in enumerate(result.moves)]
    ranked += [(e.equity, 1, i, Candidate.of_exchange(e.tiles, e.keep, e.equity))
               for i, e in enumerate(result.exchanges)]  # fmt: skip
    ranked.sort(key=lambda row: (-row[0], row[1], row[2]))
    return [row[3] for row in ranked[:count]]


# --------------------------------------------------------------------------- rounds of iterations

#: Per iteration and candidate: equity, win, then the score and bingo (0/1) of each ply (NaN: not played).
EQUITY_COL, WIN_COL, PLY_COLS = 0, 1, 2


def _run_round(simulator: Simulator, batch: list[int], active: list[int], seed: int, workers: int) -> np.ndarray:
    """One round's iterations, in calls of a few iterations per thread, so that Ctrl-C is seen
    between them (a call into the core runs to its end); the rows in iteration order."""
    step = TASK * workers
    parts = [simulator.run(batch[k : k + step], active, seed) for k in range(0, len(batch), step)]
    return np.concatenate(parts, axis=0)


# --------------------------------------------------------------------------- results


@dataclass
class CandidateResult:
    """A candidate's outcomes, one row per iteration it was played in."""

    candidate: Candidate
    rows: np.ndarray  # [iterations, columns] (see EQUITY_COL ...)
    cut: bool = False

    @property
    def iterations(self) -> int:
        return self.rows.shape[0]

    @property
    def equity(self) -> tuple[float | None, float | None, float | None]:
        """Mean equity and its 95 % interval (None: no iteration; no interval from one)."""
        return mean_ci(self.rows[:, EQUITY_COL])

    @property
    def win_pct(self) -> tuple[float | None, float | None, float | None]:
        """Mean win chance (percent) and its 95 % interval, clipped to 0..100."""
        mean, lo, hi = mean_ci(100.0 * self.rows[:, WIN_COL])
        return (mean, None, None) if lo is None else (mean, max(0.0, lo), min(100.0, hi))

    def plies(self) -> list[dict]:
        """Per ply after the candidate: the mover's mean score and bingo % (over the iterations
        in which the game lasted that long)."""
        out = []
        for k in range((self.rows.shape[1] - PLY_COLS) // 2):
            scores = self.rows[:, PLY_COLS + 2 * k]
            played = ~np.isnan(scores)
            bingos = self.rows[played, PLY_COLS + 2 * k + 1]
            out.append({"mean_score": round(float(scores[played].mean()), 3) if played.any() else None,
                        "bingo_pct": round(100 * float(bingos.mean()), 3) if played.any() else None})  # fmt: skip
        return out

    def as_dict(self) -> dict:
        c = self.candidate
        equity, e_lo, e_hi = self.equity
        win, w_lo, w_hi = self.win_pct
        return {
            "coord": c.coord,
            "word": c.word,
            "display": c.display,
            "kind": c.kind,
            "score": c.score,
            "leave": c.leave.upper(),
            "static_equity": c.static_equity,
            "equity": _rounded(equity),
            "equity_ci": [_rounded(e_lo), _rounded(e_hi)],
            "win_pct": _rounded(win),
            "win_ci": [_rounded(w_lo), _rounded(w_hi)],
            "iterations": self.iterations,
            "cut": self.cut,
            "plies": self.plies(),
        }


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


@dataclass
class SimResult:
    settings: SimSettings
    candidates: list[CandidateResult]  # best first: the candidates still running, then those cut off
    iterations: int  # iterations completed (of the candidates never cut)
    stopped: bool = False  # the stopping rule ended it before the iterations asked for
    interrupted: bool = False  # Ctrl-C ended it; the results are those of the finished rounds
    seconds: float = 0.0
    bag: int | None = 0  # None: not known (Ctrl-C came before the position was read)
    workers: int = 1  # the threads that ran it
    ranked: bool = True  # False: Ctrl-C came before the candidates were ranked (none is known)

    @property
    def candidate_iterations(self) -> int:
        return sum(c.iterations for c in self.candidates)

    def as_dict(self) -> dict:
        candidates = [c.as_dict() for c in self.candidates] if self.ranked else None
        return sim_answer(self.settings, self.iterations, candidates, stopped=self.stopped,
                          interrupted=self.interrupted, bag=self.bag, seconds=self.seconds,
                          workers=self.workers)  # fmt: skip


def ranked(results: list[CandidateResult]) -> list[CandidateResult]:
    """Best first: the candidates never cut by mean equity, then the cut ones by mean equity."""
    return sorted(results, key=lambda r: (r.cut, -r.equity[0] if r.iterations else math.inf))


def separated(best: np.ndarray, other: np.ndarray, z: float) -> bool:
    """Whether ``best`` beats ``other`` at the confidence of ``z``, by their paired differences
    (the same iterations: common random numbers make these far less noisy than the two means)."""
    diff = best - other
    n = diff.shape[0]
    if n < 2:
        return False
    sd = float(diff.std(ddof=1))
    return float(diff.mean()) - z * sd / math.sqrt(n) > 0


def cut_candidates(results: list[CandidateResult], z: float) -> None:
    """Cut off every running candidate that the running best beats at the confidence of ``z``."""
    running = [r for r in results if not r.cut]
    if len(running) < 2:
        return
    n = min(r.iterations for r in running)
    best = max(running, key=lambda r: r.rows[:n, EQUITY_COL].mean())
    for r in running:
        if r is not best and separated(best.rows[:n, EQUITY_COL], r.rows[:n, EQUITY_COL], z):
            r.cut = True


# --------------------------------------------------------------------------- the driver


def simulate_candidates(
    sim: SimPosition,
    lexicon: Lexicon,
    equity: Equity,
    win_model,
    settings: SimSettings,
    candidates: list[Candidate] | None = None,
    progress: Callable[[int], None] | None = None,
    watch: Callable[[SimResult], None] | None = None,
) -> SimResult:
    """Simulate ``candidates`` (default: the best by static equity, ``settings.candidates`` of
    them) from ``sim``.  ``progress(n)`` is called as every ``n`` iterations finish; ``watch``
    with the results so far (ranked, as the final result would be) after every round, for a
    table that fills in as the iterations come.  Ctrl-C ends the run with the rounds finished
    so far (``interrupted``); before the first round finished (the kernels loading, the workers
    starting) with none: the candidates in their static order, not simulated, or, before they
    were ranked, no candidate at all (``ranked`` False)."""
    settings.check()
    workers = settings.workers or os.cpu_count() or 1
    if candidates is None:
        try:
            candidates = static_candidates(sim, lexicon, equity, settings.candidates)
        except KeyboardInterrupt:
            return SimResult(settings, [], 0, interrupted=True, bag=sim.bag_size, workers=workers, ranked=False)
    started = time.perf_counter()
    results = [CandidateResult(c, np.empty((0, PLY_COLS + 2 * settings.plies))) for c in candidates]
    result = SimResult(settings, results, 0, bag=sim.bag_size, workers=workers)
    if not candidates:
        return result
    z = STOP_LEVELS[settings.stop] if settings.stop else None
    try:
        simulator = Simulator(sim, lexicon, equity, win_model, settings.plies, candidates, workers)
    except KeyboardInterrupt:  # no round has run: every candidate keeps its static place
        result.interrupted = True
    while not result.interrupted and result.iterations < settings.iterations:
        active = [i for i, r in enumerate(results) if not r.cut]
        if z is not None and len(active) < 2 and len(candidates) > 1:
            result.stopped = True
            break
        done = result.iterations
        batch = list(range(done, min(done + ROUND, settings.iterations)))
        try:
            rows = _run_round(simulator, batch, active, settings.seed, workers)
        except KeyboardInterrupt:  # the round is dropped: every candidate keeps the same iterations
            result.interrupted = True
            break
        for j, i in enumerate(active):
            results[i].rows = np.concatenate([results[i].rows, rows[:, j]], axis=0)
        result.iterations = done + len(batch)
        try:
            if progress:
                progress(len(batch))
        except KeyboardInterrupt:  # this round is merged already: it counts
            result.interrupted = True
            break
        if z is not None and result.iterations >= MIN_ITERATIONS_TO_STOP:
            cut_candidates(results, z)
        try:
            if watch is not None:
                watch(replace(result, candidates=ranked(results), seconds=time.perf_counter() - started))
        except KeyboardInterrupt:  # as for progress: the round counts
            result.interrupted = True
            break
    result.candidates = ranked(results)
    result.seconds = time.perf_counter() - started
    return result
