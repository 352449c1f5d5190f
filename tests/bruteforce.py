"""A brute-force move enumerator, independent of the move generator and of the library's scoring:
every line segment of the board, every lexicon word that fits it, every way to take its new
tiles from the rack (blanks included), judged and scored by :mod:`tests.rules_oracle` (which
reads the rules file itself).

Only necessary conditions prune the search (a segment must have free ends, 1..len(rack) empty
squares, and touch a tile or cover the start square); every candidate is then judged in full.
"""

from __future__ import annotations

import itertools
from collections import Counter

from tests.rules_oracle import Grid, NewTile, Rules, judge

#: A move as the brute force and the tests compare it: its new tiles.
MoveKey = frozenset[NewTile]


def blank_choices(needed: list[tuple[int, int, str]], rack: str):
    """Every way to cover the needed (row, col, letter) from the rack: which of them are blanks."""
    counts = Counter(rack)
    blanks = counts.pop("?", 0)
    n = len(needed)
    for k in range(min(blanks, n) + 1):
        for chosen in itertools.combinations(range(n), k):
            real = Counter(needed[i][2] for i in range(n) if i not in chosen)
            if all(counts[letter] >= c for letter, c in real.items()):
                yield [(r, c, letter, i in chosen) for i, (r, c, letter) in enumerate(needed)]


def _segments(rules: Rules, grid: Grid, rack_size: int, lengths: set[int]):
    """(squares, indices of empty squares) of every segment that might hold a move's main word."""
    neighbours = ((0, 1), (0, -1), (1, 0), (-1, 0))
    for across in (True, False):
        lines, length = (rules.rows, rules.columns) if across else (rules.columns, rules.rows)
        for line in range(lines):
            for start in range(length):
                for end in range(start + 1, length):
                    if end - start + 1 not in lengths:
                        continue
                    squares = [(line, i) if across else (i, line) for i in range(start, end + 1)]
                    before = (line, start - 1) if across else (start - 1, line)
                    after = (line, end + 1) if across else (end + 1, line)
                    if before in grid or after in grid:
                        continue
                    empty = [i for i, sq in enumerate(squares) if sq not in grid]
                    if not empty or len(empty) > rack_size:
                        continue
                    if grid:
                        touches = len(empty) < len(squares) or any(
                            (squares[i][0] + dr, squares[i][1] + dc) in grid for i in empty for dr, dc in neighbours
                        )
                    else:
                        touches = rules.start in squares
                    if touches:
                        yield squares, empty


def _beside(grid: Grid, square: tuple[int, int], step: tuple[int, int]) -> tuple[str, str]:
    """The letters of the tiles just before and just after ``square`` along ``step``."""
    (r, c), (dr, dc) = square, step
    before = after = ""
    while (r - dr, c - dc) in grid:
        r, c = r - dr, c - dc
        before = grid[(r, c)][0] + before
    r, c = square
    while (r + dr, c + dc) in grid:
        r, c = r + dr, c + dc
        after += grid[(r, c)][0]
    return before, after


def all_moves(grid: Grid, rules: Rules, rack: str, words: set[str]) -> dict[MoveKey, int]:
    """{frozenset of new (row, col, letter, blank): score} for every legal move."""
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    have = Counter(rack)
    blanks = have.pop("?", 0)
    found: dict[MoveKey, int] = {}
    for squares, empty in _segments(rules, grid, len(rack), set(by_length)):
        fixed = [(i, grid[sq][0]) for i, sq in enumerate(squares) if sq in grid]
        across = squares[0][0] == squares[-1][0]
        crossing = [(i, *_beside(grid, squares[i], (1, 0) if across else (0, 1))) for i in empty]
        crossing = [(i, before, after) for i, before, after in crossing if before or after]
        for word in by_length[len(squares)]:
            if any(word[i] != letter for i, letter in fixed):
                continue
            short = sum(max(0, c - have[ch]) for ch, c in Counter(word[i] for i in empty).items())
            if short > blanks:
                continue
            if any(before + word[i] + after not in words for i, before, after in crossing):
                continue  # a cross word not in the list (a shortcut: the oracle judges it again)
            needed = [(*squares[i], word[i]) for i in empty]
            for tiles in blank_choices(needed, rack):
                verdict = judge(rules, grid, tiles)
                if not verdict.legal or not all(w.letters in words for w in verdict.words):
                    continue
                key = frozenset(tiles)
                assert found.get(key, verdict.total) == verdict.total
                found[key] = verdict.total
    return found
