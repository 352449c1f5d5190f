"""Looking ahead from a position: the simulation of ``solve --sim``, the endgame search of
``solve --endgame`` and the pre-endgame of ``solve --peg``, each with the answer its
``--json`` prints.  The command line and the board's jobs (:mod:`literaki_cli.web.jobwork`)
both answer through these, so they cannot disagree."""

from __future__ import annotations

from collections.abc import Callable

from literaki_cli.analysis.positionquery import OpenedPosition, seen_record


def simulate_position(opened: OpenedPosition, rack: str, lexicon, equity, win_model, settings,
                      progress: Callable[[int], None] | None = None,
                      watch: Callable[[object, dict], None] | None = None) -> tuple[object, dict]:  # fmt: skip
    """(the :class:`~literaki_cli.montecarlo.simulation.SimResult`, what ``solve --sim --json``
    prints) for the player to move with ``rack``; ``watch(result so far, its answer)`` after
    every round."""
    from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates

    seen = seen_record(opened, rack)
    rounds = None if watch is None else (lambda so_far: watch(so_far, so_far.as_dict() | seen))
    result = simulate_candidates(SimPosition.of(opened.position, rack), lexicon, equity, win_model, settings,
                                 progress=progress, watch=rounds)  # fmt: skip
    return result, result.as_dict() | seen


def solve_endgame(opened: OpenedPosition, rack: str, racks: tuple[str, str], passes: int, solver,
                  depth: int | None, seconds: float | None, keep: int) -> tuple[object, dict]:  # fmt: skip
    """(the :class:`~literaki_cli.endgame.solver.EndgameResult`, what ``solve --endgame --json``
    prints), searched by ``solver`` from the racks and passes of
    :func:`~literaki_cli.analysis.positionquery.endgame_start`."""
    result = solver.solve(opened.position.board, racks, passes, depth=depth, seconds=seconds, keep=keep)
    return result, result.as_dict() | seen_record(opened, rack)


def solve_peg(opened: OpenedPosition, rack: str, peg, solver, settings, equity=None,
              progress: Callable[[int, int], None] | None = None) -> tuple[object, dict]:  # fmt: skip
    """(the :class:`~literaki_cli.endgame.peg.PegResult`, what ``solve --peg --json`` prints)
    for the pre-endgame ``peg`` (:func:`~literaki_cli.analysis.positionquery.peg_start`), judged
    by ``solver`` (a :class:`~literaki_cli.endgame.peg.PreEndgameSolver`)."""
    result = solver.solve(peg, settings, equity, progress=progress)
    return result, result.as_dict() | seen_record(opened, rack)


class Lookahead:
    """What the levels that look ahead use beside their generator: the lexicon and the win model
    for the simulation (:mod:`literaki_cli.montecarlo.simulation`), the pre-endgame solver
    (:mod:`literaki_cli.endgame.peg`).  Every budget is a count (iterations, nodes), never a
    time, and every random draw is seeded by the game and the turn: a game repeats exactly on
    any machine and in any worker."""

    def __init__(self, lexicon, win_model=None, pre_endgame=None) -> None:
        self.lexicon = lexicon
        self.win_model = win_model
        self.pre_endgame = pre_endgame

    @staticmethod
    def turn_seed(game) -> int:
        """A seed of this game's turn alone (the game's own random course is left untouched)."""
        import zlib

        return zlib.crc32(f"literaki-lookahead-{game.seed}-{game.game_id}-{len(game.turns)}".encode())

    @staticmethod
    def _spread(game) -> int:
        return game.scores[game.current] - game.scores[1 - game.current]

    def simulated_move(self, game, rack: str, level, equity):
        """The best of the level's simulated candidates (exchanges only while the player may
        make one); None when there is no candidate (the static rule then decides)."""
        from literaki_cli.games.bag import unseen_tiles
        from literaki_cli.games.game import EXCHANGE, PLACE, Action
        from literaki_cli.montecarlo.settings import SimSettings
        from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates, static_candidates

        unseen = sorted(unseen_tiles(game.variant, game.board, [rack]))
        sim = SimPosition(game.variant, game.board, rack, None, unseen, self._spread(game))
        candidates = static_candidates(sim, self.lexicon, equity, level.sim_candidates)
        if not game.can_exchange():
            candidates = [c for c in candidates if c.kind != EXCHANGE]
        if not candidates:
            return None
        if len(candidates) > 1:
            settings = SimSettings(level.sim_iterations, len(candidates), level.sim_plies, self.turn_seed(game), 1)
            result = simulate_candidates(sim, self.lexicon, equity, self.win_model, settings, candidates=candidates)
            if result.interrupted:  # Ctrl-C inside the simulation: stop the game as anywhere else
                raise KeyboardInterrupt
            best, value = result.candidates[0].candidate, result.candidates[0].equity[0]
        else:
            best, value = candidates[0], candidates[0].static_equity
        if best.kind == EXCHANGE:
            return Action(EXCHANGE, exchange=best.exchange, equity=value)
        return Action(PLACE, best.tiles, best.direction, equity=value)

    def pre_endgame_move(self, game, rack: str, level, equity):
        """The best move of the pre-endgame (win chance, then mean spread) within the level's
        budgets; the equity recorded is its mean spread change."""
        from literaki_cli.endgame.peg import PegPosition, PegSettings
        from literaki_cli.games.bag import unseen_tiles
        from literaki_cli.games.game import PASS, PLACE, Action

        unseen = "".join(sorted(unseen_tiles(game.variant, game.board, [rack])))
        position = PegPosition(game.board, rack, unseen, len(game.bag), self._spread(game), game.passes_in_row)
        settings = PegSettings(candidates=level.peg_candidates, nodes=level.peg_nodes, replies=level.peg_replies,
                               splits=level.peg_splits, seed=self.turn_seed(game))  # fmt: skip
        self.pre_endgame.endgame.forget()  # the move depends on this position alone
        result = self.pre_endgame.solve(position, settings, equity)
        if result.interrupted:
            raise KeyboardInterrupt
        best = result.best
        if best.move.is_pass:
            return Action(PASS, equity=best.value)
        return Action(PLACE, tuple(best.move.tiles), best.move.direction, equity=best.value)


def level_lookahead(lexicon, solver=None) -> Lookahead:
    """What ``make_players`` gives the levels that look ahead (the shipped win model)."""
    from literaki_cli.endgame.peg import PreEndgameSolver
    from literaki_cli.montecarlo.winmodel import open_win_model

    return Lookahead(lexicon, open_win_model(None), PreEndgameSolver(solver) if solver is not None else None)


__all__ = ["Lookahead", "level_lookahead", "simulate_position", "solve_endgame", "solve_peg"]
