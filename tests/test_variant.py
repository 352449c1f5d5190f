"""Variants as data: validation of rules files, and the general square mechanisms (letter
premiums, directional word premiums, effects, other board sizes) that other games need."""

import pytest

from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Tile
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, builtin_variants, load_variant, parse_variant
from literaki_cli.errors import InputError

BASE = load_variant()


def literaki_text() -> str:
    from importlib import resources

    return (resources.files("literaki_cli") / "variants" / "literaki.toml").read_text(encoding="utf-8")


def custom_board_variant() -> str:
    """Literaki's tiles on a 17 x 15 board with every kind of square the model offers."""
    rows = ["." * 17 for _ in range(15)]
    rows[7] = "d.t.D.T.*.4.5.W.R"  # h8... the start is i8 here
    text = literaki_text()
    start = text.index("[board]")
    end = text.index("\n[scoring]") + 1
    board = (
        '[board]\nrows = 15\ncolumns = 17\nstart = "i8"\nlayout = [\n'
        + "".join(f'    "{r}",\n' for r in rows)
        + "]\n\n[squares]\n"
        '"." = {}\n"*" = { name = "start" }\n'
        '"d" = { name = "letter x2", letter_multiplier = 2 }\n'
        '"t" = { name = "letter x3", letter_multiplier = 3 }\n'
        '"D" = { name = "word x2", word_multiplier = 2 }\n'
        '"T" = { name = "word x3", word_multiplier = 3 }\n'
        '"4" = { name = "4S start across", directional_word_multiplier = 4, directions = ["across-start"] }\n'
        '"5" = { name = "4S end", directional_word_multiplier = 4, directions = ["across-end", "down-end"] }\n'
        '"W" = { name = "exchange", effect = "forced-exchange" }\n'
        '"R" = { name = "red", colour = "red" }\n\n'
    )
    return text[:start] + board + text[end:]


V17 = parse_variant(custom_board_variant(), "custom.toml")


def test_builtin_variant_list():
    assert "literaki" in builtin_variants()


def test_custom_board_dimensions_and_kinds():
    assert (V17.board.rows, V17.board.columns, V17.board.start) == (15, 17, (7, 8))
    assert V17.board.kind_at(7, 14).effect == "forced-exchange"


def run(tiles, direction=ACROSS, board=None):
    return score_tiles(board or Board.for_variant(V17), V17, [Tile(7, c, ch, False) for c, ch in tiles], direction)


def test_letter_premiums_multiply_the_letter_not_the_word():
    # a8 is 2L, c8 is 3L: K(2) on a8 = 4, O(1) b8, T(2) on c8 = 6
    move = run([(0, "k"), (1, "o"), (2, "t")])
    assert [ls.value for ls in move.words[0].letters] == [4, 1, 6] and move.total == 11


def test_blank_on_letter_premium_stays_zero():
    move = score_tiles(Board.for_variant(V17), V17, [Tile(7, 0, "k", True), Tile(7, 1, "o", False)], ACROSS)
    assert move.total == 1


def test_word_premiums():
    move = run([(4, "k"), (5, "o"), (6, "t")])  # e8 2S, g8 3S
    assert move.words[0].multiplier == 6 and move.total == 5 * 6


@pytest.mark.parametrize(
    "squares, expected_multiplier",
    [
        ([(10, "k"), (11, "o"), (12, "t")], 16),  # starts on k8 (across-start) x4 and ends on m8 (across-end) x4
        ([(9, "k"), (10, "o")], 1),  # ends on k8, which is a start-only square
        ([(10, "k"), (11, "o")], 4),  # starts on k8
        ([(11, "k"), (12, "o")], 4),  # ends on m8 (across-end)
        ([(12, "k"), (13, "o")], 1),  # starts on m8, which is an end-only square
    ],
)
def test_directional_word_premium_across(squares, expected_multiplier):
    assert run(squares).words[0].multiplier == expected_multiplier


def test_directional_word_premium_down():
    board = Board.for_variant(V17)
    ends_on = score_tiles(board, V17, [Tile(6, 12, "k", False), Tile(7, 12, "o", False)], DOWN)
    starts_on = score_tiles(board, V17, [Tile(7, 12, "k", False), Tile(8, 12, "o", False)], DOWN)
    assert ends_on.words[0].multiplier == 4  # m8 has down-end
    assert starts_on.words[0].multiplier == 1
    through_k8 = score_tiles(board, V17, [Tile(6, 10, "k", False), Tile(7, 10, "o", False)], DOWN)
    assert through_k8.words[0].multiplier == 1  # k8 is across-start only


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda t: t.replace("rows = 15\ncolumns = 15", 'rows = 15\ncolumns = "x"'),
            r"key 'columns' must be an integer",
        ),
        (
            lambda t: t.replace('"R.3..G.R.G..3.R",\n    "....', '"R.3..G.R.G..3",\n    "....', 1),
            "layout row 1 must be",
        ),
        (
            lambda t: t.replace('"R" = { name = "red", colour = "red" }', '"R" = { colour = "purple" }'),
            "unknown colour 'purple'",
        ),
        (
            lambda t: t.replace('"R" = { name = "red", colour = "red" }', '"R" = { colur = "red" }'),
            "unknown key 'colur'",
        ),
        (lambda t: t.replace('start = "h8"', 'start = "z99"'), "key 'start'"),
        (lambda t: t.replace('"ż" = [1, "red"]', '"ż" = [1, "pink"]'), "unknown colour 'pink'"),
        (lambda t: t.replace('"ż" = [1, "red"]', '"x" = [1, "red"]'), "key 'x': not a lower-case letter"),
        (lambda t: t.replace("min_length = 2", "min_length = 20"), "min_length 20 is above max_length 15"),
        (lambda t: t.replace("[words]", "[words\n"), "not valid TOML"),
        (lambda t: t.replace("bingo_bonus = 50", "bingo_bonus = -5"), "bingo_bonus' must be at least 0"),
        (
            lambda t: t.replace(
                '"2" = { name = "word x2", word_multiplier = 2 }', '"2" = { directional_word_multiplier = 4 }'
            ),
            "needs 'directions'",
        ),
    ],
)
def test_bad_rules_files_name_the_key(edit, message):
    text = edit(literaki_text())
    assert text != literaki_text()
    with pytest.raises(InputError, match=message):
        parse_variant(text, "mine.toml")


def test_rules_file_loading(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(literaki_text().replace("bingo_bonus = 50", "bingo_bonus = 60"), encoding="utf-8")
    assert load_variant(rules_file=path).bingo_bonus == 60
    with pytest.raises(InputError, match="no such file"):
        load_variant(rules_file=tmp_path / "missing.toml")
    with pytest.raises(InputError, match="unknown variant"):
        load_variant("nope")
