"""The library side of the commands, called directly: reading the words, positions, racks,
moves and grids a user gives, and the JSON records the commands print."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.analysis import anagram, positionquery, wordinput
from literaki_cli.analysis.solve import SolveResult
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Placement, parse_move
from literaki_cli.errors import InputError

WORDS = ["kot", "tok", "ok", "to", "kota", "żółw"]
EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ŻÓŁWABC/ 0/0 0"


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory, variant) -> Lexicon:
    folder = tmp_path_factory.mktemp("cmdlib")
    (folder / "w.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "w.lexicon", variant).output)


# --------------------------------------------------------------------------- check-word input


def test_word_lines_reads_arguments_then_stdin_then_file(tmp_path):
    listed = tmp_path / "words.txt"
    listed.write_text("gamma\ndelta\n", encoding="utf-8")
    lines = wordinput.word_lines(["alfa", "-", "beta"], listed, io.StringIO("x\ny\n"))
    assert [line.strip() for line in lines] == ["alfa", "x", "y", "beta", "gamma", "delta"]


def test_word_lines_refuses_no_input_at_once():
    with pytest.raises(InputError, match="give words to check"):
        wordinput.word_lines([], None)


def test_word_lines_names_the_bad_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"kot\n\x81\x98\n")  # neither UTF-8 nor a Windows code page (\xff\xfe is "˙ţ" in CP1250)
    with pytest.raises(InputError, match=r"bad.txt: line 2: neither UTF-8"):
        list(wordinput.word_lines([], bad))
    with pytest.raises(InputError, match="cannot read"):
        list(wordinput.word_lines([], tmp_path / "missing.txt"))


def test_lexicon_word_rules_prefer_the_recorded_rules():
    meta = {"alphabet": "abc", "min_length": 2, "max_length": 9}
    old = wordinput.lexicon_word_rules(meta)
    assert (old.min_length, old.max_length) == (2, 9)
    new = wordinput.lexicon_word_rules(meta | {"rules": {"letters": "abcd", "min_length": 3, "max_length": 4}})
    assert (new.min_length, new.max_length) == (3, 4)
    assert new.is_playable("dab") and not old.is_playable("dab")


# --------------------------------------------------------------------------- positions and racks


def test_open_position_returns_warnings_only_when_lenient(tmp_path):
    rows = ["." * 15] * 15
    rows[7] = ".....ŻŻŻ......."  # through h8; the bag has one Ż
    board = tmp_path / "b.txt"
    board.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="3 x Ż"):
        positionquery.open_position(str(board))
    position, warnings = positionquery.open_position(str(board), lenient=True)
    assert position.variant.name == "literaki" and len(warnings) == 1 and "3 x Ż" in warnings[0]


def test_open_position_forces_the_variant_only_when_asked():
    wide = EMPTY_CGP.replace("15", "17")
    assert positionquery.open_position(wide)[0].variant.name == "literki"
    with pytest.raises(InputError):
        positionquery.open_position(wide, variant="literaki")


def test_racks_come_from_the_option_then_the_position():
    position, _ = positionquery.open_position(EMPTY_CGP)
    assert positionquery.mover_rack(position, None) == "żółwabc"
    assert positionquery.mover_rack(position, "KO?") == "ko?"
    bare, _ = positionquery.open_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0")
    assert positionquery.mover_rack(bare, None) is None
    with pytest.raises(InputError, match="no rack"):
        positionquery.solving_rack(bare, None)
    with pytest.raises(InputError, match="holds 8 tiles, at most 7"):
        positionquery.solving_rack(bare, "ABCDEFGH")
    assert positionquery.solving_rack(bare, "abc") == "abc"


def test_solve_filters_check_the_square_and_normalise_the_word(variant):
    filters = positionquery.solve_filters(variant, 2, "RZ", "h8", True)
    assert (filters.min_tiles, filters.word_contains, filters.at, filters.only_bingos) == (2, "rz", "h8", True)
    with pytest.raises(InputError, match="off the board"):
        positionquery.solve_filters(variant, at="p8")


def test_solve_record_is_the_documented_json():
    from literaki_cli.equity.equity import Exchange

    record = positionquery.solve_record(SolveResult([], 0, 12, 0.0123456), "abc?")
    assert record == {"rack": "ABC?", "count": 0, "generated": 12, "generation_ms": 12.346, "mirrors_folded": False,
                      "by": "equity", "bag": 0, "moves": [], "exchange_allowed": False, "exchanges": []}  # fmt: skip
    offered = SolveResult([], 0, 12, 0.0, by="score", bag=40, exchanges=[Exchange("bc", "a?", 14.56789)],
                          exchange_allowed=True)  # fmt: skip
    record = positionquery.solve_record(offered, "abc?")
    assert (record["by"], record["bag"], record["exchange_allowed"]) == ("score", 40, True)
    assert record["exchanges"] == [{"exchange": "BC", "keep": "A?", "score": 0, "leave_value": 14.568,
                                    "equity": 14.568}]  # fmt: skip


# --------------------------------------------------------------------------- scoring one move


def test_exchange_needs_the_tiles_and_pass_needs_nothing(variant):
    exchange = parse_move("-ABC?", variant)
    short = positionquery.score_turn("-ABC?", exchange, "abcd")
    assert short.kind == "exchange" and not short.valid and short.problems == ["the rack ABCD lacks ?"]
    assert positionquery.score_turn("-ABC?", exchange, "abc?x").valid
    assert positionquery.score_turn("-ABC?", exchange, None).valid  # unknown rack: nothing to check
    passed = positionquery.score_turn("-", parse_move("-", variant), "abc").as_dict()
    assert passed == {"move": "-", "kind": "pass", "total": 0, "valid": True, "bingo": 0, "words": [], "problems": []}


def test_score_placement_scores_by_the_rules_and_keeps_the_leave():
    position, _ = positionquery.open_position(EMPTY_CGP)
    move = parse_move("8H ŻÓŁW", position.variant)
    assert isinstance(move, Placement)
    scored = positionquery.score_placement(position, move, "żółwabc", lambda words: [w == "żółw" for w in words])
    # By the rules: Ż red on the red h8 counts 3 x 5, Ó 5, Ł blue on the blue j8 3 x 3, W 1.
    assert scored.valid and scored.result.total == 15 + 5 + 9 + 1
    assert scored.leave == "abc" and scored.new_squares == {(7, 7), (7, 8), (7, 9), (7, 10)}
    assert scored.board_after.occupied(7, 10) and not position.board.occupied(7, 10)
    record = scored.as_dict()
    assert (record["move"], record["coord"], record["total"], record["leave"]) == ("8H ŻÓŁW", "8H", 30, "ABC")
    assert [p["letter"] for p in record["placed"]] == ["Ż", "Ó", "Ł", "W"]  # upper case = a tile


def test_score_placement_still_scores_an_unknown_word():
    position, _ = positionquery.open_position(EMPTY_CGP)
    move = parse_move("8H ŻÓŁW", position.variant)
    scored = positionquery.score_placement(position, move, None, lambda words: [False] * len(words))
    assert not scored.valid and scored.result.total == 30 and scored.leave is None
    assert scored.as_dict()["leave"] is None and scored.as_dict()["problems"]


# --------------------------------------------------------------------------- anagram

GRID = ["kotee", "eeeee", "eeeee", "eeeee", "eeeee"]


def test_grid_text_from_arguments_file_and_stdin(tmp_path):
    assert anagram.grid_text(GRID) == (" ".join(GRID), "grid")
    saved = tmp_path / "grid.txt"
    saved.write_text("\n".join(GRID), encoding="utf-8")
    assert anagram.grid_text([str(saved)]) == ("\n".join(GRID), str(saved))
    assert anagram.grid_text(["-"], io.StringIO("abc")) == ("abc", "<stdin>")


def test_class_values_must_be_whole_numbers_one_per_class():
    assert anagram.parse_class_values("1,2,3") == (1, 2, 3)
    with pytest.raises(InputError, match="whole numbers"):
        anagram.parse_class_values("1,x")
    with pytest.raises(InputError, match="need 5 numbers, got 2"):
        anagram.grid_query(GRID, class_values="1,2")
    assert anagram.grid_query(GRID, class_values="9,9,9,9,9").rules.class_values == (9,) * 5


def test_grid_answer_filters_by_length_and_keeps_the_count(lexicon):
    query = anagram.grid_query(GRID)
    everything = query.answer(lexicon.words)
    # Only K, O, T and E are on the grid: "kota" needs an A, "żółw" is nowhere.
    assert {w.word for w in everything.words} == {"kot", "tok", "ok", "to"}
    long = query.answer(lexicon.words, min_len=3, top=1)
    assert long.count == 2 and len(long.words) == 1 and long.words[0].word in {"kot", "tok"}
    record = long.as_dict()
    assert record["grid"] == [row.upper() for row in GRID] and record["count"] == 2
    assert len(record["premiums"]) == 4 and all(len(row) == 4 for row in record["premiums"])


def test_grid_query_names_a_bad_grid():
    with pytest.raises(InputError, match="24 letters"):
        anagram.grid_query(["kote", *GRID[1:]])


def test_rack_answer_groups_by_length(lexicon):
    assert anagram.rack_letters("TOK") == "tok"
    with pytest.raises(InputError, match="--letters is empty"):
        anagram.rack_letters("  ")
    answer = anagram.rack_answer("tok", lexicon.words)
    assert answer.groups == {3: ["KOT", "TOK"], 2: ["OK", "TO"]} and answer.count == 4
    longer = anagram.rack_answer("tok", lexicon.words, min_len=3)
    assert longer.as_dict() == {"letters": "TOK", "count": 2, "groups": [{"length": 3, "words": ["KOT", "TOK"]}]}
    blank = anagram.rack_answer("to?", lexicon.words, min_len=3)
    assert set(blank.groups[3]) == {"kOT", "TOk"}


def test_cli_is_a_thin_reexport():
    from literaki_cli import cli, commands

    assert cli.main is commands.main and cli.run is commands.run
    names = [c.name for c in commands.app.registered_commands]
    assert names == ["build-lexicon", "lexicon-info", "lexicon-diff", "check-word", "words", "judge", "show", "score",
                     "solve", "anagram", "play", "simulate", "report", "analyze", "serve"]  # fmt: skip
    assert Path(commands.__file__).parent.joinpath("common.py").is_file()
