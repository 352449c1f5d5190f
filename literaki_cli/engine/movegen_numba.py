"""The numba kernels of the move generator: the oracle of the Rust core (``literaki_cli._core``),
and what the kernels still compiled with numba call (the rollouts, the endgame search) until they
move to the core too.  See :mod:`literaki_cli.engine.movegen` for the method, the record layout
and the bundles (:class:`KernelRules`, :class:`BoardView`, :class:`LexiconGraph`) they read.

Kept apart so that a command that only generates moves never imports numba."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from literaki_cli.engine import jitcache, wordgraph
from literaki_cli.engine.movegen import (
    ALL_LETTERS,
    ANCHOR_RANK,
    AS_BLANK,
    AS_TILE,
    BEST_EQUITY,
    BEST_RANK,
    BLANK_FLAG,
    BLANK_SLOT,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    COL,
    DIR,
    LENGTH,
    MAX_WORD,
    RECORD_WIDTH,
    ROW,
    SCORE,
    TILES,
)
from literaki_cli.engine.variant import END, START
from literaki_cli.engine.wordgraph import ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT, SEPARATOR


class CrossChecks(NamedTuple):
    """Per empty square of a view: the letters allowed there and the cross word a tile there makes."""

    mask: np.ndarray  # uint32 letter masks (bit code-1)
    base: np.ndarray  # int64 base score of the cross word's other tiles; -1: no cross word
    mult: np.ndarray  # int64 the cross word's multiplier for a new tile there


class MoveSink(NamedTuple):
    """Where the kernels write move records; ``count`` may pass the capacity (then retry bigger).

    With leave values (``values`` not empty) only the best move by equity is kept, in row 0:
    equity = score + ``values[index]``, the index of the move's leave among the rack's
    sub-multisets (the whole rack's number minus ``place`` of every tile laid; see
    :func:`literaki_cli.equity.leaves.rack_places`), and ``best`` holds its equity."""

    records: np.ndarray  # int32 [capacity, RECORD_WIDTH]
    count: np.ndarray  # int64 [1]
    place: np.ndarray  # int64 [64]: a tile slot's place value in the leave numbering (best-only mode)
    values: np.ndarray  # float64: the value of each leave by number; empty: every move is written
    best: np.ndarray  # float64 [3] (best-only mode): BEST_EQUITY, BEST_RANK, ANCHOR_RANK (see _best_move)


class Frames(NamedTuple):
    """The explicit stack of :func:`_search_anchor`, allocated once per view and reused by every
    anchor (one allocation per anchor cost more than a small rack's whole search)."""

    taken: np.ndarray  # the rack slot of the tile the frame laid last (-1: none), given back when it resumes
    col: np.ndarray
    p: np.ndarray
    kind: np.ndarray
    left: np.ndarray
    tiles: np.ndarray
    sum: np.ndarray
    mult: np.ndarray
    cross: np.ndarray


# --------------------------------------------------------------------------- compiled kernels


@njit(cache=True)
def _frames(depth):
    return Frames(np.full(depth, -1, dtype=np.int64), np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
                  np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
                  np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64))


_find = wordgraph.compiled(wordgraph.find_arc)


@njit(cache=True)
def _cross_checks(graph, rules, view):
    """The :class:`CrossChecks` of a view (cross words run along its columns)."""
    return _cross_checks_rows(graph, rules, view, np.ones(view.letters.shape[0], dtype=np.bool_), ALL_LETTERS)


@njit(cache=True)
def _completes(arcs, arc, letters, c, first, bottom):
    """Whether the DAWG ``arc`` (a letter after the tiles above) followed by the tiles of
    column ``c`` from row ``first`` to ``bottom`` ends a word."""
    if first > bottom:
        return (arc & ACCEPTS_BIT) != 0
    q = np.int64(arc & INDEX_MASK)
    for k in range(first, bottom + 1):
        pk = _find(arcs, q, letters[k, c])
        if pk < 0:
            return False
        if k == bottom:
            return (arcs[pk] & ACCEPTS_BIT) != 0
        q = np.int64(arcs[pk] & INDEX_MASK)
    return False


