"""The lean paths of ``solve --batch`` give exactly what the reference paths give.

* ``solve`` re-scores every move it prints with :func:`scoring.score_generated` (no legality
  checks: the generator makes legal moves only): for every generated move of many positions
  it gives the words, their texts, scores and order, and the total that
  :func:`scoring.score_tiles` gives, and :func:`solve.found_move` the tiles, words and leave
  that the move record's own readers (:func:`movegen.record_tiles`, :func:`record_words`) give.
* A CGP board written plainly is read a whole board at a time: the same board, and for
  anything else the same error, as read square by square.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.analysis.solve import found_move
from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Tile, rack_needs, take_from_rack
from literaki_cli.engine.movegen import (
    BLANK_FLAG,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    COL,
    DIR,
    LENGTH,
    ROW,
    SCORE,
    MoveGenerator,
    record_tiles,
    record_words,
)
from literaki_cli.engine.scoring import BoardGrid, score_generated, score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, load_variant
from literaki_cli.errors import InputError, LiterakiError
from literaki_cli.games.bag import Bag, full_bag
from literaki_cli.io import positionio
from tests.test_movegen import SMALL

VARIANTS = [
    pytest.param(load_variant(), id="literaki"),
    pytest.param(load_variant("literki"), id="literki"),
    pytest.param(SMALL, id="custom-7x9-directional"),
]
TURNS = 40  # positions per variant: the turns of seeded games, each move picked at random
MOVES_PER_TURN = 250  # moves compared per position (all of them when fewer)


def positions(generator: MoveGenerator, variant, seed: int):
    """(board, rack, move arrays) of each turn of seeded games in which each side plays a
    random legal move (more kinds of boards than best-move games reach)."""
    rng = random.Random(seed)
    turns = 0
    while turns < TURNS:
        board = Board.for_variant(variant)
        bag = Bag(full_bag(variant), rng)
        racks = [bag.draw(variant.rack_size), bag.draw(variant.rack_size)]
        mover = idle = 0
        while idle < 2 and turns < TURNS:
            moves = generator.generate(board, racks[mover])
            turns += 1
            yield board, racks[mover], moves
            if not len(moves):
                idle += 1
            else:
                idle = 0
                tiles, _ = record_tiles(moves.records[rng.randrange(len(moves))])
                board = board.with_tiles(tiles)
                leave, _ = take_from_rack(rack_needs(tiles), racks[mover])
                racks[mover] = leave + bag.draw(len(tiles))
                if not racks[mover]:
                    break
            mover = 1 - mover


def main_word(rec) -> tuple[int, int, int, list[tuple[int, bool, bool]]]:
    """(row, col, direction, squares) of a move record, as score_generated takes them."""
    cells = [int(cell) for cell in rec[CELLS : CELLS + rec[LENGTH]]]
    squares = [(cell & CODE_MASK, bool(cell & BLANK_FLAG), not cell & BOARD_FLAG) for cell in cells]
    return int(rec[ROW]), int(rec[COL]), int(rec[DIR]), squares


@pytest.mark.parametrize("rules", VARIANTS)
def test_score_generated_is_score_tiles_for_every_generated_move(flowing_lexicon, rules):
    generator = MoveGenerator(flowing_lexicon, rules)
    rng = random.Random(3)
    compared = with_cross_words = 0
    for board, _, moves in positions(generator, rules, seed=11):
        grid = BoardGrid(board)
        rows = range(len(moves)) if len(moves) <= MOVES_PER_TURN else rng.sample(range(len(moves)), MOVES_PER_TURN)
        for i in rows:
            rec = moves.records[i]
            tiles, direction = record_tiles(rec)
            reference = score_tiles(board, rules, tiles, direction)
            assert not reference.problems
            words, total = score_generated(grid, rules, *main_word(rec))
            assert [(w.word, w.score, w.row, w.col, w.direction) for w in words] == [
                (w.word, w.score, w.row, w.col, w.direction) for w in reference.words
            ]
            assert [w.plain_word for w in words] == [w.plain_word for w in reference.words]
            assert [w.coord for w in words] == [w.coord for w in reference.words]
            assert total == reference.total == int(rec[SCORE])
            compared += 1
            with_cross_words += len(words) > 1
    assert compared > 2000 and with_cross_words > 200  # the positions are not trivial


@pytest.mark.parametrize("rules", VARIANTS)
def test_found_move_is_the_record_read_and_scored_by_the_reference(flowing_lexicon, rules):
    generator = MoveGenerator(flowing_lexicon, rules)
    for board, rack, moves in positions(generator, rules, seed=5):
        grid = BoardGrid(board)
        for i in range(min(len(moves), 60)):
            rec = moves.records[i]
            move = found_move(rec, 7, board, rules, rack, 1.23456, grid)
            tiles, direction = record_tiles(rec)
            word, display = record_words(rec)
            reference = score_tiles(board, rules, tiles, direction)
            assert (move.word, move.display, move.tiles, move.direction) == (word, display, tiles, direction)
            assert move.leave == take_from_rack(rack_needs(tiles), rack)[0]
            assert [(w.word, w.score) for w in move.words] == [(w.word, w.score) for w in reference.words]
            assert move.score == reference.total and move.bingo == (len(tiles) == rules.bingo_tiles)
            assert move.rank == 7 and move.leave_value == 1.235


def test_a_generated_score_the_rules_disagree_with_is_an_internal_error(flowing_lexicon, variant):
    board, rack, moves = next(positions(MoveGenerator(flowing_lexicon, variant), variant, seed=2))
    rec = moves.records[0].copy()
    rec[SCORE] += 1
    with pytest.raises(LiterakiError, match="internal error: generated .* scores") as raised:
        found_move(rec, 1, board, variant, rack)
    assert raised.value.exit_code == 3


def test_score_generated_leaves_a_word_not_on_the_board_as_it_is_to_score_tiles(variant):
    board = Board.for_variant(variant).with_tiles([Tile(7, 7, "k", True), Tile(7, 8, "o", False)])  # kO at h8
    grid = BoardGrid(board)
    k, o, t = (alphabet.CODE_OF[ch] for ch in "kot")
    KO = [(k, True, False), (o, False, False)]
    assert score_generated(grid, variant, 7, 7, ACROSS, [*KO, (t, False, True)]) is not None  # kOT
    assert score_generated(grid, variant, 7, 7, ACROSS, KO) is None  # no new tile
    assert score_generated(grid, variant, 7, 8, ACROSS, [(o, False, False), (t, False, True)]) is None  # runs on
    assert score_generated(grid, variant, 7, 7, ACROSS, [(k, False, False), KO[1], (t, False, True)]) is None  # K/k
    assert score_generated(grid, variant, 7, 7, ACROSS, [KO[0], (t, False, False), (t, False, True)]) is None
    assert score_generated(grid, variant, 7, 7, ACROSS, [KO[0], (o, False, True), (t, False, True)]) is None  # taken
    assert score_generated(grid, variant, 7, 13, ACROSS, [(t, False, True), (o, False, True), (t, False, True)]) is None
    assert score_generated(grid, variant, 5, 9, DOWN, [(t, False, True), (o, False, True)]) is not None
    assert score_generated(grid, variant, -1, 9, DOWN, [(t, False, True), (o, False, True)]) is None  # off the board


@pytest.mark.parametrize(
    ("old", "new", "direction"),
    [
        ((0, 5), [(1, 5), (1, 6)], ACROSS),  # a word down that ends with a new tile on a down-end square
        ((5, 3), [(4, 3), (4, 4)], ACROSS),  # ... that starts with one on a down-start square
        ((4, 2), [(4, 3), (5, 3)], DOWN),  # a word across that ends with a new tile on an across-end square
        ((1, 6), [(1, 5), (2, 5)], DOWN),  # ... that starts with one on an across-start square
        ((6, 3), [(4, 3), (5, 3)], DOWN),  # the main word, starting with a new tile on a down-start square
        ((4, 1), [(4, 2), (4, 3)], ACROSS),  # ... ending with one on an across-end square
    ],
)
def test_score_generated_applies_the_directional_multipliers_of_cross_words(old, new, direction):
    """The custom board's directional squares (4 at f2: across-start, down-end; 5 at d5:
    across-end, down-start) at either end of a word, against score_tiles."""
    board = Board.for_variant(SMALL).with_tiles([Tile(*old, "k", False)])
    tiles = [Tile(r, c, letter, False) for (r, c), letter in zip(new, "oż", strict=True)]
    reference = score_tiles(board, SMALL, tiles, direction)
    assert not reference.problems and any(w.multiplier == 4 for w in reference.words)
    fixed = 0 if direction == ACROSS else 1  # the row (column) every square of the main word is on
    line = sorted(new + [old] if old[fixed] == new[0][fixed] else new)
    letters = {square: alphabet.CODE_OF[t.letter] for square, t in zip(new, tiles, strict=True)}
    squares = [(letters[square], False, True) if square in letters else (alphabet.CODE_OF["k"], False, False)
               for square in line]  # fmt: skip
    words, total = score_generated(BoardGrid(board), SMALL, *line[0], direction, squares)
    assert [(w.word, w.score, w.row, w.col, w.direction) for w in words] == [
        (w.word, w.score, w.row, w.col, w.direction) for w in reference.words
    ]
    assert total == reference.total


# --------------------------------------------------------------------------- CGP boards

CGP_CHARACTERS = "0123456789/kKoOtTżŻąĄ.xQ ?-"


def square_by_square(field: str, variant) -> Board | str:
    keep = positionio._plain_cgp_board
    positionio._plain_cgp_board = lambda *_: None
    try:
        return positionio._read_cgp_board(field, variant, "position")
    except InputError as exc:
        return str(exc)
    finally:
        positionio._plain_cgp_board = keep


def at_once(field: str, variant) -> Board | str:
    try:
        return positionio._read_cgp_board(field, variant, "position")
    except InputError as exc:
        return str(exc)


def same(a, b) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (a == b and a.letters.dtype == b.letters.dtype and a.blanks.dtype == b.blanks.dtype
            and a.letters.shape == b.letters.shape)  # fmt: skip


def row_texts(variant) -> st.SearchStrategy[str]:
    """Board rows: plain ones (tiles and runs that fill the row) and anything else."""
    columns = variant.board.columns
    cells = st.lists(st.sampled_from([*"kKoOtTżŻąĄ", None]), min_size=columns, max_size=columns)

    def written(squares) -> str:
        out, run = [], 0
        for square in squares:
            if square is None:
                run += 1
                continue
            out.append(f"{run}" if run else "")
            out.append(square)
            run = 0
        return "".join(out) + (f"{run}" if run else "")

    tokens = st.lists(st.sampled_from([*"kKoOtTżŻ.x ", *map(str, range(31)), "00", "01", "007"]), max_size=columns)
    plain = cells.map(written)
    zeros = plain.map(lambda row: row.replace("1", "0", 1))  # a run of 0, or leading zeros: as wide
    return st.one_of(plain, zeros, tokens.map("".join), st.text(CGP_CHARACTERS, max_size=columns + 3))


@pytest.mark.parametrize("rules", [load_variant(), load_variant("literki")], ids=["literaki", "literki"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_cgp_board_read_at_once_is_the_board_read_square_by_square(rules, data):
    columns = rules.board.columns
    rows = [f"{columns}"] * rules.board.rows
    for _ in range(data.draw(st.integers(1, 3))):  # a few rows written any way, among plain ones
        rows[data.draw(st.integers(0, len(rows) - 1))] = data.draw(row_texts(rules))
    rows = rows[: data.draw(st.sampled_from([len(rows), len(rows), len(rows) - 1]))]
    field = "/".join(rows + data.draw(st.sampled_from([[], [], [f"{columns}"]])))
    assert same(at_once(field, rules), square_by_square(field, rules))


def test_plain_cgp_boards_are_read_at_once(variant):
    for field in ["15/15/15/15/15/15/15/3KARAŚ7/15/15/15/15/15/15/15", "/".join(["kOtŻą10"] * 15)]:
        board = positionio._plain_cgp_board(field, 15, 15)
        assert board is not None and same(board, square_by_square(field, variant))
    for last in ["015", "0K13", "K0013", "16", "7.7", "15/15"]:
        field = "15/" * 14 + last
        assert positionio._plain_cgp_board(field, 15, 15) is None, field
