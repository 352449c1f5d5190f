"""Exact endgames: the best move once the bag is empty, with its exact value and the principal
variation (both sides' best play to the end of the game).

:class:`EndgameSolver` deepens the core's search (:mod:`literaki_cli.endgame.search`) one
ply at a time until an iteration meets no depth limit anywhere: its values are then the game's
own.  Each iteration orders the first moves by the values of the last, and the transposition
table carries every node already solved from one iteration (and one solve) to the next.  The
best ``keep`` first moves get exact values; the others are shown to be worse.

The principal variation is found by solving each position along it in turn (cheap, since the
table already holds them), so every move of it is a best move and its scores with the end
rules add up to the value exactly."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from literaki_cli import _core
from literaki_cli.endgame import wordprune
from literaki_cli.endgame.search import INFINITY, MAX_PLY, endgame_rules
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import position_name
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.movegen import (
    COL,
    LENGTH,
    RECORD_WIDTH,
    ROW,
    SCORE,
    TILES,
    MoveGenerator,
    core_call,
    rack_counts,
    record_tiles,
    record_words,
)
from literaki_cli.engine.variant import Variant

#: Players of an endgame (the solver handles two-player games).
PLAYERS = 2
#: Passes in a row that end the game: every player passes twice (rules-literaki.md).
PASSES_TO_END = 2 * PLAYERS
#: The word shown for a pass.
PASS_WORD = "-"
#: First moves given exact values unless asked otherwise.
DEFAULT_KEEP = 5
#: log2 of the transposition table's entries (2**21 entries: 48 MB): a solver whose searches
#: have node budgets (the computer levels, the pre-endgame), which keeps its moves what they were
#: and costs little to empty before each game.
DEFAULT_TABLE_BITS = 21
#: The same for a solver whose searches run for a time (``solve --endgame``, reviews, the board):
#: 2**23 entries (200 MB, taken as the search reaches them).  At two million nodes a second a
#: 10-second search fills the smaller table many times over; measured on the two 7-against-7
#: endgames of bench_endgame.py's battery that were exact in 10-13 s: 10.9 and 12.7 s with 2**21
#: entries, 9.7 and 8.2 s with 2**23 (the answers are the same: only the nodes differ).
TIMED_TABLE_BITS = 23
#: Pruned graphs a solver keeps (each a few hundred KB at most).
PRUNED_KEPT = 32
#: Seed of the hash keys (any fixed seed: the keys only need to differ).
KEY_SEED = 20261130


@dataclass
class EndgameMove:
    """A move of the endgame: ``player`` 1 is the player to move at the start, 2 the other."""

    player: int
    coord: str | None  # None for a pass
    word: str  # the main word, new tiles upper case, blanks lower case; '-' for a pass
    display: str  # the same with tiles already on the board in parentheses
    score: int
    tiles: list[Tile] = field(default_factory=list)
    direction: int = 0
    value: int | None = None  # the exact spread change from here for the player making it
    record: np.ndarray | None = field(default=None, repr=False)

    @property
    def is_pass(self) -> bool:
        return self.coord is None

    def as_dict(self) -> dict:
        return {"coord": self.coord, "word": self.word, "score": self.score}


@dataclass
class EndgameResult:
    """What :meth:`EndgameSolver.solve` found (values: spread change for the player to move)."""

    exact: bool
    value: int
    best: EndgameMove
    pv: list[EndgameMove]
    moves: list[EndgameMove]  # the best first moves with their exact values, best first
    nodes: int
    seconds: float
    depth: int  # plies of the last complete iteration
    ended_by: str | None  # how the principal variation ends: "out", "passes", None (cut at the depth)
    end_points: tuple[int, int]  # the end rules' points for players 1 and 2
    interrupted: bool = False  # Ctrl-C stopped the search: the best of the last complete iteration

    def as_dict(self) -> dict:
        return {
            "endgame": {
                "exact": self.exact,
                "value": self.value,
                "best": self.best.as_dict(),
                "pv": [{"player": m.player, **m.as_dict()} for m in self.pv],
                "moves": [{**m.as_dict(), "value": m.value} for m in self.moves],
                "nodes": self.nodes,
                "seconds": round(self.seconds, 4),
                "depth": self.depth,
                "ended_by": self.ended_by,
                "end_points": list(self.end_points),
            }
        }


class OutOfTime(Exception):
    """A solve's ``deadline`` came before its search completed one iteration: it has no answer."""


