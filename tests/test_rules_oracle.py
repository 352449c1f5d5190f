"""The independent scorer (tests/rules_oracle.py) against the examples of the rules documents,
and the library's `score_tiles` against it on random positions of three boards."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Tile
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, load_variant, parse_variant
from tests.rules_oracle import VARIANTS, Rules, grid_of, judge, rules_from_text, rules_of
from tests.test_movegen import small_board_text

LITERAKI, LITERKI, SMALL = load_variant(), load_variant("literki"), parse_variant(small_board_text(), "small.toml")
ORACLE = {
    "literaki": rules_of("literaki"),
    "literki": rules_of("literki"),
    "small": rules_from_text(small_board_text()),
}


def square(name: str) -> tuple[int, int]:
    """'h8' -> (7, 7): column letter, row number from the top."""
    return int(name[1:]) - 1, ord(name[0]) - ord("a")


def spec(*items: str) -> list[tuple[int, int, str, bool]]:
    """Tiles from 'h8Ż' items; a lower-case letter is a blank."""
    return [(*square(item[:-1]), item[-1].lower(), item[-1].islower()) for item in items]


def both(variant, rules: Rules, old: list[str], new: list[str]) -> tuple[int, int]:
    """The total of one move by the oracle and by the library's `score_tiles` (some examples are
    scored away from the start square on an empty board: their legality is checked to agree)."""
    grid = {(r, c): (letter, blank) for r, c, letter, blank in spec(*old)}
    tiles = spec(*new)
    verdict = judge(rules, grid, tiles)
    board = Board.for_variant(variant)
    for (r, c), (letter, blank) in grid.items():
        board.set_cell(r, c, letter, blank)
    library = score_tiles(board, variant, [Tile(*t) for t in tiles])
    assert verdict.legal == library.valid, (verdict.problems, library.problems)
    return verdict.total, library.total


# Hand-computed from ../shared/docs/rules-literaki.md: values yellow 1, green 2, blue 3, red 5;
# a new tile on its own colour x3; 2X/3X squares multiply; +50 for 7 tiles after multipliers.
LITERAKI_EXAMPLES = [
    # blue J on the blue f8 = 9, A on plain g8 = 1, red Ż on the red centre = 15
    ([], ["f8J", "g8A", "h8Ż"], 25),
    # blue J on the red centre counts its plain 3
    ([], ["h8J", "i8A"], 4),
    # K O T E K over f3 (2X) and j3 (2X): 2 + 1 + 2 (green T on yellow h3) + 1 + 2 = 8, x4
    ([], ["f3K", "g3O", "h3T", "i3E", "j3K"], 32),
    # a3 (3X) .. f3 (2X): six yellow A, the one on green d3 plain: 6 x 6
    ([], ["a3A", "b3A", "c3A", "d3A", "e3A", "f3A"], 36),
    # seven tiles: 7 x 6 + 50 after the multipliers
    ([], ["a3A", "b3A", "c3A", "d3A", "e3A", "f3A", "g3A"], 92),
    # premiums of earlier moves no longer count: K (f3, 2X) and O placed earlier, T new on yellow h3
    (["f3K", "g3O"], ["h3T"], 5),
    # a red Ż on the red b7 closes AŻ (down) and ŻA (across): 1 + 15 in each
    (["a7A", "b8A"], ["b7Ż"], 32),
    # a blank on f3 (2X) is 0 but doubles the word; A on the yellow h3 counts 3: (0 + 1 + 3) x 2
    ([], ["f3a", "g3A", "h3A"], 8),
    # tests/test_solve.py's known best move ŻÓŁWIAk 8H: 15 + 5 + 9 + 1 + 1 + 3 + 0 + 50
    ([], ["h8Ż", "i8Ó", "j8Ł", "k8W", "l8I", "m8A", "n8k"], 84),
]

# Hand-computed from ../shared/docs/rules-literki.md on literki.toml's board (2L d, 3L t, 2S D,
# 3S T, 4S > < v ^), no colour bonus (colour_multiplier = 1).
LITERKI_EXAMPLES = [
    # K on h8 (2L) = 4, O on the centre i8 = 1, T on j8 (2L) = 4
    ([], ["h8K", "i8O", "j8T"], 9),
    # a blank on a letter premium stays 0
    ([], ["h8k", "i8O", "j8T"], 5),
    # KOT starting on a8 (4S across-start): K 2, old O 1, T on c8 (3L) 6 = 9, x4
    (["b8O"], ["a8K", "c8T"], 36),
    # KOT ending on q8 (4S across-end): K on o8 (3L) 6, old O 1, T 2 = 9, x4
    (["p8O"], ["o8K", "q8T"], 36),
    # a down word ending on a8 (across-start only) gets no x4: K 2 + O 1
    (["a9T"], ["a7K", "a8O"], 2 + 1 + 2),
    # KOT down starting on e1 (4S down-start): 5 x 4
    (["e2O"], ["e1K", "e3T"], 20),
    # a blank on b2 (2S) still doubles the word: (0 + 1 + 2) x 2
    (["c2O"], ["b2k", "d2T"], 6),
    # a word over a1 (3S): K O T = 5, x3
    (["b1O"], ["a1K", "c1T"], 15),
]


@pytest.mark.parametrize("old, new, expected", LITERAKI_EXAMPLES)
def test_literaki_examples_of_the_rules(old, new, expected):
    assert both(LITERAKI, ORACLE["literaki"], old, new) == (expected, expected)


@pytest.mark.parametrize("old, new, expected", LITERKI_EXAMPLES)
def test_literki_examples_of_the_rules(old, new, expected):
    assert both(LITERKI, ORACLE["literki"], old, new) == (expected, expected)


def test_oracle_reads_the_rules_files():
    literaki, literki = ORACLE["literaki"], ORACLE["literki"]
    assert (literaki.rows, literaki.columns, literaki.start) == (15, 15, (7, 7))
    assert (literki.rows, literki.columns, literki.start) == (15, 17, (7, 8))
    colours = Counter(s.colour for row in literaki.squares for s in row if s.colour)
    assert colours == {"red": 17, "green": 24, "yellow": 20, "blue": 8}
    assert Counter(s.word_multiplier for row in literaki.squares for s in row) == {1: 201, 2: 16, 3: 8}
    assert literaki.tile_value("ż", False) == 5 and literaki.tile_value("ż", True) == 0
    assert (literaki.colour_multiplier, literaki.bingo_tiles, literaki.bingo_bonus) == (3, 7, 50)
    assert (literki.colour_multiplier, literki.squares[7][0].directions) == (1, frozenset({"across-start"}))


def test_oracle_judges_the_placing_rules():
    rules = ORACLE["literaki"]
    assert not judge(rules, {}, spec("a1A", "b1A")).legal  # the first move misses h8
    assert not judge(rules, {}, spec("h8A")).legal  # one tile on an empty board forms no word
    assert not judge(rules, {}, spec("h8A", "i9A")).legal  # not in one line
    assert not judge(rules, {}, spec("h8A", "j8A")).legal  # a gap
    grid = {square("h8"): ("a", False)}
    assert judge(rules, grid, spec("g8A", "i8A")).legal  # the gap is the board's tile
    assert not judge(rules, grid, spec("a1A", "b1A")).legal  # does not touch
    assert not judge(rules, grid, spec("h8A", "h9A")).legal  # occupied
    text = (VARIANTS / "literaki.toml").read_text(encoding="utf-8")
    short = rules_from_text(text.replace("max_length = 15", "max_length = 4"))
    assert not judge(short, {}, spec("f8A", "g8A", "h8A", "i8A", "j8A")).legal
    assert judge(short, {}, spec("g8A", "h8A", "i8A", "j8A")).legal


BOARDS = [
    pytest.param(LITERAKI, ORACLE["literaki"], id="literaki"),
    pytest.param(LITERKI, ORACLE["literki"], id="literki"),
    pytest.param(SMALL, ORACLE["small"], id="custom-7x9"),
]


@st.composite
def situations(draw, variant):
    """A random board (tiles of the variant's letters) and a random line of new tiles on it:
    half the time a run of consecutive free squares (unbroken by construction), else any subset."""
    rows, cols = variant.board.rows, variant.board.columns
    letters = st.sampled_from(sorted(variant.tiles))
    board = Board.for_variant(variant)
    for _ in range(draw(st.integers(0, 30))):
        board.set_cell(
            draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)), draw(letters), draw(st.booleans())
        )
    direction = draw(st.sampled_from([ACROSS, DOWN]))
    line = draw(st.integers(0, (rows if direction == ACROSS else cols) - 1))
    length = cols if direction == ACROSS else rows
    at = [(line, i) if direction == ACROSS else (i, line) for i in range(length)]
    free = [sq for sq in at if not board.occupied(*sq)]
    if not free:
        return board, [], direction
    if draw(st.booleans()):
        start = draw(st.integers(0, len(free) - 1))
        chosen = free[start : start + draw(st.integers(1, 7))]
    else:
        chosen = draw(st.lists(st.sampled_from(free), min_size=1, max_size=7, unique=True))
    return board, [Tile(r, c, draw(letters), draw(st.booleans())) for r, c in chosen], direction


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_score_tiles_agrees_with_the_oracle(variant, rules, data):
    board, tiles, direction = data.draw(situations(variant))
    if not tiles:
        return
    library = score_tiles(board, variant, tiles, direction)
    verdict = judge(rules, grid_of(board), [(t.row, t.col, t.letter, t.blank) for t in tiles])
    assert library.valid == verdict.legal, (library.problems, verdict.problems)
    # The tiles lie in one line on free squares, so even an illegal move (a gap, no contact, ...)
    # has well-defined words: both must find and score the same ones.
    ours = sorted((w.squares[0], w.letters, w.score) for w in verdict.words)
    theirs = sorted(((w.row, w.col), w.plain_word, w.score) for w in library.words)
    assert theirs == ours
    assert library.total == verdict.total and library.bingo == verdict.bingo
