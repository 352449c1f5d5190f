"""Square names and move coordinates in the GCG/CGP convention.

Rows are numbered 1.. from the top, columns lettered a.. from the left.  A square is named
column-then-row (``h8``).  A move position names the row first for a move across (``8H``) and
the column first for a move down (``H8``).
"""

from __future__ import annotations

import re

from literaki_cli.engine.variant import ACROSS, DOWN
from literaki_cli.errors import InputError, said

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# ASCII digits only: ``\d`` would also match '²' or '٣', which int() then refuses.
_SQUARE = re.compile(r"([a-zA-Z])([0-9]{1,2})")
_POSITION = re.compile(r"(?:([0-9]{1,2})([a-zA-Z])|([a-zA-Z])([0-9]{1,2}))")


def square_name(row: int, col: int) -> str:
    """``h8`` for (7, 7)."""
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def _check(row: int, col: int, rows: int, columns: int, text: str) -> None:
    if not 0 <= row < rows:
        raise InputError(said("{value!r}: row {row} is off the board (rows 1..{rows})",
                              value=text, row=row + 1, rows=rows))  # fmt: skip
    if not 0 <= col < columns:
        raise InputError(said("{value!r}: column {column} is off the board (columns a..{last})", value=text,
                              column=COLUMN_LETTERS[col] if col < 26 else "?",
                              last=COLUMN_LETTERS[columns - 1]))  # fmt: skip


def parse_square(text: str, rows: int, columns: int) -> tuple[int, int]:
    """(row, col), 0-based, of a square name such as ``h8``."""
    m = _SQUARE.fullmatch(text.strip())
    if not m:
        raise InputError(said("{value!r}: not a square name (like h8)", value=text))
    row, col = int(m.group(2)) - 1, COLUMN_LETTERS.index(m.group(1).lower())
    _check(row, col, rows, columns, text)
    return row, col


def parse_position(text: str, rows: int, columns: int) -> tuple[int, int, int]:
    """(row, col, direction) of a move position: ``8H`` across, ``H8`` down."""
    m = _POSITION.fullmatch(text.strip())
    if not m:
        raise InputError(said("{value!r}: not a move position (8H for across, H8 for down)", value=text))
    if m.group(1):
        row, col, direction = int(m.group(1)) - 1, COLUMN_LETTERS.index(m.group(2).lower()), ACROSS
    else:
        row, col, direction = int(m.group(4)) - 1, COLUMN_LETTERS.index(m.group(3).lower()), DOWN
    _check(row, col, rows, columns, text)
    return row, col, direction


def position_name(row: int, col: int, direction: int) -> str:
    """``8H`` (across) or ``H8`` (down)."""
    letter = COLUMN_LETTERS[col].upper()
    return f"{row + 1}{letter}" if direction == ACROSS else f"{letter}{row + 1}"


__all__ = ["ACROSS", "DOWN", "COLUMN_LETTERS", "square_name", "parse_square", "parse_position", "position_name"]
