"""Fuzz the parsers of user input (issue 12): positions (CGP, board text, JSON), moves, letter
grids, variant and grid rules files.  Whatever the text, a parser either succeeds or raises
InputError (exit 2); through the command line the exit code is 0, 1 or 2 and stderr holds one
line, never a traceback or an internal error (exit 3)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexicon_build.build import build_lexicon
from literaki_cli.analysis.positionquery import score_placement, score_turn
from literaki_cli.cli import main
from literaki_cli.engine.move import Placement, parse_move
from literaki_cli.engine.position import validate
from literaki_cli.engine.variant import MAX_SCORE, load_variant, parse_variant, score_bound
from literaki_cli.errors import InputError
from literaki_cli.games import grid5
from literaki_cli.io.positionio import detect_format, read_position, write_position

PACKAGE = Path(__file__).resolve().parent.parent / "literaki_cli"
LITERAKI_TOML = (PACKAGE / "variants" / "literaki.toml").read_text(encoding="utf-8")
# Literaki with directional squares too, so their keys get fuzzed.
DIRECTIONAL_TOML = LITERAKI_TOML.replace(
    '"2" = { name = "word x2", word_multiplier = 2 }',
    '"2" = { name = "end x2", directional_word_multiplier = 2, directions = ["across-end", "down-end"] }',
)
GRID_TOML = (PACKAGE / "games" / "grid5.toml").read_text(encoding="utf-8")
VARIANT = load_variant()

# Characters that mean something to one of the parsers, and a few that mean nothing.
CHARS = '0123456789/ .?-_|:;()\n\t{}[]",²٣⁷AaĄąŻżŁłKOTkotxQ#=\r\x00é'
ROW = ".......KOT....."
BOARD_TEXT = "\n".join(["." * 15] * 7 + [ROW] + ["." * 15] * 7) + "\n"
SEEDS = [
    "15/15/15/15/15/15/15/7KOT5/15/15/15/15/15/15/15 ABC?/DEF 12/7 0 lex sjp;",
    BOARD_TEXT,
    "    a b c d e f g h i j k l m n o\n" + "\n".join(f"{r:>2}  {' '.join(ROW if r == 8 else '.' * 15)}" for r in
                                                    range(1, 16)),
    '{"variant": "literaki", "board": ' + str(["." * 15] * 7 + [ROW] + ["." * 15] * 7).replace("'", '"')
    + ', "racks": ["AB?"], "scores": [1, 2], "zero_turns": 0, "opcodes": {}}',
]  # fmt: skip
MOVES = ["8H ŻÓŁW", "H8 ż.ŁW", "8G (K)OT", "-", "-ABC?", "exchange ab", "pass", "9H A", "H9 AT"]


# Digits that are not ASCII are drawn often: ``\d`` and str.isdigit() accept them, int() does not.
PIECES = st.text(alphabet=st.sampled_from(list(CHARS) + ["²", "٣", "⁷"] * 8), max_size=4)


@st.composite
def mutated(draw, seeds: list[str]) -> str:
    """A seed with a few characters replaced, inserted or deleted."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 3))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 4)))
        text = text[:start] + draw(PIECES) + text[end:]
    return text


ODD_NUMBERS = ["nan", "inf", "-inf", "1.5", "1e9", '"7"', "true", "[]", "99999999999999999999", "-1", "0", "2147483648"]


