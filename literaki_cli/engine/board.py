"""The board: which tile stands on which square, as two flat-friendly numpy grids.

``letters[row, col]`` is a letter code (0 = empty) and ``blanks[row, col]`` marks a blank
standing for that letter.  In text a tile is its upper-case letter, a blank its lower-case
letter, an empty square ``.``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.variant import Variant

EMPTY_CELL = "."


@dataclass
class Board:
    letters: np.ndarray  # uint8 [rows, columns]
    blanks: np.ndarray  # bool  [rows, columns]

    @classmethod
    def empty(cls, rows: int, columns: int) -> Board:
        return cls(np.zeros((rows, columns), dtype=np.uint8), np.zeros((rows, columns), dtype=np.bool_))

    @classmethod
    def for_variant(cls, variant: Variant) -> Board:
        return cls.empty(variant.board.rows, variant.board.columns)

    @property
    def rows(self) -> int:
        return self.letters.shape[0]

    @property
    def columns(self) -> int:
        return self.letters.shape[1]

    def is_empty(self) -> bool:
        return not self.letters.any()

    def occupied(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.columns and self.letters[row, col] != 0

    def cell(self, row: int, col: int) -> str:
        """The text of one square: ``.``, an upper-case tile or a lower-case blank."""
        code = int(self.letters[row, col])
        if code == 0:
            return EMPTY_CELL
        letter = alphabet.LETTER_OF[code]
        return letter if self.blanks[row, col] else letter.upper()

    def set_cell(self, row: int, col: int, letter: str, blank: bool) -> None:
        self.letters[row, col] = alphabet.CODE_OF[letter]
        self.blanks[row, col] = blank

    def to_rows(self) -> list[str]:
        return ["".join(self.cell(r, c) for c in range(self.columns)) for r in range(self.rows)]

    def copy(self) -> Board:
        return Board(self.letters.copy(), self.blanks.copy())

    def with_tiles(self, tiles) -> Board:
        """A copy with ``tiles`` (anything with row, col, letter, blank) laid on it."""
        board = self.copy()
        for t in tiles:
            board.set_cell(t.row, t.col, t.letter, t.blank)
        return board

    def transposed(self) -> Board:
        return Board(self.letters.T.copy(), self.blanks.T.copy())

    def tiles(self) -> list[tuple[int, int, str, bool]]:
        """Every tile as (row, col, letter, blank)."""
        letters, blanks = self.letters.tolist(), self.blanks.tolist()  # lists read quicker square by square
        return [
            (r, c, alphabet.LETTER_OF[code], blanks[r][c])
            for r, row in enumerate(letters)
            for c, code in enumerate(row)
            if code
        ]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and np.array_equal(self.letters, other.letters)
            and np.array_equal(self.blanks, other.blanks)
        )
