"""A brute-force move enumerator, independent of the move generator: every line segment of
the board, every lexicon word that fits it, every way to take its new tiles from the rack
(blanks included), judged and scored by `literaki_cli.engine.scoring` (the `score` command's code)."""

from __future__ import annotations

import itertools
from collections import Counter

from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Tile
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, Variant


def blank_choices(needed: list[tuple[int, int, str]], rack: str):
    """Every way to cover the needed (row, col, letter) from the rack: which of them are blanks."""
    counts = Counter(rack)
    blanks = counts.pop("?", 0)
    n = len(needed)
    for k in range(min(blanks, n) + 1):
        for chosen in itertools.combinations(range(n), k):
            real = Counter(needed[i][2] for i in range(n) if i not in chosen)
            if all(counts[letter] >= c for letter, c in real.items()):
                yield [Tile(r, c, letter, i in chosen) for i, (r, c, letter) in enumerate(needed)]


def all_moves(board: Board, variant: Variant, rack: str, words: set[str]) -> dict[frozenset, int]:
    """{frozenset of new tiles: score} for every legal move."""
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    found: dict[frozenset, int] = {}
    rows, cols = board.rows, board.columns
    for direction in (ACROSS, DOWN):
        lines, length = (rows, cols) if direction == ACROSS else (cols, rows)
        for line in range(lines):
            for start in range(length):
                for end in range(start + 1, length):
                    n = end - start + 1
                    if n not in by_length:
                        continue
                    squares = [(line, i) if direction == ACROSS else (i, line) for i in range(start, end + 1)]
                    before = (line, start - 1) if direction == ACROSS else (start - 1, line)
                    after = (line, end + 1) if direction == ACROSS else (end + 1, line)
                    if board.occupied(*before) or board.occupied(*after):
                        continue
                    empty = [i for i, sq in enumerate(squares) if not board.occupied(*sq)]
                    if not empty or len(empty) > len(rack):
                        continue
                    for word in by_length[n]:
                        if any(
                            board.occupied(*sq) and board.cell(*sq).lower() != word[i] for i, sq in enumerate(squares)
                        ):
                            continue
                        needed = [(*squares[i], word[i]) for i in empty]
                        for tiles in blank_choices(needed, rack):
                            move = score_tiles(board, variant, tiles, direction)
                            if move.problems or not all(w.plain_word in words for w in move.words):
                                continue
                            key = frozenset(tiles)
                            if key in found:
                                assert found[key] == move.total
                            found[key] = move.total
    return found