@st.composite
def renumbered(draw, text: str) -> str:
    """A TOML text with some of its whole numbers replaced by others, odd values among them."""
    spans = [m.span() for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", text)]
    chosen = sorted(draw(st.sets(st.sampled_from(spans), min_size=1, max_size=4)), reverse=True)
    for start, end in chosen:
        value = draw(st.one_of(st.integers(-(10**12), 10**12).map(str), st.sampled_from(ODD_NUMBERS)))
        text = text[:start] + value + text[end:]
    return text


DIGITISH = st.text(alphabet="0123456789²٣⁷", min_size=1, max_size=3)
LETTERS = st.sampled_from(list("AĄBKOTŻŁaążkx?.-é"))


@st.composite
def cgp_rows(draw) -> str:
    """A CGP row of 15 squares: letters among runs of empty squares."""
    letters = "".join(draw(st.lists(st.sampled_from(list("KOTAąż")), max_size=6)))
    before = draw(st.integers(0, 15 - len(letters)))
    after = 15 - before - len(letters)
    return (str(before) if before else "") + letters + (str(after) if after else "")


@st.composite
def cgp_texts(draw) -> str:
    """CGP built piece by piece, mostly well formed: 15 rows of 15 squares, one of them perhaps
    given a piece more (a run in digits that may not be ASCII, a letter, an odd character);
    racks, scores and a zero-turn count that may be odd."""
    rows = draw(st.lists(cgp_rows(), min_size=15, max_size=15))
    if draw(st.booleans()):
        r = draw(st.integers(0, 14))
        at = draw(st.integers(0, len(rows[r])))
        rows[r] = rows[r][:at] + draw(st.one_of(DIGITISH, LETTERS)) + rows[r][at:]
    rows = rows[: draw(st.sampled_from([15] * 8 + [14]))]
    racks = "/".join(draw(st.lists(st.text(alphabet="ABCKOT?" * 5 + "żx²", max_size=9), min_size=1, max_size=3)))
    score = st.one_of(st.integers(0, 999).map(str), DIGITISH, st.integers(-(10**12), 10**12).map(str))
    scores = "/".join(draw(st.lists(score, max_size=3)))
    zero = draw(st.one_of(st.just("0"), DIGITISH))
    return f"{'/'.join(rows)} {racks} {scores} {zero}"


@st.composite
def move_texts(draw) -> str:
    """A move built piece by piece: a position (row number and column letter, either order,
    digits that may not be ASCII) and a word of letters, dots and parentheses."""
    number, column = draw(DIGITISH), draw(st.sampled_from(list("aHhOpzŻ")))
    position = number + column if draw(st.booleans()) else column + number
    word = "".join(draw(st.lists(st.sampled_from(list("KOTkoŻż.()?x²")), min_size=1, max_size=8)))
    return f"{position} {word}"


ODD_VALUES = ODD_NUMBERS + ['"x"', '""', "[{}]", '[["across-end"]]', "{}", '[true, "red"]', "[1, 2, 3]", '"h²"']


@st.composite
def retyped(draw, text: str) -> str:
    """A TOML text with a few values (after ``key = ``) replaced by values of other types."""
    spans = [m.span() for m in re.finditer(r"(?<== )(?:\[[^\]\n]*\]|[^,}\n#]+)", text)]
    for start, end in sorted(draw(st.sets(st.sampled_from(spans), min_size=1, max_size=3)), reverse=True):
        text = text[:start] + draw(st.sampled_from(ODD_VALUES)) + text[end:]
    return text


def parse_or_refuse(parse, *args):
    """The parser's result, or None when it refused the input with InputError (any other
    exception fails the test)."""
    try:
        return parse(*args)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        return None


# --------------------------------------------------------------------------- library parsers

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


SEED_FORMATS = ["cgp", "text", "text", "json"]


@FUZZ
@given(st.data(), st.integers(0, len(SEEDS) - 1))
def test_positions_parse_or_are_refused(data, seed):
    text = data.draw(st.one_of(mutated([SEEDS[seed]]), st.text(alphabet=CHARS, max_size=200), cgp_texts()))
    fmt = data.draw(st.sampled_from([None, SEED_FORMATS[seed], SEED_FORMATS[seed], "cgp", "json"]))
    position = parse_or_refuse(read_position, text, "fuzz", None, fmt)
    if position is None:
        return
    parse_or_refuse(validate, position, True, "fuzz")
    if (fmt or detect_format(text)) == "cgp":  # every tile written in the CGP board is on the board
        written = sum(ch.isalpha() for ch in text.split()[0])
        assert written == sum(1 for _ in position.board.tiles())
    for out_format in ("cgp", "json", "text"):
        again = read_position(write_position(position, out_format), "again", position.variant)
        assert again.board == position.board


@FUZZ
@given(st.one_of(mutated(MOVES), st.text(alphabet=CHARS, max_size=30), move_texts()),
       st.sampled_from([None, "", "abc?", "???"]))  # fmt: skip
def test_moves_parse_or_are_refused(text, rack):
    board = read_position(SEEDS[0], "seed")
    move = parse_or_refuse(parse_move, text, VARIANT)
    if move is None:
        return
    if isinstance(move, Placement):
        scored = parse_or_refuse(score_placement, board, move, rack or None, lambda words: [True] * len(words))
        if scored is not None:
            assert -MAX_SCORE <= scored.result.total <= score_bound(VARIANT)[0]
    else:
        assert score_turn(text, move, rack or None, board).kind in ("exchange", "pass")


@FUZZ
@given(st.one_of(mutated(["kotła zerwą imion pasek ruchy", "KOTŁA\nZERWĄ\nIMION\nPASEK\nRUCHY\n"]),
                 st.text(alphabet=CHARS, max_size=40)))  # fmt: skip
def test_grids_parse_or_are_refused(text):
    cells = parse_or_refuse(grid5.parse_grid, text, 5, "fuzz")
    assert cells is None or (len(cells) == 25 and all(len(c) == 1 for c in cells))


@FUZZ
@given(
    st.one_of(renumbered(LITERAKI_TOML), retyped(LITERAKI_TOML), retyped(DIRECTIONAL_TOML), mutated([LITERAKI_TOML]))
)
def test_variant_rules_load_bounded_or_are_refused(text):
    variant = parse_or_refuse(parse_variant, text, "fuzz.toml")
    if variant is None:
        return
    # Accepted rules fit the 32-bit tables: the bound holds and the tables hold it exactly.
    move, game = score_bound(variant)
    assert game <= MAX_SCORE
    tables = variant.tables
    top_tile = max((t.value for t in variant.tiles.values()), default=0)
    assert int(tables.new_tile_value.max()) <= top_tile * 100 * 100 and int(tables.new_tile_value.min()) >= 0
    assert int(tables.word_multiplier.min()) >= 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(renumbered(GRID_TOML), retyped(GRID_TOML), mutated([GRID_TOML])))
