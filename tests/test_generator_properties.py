"""Property tests of the move generator with long words: bingos (7 tiles, +bonus), words of 8 to
10 letters through tiles on the board, the popular vocabulary, and rules files that change the
word-length limits.  Every expectation comes from the brute force and the rules oracle
(tests/rules_oracle.py), which read the rules file themselves."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from lexicon_build import popular
from lexicon_build.build import build_lexicon
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import position_name
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile, parse_move
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
)
from literaki_cli.engine.scoring import evaluate_placement, score_tiles
from literaki_cli.engine.variant import parse_variant
from tests.bruteforce import all_moves
from tests.rules_oracle import VARIANTS, grid_of, judge, rules_from_text
from tests.test_movegen import BOARDS, LITERAKI, play_random_moves

LETTERS = "akotżąeł"  # every colour: yellow a o e, green k t, blue ł, red ż ą
SCENARIOS = ["random", "bingo", "through"]


def long_word_list() -> list[str]:
    """Short words as in tests/test_movegen.py, plus 7-letter words (bingos from the rack) and
    8-10-letter words (to be laid through tiles on the board)."""
    rng = random.Random(11)
    words = {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 5))) for _ in range(220)}
    words |= {"ak", "ka", "ko", "ok", "ta", "at", "to", "kot", "tak", "kat", "oko", "koło", "żak", "ąka"}
    words |= {"".join(rng.choice(LETTERS) for _ in range(7)) for _ in range(30)}
    words |= {"".join(rng.choice(LETTERS) for _ in range(rng.randint(8, 10))) for _ in range(30)}
    return sorted(words)


WORDS = long_word_list()
#: The "popular" subset the popular generator must keep to: every other word, long ones included.
POPULAR = set(WORDS[::2])


@pytest.fixture(scope="module")
def long_lexicon(tmp_path_factory):
    """The list compiled by the real builder, with the popular subset chosen here (not by wordfreq)."""
    folder = tmp_path_factory.mktemp("longwords")
    (folder / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(popular, "popular_words", lambda words, threshold: [w for w in words if w in POPULAR])
        build_lexicon(folder / "words.txt", folder / "long.lexicon", LITERAKI)
    lexicon = Lexicon.open(folder / "long.lexicon")
    assert set(lexicon.popular) == POPULAR and set(lexicon.words) == set(WORDS)
    return lexicon


def plant(rules, board: Board, rng: random.Random, word: str, new_count: int):
    """Lay len(word) - new_count letters of ``word`` on the board, along a free line whose side
    squares are empty too, so that laying the other ``new_count`` letters is a legal move (the
    word and no cross word).  Returns the new tiles' (row, col, letter), or None when no line fits."""
    grid = grid_of(board)
    n = len(word)
    places = []
    for across in (True, False):
        lines, length = (rules.rows, rules.columns) if across else (rules.columns, rules.rows)
        for line in range(lines):
            for start in range(length - n + 1):
                squares = [(line, start + i) if across else (start + i, line) for i in range(n)]
                ends = [(line, start - 1), (line, start + n)] if across else [(start - 1, line), (start + n, line)]
                sides = [
                    (r + dr, c + dc)
                    for r, c in squares
                    for dr, dc in (((1, 0), (-1, 0)) if across else ((0, 1), (0, -1)))
                ]
                if not any(sq in grid for sq in squares + ends + sides):
                    places.append(squares)
    if not places:
        return None
    squares = rng.choice(places)
    old = set(rng.sample(range(n), n - new_count))
    for i in old:
        board.set_cell(*squares[i], word[i], False)
    return [(*squares[i], word[i]) for i in range(n) if i not in old]


