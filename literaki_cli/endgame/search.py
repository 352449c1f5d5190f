"""The compiled endgame search: negamax with alpha-beta over every placement and the pass, a
transposition table, and the move generator's own kernels for the moves of each node.

Once the bag is empty both racks are known, so the rest of the game is a two-player game of
perfect information.  A node is (board, both racks, the player to move, the passes in a row);
its value is the spread change from there to the end of the game for the player to move, with
the end rules: going out gains the opponent's leftover values and the opponent loses them (so
the spread moves by twice their value); once ``passes_to_end`` passes come in a row, each
player loses their own leftovers.

The search is exact when no node was cut at the depth limit: every node counts the *horizon*
(nodes valued by the depth-limit heuristic, or by a table entry that was) and stores its value
as *solved* (valid at every depth) when no horizon was met below it.  The driver deepens until
a search meets no horizon at all (:mod:`literaki_cli.endgame.solver`).

Kernels only: the board and racks live in :class:`SearchState` arrays that the search changes
and restores in place; the rules, the lexicon and the hash keys in one :class:`SearchTables`.
The search keeps its own stack of frames (numba's cached code crashes on recursion), and each
node's moves sit one after another on one move stack.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from literaki_cli.engine.movegen import (
    BLANK_FLAG,
    BLANK_SLOT,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    COL,
    DIR,
    LENGTH,
    RECORD_WIDTH,
    ROW,
    SCORE,
    TILES,
    BoardView,
    KernelRules,
    LexiconGraph,
)
from literaki_cli.engine.movegen_numba import MoveSink, generate_rows
from literaki_cli.engine.variant import ACROSS, DOWN

#: Larger than any spread: the search window's open ends.
INFINITY = np.int64(1 << 40)
#: What a table entry's value is: the node's value, at least it, or at most it.
EXACT, LOWER, UPPER = 0, 1, 2
#: The depth of a table entry whose value holds at every depth (no horizon below it).
SOLVED = 1 << 14
#: The steps of the search loop: enter a node, try its next move, take a child's value.
ENTER, NEXT, RESULT = 0, 1, 2
#: Indexes of SearchState.counters.
NODES, HORIZON, ABORTED, CHECKS = 0, 1, 2, 3
#: Entries of the history table, and its weight in move ordering against score * 64.
HISTORY_SIZE = 1 << 16
HISTORY_WEIGHT = 1 << 12
#: The most plies left below a node that generates lazily (tries the best move that still stands
#: before generating the moves that reach new tiles).  Near the depth limit generation is most of
#: the cost and a cut by that move is likely; higher up, a full list orders the moves better.
#: Measured on the golden battery's 8 endgames of 2-60 s: 78.3 s lazy everywhere, 55.8 s at 2
#: (4.6 million nodes more searched lazily everywhere, mostly on two endgames).
LAZY_DEPTH = 2
#: Nodes between two looks at the clock.
CLOCK_EVERY = 256
#: The most plies a search may go down (a game from an empty bag is far shorter: see the solver).
MAX_PLY = 80
#: Move records the generator's buffer and the search's move stack start with (both grow).
PLY_CAPACITY = 4096


class SearchTables(NamedTuple):
    """What stays fixed during a search: the rules, the lexicon and the hash keys."""

    graph: LexiconGraph
    rules: KernelRules
    across_map: np.ndarray  # int64 [rows, cols]: square index of each square of the across view
    down_map: np.ndarray  # int64 [cols, rows]: the same for the down view
    square_keys: np.ndarray  # uint64 [squares, 128]: Zobrist key of letter code + 64 * blank on a square
    rack_keys: np.ndarray  # uint64 [2, 64, 16]: key of player, rack slot, count
    side_keys: np.ndarray  # uint64 [2]
    pass_keys: np.ndarray  # uint64 [passes_to_end]
    slot_value: np.ndarray  # int64 [64]: a rack slot's value at the end of the game (blank slot 0)
    passes_to_end: int  # passes in a row that end the game (twice the players)
    playout: bool  # value a node at the depth limit by a greedy playout (else by the racks' values)


class SearchState(NamedTuple):
    """The position the search stands on (changed and restored in place) and its work space."""

    across_letters: np.ndarray  # int8 [rows, cols]
    across_blanks: np.ndarray  # bool
    down_letters: np.ndarray  # int8 [cols, rows]: the transposed board, kept in step
    down_blanks: np.ndarray
    racks: np.ndarray  # int64 [2, 64]: tile counts by slot (slot 0: blanks)
    key: np.ndarray  # uint64 [1]: hash of board and racks (not side or passes)
    moves: np.ndarray  # int32 [capacity, RECORD_WIDTH]: where the generator writes a node's moves
    generated: np.ndarray  # int64 [1]: the generator's move count
    no_places: np.ndarray  # int64 [64]: the sink's unused leave numbering
    no_values: np.ndarray  # float64 [0]: every move written
    no_best: np.ndarray  # float64 [1]
    tt_key: np.ndarray  # uint64 [size]: the transposition table (size a power of two)
    tt_value: np.ndarray  # int64
    tt_flag: np.ndarray  # int8: EXACT, LOWER or UPPER
    tt_depth: np.ndarray  # int16: depth searched, SOLVED for every depth
    tt_move: np.ndarray  # int32: best move's index in the node's generated list (the count: pass)
    counters: np.ndarray  # int64 [4]: NODES, HORIZON, ABORTED, CHECKS
    history: np.ndarray  # int64 [HISTORY_SIZE]: how often each move (by its tiles' key) cut a search
    limits: np.ndarray  # float64 [2]: the perf_counter time and the node count to stop at (inf: none)


@njit(cache=True)
def _clock():
    with objmode(now="float64"):
        now = time.perf_counter()
    return now


@njit(cache=True)
def rack_value(tables, state, side):
    """What the rack of ``side`` counts at the end of the game."""
    total = np.int64(0)
    rack = state.racks[side]
    for slot in range(64):
        total += rack[slot] * tables.slot_value[slot]
    return total


@njit(cache=True)
def rack_tiles(state, side):
    total = np.int64(0)
    rack = state.racks[side]
    for slot in range(64):
        total += rack[slot]
    return total


@njit(cache=True)
def _direction(rec):
    """The step from one square of ``rec``'s main word to the next, as (rows, columns)."""
    return (0, 1) if rec[DIR] == ACROSS else (1, 0)


