"""``analyze --sim N``: each turn of a played game simulated, the move played among the candidates.

A :class:`TurnSimulator` is the hook :func:`literaki_cli.review.game_review.analyze_game`
calls on every analysable turn: it simulates the turn's best static candidates and the move
actually played (a pass or an exchange too) into the same futures, so the best move by
simulation and the equity the played move lost by simulation come from one comparison."""

from __future__ import annotations

from collections.abc import Callable

from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.equity.equity import Equity
from literaki_cli.montecarlo.settings import SimSettings
from literaki_cli.montecarlo.simulation import (
    EXCHANGE,
    PASS,
    PLACE,
    PLAYERS,
    Candidate,
    SimPosition,
    simulate_candidates,
    static_candidates,
)
from literaki_cli.review.game_review import MoveSummary, TurnPosition, TurnReview


def played_candidate(played: MoveSummary, rack: str) -> Candidate:
    """The move a player made, as a candidate to simulate."""
    if played.kind == PLACE:
        tiles = tuple(sorted(played.tiles, key=lambda t: (t.row, t.col)))
        return Candidate(PLACE, played.coord, played.word, played.score, played.leave or "", played.equity or 0.0,
                         tiles, bingo=played.bingo, display=played.display or played.word)  # fmt: skip
    if played.kind == EXCHANGE:
        return Candidate.of_exchange(played.word[1:].lower(), played.leave or "", played.equity or 0.0)
    return Candidate.of_pass(rack, played.equity or 0.0)


def _summary(candidate: Candidate, equity: float | None = None) -> MoveSummary:
    """A candidate as the review shows moves (``equity``: its simulated mean)."""
    c = candidate
    if c.kind == PLACE:
        return MoveSummary(PLACE, c.coord, c.word, c.score, equity, c.leave, None, c.bingo, c.display,
                           frozenset(c.tiles))  # fmt: skip
    if c.kind == EXCHANGE:
        return MoveSummary.of_exchange(c.exchange, c.leave, equity)
    return MoveSummary(PASS, None, "-", 0, equity, c.leave)


class TurnSimulator:
    """The ``simulate`` hook of ``analyze_game``: per turn, the best move by simulation (its
    equity the simulated mean), and on the review the played move's simulated equity and the
    simulated equity it lost.  Turns of games of more than two players are not simulated
    (noted).  Ctrl-C during a turn's simulation keeps that turn's finished rounds and leaves the
    later turns unsimulated (noted, and ``interrupted`` set), so the static review still completes."""

    def __init__(self, lexicon: Lexicon, equity: Equity, win_model, settings: SimSettings,
                 progress: Callable[[int], None] | None = None) -> None:  # fmt: skip
        self.lexicon = lexicon
        self.equity = equity
        self.win_model = win_model
        self.settings = settings
        self.progress = progress
        self.interrupted = False

    def __call__(self, position: TurnPosition, review: TurnReview) -> MoveSummary | None:
        if len(position.scores) != PLAYERS:
            review.notes.append("not simulated: simulations are for two-player games")
            return None
        if self.interrupted:
            review.notes.append("not simulated: the simulation was interrupted (Ctrl-C)")
            return None
        sim = SimPosition.of(position.position(), position.rack)
        candidates = static_candidates(sim, self.lexicon, self.equity, self.settings.candidates)
        if not any(_summary(c).same_as(review.played) for c in candidates):
            candidates.append(played_candidate(review.played, position.rack))
        result = simulate_candidates(sim, self.lexicon, self.equity, self.win_model, self.settings, candidates)
        if self.progress:
            self.progress(1)
        if result.interrupted:
            self.interrupted = True
            review.notes.append(f"simulation interrupted (Ctrl-C) after {result.iterations} iterations")
            if not result.iterations:
                return None
        best = result.candidates[0]
        mine = next(r for r in result.candidates if _summary(r.candidate).same_as(review.played))
        review.played_sim_equity = mine.equity[0]
        review.sim_equity_loss = max(0.0, best.equity[0] - mine.equity[0])
        return _summary(best.candidate, best.equity[0])
