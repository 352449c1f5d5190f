"""Positions in and out: board text, CGP, JSON; validation with file:line:column."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Exchange, Pass, Placement, parse_move
from literaki_cli.engine.position import Position, validate
from literaki_cli.engine.variant import ACROSS, DOWN, load_variant
from literaki_cli.errors import InputError
from literaki_cli.io.positionio import detect_format, read_board_text, read_position, write_position

V = load_variant()
EMPTY_ROWS = ["." * 15] * 15


def rows_with(row: int, text: str, col: int = 0) -> list[str]:
    rows = list(EMPTY_ROWS)
    rows[row] = rows[row][:col] + text + rows[row][col + len(text) :]
    return rows


def test_plain_board_text():
    board = read_board_text("\n".join(rows_with(7, "ŻÓŁw", 7)), V, "b.txt")
    assert board.cell(7, 7) == "Ż" and board.cell(7, 10) == "w" and board.blanks[7, 10]
    assert board.to_rows() == rows_with(7, "ŻÓŁw", 7)


def test_board_text_with_coordinates_and_spaces_is_tolerated():
    header = "    a b c d e f g h i j k l m n o"
    lines = [header] + [f"{r + 1:>2}  " + " ".join(row) + f"  {r + 1}" for r, row in enumerate(rows_with(7, "KOT", 7))]
    board = read_board_text("\n".join(lines) + "\n\n", V, "b.txt")
    assert board.to_rows() == rows_with(7, "KOT", 7)
    board = read_board_text("\n".join(f"{r + 1:>2}|{row}|" for r, row in enumerate(rows_with(7, "KOT", 7))), V, "b")
    assert board.cell(7, 8) == "O"


@pytest.mark.parametrize(
    "rows, message",
    [
        (rows_with(7, "Q", 7), r"b\.txt:8:8: 'Q' is not a letter of the Polish alphabet"),
        (rows_with(2, "#", 4), r"b\.txt:3:5: unexpected character '#'"),
        (EMPTY_ROWS[:14], r"b\.txt: 14 board rows, the board has 15"),
        (EMPTY_ROWS + ["." * 15], r"b\.txt:16: more than 15 board rows"),
        (rows_with(3, "." * 16), r"b\.txt:4:16: row 4 has more than 15 squares"),
        (rows_with(3, "." * 14)[:3] + ["." * 14] + EMPTY_ROWS[4:], r"b\.txt:4: row 4 has 14 squares"),
    ],
)
def test_board_text_errors_name_file_line_column(rows, message):
    with pytest.raises(InputError, match=message):
        read_board_text("\n".join(rows), V, "b.txt")


def test_detect_format():
    assert detect_format('{"board": []}') == "json"
    assert detect_format("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0") == "cgp"
    assert detect_format("\n".join(EMPTY_ROWS)) == "text"


def test_cgp_read_and_write():
    cgp = "15/15/15/15/15/15/15/7ŻÓŁw4/15/15/15/15/15/15/15 AEI?KLM/ 12/30 2 lex SJP; lm 8H ŻÓŁw;"
    pos = read_position(cgp, "arg")
    assert pos.board.cell(7, 10) == "w"
    assert pos.racks == ["aei?klm", ""] and pos.scores == [12, 30] and pos.zero_turns == 2
    assert pos.opcodes == {"lex": "SJP", "lm": "8H ŻÓŁw"}
    again = read_position(write_position(pos, "cgp"), "again")
    assert again.board == pos.board and again.racks == pos.racks and again.scores == pos.scores


def test_cgp_errors():
    with pytest.raises(InputError, match="CGP board has 3 rows"):
        read_position("15/15/15 / 0/0 0", "arg", fmt="cgp")
    with pytest.raises(InputError, match="CGP row 2 '14' covers 14 squares"):
        read_position("15/14/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0", "arg")
    with pytest.raises(InputError, match="CGP score 'a' is not a whole number"):
        read_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / a/b 0", "arg")
    with pytest.raises(InputError, match="rack"):
        read_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB1/ 0/0 0", "arg")


def test_json_round_trip_and_errors():
    pos = read_position("15/15/15/15/15/15/15/7KOT5/15/15/15/15/15/15/15 ABC/DEF 1/2 0", "arg")
    text = write_position(pos, "json")
    assert json.loads(text)["board"][7] == ".......KOT....."
    again = read_position(text, "j.json")
    assert again.board == pos.board and again.racks == pos.racks and again.scores == [1, 2]
    with pytest.raises(InputError, match=r"j\.json:1:\d+: not valid JSON"):
        read_position("{bad", "j.json")
    with pytest.raises(InputError, match="'scores' must be a list of integers"):
        read_position('{"board": ' + json.dumps(EMPTY_ROWS) + ', "scores": ["x"]}', "j.json")


@st.composite
def boards(draw):
    board = Board.for_variant(V)
    for _ in range(draw(st.integers(0, 60))):
        r, c = draw(st.integers(0, 14)), draw(st.integers(0, 14))
        board.set_cell(r, c, draw(st.sampled_from(alphabet.POLISH_LETTERS)), draw(st.booleans()))
    return board


@settings(max_examples=100, deadline=None)
@given(boards())
def test_text_to_cgp_to_text_is_identity(board):
    text = write_position(Position(V, board), "text")
    via_cgp = read_position(write_position(read_position(text, "t"), "cgp"), "c")
    assert write_position(via_cgp, "text") == text
    via_json = read_position(write_position(via_cgp, "json"), "j")
    assert write_position(via_json, "text") == text


def position(rows, racks=()):
    return Position(V, read_board_text("\n".join(rows), V, "p"), list(racks))


def test_validation_tile_counts_and_lenient():
    pos = position(rows_with(7, "ŻÓŁW", 7), ["żab"])  # two Ż: the bag has one
    with pytest.raises(InputError, match="2 x Ż on board and racks, the bag has 1.*--lenient"):
        validate(pos)
    assert validate(pos, lenient=True) == ["2 x Ż on board and racks, the bag has 1"]
    with pytest.raises(InputError, match="4 blanks on board and racks, the bag has 2"):
        validate(position(rows_with(7, "abc", 7), ["?"]))
    with pytest.raises(InputError, match="rack 1 holds 8 tiles"):
        validate(position(EMPTY_ROWS, ["abcdefgh"]))


def test_validation_connectivity():
    rows = rows_with(7, "KOT", 7)
    rows[0] = "A.............."
    with pytest.raises(InputError, match="not connected to the tiles through h8: a1"):
        validate(position(rows))
    with pytest.raises(InputError, match="none on the start square h8"):
        validate(position(rows_with(0, "KOT")))
    assert validate(position(rows_with(7, "KOT", 7))) == []


def test_move_notation():
    m = parse_move("8H ŻÓŁW", V)
    assert isinstance(m, Placement) and (m.row, m.col, m.direction) == (7, 7, ACROSS) and m.coord == "8H"
    m = parse_move("h8 żółW", V)
    assert (m.row, m.col, m.direction) == (7, 7, DOWN) and m.coord == "H8"
    assert [t.upper for t in m.tokens] == [False, False, False, True]
    m = parse_move("O15 Ą", V)
    assert (m.row, m.col) == (14, 14)
    assert parse_move("-", V) == Pass() and parse_move("pass", V) == Pass()
    assert parse_move("-ŻÓ?", V) == Exchange("żó?") and parse_move("exchange AB", V) == Exchange("ab")
    for bad, message in [
        ("8P KOT", "column p is off the board"),
        ("16A KOT", "row 16 is off the board"),
        ("8H KO1", "not a Polish letter"),
        ("8H (KO", "without"),
        ("ŻÓŁW", "POSITION WORD"),
        ("88 KOT", "not a move position"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_move(bad, V)
