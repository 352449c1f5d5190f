"""The board's long work (docs/serve.md, "Jobs"): a simulation (``solve --sim``), an exact
endgame (``solve --endgame``) and a game review (``analyze``), each asked for by a JSON object
and answered with the object the matching command prints with ``--json``, through the very
library calls the command makes.

:func:`plan` reads a request (the server checks it before a job starts: a bad one is a 400, as
for every other endpoint); :class:`Workbench` runs one in a job's process, reporting its
progress as it goes.  A Ctrl-C (SIGINT, which is how the server cancels a job) ends the work
as it ends the command's: a simulation keeps its finished rounds, an endgame the best of its
last complete iteration.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from literaki_cli.errors import InputError, said

SIM, ENDGAME, ANALYZE, PEG = "sim", "endgame", "analyze", "peg"
KINDS = (SIM, ENDGAME, ANALYZE, PEG)
#: The keys each kind of request may hold (as a batch line, ``position`` is CGP, board text, a
#: JSON position or a game record's text, then with ``turn``).
KEYS = {
    SIM: ("kind", "position", "turn", "rack", "iterations", "candidates", "plies", "seed", "stop"),
    ENDGAME: ("kind", "position", "turn", "rack", "time", "depth", "top"),
    ANALYZE: ("kind", "game", "endgame_time", "top"),
    PEG: ("kind", "position", "turn", "rack", "time", "candidates", "splits"),
}

#: The most iterations a simulation from the board may ask for (the command line has no limit;
#: the server's jobs also stop at their time cap).
MAX_SIM_ITERATIONS = 100_000
#: Seconds an endgame search may be given (and its default), and a review's per endgame turn.
MAX_ENDGAME_SECONDS, DEFAULT_ENDGAME_SECONDS = 120.0, 10.0
#: ``analyze``'s default endgame search per turn, from the board (the command line's is 10 s:
#: a review on the page should come back while the player looks at the game).
DEFAULT_REVIEW_ENDGAME_SECONDS = 2.0

Report = Callable[[int, int, dict | None], None]  # (done, total, the answer so far or None)


@dataclass
class Plan:
    """A request read and checked: what the work needs, without the lexicon."""

    kind: str
    opened: Any = None  # OpenedPosition (sim, endgame)
    rack: str = ""
    settings: Any = None  # SimSettings (sim)
    racks: tuple[str, str] = ("", "")  # endgame: the mover's rack, the opponent's
    passes: int = 0
    seconds: float | None = None
    depth: int | None = None
    top: int = 0
    game: Any = None  # GcgGame (analyze)
    peg: Any = None  # PegPosition (peg)


def plan(body: dict, cap_seconds: float = MAX_ENDGAME_SECONDS) -> Plan:
    """The request ``body`` read and checked as the command line checks its options
    (InputError naming the key or value otherwise)."""
    from literaki_cli.analysis.batch import _check_keys

    kind = body.get("kind")
    if kind not in KINDS:
        raise InputError(said("'kind' must be {choices}, not {value}", choices=", ".join(map(repr, KINDS)),
                              value=_shown(kind)))  # fmt: skip
    _check_keys(body, KEYS[kind])
    if kind == ANALYZE:
        return _plan_review(body)
    from literaki_cli.analysis.batch import PositionReader, _position_text, _text_field
    from literaki_cli.analysis.positionquery import checked_rack, endgame_start, parse_turn, solving_rack
    from literaki_cli.endgame.solver import DEFAULT_KEEP

    opened = PositionReader().read(_position_text(body), turn=parse_turn(body.get("turn"), '"turn"'))
    given, _ = checked_rack(opened.position, _text_field(body, "rack"), name=said("rack"))
    rack = solving_rack(opened.position, given, how='give "rack"')
    if kind == SIM:
        from literaki_cli.montecarlo.settings import DEFAULT, SimSettings

        settings = SimSettings(
            iterations=_whole(body, "iterations", DEFAULT.iterations, 1, MAX_SIM_ITERATIONS),
            candidates=_whole(body, "candidates", DEFAULT.candidates, 1, 100),
            plies=_whole(body, "plies", DEFAULT.plies, 1, 10),
            seed=_whole(body, "seed", DEFAULT.seed, 0, 2**63 - 1),
            workers=1,  # one process a job: the server's other cores answer the board's edits
            stop=body.get("stop"),
        )  # fmt: skip
        if settings.stop is not None and (isinstance(settings.stop, bool) or not isinstance(settings.stop, int)):
            raise InputError(said("'stop' must be 95 or 99, not {value}", value=_shown(settings.stop)))
        settings.check()
        return Plan(SIM, opened, rack, settings)
    high = min(MAX_ENDGAME_SECONDS, cap_seconds)  # the search's time: the job's cap leaves room for its setup
    if kind == PEG:
        from literaki_cli.analysis.positionquery import peg_start
        from literaki_cli.endgame.peg import DEFAULT_CANDIDATES, DEFAULT_NODES, DEFAULT_SPLITS, PegSettings

        start = peg_start(opened.position, rack)
        seconds = _seconds(body, "time", None, high)  # None: each endgame its node budget, as the command's default
        settings = PegSettings(candidates=_whole(body, "candidates", DEFAULT_CANDIDATES, 1, 100),
                               nodes=None if seconds else DEFAULT_NODES, seconds=seconds, strict_time=True,
                               splits=_whole(body, "splits", DEFAULT_SPLITS, 1, 10_000))  # fmt: skip
        return Plan(PEG, opened, rack, settings=settings, peg=start)
    racks, passes = endgame_start(opened.position, rack)  # the search's time: the job's cap leaves room for its setup
    seconds = _seconds(body, "time", min(DEFAULT_ENDGAME_SECONDS, high), high)
    depth = _whole(body, "depth", None, 1, 1000)
    return Plan(ENDGAME, opened, rack, racks=racks, passes=passes, seconds=seconds, depth=depth,
                top=_whole(body, "top", DEFAULT_KEEP, 1, 1000))  # fmt: skip


def _plan_review(body: dict) -> Plan:
    from literaki_cli.analysis.batch import _text_field
    from literaki_cli.io.gcg import parse_gcg
    from literaki_cli.review.game_review import DEFAULT_MISTAKES

    text = _text_field(body, "game", required=True)
    if not text.strip():
        raise InputError(said("'game' is empty"))
    game = parse_gcg(text, "game")
    seconds = _seconds(body, "endgame_time", DEFAULT_REVIEW_ENDGAME_SECONDS, MAX_ENDGAME_SECONDS, zero=True)
    return Plan(ANALYZE, game=game, seconds=seconds, top=_whole(body, "top", DEFAULT_MISTAKES, 0, 1000))


def _whole(body: dict, key: str, default: int | None, low: int, high: int) -> int | None:
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(said("'{key}' must be a whole number from {low:,} to {high:,}, not {value}", key=key, low=low,
                               high=high, value=_shown(value)))  # fmt: skip
    return value


def _seconds(body: dict, key: str, default: float | None, high: float, zero: bool = False) -> float | None:
    value = body.get(key)
    if value is None:
        return default
    ok = not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
    if not ok or not (0 <= value if zero else 0 < value) or value > high:
        if zero:
            raise InputError(said("'{key}' must be seconds from 0 up to {high:g}, not {value}", key=key, high=high,
                                  value=_shown(value)))  # fmt: skip
        raise InputError(said("'{key}' must be seconds above 0 up to {high:g}, not {value}", key=key, high=high,
                              value=_shown(value)))  # fmt: skip
    return float(value)


def _shown(value: Any) -> str:
    from literaki_cli.inputs import dumps_json

    return dumps_json(value)[:40]


class Workbench:
    """What a job's process keeps between jobs: the lexicon, the leave values, the win model
    and the endgame solvers (each opened by the first job that needs it)."""

    def __init__(self, lexicon_path: Path | None, leaves_path: Path | None) -> None:
        self.lexicon_path, self.leaves_path = lexicon_path, leaves_path
        self._lexicon = None
        self._solvers: dict[str, Any] = {}

    def lexicon(self):
        from literaki_cli.engine.lexicon import Lexicon

        if self._lexicon is None:
            self._lexicon = Lexicon.open(self.lexicon_path)
        return self._lexicon

    def equity(self, variant):
        from literaki_cli.equity.equity import Equity
        from literaki_cli.equity.leaves import open_leaves

        return Equity(open_leaves(self.leaves_path), variant)

    def run(self, work: Plan, report: Report) -> dict:
        """The answer of ``work``, as its command prints it with ``--json``; ``report`` hears of
        the progress."""
        work_of = {SIM: self._simulate, ENDGAME: self._endgame, ANALYZE: self._review, PEG: self._pre_endgame}
        return work_of[work.kind](work, report)

    def _simulate(self, work: Plan, report: Report) -> dict:
        """``solve --sim --json``."""
        from literaki_cli.analysis.lookahead import simulate_position
        from literaki_cli.montecarlo.winmodel import open_win_model

        total = work.settings.iterations
        _, answer = simulate_position(work.opened, work.rack, self.lexicon(), self.equity(work.opened.position.variant),
                                      open_win_model(), work.settings,
                                      watch=lambda so_far, shown: report(so_far.iterations, total, shown))  # fmt: skip
        return answer

    def _endgame(self, work: Plan, report: Report) -> dict:
        """``solve --endgame --json --threads 1`` (a job is one core's work)."""
        from literaki_cli.analysis.lookahead import solve_endgame
        from literaki_cli.endgame.solver import TIMED_TABLE_BITS, EndgameSolver

        variant = work.opened.position.variant
        if variant.name not in self._solvers:
            self._solvers[variant.name] = EndgameSolver(self.lexicon(), variant, table_bits=TIMED_TABLE_BITS)
        self._solvers[variant.name].forget()  # as the command searches: from an empty table
        return solve_endgame(work.opened, work.rack, work.racks, work.passes, self._solvers[variant.name], work.depth,
                             work.seconds, work.top)[1]  # fmt: skip

    def _pre_endgame(self, work: Plan, report: Report) -> dict:
        """``solve --peg --time T --json --threads 1``: ``done`` and ``total`` count the candidates."""
        from literaki_cli.analysis.lookahead import solve_peg
        from literaki_cli.endgame.peg import PreEndgameSolver
        from literaki_cli.endgame.solver import EndgameSolver

        variant = work.opened.position.variant
        key = f"peg {variant.name}"
        if key not in self._solvers:
            self._solvers[key] = PreEndgameSolver(EndgameSolver(self.lexicon(), variant, threads=1))
        return solve_peg(work.opened, work.rack, work.peg, self._solvers[key], work.settings, self.equity(variant),
                         lambda done, total: report(done, total, None))[1]  # fmt: skip

    def _review(self, work: Plan, report: Report) -> dict:
        """``analyze --json`` with ``--endgame-time`` (one search thread)."""
        from literaki_cli.review.endgame_review import EndgameReviewer
        from literaki_cli.review.game_review import analyze_game

        game = work.game
        total = sum(1 for event in game.turns if event.is_turn)
        done = 0

        def turn_done(count: int) -> None:
            nonlocal done
            done += count
            report(done, total, None)

        lexicon = self.lexicon()
        endgame = EndgameReviewer(lexicon, game.variant, work.seconds, threads=1) if work.seconds else None
        review = analyze_game(game, lexicon, self.equity(game.variant), mistakes=work.top, endgame=endgame,
                              progress=turn_done)  # fmt: skip
        return review.as_dict()


__all__ = ["ANALYZE", "ENDGAME", "KINDS", "PEG", "SIM", "Plan", "Workbench", "plan"]
