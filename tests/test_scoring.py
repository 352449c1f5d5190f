"""Every scoring rule of rules-literaki.md, with the examples given there."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import parse_square
from literaki_cli.engine.move import Tile, parse_move, resolve
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, load_variant

V = load_variant()


def board_with(**squares: str) -> Board:
    """A board with tiles given as square=letter (lower case letter given as 'blank:x')."""
    board = Board.for_variant(V)
    for name, letter in squares.items():
        r, c = parse_square(name, 15, 15)
        board.set_cell(r, c, letter.lower(), blank=letter.islower())
    return board


def tiles(*specs: str) -> list[Tile]:
    """Tiles from 'h8Ż' specs; a lower-case letter is a blank."""
    out = []
    for spec in specs:
        name, letter = spec[:-1], spec[-1]
        r, c = parse_square(name, 15, 15)
        out.append(Tile(r, c, letter.lower(), blank=letter.islower()))
    return out


def test_board_layout_counts_and_start():
    counts = {}
    for row in V.board.layout:
        for ch in row:
            counts[ch] = counts.get(ch, 0) + 1
    assert counts == {"R": 17, "G": 24, "Y": 20, "B": 8, "2": 16, "3": 8, ".": 132}
    assert V.board.start == (7, 7)
    assert V.board.kind_at(7, 7).colour == "red" and V.board.kind_at(7, 7).word_multiplier == 1


def test_board_symmetric_under_flips_and_transposition():
    grid = np.array([list(row) for row in V.board.layout])
    assert (grid == grid[::-1, :]).all()
    assert (grid == grid[:, ::-1]).all()
    assert (grid == grid.T).all()


def test_tile_set():
    assert V.tile_count == 100 and V.blanks == 2
    per_colour = {}
    for t in V.tiles.values():
        per_colour[t.colour] = per_colour.get(t.colour, 0) + t.count
    assert per_colour == {"yellow": 52, "green": 25, "blue": 12, "red": 9}
    assert {t.colour: t.value for t in V.tiles.values()} == {"yellow": 1, "green": 2, "blue": 3, "red": 5}
    assert len(V.tiles) == 32 and set(V.tiles) == set(alphabet.POLISH_LETTERS)


def test_blue_j_on_blue_square_is_9_and_red_z_on_red_square_is_15():
    move = score_tiles(Board.for_variant(V), V, tiles("f8J", "g8A", "h8Ż"))
    (word,) = move.words
    assert [ls.value for ls in word.letters] == [9, 1, 15]
    assert move.total == 25 and move.valid


def test_letter_on_another_colour_counts_its_plain_value():
    move = score_tiles(Board.for_variant(V), V, tiles("h8J", "i8A"))  # blue J on the red centre
    assert [ls.value for ls in move.words[0].letters] == [3, 1]
    assert move.total == 4


def test_centre_is_red_and_not_a_word_multiplier():
    move = score_tiles(Board.for_variant(V), V, tiles("h8Ż", "i8A"))
    assert move.total == 16 and move.words[0].multipliers == []


def test_two_double_word_squares_multiply_by_four():
    # f3 (2X) g3 h3 (yellow) i3 j3 (2X): K O T E K = 2+1+2+1+2 (T is green, h3 yellow)
    word = score_tiles(Board.for_variant(V), V, tiles("f3K", "g3O", "h3T", "i3E", "j3K")).words[0]
    assert word.letter_sum == 8 and word.multiplier == 4 and word.score == 32


def test_double_and_triple_word_squares_multiply_by_six():
    word = score_tiles(Board.for_variant(V), V, tiles("a3A", "b3A", "c3A", "d3A", "e3A", "f3A")).words[0]
    assert word.letter_sum == 6 and word.multiplier == 6 and word.score == 36


def test_bingo_bonus_is_added_after_multipliers():
    move = score_tiles(Board.for_variant(V), V, tiles("a3A", "b3A", "c3A", "d3A", "e3A", "f3A", "g3A"))
    assert move.words[0].score == 7 * 6 and move.bingo == 50 and move.total == 92


def test_six_tiles_get_no_bonus():
    assert score_tiles(Board.for_variant(V), V, tiles("h8A", "i8A", "j8A", "k8A", "l8A", "m8A")).bingo == 0


def test_premiums_count_only_for_newly_placed_tiles():
    board = board_with(h8="Ż", f8="J")  # both on their own colour, placed earlier
    move = score_tiles(board, V, tiles("g8A"))
    assert [ls.value for ls in move.words[0].letters] == [3, 1, 5]
    # An old tile on a word square no longer multiplies.
    board = board_with(f3="K", g3="O")
    move = score_tiles(board, V, tiles("h3T"))
    assert move.words[0].multipliers == [] and move.total == 2 + 1 + 2


def test_new_tile_on_premium_counts_in_both_words():
    board = board_with(a7="A", b8="A")
    move = score_tiles(board, V, tiles("b7Ż"))  # b7 is red
    assert sorted((w.word, w.score) for w in move.words) == [("AŻ", 16), ("ŻA", 16)]
    assert move.total == 32


def test_blank_is_zero_never_tripled_but_multiplies_the_word():
    move = score_tiles(Board.for_variant(V), V, tiles("f3a", "g3A", "h3A"))  # blank on 2X, A on yellow
    word = move.words[0]
    assert [ls.value for ls in word.letters] == [0, 1, 3]
    assert word.multiplier == 2 and move.total == 8
    move = score_tiles(Board.for_variant(V), V, tiles("g8A", "h8ż"))  # blank Ż on red: 0
    assert move.total == 1
    assert move.words[0].word == "Aż"


def test_cross_word_multiplier_applies_to_each_word_through_the_square():
    board = board_with(f2="A", g3="A")  # f3 is 2X: a tile there makes f2-f3 down and f3-g3 across
    move = score_tiles(board, V, tiles("f3E"))
    assert sorted(w.score for w in move.words) == [4, 4]


def test_legality_problems():
    empty = Board.for_variant(V)
    assert "cover the start square h8" in " ".join(score_tiles(empty, V, tiles("a1A", "b1A")).problems)
    assert "at least 2 letters" in " ".join(score_tiles(empty, V, tiles("h8A")).problems)
    assert "one row or one column" in " ".join(score_tiles(empty, V, tiles("h8A", "i9A")).problems)
    assert "unbroken" in " ".join(score_tiles(empty, V, tiles("h8A", "j8A")).problems)
    board = board_with(h8="A", i8="A")
    assert "does not touch" in " ".join(score_tiles(board, V, tiles("a1A", "b1A")).problems)
    assert "already occupied" in " ".join(score_tiles(board, V, tiles("h8A", "h9A")).problems)
    assert score_tiles(board, V, tiles("j8A")).valid
    # The gap is filled by a tile on the board: one unbroken word.
    assert score_tiles(board_with(h8="A"), V, tiles("g8A", "i8A")).valid


def test_single_tile_is_scored_in_both_directions_once():
    board = board_with(h8="A", i8="A", h9="A")
    across = score_tiles(board, V, tiles("i9E"), ACROSS)
    down = score_tiles(board, V, tiles("i9E"), DOWN)
    assert across.total == down.total
    assert sorted(w.word for w in across.words) == sorted(w.word for w in down.words) == ["AE", "AE"]


@st.composite
def scored_situations(draw):
    """A random board and a random line of new tiles on its empty squares."""
    letters = st.sampled_from(alphabet.POLISH_LETTERS)
    board = Board.for_variant(V)
    for _ in range(draw(st.integers(0, 40))):
        r, c = draw(st.integers(0, 14)), draw(st.integers(0, 14))
        board.set_cell(r, c, draw(letters), draw(st.booleans()))
    direction = draw(st.sampled_from([ACROSS, DOWN]))
    line = draw(st.integers(0, 14))
    free = [i for i in range(15) if not (board.letters[line, i] if direction == ACROSS else board.letters[i, line])]
    if not free:
        free = [0]
        board.letters[line if direction == ACROSS else 0, 0 if direction == ACROSS else line] = 0
    chosen = draw(st.lists(st.sampled_from(free), min_size=1, max_size=7, unique=True))
    new = []
    for i in chosen:
        r, c = (line, i) if direction == ACROSS else (i, line)
        new.append(Tile(r, c, draw(letters), draw(st.booleans())))
    return board, new, direction


@settings(max_examples=200, deadline=None)
@given(scored_situations())
def test_transposed_position_and_move_score_the_same(situation):
    board, new, direction = situation
    original = score_tiles(board, V, new, direction)
    flipped = score_tiles(board.transposed(), V, [Tile(t.col, t.row, t.letter, t.blank) for t in new], 1 - direction)
    assert flipped.total == original.total
    assert sorted((w.word, w.score) for w in flipped.words) == sorted((w.word, w.score) for w in original.words)
    assert flipped.valid == original.valid


@settings(max_examples=100, deadline=None)
@given(scored_situations())
def test_mirrored_board_scores_mirrored_words_the_same(situation):
    board, new, direction = situation
    original = score_tiles(board, V, new, direction)
    mirrored = Board(board.letters[::-1, :].copy(), board.blanks[::-1, :].copy())
    moved = [Tile(14 - t.row, t.col, t.letter, t.blank) for t in new]
    flipped = score_tiles(mirrored, V, moved, direction)
    # Down words read in the other order after a top-bottom flip; their scores do not change.
    assert sorted(w.score for w in flipped.words) == sorted(w.score for w in original.words)
    assert flipped.total == original.total


def test_resolved_notation_scores_like_the_tiles():
    board = board_with(h8="Ż", i8="Ó", j8="Ł", k8="W")
    for text in ("8H ŻÓŁWI", "8H ....I", "8H (ŻÓŁW)I", "8H żółwI"):
        placed = resolve(parse_move(text, V), board)
        assert placed == tiles("l8I")
    assert score_tiles(board, V, tiles("l8I")).total == 5 + 5 + 3 + 1 + 1


@pytest.mark.parametrize("letter, square, expected", [("ż", "h8", 15), ("a", "c8", 3), ("k", "d3", 6), ("h", "h6", 9)])
def test_new_tile_value_table(letter, square, expected):
    r, c = parse_square(square, 15, 15)
    assert V.tables.new_tile_value[r * 15 + c, alphabet.CODE_OF[letter]] == expected
