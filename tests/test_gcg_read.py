"""Reading GCG game records (issue 14): our saves, simulate's games, and the files of other
programs (Quackle, Macondo, Woogles), every event kind; malformed lines name file:line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from literaki_cli.errors import InputError
from literaki_cli.games.game import Game
from literaki_cli.games.players import load_levels, make_players
from literaki_cli.games.record import game_to_gcg
from literaki_cli.io.gcg import (
    CHALLENGE_BONUS,
    END_ADJUSTMENT,
    TIME_PENALTY,
    WITHDRAWN,
    parse_gcg,
    read_gcg,
)
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"

FOREIGN = """#character-encoding UTF-8
#player1 ala Ala Kowalska
#player2 ola Ola Nowak
#lexicon OSPS49
#description a game with every kind of event
>ala: ŻÓŁWIA? 8D ŻÓŁw +40 40
#note a note
  that runs on
>ola: 9E .A +3 3
>ala: AI?KOTY 7G KOt +12 52
>ala: ABC -- -12 40
>ola:  E9 (A)Ż +5 8
>ala: (challenge) +5 45
>ola: aąbcćde -ĄBĆ +0 8
>ala: - +0 45
>ola: -7 +0 8
>ola: EEE (time) -10 -2
>ala: (KOT) +6 51
>ola: KOT (KOT) -6 -8
"""


def test_our_save_players_racks_and_state():
    game = read_gcg(EXAMPLES / "saved-game.gcg")
    assert [(p.nick, p.name) for p in game.players] == [("Ty", "Ty"), ("Normalny", "Normalny")]
    assert game.variant.name == "literaki" and game.variant_hint == "literaki"
    assert game.lexicon == "sjp-20260201" and game.state["racks"] == ["eyaiiri", "wrezhdi"]
    first, second = game.turns
    assert (first.line, first.player, first.rack, first.kind, first.coord, first.word) == (8, 0, "eayazii", "place",
                                                                                           "8H", "ZA")  # fmt: skip
    assert (first.score, first.total) == (2, 2)
    assert (second.player, second.rack, second.word, second.placement.direction) == (1, "wr?euzz", "gUZ", 1)
    assert [t.upper for t in second.placement.tokens] == [False, True, True]  # the lower-case g is a blank


def test_every_event_kind_of_a_foreign_file():
    game = parse_gcg(FOREIGN, "club.gcg")
    assert [(p.nick, p.name) for p in game.players] == [("ala", "Ala Kowalska"), ("ola", "Ola Nowak")]
    kinds = [(t.nick, t.kind) for t in game.turns]
    assert kinds == [("ala", "place"), ("ola", "place"), ("ala", "place"), ("ala", WITHDRAWN), ("ola", "place"),
                     ("ala", CHALLENGE_BONUS), ("ola", "exchange"), ("ala", "pass"), ("ola", "exchange"),
                     ("ola", TIME_PENALTY), ("ala", END_ADJUSTMENT), ("ola", END_ADJUSTMENT)]  # fmt: skip
    t = game.turns
    assert t[0].rack == "żółwia?" and t[0].word == "ŻÓŁw" and t[0].notes == ["a note that runs on"]
    assert t[1].rack is None and [tok.through for tok in t[1].placement.tokens] == [True, False]
    assert t[4].rack is None and t[4].word == "(A)Ż" and t[4].placement.tokens[0].through
    assert t[6].rack == "aąbcćde" and t[6].tiles == "ąbć" and t[6].exchanged == 3
    assert t[8].tiles is None and t[8].exchanged == 7  # only the number of tiles is written
    assert (t[9].rack, t[9].score, t[9].total) == ("eee", -10, -2)
    assert (t[10].rack, t[10].tiles, t[10].score) == (None, "kot", 6)
    assert (t[11].rack, t[11].tiles, t[11].score, t[11].total) == ("kot", "kot", -6, -8)
    assert [x.is_turn for x in t].count(True) == 7


def test_players_in_order_of_appearance_without_player_lines():
    game = parse_gcg(">b: AB 8H AB +4 4\n>a: CD H7 C. +3 3\n", "x.gcg")
    assert [p.nick for p in game.players] == ["b", "a"] and [t.player for t in game.turns] == [0, 1]


def test_the_games_we_write_read_back_event_for_event(game_lexicon):
    lexicon, levels = game_lexicon
    from literaki_cli.engine.variant import load_variant

    for variant, seed in (("literaki", 3), ("literki", 4)):
        v = load_variant(variant)
        game = Game(v, make_players(["mistrz", "slaby"], lexicon, v, load_levels(levels)), lexicon.words, seed=seed,
                    game_id=1).play()  # fmt: skip
        record = parse_gcg(game_to_gcg(game), "g.gcg")  # the variant from the file's own #variant line
        assert record.variant.name == variant and [p.nick for p in record.players] == ["mistrz", "slaby"]
        turns = [t for t in record.turns if t.is_turn]
        assert len(turns) == len(game.turns)
        for read, played in zip(turns, game.turns, strict=True):
            assert (read.player, read.rack, read.kind, read.score, read.total) == (
                played.player, played.rack, played.kind, played.score, played.total)  # fmt: skip
            if played.kind == "place":
                assert f"{read.coord} {read.word}" == played.play
            if played.kind == "exchange":
                assert read.tiles == played.exchanged
        ends = [t for t in record.turns if t.kind == END_ADJUSTMENT]
        assert [(t.player, t.score) for t in ends] == [(a.player, a.points) for a in game.adjustments]
        assert ends[-1].total == game.scores[ends[-1].player]


def test_the_variant_from_the_file_or_the_option():
    text = ">a: AB 8P AB +4 4\n"
    with pytest.raises(InputError, match=r"g\.gcg:1: .*column p is off the board.*--variant literki"):
        parse_gcg(text, "g.gcg")
    assert parse_gcg(text, "g.gcg", "literki").variant.name == "literki"
    assert parse_gcg("#variant literki\n" + text, "g.gcg").variant.name == "literki"
    state = json.dumps({"variant": "literki", "racks": ["", ""]})
    assert parse_gcg(f"#literaki-state {state}\n" + text, "g.gcg").variant.name == "literki"
    assert parse_gcg("#variant literki\n>a: AB 8H AB +4 4\n", "g.gcg", "literaki").variant.name == "literaki"


def test_encodings(tmp_path):
    path = tmp_path / "latin2.gcg"
    path.write_bytes("#character-encoding ISO-8859-2\n>ala: ŻÓŁWIA? 8D ŻÓŁw +40 40\n".encode("iso-8859-2"))
    assert read_gcg(path).turns[0].rack == "żółwia?"
    for encoding in ("iso-8859-2", "cp1250"):  # no line naming it: told apart by the bytes of Ą, Ś and Ź
        path.write_bytes(">ala: ŚĄŹAIA? 8D ŚĄŹ +40 40\n".encode(encoding))
        game = read_gcg(path)
        assert (game.turns[0].rack, game.turns[0].word, game.encoding) == ("śąźaia?", "ŚĄŹ", encoding)
    path.write_bytes("#character-encoding UTF-8\n>ala: ŻÓŁWIA? 8D ŻÓŁw +40 40\n".encode("cp1250"))
    with pytest.raises(InputError, match=r"latin2\.gcg:2: not UTF-8 text \(as the first line says\)"):
        read_gcg(path)
    path.write_bytes(b"#character-encoding KLINGON\n>a: AB 8H AB +4 4\n")
    with pytest.raises(InputError, match="unknown character encoding 'KLINGON'"):
        read_gcg(path)
    path.write_bytes("\ufeff#character-encoding UTF-8\n>a: AB 8H AB +4 4\n".encode())  # a byte-order mark
    assert read_gcg(path).turns[0].word == "AB"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (">a: +4 4\n", 1, "expected a move, a score and a total"),
        (">a: AB 8H AB +4\n", 1, "expected '+SCORE TOTAL' at the end, not 'AB +4'"),
        (">a: AB 8H AB +x 4\n", 1, "expected '+SCORE TOTAL' at the end"),
        (">a: AB 8H A1 +4 4\n", 1, "is not a Polish letter"),
        (">a: AB 8H AB +4 4\n>a: A1B 8H AB +4 4\n", 2, "rack 'A1B'"),
        (">a: AB 8Z AB +4 4\n", 1, "column z is off the board"),
        (">a: AB 16H AB +4 4\n", 1, "row 16 is off the board"),
        (">a: AB 8H AB C +4 4\n", 1, "expected RACK POSITION WORD"),
        (">a: AB XYZ +4 4\n", 1, "'XYZ' is no move"),
        ("a: AB 8H AB +4 4\n", 1, "not a GCG line"),
        (">a AB 8H AB +4 4\n", 1, "expected '>nick: RACK MOVE +SCORE TOTAL'"),
        (">a: AB 8H AB +4 4\n>b: AB -- -4 0\n", 2, "must follow a placement of b"),
        ("#player1 a A\n>b: AB 8H AB +4 4\n", 2, "unknown player 'b' (the #player lines name a)"),
        ("#literaki-state {broken\n>a: AB 8H AB +4 4\n", 1, "damaged (not JSON)"),
        ("#player1\n>a: AB 8H AB +4 4\n", 1, "a #player line names a nick"),
    ],
)
def test_a_malformed_line_is_named_with_file_and_line(text, line, message):
    with pytest.raises(InputError) as caught:
        parse_gcg(text, "bad.gcg")
    error = str(caught.value)
    assert error.startswith(f"bad.gcg:{line}: ") and message in error and "\n" not in error


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#player1 a A\n", "bad.gcg: no moves"),
        ("", "bad.gcg: no moves"),
        ("#player2 b B\n>b: AB 8H AB +4 4\n", "#player1 is missing"),
        ("#player1 a A\n#player2 a B\n>a: AB 8H AB +4 4\n", "two players are called 'a'"),
    ],
)
def test_a_file_that_is_no_game(text, message):
    with pytest.raises(InputError, match=message):
        parse_gcg(text, "bad.gcg")


def test_unreadable_files(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_gcg(tmp_path / "none.gcg")
    with pytest.raises(InputError, match="cannot read"):
        read_gcg(tmp_path)


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.gcg")))
def test_the_example_games_read(name):
    game = read_gcg(Path(EXAMPLES / name))
    assert game.turns and len(game.players) == 2
