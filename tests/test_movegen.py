"""The move generator agrees exactly with a brute-force enumerator, and with `score`."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_build.build import build_lexicon
from literaki_cli.engine.board import Board
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.movegen import SCORE, MoveGenerator, record_tiles
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import load_variant, parse_variant
from tests.bruteforce import all_moves
from tests.rules_oracle import grid_of, judge, rules_from_text, rules_of

LETTERS = "akotżąeł"
LITERAKI = load_variant()


def small_board_text() -> str:
    """A 7 x 9 board, not symmetric, with letter, word, directional and colour squares."""
    from importlib import resources

    text = (resources.files("literaki_cli") / "variants" / "literaki.toml").read_text(encoding="utf-8")
    layout = ["d..R...t.", ".D...4...", "..3..B.d.", "...*.....", "Y..5..G..", ".t....D..", "...R...2."]
    board = (
        '[board]\nrows = 7\ncolumns = 9\nstart = "d4"\nlayout = [' + ", ".join(f'"{r}"' for r in layout) + "]\n\n"
        "[squares]\n"
        '"." = {}\n"*" = {}\n"d" = { letter_multiplier = 2 }\n"t" = { letter_multiplier = 3 }\n'
        '"D" = { word_multiplier = 2 }\n"3" = { word_multiplier = 3 }\n"2" = { word_multiplier = 2 }\n'
        '"4" = { directional_word_multiplier = 4, directions = ["across-start", "down-end"] }\n'
        '"5" = { directional_word_multiplier = 4, directions = ["across-end", "down-start"] }\n'
        '"R" = { colour = "red" }\n"B" = { colour = "blue" }\n'
        '"G" = { colour = "green" }\n"Y" = { colour = "yellow" }\n\n'
    )
    start, end = text.index("[board]"), text.index("\n[scoring]") + 1
    return text[:start] + board + text[end:]


SMALL = parse_variant(small_board_text(), "small.toml")
LITERKI = load_variant("literki")
ORACLE_LITERAKI = rules_of("literaki")
#: Each board as the library reads it, and as the oracle reads the same rules file.
BOARDS = [
    pytest.param(LITERAKI, ORACLE_LITERAKI, id="literaki-15x15"),
    pytest.param(SMALL, rules_from_text(small_board_text()), id="custom-7x9"),
    pytest.param(LITERKI, rules_of("literki"), id="literki-17x15"),
]


def random_word_lexicon(folder, count: int) -> tuple[Lexicon, set[str]]:
    """``count`` random words of 2-5 letters over LETTERS (seeded) and a few real ones, built
    into a lexicon in ``folder``; returns it and the words."""
    rng = random.Random(7)
    words = {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 5))) for _ in range(count)}
    words |= {"ak", "ka", "ko", "ok", "ta", "at", "to", "kot", "tak", "kat", "oko", "koło", "żak", "ąka"}
    source = folder / "words.txt"
    source.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    out = folder / "random.lexicon"
    build_lexicon(source, out, LITERAKI)
    return Lexicon.open(out), words


@pytest.fixture(scope="module")
def small_lexicon(tmp_path_factory):
    return random_word_lexicon(tmp_path_factory.mktemp("mg"), 260)


def moves_of(generator: MoveGenerator, board: Board, rack: str) -> dict[frozenset, int]:
    """{frozenset of new (row, col, letter, blank): score} from the generator, checking each move appears once."""
    result = {}
    records = generator.generate(board, rack).records
    for rec in records:
        tiles, _ = record_tiles(rec)
        key = frozenset((t.row, t.col, t.letter, t.blank) for t in tiles)
        assert key not in result, f"move generated twice: {sorted(key)}"
        result[key] = int(rec[SCORE])
    return result


def play_random_moves(generator, board, rng, n_moves):
    for _ in range(n_moves):
        rack = "".join(rng.choice(LETTERS) for _ in range(7))
        moves = moves_of(generator, board, rack)
        if not moves:
            continue
        tiles = rng.choice(sorted(moves, key=sorted))
        for row, col, letter, blank in tiles:
            board.set_cell(row, col, letter, blank)


racks = st.text(alphabet=LETTERS + "?", min_size=1, max_size=7).filter(lambda r: r.count("?") <= 2)


@pytest.mark.parametrize("variant, rules", BOARDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), n_moves=st.integers(0, 6), rack=racks)
def test_generator_agrees_with_brute_force(small_lexicon, variant, rules, seed, n_moves, rack):
    lexicon, words = small_lexicon
    generator = MoveGenerator(lexicon, variant)
    board = Board.for_variant(variant)
    play_random_moves(generator, board, random.Random(seed), n_moves)
    expected = all_moves(grid_of(board), rules, rack, words)
    got = moves_of(generator, board, rack)
    assert set(got) == set(expected)
    assert got == expected


def test_first_move_and_single_tiles(small_lexicon):
    lexicon, words = small_lexicon
    generator = MoveGenerator(lexicon, LITERAKI)
    board = Board.for_variant(LITERAKI)
    first = moves_of(generator, board, "kot")
    assert first and all(any(t[:2] == (7, 7) for t in key) for key in first)
    assert all(len(key) >= 2 for key in first)
    # A tile that forms words both ways is one move, not two.
    board.set_cell(7, 7, "k", False)
    board.set_cell(7, 8, "o", False)
    board.set_cell(8, 7, "o", False)
    singles = [k for k in moves_of(generator, board, "t") if len(k) == 1]
    assert len(singles) == len(set(singles))


def test_every_generated_move_rescores_identically(small_lexicon):
    lexicon, words = small_lexicon
    generator = MoveGenerator(lexicon, LITERAKI)
    board = Board.for_variant(LITERAKI)
    play_random_moves(generator, board, random.Random(3), 5)
    moves = moves_of(generator, board, "ako?tż")
    assert moves
    for key, total in moves.items():
        tiles = sorted(key)
        move = score_tiles(board, LITERAKI, [Tile(*t) for t in tiles])
        assert move.total == total and not move.problems
        assert all(w.plain_word in words for w in move.words)
        verdict = judge(ORACLE_LITERAKI, grid_of(board), tiles)
        assert verdict.legal and verdict.total == total