@njit(cache=True)
def _cell_square(rec, k):
    """The board row and column of cell ``k`` of ``rec``'s main word."""
    dr, dc = _direction(rec)
    return np.int64(rec[ROW]) + dr * k, np.int64(rec[COL]) + dc * k


@njit(cache=True)
def _tile_key(tables, square, code, blank):
    """The Zobrist key of a tile (letter ``code``, a blank or not) on ``square``."""
    return tables.square_keys[square, code + 64 * np.int64(blank)]


@njit(cache=True)
def full_key(tables, state):
    """The hash of the board and both racks, from scratch."""
    key = np.uint64(0)
    letters = state.across_letters
    rows, cols = letters.shape
    for r in range(rows):
        for c in range(cols):
            code = np.int64(letters[r, c])
            if code != 0:
                key ^= _tile_key(tables, tables.across_map[r, c], code, state.across_blanks[r, c])
    for side in range(2):
        for slot in range(64):
            key ^= tables.rack_keys[side, slot, state.racks[side, slot]]
    return key


@njit(cache=True)
def _lay(tables, state, side, rec, sign):
    """Lay the new tiles of ``rec`` from the rack of ``side`` (sign 1), or take them back (-1)."""
    rack = state.racks[side]
    key = state.key[0]
    for k in range(rec[LENGTH]):
        cell = np.int64(rec[CELLS + k])
        if cell & BOARD_FLAG:
            continue
        r, c = _cell_square(rec, k)
        code = cell & CODE_MASK
        blank = (cell & BLANK_FLAG) != 0
        slot = BLANK_SLOT if blank else code
        key ^= _tile_key(tables, tables.across_map[r, c], code, blank)
        key ^= tables.rack_keys[side, slot, rack[slot]]
        if sign > 0:
            rack[slot] -= 1
            state.across_letters[r, c] = code
            state.across_blanks[r, c] = blank
            state.down_letters[c, r] = code
            state.down_blanks[c, r] = blank
        else:
            rack[slot] += 1
            state.across_letters[r, c] = 0
            state.across_blanks[r, c] = False
            state.down_letters[c, r] = 0
            state.down_blanks[c, r] = False
        key ^= tables.rack_keys[side, slot, rack[slot]]
    state.key[0] = key


@njit(cache=True)
def play(tables, state, side, rec):
    _lay(tables, state, side, rec, 1)


@njit(cache=True)
def take_back(tables, state, side, rec):
    _lay(tables, state, side, rec, -1)


@njit(cache=True)
def generate(tables, state, side):
    """Every placement for the rack of ``side`` on the board now: the generator's buffer (grown
    when too small) and the count."""
    rows, cols = state.across_letters.shape
    return generate_along(tables, state, side, np.full(rows, cols - 1, dtype=np.int64),
                          np.full(cols, rows - 1, dtype=np.int64))  # fmt: skip


@njit(cache=True)
def generate_along(tables, state, side, across_rows, down_rows):
    """The placements of ``side`` found from an anchor of a row of the across view up to column
    ``across_rows[row]`` (-1: none), or of the down view (its rows: the board's columns) up to
    ``down_rows[column]``, as :func:`generate`."""
    across = BoardView(state.across_letters, state.across_blanks, tables.across_map, ACROSS, False, -1, -1)
    down = BoardView(state.down_letters, state.down_blanks, tables.down_map, DOWN, True, -1, -1)
    records = state.moves
    while True:
        state.generated[0] = 0
        sink = MoveSink(records, state.generated, state.no_places, state.no_values, state.no_best)
        generate_rows(tables.graph, tables.rules, across, state.racks[side], sink, across_rows)
        generate_rows(tables.graph, tables.rules, down, state.racks[side], sink, down_rows)
        n = state.generated[0]
        if n <= records.shape[0]:
            return records, n
        records = np.zeros((2 * n, RECORD_WIDTH), dtype=np.int32)


@njit(cache=True)
def placements(tables, state, side):
    """A copy of every placement for ``side`` (for the solver's first moves)."""
    records, n = generate(tables, state, side)
    return records[:n].copy()


