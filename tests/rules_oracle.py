"""An independent judge and scorer of moves, written for the tests straight from the rules.

It reads a variant's TOML file itself (with ``tomllib``) and applies the rules of
../shared/docs/rules-literaki.md and rules-literki.md word by word.  It shares no code with
``literaki_cli.engine`` (not the variant parser, not the scoring tables, not ``score_tiles``), so
a mistake there shows up as a disagreement with this module instead of being copied into the
expected values.  It is deliberately plain and slow: clarity over speed.

A position is a *grid*: ``{(row, col): (letter, blank)}`` for every tile on the board (0-based,
row 0 at the top), letters in lower case.  A move is a list of new tiles ``(row, col, letter,
blank)``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

Grid = dict[tuple[int, int], tuple[str, bool]]
NewTile = tuple[int, int, str, bool]

VARIANTS = Path(__file__).resolve().parent.parent / "literaki_cli" / "variants"
ACROSS_STEP, DOWN_STEP = (0, 1), (1, 0)
DIRECTION_NAME = {ACROSS_STEP: "across", DOWN_STEP: "down"}


@dataclass(frozen=True)
class Square:
    """What one square does to a tile laid on it in this move (rules: premiums of new tiles only)."""

    colour: str | None = None
    letter_multiplier: int = 1
    word_multiplier: int = 1
    directional_multiplier: int = 1
    directions: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Rules:
    rows: int
    columns: int
    start: tuple[int, int]
    squares: tuple[tuple[Square, ...], ...]  # [row][col]
    tile_colour: dict[str, str]
    colour_value: dict[str, int]
    colour_multiplier: int
    bingo_tiles: int
    bingo_bonus: int
    first_move_min_tiles: int
    min_length: int
    max_length: int

    def tile_value(self, letter: str, blank: bool) -> int:
        """A tile's plain value: its colour's value; a blank is worth 0."""
        return 0 if blank else self.colour_value[self.tile_colour[letter]]


def rules_from_text(text: str) -> Rules:
    """The rules of one variant TOML document, with the defaults the variant format documents."""
    data = tomllib.loads(text)
    board = data["board"]
    kinds = {
        key: Square(
            colour=spec.get("colour"),
            letter_multiplier=spec.get("letter_multiplier", 1),
            word_multiplier=spec.get("word_multiplier", 1),
            directional_multiplier=spec.get("directional_word_multiplier", 1),
            directions=frozenset(spec.get("directions", ())),
        )
        for key, spec in data["squares"].items()
    }
    start = board["start"]  # e.g. "h8": column letter a.., row number 1.. from the top
    tiles = {letter: spec for letter, spec in data["tiles"].items() if letter != "blanks"}
    scoring = data.get("scoring", {})
    return Rules(
        rows=board["rows"],
        columns=board["columns"],
        start=(int(start[1:]) - 1, ord(start[0]) - ord("a")),
        squares=tuple(tuple(kinds[ch] for ch in row) for row in board["layout"]),
        tile_colour={letter: colour for letter, (_, colour) in tiles.items()},
        colour_value=dict(data["colours"]),
        colour_multiplier=scoring.get("colour_multiplier", 1),
        bingo_tiles=scoring.get("bingo_tiles", 7),
        bingo_bonus=scoring.get("bingo_bonus", 0),
        first_move_min_tiles=data.get("first_move", {}).get("min_tiles", 2),
        min_length=data["words"]["min_length"],
        max_length=data["words"]["max_length"],
    )


def rules_of(name: str) -> Rules:
    """The rules of a variant shipped with the package, read from its file."""
    return rules_from_text((VARIANTS / f"{name}.toml").read_text(encoding="utf-8"))


@dataclass
class Word:
    squares: list[tuple[int, int]]
    letters: str  # lower case
    step: tuple[int, int]
    letter_sum: int
    multiplier: int

    @property
    def score(self) -> int:
        return self.letter_sum * self.multiplier


@dataclass
class Judgement:
    words: list[Word]
    bingo: int
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(w.score for w in self.words) + self.bingo

    @property
    def legal(self) -> bool:
        return not self.problems


def _run_through(filled: Grid, row: int, col: int, step: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares of the unbroken line of tiles through (row, col) along ``step``."""
    dr, dc = step
    r, c = row, col
    while (r - dr, c - dc) in filled:
        r, c = r - dr, c - dc
    squares = []
    while (r, c) in filled:
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _score_word(rules: Rules, filled: Grid, new: set[tuple[int, int]], squares, step) -> Word:
    """Rules 2-5 of rules-literaki.md, and Literki's letter and directional premiums."""
    letter_sum, multiplier = 0, 1
    for r, c in squares:
        letter, blank = filled[(r, c)]
        value = rules.tile_value(letter, blank)
        if (r, c) in new:
            square = rules.squares[r][c]
            value *= square.letter_multiplier
            if square.colour is not None and square.colour == rules.tile_colour[letter]:
                value *= rules.colour_multiplier
            multiplier *= square.word_multiplier
        letter_sum += value
    name = DIRECTION_NAME[step]
    for (r, c), end in ((squares[0], "start"), (squares[-1], "end")):
        square = rules.squares[r][c]
        if (r, c) in new and f"{name}-{end}" in square.directions:
            multiplier *= square.directional_multiplier
    letters = "".join(filled[sq][0] for sq in squares)
    return Word(list(squares), letters, step, letter_sum, multiplier)


