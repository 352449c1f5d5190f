"""The move generator: every legal placement for a position and a rack, with exact scores.

GADDAG-based (Gordon 1994), compiled with numba over flat arrays: the arcs of the lexicon's
GADDAG, the board as a grid of letter codes, and the variant's scoring tables (the same tables
:mod:`literaki_cli.engine.scoring` uses, so generated scores and ``score`` agree).

For each direction the board is viewed so that words run along rows (the down pass works on
the transposed board).  Every empty square next to a tile is an *anchor* (on an empty board,
the start square).  From each anchor the generator reads the GADDAG leftwards, placing rack
tiles or passing over board tiles, then crosses the separator and reads rightwards.  A play
is generated only from its leftmost anchor (the left part never places a tile on an earlier
anchor of the row), and a single tile that forms words both ways is kept in the across pass
only, so every move appears once.  Cross-checks are 32-bit letter masks computed from the
DAWG; each square also carries the base score and multiplier of the cross word a tile there
would make, so a move's score is summed as it is built.

Moves come back as arrays (:class:`MoveArrays`); :func:`to_moves` turns the best of them into
Python objects.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.variant import ACROSS, DOWN, END, START, Variant

#: Columns of a move record: score, row, col, direction, length, tiles, then one cell per square
#: of the main word: letter code | BLANK_FLAG (a blank) | BOARD_FLAG (already on the board).
SCORE, ROW, COL, DIR, LENGTH, TILES, CELLS = 0, 1, 2, 3, 4, 5, 6
MAX_WORD = 32
RECORD_WIDTH = CELLS + MAX_WORD
BLANK_FLAG = 64
BOARD_FLAG = 128
CODE_MASK = 63
ALL_LETTERS = np.uint32(0xFFFFFFFF)


# --------------------------------------------------------------------------- compiled kernels


_find = njit(cache=True)(wordgraph.find_arc)


@njit(cache=True)
def _cross_checks(arcs, dawg_root, letters, blanks, sqmap, tile_value, word_mult, end_mult, cross_dir):
    """Per empty square of a view: allowed letters (mask), the cross word's base score (-1 when
    a tile there makes no cross word) and its multiplier for a new tile there."""
    rows, cols = letters.shape
    mask = np.full((rows, cols), ALL_LETTERS, dtype=np.uint32)
    base = np.full((rows, cols), -1, dtype=np.int64)
    mult = np.ones((rows, cols), dtype=np.int64)
    for r in range(rows):
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
            sq = sqmap[r, c]
            total = 0
            for k in range(top, bottom + 1):
                if k != r and not blanks[k, c]:
                    total += tile_value[letters[k, c]]
            base[r, c] = total
            m = word_mult[sq]
            if top == r:
                m *= end_mult[cross_dir, 0, sq]
            if bottom == r:
                m *= end_mult[cross_dir, 1, sq]
            mult[r, c] = m
            # Walk the tiles above, then try each letter followed by the tiles below.
            node = dawg_root
            ok = True
            for k in range(top, r):
                p = _find(arcs, node, letters[k, c])
                if p < 0:
                    ok = False
                    break
                node = np.int64(arcs[p] & 0xFFFFFF)
            allowed = np.uint32(0)
            if ok and node != 0:
                p = node
                while True:
                    arc = arcs[p]
                    letter = np.int64(arc >> 26)
                    if bottom == r:
                        good = (arc & 0x2000000) != 0
                    else:
                        good = False
                        q = np.int64(arc & 0xFFFFFF)
                        for k in range(r + 1, bottom + 1):
                            pk = _find(arcs, q, letters[k, c])
                            if pk < 0:
                                break
                            if k == bottom:
                                good = (arcs[pk] & 0x2000000) != 0
                            q = np.int64(arcs[pk] & 0xFFFFFF)
                    if good and 1 <= letter <= 32:
                        allowed |= np.uint32(1) << np.uint32(letter - 1)
                    if arc & 0x1000000:
                        break
                    p += 1
            mask[r, c] = allowed
    return mask, base, mult


@njit(cache=True)
def _record(out, n_out, r, left, right, tiles_used, main_sum, main_mult, cross_total, cells, sqmap,
            end_mult, main_dir, bingo_tiles, bingo_bonus, transposed):  # fmt: skip
    mult = main_mult
    if cells[left] & 128 == 0:
        mult *= end_mult[main_dir, 0, sqmap[r, left]]
    if cells[right] & 128 == 0:
        mult *= end_mult[main_dir, 1, sqmap[r, right]]
    score = main_sum * mult + cross_total
    if tiles_used == bingo_tiles:
        score += bingo_bonus
    n = n_out[0]
    if n < out.shape[0]:
        out[n, 0] = score
        if transposed:
            out[n, 1] = left
            out[n, 2] = r
        else:
            out[n, 1] = r
            out[n, 2] = left
        out[n, 3] = main_dir
        out[n, 4] = right - left + 1
        out[n, 5] = tiles_used
        for k in range(left, right + 1):
            out[n, 6 + k - left] = cells[k]
    n_out[0] = n + 1


@njit(cache=True)
def _search_anchor(r, anchor, last_anchor, arcs, root, letters, blanks, sqmap, new_value, tile_value, word_mult,
                   end_mult, cmask, cbase, cmult, rack, cells, out, n_out, main_dir, bingo_tiles, bingo_bonus,
                   transposed, skip_single):  # fmt: skip
    """Every play through the anchor (r, anchor): a depth-first walk of the GADDAG with an
    explicit stack (numba cannot cache recursive functions).  Reads leftwards from the anchor
    while col <= anchor, then, after the separator, rightwards from anchor + 1.

    Stack entries are EXPLORE frames (a square and the GADDAG list to read there, with the
    score so far and where to resume among its candidate letters) and UNDO frames (give a
    tile back to the rack once everything built on it has been explored)."""
    cols = letters.shape[1]
    depth = 8 * cols + 16
    f_undo_frame = np.zeros(depth, dtype=np.bool_)
    f_col = np.zeros(depth, dtype=np.int64)
    f_p = np.zeros(depth, dtype=np.int64)  # next arc to try (-1: exhausted)
    f_kind = np.zeros(depth, dtype=np.int64)  # next kind to try at that arc: 1 rack tile, 2 blank
    f_left = np.zeros(depth, dtype=np.int64)
    f_tiles = np.zeros(depth, dtype=np.int64)
    f_sum = np.zeros(depth, dtype=np.int64)
    f_mult = np.zeros(depth, dtype=np.int64)
    f_cross = np.zeros(depth, dtype=np.int64)
    sp = 1
    f_col[0] = anchor
    f_p[0] = root
    f_kind[0] = 1
    f_left[0] = anchor
    f_mult[0] = 1
    while sp > 0:
        t = sp - 1
        if f_undo_frame[t]:
            rack[f_p[t]] += 1
            sp -= 1
            continue
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
            while p > 0:
                arc = arcs[p]
                letter = np.int64(arc >> 26)
                if letter != 0 and (cmask[r, col] >> np.uint32(letter - 1)) & np.uint32(1):
                    while kind <= 2:
                        if (kind == 1 and rack[letter] > 0) or (kind == 2 and rack[0] > 0):
                            break
                        kind += 1
                    if kind <= 2:
                        cand = p
                        break
                if arc & 0x1000000:
                    break
                p += 1
                kind = 1
            if cand > 0:
                f_p[t] = cand
                f_kind[t] = kind + 1
            else:
                f_p[t] = -1
        if cand <= 0:
            sp -= 1
            continue
        arc = arcs[cand]
        letter = np.int64(arc >> 26)
        n_sum = f_sum[t]
        n_mult = f_mult[t]
        n_cross = f_cross[t]
        n_tiles = f_tiles[t]
        if on_board != 0:
            if not blanks[r, col]:
                n_sum += tile_value[on_board]
            cells[col] = on_board | 128 | (64 if blanks[r, col] else 0)
        else:
            sq = sqmap[r, col]
            value = new_value[sq, letter] if kind == 1 else 0
            cells[col] = letter | (64 if kind == 2 else 0)
            n_sum += value
            n_mult *= word_mult[sq]
            if cbase[r, col] >= 0:
                n_cross += (cbase[r, col] + value) * cmult[r, col]
            n_tiles += 1
            code = letter if kind == 1 else 0
            rack[code] -= 1
            f_undo_frame[sp] = True
            f_p[sp] = code
            sp += 1
        accepts = (arc & 0x2000000) != 0
        nxt = np.int64(arc & 0xFFFFFF)
        if col <= anchor:
            left_free = col == 0 or letters[r, col - 1] == 0
            right_free = anchor == cols - 1 or letters[r, anchor + 1] == 0
            if accepts and left_free and right_free and n_tiles > 0:
                if not (skip_single and n_tiles == 1 and cbase[r, anchor] >= 0):
                    _record(out, n_out, r, col, anchor, n_tiles, n_sum, n_mult, n_cross, cells, sqmap, end_mult,
                            main_dir, bingo_tiles, bingo_bonus, transposed)  # fmt: skip
            if nxt != 0:
                if left_free and anchor + 1 < cols:
                    sep = _find(arcs, nxt, 0)
                    if sep > 0 and (arcs[sep] & 0xFFFFFF) != 0:
                        f_undo_frame[sp] = False
                        f_col[sp] = anchor + 1
                        f_p[sp] = np.int64(arcs[sep] & 0xFFFFFF)
                        f_kind[sp] = 1
                        f_left[sp] = col
                        f_tiles[sp] = n_tiles
                        f_sum[sp] = n_sum
                        f_mult[sp] = n_mult
                        f_cross[sp] = n_cross
                        sp += 1
                if col > 0 and (letters[r, col - 1] != 0 or col - 1 > last_anchor):
                    f_undo_frame[sp] = False
                    f_col[sp] = col - 1
                    f_p[sp] = nxt
                    f_kind[sp] = 1
                    f_left[sp] = col - 1
                    f_tiles[sp] = n_tiles
                    f_sum[sp] = n_sum
                    f_mult[sp] = n_mult
                    f_cross[sp] = n_cross
                    sp += 1
        else:
            right_free = col == cols - 1 or letters[r, col + 1] == 0
            if accepts and right_free and n_tiles > 0:
                if not (skip_single and n_tiles == 1 and cbase[r, anchor] >= 0):
                    _record(out, n_out, r, f_left[t], col, n_tiles, n_sum, n_mult, n_cross, cells, sqmap, end_mult,
                            main_dir, bingo_tiles, bingo_bonus, transposed)  # fmt: skip
            if nxt != 0 and col + 1 < cols:
                f_undo_frame[sp] = False
                f_col[sp] = col + 1
                f_p[sp] = nxt
                f_kind[sp] = 1
                f_left[sp] = f_left[t]
                f_tiles[sp] = n_tiles
                f_sum[sp] = n_sum
                f_mult[sp] = n_mult
                f_cross[sp] = n_cross
                sp += 1


@njit(cache=True)
def _generate_view(arcs, gaddag_root, dawg_root, letters, blanks, sqmap, new_value, tile_value, word_mult,
                   end_mult, rack, main_dir, first_r, first_c, bingo_tiles, bingo_bonus, transposed, skip_single,
                   out, n_out):  # fmt: skip
    rows, cols = letters.shape
    cmask, cbase, cmult = _cross_checks(arcs, dawg_root, letters, blanks, sqmap, tile_value, word_mult, end_mult,
                                        1 - main_dir)  # fmt: skip
    cells = np.zeros(cols, dtype=np.int64)
    empty_board = first_r >= 0
    for r in range(rows):
        last_anchor = -1
        for c in range(cols):
            if letters[r, c] != 0:
                continue
            if empty_board:
                is_anchor = r == first_r and c == first_c
            else:
                is_anchor = (
                    (c > 0 and letters[r, c - 1] != 0)
                    or (c < cols - 1 and letters[r, c + 1] != 0)
                    or (r > 0 and letters[r - 1, c] != 0)
                    or (r < rows - 1 and letters[r + 1, c] != 0)
                )
            if not is_anchor:
                continue
            _search_anchor(r, c, last_anchor, arcs, gaddag_root, letters, blanks, sqmap, new_value, tile_value,
                           word_mult, end_mult, cmask, cbase, cmult, rack, cells, out, n_out, main_dir, bingo_tiles,
                           bingo_bonus, transposed, skip_single)  # fmt: skip
            last_anchor = c


# --------------------------------------------------------------------------- Python side


@dataclass
class MoveArrays:
    """Generated moves as one int32 table (see the column constants); unsorted."""

    records: np.ndarray

    def __len__(self) -> int:
        return self.records.shape[0]

    @property
    def scores(self) -> np.ndarray:
        return self.records[:, SCORE]

    def ranked(self) -> np.ndarray:
        """Row order, best score first; ties by direction, row, column, word (stable output)."""
        rec = self.records
        keys = [rec[:, CELLS + k] for k in range(MAX_WORD - 1, -1, -1)]
        return np.lexsort(keys + [rec[:, COL], rec[:, ROW], rec[:, DIR], -rec[:, SCORE]])


def record_tiles(rec: np.ndarray) -> tuple[list[Tile], int]:
    """The new tiles of one move record, and its direction."""
    r, c, d, n = int(rec[ROW]), int(rec[COL]), int(rec[DIR]), int(rec[LENGTH])
    tiles = []
    for k in range(n):
        cell = int(rec[CELLS + k])
        if cell & BOARD_FLAG:
            continue
        rr, cc = (r, c + k) if d == ACROSS else (r + k, c)
        tiles.append(Tile(rr, cc, alphabet.LETTER_OF[cell & CODE_MASK], bool(cell & BLANK_FLAG)))
    return tiles, d


def covers_any(records: np.ndarray, squares: set[tuple[int, int]], shape: tuple[int, int]) -> np.ndarray:
    """For each move record: does it lay a new tile on one of ``squares``?  (Vectorised.)"""
    n_rows, n_cols = shape
    if not squares or records.shape[0] == 0:
        return np.zeros(records.shape[0], dtype=bool)
    k = np.arange(MAX_WORD)
    across = records[:, DIR : DIR + 1] == ACROSS
    rows = records[:, ROW : ROW + 1] + np.where(across, 0, k)
    cols = records[:, COL : COL + 1] + np.where(across, k, 0)
    cells = records[:, CELLS : CELLS + MAX_WORD]
    new = (k < records[:, LENGTH : LENGTH + 1]) & ((cells & BOARD_FLAG) == 0) & (rows < n_rows) & (cols < n_cols)
    wanted = np.zeros(n_rows * n_cols, dtype=bool)
    for r, c in squares:
        wanted[r * n_cols + c] = True
    return (wanted[np.where(new, rows * n_cols + cols, 0)] & new).any(axis=1)


def rack_counts(rack: str) -> np.ndarray:
    """Rack as counts per letter code; index 0 counts blanks."""
    counts = np.zeros(64, dtype=np.int64)
    for ch in rack:
        counts[0 if ch == BLANK else alphabet.CODE_OF[ch]] += 1
    return counts


class MoveGenerator:
    """Generates moves for one lexicon and variant (the compiled kernels are shared)."""

    def __init__(self, lexicon: Lexicon, variant: Variant, popular: bool = False) -> None:
        self.arcs = lexicon.arcs
        self.gaddag_root = lexicon.gaddag_root(popular)
        self.dawg_root = (lexicon.popular if popular else lexicon.words).root
        self.variant = variant
        t = variant.tables
        self.new_value = np.ascontiguousarray(t.new_tile_value.astype(np.int64))
        self.tile_value = t.tile_value.astype(np.int64)
        self.word_mult = t.word_multiplier.astype(np.int64)
        self.end_mult = t.end_multiplier.astype(np.int64)
        rows, cols = variant.board.rows, variant.board.columns
        self.sqmap = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
        self._capacity = 4096

    def generate(self, board: Board, rack: str) -> MoveArrays:
        """Every legal placement of tiles from ``rack`` ('?' = blank) on ``board``."""
        counts = rack_counts(rack)
        v = self.variant
        empty = board.is_empty()
        sr, sc = v.board.start
        while True:
            out = np.zeros((self._capacity, RECORD_WIDTH), dtype=np.int32)
            n_out = np.zeros(1, dtype=np.int64)
            for direction in (ACROSS, DOWN):
                transposed = direction == DOWN
                letters = np.ascontiguousarray(board.letters.T if transposed else board.letters)
                blanks = np.ascontiguousarray(board.blanks.T if transposed else board.blanks)
                sqmap = np.ascontiguousarray(self.sqmap.T if transposed else self.sqmap)
                first_r, first_c = ((sc, sr) if transposed else (sr, sc)) if empty else (-1, -1)
                _generate_view(self.arcs, self.gaddag_root, self.dawg_root, letters, blanks, sqmap, self.new_value,
                               self.tile_value, self.word_mult, self.end_mult, counts, direction, first_r, first_c,
                               v.bingo_tiles, v.bingo_bonus, transposed, transposed, out, n_out)  # fmt: skip
            n = int(n_out[0])
            if n <= self._capacity:
                records = out[:n]
                if empty:  # the variant's first-move rule: at least this many tiles
                    records = records[records[:, TILES] >= v.first_move_min_tiles]
                return MoveArrays(records)
            self._capacity = max(n, 2 * self._capacity)


def warm_up(generator: MoveGenerator) -> float:
    """Compile (or load from the on-disk cache) the kernels; returns the seconds it took."""
    started = time.perf_counter()
    board = Board.for_variant(generator.variant)
    generator.generate(board, "ab")
    return time.perf_counter() - started


__all__ = [
    "MoveArrays",
    "MoveGenerator",
    "rack_counts",
    "record_tiles",
    "warm_up",
    "START",
    "END",
    "BLANK_FLAG",
    "BOARD_FLAG",
]