@njit(cache=True)
def horizon_value(tables, state, side, passes):
    """A node cut at the depth limit: by a greedy playout (:func:`playout_value`), or, without
    playouts, each side charged what its rack holds (the tiles it may be left with)."""
    if tables.playout:
        return playout_value(tables, state, side, passes)
    return rack_value(tables, state, 1 - side) - rack_value(tables, state, side)


@njit(cache=True)
def _greedy_move(records, n, mine, their_value, slot_value):
    """The move a greedy player makes: the highest score plus what the move saves (going out:
    the opponent's leftovers twice; else the value of the tiles it lays), the most tiles on a
    tie, the first generated on a tie of both; -1 when there is none."""
    best, best_key = -1, -INFINITY
    for i in range(n):
        rec = records[i]
        gain = np.int64(rec[SCORE]) + 2 * their_value if rec[TILES] == mine else _move_gain(rec, slot_value)
        key = gain * 64 + rec[TILES]
        if key > best_key:
            best, best_key = i, key
    return best


@njit(cache=True)
def playout_value(tables, state, side, passes):
    """The spread for ``side`` (to move, ``passes`` passes in a row so far) to the end of the
    game when both sides play greedily (:func:`_greedy_move`, a pass when there is none), with
    the end rules: going out gains the opponent's leftovers twice, the game ending by passes
    costs each side its own.  Macondo's depth-limit estimate: far closer to the truth than the
    racks' values, so an iteration that stops early points at a better move.  The position is
    restored before it returns."""
    most = rack_tiles(state, 0) + rack_tiles(state, 1)  # each move lays a tile at least
    laid = np.empty((most, RECORD_WIDTH), dtype=np.int32)
    laid_by = np.empty(most, dtype=np.int64)
    n_laid = 0
    total = np.int64(0)
    s, sign = side, 1
    while True:
        mine = rack_tiles(state, s)
        my_value = rack_value(tables, state, s)
        their_value = rack_value(tables, state, 1 - s)
        records, n = generate(tables, state, s)
        best = _greedy_move(records, n, mine, their_value, tables.slot_value)
        if best < 0:
            passes += 1
            if passes >= tables.passes_to_end:
                total += sign * (their_value - my_value)
                break
        else:
            rec = records[best]
            total += sign * np.int64(rec[SCORE])
            if rec[TILES] == mine:
                total += sign * 2 * their_value
                break
            laid[n_laid, :] = rec
            laid_by[n_laid] = s
            n_laid += 1
            play(tables, state, s, rec)
            passes = 0
        s, sign = 1 - s, -sign
    for k in range(n_laid - 1, -1, -1):
        take_back(tables, state, laid_by[k], laid[k])
    return total


@njit(cache=True)
def _out_of_time(state):
    counters = state.counters
    if counters[ABORTED]:
        return True
    counters[CHECKS] += 1
    if counters[NODES] > state.limits[1]:
        counters[ABORTED] = 1
        return True
    # The clock is read even without a deadline: that is where Python sees a Ctrl-C.
    if counters[CHECKS] % CLOCK_EVERY == 0 and _clock() > state.limits[0]:
        counters[ABORTED] = 1
        return True
    return False


@njit(cache=True)
def _node_key(tables, state, side, passes):
    return state.key[0] ^ tables.side_keys[side] ^ tables.pass_keys[passes]


@njit(cache=True)
def _entry_check(value, flag, depth, move):
    """What a table entry's key is stored XORed with: an entry read while another thread writes
    it (the key of one write, the data of another) then fails the key test, as a miss
    (lockless hashing: the table is shared by the search threads without locks)."""
    check = np.uint64(value) * np.uint64(0x9E3779B97F4A7C15)
    check ^= np.uint64(np.int64(flag) | (np.int64(depth) << 8) | (np.int64(move) << 24)) * np.uint64(0xC2B2AE3D27D4EB4F)
    return check ^ (check >> np.uint64(31))


@njit(cache=True)
def _move_hash(tables, rec):
    """The Zobrist key of the tiles ``rec`` lays (the same move anywhere in the tree), as int64:
    its low bits are the move's history entry (:func:`_history_entry`), its high bits the
    move's id in the transposition table (:func:`_table_move`)."""
    key = np.uint64(0)
    for k in range(rec[LENGTH]):
        cell = np.int64(rec[CELLS + k])
        if cell & BOARD_FLAG == 0:
            r, c = _cell_square(rec, k)
            key ^= _tile_key(tables, tables.across_map[r, c], cell & CODE_MASK, (cell & BLANK_FLAG) != 0)
    return np.int64(key >> np.uint64(1))


@njit(cache=True)
def _history_entry(move_hash):
    return move_hash & (HISTORY_SIZE - 1)


#: The table's move of a node: a placement's id (the high bits of its hash), the pass, or none.
PASS_MOVE, NO_MOVE = -2, -1


@njit(cache=True)
def _table_move(rec, move_hash):
    """What the table keeps of a node's best move: the pass, or the placement's id (found again
    by its tiles in whatever order another line lists the node's moves)."""
    return PASS_MOVE if rec[LENGTH] == 0 else np.int32((move_hash >> 24) & 0x7FFFFFFF)


