"""The move generator: every legal placement for a position and a rack, with exact scores.

GADDAG-based (Gordon 1994), in the Rust core (``rust/src/movegen.rs``) over flat arrays.  Every
rule that decides whether a placement is legal or what it scores reaches the core in one bundle,
:class:`KernelRules` (in the spirit of wolges' ``GenMovesParams``): the scoring tables that
:mod:`literaki_cli.engine.scoring` uses too (so generated scores and ``score`` agree), the word
length limits, the bingo and the first-move rule; the lexicon as a :class:`LexiconGraph`.  So
every move the generator returns is legal by construction and ``score`` only confirms it.

For each direction the board is viewed so that words run along rows (the down pass works on
the transposed board).  Every empty square next to a tile is an *anchor* (on an empty board,
the start square).  From each anchor the generator reads the GADDAG leftwards, placing rack
tiles or passing over board tiles, then crosses the separator and reads rightwards.  A play
is generated only from its leftmost anchor (the left part never places a tile on an earlier
anchor of the row), and a single tile that forms words both ways is kept in the across pass
only, so every move appears once.  Cross-checks are 32-bit letter masks computed from the
DAWG (a square whose cross word would break the length limits allows no letter); each square
also carries the base score and multiplier of the cross word a tile there would make, so a
move's score is summed as it is built.

Moves come back as arrays (:class:`MoveArrays`); :func:`record_tiles` turns one into tiles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.variant import ACROSS, END, START, Variant
from literaki_cli.errors import LiterakiError, message_of

#: Columns of a move record: score, row, col, direction, length, tiles, then one cell per square
#: of the main word: letter code | BLANK_FLAG (a blank) | BOARD_FLAG (already on the board).
SCORE, ROW, COL, DIR, LENGTH, TILES, CELLS = 0, 1, 2, 3, 4, 5, 6
MAX_WORD = 32
RECORD_WIDTH = CELLS + MAX_WORD
BLANK_FLAG = 64
BOARD_FLAG = 128
CODE_MASK = 63
ALL_LETTERS = np.uint32(0xFFFFFFFF)
#: The rack-count slot of blanks (letter codes start at 1).
BLANK_SLOT = 0


class LexiconGraph(NamedTuple):
    """The arcs of the lexicon file and the two roots the generator reads."""

    arcs: np.ndarray  # uint32 arcs (see literaki_cli.engine.wordgraph)
    gaddag_root: int  # plays are read from the GADDAG
    dawg_root: int  # cross words are checked in the DAWG


class KernelRules(NamedTuple):
    """Every rule the kernels apply, as numbers and flat tables (compiled from a Variant)."""

    new_value: np.ndarray  # int64 [squares, CODE_SPACE]: a new tile's value on each square
    tile_value: np.ndarray  # int64 [CODE_SPACE]: a tile's plain value (tiles already on the board)
    word_mult: np.ndarray  # int64 [squares]: word multiplier of a new tile's square
    end_mult: np.ndarray  # int64 [2 directions, 2 ends, squares]: directional multipliers
    bingo_tiles: int
    bingo_bonus: int
    min_word: int  # the shortest and longest word a move may form
    max_word: int
    first_move_min_tiles: int


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


def record_words(rec: np.ndarray) -> tuple[str, str]:
    """The main word of a move record: new tiles upper case, blanks lower case; and the same
    with the tiles already on the board in parentheses (``KO(T)``)."""
    word, display = [], []
    for k in range(int(rec[LENGTH])):
        cell = int(rec[CELLS + k])
        letter = alphabet.LETTER_OF[cell & CODE_MASK]
        shown = letter if cell & BLANK_FLAG else letter.upper()
        word.append(shown)
        display.append(f"({shown})" if cell & BOARD_FLAG else shown)
    return "".join(word), "".join(display).replace(")(", "")


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
    """Rack as counts per letter code; slot :data:`BLANK_SLOT` counts blanks."""
    counts = np.zeros(64, dtype=np.int64)
    for ch in rack:
        counts[BLANK_SLOT if ch == BLANK else alphabet.CODE_OF[ch]] += 1
    return counts


def kernel_rules(variant: Variant) -> KernelRules:
    """The variant's rules as the kernels read them (its scoring tables, limits and bonuses)."""
    t = variant.tables
    return KernelRules(
        new_value=np.ascontiguousarray(t.new_tile_value.astype(np.int64)),
        tile_value=t.tile_value.astype(np.int64),
        word_mult=t.word_multiplier.astype(np.int64),
        end_mult=np.ascontiguousarray(t.end_multiplier.astype(np.int64)),
        bingo_tiles=int(t.bingo_tiles),
        bingo_bonus=int(t.bingo_bonus),
        min_word=int(variant.min_word_length),
        max_word=min(int(variant.max_word_length), MAX_WORD),
        first_move_min_tiles=int(variant.first_move_min_tiles),
    )


