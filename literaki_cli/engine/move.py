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
from literaki_cli.errors import InputError

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
                raise InputError(f"{where}: nested '(' at character {i}")
            through = True
        elif ch == ")":
            if not through:
                raise InputError(f"{where}: ')' without '(' at character {i}")
            through = False
        elif ch == ".":
            tokens.append(Token(None, True, True))
        elif alphabet.is_polish_letter(ch.lower()):
            tokens.append(Token(ch.lower(), ch != ch.lower(), through))
        else:
            raise InputError(f"{where}: character {i} {ch!r} is not a Polish letter, '.' or a parenthesis")
    if through:
        raise InputError(f"{where}: '(' without ')'")
    if not tokens:
        raise InputError(f"{where}: empty word")
    return tuple(tokens)


def parse_move(text: str, variant: Variant) -> Move:
    """A move from its notation; raises :class:`InputError` naming the offending part."""
    words = text.split()
    if not words:
        raise InputError("empty move")
    head = words[0].lower()
    if words == ["-"] or head in ("pass", "pas"):
        if len(words) > 1:
            raise InputError(f"move {text!r}: a pass takes no tiles")
        return Pass()
    if head in ("exchange", "wymiana", "exch") or (head.startswith("-") and len(words) == 1):
        tiles = "".join(words[1:]) if not head.startswith("-") else words[0][1:]
        if not tiles:
            raise InputError(f"move {text!r}: an exchange names the tiles to return")
        return Exchange(normalize_rack(tiles, f"move {text!r}: exchange"))
    if len(words) != 2:
        raise InputError(f"move {text!r}: expected POSITION WORD, like '8H ŻÓŁW' (across) or 'H8 ŻÓŁW' (down)")
    row, col, direction = parse_position(words[0], variant.board.rows, variant.board.columns)
    return Placement(row, col, direction, parse_word(words[1], f"move {text!r}"), text.strip())


def resolve(placement: Placement, board: Board) -> list[Tile]:
    """The new tiles of a placement on ``board``; raises when the notation does not fit the board."""
    tiles = []
    dr, dc = (0, 1) if placement.direction == ACROSS else (1, 0)
    r, c = placement.row, placement.col
    for i, token in enumerate(placement.tokens):
        sq = (r + dr * i, c + dc * i)
        if not (0 <= sq[0] < board.rows and 0 <= sq[1] < board.columns):
            raise InputError(f"move {placement.text!r}: letter {i + 1} falls off the board")
        if board.occupied(*sq):
            on_board = alphabet.LETTER_OF[int(board.letters[sq])]
            if token.letter is not None and token.letter != on_board:
                raise TileConflict(
                    f"move {placement.text!r}: {square_name(*sq)} holds {board.cell(*sq)}, "
                    f"the move writes {token.letter.upper()}",
                    sq, on_board, token.letter,
                )  # fmt: skip
        else:
            if token.letter is None or token.through:
                raise InputError(
                    f"move {placement.text!r}: {square_name(*sq)} is empty, but the move expects a tile there"
                )
            tiles.append(Tile(sq[0], sq[1], token.letter, blank=not token.upper))
    if not tiles:
        raise InputError(f"move {placement.text!r}: lays no new tile")
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