@njit(cache=True)
def _move_gain(rec, slot_value):
    """What a move that does not go out is ordered by: its score plus the values of the tiles
    it lays (they no longer count against the player at the end)."""
    gain = np.int64(rec[SCORE])
    for k in range(rec[LENGTH]):
        cell = rec[CELLS + k]
        if cell & (BOARD_FLAG | BLANK_FLAG) == 0:
            gain += slot_value[cell & CODE_MASK]
    return gain


@njit(cache=True)
def _order_key(rec, gain, history_count, mine, their_value):
    """A move's place in the order, highest first: score plus what the move saves (going out:
    the opponent's leftovers twice; else ``gain``), then the tiles laid, then the history."""
    score = np.int64(rec[SCORE]) + 2 * their_value if rec[TILES] == mine else gain
    return (score * 64 + rec[TILES]) * HISTORY_WEIGHT + min(history_count, HISTORY_WEIGHT - 1)


@njit(cache=True)
def order_moves(stack, start, n, mine, their_value, remembered, order, slot_value, history, tables):
    """Write into ``order[start:start + n]`` the order to try the node's ``n`` moves in (the
    last, index n - 1, is the pass; the solver orders the first moves with it too): the
    table's best move first, then by :func:`_order_key`; the pass last; ties in list order."""
    keys = np.empty(n, dtype=np.int64)
    for i in range(n - 1):
        rec = stack[start + i]
        seen = history[_history_entry(_move_hash(tables, rec))]
        keys[i] = _order_key(rec, _move_gain(rec, slot_value), seen, mine, their_value)
    keys[n - 1] = -INFINITY
    if 0 <= remembered < n:
        keys[remembered] = INFINITY << 10
    order[start : start + n] = np.argsort(-keys, kind="mergesort")


#: Moves of a node picked one at a time (the best left, by a scan) before the rest are sorted:
#: most nodes are cut after their first move or two, so most never pay for a sort.
PICKED_ONE_BY_ONE = 3


@njit(cache=True)
def _pick_next(keys, order, start, n, taken):
    """Put the next move to try at ``order[start + taken]``: the highest key left, ties by the
    list order (the order :func:`order_moves` gives, found lazily).  After
    :data:`PICKED_ONE_BY_ONE` picks, the rest are sorted at once."""
    if taken < PICKED_ONE_BY_ONE:
        best_i = start + taken
        best_j = order[best_i]
        for i in range(start + taken + 1, start + n):
            j = order[i]
            if keys[start + j] > keys[start + best_j] or (keys[start + j] == keys[start + best_j] and j < best_j):
                best_i, best_j = i, j
        order[best_i] = order[start + taken]
        order[start + taken] = best_j
    elif taken == PICKED_ONE_BY_ONE:
        rest = np.sort(order[start + taken : start + n])
        rest_keys = np.empty(rest.shape[0], dtype=np.int64)
        for i in range(rest.shape[0]):
            rest_keys[i] = -keys[start + rest[i]]
        order[start + taken : start + n] = rest[np.argsort(rest_keys, kind="mergesort")]


@njit(cache=True)
def _on_board(r, c, rows, cols):
    return 0 <= r < rows and 0 <= c < cols


@njit(cache=True)
def _footprint(letters, rec, out):
    """Mark in the bit set ``out`` every square where a tile laid later would change the words
    of ``rec`` on the board ``letters``: the main word's squares and one beyond each end, and
    the square beyond each end of every new tile's cross run."""
    rows, cols = letters.shape
    n = np.int64(rec[LENGTH])
    dr, dc = _direction(rec)
    for k in range(-1, n + 1):
        r, c = _cell_square(rec, k)
        if _on_board(r, c, rows, cols):
            _set_bit(out, r * cols + c)
    for k in range(n):
        if rec[CELLS + k] & BOARD_FLAG:
            continue
        r, c = _cell_square(rec, k)
        for step in (-1, 1):  # along the cross line, over its tiles, to the first empty square
            rr, cc = r + step * dc, c + step * dr
            while _on_board(rr, cc, rows, cols) and letters[rr, cc] != 0:
                rr, cc = rr + step * dc, cc + step * dr
            if _on_board(rr, cc, rows, cols):
                _set_bit(out, rr * cols + cc)


@njit(cache=True)
def _set_bit(bits, square):
    bits[square >> 6] |= np.uint64(1) << np.uint64(square & 63)


@njit(cache=True)
def _has_bit(bits, square):
    return (bits[square >> 6] >> np.uint64(square & 63)) & np.uint64(1) != 0


@njit(cache=True)
def _touches(letters, rec, placed):
    """Whether a word ``rec`` forms on the board ``letters`` holds a tile of the set ``placed``."""
    rows, cols = letters.shape
    dr, dc = _direction(rec)
    for k in range(rec[LENGTH]):
        r, c = _cell_square(rec, k)
        if _has_bit(placed, r * cols + c):
            return True
        if rec[CELLS + k] & BOARD_FLAG:
            continue
        for step in (-1, 1):
            rr, cc = r + step * dc, c + step * dr
            while _on_board(rr, cc, rows, cols) and letters[rr, cc] != 0:
                if _has_bit(placed, rr * cols + cc):
                    return True
                rr, cc = rr + step * dc, cc + step * dr
    return False