@njit(cache=True)
def _cross_checks_rows(graph, rules, view, wanted, fits):
    """The :class:`CrossChecks` of the ``wanted`` rows of a view (other rows: left open), for
    the letters of ``fits`` (a mask; the others are left out)."""
    letters = view.letters
    blanks = view.blanks
    arcs = graph.arcs
    cross_dir = 1 - view.main_dir
    rows, cols = letters.shape
    mask = np.full((rows, cols), ALL_LETTERS, dtype=np.uint32)
    base = np.full((rows, cols), -1, dtype=np.int64)
    mult = np.ones((rows, cols), dtype=np.int64)
    for r in range(rows):
        if not wanted[r]:
            continue
        for c in range(cols):
            if letters[r, c] != 0:
                continue
            top = r
            while top > 0 and letters[top - 1, c] != 0:
                top -= 1
            bottom = r
            while bottom < rows - 1 and letters[bottom + 1, c] != 0:
                bottom += 1
            if top == r and bottom == r:
                continue
            sq = view.sqmap[r, c]
            total = 0
            for k in range(top, bottom + 1):
                if k != r and not blanks[k, c]:
                    total += rules.tile_value[letters[k, c]]
            base[r, c] = total
            m = rules.word_mult[sq]
            if top == r:
                m *= rules.end_mult[cross_dir, START, sq]
            if bottom == r:
                m *= rules.end_mult[cross_dir, END, sq]
            mult[r, c] = m
            allowed = np.uint32(0)
            length = bottom - top + 1
            if length < rules.min_word or length > rules.max_word:
                mask[r, c] = allowed
                continue
            # Walk the tiles above, then try each letter followed by the tiles below.
            node = graph.dawg_root
            ok = True
            for k in range(top, r):
                p = _find(arcs, node, letters[k, c])
                if p < 0:
                    ok = False
                    break
                node = np.int64(arcs[p] & INDEX_MASK)
            if ok and node != 0 and fits == ALL_LETTERS:
                p = node
                while True:
                    arc = arcs[p]
                    letter = np.int64(arc >> LETTER_SHIFT)
                    if 1 <= letter <= 32 and _completes(arcs, arc, letters, c, r + 1, bottom):
                        allowed |= np.uint32(1) << np.uint32(letter - 1)
                    if arc & END_BIT:
                        break
                    p += 1
            elif ok and node != 0:  # only the letters the rack has: far fewer walks
                for letter in range(1, 33):
                    if (fits >> np.uint32(letter - 1)) & np.uint32(1):
                        p = _find(arcs, node, letter)
                        if p >= 0 and _completes(arcs, arcs[p], letters, c, r + 1, bottom):
                            allowed |= np.uint32(1) << np.uint32(letter - 1)
            mask[r, c] = allowed
    return CrossChecks(mask, base, mult)


@njit(cache=True)
def leave_number(cells, start, stop, place, whole):
    """The number of a move's leave among the rack's sub-multisets (see
    :func:`literaki_cli.equity.leaves.rack_places`): the whole rack's number ``whole`` minus the
    place value of every tile the move lays in ``cells[start:stop]`` (a blank in slot 0)."""
    index = whole
    for k in range(start, stop):
        cell = cells[k]
        if cell & BOARD_FLAG == 0:
            index -= place[BLANK_SLOT] if cell & BLANK_FLAG else place[cell & CODE_MASK]
    return index


@njit(cache=True)
def _record(rules, view, sink, r, left, right, tiles_used, main_sum, main_mult, cross_total, cells, leave):
    """Write one move (the main word spans ``left..right`` of view row ``r``) if the rules allow it
    (``leave``: the number of its leave, read in best-only mode)."""
    length = right - left + 1
    if length < rules.min_word or length > rules.max_word:
        return
    if view.start_row >= 0 and tiles_used < rules.first_move_min_tiles:
        return
    mult = main_mult
    if cells[left] & BOARD_FLAG == 0:
        mult *= rules.end_mult[view.main_dir, START, view.sqmap[r, left]]
    if cells[right] & BOARD_FLAG == 0:
        mult *= rules.end_mult[view.main_dir, END, view.sqmap[r, right]]
    score = main_sum * mult + cross_total
    if tiles_used == rules.bingo_tiles:
        score += rules.bingo_bonus
    out = sink.records
    n = sink.count[0]
    if sink.values.shape[0] > 0:  # best only: keep this move if its equity beats the best so far
        equity = score + sink.values[leave]
        best = sink.best
        if n > 0 and (equity < best[BEST_EQUITY]
                      or (equity == best[BEST_EQUITY] and best[ANCHOR_RANK] >= best[BEST_RANK])):  # fmt: skip
            return
        best[BEST_EQUITY] = equity
        best[BEST_RANK] = best[ANCHOR_RANK]
        n = 0
        out[0, CELLS:] = 0  # the cells of a longer move kept before
    if n < out.shape[0]:
        out[n, SCORE] = score
        if view.transposed:
            out[n, ROW] = left
            out[n, COL] = r
        else:
            out[n, ROW] = r
            out[n, COL] = left
        out[n, DIR] = view.main_dir
        out[n, LENGTH] = length
        out[n, TILES] = tiles_used
        for k in range(left, right + 1):
            out[n, CELLS + k - left] = cells[k]
    sink.count[0] = n + 1


