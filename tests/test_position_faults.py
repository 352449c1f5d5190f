"""Issue 12: positions, racks, moves and rules files that used to crash, overflow or pass
silently: each is now an error naming the value (exit 2), an illegal move (exit 1), or read."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.cli import main
from literaki_cli.engine.variant import MAX_SCORE, load_variant, parse_variant, score_bound
from literaki_cli.errors import InputError
from literaki_cli.io.positionio import read_position

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
WORDS = ["żółw", "kot", "koty", "kota", "tok", "ok", "to", "ty", "ko", "abcdefghijklmnop"]
LITERAKI_TOML = (Path(__file__).resolve().parent.parent / "literaki_cli" / "variants" / "literaki.toml").read_text(
    encoding="utf-8"
)


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory, variant):
    folder = tmp_path_factory.mktemp("faults")
    (folder / "w.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return build_lexicon(folder / "w.txt", folder / "w.lexicon", variant).output


@pytest.fixture
def empty_board(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n".join(["." * 15] * 15) + "\n", encoding="utf-8")
    return path


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err
    return code, out, err


# --------------------------------------------------------------------------- reading positions


def test_cgp_row_with_too_many_squares_names_the_row(capsys):
    rows = ["15"] * 15
    rows[7] = "5ABCDEFGHIJKLMN"
    with pytest.raises(InputError, match=r"CGP row 8, character 12: the row '5ABCDEFGHIJKLMN' has more than 15"):
        read_position(" ".join(["/".join(rows), "KOT/", "0/0", "0"]), "arg")
    code, out, err = run(capsys, "show", " ".join(["/".join(rows), "KOT/", "0/0", "0"]), "--to", "cgp")
    assert code == 2 and out == "" and "CGP row 8" in err


@pytest.mark.parametrize(
    "cgp",
    [
        "15/15/15/15/15/15/15/²/15/15/15/15/15/15/15 KOT/ 0/0 0",  # a superscript run of empty squares
        "²5/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOT/ 0/0 0",  # ... in the row that sets the width
        EMPTY_CGP + " KOT/ 0/0 ²",  # the zero-turn count
        EMPTY_CGP + " KOT/ ²/0 0",  # a score
        EMPTY_CGP + " KOT/ 0/0 " + "9" * 5000,  # thousands of digits
        EMPTY_CGP + " KOT/ " + "9" * 5000 + "/0 0",
        "9" * 5000 + "/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0",
        "0/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0",  # a run of no squares
    ],
)
def test_cgp_numbers_are_ascii_and_bounded(cgp, capsys):
    with pytest.raises(InputError):
        read_position(cgp, "arg", fmt="cgp")
    assert run(capsys, "show", cgp, "--to", "cgp")[0] == 2


def test_move_and_square_coordinates_take_ascii_digits_only(capsys, lexicon, empty_board):
    code, _, err = run(capsys, "score", "--lexicon", str(lexicon), str(empty_board), "²H", "KOT")
    assert code == 2 and "not a move position" in err
    code, _, err = run(capsys, "solve", "--lexicon", str(lexicon), EMPTY_CGP, "--rack", "KOT", "--at", "h²")
    assert code == 2 and "not a square name" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"board": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deeply"),
        ('{"board": [], "scores": [' + "9" * 5000 + "]}", "not a valid JSON position"),
        ('{"board": [], "scores": [NaN]}', "NaN"),
        ('{"board": [], "zero_turns": Infinity}', "Infinity"),
        ('{"board": ' + json.dumps(["." * 15] * 15) + ', "scores": [12345678901234567890]}', "below 1,000,000,000"),
        ('{"board": ' + json.dumps(["." * 15] * 15) + ', "zero_turns": -1}', "non-negative integer"),
        ('{"board": [], "variant": ["literaki"]}', "'variant' must be a variant name"),
    ],
)
def test_json_faults_are_input_errors(text, message):
    with pytest.raises(InputError, match=re.escape(message)):
        read_position(text, "p.json")


def test_position_from_a_pipe_is_read(capsys):
    read_end, write_end = os.pipe()
    os.write(write_end, (EMPTY_CGP + " KOT/ 3/4 0\n").encode())
    os.close(write_end)
    try:
        code, out, _ = run(capsys, "show", f"/dev/fd/{read_end}", "--to", "cgp")
    finally:
        os.close(read_end)
    assert code == 0 and out.startswith(EMPTY_CGP + " KOT/ 3/4 0")


def test_directory_long_name_and_bad_bytes_are_one_line_errors(capsys, tmp_path, monkeypatch):
    code, _, err = run(capsys, "show", str(tmp_path))
    assert code == 2 and "is a directory" in err
    code, _, err = run(capsys, "show", "x" * 5000 + ".txt")
    assert code == 2 and err.count("\n") == 1 and len(err) < 300
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"...............\n\xff\xfe\n")  # not UTF-8: read as Windows-1250, where it is no letter
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and f"{bad}:2:1: unexpected character" in err


def test_a_windows_1250_board_and_a_bom_on_stdin_are_read(capsys, tmp_path, monkeypatch):
    rows = ["." * 15] * 15
    rows[7] = ".......ŻÓŁW...."
    board = tmp_path / "cp1250.txt"
    board.write_bytes(("\r\n".join(rows) + "\r\n").encode("cp1250"))
    code, out, _ = run(capsys, "show", str(board), "--to", "cgp")
    assert code == 0 and out.startswith("15/15/15/15/15/15/15/7ŻÓŁW4/")
    stdin = tmp_path / "stdin.cgp"
    stdin.write_bytes(b"\xef\xbb\xbf" + (EMPTY_CGP + " KOT/ 0/0 0").encode())
    with stdin.open("rb") as raw:
        monkeypatch.setattr("sys.stdin", __import__("io").TextIOWrapper(raw, encoding="utf-8"))
        code, out, _ = run(capsys, "show", "-", "--to", "cgp")
    assert code == 0 and out.startswith(EMPTY_CGP + " KOT/ 0/0 0")


# --------------------------------------------------------------------------- racks and tile supply


def test_a_lower_case_word_is_all_blanks_and_the_set_has_two(capsys, lexicon, empty_board):
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), str(empty_board), "8H", "żółw", "--json")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["total"] == 0
    assert any("4 blanks" in p and "the bag has 2" in p for p in report["problems"])
    # Two blanks are within the set: the same word is legal with Ż and W as tiles.
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), str(empty_board), "8H", "ŻóŁw", "--json")
    assert code == 0 and json.loads(out)["valid"] is True


def test_a_move_needing_a_letter_the_board_already_used_is_illegal(capsys, lexicon, tmp_path):
    rows = ["." * 15] * 15
    rows[7] = ".......ŻÓŁW...."
    board = tmp_path / "played.txt"
    board.write_text("\n".join(rows) + "\n", encoding="utf-8")
    # The set has one Ż (on h8 already): a second one down from h4 to h7 is not in the bag.
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), str(board), "H5", "ŻÓŁ(Ż)", "--json")
    problems = json.loads(out)["problems"]
    assert code == 1 and any("2 x Ż" in p and "the bag has 1" in p for p in problems)
    assert any("2 x Ó" in p for p in problems) and not any("x Ł" in p for p in problems)  # the set has 2 Ł


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("???", "3 blanks on board and racks, the bag has 2"),
        ("ABCDEFGHIJKLMNOPRSTUW", "holds 21 tiles, at most 7"),
        ("ŻŻ", "2 x Ż"),
    ],  # fmt: skip
)
def test_score_refuses_a_rack_the_game_cannot_hold(capsys, lexicon, empty_board, rack, message):
    args = ["score", "--lexicon", str(lexicon), str(empty_board), "8H", "KOT", "--rack", rack]
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err and "--lenient" in err
    code, _, err = run(capsys, *args, "--lenient")
    assert code in (0, 1) and f"warning: --rack {rack!r}" in err and message in err


def test_solve_refuses_seven_blanks_without_lenient(capsys, lexicon):
    code, _, err = run(capsys, "solve", "--lexicon", str(lexicon), EMPTY_CGP, "--rack", "???????")
    assert code == 2 and "7 blanks" in err
    code, _, err = run(capsys, "solve", "--lexicon", str(lexicon), EMPTY_CGP, "--rack", "???????", "--lenient")
    assert code == 0 and "warning" in err


def full_board_cgp(rack_tiles: int) -> tuple[str, str]:
    """A connected board holding all but ten tiles of Literaki (from h8 on, row by row), and a
    rack of ``rack_tiles`` of the ten left (blanks last, so none is on the board)."""
    variant = load_variant()
    tiles = [letter for letter, spec in variant.tiles.items() for _ in range(spec.count)] + ["?"] * variant.blanks
    on_board, left = tiles[:-10], tiles[-10:]
    cells = ["."] * (7 * 15 + 7) + [t.upper() for t in on_board]
    cells += ["."] * (225 - len(cells))
    rows = [re.sub(r"\.+", lambda m: str(len(m.group())), "".join(cells[r * 15 : (r + 1) * 15])) for r in range(15)]
    rack = "".join(left[:rack_tiles]).upper()
    return f"{'/'.join(rows)} {rack}/ 0/0 0", rack


def test_exchange_needs_the_variants_minimum_bag(capsys, lexicon):
    # 100 tiles - 90 on the board - the rack = the bag; Literaki exchanges from 7 tiles in the bag.
    cgp, rack = full_board_cgp(3)
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), cgp, "--json", "--", "-" + rack[:2])
    assert code == 0 and json.loads(out)["valid"] is True
    cgp, rack = full_board_cgp(4)
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), cgp, "--json", "--", "-" + rack[:2])
    report = json.loads(out)
    assert code == 1 and report["problems"] == ["the bag holds 6 tiles; an exchange needs at least 7"]
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), cgp, "--", "-" + rack[:2])
    assert code == 1 and "the bag holds 6 tiles" in out


def test_exchange_without_a_rack_needs_tiles_that_exist(capsys, lexicon, empty_board):
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), str(empty_board), "--json", "--", "-???")
    assert code == 1 and any("3 blanks" in p for p in json.loads(out)["problems"])
    code, out, _ = run(capsys, "score", "--lexicon", str(lexicon), str(empty_board), "--json", "--", "-ABCDEFGH")
    assert code == 1 and any("8 tiles exchanged" in p for p in json.loads(out)["problems"])


# --------------------------------------------------------------------------- rules files


def rules_with(old: str, new: str) -> str:
    assert old in LITERAKI_TOML
    return LITERAKI_TOML.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('"3" = { name = "word x3", word_multiplier = 3 }', '"3" = { word_multiplier = 50000 }', "word_multiplier"),
        ("red = 5", "red = 3000000000", "'red'"),
        ("red = 5", "red = nan", "'red'"),
        ("red = 5", "red = inf", "'red'"),
        ("bingo_bonus = 50", "bingo_bonus = 1e9", "bingo_bonus"),
        ("bingo_bonus = 50", "bingo_bonus = 2147483648", "bingo_bonus"),
        ("colour_multiplier = 3", "colour_multiplier = 101", "colour_multiplier"),
        ('"a" = [9, "yellow"]', '"a" = [100000, "yellow"]', "count"),
        ("blanks = 2", "blanks = 5000", "blanks"),
        ("size = 7", "size = 27", "size"),
        ("max_length = 15", "max_length = 100", "max_length"),
        ("rows = 15", "rows = 27", "rows"),
        ('"a" = [9, "yellow"]', '"a" = [true, "yellow"]', "expected [count, colour]"),
        ('"2" = { name = "word x2", word_multiplier = 2 }', '"2" = { directions = [{}] }', "key 'directions'"),
        ('"2" = { name = "word x2", word_multiplier = 2 }', '"2" = { directions = [["across-end"]] }', "directions"),
    ],
)
def test_every_rules_number_is_bounded_naming_the_key(old, new, key):
    with pytest.raises(InputError, match=re.escape(key)):
        parse_variant(rules_with(old, new), "mine.toml")


def test_a_combination_of_allowed_numbers_beyond_int32_is_refused():
    # Each key within its cap, but red tiles worth 1000 on x100 word squares (two x100 and two x2
    # on row 3) could make a word of 15 x 3000 x 40,000 points.
    text = rules_with('"3" = { name = "word x3", word_multiplier = 3 }', '"3" = { word_multiplier = 100 }')
    parse_variant(text, "big.toml")  # red = 5: large but within int32 over a whole game
    with pytest.raises(InputError, match="game total up to .* beyond 2,147,483,647"):
        parse_variant(text.replace("red = 5", "red = 1000"), "big.toml")


def test_the_score_bound_covers_the_best_real_moves(variant):
    move, game = score_bound(variant)
    # The README's ŻÓŁWIAk (84) and a row-3 move across two x3 and two x2 squares (x36) fit under it.
    assert 84 <= move and 15 * 5 * 3 * 36 + 50 <= move and game <= MAX_SCORE
    assert score_bound(load_variant("literki"))[1] <= MAX_SCORE


def test_score_with_a_huge_multiplier_rules_file_is_an_input_error(capsys, lexicon, empty_board, tmp_path):
    rules = tmp_path / "x50000.toml"
    rules.write_text(rules_with('"3" = { name = "word x3", word_multiplier = 3 }', '"3" = { word_multiplier = 50000 }'))
    code, _, err = run(capsys, "score", "--lexicon", str(lexicon), "--rules", str(rules), str(empty_board), "8H", "KOT")
    assert code == 2 and "word_multiplier" in err and "at most 100" in err


def test_transpose_symmetry_reads_the_layout():
    assert load_variant().board.transpose_symmetric
    assert not load_variant("literki").board.transpose_symmetric  # 15 x 17
    lopsided = rules_with('"R.3..G.R.G..3.R",', '"R.2..G.R.G..3.R",')
    assert not parse_variant(lopsided, "lopsided.toml").board.transpose_symmetric
    one_way = rules_with('"2" = { name = "word x2", word_multiplier = 2 }',
                         '"2" = { directional_word_multiplier = 2, directions = ["across-start"] }')  # fmt: skip
    assert not parse_variant(one_way, "one-way.toml").board.transpose_symmetric
    both_ways = one_way.replace('directions = ["across-start"]', 'directions = ["across-start", "down-start"]')
    assert parse_variant(both_ways, "both.toml").board.transpose_symmetric


# --------------------------------------------------------------------------- solve: mirrors and case


def solve_json(capsys, lexicon, *args):
    code, out, _ = run(capsys, "solve", "--lexicon", str(lexicon), *args, "--json")
    assert code == 0
    return json.loads(out)


def mirror(coord: str) -> str:
    """The move's mirror image in the main diagonal: H5 (column h, row 5, down) <-> 8E (row 8, column e, across)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    m = re.fullmatch(r"(\d+)([A-Z])|([A-Z])(\d+)", coord)
    assert m
    if m.group(1):  # across: row, column -> down: the row's letter, the column's number
        return f"{letters[int(m.group(1)) - 1]}{letters.index(m.group(2)) + 1}"
    return f"{letters.index(m.group(3)) + 1}{letters[int(m.group(4)) - 1]}"


