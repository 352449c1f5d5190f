"""Scoring and legality of a placement, word by word, from the variant's scoring tables.

The tables (:class:`literaki_cli.engine.variant.ScoringTables`) hold every rule as numbers: the value
of a new tile of each letter on each square (colour triples, letter premiums), the word
multiplier of each square and the directional start/end multipliers.  This module and the move
generator read the same tables, so both give the same score for the same move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import position_name, square_name
from literaki_cli.engine.move import Tile
from literaki_cli.engine.variant import ACROSS, DOWN, END, START, Variant
from literaki_cli.errors import InputError, said

STEP = {ACROSS: (0, 1), DOWN: (1, 0)}
DIRECTION_NAMES = {ACROSS: "across", DOWN: "down"}


@dataclass
class LetterScore:
    row: int
    col: int
    letter: str
    blank: bool
    new: bool
    base: int  # the tile's plain value
    value: int  # what it counts in this word (premiums of new tiles applied)
    square: str  # the square kind's name ("red", "word x2", ...)

    def as_dict(self) -> dict:
        return {
            "square": square_name(self.row, self.col),
            "letter": self.letter if self.blank else self.letter.upper(),
            "blank": self.blank,
            "new": self.new,
            "base": self.base,
            "value": self.value,
            "premium": self.square if self.new else None,
        }


@dataclass
class WordScore:
    row: int
    col: int
    direction: int
    letters: list[LetterScore]
    multipliers: list[tuple[str, int]]  # (square, factor) of each word multiplier applied
    valid: bool | None = None

    @property
    def word(self) -> str:
        """The word with tiles in upper case and blanks in lower case."""
        return "".join(ls.letter if ls.blank else ls.letter.upper() for ls in self.letters)

    @property
    def plain_word(self) -> str:
        return "".join(ls.letter for ls in self.letters)

    @property
    def letter_sum(self) -> int:
        return sum(ls.value for ls in self.letters)

    @property
    def multiplier(self) -> int:
        product = 1
        for _, factor in self.multipliers:
            product *= factor
        return product

    @property
    def score(self) -> int:
        return self.letter_sum * self.multiplier

    @property
    def coord(self) -> str:
        return position_name(self.row, self.col, self.direction)

    def as_dict(self) -> dict:
        return {
            "word": self.word,
            "score": self.score,
            "valid": self.valid,
            "coord": self.coord,
            "direction": DIRECTION_NAMES[self.direction],
            "letters": [ls.as_dict() for ls in self.letters],
            "letter_sum": self.letter_sum,
            "multipliers": [{"square": sq, "factor": f} for sq, f in self.multipliers],
            "multiplier": self.multiplier,
        }


@dataclass
class MoveScore:
    tiles: list[Tile]
    words: list[WordScore]
    bingo: int
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(w.score for w in self.words) + self.bingo

    @property
    def valid(self) -> bool:
        return not self.problems


class BoardGrid:
    """A board's letters as Python lists (a list is far quicker to index than a numpy array),
    made once and shared by every move scored on that board (``solve`` re-scores 20)."""

    __slots__ = ("letters", "blanks", "rows", "columns", "empty", "framed")

    def __init__(self, board: Board) -> None:
        self.letters = board.letters.tolist()
        self.blanks = board.blanks.tolist()
        self.rows, self.columns = board.rows, board.columns
        self.empty = not any(map(any, self.letters))
        # The letters with a frame of empty squares: a walk along a line stops on the frame at
        # the latest, so it reads framed[r + 1][c + 1] without checking the board's bounds.
        edge = [0] * (self.columns + 2)
        self.framed = [edge, *([0, *row, 0] for row in self.letters), edge]

    def occupied(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.columns and self.letters[r][c] != 0


class _Tables:
    """A variant's scoring tables as Python lists, and each square's kind name and square name."""

    __slots__ = ("tile_value", "new_tile_value", "word_multiplier", "end_multiplier", "kind_name", "square")

    def __init__(self, variant: Variant) -> None:
        tables, layout = variant.tables, variant.board
        self.tile_value = tables.tile_value.tolist()
        self.new_tile_value = tables.new_tile_value.tolist()
        self.word_multiplier = tables.word_multiplier.tolist()
        self.end_multiplier = tables.end_multiplier.tolist()
        self.kind_name = [layout.kind_at(r, c).name for r in range(layout.rows) for c in range(layout.columns)]
        self.square = [square_name(r, c) for r in range(layout.rows) for c in range(layout.columns)]


_TABLES: dict[int, tuple[Variant, _Tables]] = {}


def _tables_of(variant: Variant) -> _Tables:
    kept = _TABLES.get(id(variant))
    if kept is None or kept[0] is not variant:
        if len(_TABLES) > 64:  # variants read from many rules files: keep the memory bounded
            _TABLES.clear()
        kept = _TABLES[id(variant)] = (variant, _Tables(variant))
    return kept[1]


def _run(grid: BoardGrid, new: dict[tuple[int, int], Tile], row: int, col: int, direction: int) -> list:
    """The squares of the unbroken line of tiles (old and new) through (row, col)."""
    dr, dc = STEP[direction]
    framed = grid.framed
    r, c = row - dr, col - dc
    while (r, c) in new or framed[r + 1][c + 1]:
        r, c = r - dr, c - dc
    r, c = r + dr, c + dc
    squares = []
    while (r, c) in new or framed[r + 1][c + 1]:
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _word(grid: BoardGrid, tables: _Tables, new: dict[tuple[int, int], Tile], squares, direction: int) -> WordScore:
    columns = grid.columns
    letters = []
    multipliers = []
    for r, c in squares:
        sq = r * columns + c
        tile = new.get((r, c))
        if tile is not None:
            code = alphabet.CODE_OF[tile.letter]
            base = 0 if tile.blank else tables.tile_value[code]
            value = 0 if tile.blank else tables.new_tile_value[sq][code]
            letters.append(LetterScore(r, c, tile.letter, tile.blank, True, base, value, tables.kind_name[sq]))
            if tables.word_multiplier[sq] != 1:
                multipliers.append((tables.square[sq], tables.word_multiplier[sq]))
        else:
            code = grid.letters[r][c]
            blank = grid.blanks[r][c]
            base = 0 if blank else tables.tile_value[code]
            letters.append(LetterScore(r, c, alphabet.LETTER_OF[code], blank, False, base, base, tables.kind_name[sq]))
    for end, (r, c) in ((START, squares[0]), (END, squares[-1])):
        sq = r * columns + c
        if (r, c) in new and tables.end_multiplier[direction][end][sq] != 1:
            multipliers.append((tables.square[sq], tables.end_multiplier[direction][end][sq]))
    return WordScore(squares[0][0], squares[0][1], direction, letters, multipliers)


class WordTotal(NamedTuple):
    """A word of a generated move and what it scores: what ``solve`` lists of each word
    (:func:`score_generated`), without the letter-by-letter breakdown of a :class:`WordScore`."""

    word: str  # tiles upper case, blanks lower case
    score: int
    row: int
    col: int
    direction: int

    @property
    def plain_word(self) -> str:
        return self.word.lower()

    @property
    def coord(self) -> str:
        return position_name(self.row, self.col, self.direction)


#: Each letter code's text as a tile shows it (upper case); a blank shows ``alphabet.LETTER_OF``.
_UPPER_OF = {code: letter.upper() for code, letter in alphabet.LETTER_OF.items()}


def score_generated(
    grid: BoardGrid, variant: Variant, row: int, col: int, direction: int, squares: list[tuple[int, bool, bool]]
) -> tuple[list[WordTotal], int] | None:
    """The words of a generated move, scored, and its total with the bingo: the words, texts,
    scores and order :func:`score_tiles` gives, without its checks of a player's move (the
    generator makes legal moves only).

    The move is its main word: ``squares`` (letter code, blank, new tile) from (``row``,
    ``col``) along ``direction``, as a move record holds it; ``grid`` is the board's
    :class:`BoardGrid`.  None unless the word lies on the board as the board has it (its
    old tiles there, its new tiles on empty squares, no tile just before or after it) and
    lays a tile: then :func:`score_tiles` tells what is wrong."""
    tables = _tables_of(variant)
    framed, blanks, columns = grid.framed, grid.blanks, grid.columns
    dr, dc = STEP[direction]
    last_row, last_col = row + dr * (len(squares) - 1), col + dc * (len(squares) - 1)
    if not squares or row < 0 or col < 0 or last_row >= grid.rows or last_col >= columns:
        return None
    if framed[row - dr + 1][col - dc + 1] or framed[last_row + dr + 1][last_col + dc + 1]:
        return None  # the word runs on into a tile
    text, laid = [], []
    letter_sum, multiplier = 0, 1
    r, c = row, col
    for code, blank, new in squares:
        sq = r * columns + c
        if new:
            if framed[r + 1][c + 1]:
                return None
            laid.append((r, c, code, blank))
            letter_sum += 0 if blank else tables.new_tile_value[sq][code]
            multiplier *= tables.word_multiplier[sq]
        elif framed[r + 1][c + 1] != code or blanks[r][c] != blank:
            return None
        elif not blank:
            letter_sum += tables.tile_value[code]
        text.append(alphabet.LETTER_OF[code] if blank else _UPPER_OF[code])
        r, c = r + dr, c + dc
    if not laid:
        return None
    ends = tables.end_multiplier[direction]
    if squares[0][2]:  # the word starts (ends) with a new tile
        multiplier *= ends[START][row * columns + col]
    if squares[-1][2]:
        multiplier *= ends[END][last_row * columns + last_col]
    words = [WordTotal("".join(text), letter_sum * multiplier, row, col, direction)] if len(squares) >= 2 else []
    cross = DOWN if direction == ACROSS else ACROSS
    dr, dc = STEP[cross]
    for r, c, code, blank in laid:  # in order along the line: by row, then column, as score_tiles takes them
        if framed[r - dr + 1][c - dc + 1] or framed[r + dr + 1][c + dc + 1]:
            words.append(_cross_word(grid, tables, r, c, code, blank, cross))
    total = sum(w.score for w in words)
    if len(laid) == variant.bingo_tiles:
        total += variant.bingo_bonus
    return words, total


def _cross_word(grid: BoardGrid, tables: _Tables, row: int, col: int, code: int, blank: bool, direction: int):
    """The :class:`WordTotal` of the word a new tile at (row, col) forms along ``direction``
    with the board tiles beside it (the move's other tiles lie across that line)."""
    dr, dc = STEP[direction]
    framed, blanks, columns = grid.framed, grid.blanks, grid.columns
    r, c = row, col
    while framed[r - dr + 1][c - dc + 1]:
        r, c = r - dr, c - dc
    first_row, first_col = r, c
    text = []
    letter_sum = 0
    while True:
        if r == row and c == col:
            text.append(alphabet.LETTER_OF[code] if blank else _UPPER_OF[code])
            letter_sum += 0 if blank else tables.new_tile_value[r * columns + c][code]
        else:
            old = framed[r + 1][c + 1]
            if not old:
                break
            if blanks[r][c]:
                text.append(alphabet.LETTER_OF[old])
            else:
                text.append(_UPPER_OF[old])
                letter_sum += tables.tile_value[old]
        r, c = r + dr, c + dc
    sq = row * columns + col
    multiplier = tables.word_multiplier[sq]
    if first_row == row and first_col == col:  # the word starts (ends) with the new tile
        multiplier *= tables.end_multiplier[direction][START][sq]
    if r - dr == row and c - dc == col:
        multiplier *= tables.end_multiplier[direction][END][sq]
    return WordTotal("".join(text), letter_sum * multiplier, first_row, first_col, direction)


def score_tiles(
    board: Board, variant: Variant, tiles: list[Tile], direction: int = ACROSS, grid: BoardGrid | None = None
) -> MoveScore:
    """Every word the new ``tiles`` form on ``board``, scored, with the rule violations found.

    ``direction`` only matters for a single tile (which line is the main word); words of one
    letter are not words.  Lexicon checks are the caller's (see :func:`check_words`).
    ``grid`` (:class:`BoardGrid` of ``board``) saves making it for each of many moves.
    """
    problems: list[str] = []
    new = {(t.row, t.col): t for t in tiles}
    grid = BoardGrid(board) if grid is None else grid
    tables = _tables_of(variant)
    for t in tiles:
        if not (0 <= t.row < grid.rows and 0 <= t.col < grid.columns):
            raise InputError(said("a tile at row {row}, column {column} is off the board",
                                  row=t.row + 1, column=t.col + 1))  # fmt: skip
    if len(new) != len(tiles):
        problems.append(said("two tiles on one square"))
    for t in tiles:
        if grid.occupied(t.row, t.col):
            problems.append(said("{square} is already occupied", square=square_name(t.row, t.col)))
    rows = {t.row for t in tiles}
    cols = {t.col for t in tiles}
    if len(tiles) > 1:
        if len(rows) == 1:
            direction = ACROSS
        elif len(cols) == 1:
            direction = DOWN
        else:
            problems.append(said("the tiles are not in one row or one column"))
    # The main line: every run along the direction that holds a new tile (one, when legal).
    runs = set()
    for t in tiles:  # a run that holds a tile holds every tile on it: each run is walked once
        if not any((t.row, t.col) in run for run in runs):
            runs.add(tuple(_run(grid, new, t.row, t.col, direction)))
    if len(tiles) > 1 and len(runs) > 1:
        problems.append(said("the tiles and the tiles between them do not form one unbroken word"))
    words = [_word(grid, tables, new, list(run), direction) for run in sorted(runs) if len(run) >= 2]
    cross = DOWN if direction == ACROSS else ACROSS
    for t in sorted(tiles, key=lambda t: (t.row, t.col)):
        squares = _run(grid, new, t.row, t.col, cross)
        if len(squares) >= 2:
            words.append(_word(grid, tables, new, squares, cross))
    if not words:
        problems.append(said("the move forms no word of two or more letters"))
    if grid.empty:
        start = variant.board.start
        if start not in new:
            problems.append(said("the first move must cover the start square {start}", start=square_name(*start)))
        if len(tiles) < variant.first_move_min_tiles:
            problems.append(said("the first move must lay at least {count} letters",
                                 count=variant.first_move_min_tiles))  # fmt: skip
    elif not any(not ls.new for w in words for ls in w.letters):
        problems.append(said("the move does not touch any tile on the board"))
    for w in words:
        if len(w.letters) > variant.max_word_length:
            problems.append(said("{word} is longer than {most} letters", word=w.word, most=variant.max_word_length))
        elif len(w.letters) < variant.min_word_length:
            problems.append(said("{word} is shorter than {least} letters", word=w.word, least=variant.min_word_length))
    bingo = variant.bingo_bonus if len(tiles) == variant.bingo_tiles else 0
    return MoveScore(tiles, words, bingo, problems)


def check_words(move: MoveScore, lookup) -> None:
    """Mark each word valid or not with ``lookup(list_of_words) -> bools``; add a problem per
    invalid word (the move is still scored, so a player sees what it would be worth)."""
    found = lookup([w.plain_word for w in move.words]) if move.words else []
    for w, ok in zip(move.words, found, strict=True):
        w.valid = bool(ok)
        if not ok:
            move.problems.append(said("{word} is not in the word list", word=w.word))


def evaluate_placement(board: Board, variant: Variant, placement, rack: str | None, lookup) -> MoveScore:
    """Resolve, score and judge a written placement: the full report ``score`` prints.

    ``rack`` (when known) must hold the tiles; ``lookup`` checks the words in the lexicon
    (None: no word is checked, as a game record is replayed to find its positions).
    """
    from literaki_cli.engine.move import rack_needs, resolve, take_from_rack

    tiles = resolve(placement, board)
    result = score_tiles(board, variant, tiles, placement.direction)
    dr, dc = STEP[placement.direction]
    written = [(placement.row + dr * i, placement.col + dc * i) for i in range(len(placement.tokens))]
    main = next((w for w in result.words if w.direction == placement.direction), None)
    if main is not None and len(main.letters) > len(written):
        result.problems.append(said("the word runs on into the tiles beyond {written}: it is {word} at {coord}",
                                    written=placement.text.split()[1], word=main.word, coord=main.coord))  # fmt: skip
    if rack is not None:
        _, missing = take_from_rack(rack_needs(tiles), rack)
        if missing:
            result.problems.append(said("the rack {rack} lacks {missing}", rack=rack.upper(), missing=missing.upper()))
    if lookup is not None:
        check_words(result, lookup)
    return result