@njit(cache=True)
def _search_anchor(graph, rules, view, cross, sink, rack, cells, frames, r, anchor, last_anchor, blank_bound):
    """Every play through the anchor (r, anchor): a depth-first walk of the GADDAG with an
    explicit stack (numba cannot cache recursive functions).  Reads leftwards from the anchor
    while col <= anchor, then, after the separator, rightwards from anchor + 1.

    Each stack frame is a square and the GADDAG list to read there, with the score so far and
    where to resume among its candidate letters; a frame that laid a rack tile gives it back
    when it resumes (everything built on that tile has then been explored).  A branch stops as
    soon as its word would pass the longest word the rules allow.

    ``blank_bound`` bounds the equity of every move from here that lays a blank (+inf: no
    bound): in best-only mode, once the best found beats it (or ties it from an anchor of a
    lower rank), the walk stops trying blanks: the moves it would find are refused anyway."""
    arcs = graph.arcs
    letters = view.letters
    blanks = view.blanks
    cmask = cross.mask
    cbase = cross.base
    cmult = cross.mult
    max_word = rules.max_word
    tile_value = rules.tile_value
    new_value = rules.new_value
    word_mult = rules.word_mult
    sqmap = view.sqmap
    transposed = view.transposed
    cols = letters.shape[1]
    f_taken = frames.taken
    f_col = frames.col
    f_p = frames.p  # next arc to try (-1: exhausted)
    f_kind = frames.kind  # next way to try at that arc: AS_TILE, then AS_BLANK
    f_left = frames.left
    f_tiles = frames.tiles
    f_sum = frames.sum
    f_mult = frames.mult
    f_cross = frames.cross
    sp = 1
    f_taken[0] = -1
    f_tiles[0] = 0
    f_sum[0] = 0
    f_cross[0] = 0
    f_col[0] = anchor
    f_p[0] = graph.gaddag_root
    f_kind[0] = AS_TILE
    f_left[0] = anchor
    f_mult[0] = 1
    best = sink.best
    cut_blanks = sink.values.shape[0] > 0 and blank_bound < np.inf  # best-only mode, with a bound
    place = sink.place
    leave = sink.values.shape[0] - 1  # the leave number of the tiles still on the rack (best-only mode)
    on_rack = np.uint32(0)  # the letters the rack still holds (kept as tiles are laid and taken back)
    for letter in range(1, 33):
        if rack[letter] > 0:
            on_rack |= np.uint32(1) << np.uint32(letter - 1)
    while sp > 0:
        t = sp - 1
        if f_taken[t] >= 0:  # back from the branch built on this frame's tile
            code = f_taken[t]
            if code != BLANK_SLOT and rack[code] == 0:
                on_rack |= np.uint32(1) << np.uint32(code - 1)
            rack[code] += 1
            leave += place[code]
            f_taken[t] = -1
        col = f_col[t]
        on_board = np.int64(letters[r, col])
        cand = -1
        kind = 0
        if on_board != 0:
            if f_p[t] > 0:
                cand = _find(arcs, f_p[t], on_board)
            f_p[t] = -1
        else:
            p = f_p[t]
            kind = f_kind[t]
            allowed = cmask[r, col] if rack[BLANK_SLOT] > 0 else cmask[r, col] & on_rack
            while p > 0:
                arc = arcs[p]
                letter = np.int64(arc >> LETTER_SHIFT)
                if letter != SEPARATOR:
                    fits = allowed >> np.uint32(letter - 1)
                    if fits == 0:
                        break  # the arcs run in letter order: no later one can stand here
                    if fits & np.uint32(1):
                        while kind <= AS_BLANK:
                            if kind == AS_TILE and rack[letter] > 0:
                                break
                            if kind == AS_BLANK and rack[BLANK_SLOT] > 0 and not (
                                cut_blanks and sink.count[0] > 0 and (blank_bound < best[BEST_EQUITY] or (
                                    blank_bound == best[BEST_EQUITY] and best[ANCHOR_RANK] > best[BEST_RANK]))):
                                break
                            kind += 1
                        if kind <= AS_BLANK:
                            cand = p
                            break
                if arc & END_BIT:
                    break
                p += 1
                kind = AS_TILE
            if cand > 0:
                f_p[t] = cand
                f_kind[t] = kind + 1
            else:
                f_p[t] = -1
        if cand <= 0:
            sp -= 1
            continue
        arc = arcs[cand]
        letter = np.int64(arc >> LETTER_SHIFT)
        n_sum = f_sum[t]
        n_mult = f_mult[t]
        n_cross = f_cross[t]
        n_tiles = f_tiles[t]
        if on_board != 0:
            if not blanks[r, col]:
                n_sum += tile_value[on_board]
            cells[col] = on_board | BOARD_FLAG | (BLANK_FLAG if blanks[r, col] else 0)
        else:
            sq = sqmap[r, col]
            value = new_value[sq, letter] if kind == AS_TILE else 0
            cells[col] = letter | (BLANK_FLAG if kind == AS_BLANK else 0)
            n_sum += value
            n_mult *= word_mult[sq]
            if cbase[r, col] >= 0:
                n_cross += (cbase[r, col] + value) * cmult[r, col]
            n_tiles += 1
            code = letter if kind == AS_TILE else BLANK_SLOT
            rack[code] -= 1
            leave -= place[code]
            if code != BLANK_SLOT and rack[code] == 0:
                on_rack &= ~(np.uint32(1) << np.uint32(code - 1))
            f_taken[t] = code
        accepts = (arc & ACCEPTS_BIT) != 0
        nxt = np.int64(arc & INDEX_MASK)
        single_both_ways = transposed and n_tiles == 1 and cbase[r, anchor] >= 0
        if col <= anchor:
            left_free = col == 0 or letters[r, col - 1] == 0
            right_free = anchor == cols - 1 or letters[r, anchor + 1] == 0
            if accepts and left_free and right_free and n_tiles > 0 and not single_both_ways:
                _record(rules, view, sink, r, col, anchor, n_tiles, n_sum, n_mult, n_cross, cells, leave)
            if nxt != 0:
                if left_free and anchor + 1 < cols and anchor + 1 - col < max_word:
                    sep = _find(arcs, nxt, SEPARATOR)
                    if sep > 0 and (arcs[sep] & INDEX_MASK) != 0:
                        f_taken[sp] = -1
                        f_col[sp] = anchor + 1
                        f_p[sp] = np.int64(arcs[sep] & INDEX_MASK)
                        f_kind[sp] = AS_TILE
                        f_left[sp] = col
                        f_tiles[sp] = n_tiles
                        f_sum[sp] = n_sum
                        f_mult[sp] = n_mult
                        f_cross[sp] = n_cross
                        sp += 1
                if col > 0 and (letters[r, col - 1] != 0 or col - 1 > last_anchor) and anchor - col + 1 < max_word:
                    f_taken[sp] = -1
                    f_col[sp] = col - 1
                    f_p[sp] = nxt
                    f_kind[sp] = AS_TILE
                    f_left[sp] = col - 1
                    f_tiles[sp] = n_tiles
                    f_sum[sp] = n_sum
                    f_mult[sp] = n_mult
                    f_cross[sp] = n_cross
                    sp += 1
        else:
            right_free = col == cols - 1 or letters[r, col + 1] == 0
            if accepts and right_free and n_tiles > 0 and not single_both_ways:
                _record(rules, view, sink, r, f_left[t], col, n_tiles, n_sum, n_mult, n_cross, cells, leave)
            if nxt != 0 and col + 1 < cols and col + 1 - f_left[t] < max_word:
                f_taken[sp] = -1
                f_col[sp] = col + 1
                f_p[sp] = nxt
                f_kind[sp] = AS_TILE
                f_left[sp] = f_left[t]
                f_tiles[sp] = n_tiles
                f_sum[sp] = n_sum
                f_mult[sp] = n_mult
                f_cross[sp] = n_cross
                sp += 1