def judge(rules: Rules, grid: Grid, tiles: list[NewTile]) -> Judgement:
    """Every word the new tiles form, scored, and every rule of placing that they break."""
    problems = []
    new = {(r, c) for r, c, _, _ in tiles}
    if not tiles:
        return Judgement([], 0, ["no tiles"])
    if len(new) != len(tiles):
        problems.append("two tiles on one square")
    if any(sq in grid for sq in new):
        problems.append("a square is already occupied")
    if any(not (0 <= r < rules.rows and 0 <= c < rules.columns) for r, c in new):
        return Judgement([], 0, problems + ["off the board"])
    filled = dict(grid)
    filled.update({(r, c): (letter, blank) for r, c, letter, blank in tiles})
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    if len(rows) > 1 and len(cols) > 1:
        problems.append("not in one row or column")
    # Words: every line of two or more tiles through a new tile, in both directions.  For a
    # legal move this is the main word plus one cross word per new tile that makes one.
    words: list[Word] = []
    seen = set()
    for step in (ACROSS_STEP, DOWN_STEP):
        for r, c in sorted(new):
            squares = _run_through(filled, r, c, step)
            if len(squares) >= 2 and (squares[0], step) not in seen:
                seen.add((squares[0], step))
                words.append(_score_word(rules, filled, new, squares, step))
    if len(rows) == 1 or len(cols) == 1:
        step = ACROSS_STEP if len(rows) == 1 and len(new) > 1 else DOWN_STEP
        first = min(new)
        line = _run_through(filled, *first, step)
        if len(new) > 1 and not new <= set(line):
            problems.append("the tiles do not form one unbroken word")
    if not words:
        problems.append("no word of two or more letters")
    if not grid:
        if rules.start not in new:
            problems.append("the first move does not cover the start square")
        if len(tiles) < rules.first_move_min_tiles:
            problems.append(f"the first move lays fewer than {rules.first_move_min_tiles} tiles")
    elif not any((r + dr, c + dc) in grid for r, c in new for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))):
        problems.append("the move touches no tile on the board")
    for w in words:
        if not rules.min_length <= len(w.letters) <= rules.max_length:
            problems.append(f"{w.letters} is outside {rules.min_length}..{rules.max_length} letters")
    bingo = rules.bingo_bonus if len(tiles) == rules.bingo_tiles else 0
    return Judgement(words, bingo, problems)


def grid_of(board) -> Grid:
    """A library Board as a grid (its tiles only; nothing of its logic is used)."""
    return {(r, c): (letter, blank) for r, c, letter, blank in board.tiles()}