@njit(cache=True)
def _rack_fields(racks):
    """Each player's rack as a set of bits: a slot holding k tiles owns k bits, so that "a
    rack holds these tiles" is a subset test (counts of each slot filled from its lowest bit)."""
    offsets = np.full((2, 64), -1, dtype=np.int64)
    for side in range(2):
        offset = 0
        for slot in range(64):
            if racks[side, slot] > 0:
                offsets[side, slot] = offset
                offset += racks[side, slot]
    return offsets


@njit(cache=True)
def _rack_bits(rack, offsets):
    bits = np.int64(0)
    for slot in range(64):
        if rack[slot] > 0 and offsets[slot] >= 0:
            bits |= ((np.int64(1) << rack[slot]) - 1) << offsets[slot]
    return bits


@njit(cache=True)
def _move_bits(rec, offsets):
    """The tiles ``rec`` lays, as the bits of :func:`_rack_fields`."""
    counts = np.zeros(64, dtype=np.int64)
    for k in range(rec[LENGTH]):
        cell = rec[CELLS + k]
        if cell & BOARD_FLAG == 0:
            counts[BLANK_SLOT if cell & BLANK_FLAG else cell & CODE_MASK] += 1
    return _rack_bits(counts, offsets)


class NodeLists(NamedTuple):
    """Moves with what the search reads of each: the nodes of the current line, one list after
    another (or the root position's placements of one side)."""

    records: np.ndarray  # int32 [size, RECORD_WIDTH]
    prints: np.ndarray  # uint64 [size, words]: each move's _footprint
    tiles: np.ndarray  # int64: each move's tiles (_move_bits)
    gains: np.ndarray  # int64: each move's _move_gain
    hashes: np.ndarray  # int64: each move's _move_hash
    keys: np.ndarray  # int64: each move's _order_key at its node
    order: np.ndarray  # int64: the order its node tries its moves in (indexes in the node's list)


@njit(cache=True)
def _node_lists(size, words):
    return NodeLists(np.zeros((size, RECORD_WIDTH), dtype=np.int32), np.zeros((size, words), dtype=np.uint64),
                     np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                     np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64))  # fmt: skip


@njit(cache=True)
def _grown_lists(lists, needed):
    """``lists`` with room for ``needed`` moves (twice that when it must grow), contents kept."""
    size = lists.records.shape[0]
    if needed <= size:
        return lists
    bigger = _node_lists(2 * needed, lists.prints.shape[1])
    bigger.records[:size] = lists.records
    bigger.prints[:size] = lists.prints
    bigger.tiles[:size] = lists.tiles
    bigger.gains[:size] = lists.gains
    bigger.hashes[:size] = lists.hashes
    bigger.keys[:size] = lists.keys
    bigger.order[:size] = lists.order
    return bigger


@njit(cache=True)
def _describe(tables, letters, lists, at, offsets):
    """Fill in what the search reads of the move ``lists.records[at]`` on the board ``letters``."""
    rec = lists.records[at]
    lists.prints[at] = 0
    _footprint(letters, rec, lists.prints[at])
    lists.tiles[at] = _move_bits(rec, offsets)
    lists.gains[at] = _move_gain(rec, tables.slot_value)
    lists.hashes[at] = _move_hash(tables, rec)


@njit(cache=True)
def _first_moves(tables, state, side, offsets, words):
    """Every placement of ``side`` on the board of the search's root, described
    (:func:`_describe`): a later node keeps those its rack allows and no tile laid since has
    touched, and generates only the rest."""
    records, n = generate(tables, state, side)
    lists = _node_lists(n, words)
    for i in range(n):
        lists.records[i] = records[i]
        _describe(tables, state.across_letters, lists, i, offsets[side])
    return lists


@njit(cache=True)
def _keep_standing(base, base_from, base_count, lists, start, rack, recent):
    """Copy to ``lists`` from ``start`` the moves ``base[base_from:base_from + base_count]``
    that the rack (bits of :func:`_rack_bits`) still allows and whose footprints no square of
    ``recent`` touches: they stand as they were; returns how many."""
    words = recent.shape[0]
    n = 0
    for i in range(base_from, base_from + base_count):
        if base.tiles[i] & ~rack:
            continue
        clear = True
        for w in range(words):
            if base.prints[i, w] & recent[w]:
                clear = False
                break
        if clear:
            at = start + n
            lists.records[at] = base.records[i]
            lists.prints[at] = base.prints[i]
            lists.tiles[at] = base.tiles[i]
            lists.gains[at] = base.gains[i]
            lists.hashes[at] = base.hashes[i]
            n += 1
    return n


@njit(cache=True)
def _order_from(lists, history, start, first, count, mine, their_value):
    """The order keys of a node's moves ``first`` to ``count - 1`` (its list from ``start``),
    each in its own place of the order to begin with (:func:`_pick_next` orders them)."""
    for i in range(first, count):
        at = start + i
        lists.keys[at] = _order_key(lists.records[at], lists.gains[at], history[_history_entry(lists.hashes[at])],
                                    mine, their_value)  # fmt: skip
        lists.order[at] = i