@njit(cache=True)
def _is_anchor(view, r, c):
    """An empty square next to a tile (on an empty board: the start square), where plays are sought."""
    letters = view.letters
    if letters[r, c] != 0:
        return False
    if view.start_row >= 0:
        return r == view.start_row and c == view.start_col
    rows, cols = letters.shape
    return ((c > 0 and letters[r, c - 1] != 0) or (c < cols - 1 and letters[r, c + 1] != 0)
            or (r > 0 and letters[r - 1, c] != 0) or (r < rows - 1 and letters[r + 1, c] != 0))  # fmt: skip


@njit(cache=True)
def _rack_letters(rack):
    """The letters a rack tile can stand for, as a cross-check mask (a blank: every letter)."""
    if rack[BLANK_SLOT] > 0:
        return ALL_LETTERS
    fits = np.uint32(0)
    for letter in range(1, 33):
        if rack[letter] > 0:
            fits |= np.uint32(1) << np.uint32(letter - 1)
    return fits


@njit(cache=True)
def _generate_view(graph, rules, view, rack, sink):
    """Every move whose main word runs along the rows of ``view``."""
    rows, cols = view.letters.shape
    generate_rows(graph, rules, view, rack, sink, np.full(rows, cols - 1, dtype=np.int64))


@njit(cache=True)
def generate_rows(graph, rules, view, rack, sink, last_anchors):
    """Every move whose main word runs along a row of ``view`` and whose first anchor (the move
    is found from it) lies at most at column ``last_anchors[row]`` (-1: none on that row).  The
    endgame search asks only for the rows its last moves changed, and on each only for the
    anchors from which a move can reach the new tiles."""
    letters = view.letters
    rows, cols = letters.shape
    fits = _rack_letters(rack)
    cross = _cross_checks_rows(graph, rules, view, last_anchors >= 0, fits)
    cells = np.zeros(cols, dtype=np.int64)
    frames = _frames(8 * cols + 16)
    for r in range(rows):
        last_anchor = -1
        for c in range(last_anchors[r] + 1):
            if not _is_anchor(view, r, c):
                continue
            if cross.mask[r, c] & fits:  # a move from here lays its first tile on the anchor
                _search_anchor(graph, rules, view, cross, sink, rack, cells, frames, r, c, last_anchor, np.inf)
            last_anchor = c


