"""``analyze`` once the bag is empty: each such turn of a two-player game valued by the exact
endgame search instead of static equity.

With the bag empty both racks are known (the opponent holds every tile that is neither on the
board nor on the mover's rack), so the rest of the game is a game of perfect information, and
:class:`~literaki_cli.endgame.solver.EndgameSolver` gives each move its value: the spread change
from that turn to the end of the game, end rules included, with both players playing their best
after it.  :class:`EndgameReviewer` is the ``endgame`` hook of
:func:`literaki_cli.review.game_review.analyze_game`: on such a turn the best move becomes the
search's best, both equities become values (points of spread), and the equity lost is
best - played, exact when the search finished within the time limit.

One solver serves the whole game, so its transposition table carries what one turn's search
found to the next turn (the next position is usually already in it).  Ctrl-C during a search
keeps the static review for that turn and the later ones (``interrupted`` is then set), as
``analyze --sim`` does with its simulations.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from literaki_cli.engine.move import rack_needs, take_from_rack
from literaki_cli.errors import InputError, said
from literaki_cli.games.game import EXCHANGE, PASS, PLACE
from literaki_cli.review.game_review import ENDGAME, EQUITY_NOISE, STATIC, MoveSummary, equity_lost

if TYPE_CHECKING:
    from literaki_cli.endgame.solver import EndgameMove, EndgameSolver
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.move import Tile
    from literaki_cli.engine.variant import Variant
    from literaki_cli.review.game_review import TurnPosition, TurnReview

#: ``analyze --endgame-time``: seconds of search per turn unless told otherwise.
DEFAULT_ENDGAME_SECONDS = 5.0
#: The longest time per turn the option takes (an hour: beyond it a limit is a typo).
MAX_ENDGAME_SECONDS = 3600.0
#: The share of the time limit the move played is always given, even when the search of the
#: best move used it all (then neither value is exact anyway).
PLAYED_SHARE = 0.1


def endgame_seconds(text: str, option: str = "--endgame-time", search: str = said("endgame search")) -> float:
    """``--endgame-time SECONDS`` (or another search's ``option``) read: a number from 0 (no
    search) to an hour.  InputError naming the value otherwise."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MAX_ENDGAME_SECONDS:  # NaN fails too
        raise InputError(said("{option} {value!r}: seconds from 0 to {most:g} (0 turns the {search} off)",
                              option=option, value=text, most=MAX_ENDGAME_SECONDS, search=search))  # fmt: skip
    return seconds


@dataclass
class _Static:
    """What the static review said of a turn, kept to put back when a later search is stopped."""

    best: MoveSummary
    played: MoveSummary
    equity_loss: float | None
    notes: list[str]