class MoveGenerator:
    """Generates moves for one lexicon and variant.

    :meth:`generate` and :meth:`best` run in the Rust core (``literaki_cli._core``: nothing to
    compile on first use, the GIL released while they run)."""

    def __init__(self, lexicon: Lexicon, variant: Variant, popular: bool = False) -> None:
        self.graph = LexiconGraph(
            lexicon.arcs, int(lexicon.gaddag_root(popular)), int((lexicon.popular if popular else lexicon.words).root)
        )
        self.lexicon = lexicon
        self.variant = variant
        self.rules = kernel_rules(variant)
        self._core = None

    @property
    def core(self):
        """The Rust generator of this lexicon and rules (made on first use)."""
        if self._core is None:
            self._core = self.core_of(self.graph)
            if self.lexicon.core_generator is None:
                self.lexicon.core_generator = self._core
        return self._core

    def core_of(self, graph: LexiconGraph):
        """A Rust generator of these rules on the word graph ``graph`` (this lexicon's, or an
        endgame's pruned one)."""
        from literaki_cli import _core

        rules, board = self.rules, self.variant.board
        return core_call(
            _core.Generator, graph.arcs, graph.gaddag_root, graph.dawg_root, board.rows, board.columns,
            rules.new_value, rules.tile_value, rules.word_mult, rules.end_mult, rules.bingo_tiles, rules.bingo_bonus,
            rules.min_word, rules.max_word, rules.first_move_min_tiles, *board.start,
        )  # fmt: skip

    def generate(self, board: Board, rack: str) -> MoveArrays:
        """Every legal placement of tiles from ``rack`` ('?' = blank) on ``board``."""
        return MoveArrays(core_call(self.core.generate, _letters(board), _blanks(board), rack_counts(rack)))

    def best(self, board: Board, rack: str, leaves, ties_in_order: bool = False) -> np.ndarray | None:
        """The record of the best move by equity, or None when there is no move.  ``leaves``
        values every leave of ``rack`` (:class:`literaki_cli.equity.leaves.RackLeaves`: the
        leaves numbered by ``place``, their ``values`` and ``sizes``); a move's equity is its
        score + the value of its leave.  Far quicker than :meth:`generate` for one move: whole
        stretches of the board are skipped once their bound falls below the best found.  Among
        equal equities the move found first (in the order of the anchors' bounds) is kept; with
        ``ties_in_order``, the first of them in :meth:`generate`'s order (what a player taking
        the first best of every move plays)."""
        return self.best_counted(board, rack, leaves, ties_in_order)[0]

    def best_counted(self, board: Board, rack: str, leaves, ties_in_order: bool = False):
        """:meth:`best`, with the GADDAG states entered and arcs examined (0, 0 unless the core
        was built with its ``counters`` feature)."""
        values = np.ascontiguousarray(leaves.values, dtype=np.float64)
        sizes = np.ascontiguousarray(leaves.sizes, dtype=np.int64)
        place = np.ascontiguousarray(leaves.place, dtype=np.int64)
        counts = getattr(leaves, "rack", None)  # the leaves' own rack: this one, counted once
        counts = rack_counts(rack) if counts is None else np.ascontiguousarray(counts, dtype=np.int64)
        return core_call(self.core.best, _letters(board), _blanks(board), counts, place, values, sizes, len(rack),
                         ties_in_order)  # fmt: skip


def _letters(board: Board) -> np.ndarray:
    return np.ascontiguousarray(board.letters, dtype=np.uint8)


def _blanks(board: Board) -> np.ndarray:
    return np.ascontiguousarray(board.blanks, dtype=np.bool_)


def core_call(method, *args):
    """A call into the Rust core; its one-line error becomes the project's (never a traceback).
    The core's module is looked up only when a call fails (a best move makes several calls)."""
    try:
        return method(*args)
    except Exception as exc:
        from literaki_cli import _core

        if isinstance(exc, _core.CoreError):
            raise LiterakiError(message_of(exc)) from None
        raise


def warm_up(generator: MoveGenerator) -> float:
    """Prepare the core's generator (its copy of the word graph, made once a process and lexicon);
    returns the seconds it took."""
    started = time.perf_counter()
    board = Board.for_variant(generator.variant)
    generator.generate(board, "ab")
    return time.perf_counter() - started


__all__ = [
    "MoveArrays",
    "MoveGenerator",
    "KernelRules",
    "LexiconGraph",
    "kernel_rules",
    "rack_counts",
    "record_tiles",
    "record_words",
    "warm_up",
    "START",
    "END",
    "BLANK_FLAG",
    "BOARD_FLAG",
]