@njit(cache=True)
def _add_new_moves(tables, state, side, lists, start, n, placed_squares, since, until, recent, offsets):
    """Append to a node's list (``n`` moves from ``start``) the moves generated along the lines
    that the tiles ``placed_squares[since:until]`` changed and that reach one of them, then the
    pass; returns the lists (grown if need be) and the node's count of moves."""
    _recent_squares(recent, placed_squares, since, until)
    records, n_new = state.moves, 0
    if until > since:
        across_rows, down_rows = _changed_rows(state, placed_squares[since:until], until - since)
        records, n_new = generate_along(tables, state, side, across_rows, down_rows)
    lists = _grown_lists(lists, start + n + n_new + 1)
    for i in range(n_new):
        if _touches(state.across_letters, records[i], recent):
            lists.records[start + n] = records[i]
            _describe(tables, state.across_letters, lists, start + n, offsets)
            n += 1
    lists.records[start + n] = 0  # the pass
    lists.hashes[start + n] = 0
    return lists, n + 1


@njit(cache=True)
def _recent_squares(recent, placed_squares, since, until):
    """The bit set of the squares ``placed_squares[since:until]``."""
    recent[:] = 0
    for i in range(since, until):
        _set_bit(recent, placed_squares[i])


@njit(cache=True)
def _find_move(lists, start, first, count, wanted):
    """Where the table's move ``wanted`` is among a node's moves ``first`` to ``count - 1``
    (-1: not there)."""
    for i in range(first, count):
        at = start + i
        if _table_move(lists.records[at], lists.hashes[at]) == wanted:
            return i
    return -1


@njit(cache=True)
def _changed_rows(state, placed_squares, n_placed):
    """Where a move may form a word through one of the tiles ``placed_squares[:n_placed]``, as
    the last anchor to search on each row of each view (-1: none): on the tile's row (column),
    a move holding the tile holds its whole run of tiles, so its first anchor is at most the
    square past the run's end; on the row (column) of the first empty square past the tiles
    beside it the other way, a move's cross word reaches the tile only through a new tile on
    that square, which is an anchor.  (The generator finds each move from its first anchor.)"""
    letters = state.across_letters
    rows, cols = letters.shape
    across = np.full(rows, -1, dtype=np.int64)
    down = np.full(cols, -1, dtype=np.int64)
    for i in range(n_placed):
        r, c = placed_squares[i] // cols, placed_squares[i] % cols
        end = c
        while end + 1 < cols and letters[r, end + 1] != 0:
            end += 1
        across[r] = max(across[r], min(end + 1, cols - 1))
        end = r
        while end + 1 < rows and letters[end + 1, c] != 0:
            end += 1
        down[c] = max(down[c], min(end + 1, rows - 1))
        for step in (-1, 1):
            rr = r + step
            while 0 <= rr < rows and letters[rr, c] != 0:
                rr += step
            if 0 <= rr < rows:
                across[rr] = max(across[rr], c)
            cc = c + step
            while 0 <= cc < cols and letters[r, cc] != 0:
                cc += step
            if 0 <= cc < cols:
                down[cc] = max(down[cc], r)
    return across, down


@njit(cache=True)
def _track(rec, cols, placed_squares, n_placed, sign):
    """Add the squares ``rec`` lays to the tiles laid since the root (sign 1) or take them off;
    returns the new count (the squares are a stack: moves are taken back in reverse order)."""
    for k in range(rec[LENGTH]):
        if rec[CELLS + k] & BOARD_FLAG:
            continue
        if sign > 0:
            r, c = _cell_square(rec, k)
            placed_squares[n_placed] = r * cols + c
            n_placed += 1
        else:
            n_placed -= 1
    return n_placed