@njit(cache=True)
def _square_best(rules, view, cross, rack, present, r, c):
    """The most a new tile from ``rack`` can score on view square (r, c) in the main word (-1: no
    rack tile may stand there), and the most its cross word can score (``present``: the letters
    on the rack)."""
    sq = view.sqmap[r, c]
    allowed = cross.mask[r, c]
    best = np.int64(-1)
    if rack[BLANK_SLOT] > 0 and allowed != 0:
        best = 0
    for letter in present:
        if (allowed >> np.uint32(letter - 1)) & np.uint32(1):
            v = rules.new_value[sq, letter]
            if v > best:
                best = v
    cross_best = np.int64(0)
    if best >= 0 and cross.base[r, c] >= 0:
        cross_best = (cross.base[r, c] + best) * cross.mult[r, c]
    return best, cross_best


@njit(cache=True)
def _anchor_bound(rules, view, cross, rack, tiles_on_rack, square_best, cross_best, leave_bound, r, anchor,
                  last_anchor, tile_cap, blank_leave_bound):  # fmt: skip
    """An upper bound of the equity of every move :func:`_search_anchor` finds from this anchor
    ("shadow" bounds, as wolges and MAGPIE prune top-move searches): over every span the move's
    main word could cover, the board tiles' values plus the best value each new square can take,
    times the span's multipliers, plus each new square's best cross word, the bingo bonus, and
    the best leave the rack keeps after laying that many tiles.  -inf: no move from here.

    The new tiles' part of the main word is also bounded tile by tile: each rack tile is laid
    once, so k new tiles add at most ``tile_cap[k]``, the sum of the k largest of the rack's
    tiles' best values on any square; the smaller of the two counts (with one red tile on a
    rack, a span over three red squares no longer counts it three times).  Returns (the
    square-by-square bound, the tighter bound, the bound of the moves that lay a blank): the
    first ranks the anchors for ties (see :func:`_best_move`), the second orders and cuts the
    search, the third cuts its blanks.  A move that lays k tiles, a blank among them, adds at
    most the k - 1 best of the rest (the blank is worth 0) and keeps a leave with fewer blanks
    (``blank_leave_bound``: the best such leave after laying k tiles; all -inf without a blank)."""
    letters = view.letters
    blanks = view.blanks
    cols = letters.shape[1]
    sqmap = view.sqmap
    lowest = anchor  # the leftmost square the search may reach (see _search_anchor)
    while lowest > 0 and (letters[r, lowest - 1] != 0 or lowest - 1 > last_anchor):
        lowest -= 1
    bound = -np.inf
    tight = -np.inf
    with_blank = -np.inf
    for left in range(anchor, lowest - 1, -1):
        if left > 0 and letters[r, left - 1] != 0:
            continue  # the word would not start here
        board_sum = np.int64(0)
        new_sum = np.int64(0)
        mult = np.int64(1)
        cross_sum = np.int64(0)
        new = 0
        ok = True
        for k in range(left, anchor):  # the part left of the anchor is fixed by ``left``
            if letters[r, k] != 0:
                if not blanks[r, k]:
                    board_sum += rules.tile_value[letters[r, k]]
            else:
                if square_best[r, k] < 0:
                    ok = False
                    break
                new += 1
                new_sum += square_best[r, k]
                mult *= rules.word_mult[sqmap[r, k]]
                cross_sum += cross_best[r, k]
        if not ok or new > tiles_on_rack:
            continue
        for right in range(anchor, cols):
            if letters[r, right] != 0:
                if not blanks[r, right]:
                    board_sum += rules.tile_value[letters[r, right]]
            else:
                if square_best[r, right] < 0 or new == tiles_on_rack:
                    break
                new += 1
                new_sum += square_best[r, right]
                mult *= rules.word_mult[sqmap[r, right]]
                cross_sum += cross_best[r, right]
            if right < cols - 1 and letters[r, right + 1] != 0:
                continue  # the word would not end here
            length = right - left + 1
            if length > rules.max_word:
                break
            if length < rules.min_word or new == 0:
                continue
            m = mult
            if letters[r, left] == 0:
                m *= rules.end_mult[view.main_dir, START, sqmap[r, left]]
            if letters[r, right] == 0:
                m *= rules.end_mult[view.main_dir, END, sqmap[r, right]]
            score = (board_sum + new_sum) * m + cross_sum
            if new == rules.bingo_tiles:
                score += rules.bingo_bonus
            value = score + leave_bound[new]
            if value > bound:
                bound = value
            if tile_cap[new] < new_sum:
                value = score - (new_sum - tile_cap[new]) * m + leave_bound[new]
            if value > tight:
                tight = value
            if blank_leave_bound[new] > -np.inf:
                value = score - (new_sum - min(new_sum, tile_cap[new - 1])) * m + blank_leave_bound[new]
                if value > with_blank:
                    with_blank = value
    return bound, tight, with_blank


