"""The numba rollout the Rust core's replaced (``rust/src/rollout.rs``): kept as the oracle its
tests compare against until the endgame moves too (issue 41), with :func:`numba_answer`, which
plays a simulator's candidate into a future with it.

A simulation iteration (:mod:`literaki_cli.montecarlo.simulation`) plays the candidate, then
``plies`` turns in which each side plays its best move by static equity.  Done in Python, each
ply built a new board, both board views, the rack's leave values and the move's tiles as
objects; here the board is held in two arrays (across and transposed) that moves are laid into
in place, the racks and the bag are arrays of letter codes in the order the Python game keeps
them (the order decides which tiles are drawn and returned), and each ply's leave values, best
move (:func:`literaki_cli.engine.movegen_numba._best_move`) and best exchange are found in the kernel.

The rules are the simulation's, step for step: a move's tiles leave the rack (the first of
each letter), the rack is refilled from the front of the bag, an exchange puts its tiles at the
back, a tile on a forced-exchange square swaps the next player's rack while the bag allows, the
game ends when a rack empties with the bag empty (the other's tiles count twice) or after two
passes each.  The answer is the very numbers the Python rollout gave, bit for bit
(tests/test_golden_answers.py); only the win model's lookup stays in Python.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from literaki_cli.engine import alphabet, jitcache
from literaki_cli.engine.movegen import (
    BEST_EQUITY,
    BLANK_FLAG,
    BLANK_SLOT,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    COL,
    DIR,
    LENGTH,
    ROW,
    SCORE,
    TILES,
    BoardView,
    KernelRules,
    LexiconGraph,
    MoveGenerator,
)
from literaki_cli.engine.movegen_numba import (
    AnchorTable,
    _best_move,
    best_move_sharing,
    best_sink,
    leave_bounds,
    leave_number,
)
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.variant import ACROSS, DOWN, Variant
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leave_kernels import subset_values
from literaki_cli.equity.leaves import LeaveArrays
from literaki_cli.montecarlo.rollout import (
    BAG_LEFT,
    EXCHANGE_KIND,
    LAST,
    OVER,
    PASS_KIND,
    PASSES_TO_END,
    PLACE_KIND,
    PLAYED,
    PLY_SCORES,
    RACK_ROOM,
    SPREAD,
)


class RolloutRules(NamedTuple):
    """Everything a rollout reads besides the board, the racks and the bag (one per simulator)."""

    graph: LexiconGraph
    rules: KernelRules
    leaves: LeaveArrays
    tile_value: np.ndarray  # int64 by letter code: a tile's points (the blank slot 0 is 0)
    shrink_below: int  # the equity's bag-end rule (literaki_cli.equity.equity.EquityRules)
    kept_tile_factor: float
    exchange_min_bag: int
    exchanges: bool  # the rules allow exchanges at all
    forced: np.ndarray  # bool [squares]: forced-exchange squares
    forced_min_bag: int
    across_map: np.ndarray  # square maps of the two views (movegen.square_maps)
    down_map: np.ndarray
    start_row: int  # the start square (an empty board's first move)
    start_col: int


class SharedReply(NamedTuple):
    """The opponent's first reply, shared by every candidate of one future: the anchors of the
    position's board with the best move from each for the opponent's rack (an
    :class:`~literaki_cli.engine.movegen.AnchorTable`), the leave weights it was made with, and
    the lines a candidate changes; a candidate's reply then searches only those lines."""

    usable: bool
    table: AnchorTable
    weight: float
    kept_factor: float
    changed: np.ndarray  # bool [2, lines]: see movegen_numba.changed_lines


def rollout_rules(generator: MoveGenerator, equity: Equity, variant: Variant) -> RolloutRules:
    """The :class:`RolloutRules` of a simulation's generator, equity and variant."""
    layout = variant.board
    forced = np.zeros(layout.rows * layout.columns, dtype=np.bool_)
    for r, c in variant.effect_squares("forced-exchange"):
        forced[r * layout.columns + c] = True
    return RolloutRules(
        generator.graph, generator.rules, equity.leaves.arrays, equity.tile_value, int(equity.rules.shrink_below),
        float(equity.rules.kept_tile_factor), int(variant.exchange_min_bag), variant.exchange_max_per_player > 0,
        forced, int(variant.forced_exchange_min_bag), generator.maps[0], generator.maps[1], int(layout.start[0]),
        int(layout.start[1]),
    )  # fmt: skip