@njit(cache=True, nogil=True)
def search_root(tables, state, moves, order, depth, keep, side, passes, values, exact):
    """Value the first ``moves`` (records; LENGTH 0 is the pass) in ``order`` to ``depth``
    plies, for ``side`` to move after ``passes`` passes in a row: the best ``keep`` get their
    value exactly (``exact`` set), the others a bound at most the ``keep``-th best.  Moves not
    reached before the deadline keep their ``values``.

    Below the first moves: negamax with alpha-beta (fail-soft), a null window for every move
    after a node's first (searched again in full when it beats alpha), and the table.

    A node's moves are those of a *base* list that still stand as they were (the last node of
    the same side on the line, or the root position's placements) and the ones that reach a
    tile laid since the base, generated along the lines those tiles changed.  Generating is
    most of a node's cost and nine nodes in ten are cut by their first move, so a node first
    tries the best of the moves that stand, and generates the others only if that move does
    not cut it (or at once when the table's move is not among them).  A node whose first move
    is still being searched holds only the moves that stand: a later node of the same side
    then takes it as its base with the node's own base's tiles (the same moves)."""
    counters = state.counters
    n_root = moves.shape[0]
    rows, cols = state.across_letters.shape
    words = (rows * cols + 63) // 64
    lists = _node_lists(max(4 * n_root, PLY_CAPACITY), words)
    lists.records[:n_root] = moves
    lists.order[:n_root] = order
    f_side = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_passes = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_depth = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_alpha = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_beta = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_alpha0 = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_best = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_best_move = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_key = np.zeros(MAX_PLY + 1, dtype=np.uint64)
    f_slot = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_horizon = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_start = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_count = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_next = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_mine = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_my_value = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_their_value = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_move = np.zeros(MAX_PLY + 1, dtype=np.int64)  # the move being searched (index in the node's list)
    f_score = np.zeros(MAX_PLY + 1, dtype=np.int64)
    f_played = np.zeros(MAX_PLY + 1, dtype=np.bool_)  # its tiles are on the board
    f_probe = np.zeros(MAX_PLY + 1, dtype=np.bool_)  # it was searched with a null window
    f_placed = np.zeros(MAX_PLY + 1, dtype=np.int64)  # tiles laid since the root when the node was entered
    f_since = np.zeros(MAX_PLY + 1, dtype=np.int64)  # tiles laid since the root when its base list was made
    f_pending = np.zeros(MAX_PLY + 1, dtype=np.bool_)  # its new moves are not generated yet
    top = np.full(keep, -INFINITY, dtype=np.int64)  # the root's best values so far, highest first
    offsets = _rack_fields(state.racks)
    first_0 = _first_moves(tables, state, 0, offsets, words)
    first_1 = _first_moves(tables, state, 1, offsets, words)
    placed_squares = np.zeros(rows * cols, dtype=np.int64)  # the same in the order laid
    n_placed = 0
    recent = np.zeros(words, dtype=np.uint64)  # the squares laid since a node's base (scratch)

    f_side[0] = side
    f_passes[0] = passes
    f_depth[0] = depth
    f_count[0] = n_root
    f_mine[0] = rack_tiles(state, side)
    f_my_value[0] = rack_value(tables, state, side)
    f_their_value[0] = rack_value(tables, state, 1 - side)
    f_beta[0] = INFINITY
    p = 0
    child_value = np.int64(0)
    step = NEXT
    while True:
        if step == ENTER:  # the node at ply p: its side, passes, depth and window are set
            counters[NODES] += 1
            if _out_of_time(state):
                break
            s = f_side[p]
            if f_depth[p] <= 0:
                counters[HORIZON] += 1
                child_value = horizon_value(tables, state, s, f_passes[p])
                p -= 1
                step = RESULT
                continue
            key = _node_key(tables, state, s, f_passes[p])
            slot = np.int64(key & np.uint64(state.tt_key.shape[0] - 1))
            wanted = NO_MOVE
            value = state.tt_value[slot]
            flag = state.tt_flag[slot]
            stored = state.tt_depth[slot]
            move = state.tt_move[slot]
            if state.tt_key[slot] ^ _entry_check(value, flag, stored, move) == key:
                wanted = move
                if stored >= f_depth[p]:
                    if (flag == EXACT or (flag == LOWER and value >= f_beta[p])
                            or (flag == UPPER and value <= f_alpha[p])):  # fmt: skip
                        if stored != SOLVED:
                            counters[HORIZON] += 1
                        child_value = value
                        p -= 1
                        step = RESULT
                        continue
            f_key[p] = key
            f_slot[p] = slot
            f_horizon[p] = counters[HORIZON]
            f_mine[p] = rack_tiles(state, s)
            f_my_value[p] = rack_value(tables, state, s)
            f_their_value[p] = rack_value(tables, state, 1 - s)
            # The moves that stand, from the base list.
            start = f_start[p - 1] + f_count[p - 1]
            f_placed[p] = n_placed
            if p >= 3:
                base, base_from, base_count = lists, f_start[p - 2], f_count[p - 2]
                if f_pending[p - 2]:  # it holds its base's moves that stand, no pass yet
                    f_since[p] = f_since[p - 2]
                else:
                    base_count -= 1  # not its pass
                    f_since[p] = f_placed[p - 2]
            else:
                base = first_0 if s == 0 else first_1
                base_from, base_count = 0, base.records.shape[0]
                f_since[p] = 0
            lists = _grown_lists(lists, start + base_count + 1)
            if p >= 3:
                base = lists
            _recent_squares(recent, placed_squares, f_since[p], n_placed)
            rack = _rack_bits(state.racks[s], offsets[s])
            n = _keep_standing(base, base_from, base_count, lists, start, rack, recent)
            remembered = -1
            if wanted >= 0:
                remembered = _find_move(lists, start, 0, n, wanted)
            f_start[p] = start
            f_pending[p] = n > 0 and (wanted == NO_MOVE or remembered >= 0) and f_depth[p] <= LAZY_DEPTH
            if f_pending[p]:
                f_count[p] = n
            else:
                lists, f_count[p] = _add_new_moves(tables, state, s, lists, start, n, placed_squares, f_since[p],
                                                   n_placed, recent, offsets[s])  # fmt: skip
                if wanted == PASS_MOVE:
                    remembered = f_count[p] - 1
                elif wanted >= 0 and remembered < 0:
                    remembered = _find_move(lists, start, n, f_count[p], wanted)
            _order_from(lists, state.history, start, 0, f_count[p], f_mine[p], f_their_value[p])
            if not f_pending[p]:
                lists.keys[start + f_count[p] - 1] = -INFINITY  # the pass, last
            if remembered >= 0:
                lists.keys[start + remembered] = INFINITY << 10
            f_next[p] = 0
            f_best[p] = -INFINITY
            f_best_move[p] = -1
            f_alpha0[p] = f_alpha[p]
            step = NEXT
            continue

        if step == NEXT:  # try the next move of the node at ply p, or finish it
            if f_pending[p] and f_next[p] > 0:  # its first move did not cut it: the moves reaching new tiles too
                n = f_count[p]
                lists, f_count[p] = _add_new_moves(tables, state, f_side[p], lists, f_start[p], n, placed_squares,
                                                   f_since[p], f_placed[p], recent, offsets[f_side[p]])  # fmt: skip
                _order_from(lists, state.history, f_start[p], n, f_count[p], f_mine[p], f_their_value[p])
                lists.keys[f_start[p] + f_count[p] - 1] = -INFINITY
                f_pending[p] = False
            if f_next[p] == f_count[p]:
                if p == 0:
                    break
                flag = UPPER if f_best[p] <= f_alpha0[p] else LOWER if f_best[p] >= f_beta[p] else EXACT
                slot = f_slot[p]
                stored = SOLVED if counters[HORIZON] == f_horizon[p] else f_depth[p]
                at = f_start[p] + f_best_move[p]
                best_move = _table_move(lists.records[at], lists.hashes[at])
                state.tt_key[slot] = f_key[p] ^ _entry_check(f_best[p], flag, stored, best_move)
                state.tt_value[slot] = f_best[p]
                state.tt_flag[slot] = flag
                state.tt_depth[slot] = stored
                state.tt_move[slot] = best_move
                child_value = f_best[p]
                p -= 1
                step = RESULT
                continue
            if p > 0:
                _pick_next(lists.keys, lists.order, f_start[p], f_count[p], f_next[p])
            j = lists.order[f_start[p] + f_next[p]]
            f_next[p] += 1
            f_move[p] = j
            if p == 0:
                f_alpha[0] = top[keep - 1] - 1  # values tying the keep-th best are found exactly too
            # A null window for every move after the first: only whether it beats alpha.
            f_probe[p] = f_next[p] > 1 and f_alpha[p] > -INFINITY and f_beta[p] > f_alpha[p] + 1
            beta = f_alpha[p] + 1 if f_probe[p] else f_beta[p]
            rec = lists.records[f_start[p] + j]
            f_played[p] = False
            if rec[LENGTH] == 0:
                f_score[p] = 0
                if f_passes[p] + 1 >= tables.passes_to_end:  # the game ends by passes
                    child_value = f_my_value[p] - f_their_value[p]
                    f_probe[p] = False
                    step = RESULT
                    continue
                q = p + 1
                f_passes[q] = f_passes[p] + 1
                f_alpha[q] = -beta
                f_beta[q] = -f_alpha[p]
            else:
                score = np.int64(rec[SCORE])
                f_score[p] = score
                if rec[TILES] == f_mine[p]:  # out: the game ends here
                    child_value = -2 * f_their_value[p]
                    f_probe[p] = False
                    step = RESULT
                    continue
                play(tables, state, f_side[p], rec)
                n_placed = _track(rec, cols, placed_squares, n_placed, 1)
                f_played[p] = True
                q = p + 1
                f_passes[q] = 0
                f_alpha[q] = score - beta
                f_beta[q] = score - f_alpha[p]
            f_side[q] = 1 - f_side[p]
            f_depth[q] = f_depth[p] - 1
            p = q
            step = ENTER
            continue

        # step == RESULT: the value of the move at ply p came back (for its opponent)
        value = f_score[p] - child_value
        if f_probe[p] and value > f_alpha[p] and (p == 0 or value < f_beta[p]):
            f_probe[p] = False  # it beats alpha: search it again with the whole window
            q = p + 1
            if f_played[p]:
                f_passes[q] = 0
                f_alpha[q] = f_score[p] - f_beta[p]
            else:
                f_passes[q] = f_passes[p] + 1
                f_alpha[q] = -f_beta[p]
            f_beta[q] = f_score[p] - f_alpha[p]
            f_side[q] = 1 - f_side[p]
            f_depth[q] = f_depth[p] - 1
            p = q
            step = ENTER
            continue
        if f_played[p]:
            rec = lists.records[f_start[p] + f_move[p]]
            take_back(tables, state, f_side[p], rec)
            n_placed = _track(rec, cols, placed_squares, n_placed, -1)
            f_played[p] = False
        if p == 0:
            j = f_move[0]
            values[j] = value
            exact[j] = value > f_alpha[0]
            if value > top[keep - 1]:
                k = keep - 1
                while k > 0 and top[k - 1] < value:
                    top[k] = top[k - 1]
                    k -= 1
                top[k] = value
            step = NEXT
            continue
        if value > f_best[p]:
            f_best[p] = value
            f_best_move[p] = f_move[p]
            if value > f_alpha[p]:
                f_alpha[p] = value
                if value >= f_beta[p]:
                    f_pending[p] = False  # cut: no other move can change the parent's choice
                    f_next[p] = f_count[p]
                    at = f_start[p] + f_move[p]
                    if lists.records[at][LENGTH] > 0:
                        state.history[_history_entry(lists.hashes[at])] += f_depth[p] * f_depth[p]
        step = NEXT

    # Out of time: take back every move still on the board.
    while p >= 0:
        if f_played[p]:
            take_back(tables, state, f_side[p], lists.records[f_start[p] + f_move[p]])
            f_played[p] = False
        p -= 1