@njit(cache=True)
def _tile_cap(rules, rack, tiles_on_rack):
    """For k = 0 .. the rack's tiles: the most k of its tiles can be worth as new tiles, each on
    its best square of the board (the k largest; a blank is worth 0)."""
    best = np.zeros(tiles_on_rack, dtype=np.int64)
    n = 0
    for letter in range(1, rack.shape[0]):
        if rack[letter] > 0:
            top = np.int64(0)
            for sq in range(rules.new_value.shape[0]):
                if rules.new_value[sq, letter] > top:
                    top = rules.new_value[sq, letter]
            for _ in range(rack[letter]):
                best[n] = top
                n += 1
    best[:n] = -np.sort(-best[:n])
    cap = np.zeros(MAX_WORD + 1, dtype=np.int64)
    for k in range(1, MAX_WORD + 1):
        cap[k] = cap[k - 1] + (best[k - 1] if k - 1 < n else 0)
    return cap


class Anchors(NamedTuple):
    """The anchors of a best-move search in the order :meth:`MoveGenerator.generate` visits them
    (view, row, column), with their bounds (see :func:`_anchor_bound`)."""

    views: np.ndarray  # 0: the across view, 1: down
    row: np.ndarray
    col: np.ndarray
    last: np.ndarray  # the anchor before it in its row (-1: none)
    bound: np.ndarray  # square by square: the anchor's rank for ties
    tight: np.ndarray  # the tighter bound: the search's order and cut
    blank: np.ndarray  # the bound of its moves that lay a blank
    count: np.ndarray  # [1]: how many


@njit(cache=True)
def _anchors(size):
    return Anchors(np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64),
                   np.zeros(size, dtype=np.int64), np.zeros(size), np.zeros(size), np.zeros(size),
                   np.zeros(1, dtype=np.int64))  # fmt: skip


@njit(cache=True)
def _list_anchors(rules, views, crosses, rack, sink, leave_bound, wanted, anchors):
    """Append to ``anchors`` every anchor of the ``wanted[view, row]`` rows from which a move is
    possible, with its bounds (in the order generate visits them)."""
    tiles_on_rack = 0
    for slot in range(rack.shape[0]):
        tiles_on_rack += rack[slot]
    tile_cap = _tile_cap(rules, rack, tiles_on_rack)
    present = np.nonzero(rack[1:33])[0] + 1  # the letters on the rack
    blank_leave_bound = _blank_leave_bounds(rack, tiles_on_rack, sink.place, sink.values)
    for v in range(2):
        view = views[v]
        cross = crosses[v]
        letters = view.letters
        vr, vc = letters.shape
        square_best = np.full((vr, vc), -1, dtype=np.int64)
        cross_best = np.zeros((vr, vc), dtype=np.int64)
        for r in range(vr):
            if wanted[v, r]:
                for c in range(vc):
                    if letters[r, c] == 0:
                        square_best[r, c], cross_best[r, c] = _square_best(rules, view, cross, rack, present, r, c)
        for r in range(vr):
            if not wanted[v, r]:
                continue
            last_anchor = -1
            for c in range(vc):
                if not _is_anchor(view, r, c):
                    continue
                bound, tight, with_blank = _anchor_bound(rules, view, cross, rack, tiles_on_rack, square_best,
                                                         cross_best, leave_bound, r, c, last_anchor, tile_cap,
                                                         blank_leave_bound)  # fmt: skip
                if bound > -np.inf:
                    n = anchors.count[0]
                    anchors.views[n] = v
                    anchors.row[n] = r
                    anchors.col[n] = c
                    anchors.last[n] = last_anchor
                    anchors.bound[n] = bound
                    anchors.tight[n] = tight
                    anchors.blank[n] = with_blank
                    anchors.count[0] = n + 1
                last_anchor = c


@njit(cache=True)
def _ranks(anchors, ties_in_order):
    """Each anchor's rank for ties: its place in the order of the square-by-square bounds (ties
    by view, row, column), or with ``ties_in_order`` in generate's order."""
    n = anchors.count[0]
    rank = np.arange(n).astype(np.float64)
    if not ties_in_order:
        rank[np.argsort(-anchors.bound[:n], kind="mergesort")] = rank.copy()
    return rank


@njit(cache=True)
def _search_anchors(graph, rules, views, crosses, sink, rack, anchors, rank, searched):
    """Search the anchors flagged in ``searched`` in the order of their tighter bounds, until
    none left can beat the best found (see :func:`_best_move` for the ties)."""
    n = anchors.count[0]
    rows, cols = views[0].letters.shape
    tight = np.where(searched[:n], anchors.tight[:n], -np.inf)
    order = np.argsort(-tight, kind="mergesort")
    cells = np.zeros(max(rows, cols), dtype=np.int64)
    frames = _frames(8 * max(rows, cols) + 16)
    best = sink.best
    for i in order:
        if not searched[i]:
            break
        if sink.count[0] > 0:
            if tight[i] < best[BEST_EQUITY]:
                break  # every anchor left is bounded by this one's bound: none can do better
            if tight[i] == best[BEST_EQUITY] and rank[i] > best[BEST_RANK]:
                continue  # at best a tie, which the best's anchor wins
        best[ANCHOR_RANK] = rank[i]
        v = anchors.views[i]
        _search_anchor(graph, rules, views[v], crosses[v], sink, rack, cells, frames, anchors.row[i], anchors.col[i],
                       anchors.last[i], anchors.blank[i])  # fmt: skip


