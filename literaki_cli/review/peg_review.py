"""``analyze --peg-time``: each turn played with 1 or 2 tiles in the bag (a two-player game)
valued by the pre-endgame search of ``solve --peg`` instead of static equity.

The search (:mod:`literaki_cli.endgame.peg`) judges the best candidates, the pass and the move
played over the ways the unseen tiles may lie between the bag and the opponent's rack, each
ending valued by the endgame search; on such a turn the best move becomes the pre-endgame's
best (the best chance to win, then the best mean spread), both equities become mean spread
changes to the end of the game (no leave values), the equity lost is best - played, and the
turn records both chances to win (``win_best``, ``win_played``).  The turn is exact when every
ending of both moves was solved to the end with no reply left out.

Ctrl-C during a search keeps the static review for that turn and the later ones
(``interrupted``), as the endgame reviewer does.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from literaki_cli.review.endgame_review import played_record, searched_summary
from literaki_cli.review.game_review import EQUITY_NOISE, PEG, equity_lost

if TYPE_CHECKING:
    from literaki_cli.endgame.peg import PreEndgameSolver
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import Variant
    from literaki_cli.equity.equity import Equity
    from literaki_cli.review.game_review import TurnPosition, TurnReview

#: Splits of the unseen tiles judged at most per candidate (sampled beyond: 2 tiles in the bag).
REVIEW_SPLITS = 12


class PegReviewer:
    """The ``pre_endgame`` hook of ``analyze_game``: the pre-endgame search for each analysable
    turn played with 1 or 2 tiles in the bag, within ``seconds`` per turn (or, given ``nodes``,
    that many search nodes per ending: the same answer on every machine)."""

    def __init__(self, lexicon: Lexicon, variant: Variant, seconds: float | None, equity: Equity,
                 threads: int | None = None, solver: PreEndgameSolver | None = None,
                 nodes: int | None = None) -> None:  # fmt: skip
        if (seconds is None) == (nodes is None) or not (seconds or nodes or 0) > 0:
            raise ValueError(f"give seconds or nodes above 0, not {seconds!r} and {nodes!r}")
        self.nodes = nodes
        self.lexicon = lexicon
        self.variant = variant
        self.seconds = seconds
        self.equity = equity
        self.threads = threads  # the endgame search's threads (None: every core)
        self.interrupted = False
        self.on_turn = None  # told before each search (a progress line)
        self._solver = solver

    @property
    def solver(self) -> PreEndgameSolver:
        if self._solver is None:
            from literaki_cli.endgame.peg import PreEndgameSolver
            from literaki_cli.endgame.solver import EndgameSolver, all_cores

            self._solver = PreEndgameSolver(EndgameSolver(self.lexicon, self.variant,
                                                          threads=self.threads or all_cores()))  # fmt: skip
        return self._solver

    def __call__(self, position: TurnPosition, review: TurnReview) -> bool:
        """Value the turn by the pre-endgame; False (the static review stays) when the turn is
        not one (1 or 2 tiles in the bag, two players, no exchange allowed) or the search was
        interrupted."""
        from literaki_cli.endgame.peg import MAX_BAG, PegPosition, PegSettings, move_key, pass_record
        from literaki_cli.endgame.solver import PASSES_TO_END, PLAYERS
        from literaki_cli.games.bag import unseen_tiles

        if not 1 <= position.bag <= MAX_BAG or len(position.scores) != PLAYERS:
            return False
        if position.exchange_allowed or position.passes >= PASSES_TO_END:
            return False
        if self.interrupted:
            review.notes.append("not solved as a pre-endgame: the search was interrupted (Ctrl-C)")
            return False
        unseen = "".join(sorted(unseen_tiles(position.variant, position.board, [position.rack])))
        if len(unseen) != position.bag + position.variant.rack_size:
            review.notes.append("not solved as a pre-endgame: the tiles left do not add up to a full rack and the bag")
            return False
        if self.on_turn is not None:
            self.on_turn(position)
        record, legal = played_record(self.solver.generator, position, review.played)
        move = pass_record() if record is None else record
        if not legal:
            review.notes.append("the move played is not among the legal moves: valued as it was laid")
        start = PegPosition(position.board, position.rack, unseen, position.bag,
                            position.scores[0] - position.scores[1], position.passes)  # fmt: skip
        settings = PegSettings(nodes=self.nodes, seconds=self.seconds, splits=REVIEW_SPLITS, seed=review.turn)
        started = time.perf_counter()
        self.solver.endgame.forget()  # the turn's values depend on this turn alone
        try:
            result = self.solver.solve(start, settings, self.equity, also=move)
        except KeyboardInterrupt:
            result = None
        if result is None or result.interrupted:
            self.interrupted = True
            review.notes.append("pre-endgame search interrupted (Ctrl-C): this turn and the later ones keep the "
                                "static review")  # fmt: skip
            return False
        by_key = {move_key(c.move.record): c for c in result.candidates}
        best = result.best
        played = by_key[move_key(move)]
        passed = by_key[frozenset()]
        review.method, review.exact = PEG, best.exact == best.splits and played.exact == played.splits
        review.best = searched_summary(best.move, position.rack, best.value, self.variant.bingo_tiles)
        review.played.equity, review.played.leave_value = played.value, None
        review.pass_equity = passed.value
        review.win_best, review.win_played = best.win, played.win
        review.equity_loss = equity_lost(review.best, review.played)
        review.endgame_nodes, review.endgame_seconds = None, time.perf_counter() - started
        how = f"{result.splits} of {result.all_splits} splits, sampled" if result.sampled else f"{result.splits} splits"
        review.notes.append(f"pre-endgame ({how}, {len(result.candidates)} moves judged): the best wins "
                            f"{100 * best.win:.1f} %, the move played {100 * played.win:.1f} %")  # fmt: skip
        if not review.exact:
            limit = f"{self.seconds:g} s" if self.seconds is not None else f"{self.nodes:,} nodes"
            review.notes.append(f"some endings were not solved to the end within the {limit} limit: the values are "
                                "estimates")  # fmt: skip
        if played.value > best.value + EQUITY_NOISE and not review.best.same_as(review.played):
            review.notes.append("the move played has a better mean spread than the best, which wins more often")
        return True


__all__ = ["REVIEW_SPLITS", "PegReviewer"]
