"""``solve``: every legal move for a position and rack, best first, with the filters players ask
for.  The generator returns arrays; only the moves shown become Python objects, each re-scored
through :mod:`literaki_cli.engine.scoring` for its word-by-word breakdown (the two must agree).

Moves are ranked by equity (score + the value of the tiles kept, :mod:`literaki_cli.equity`)
unless ranked by score; the best exchanges are offered beside them, valued by what they keep."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import parse_square, position_name
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile, placed_tile, take_from_rack
from literaki_cli.engine.movegen import (
    BLANK_FLAG,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    COL,
    DIR,
    LENGTH,
    ROW,
    SCORE,
    TILES,
    MoveArrays,
    MoveGenerator,
    warm_up,
)
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.scoring import BoardGrid, WordTotal, score_generated, score_tiles
from literaki_cli.engine.variant import ACROSS, Variant
from literaki_cli.errors import InputError, LiterakiError, said

if TYPE_CHECKING:
    from literaki_cli.equity.equity import Equity, Exchange

#: How ``solve`` may rank moves: by equity (score + leave value) or by score alone.
RANKINGS = ("equity", "score")


@dataclass
class Filters:
    min_tiles: int = 0
    word_contains: str | None = None  # normalised
    at: str | None = None  # a square name: the move lays a tile there
    only_bingos: bool = False


@dataclass
class FoundMove:
    rank: int
    coord: str
    row: int
    col: int
    direction: int
    word: str  # the main word: tiles upper case, blanks lower case
    display: str  # the same with tiles already on the board in parentheses
    score: int
    tiles: list[Tile]
    leave: str
    words: list[WordTotal] = field(default_factory=list)  # each word formed and its score
    bingo: bool = False
    leave_value: float = 0.0

    @property
    def equity(self) -> float:
        return round(self.score + self.leave_value, 3)

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "coord": self.coord,
            "word": self.word,
            "display": self.display,
            "score": self.score,
            "leave_value": self.leave_value,
            "equity": self.equity,
            "words": [{"word": w.word, "score": w.score} for w in self.words],
            "leave": self.leave.upper(),
            "tiles": len(self.tiles),
            "bingo": self.bingo,
            "placed": [placed_tile(t) for t in self.tiles],
        }


@dataclass
class SolveResult:
    moves: list[FoundMove]
    count: int  # moves that pass the filters (mirror images left out when folded)
    generated: int  # every legal move
    seconds: float
    mirrors_folded: bool = False  # the moves down of an empty symmetric board were left out
    by: str = "equity"
    bag: int = 0  # tiles in the bag when the move is made (what the leave values assume)
    exchanges: list[Exchange] = field(default_factory=list)  # the best, best first (empty when not allowed)
    exchange_allowed: bool = False


def folds_mirrors(board: Board, variant: Variant) -> bool:
    """Whether every move down on ``board`` has a mirror move across worth the same: the board
    is empty and its layout is its own mirror image in the main diagonal."""
    return not board.letters.any() and variant.board.transpose_symmetric


def main_words(arrays: MoveArrays) -> list[str]:
    """The main word of every move, lower case (for filtering)."""
    rec = arrays.records
    words = []
    for i in range(rec.shape[0]):
        cells = rec[i, CELLS : CELLS + rec[i, LENGTH]] & CODE_MASK
        words.append("".join(alphabet.LETTER_OF[int(c)] for c in cells))
    return words


def filter_mask(arrays: MoveArrays, filters: Filters, variant: Variant) -> np.ndarray:
    rec = arrays.records
    keep = rec[:, TILES] >= filters.min_tiles
    if filters.only_bingos:
        keep &= rec[:, TILES] == variant.bingo_tiles
    if filters.at:
        r, c = parse_square(filters.at, variant.board.rows, variant.board.columns)
        # Offset of the square along each move's line, and whether a new tile lies there.
        along = np.where(rec[:, DIR] == ACROSS, c - rec[:, COL], r - rec[:, ROW])
        across_line = np.where(rec[:, DIR] == ACROSS, rec[:, ROW] == r, rec[:, COL] == c)
        inside = across_line & (along >= 0) & (along < rec[:, LENGTH])
        cell = rec[np.arange(rec.shape[0]), CELLS + np.clip(along, 0, rec.shape[1] - CELLS - 1)]
        keep &= inside & ((cell & BOARD_FLAG) == 0)
    if filters.word_contains:
        keep &= np.array([filters.word_contains in w for w in main_words(arrays)], dtype=bool)
    return keep


def display_word(letters: Iterable[tuple[str, bool]]) -> str:
    """A main word as ``solve`` writes it in its table (:attr:`FoundMove.display`), from each
    letter as the word shows it (a tile upper case, a blank lower case) and whether its tile is
    already on the board: those in parentheses, a run of them in one pair (``ŻÓ(Ł)W``,
    ``(KO)T``, ``K(o)T``)."""
    return "".join(f"({shown})" if on_board else shown for shown, on_board in letters).replace(")(", "")


def _cell(code: int, blank: bool, board: bool) -> tuple:
    """What a cell of a move record says: the letter as the word shows it, the square as
    :func:`~literaki_cli.engine.scoring.score_generated` reads it, and for a new tile its
    letter, whether a blank, and the rack tile it takes (None: a tile already on the board)."""
    letter = alphabet.LETTER_OF[code]
    shown = letter if blank else letter.upper()
    return shown, (code, blank, not board), letter, blank, None if board else BLANK if blank else letter


#: :func:`_cell` of every value a cell can take (a letter code and its flags).
_CELLS = {
    code | blank | board: _cell(code, bool(blank), bool(board))
    for code in alphabet.LETTER_OF
    for blank in (0, BLANK_FLAG)
    for board in (0, BOARD_FLAG)
}


#: A new tile (a Tile is immutable: the same one serves every move that lays it; cached, as
#: making one costs more than looking it up, and ``solve`` makes some 70 a position).
_tile = lru_cache(maxsize=8192)(Tile)


def found_move(
    rec: np.ndarray,
    rank: int,
    board: Board,
    variant: Variant,
    rack: str,
    leave_value: float = 0.0,
    grid: BoardGrid | None = None,
) -> FoundMove:
    """The move of record ``rec`` as Python objects, re-scored word by word (``grid``: the
    :class:`~literaki_cli.engine.scoring.BoardGrid` of ``board``, when several are made).

    The words are scored by :func:`~literaki_cli.engine.scoring.score_generated` from the
    record's main word and the board (what :func:`score_tiles` gives for a legal move, without
    its checks); when that fails or its total differs from the generator's,
    :func:`score_tiles` decides: the generator and the scoring rules disagree (an internal
    error), unless it agrees."""
    grid = BoardGrid(board) if grid is None else grid
    rec = rec.tolist()  # a list reads far quicker, item by item, than the numpy row
    score, r, c, d = rec[SCORE], rec[ROW], rec[COL], rec[DIR]
    dr, dc = (0, 1) if d == ACROSS else (1, 0)
    tiles, squares, word, on_board, needs = [], [], [], [], []
    for k, cell in enumerate(rec[CELLS : CELLS + rec[LENGTH]]):
        shown, square, letter, blank, need = _CELLS[cell]
        word.append(shown)
        on_board.append(need is None)
        squares.append(square)
        if need is not None:  # a new tile
            tiles.append(_tile(r + dr * k, c + dc * k, letter, blank))
            needs.append(need)
    scored = score_generated(grid, variant, r, c, d, squares)
    if scored is not None and scored[1] == score:
        words = scored[0]
    else:
        checked = score_tiles(board, variant, tiles, d, grid)
        if checked.total != score or checked.problems:
            raise LiterakiError(said("internal error: generated {move} scores {score}, score says {total} {problems}",
                                     move=position_name(r, c, d), score=score, total=checked.total,
                                     problems=checked.problems), exit_code=3)  # fmt: skip
        words = [WordTotal(w.word, w.score, w.row, w.col, w.direction) for w in checked.words]
    leave, _ = take_from_rack("".join(needs), rack)
    return FoundMove(
        rank=rank,
        coord=position_name(r, c, d),
        row=r,
        col=c,
        direction=d,
        word="".join(word),
        display=display_word(zip(word, on_board, strict=True)),
        score=score,
        tiles=tiles,
        leave=leave,
        words=words,
        bingo=len(tiles) == variant.bingo_tiles,
        leave_value=round(float(leave_value), 3),
    )


def best_by_equity(arrays: MoveArrays, leave_values: np.ndarray) -> int:
    """The row of the best move by equity (score + leave value); among equals the first in the
    order ``solve`` lists them (:meth:`MoveArrays.ranked`), without sorting every move."""
    equity = arrays.records[:, SCORE] + leave_values
    top = np.flatnonzero(equity == equity.max())
    return int(top[MoveArrays(arrays.records[top]).ranked()[0]]) if len(top) > 1 else int(top[0])


def check_ranking(by: str) -> None:
    """``by`` must be one of :data:`RANKINGS` (InputError naming it otherwise)."""
    if by not in RANKINGS:
        from literaki_cli.inputs import alternatives

        raise InputError(said("--by {value!r}: rank by {choices}", value=by, choices=alternatives(RANKINGS)))


def solve(board: Board, variant: Variant, lexicon: Lexicon, rack: str, top: int | None = 20,
          **options: Any) -> SolveResult:  # fmt: skip
    """The best ``top`` moves (all with None) for ``rack`` on ``board``: :func:`rank_moves` (whose
    keyword ``options`` it takes: filters, equity, bag, by, ...), each move listed found."""
    return rank_moves(board, variant, lexicon, rack, top, **options).solved()


def rank_moves(
    board: Board,
    variant: Variant,
    lexicon: Lexicon,
    rack: str,
    top: int | None = 20,
    filters: Filters | None = None,
    popular: bool = False,
    fold_mirrors: bool = False,
    equity: Equity | None = None,
    bag: int = 0,
    by: str = "equity",
    exchanges: int = 3,
    generator: MoveGenerator | None = None,
) -> RankedMoves:
    """The best ``top`` moves (all with None) for ``rack`` on ``board``, ranked.

    With ``equity`` every move gets its leave value for a bag of ``bag`` tiles, and with
    ``by="equity"`` the moves are ranked by score + leave value (ties by score, then position);
    the best ``exchanges`` exchanges are offered while the bag allows one.  With
    ``fold_mirrors``, on an empty board whose layout is symmetric in the main diagonal each
    opening is listed once, across (8H): its mirror image down (H8) scores the same.
    ``generator`` (for ``variant``, ``lexicon`` and ``popular``, prepared) saves
    making one: :class:`PositionSolver` keeps one for every position of a batch."""
    check_ranking(by)
    if generator is None:
        generator = MoveGenerator(lexicon, variant, popular=popular)
        warm_up(generator)  # the core's copy of the graph first, so the time below is generation alone
    started = time.perf_counter()
    arrays = generator.generate(board, rack)
    seconds = time.perf_counter() - started  # generation alone
    records = arrays.records
    leaves = equity.for_rack(rack, bag) if equity is not None else None
    leave_values = leaves.of_moves(records) if leaves is not None else np.zeros(len(arrays))
    listed = filter_mask(arrays, filters, variant) if filters and filters != Filters() else None  # None: all
    folded = fold_mirrors and folds_mirrors(board, variant)
    if folded:
        across = records[:, DIR] == ACROSS
        listed = across if listed is None else listed & across
    candidates = np.arange(len(arrays)) if listed is None else np.flatnonzero(listed)
    count = int(candidates.shape[0])
    # The list is ranked by equity (or score), ties in the order of MoveArrays.ranked: only the
    # moves as good as the top-th can be shown, so only they are sorted (not every legal move).
    key = -leave_values - records[:, SCORE] if by == "equity" else -records[:, SCORE].astype(np.float64)
    if top is not None and count > top:
        keys = key[candidates]
        candidates = candidates[keys <= np.partition(keys, top - 1)[top - 1]]
    order = candidates[MoveArrays(records[candidates]).ranked()]
    if by == "equity":
        order = order[np.argsort(key[order], kind="stable")]
    shown = order if top is None else order[:top]
    allowed = bag >= variant.exchange_min_bag and variant.exchange_max_per_player > 0 and bool(rack)
    offered = equity.exchanges(rack, bag, exchanges, leaves) if equity is not None and allowed and exchanges else []
    result = SolveResult([], count, len(arrays), seconds, folded, by, bag, offered, allowed)
    return RankedMoves(records, leave_values, shown, board, variant, rack, result)


@dataclass
class RankedMoves:
    """The moves a solve lists, ranked, still as the generator's records: each made a
    :class:`FoundMove` only when asked for (a list of every move pages through them)."""

    records: np.ndarray  # every legal move (generation order)
    leave_values: np.ndarray  # by record
    order: np.ndarray  # the records listed, best first
    board: Board
    variant: Variant
    rack: str
    result: SolveResult  # its moves empty: the counts, the exchanges
    _grid: BoardGrid | None = None

    def found(self, places: Iterable[int]) -> list[FoundMove]:
        """The moves at ``places`` (0: the best) of the ranked list, as ``solve`` gives them."""
        if self._grid is None:
            self._grid = BoardGrid(self.board)
        return [found_move(self.records[self.order[p]], p + 1, self.board, self.variant, self.rack,
                           self.leave_values[self.order[p]], self._grid) for p in places]  # fmt: skip

    def solved(self) -> SolveResult:
        """``solve``'s answer: every move listed, found."""
        from dataclasses import replace

        return replace(self.result, moves=self.found(range(len(self.order))))