@njit(cache=True)
def _best_move(graph, rules, across, down, rack, sink, leave_bound, ties_in_order):
    """The best move by equity over both views (into ``sink`` in best-only mode): anchors
    searched in order of their bound, stopping when no remaining anchor can beat the best.

    Among moves of equal equity the answer is the one first found when anchors are taken in the
    order of their square-by-square bounds (ties by view, row, column) and each anchor's walk in
    its own order: the answer of that order, whatever order the search takes.  Each anchor has
    its *rank* in that order, and a move equal to the best replaces it only from an anchor of a
    lower rank; so the tighter bounds may reorder and cut the search without changing a tie.
    With ``ties_in_order`` the ranks are the anchors' order in :meth:`MoveGenerator.generate`
    (view, row, column) instead: the answer is then the first best of every generated move."""
    rows, cols = across.letters.shape
    views = (across, down)
    crosses = (_cross_checks(graph, rules, across), _cross_checks(graph, rules, down))
    anchors = _anchors(2 * rows * cols)
    _list_anchors(rules, views, crosses, rack, sink, leave_bound, np.ones((2, max(rows, cols)), dtype=np.bool_),
                  anchors)  # fmt: skip
    n = anchors.count[0]
    _search_anchors(graph, rules, views, crosses, sink, rack, anchors, _ranks(anchors, ties_in_order),
                    np.ones(n, dtype=np.bool_))  # fmt: skip


class AnchorTable(NamedTuple):
    """A board's anchors for one rack, each with the best move found from it alone: what
    :func:`best_move_sharing` reuses on a board that differs from this one in a few lines."""

    anchors: Anchors
    first: np.ndarray  # int64 [2, rows + 1]: view v's row r holds anchors first[v, r] .. first[v, r + 1] - 1
    equity: np.ndarray  # the best equity from each anchor (-inf: no move)
    records: np.ndarray  # int32 [anchors, RECORD_WIDTH]: that move (first of equals in the walk's order)


@njit(cache=True)
def anchor_table(graph, rules, across, down, rack, place, values, leave_bound):
    """Every anchor of a board with its bounds and its own best move (searched to the end,
    anchor by anchor), for ``rack`` and its leave values."""
    rows, cols = across.letters.shape
    views = (across, down)
    crosses = (_cross_checks(graph, rules, across), _cross_checks(graph, rules, down))
    anchors = _anchors(2 * rows * cols)
    every_row = np.ones((2, max(rows, cols)), dtype=np.bool_)
    _list_anchors(rules, views, crosses, rack, best_sink(place, values), leave_bound, every_row, anchors)
    n = anchors.count[0]
    first = np.zeros((2, max(rows, cols) + 1), dtype=np.int64)
    k = 0
    for v in range(2):
        for r in range(max(rows, cols) + 1):
            while k < n and (anchors.views[k] < v or (anchors.views[k] == v and anchors.row[k] < r)):
                k += 1
            first[v, r] = k
    equity = np.full(n, -np.inf)
    records = np.zeros((n, RECORD_WIDTH), dtype=np.int32)
    cells = np.zeros(max(rows, cols), dtype=np.int64)
    frames = _frames(8 * max(rows, cols) + 16)
    for i in range(n):
        sink = best_sink(place, values)
        v = anchors.views[i]
        _search_anchor(graph, rules, views[v], crosses[v], sink, rack, cells, frames, anchors.row[i], anchors.col[i],
                       anchors.last[i], np.inf)  # fmt: skip
        if sink.count[0] > 0:
            equity[i] = sink.best[BEST_EQUITY]
            records[i] = sink.records[0]
    return AnchorTable(anchors, first, equity, records)


@njit(cache=True)
def empty_anchor_table():
    """An :class:`AnchorTable` of no anchors (where a kernel wants one and none applies)."""
    return AnchorTable(_anchors(0), np.zeros((2, 1), dtype=np.int64), np.zeros(0), np.zeros((0, RECORD_WIDTH),
                       dtype=np.int32))  # fmt: skip


@njit(cache=True)
def changed_lines(board_letters, tiles_rows, tiles_cols, n_tiles):
    """The view rows (``[0, r]``: board row r; ``[1, c]``: board column c) whose anchors, letters
    or cross-checks change when tiles are laid on ``(tiles_rows[k], tiles_cols[k])``, given the
    board *with* those tiles: each tile's row and column with their neighbours, and the squares
    that close the runs of tiles through it (their cross words change)."""
    rows, cols = board_letters.shape
    out = np.zeros((2, max(rows, cols)), dtype=np.bool_)
    for k in range(n_tiles):
        r = tiles_rows[k]
        c = tiles_cols[k]
        for d in range(-1, 2):
            if 0 <= r + d < rows:
                out[0, r + d] = True
            if 0 <= c + d < cols:
                out[1, c + d] = True
        for view, dr, dc in ((0, 1, 0), (1, 0, 1)):  # the column's run (across rows), the row's (down)
            for step in (-1, 1):
                rr, cc = r, c
                while 0 <= rr < rows and 0 <= cc < cols and board_letters[rr, cc] != 0:
                    rr, cc = rr + step * dr, cc + step * dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    out[view, rr if view == 0 else cc] = True
    return out