def position(variant, rules, generator, seed: int, n_moves: int, scenario: str, blanks: int, vocabulary: list[str]):
    """A board after ``n_moves`` random moves, and a rack for the scenario: ``random`` letters; a
    ``bingo`` rack (a 7-letter word, laid across the start when the board is empty); a word of
    8-10 letters ``through`` tiles planted for it.  Returns (board, rack, planted new tiles or None)."""
    rng = random.Random(seed)
    board = Board.for_variant(variant)
    play_random_moves(generator, board, rng, n_moves)
    planted = None
    if scenario == "bingo":
        letters = list(rng.choice([w for w in vocabulary if len(w) == 7]))
        if board.is_empty():
            row, col = rules.start
            first = min(col, rules.columns - 7)
            planted = [(row, first + i, letters[i]) for i in range(7)]
    elif scenario == "through":
        long = [w for w in vocabulary if 8 <= len(w) <= max(rules.rows, rules.columns)]
        word = rng.choice(long)
        planted = plant(rules, board, rng, word, min(7, rng.choice([7, 7, 6, 5]), len(word) - 1))
        letters = [letter for _, _, letter in planted] if planted else []
    else:
        letters = []
    letters += [rng.choice(LETTERS) for _ in range(7 - len(letters))]
    rng.shuffle(letters)
    for i in range(blanks):
        letters[i] = "?"
    return board, "".join(letters), planted


def moves_of(generator: MoveGenerator, board: Board, rack: str) -> dict[frozenset, tuple[int, object]]:
    """{frozenset of new (row, col, letter, blank): (score, record)}, each move once."""
    result = {}
    for rec in generator.generate(board, rack).records:
        tiles, _ = record_tiles(rec)
        key = frozenset((t.row, t.col, t.letter, t.blank) for t in tiles)
        assert key not in result, f"move generated twice: {sorted(key)}"
        result[key] = (int(rec[SCORE]), rec)
    return result


def placement_text(rec) -> str:
    """The move as `score` takes it: GCG coordinate and word, '.' for tiles already on the board."""
    from literaki_cli.engine import alphabet

    word = ""
    for k in range(int(rec[LENGTH])):
        cell = int(rec[CELLS + k])
        letter = alphabet.LETTER_OF[cell & CODE_MASK]
        word += "." if cell & BOARD_FLAG else (letter if cell & BLANK_FLAG else letter.upper())
    return f"{position_name(int(rec[ROW]), int(rec[COL]), int(rec[DIR]))} {word}"


def check_every_move(moves, board, variant, rules, rack, lexicon, vocabulary: set[str], sample: int = 120) -> None:
    """Each generated move re-scores identically through score_tiles, `score`'s evaluate_placement
    (with the rack and the lexicon) and the oracle, and forms only words of ``vocabulary``.

    Racks with blanks give thousands of moves, so beyond every bingo a fixed-seed sample of
    ``sample`` moves is re-scored (the brute-force comparison already covers all of them)."""
    grid = grid_of(board)
    keys = sorted(moves, key=sorted)
    chosen = [k for k in keys if len(k) >= rules.bingo_tiles]
    chosen += random.Random(len(keys)).sample(keys, min(sample, len(keys)))
    for key in chosen:
        total, rec = moves[key]
        tiles = sorted(key)
        scored = score_tiles(board, variant, [Tile(*t) for t in tiles], int(rec[DIR]))
        assert scored.total == total and not scored.problems, (sorted(key), scored.problems)
        evaluated = evaluate_placement(
            board, variant, parse_move(placement_text(rec), variant), rack, lexicon.words.lookup
        )
        assert evaluated.total == total and evaluated.valid, (placement_text(rec), evaluated.problems)
        verdict = judge(rules, grid, tiles)
        assert verdict.legal and verdict.total == total, (sorted(key), verdict.problems)
        assert all(w.letters in vocabulary for w in verdict.words), sorted(key)
        assert (verdict.bingo > 0) == (len(tiles) == rules.bingo_tiles)


def check_planted(moves, planted) -> None:
    """The move the scenario set up (a bingo, or a long word through the board) is generated."""
    if planted is None:
        return
    squares = sorted(planted)
    assert any(sorted((r, c, letter) for r, c, letter, _ in key) == squares for key in moves), squares
    if len(planted) == 7:
        assert any(len(key) == 7 for key in moves)


situations = dict(
    seed=st.integers(0, 10_000),
    n_moves=st.integers(0, 3),
    scenario=st.sampled_from(SCENARIOS),
    blanks=st.sampled_from([0, 0, 1, 1, 2]),
)
fast = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("variant, rules", BOARDS)
@fast
@given(**situations)
@pytest.mark.slow
def test_generator_agrees_with_brute_force_on_long_words(long_lexicon, variant, rules, seed, n_moves, scenario, blanks):
    generator = MoveGenerator(long_lexicon, variant)
    board, rack, planted = position(variant, rules, generator, seed, n_moves, scenario, blanks, WORDS)
    moves = moves_of(generator, board, rack)
    expected = all_moves(grid_of(board), rules, rack, set(WORDS))
    assert {key: total for key, (total, _) in moves.items()} == expected
    check_planted(moves, planted)
    check_every_move(moves, board, variant, rules, rack, long_lexicon, set(WORDS))