def test_ranked_solve_shows_each_opening_once_and_all_keeps_both(capsys, lexicon):
    everything = solve_json(capsys, lexicon, EMPTY_CGP, "--rack", "KOTY", "--all")
    assert everything["mirrors_folded"] is False
    by_coord = {(m["coord"], m["word"]): m["score"] for m in everything["moves"]}
    down = [(c, w) for c, w in by_coord if c[0].isalpha()]
    assert down and all(by_coord[(mirror(c), w)] == by_coord[(c, w)] for c, w in down)
    ranked = solve_json(capsys, lexicon, EMPTY_CGP, "--rack", "KOTY", "--top", "1000")
    assert ranked["mirrors_folded"] is True and ranked["count"] == len(by_coord) - len(down)
    assert {(m["coord"], m["word"]) for m in ranked["moves"]} == set(by_coord) - set(down)
    assert [m["rank"] for m in ranked["moves"]] == list(range(1, len(ranked["moves"]) + 1))
    code, out, _ = run(capsys, "solve", "--lexicon", str(lexicon), EMPTY_CGP, "--rack", "KOTY")
    assert code == 0 and "each opening is shown once" in out
    code, out, _ = run(capsys, "solve", "--lexicon", str(lexicon), EMPTY_CGP, "--rack", "KOTY", "--all")
    assert code == 0 and "each opening is shown once" not in out


