"""Looking ahead from a position: the simulation of ``solve --sim`` and the endgame search of
``solve --endgame``, each with the answer its ``--json`` prints.  The command line and the
board's jobs (:mod:`literaki_cli.web.jobwork`) both answer through these, so they cannot
disagree."""

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


__all__ = ["simulate_position", "solve_endgame"]