def test_grid_rules_load_or_are_refused(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "grid.toml"
        path.write_text(text, encoding="utf-8")
        rules = parse_or_refuse(grid5.load_grid_rules, path)
    if rules is not None:
        assert 2 <= rules.size and all(v >= 0 for v in rules.class_values)


# --------------------------------------------------------------------------- through the command line


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory, variant):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "w.txt").write_text("kot\nkoty\nok\nto\nżółw\nab\n", encoding="utf-8")
    return build_lexicon(folder / "w.txt", folder / "w.lexicon", variant).output


def run_cli(capsys, *args: str) -> int:
    code = main(list(args))
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), (args, code, err)
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    return code


CLI = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                      HealthCheck.too_slow])  # fmt: skip


@CLI
@given(st.one_of(mutated([SEEDS[0], SEEDS[3]]), cgp_texts()), st.sampled_from(["text", "cgp", "json"]))
def test_show_exits_0_or_2(capsys, text, to):
    assert run_cli(capsys, "show", text, "--to", to) in (0, 2)


@CLI
@given(
    st.one_of(mutated(MOVES), move_texts()), st.sampled_from([[], ["--rack", "KOTY?"], ["--rack", "??? "], ["--json"]])
)
def test_score_exits_0_1_or_2(capsys, lexicon, move, extra):
    run_cli(capsys, "score", "--lexicon", str(lexicon), SEEDS[0], *extra, "--", *move.split())


@CLI
@given(st.text(alphabet="KOTY?ŻÓŁW ABC²x", min_size=1, max_size=12))
@pytest.mark.slow
def test_solve_and_anagram_racks_exit_0_or_2(capsys, lexicon, rack):
    assert run_cli(capsys, "solve", "--lexicon", str(lexicon), SEEDS[0], "--rack", rack, "--top", "3") in (0, 2)
    assert run_cli(capsys, "anagram", "--lexicon", str(lexicon), "--letters", rack) in (0, 2)