class EndgameReviewer:
    """The ``endgame`` hook of ``analyze_game``: the exact search for each analysable turn played
    with the bag empty in a two-player game, within ``seconds`` per turn (the best move's
    search, then the move played's with what it left, at least a tenth of the limit; None: no
    limit).  A solver may be given (tests); by default one is made at the first endgame turn."""

    def __init__(self, lexicon: Lexicon, variant: Variant, seconds: float | None = DEFAULT_ENDGAME_SECONDS,
                 solver: EndgameSolver | None = None, on_turn: Callable[[TurnPosition], None] | None = None,
                 threads: int | None = None) -> None:  # fmt: skip
        self.lexicon = lexicon
        self.threads = threads  # the search's threads (None: every core)
        self.variant = variant
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be above 0 or None (no limit), not {seconds!r}")
        self.seconds = seconds
        self.on_turn = on_turn  # told before each search (a progress line)
        self.interrupted = False
        self._solver = solver
        self._generator = None
        self._static: dict[int, _Static] = {}

    # ----------------------------------------------------------------- the hook

    def __call__(self, position: TurnPosition, review: TurnReview) -> bool:
        """Value the turn by the endgame search; False (the static review stays) when it cannot
        be (a note says why) or was interrupted."""
        racks, why_not = self._racks(position)
        if why_not is not None:
            review.notes.append(said("not solved as an endgame: {why}", why=why_not))
            return False
        if self.interrupted:
            review.notes.append(said("not solved as an endgame: the endgame search was interrupted (Ctrl-C)"))
            return False
        if self.on_turn is not None:
            self.on_turn(position)
        played = review.played
        if played.kind == EXCHANGE:
            review.notes.append(said("an exchange with the bag empty changes nothing: the endgame values it as a pass"))
        started = time.perf_counter()
        try:  # Ctrl-C: the solver reports a stop inside its search, Python raises one anywhere else
            result = self.solver.solve(position.board, racks, position.passes, seconds=self.seconds, keep=1,
                                       line=False)  # fmt: skip
            if result.interrupted:
                return self._stopped(review)
            nodes = result.nodes
            best = searched_summary(result.best, position.rack, float(result.value), self.variant.bingo_tiles)
            value, played_exact = result.value, True
            if not best.same_as(played):
                record, legal = self._record(position, played)
                if not legal:
                    review.notes.append(said("the move played is not among the legal moves: valued as it was laid"))
                left = None
                if self.seconds is not None:
                    left = max(self.seconds - (time.perf_counter() - started), PLAYED_SHARE * self.seconds)
                found = self.solver.value_of(position.board, racks, record, position.passes, seconds=left)
                if found.interrupted:
                    return self._stopped(review)
                value, played_exact, nodes = found.value, found.exact, nodes + found.nodes
        except KeyboardInterrupt:
            return self._stopped(review)
        self._static[review.turn] = _Static(review.best, replace(played), review.equity_loss, list(review.notes))
        review.method, review.exact = ENDGAME, bool(result.exact and played_exact)
        review.best = best
        played.equity, played.leave_value = float(value), None
        review.equity_loss = equity_lost(best, played)
        review.endgame_nodes, review.endgame_seconds = int(nodes), time.perf_counter() - started
        if not result.exact:
            review.notes.append(said("the endgame search stopped at the {seconds:g} s limit ({depth} plies deep): the "
                                     "values are the best estimates found, not exact", seconds=self.seconds,
                                     depth=result.depth))  # fmt: skip
        elif not played_exact:
            review.notes.append(said("the move played was not valued to the end within the {seconds:g} s limit: its "
                                     "value is an estimate, not exact", seconds=self.seconds))  # fmt: skip
        if played.equity > best.equity + EQUITY_NOISE:
            review.notes.append(said("the move played is worth more than the endgame's best found (counted as no "
                                     "loss)"))  # fmt: skip
        return True

    def withdrawn(self, position: TurnPosition, review: TurnReview) -> None:
        """The placement of an endgame turn was taken back after a challenge: the turn was a pass
        after all, so the pass's value becomes the played value (``review.pass_equity``).  After a
        Ctrl-C the turn gets its static review back."""
        racks, _ = self._racks(position)
        if not self.interrupted and racks is not None:
            try:
                found = self.solver.value_of(position.board, racks, None, position.passes, seconds=self.seconds)
            except KeyboardInterrupt:
                found = None
            if found is not None and not found.interrupted:
                review.pass_equity = float(found.value)
                review.exact = bool(review.exact and found.exact)
                return
            self.interrupted = True
        static = self._static.get(review.turn)
        if static is None:  # pragma: no cover - every endgame turn keeps its static review
            return
        review.best, review.played, review.equity_loss = static.best, static.played, static.equity_loss
        review.notes = static.notes + ["endgame search interrupted (Ctrl-C): the static review is kept"]
        review.method, review.exact, review.endgame_nodes, review.endgame_seconds = STATIC, False, None, None

    # ----------------------------------------------------------------- the pieces

    @property
    def solver(self) -> EndgameSolver:
        if self._solver is None:
            from literaki_cli.endgame.solver import TIMED_TABLE_BITS, EndgameSolver, all_cores

            self._solver = EndgameSolver(self.lexicon, self.variant, threads=self.threads or all_cores(),
                                         table_bits=TIMED_TABLE_BITS)  # fmt: skip
        return self._solver

    def _racks(self, position: TurnPosition) -> tuple[tuple[str, str] | None, str | None]:
        """(the mover's rack, the opponent's: every unseen tile), or None and why the turn is
        not an endgame the search can take."""
        from literaki_cli.endgame.solver import PASSES_TO_END, PLAYERS
        from literaki_cli.games.bag import unseen_tiles

        if len(position.scores) != PLAYERS:
            return None, said("the endgame search is for two-player games, this one has {count} players",
                               count=len(position.scores))  # fmt: skip
        if position.passes >= PASSES_TO_END:
            return None, said("{count} passes in a row have ended the game", count=position.passes)
        opponent = "".join(unseen_tiles(position.variant, position.board, [position.rack]))
        expected = position.variant.tile_count - int(np.count_nonzero(position.board.letters)) - len(position.rack)
        if len(opponent) != expected:
            return None, said("the tiles left do not add up (the board and the rack {rack} use tiles the set does "
                              "not have)", rack=position.rack.upper())  # fmt: skip
        if not opponent:
            return None, said("the opponent holds no tiles (the game is over)")
        return (position.rack, opponent), None

    def _record(self, position: TurnPosition, played: MoveSummary) -> tuple[np.ndarray | None, bool]:
        if played.kind != PLACE:
            return None, True
        from literaki_cli.engine.movegen import MoveGenerator

        if self._generator is None:
            self._generator = MoveGenerator(self.lexicon, self.variant)
        return played_record(self._generator, position, played)

    def _stopped(self, review: TurnReview) -> bool:
        """Ctrl-C stopped the search: this turn and the later endgame turns keep the static review."""
        self.interrupted = True
        review.notes.append(said("endgame search interrupted (Ctrl-C): this turn and the later endgame turns keep "
                                 "the static review"))  # fmt: skip
        return False