def codes(tiles: str) -> np.ndarray:
    """Letter codes of a rack or bag written as text ('?' = a blank, code 0), in its order."""
    return np.array([BLANK_SLOT if ch == BLANK else alphabet.CODE_OF[ch] for ch in tiles], dtype=np.int64)


# --------------------------------------------------------------------------- compiled kernels


@njit(cache=True)
def _weights(t, bag):
    """(weight of the learned leave value, points lost per point of a kept tile): EquityRules.weights."""
    if bag <= 0:
        return 0.0, t.kept_tile_factor
    if t.shrink_below > 0:
        share = bag / t.shrink_below
        return (share if share < 1.0 else 1.0), 0.0
    return 1.0, 0.0


@njit(cache=True)
def _take(racks, sizes, who, taken, n_taken, scratch):
    """Take the tiles ``taken[:n_taken]`` off rack ``who``: the first tile of each letter, the
    others keeping their order (as ``list.remove`` does)."""
    size = sizes[who]
    used = scratch[:size]
    used[:] = 0
    for j in range(n_taken):
        for i in range(size):
            if used[i] == 0 and racks[who, i] == taken[j]:
                used[i] = 1
                break
    kept = 0
    for i in range(size):
        if used[i] == 0:
            racks[who, kept] = racks[who, i]
            kept += 1
    sizes[who] = kept


@njit(cache=True)
def _draw(racks, sizes, who, bag, ends, n):
    """Up to ``n`` tiles from the front of the bag onto the end of rack ``who``."""
    n = min(n, ends[1] - ends[0])
    for k in range(n):
        racks[who, sizes[who] + k] = bag[ends[0] + k]
    sizes[who] += n
    ends[0] += n


@njit(cache=True)
def _return(bag, ends, tiles, n):
    """Put ``tiles[:n]`` at the back of the bag, in their order."""
    for k in range(n):
        bag[ends[1] + k] = tiles[k]
    ends[1] += n


@njit(cache=True)
def _exchange(racks, sizes, who, bag, ends, returned, n, scratch):
    """Exchange ``returned[:n]`` (rack order): the rest stays, as many are drawn, then they go back."""
    _take(racks, sizes, who, returned, n, scratch)
    _draw(racks, sizes, who, bag, ends, n)
    _return(bag, ends, returned, n)


@njit(cache=True)
def _forced_exchange(t, racks, sizes, victim, bag, ends, fired):
    """A new tile on a forced-exchange square swaps the victim's rack for as many tiles from the
    front of the bag, the old rack going to the back, while the bag holds enough."""
    if not fired or ends[1] - ends[0] < t.forced_min_bag:
        return False
    old = racks[victim, : sizes[victim]].copy()
    sizes[victim] = 0
    _draw(racks, sizes, victim, bag, ends, old.shape[0])
    _return(bag, ends, old, old.shape[0])
    return True


@njit(cache=True)
def _rack_value(t, racks, sizes, who):
    total = 0
    for i in range(sizes[who]):
        total += t.tile_value[racks[who, i]]
    return total


@njit(cache=True)
def _lay(t, record, across_letters, across_blanks, down_letters, down_blanks, laid):
    """Lay a move record's new tiles on both board arrays; their codes (a blank: 0) into
    ``laid`` in the word's order; returns (how many, whether one is on a forced-exchange square)."""
    r = record[ROW]
    c = record[COL]
    cols = across_letters.shape[1]
    n = 0
    fired = False
    for k in range(record[LENGTH]):
        cell = record[CELLS + k]
        if cell & BOARD_FLAG:
            continue
        rr = r if record[DIR] == ACROSS else r + k
        cc = c + k if record[DIR] == ACROSS else c
        letter = cell & CODE_MASK
        blank = (cell & BLANK_FLAG) != 0
        across_letters[rr, cc] = letter
        across_blanks[rr, cc] = blank
        down_letters[cc, rr] = letter
        down_blanks[cc, rr] = blank
        laid[n] = BLANK_SLOT if blank else letter
        n += 1
        if t.forced[rr * cols + cc]:
            fired = True
    return n, fired