class MoveValue(NamedTuple):
    """What :meth:`EndgameSolver.value_of` found for one first move."""

    value: int  # the spread change to the end for the player making it
    exact: bool
    nodes: int
    interrupted: bool  # Ctrl-C stopped the search


@dataclass
class _Iteration:
    depth: int
    values: np.ndarray
    exact: np.ndarray
    solved: bool  # no depth limit met: the values are the game's own


class EndgameSolver:
    """Solves endgames for one lexicon and variant; the transposition table lives as long as
    the solver, so a game's later endgame positions reuse what earlier solves found."""

    def __init__(self, lexicon: Lexicon, variant: Variant, popular: bool = False,
                 table_bits: int = DEFAULT_TABLE_BITS, prune: bool = True, threads: int = 1,
                 playout: bool = False) -> None:  # fmt: skip
        """``prune``: search each endgame with the words it can form only
        (:mod:`literaki_cli.endgame.wordprune`); off, with the whole lexicon (the same values,
        slower: kept to measure it, and to check the pruning against).  ``threads``: search
        threads sharing the table (Lazy SMP: :meth:`_deepen`); a solve with a node budget
        uses one, so that its move is the same on every machine.  ``playout``: value the nodes at
        the depth limit by a greedy playout to the end of the game (else by the racks' values
        only); exact answers are the same either way."""
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.variant = variant
        self.prune = prune
        self.threads = threads
        #: nodes the helper threads searched in the last solve
        self._helper_nodes = 0
        #: words the last endgame's pruned lexicon was built from (0 when not pruned)
        self.pruned_words = 0
        self.generator = MoveGenerator(lexicon, variant, popular)
        slot_value = self.generator.rules.tile_value.copy()
        slot_value[0] = 0  # a blank counts nothing at the end
        board = variant.board
        self.rules = endgame_rules(board.rows * board.columns, slot_value, PASSES_TO_END, playout, KEY_SEED)
        self._table = core_call(_core.EndgameTable, table_bits)
        #: the pruned graphs of the last endgames, by board and pool of tiles (:meth:`_pruned_graph`)
        self._pruned: OrderedDict[bytes, tuple] = OrderedDict()

    # ----------------------------------------------------------------- the public calls

    def forget(self) -> None:
        """Empty the transposition table: the next solve depends on nothing solved before (a
        node budget then gives the same move whatever was solved earlier in the process)."""
        self._table.clear()

    def solve(self, board: Board, racks: tuple[str, str], passes: int = 0, depth: int | None = None,
              seconds: float | None = None, nodes: int | None = None, keep: int = DEFAULT_KEEP,
              line: bool = True, deadline: float | None = None) -> EndgameResult:  # fmt: skip
        """The best move for the player holding ``racks[0]`` (the opponent holds ``racks[1]``,
        the bag is empty) after ``passes`` passes in a row.  ``depth`` (plies), ``seconds`` and
        ``nodes`` limit the search (a node budget gives the same answer on every machine); the
        answer is then the best found so far, marked not exact.  ``line``: find the principal
        variation (else it holds the first move only).

        ``deadline`` (a :func:`time.perf_counter` time, shared by the searches of a larger answer:
        the pre-endgame's endings) is a hard stop: unlike ``seconds``, which always leaves the
        first iteration (one ply) to finish, it cuts that one too, and a search it stops before an
        iteration is complete raises :class:`OutOfTime` (as does a solve begun after it)."""
        started = time.perf_counter()
        if deadline is not None and started >= deadline:
            raise OutOfTime
        limits = _limits(started, seconds, nodes)
        if deadline is not None:
            limits = (min(limits[0], deadline), limits[1])
        state = self._state(board, racks, limits)
        with _stop_on_ctrl_c(state) as stopped:
            moves = self._root_moves(state, 0)
            limit = self._depth_limit(racks, depth)
            self._helper_nodes = 0
            found = self._deepen(state, moves, 0, passes, limit, max(1, keep), helpers=nodes is None,
                                 deadline=deadline)  # fmt: skip
            if found is None:  # the deadline, or a Ctrl-C, before one iteration was complete
                if stopped.is_set():
                    raise KeyboardInterrupt
                raise OutOfTime
            nodes = state.nodes + self._helper_nodes
            interrupted = stopped.is_set()
            result = self._result(state, moves, found, passes, racks, keep, line)
        result.nodes, result.interrupted, result.seconds = nodes, interrupted, time.perf_counter() - started
        return result

    def _result(self, state: _core.EndgameSearch, moves: np.ndarray, found: _Iteration, passes: int,
                racks: tuple[str, str], keep: int, line: bool) -> EndgameResult:  # fmt: skip
        """The result of a search: the best first moves, and the principal variation."""
        ranked = np.lexsort((-moves[:, SCORE], -found.values))
        best_row = int(ranked[0])
        if line:
            pv, ended_by, end_points = self._line(state, moves[best_row], passes, found, racks)
        else:
            pv, ended_by, end_points = [self._move(moves[best_row], 1)], None, (0, 0)
        firsts = [self._move(moves[i], 1, int(found.values[i])) for i in ranked[:keep] if found.exact[i]]
        best = firsts[0] if firsts else self._move(moves[best_row], 1, int(found.values[best_row]))
        return EndgameResult(
            exact=found.solved, value=int(found.values[best_row]), best=best, pv=pv, moves=firsts or [best],
            nodes=0, seconds=0.0, depth=found.depth, ended_by=ended_by, end_points=end_points,
        )  # fmt: skip

    def value_of(self, board: Board, racks: tuple[str, str], record: np.ndarray | None, passes: int = 0,
                 seconds: float | None = None) -> MoveValue:  # fmt: skip
        """The value of one first move (a generator record; None: the pass): exact unless
        ``seconds`` ran out or Ctrl-C stopped the search."""
        state = self._state(board, racks, _limits(time.perf_counter(), seconds, None))
        moves = _pass_record()[None, :] if record is None else np.asarray(record, dtype=np.int32)[None, :]
        with _stop_on_ctrl_c(state) as stopped:
            found = self._deepen(state, moves, 0, passes, self._depth_limit(racks, None), 1, helpers=True)
        return MoveValue(int(found.values[0]), found.solved, state.nodes, stopped.is_set())

    # ----------------------------------------------------------------- the search

    def _state(self, board: Board, racks: tuple[str, str], limits: tuple[float, float],
               graph=None) -> _core.EndgameSearch:  # fmt: skip
        """The search of the endgame on the word graph ``graph`` (a core generator; by default the
        endgame's pruned lexicon, or the whole one when :attr:`prune` is off)."""
        letters = np.ascontiguousarray(board.letters, dtype=np.uint8)
        blanks = np.ascontiguousarray(board.blanks, dtype=np.bool_)
        counts = np.stack([rack_counts(rack) for rack in racks])
        if graph is None and self.prune:
            graph, self.pruned_words = self._pruned_graph(letters, counts)
        elif graph is None:
            graph = self.generator.core
        return core_call(_core.EndgameSearch, self.rules, graph, self._table, letters, blanks, counts, *limits)

    def _pruned_graph(self, letters: np.ndarray, counts: np.ndarray) -> tuple:
        """The endgame's pruned graph (a core generator of it) and its word count: it depends only
        on the board and on the pool of both racks, so the pre-endgame's splits of one candidate
        (the same board and pool, the tiles dealt differently) build it once.  The last few are
        kept."""
        key = letters.tobytes() + counts.sum(axis=0).astype(np.int64).tobytes()
        found = self._pruned.get(key)
        if found is None:
            rules = self.generator.rules
            graph, words = wordprune.endgame_graph(self.generator.graph, letters, counts, rules.min_word,
                                                   rules.max_word)  # fmt: skip
            found = self._pruned[key] = (self.generator.core_of(graph), words)
            if len(self._pruned) > PRUNED_KEPT:
                self._pruned.popitem(last=False)
        else:
            self._pruned.move_to_end(key)
        return found

    def _depth_limit(self, racks: tuple[str, str], depth: int | None) -> int:
        """The plies to the end of the longest game: each placement lays a tile, and fewer than
        ``passes_to_end`` passes come between two placements."""
        longest = (len(racks[0]) + len(racks[1]) + 1) * PASSES_TO_END
        return min(longest, MAX_PLY - 1, depth if depth is not None else MAX_PLY)

    def _root_moves(self, state: _core.EndgameSearch, side: int) -> np.ndarray:
        """The placements of ``side`` in the state's position, then the pass."""
        return np.vstack([state.placements(side), _pass_record()[None, :]])

    def _deepen(self, state: _core.EndgameSearch, moves: np.ndarray, side: int, passes: int, limit: int,
                keep: int, helpers: bool = False, deadline: float | None = None) -> _Iteration | None:  # fmt: skip
        """Iterative deepening over the root ``moves`` up to ``limit`` plies (or the deadline):
        the last complete iteration.  ``helpers``: with :attr:`threads` above 1, every iteration
        after the first has ``threads - 1`` helper threads beside it (Lazy SMP, as Macondo and
        MAGPIE search endgames on several threads: each helper searches the same first moves one
        ply deeper and deeper into the shared table, and this thread's search finds their nodes
        solved there).  The answer is this thread's alone, so the values, the best moves and the
        line are the same on any number of threads; only the nodes, the time and the depth at
        which the answer became exact vary.

        The search needs one answer, so a first iteration that the limits cut is searched
        again to its end without them; that is the last: the limits are spent, and the
        deeper iterations never start (else they would run with no limit at all).  The work
        stays within the limits plus one iteration of one ply (a node for each first move).
        A hard ``deadline`` (:meth:`solve`) bounds that one too: None when it came first."""
        state.aborted = False
        order = state.order_moves(moves, side)  # the first iteration's: as every node orders its moves
        done: _Iteration | None = None
        keep = min(keep, len(moves))
        for depth in range(1, limit + 1):
            state.horizon = 0
            values, exact = _no_values(len(moves))
            beside = self.threads - 1 if helpers and depth > 1 else 0
            self._helper_nodes += core_call(state.search_root, moves, order, depth, keep, side, passes, values, exact,
                                            beside, limit)  # fmt: skip
            cut = state.aborted
            if cut:
                if done is not None:
                    break
                if deadline is None:
                    self._search_unlimited(state, moves, order, depth, keep, side, passes, values, exact)
                elif time.perf_counter() >= deadline or not self._search_unlimited(
                        state, moves, order, depth, keep, side, passes, values, exact, until=deadline):  # fmt: skip
                    return None
            done = _Iteration(depth, values, exact, state.horizon == 0)
            if done.solved or cut:
                break
            order = np.lexsort((order.argsort(), -values))  # by value, ties in the last order
        return done

    def _search_unlimited(self, state: _core.EndgameSearch, moves: np.ndarray, order: np.ndarray, depth: int,
                          keep: int, side: int, passes: int, values: np.ndarray, exact: np.ndarray,
                          until: float = np.inf) -> bool:  # fmt: skip
        """The iteration the limits cut, searched again whole (one ply at least, whatever the
        limits say) or ``until`` that time, the limits put back after it; a Ctrl-C during it still
        stops it, and is kept in the limits put back.  Whether it was searched whole."""
        limits = state.limits
        state.limits = (until, np.inf)
        state.aborted = False
        state.horizon = 0
        try:
            core_call(state.search_root, moves, order, depth, keep, side, passes, values, exact)
        finally:
            now = state.limits
            state.limits = (min(limits[0], now[0]), min(limits[1], now[1]))
        return not state.aborted

    def _line(self, state: _core.EndgameSearch, first: np.ndarray, passes: int, found: _Iteration, racks):
        """The principal variation from the first move ``first``: each next move the best of a
        solve of the position it leads to, to the end of the game (or, when the search was cut
        short, of the depth searched)."""
        line = []
        played = []
        side, record = 0, first
        depth_left = self._depth_limit(racks, None) if found.solved else found.depth
        end_points = (0, 0)
        ended_by = None
        state.limits = (np.inf, np.inf)
        while True:
            mine = state.rack_tiles(side)
            line.append(self._move(record, side + 1))
            if record[LENGTH] == 0:
                passes += 1
                if passes >= PASSES_TO_END:
                    ended_by = "passes"
                    end_points = (-state.rack_value(0), -state.rack_value(1))
                    break
            else:
                passes = 0
                if record[TILES] == mine:
                    ended_by = "out"
                    gained = state.rack_value(1 - side)
                    end_points = (gained, -gained) if side == 0 else (-gained, gained)
                    break
                core_call(state.play, side, record)
                played.append((side, record))
            side = 1 - side
            depth_left -= 1
            if depth_left <= 0:
                break
            moves = self._root_moves(state, side)
            found = self._deepen(state, moves, side, passes, depth_left, 1)
            record = moves[int(np.lexsort((-moves[:, SCORE], -found.values))[0])]
        for side, record in reversed(played):
            core_call(state.take_back, side, record)
        return line, ended_by, end_points

    def _move(self, record: np.ndarray, player: int, value: int | None = None) -> EndgameMove:
        return describe_move(record, player, value)


