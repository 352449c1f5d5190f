"""A position: the board, the racks, the scores and the count of zero-scoring turns, plus the
checks that say whether it can occur in a game of the variant."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import square_name
from literaki_cli.engine.variant import Variant
from literaki_cli.errors import InputError, said

BLANK = "?"


@dataclass
class Position:
    variant: Variant
    board: Board
    racks: list[str] = field(default_factory=list)  # lower-case letters and '?', player to move first
    scores: list[int] = field(default_factory=list)
    zero_turns: int = 0
    opcodes: dict[str, str] = field(default_factory=dict)  # CGP opcodes kept as read (lex, lm, ...)

    @property
    def rack(self) -> str:
        """The rack of the player to move ('' when unknown)."""
        return self.racks[0] if self.racks else ""

    @property
    def players(self) -> int:
        """Players at the table: as many as the scores or racks name, at least two."""
        return max(2, len(self.scores), len(self.racks))


def normalize_rack(text: str, where: str = said("rack")) -> str:
    """A rack as lower-case letters and '?' blanks; raises on anything else (naming it ``where``)."""
    rack = alphabet.normalize(text.strip())
    for i, ch in enumerate(rack, 1):
        if ch != BLANK and not alphabet.is_polish_letter(ch):
            raise InputError(said("{what} {rack!r}: character {at} {char!r} is not a Polish letter or '?'",
                                  what=where, rack=text, at=i, char=ch))  # fmt: skip
    return rack


def board_tiles(board: Board) -> Counter:
    """The tiles on ``board``: a count per letter, blanks counted under '?' (counted with numpy:
    a batch validates every line's board)."""
    placed = board.letters != 0
    blanks = int((placed & board.blanks).sum())
    by_code = np.bincount(board.letters[placed & ~board.blanks], minlength=1)
    counts = Counter({alphabet.LETTER_OF[code]: int(n) for code, n in enumerate(by_code.tolist()) if n})
    if blanks:
        counts[BLANK] = blanks
    return counts


def over_supply(variant: Variant, used: Counter, where: str) -> list[str]:
    """Every tile ``used`` holds more of than the variant's set ('?' = blanks), said as ``where``."""
    problems = []
    for letter in alphabet.polish_sorted(ch for ch in used if ch != BLANK):
        have = variant.tiles[letter].count if letter in variant.tiles else 0
        if used[letter] > have:
            problems.append(said("{count} x {letter} {where}, the bag has {have}",
                                 count=used[letter], letter=letter.upper(), where=where, have=have))  # fmt: skip
    if used[BLANK] > variant.blanks:
        problems.append(said("{count} blanks {where}, the bag has {have}", count=used[BLANK], where=where,
                             have=variant.blanks))  # fmt: skip
    return problems


def bag_left(position: Position) -> int:
    """Tiles left in the bag: the full set minus the board and the known racks."""
    on_board = sum(board_tiles(position.board).values())
    return position.variant.tile_count - on_board - sum(len(r) for r in position.racks)


def tile_count_problems(position: Position) -> list[str]:
    """Where the board and racks hold more of a tile than the bag has (empty when fine)."""
    variant = position.variant
    used = board_tiles(position.board) + Counter("".join(position.racks))
    problems = over_supply(variant, used, said("on board and racks"))
    for i, rack in enumerate(position.racks):
        if len(rack) > variant.rack_size:
            problems.append(said("rack {rack} holds {count} tiles, at most {most}",
                                 rack=i + 1, count=len(rack), most=variant.rack_size))  # fmt: skip
    return problems


def disconnected_tiles(board: Board, start: tuple[int, int]) -> list[tuple[int, int]]:
    """Tiles not joined (through neighbours across or down) to the tile on the start square."""
    occupied = board.letters.tolist()  # Python lists: the walk below reads every tile's neighbours
    tiles = {(r, c) for r, row in enumerate(occupied) for c, code in enumerate(row) if code}
    if not tiles:
        return []
    seen: set[tuple[int, int]] = set()
    stack = [start] if start in tiles else []
    while stack:
        square = stack.pop()
        if square in seen:
            continue
        seen.add(square)
        r, c = square
        for neighbour in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if neighbour in tiles and neighbour not in seen:
                stack.append(neighbour)
    return sorted(tiles - seen)


def validate(position: Position, lenient: bool = False, source: str = said("position")) -> list[str]:
    """Raise :class:`InputError` for an impossible position; returns warnings.

    Tile counts beyond the bag are errors, or warnings with ``lenient`` (for hypothetical
    positions).  Tiles cut off from the start square are always errors.
    """
    variant = position.variant
    board = position.board
    if (board.rows, board.columns) != (variant.board.rows, variant.board.columns):
        raise InputError(said("{source}: board is {rows} x {columns}, variant {variant} needs {need_rows} x "
                              "{need_columns}", source=source, rows=board.rows, columns=board.columns,
                              variant=variant.name, need_rows=variant.board.rows,
                              need_columns=variant.board.columns))  # fmt: skip
    codes = sorted(set(board.letters[board.letters != 0].tolist()))  # (np.unique would load numpy.ma: 10 ms)
    missing = [code for code in codes if alphabet.LETTER_OF[code] not in variant.tiles]
    if missing:  # the first such square in reading order
        r, c = (int(i) for i in np.argwhere(np.isin(board.letters, missing))[0])
        letter = alphabet.LETTER_OF[int(board.letters[r, c])]
        raise InputError(said("{source}: {square}: letter {letter} has no tile in {variant}",
                              source=source, square=square_name(r, c), letter=letter.upper(),
                              variant=variant.name))  # fmt: skip
    problems = tile_count_problems(position)
    if problems and not lenient:
        raise InputError(said("{source}: {problem} (--lenient accepts it for a hypothetical position)",
                              source=source, problem=problems[0]))  # fmt: skip
    loose = disconnected_tiles(board, variant.board.start)
    if loose:
        start = square_name(*variant.board.start)
        names = ", ".join(square_name(r, c) for r, c in loose[:5]) + (" ..." if len(loose) > 5 else "")
        if not board.occupied(*variant.board.start):
            raise InputError(said("{source}: tiles on the board but none on the start square {start}",
                                  source=source, start=start))  # fmt: skip
        raise InputError(said("{source}: tiles not connected to the tiles through {start}: {squares}",
                              source=source, start=start, squares=names))  # fmt: skip
    return problems