@njit(cache=True)
def rollout(t, across_letters, across_blanks, racks, sizes, bag, ends, candidate_kind, candidate_tiles,
            candidate_forced, candidate_score, plies, out, reply):  # fmt: skip
    """Play one candidate into one future, then ``plies`` best replies; the answer into ``out``
    (see SPREAD ...).  ``across_*``: the board after the candidate (changed in place: pass a
    copy); ``racks`` [2, RACK_ROOM] with ``sizes``: the mover's rack before the candidate and the
    opponent's; ``bag`` with ``ends`` (front, back): the future's bag, with room at the back;
    ``candidate_tiles``: the tiles it lays (word order) or returns (an exchange).  ``reply``: the
    opponent's first reply shared by the candidates of a future (:class:`SharedReply`); it is used
    when the opponent's rack and leave weights are the ones it was made for."""
    down_letters = np.ascontiguousarray(across_letters.T)
    down_blanks = np.ascontiguousarray(across_blanks.T)
    scratch = np.zeros(RACK_ROOM, dtype=np.int64)
    laid = np.zeros(RACK_ROOM, dtype=np.int64)
    on_board = 0
    for r in range(across_letters.shape[0]):
        for c in range(across_letters.shape[1]):
            if across_letters[r, c] != 0:
                on_board += 1
    spread = float(candidate_score)
    passes = 0
    shared = reply.usable
    n = candidate_tiles.shape[0]
    if candidate_kind == PASS_KIND:
        passes = 1
    elif candidate_kind == EXCHANGE_KIND:
        _exchange(racks, sizes, 0, bag, ends, candidate_tiles, n, scratch)
    else:
        _take(racks, sizes, 0, candidate_tiles, n, scratch)
        _draw(racks, sizes, 0, bag, ends, n)
        if _forced_exchange(t, racks, sizes, 1, bag, ends, candidate_forced):
            shared = False
    last = 0
    leave_term = 0.0
    played = 0
    over = sizes[0] == 0 and ends[0] == ends[1]
    if over:
        spread += 2 * _rack_value(t, racks, sizes, 1)
    counts = np.zeros(64, dtype=np.int64)
    for ply in range(plies):
        if over:
            break
        mover = (ply + 1) % 2
        sign = 1 if mover == 0 else -1
        bag_now = ends[1] - ends[0]
        kind = PASS_KIND
        score = 0
        bingo = False
        leave_value = 0.0
        if sizes[mover] > 0:
            counts[:] = 0
            for i in range(sizes[mover]):
                counts[racks[mover, i]] += 1
            weight, kept_factor = _weights(t, bag_now)
            place, values, leave_sizes = subset_values(counts, t.leaves, t.tile_value, weight, kept_factor)
            bound = leave_bounds(sizes[mover], values, leave_sizes)
            empty = on_board == 0
            across = BoardView(across_letters, across_blanks, t.across_map, ACROSS, False,
                               t.start_row if empty else -1, t.start_col if empty else -1)  # fmt: skip
            down = BoardView(down_letters, down_blanks, t.down_map, DOWN, True,
                             t.start_col if empty else -1, t.start_row if empty else -1)  # fmt: skip
            sink = best_sink(place, values)
            if shared and ply == 0 and weight == reply.weight and kept_factor == reply.kept_factor:
                best_move_sharing(t.graph, t.rules, across, down, counts, sink, bound, reply.table, reply.changed)
            else:
                _best_move(t.graph, t.rules, across, down, counts, sink, bound, False)
            whole = values.shape[0] - 1
            record = sink.records[0]
            found = sink.count[0] > 0
            best_equity = sink.best[BEST_EQUITY] if found else -np.inf
            kept = leave_number(record, CELLS, CELLS + record[LENGTH], place, whole) if found else whole
            exchange = -1
            if t.exchanges and bag_now >= t.exchange_min_bag and values.shape[0] > 1:
                top = values[0]
                for i in range(1, whole):
                    if values[i] > top:
                        top = values[i]
                if top > best_equity:
                    for i in range(whole):  # the first best keep, the most tiles kept among equals
                        if values[i] == top and (exchange < 0 or leave_sizes[i] > leave_sizes[exchange]):
                            exchange = i
            if exchange >= 0:
                kind = EXCHANGE_KIND
                n_back = 0
                seen = np.zeros(64, dtype=np.int64)
                for i in range(sizes[mover]):  # the rack less the first tiles of each letter kept
                    code = racks[mover, i]
                    keep = (exchange // place[code]) % (counts[code] + 1)
                    if seen[code] < keep:
                        seen[code] += 1
                    else:
                        laid[n_back] = code
                        n_back += 1
                leave_value = values[exchange]
                _exchange(racks, sizes, mover, bag, ends, laid, n_back, scratch)
            elif found:
                kind = PLACE_KIND
                score = record[SCORE]
                bingo = record[TILES] == t.rules.bingo_tiles
                leave_value = values[kept]
                n_laid, fired = _lay(t, record, across_letters, across_blanks, down_letters, down_blanks, laid)
                on_board += n_laid
                _take(racks, sizes, mover, laid, n_laid, scratch)
                _draw(racks, sizes, mover, bag, ends, n_laid)
                _forced_exchange(t, racks, sizes, 1 - mover, bag, ends, fired)
            else:
                leave_value = values[whole]
        if kind == PASS_KIND:
            passes += 1
        else:
            passes = 0
        leave_term = leave_value
        spread += sign * score
        out[PLY_SCORES + 2 * ply] = score
        out[PLY_SCORES + 2 * ply + 1] = 1.0 if bingo else 0.0
        played += 1
        last = mover
        if sizes[mover] == 0 and ends[0] == ends[1]:  # out: the other's tiles count twice
            spread += sign * 2 * _rack_value(t, racks, sizes, 1 - mover)
            over = True
        elif passes >= PASSES_TO_END:  # two passes each: everyone loses their own tiles
            spread += _rack_value(t, racks, sizes, 1) - _rack_value(t, racks, sizes, 0)
            over = True
    if not over:
        spread += (1 if last == 0 else -1) * leave_term
    out[SPREAD] = spread
    out[OVER] = 1.0 if over else 0.0
    out[LAST] = last
    out[BAG_LEFT] = ends[1] - ends[0]
    out[PLAYED] = played


def numba_answer(simulator, candidate_index: int, future) -> np.ndarray:
    """What the core's ``Simulation.run`` answers for one candidate of ``simulator`` (a
    :class:`~literaki_cli.montecarlo.simulation.Simulator`) in one future, by these kernels."""
    from literaki_cli.engine.movegen import board_views
    from literaki_cli.engine.movegen_numba import anchor_table, changed_lines, empty_anchor_table
    from literaki_cli.engine.movegen_numba import leave_bounds as numba_leave_bounds
    from literaki_cli.games.game import EXCHANGE, PLACE

    sim, equity, generator = simulator.sim, simulator.equity, simulator.generator
    candidate = simulator.candidates[candidate_index]
    rules = rollout_rules(generator, equity, sim.variant)
    board_after = sim.board.with_tiles(candidate.tiles) if candidate.kind == PLACE else sim.board
    rack, opponent, bag_codes = codes(sim.rack), codes(future.opponent_rack), codes("".join(future.bag))
    racks = np.zeros((2, RACK_ROOM), dtype=np.int64)
    sizes = np.array([rack.shape[0], opponent.shape[0]], dtype=np.int64)
    racks[0, : sizes[0]] = rack
    racks[1, : sizes[1]] = opponent
    bag = np.zeros(bag_codes.shape[0] + RACK_ROOM * (simulator.plies + 1), dtype=np.int64)
    bag[: bag_codes.shape[0]] = bag_codes
    ends = np.array([0, bag_codes.shape[0]], dtype=np.int64)
    drawn = min(len(candidate.tiles), len(future.bag)) if candidate.kind == PLACE else 0
    weight, kept_factor = equity.rules.weights(len(future.bag) - drawn)
    if sim.board.is_empty() and candidate.kind == PLACE:
        reply = SharedReply(False, empty_anchor_table(), weight, kept_factor, np.zeros((2, 1), dtype=np.bool_))
    else:
        leaves = equity.for_rack(future.opponent_rack, len(future.bag) - drawn)
        bound = numba_leave_bounds(len(future.opponent_rack), leaves.values, leaves.sizes)
        table = anchor_table(rules.graph, rules.rules, *board_views(sim.board, sim.variant, generator.maps),
                             leaves.rack, leaves.place, leaves.values, bound)  # fmt: skip
        rows = np.array([t.row for t in candidate.tiles], dtype=np.int64)
        cols = np.array([t.col for t in candidate.tiles], dtype=np.int64)
        reply = SharedReply(True, table, weight, kept_factor, changed_lines(board_after.letters, rows, cols, len(rows)))
    if candidate.kind == PLACE:
        kind = PLACE_KIND
        tiles = codes("".join(BLANK if t.blank else t.letter for t in candidate.tiles))
        forced = any((t.row, t.col) in sim.variant.effect_squares("forced-exchange") for t in candidate.tiles)
    else:
        kind = EXCHANGE_KIND if candidate.kind == EXCHANGE else PASS_KIND
        tiles, forced = codes(candidate.exchange), False
    out = np.zeros(PLY_SCORES + 2 * simulator.plies)
    rollout(rules, board_after.letters.copy(), board_after.blanks.copy(), racks, sizes, bag, ends, kind, tiles, forced,
            candidate.score, simulator.plies, out, reply)  # fmt: skip
    return out


jitcache.install()