def played_record(generator, position: TurnPosition, played: MoveSummary) -> tuple[np.ndarray | None, bool]:
    """The move played as a search takes it: a generator record (None: a pass), and whether
    the generator has it (a legal move); else a record built from its tiles."""
    if played.kind != PLACE:
        return None, True
    from literaki_cli.engine.movegen import TILES, record_tiles

    records = generator.generate(position.board, position.rack).records
    for row in records[records[:, TILES] == len(played.tiles)]:
        if frozenset(record_tiles(row)[0]) == played.tiles:
            return row, True
    return placement_record(position.board, played.tiles, played.score), False


def searched_summary(move: EndgameMove, rack: str, value: float, bingo_tiles: int) -> MoveSummary:
    """A search's move as the review shows moves (``equity``: its value, a spread change)."""
    if move.is_pass:
        return MoveSummary(PASS, None, "-", 0, value, rack, None)
    leave, _ = take_from_rack(rack_needs(move.tiles), rack)
    return MoveSummary(PLACE, move.coord, move.word, move.score, value, leave, None, len(move.tiles) == bingo_tiles,
                       move.display, frozenset(move.tiles))  # fmt: skip


def placement_record(board: Board, tiles: frozenset[Tile], score: int) -> np.ndarray:
    """A move record (engine/movegen.py's layout) for a placement the generator does not make
    (a word the lexicon lacks): its main word along the line of its tiles, board tiles
    included, and ``score``, so the search can play it as it was played."""
    from literaki_cli.engine import alphabet
    from literaki_cli.engine import movegen as mg
    from literaki_cli.engine.variant import ACROSS, DOWN

    new = {(t.row, t.col): t for t in tiles}
    first = min(new)
    if len({r for r, _ in new}) == 1 and (len(new) > 1 or board.occupied(first[0], first[1] - 1)
                                          or board.occupied(first[0], first[1] + 1)):  # fmt: skip
        direction, step = ACROSS, (0, 1)
    else:
        direction, step = DOWN, (1, 0)

    def taken(r: int, c: int) -> bool:
        return (r, c) in new or board.occupied(r, c)

    r, c = first
    while taken(r - step[0], c - step[1]):
        r, c = r - step[0], c - step[1]
    record = np.zeros(mg.RECORD_WIDTH, dtype=np.int32)
    record[[mg.SCORE, mg.ROW, mg.COL, mg.DIR, mg.TILES]] = score, r, c, direction, len(new)
    length = 0
    while taken(r, c) and mg.CELLS + length < mg.RECORD_WIDTH:
        tile = new.get((r, c))
        if tile is not None:
            cell = alphabet.CODE_OF[tile.letter] | (mg.BLANK_FLAG if tile.blank else 0)
        else:
            cell = int(board.letters[r, c]) | mg.BOARD_FLAG | (mg.BLANK_FLAG if board.blanks[r, c] else 0)
        record[mg.CELLS + length] = cell
        length += 1
        r, c = r + step[0], c + step[1]
    record[mg.LENGTH] = length
    return record


__all__ = ["DEFAULT_ENDGAME_SECONDS", "EndgameReviewer", "endgame_seconds", "placement_record", "played_record",
           "searched_summary"]