def describe_move(record: np.ndarray, player: int, value: int | None = None) -> EndgameMove:
    """The move of a generator record (laying nothing: the pass) as an endgame shows it."""
    if record[LENGTH] == 0:
        return EndgameMove(player, None, PASS_WORD, PASS_WORD, 0, value=value, record=record.copy())
    tiles, direction = record_tiles(record)
    word, display = record_words(record)
    return EndgameMove(player, position_name(int(record[ROW]), int(record[COL]), direction), word, display,
                       int(record[SCORE]), tiles, direction, value, record.copy())  # fmt: skip


@contextmanager
def _stop_on_ctrl_c(state: _core.EndgameSearch) -> Iterator[threading.Event]:
    """Ctrl-C during the block stops the search as its time limit would (the core's search runs
    Python's signal handlers when it next reads the clock) and sets the event; the caller reports the answer
    so far as interrupted.  Only in the main thread, and not where Ctrl-C is ignored."""
    stopped = threading.Event()
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield stopped
        return

    def stop(signum, frame):
        stopped.set()
        state.stop()

    previous = signal.signal(signal.SIGINT, stop)
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


def all_cores() -> int:
    """The cores this process may run on: the default number of search threads."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _limits(started: float, seconds: float | None, nodes: int | None) -> tuple[float, float]:
    """The search's limits: the clock time and the node count to stop at."""
    return (started + seconds if seconds else np.inf, float(nodes) if nodes else np.inf)


def _no_values(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The values of ``n`` first moves before a search reaches them, and their exactness."""
    return np.full(n, -INFINITY, dtype=np.int64), np.zeros(n, dtype=np.bool_)


def _pass_record() -> np.ndarray:
    return np.zeros(RECORD_WIDTH, dtype=np.int32)