@njit(cache=True)
def best_move_sharing(graph, rules, across, down, rack, sink, leave_bound, table, changed):
    """:func:`_best_move` (square-by-square ties) on a board that differs from the board of
    ``table`` (same rack and leave values) only in the view rows of ``changed``
    (:func:`changed_lines`): the other rows' anchors, bounds and best moves are the table's, so
    only the changed rows are searched, with the best of the others to beat.  The same answer
    as :func:`_best_move` on the new board."""
    rows, cols = across.letters.shape
    views = (across, down)
    crosses = (_cross_checks_rows(graph, rules, across, changed[0, :rows], ALL_LETTERS),
               _cross_checks_rows(graph, rules, down, changed[1, :cols], ALL_LETTERS))  # only the changed rows are read
    fresh = _anchors(2 * rows * cols)
    _list_anchors(rules, views, crosses, rack, sink, leave_bound, changed, fresh)
    base = table.anchors
    anchors = _anchors(base.count[0] + fresh.count[0])
    kept = np.full(base.count[0] + fresh.count[0], -1, dtype=np.int64)  # the table's anchor reused, else -1
    k = 0
    n = 0
    for v in range(2):
        for r in range(views[v].letters.shape[0]):
            if changed[v, r]:
                while k < fresh.count[0] and fresh.views[k] == v and fresh.row[k] == r:
                    _copy_anchor(fresh, k, anchors, n)
                    n += 1
                    k += 1
            else:
                for j in range(table.first[v, r], table.first[v, r + 1]):
                    _copy_anchor(base, j, anchors, n)
                    kept[n] = j
                    n += 1
    anchors.count[0] = n
    rank = _ranks(anchors, False)
    best = sink.best
    for i in range(n):  # the best of the reused anchors: the greatest equity, the lowest rank among equals
        j = kept[i]
        if j >= 0 and table.equity[j] > -np.inf:
            if sink.count[0] == 0 or table.equity[j] > best[BEST_EQUITY] or (
                    table.equity[j] == best[BEST_EQUITY] and rank[i] < best[BEST_RANK]):  # fmt: skip
                best[BEST_EQUITY] = table.equity[j]
                best[BEST_RANK] = rank[i]
                sink.records[0, :] = table.records[j]
                sink.count[0] = 1
    _search_anchors(graph, rules, views, crosses, sink, rack, anchors, rank, kept[:n] < 0)


@njit(cache=True)
def _copy_anchor(source, i, target, j):
    target.views[j] = source.views[i]
    target.row[j] = source.row[i]
    target.col[j] = source.col[i]
    target.last[j] = source.last[i]
    target.bound[j] = source.bound[i]
    target.tight[j] = source.tight[i]
    target.blank[j] = source.blank[i]


@njit(cache=True)
def leave_bounds(tiles, values, sizes):
    """For each number of tiles laid from a rack of ``tiles``, the best value of the leaves left
    (-inf: impossible); ``sizes``: the tiles in each leave of ``values``."""
    out = np.full(MAX_WORD + 1, -np.inf)
    for i in range(values.shape[0]):
        laid = tiles - sizes[i]
        if values[i] > out[laid]:
            out[laid] = values[i]
    return out


@njit(cache=True)
def best_sink(place, values):
    """An empty best-only :class:`MoveSink` for a rack's leave numbering and values."""
    return MoveSink(np.zeros((1, RECORD_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int64), place, values,
                    np.array([-np.inf, np.inf, 0.0]))  # fmt: skip


@njit(cache=True)
def _blank_leave_bounds(rack, tiles_on_rack, place, values):
    """For each number of tiles laid: the best leave that keeps fewer blanks than the rack holds
    (the leave of a move that lays a blank); -inf for none, and everywhere without a blank or
    without leave values."""
    out = np.full(MAX_WORD + 1, -np.inf)
    if rack[BLANK_SLOT] == 0 or values.shape[0] == 0:
        return out
    for index in range(values.shape[0]):
        size = 0
        for slot in range(rack.shape[0]):
            if rack[slot] > 0:
                size += (index // place[slot]) % (rack[slot] + 1)
        if (index // place[BLANK_SLOT]) % (rack[BLANK_SLOT] + 1) < rack[BLANK_SLOT]:
            laid = tiles_on_rack - size
            if values[index] > out[laid]:
                out[laid] = values[index]
    return out


# Cached kernels load without numba's compiler set-up (engine/jitcache.py).
jitcache.install()