@pytest.mark.parametrize("variant, rules", BOARDS)
@fast
@given(**situations)
def test_popular_generator_forms_only_popular_words(long_lexicon, variant, rules, seed, n_moves, scenario, blanks):
    generator = MoveGenerator(long_lexicon, variant, popular=True)
    board, rack, planted = position(variant, rules, generator, seed, n_moves, scenario, blanks, sorted(POPULAR))
    moves = moves_of(generator, board, rack)
    assert {key: total for key, (total, _) in moves.items()} == all_moves(grid_of(board), rules, rack, POPULAR)
    check_planted(moves, planted)
    check_every_move(moves, board, variant, rules, rack, long_lexicon, POPULAR)


def test_the_scenarios_reach_bingos_and_long_words(long_lexicon):
    """The properties above see 7-tile moves and 8+-letter words (not only short plays)."""
    variant, rules = BOARDS[0].values
    generator = MoveGenerator(long_lexicon, variant)
    bingos = long_words = 0
    for seed in range(12):
        board, rack, _ = position(variant, rules, generator, seed, seed % 3, SCENARIOS[1 + seed % 2], 0, WORDS)
        for key in moves_of(generator, board, rack):
            verdict = judge(rules, grid_of(board), sorted(key))
            bingos += verdict.bingo > 0
            long_words += any(len(w.letters) >= 8 for w in verdict.words)
    assert bingos >= 6 and long_words >= 3


# ----------------------------------------------------------------- word-length limits of a rules file


def limited_rules(min_length: int, max_length: int) -> str:
    """literaki.toml with other [words] limits."""
    text = (VARIANTS / "literaki.toml").read_text(encoding="utf-8")
    limits = "min_length = 2\nmax_length = 15\n"
    assert limits in text
    return text.replace(limits, f"min_length = {min_length}\nmax_length = {max_length}\n")


LIMITS = [pytest.param(2, 4, id="2..4"), pytest.param(3, 15, id="3..15")]


@pytest.mark.parametrize("min_length, max_length", LIMITS)
@fast
@given(**situations)
@example(seed=1, n_moves=0, scenario="bingo", blanks=0)  # empty board, a 7-letter rack: see the test below
def test_generator_keeps_to_the_word_length_limits(
    long_lexicon, min_length, max_length, seed, n_moves, scenario, blanks
):
    text = limited_rules(min_length, max_length)
    variant, rules = parse_variant(text, "limited.toml"), rules_from_text(text)
    generator = MoveGenerator(long_lexicon, variant)  # the lexicon holds words of 2..10 letters
    board, rack, _ = position(variant, rules, generator, seed, n_moves, scenario, blanks, WORDS)
    moves = moves_of(generator, board, rack)
    for key in moves:
        lengths = [len(w.letters) for w in judge(rules, grid_of(board), sorted(key)).words]
        assert all(min_length <= n <= max_length for n in lengths), (sorted(key), lengths)
    check_every_move(moves, board, variant, rules, rack, long_lexicon, set(WORDS))
    assert {key: total for key, (total, _) in moves.items()} == all_moves(grid_of(board), rules, rack, set(WORDS))


@pytest.mark.parametrize("min_length, max_length", LIMITS)
def test_limit_cases_break_the_limits_without_them(long_lexicon, min_length, max_length):
    """The example the test above always runs: under the standard rules the generator lays words
    outside these limits there, so a generator that ignored the limits (as before issue 11)
    would fail it (checked against commit 965f211's generator: 2..4 got KOTKA, 3..15 got KA)."""
    generator = MoveGenerator(long_lexicon, LITERAKI)
    rules = rules_from_text(limited_rules(min_length, max_length))
    board, rack, _ = position(LITERAKI, rules, generator, 1, 0, "bingo", 0, WORDS)
    lengths = {len(w.letters) for key in moves_of(generator, board, rack) for w in judge(rules, {}, sorted(key)).words}
    assert any(not min_length <= n <= max_length for n in lengths), sorted(lengths)