@dataclass(frozen=True)
class SolveRequest:
    """What a solve asks besides the position and the rack: ``solve``'s listing options."""

    top: int | None = 20  # None: every move
    show_all: bool = False  # every legal placement, mirror images too (``--all``)
    by: str = "equity"
    exchanges: int = 3
    popular: bool = False
    min_tiles: int = 0
    word_contains: str | None = None
    at: str | None = None
    only_bingos: bool = False


class PositionSolver:
    """Solves position after position with one lexicon and one leave file: the equity and the
    move generator of each variant (and word list) are made once and kept, so a batch pays
    for them once.  ``solve`` and ``solve --batch`` both answer through :meth:`solve`, so
    their records are the same by construction."""

    def __init__(self, lexicon: Lexicon, leaves_path=None) -> None:
        self.lexicon = lexicon
        self.leaves_path = leaves_path
        self._leaves = None
        self._equities: dict[int, tuple[Variant, Equity]] = {}
        self._generators: dict[tuple[int, bool], tuple[Variant, MoveGenerator]] = {}

    def equity(self, variant: Variant) -> Equity:
        """The equity for ``variant`` (the leave file read on first use)."""
        kept = self._equities.get(id(variant))
        if kept is None or kept[0] is not variant:
            from literaki_cli.equity.equity import Equity
            from literaki_cli.equity.leaves import open_leaves

            if self._leaves is None:
                self._leaves = open_leaves(self.leaves_path)
            kept = self._equities[id(variant)] = (variant, Equity(self._leaves, variant))
        return kept[1]

    def generator(self, variant: Variant, popular: bool = False) -> MoveGenerator:
        """The move generator for ``variant`` (prepared)."""
        kept = self._generators.get((id(variant), popular))
        if kept is None or kept[0] is not variant:
            generator = MoveGenerator(self.lexicon, variant, popular=popular)
            warm_up(generator)
            kept = self._generators[(id(variant), popular)] = (variant, generator)
        return kept[1]

    def solve(self, position, rack: str, request: SolveRequest = SolveRequest()) -> SolveResult:
        """:func:`solve` for ``position`` (a :class:`~literaki_cli.engine.position.Position`)
        and ``rack`` as ``solve`` asks it: the leave values for the bag the mover sees, the
        filters checked against the board (InputError)."""
        return self.rank(position, rack, request).solved()

    def rank(self, position, rack: str, request: SolveRequest = SolveRequest()) -> RankedMoves:
        """:meth:`solve`'s moves ranked, none found yet (:func:`rank_moves`)."""
        from literaki_cli.analysis.positionquery import solve_filters, tiles_in_bag

        check_ranking(request.by)
        variant = position.variant
        filters = solve_filters(variant, request.min_tiles, request.word_contains, request.at, request.only_bingos)
        equity = self.equity(variant)
        generator = self.generator(variant, request.popular)
        top = None if request.show_all else request.top
        return rank_moves(position.board, variant, self.lexicon, rack, top, filters, request.popular,
                          fold_mirrors=not request.show_all, equity=equity, bag=tiles_in_bag(position, rack),
                          by=request.by, exchanges=request.exchanges, generator=generator)  # fmt: skip
