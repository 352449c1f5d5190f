"""Moves in GCG/CGP notation: placements, exchanges and passes.

* ``8H ŻÓŁW`` lays ŻÓŁW across from h8; ``H8 ŻÓŁW`` down.  Tiles already on the board are
  written as ``.``, as their letter, or in parentheses (``ŻÓ(Ł)W``); a blank is the
  lower-case letter.
* ``-`` (or ``pass``) passes; ``-ABC?`` (or ``exchange ABC?``) exchanges those tiles.
"""

from __future__ import annotations

from dataclasses import dataclass

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import parse_position, position_name, square_name
from literaki_cli.engine.position import normalize_rack
from literaki_cli.engine.variant import ACROSS, Variant
from literaki_cli.errors import InputError, said

#: The kinds of a turn, as game records and reviews name them.
PLACE, EXCHANGE, PASS = "place", "exchange", "pass"


@dataclass(frozen=True)
class Token:
    """One square of a written word: a letter (``through`` when it must already be on the
    board), or ``None`` for a ``.`` (whatever tile is there)."""

    letter: str | None
    upper: bool
    through: bool


@dataclass(frozen=True)
class Tile:
    """A tile laid by a move."""

    row: int
    col: int
    letter: str
    blank: bool


def placed_tile(tile: Tile) -> dict:
    """A new tile in JSON (``placed`` of score and solve): the letter upper case for a tile,
    lower case for a blank, as in the words."""
    return {"row": tile.row, "col": tile.col, "letter": tile.letter if tile.blank else tile.letter.upper(),
            "blank": tile.blank}  # fmt: skip


@dataclass(frozen=True)
class Placement:
    row: int
    col: int
    direction: int
    tokens: tuple[Token, ...]
    text: str

    @property
    def coord(self) -> str:
        return position_name(self.row, self.col, self.direction)


@dataclass(frozen=True)
class Exchange:
    tiles: str  # lower case and '?'


@dataclass(frozen=True)
class Pass:
    pass


Move = Placement | Exchange | Pass


class TileConflict(InputError):
    """A placement writes a letter over a board tile of another letter (``square``: its row
    and column, ``tile`` the board's letter, ``letter`` the written one, both lower case)."""

    def __init__(self, message: str, square: tuple[int, int], tile: str, letter: str) -> None:
        super().__init__(message)
        self.square, self.tile, self.letter = square, tile, letter


def parse_word(text: str, where: str) -> tuple[Token, ...]:
    """Tokens of a written word (letters, '.', parenthesised through-tiles)."""
    tokens = []
    through = False
    for i, ch in enumerate(alphabet.normalize_case_keeping(text), 1):
        if ch == "(":
            if through:
                raise InputError(said("{where}: nested '(' at character {at}", where=where, at=i))
            through = True
        elif ch == ")":
            if not through:
                raise InputError(said("{where}: ')' without '(' at character {at}", where=where, at=i))
            through = False
        elif ch == ".":
            tokens.append(Token(None, True, True))
        elif alphabet.is_polish_letter(ch.lower()):
            tokens.append(Token(ch.lower(), ch != ch.lower(), through))
        else:
            raise InputError(said("{where}: character {at} {char!r} is not a Polish letter, '.' or a parenthesis",
                                  where=where, at=i, char=ch))  # fmt: skip
    if through:
        raise InputError(said("{where}: '(' without ')'", where=where))
    if not tokens:
        raise InputError(said("{where}: empty word", where=where))
    return tuple(tokens)


def parse_move(text: str, variant: Variant) -> Move:
    """A move from its notation; raises :class:`InputError` naming the offending part."""
    words = text.split()
    if not words:
        raise InputError(said("empty move"))
    head = words[0].lower()
    if words == ["-"] or head in ("pass", "pas"):
        if len(words) > 1:
            raise InputError(said("move {move!r}: a pass takes no tiles", move=text))
        return Pass()
    if head in ("exchange", "wymiana", "exch") or (head.startswith("-") and len(words) == 1):
        tiles = "".join(words[1:]) if not head.startswith("-") else words[0][1:]
        if not tiles:
            raise InputError(said("move {move!r}: an exchange names the tiles to return", move=text))
        return Exchange(normalize_rack(tiles, said("move {move!r}: exchange", move=text)))
    if len(words) != 2:
        raise InputError(said("move {move!r}: expected POSITION WORD, like '8H ŻÓŁW' (across) or 'H8 ŻÓŁW' (down)",
                              move=text))  # fmt: skip
    row, col, direction = parse_position(words[0], variant.board.rows, variant.board.columns)
    return Placement(row, col, direction, parse_word(words[1], said("move {move!r}", move=text)), text.strip())


def resolve(placement: Placement, board: Board) -> list[Tile]:
    """The new tiles of a placement on ``board``; raises when the notation does not fit the board."""
    tiles = []
    dr, dc = (0, 1) if placement.direction == ACROSS else (1, 0)
    r, c = placement.row, placement.col
    for i, token in enumerate(placement.tokens):
        sq = (r + dr * i, c + dc * i)
        if not (0 <= sq[0] < board.rows and 0 <= sq[1] < board.columns):
            raise InputError(said("move {move!r}: letter {at} falls off the board", move=placement.text, at=i + 1))
        if board.occupied(*sq):
            on_board = alphabet.LETTER_OF[int(board.letters[sq])]
            if token.letter is not None and token.letter != on_board:
                raise TileConflict(
                    said("move {move!r}: {square} holds {tile}, the move writes {letter}", move=placement.text,
                         square=square_name(*sq), tile=board.cell(*sq), letter=token.letter.upper()),
                    sq, on_board, token.letter,
                )  # fmt: skip
        else:
            if token.letter is None or token.through:
                raise InputError(said("move {move!r}: {square} is empty, but the move expects a tile there",
                                      move=placement.text, square=square_name(*sq)))  # fmt: skip
            tiles.append(Tile(sq[0], sq[1], token.letter, blank=not token.upper))
    if not tiles:
        raise InputError(said("move {move!r}: lays no new tile", move=placement.text))
    return tiles


def rack_needs(tiles: list[Tile]) -> str:
    """The rack tiles a placement uses: letters, and '?' for each blank."""
    return "".join("?" if t.blank else t.letter for t in tiles)


def take_from_rack(needed: str, rack: str) -> tuple[str, str]:
    """(leave, missing): what stays on ``rack`` after taking ``needed``, and what it lacked."""
    left = list(rack)
    missing = []
    for ch in needed:
        if ch in left:
            left.remove(ch)
        else:
            missing.append(ch)
    return "".join(left), "".join(missing)