def test_no_folding_once_a_tile_is_down(capsys, lexicon):
    played = "15/15/15/15/15/15/15/7KOT5/15/15/15/15/15/15/15"
    ranked = solve_json(capsys, lexicon, played, "--rack", "KOTY", "--top", "1000")
    everything = solve_json(capsys, lexicon, played, "--rack", "KOTY", "--all")
    assert ranked["mirrors_folded"] is False and ranked["moves"] == everything["moves"]


def test_placed_letters_are_upper_case_tiles_and_lower_case_blanks(capsys, lexicon):
    moves = solve_json(capsys, lexicon, EMPTY_CGP, "--rack", "KO?", "--all")["moves"]
    assert any(p["blank"] for m in moves for p in m["placed"])
    for m in moves:
        for p in m["placed"]:
            assert p["letter"] == (p["letter"].lower() if p["blank"] else p["letter"].upper())
            # the same letter, in the same case, as the square of the main word it fills
            offset = p["col"] - m["placed"][0]["col"] + p["row"] - m["placed"][0]["row"]
            assert m["word"][offset] == p["letter"]


# --------------------------------------------------------------------------- anagram


def test_anagram_json_cases_agree(capsys, lexicon):
    code, out, _ = run(capsys, "anagram", "kotyy", "yyyyy", "yyyyy", "yyyyy", "yyyyy", "--lexicon", str(lexicon),
                       "--json")  # fmt: skip
    grid_words = [w["word"] for w in json.loads(out)["words"]]
    assert code == 0 and "KOT" in grid_words and all(w == w.upper() for w in grid_words)
    code, out, _ = run(capsys, "anagram", "--letters", "koty", "--lexicon", str(lexicon), "--json")
    rack_words = [w for g in json.loads(out)["groups"] for w in g["words"]]
    assert code == 0 and "KOT" in rack_words and all(w == w.upper() for w in rack_words)


@pytest.mark.parametrize("values", ["1,2,3,4,99999999999999999999999", "1,2,3,4,-1", "1,2,3,4," + "9" * 5000])
def test_anagram_class_values_are_bounded(capsys, lexicon, values):
    code, _, err = run(capsys, "anagram", "kotyy" * 5, "--class-values", values, "--lexicon", str(lexicon))
    assert code == 2 and "--class-values" in err


def test_rack_anagrams_reach_the_lexicons_longest_word(capsys, tmp_path_factory):
    literki = load_variant("literki")  # words up to 17 letters
    folder = tmp_path_factory.mktemp("long")
    (folder / "w.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    long_lexicon = build_lexicon(folder / "w.txt", folder / "w.lexicon", literki).output
    code, out, _ = run(capsys, "anagram", "--letters", "ponmlkjihgfedcba", "--lexicon", str(long_lexicon), "--json")
    groups = {g["length"]: g["words"] for g in json.loads(out)["groups"]}
    assert code == 0 and groups[16] == ["ABCDEFGHIJKLMNOP"]
    assert Counter("abcdefghijklmnop") == Counter("ponmlkjihgfedcba")
