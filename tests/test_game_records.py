"""Positions from game records (issue 28): ``solve``/``show``/``score GAME.gcg --turn N``, the
unseen tiles, kurnik/PlayOK and Polish tournament files, both end-of-game conventions.

The oracle for the replay is the game itself: :class:`~literaki_cli.games.game.Game` is played
turn by turn and its own board, scores and racks are kept before every turn; the record it
writes is then replayed and must give back the same position at every turn."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from literaki_cli.engine.position import board_tiles
from literaki_cli.engine.variant import load_variant
from literaki_cli.errors import InputError
from literaki_cli.games.game import Game
from literaki_cli.games.players import load_levels, make_players
from literaki_cli.games.record import game_to_gcg
from literaki_cli.games.replay import ENGLISH, LAST, POLISH, end_of_game, game_position
from literaki_cli.io.gcg import parse_gcg
from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples"
LITERAKI = load_variant()
LITERKI = load_variant("literki")


def played_with_snapshots(lexicon, variant, seed: int):
    """A game of two ``mistrz`` players and, before each turn, what the game itself holds:
    (board rows, scores by seat, racks by seat, the seat to move)."""
    players = make_players(["mistrz", "mistrz"], lexicon, variant, load_levels(None))
    game = Game(variant, players, lexicon.words, seed=seed, game_id=0)
    snapshots = []
    while not game.over:
        snapshots.append((game.board.to_rows(), list(game.scores), list(game.racks), game.current))
        game.step()
    return game, snapshots


@pytest.mark.parametrize("game_variant, seed", [(LITERAKI, 1), (LITERAKI, 7), (LITERKI, 2), (LITERKI, 5)],
                         ids=["literaki-1", "literaki-7", "literki-2", "literki-5"])  # fmt: skip
def test_the_position_before_every_turn_is_the_games_own(flowing_lexicon, game_variant, seed):
    game, snapshots = played_with_snapshots(flowing_lexicon, game_variant, seed)
    record = parse_gcg(game_to_gcg(game), "g.gcg")
    forced = [turn.forced_exchange for turn in game.turns]
    unknown = 0
    for number, (rows, scores, racks, seat) in enumerate(snapshots, 1):
        at = game_position(record, number)
        order = [(seat + k) % 2 for k in range(2)]
        assert (at.number, at.seat, at.over) == (number, seat, False)
        assert at.position.board.to_rows() == rows
        assert at.position.scores == [scores[s] for s in order]
        assert at.position.racks[0] == racks[seat]
        opponent = at.position.racks[1]
        if opponent:
            assert opponent == racks[order[1]]
        else:  # only a forced exchange (a WYM square, literki) between here and the opponent's turn hides it
            unknown += 1
            assert forced[number - 1] or (number < len(forced) and forced[number])
    if game_variant is LITERAKI:
        assert unknown == 0
    end = game_position(record, LAST)
    assert end.over and end.position.board.to_rows() == game.board.to_rows()
    assert sorted(end.position.scores) == sorted(game.scores)


def test_the_unseen_tiles_add_up_with_the_board_and_the_rack_to_the_whole_set(flowing_lexicon):
    game, snapshots = played_with_snapshots(flowing_lexicon, LITERAKI, 3)
    record = parse_gcg(game_to_gcg(game), "g.gcg")
    whole = Counter({letter.upper(): tile.count for letter, tile in LITERAKI.tiles.items()})
    whole["?"] = LITERAKI.blanks
    from literaki_cli.analysis.positionquery import unseen_tiles_of

    for number in range(1, len(snapshots) + 1):
        position = game_position(record, number).position
        unseen = unseen_tiles_of(position, position.rack)
        seen = Counter({t.upper(): n for t, n in board_tiles(position.board).items()}) + Counter(position.rack.upper())
        assert Counter(unseen.counts) + seen == whole, number
        opponent = len(snapshots[number - 1][2][1 - snapshots[number - 1][3]])
        assert unseen.bag == unseen.count - opponent  # the opponent's rack is known here: the bag is exact
        assert sum(sum(tiles.values()) for _, tiles in unseen.by_colour) == unseen.count


# --------------------------------------------------------------------------- the commands


@pytest.fixture(scope="module")
def record_file(flowing_lexicon, tmp_path_factory):
    game, snapshots = played_with_snapshots(flowing_lexicon, LITERAKI, 1)
    path = tmp_path_factory.mktemp("records") / "game.gcg"
    path.write_text(game_to_gcg(game), encoding="utf-8")
    return path, len(snapshots)


def test_show_turn_as_cgp_round_trips_through_solve(flowing_lexicon, record_file, capsys):
    path, turns = record_file
    lex = str(flowing_lexicon.path)
    for number in (1, 2, turns // 2, turns):
        code, cgp, err = run_cli(capsys, "show", str(path), "--turn", str(number), "--to", "cgp")
        assert code == 0, err
        code, from_record, err = run_cli(capsys, "solve", str(path), "--turn", str(number), "--json", "--lexicon", lex)
        assert code == 0, err
        code, from_cgp, err = run_cli(capsys, "solve", cgp.strip(), "--json", "--lexicon", lex)
        assert code == 0, err
        record, plain = json.loads(from_record), json.loads(from_cgp)
        assert record["game"]["turn"] == number and record["game"]["turns"] == turns
        assert record["moves"] == plain["moves"] and record["rack"] == plain["rack"]
        assert record["unseen"] == plain["unseen"] and record["bag"] == plain["bag"]


def test_score_a_move_at_a_turn_with_that_turns_rack(flowing_lexicon, record_file, capsys):
    path, _ = record_file
    record = parse_gcg(path.read_text(encoding="utf-8"), str(path))
    number, first = next((n, e) for n, e in enumerate((e for e in record.turns if e.is_turn), 1) if e.kind == "place")
    code, out, err = run_cli(capsys, "score", str(path), "--turn", str(number), first.coord, first.word, "--json",
                             "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert code == 0, err
    answer = json.loads(out)
    assert answer["total"] == first.score and answer["valid"] and answer["problems"] == []
    code, out, err = run_cli(capsys, "score", str(path), "--turn", str(number), first.coord, first.word, "--json",
                             "--rack", "ŹŹ", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert code in (1, 2) and "ŹŹ" in out + err


def test_show_a_record_alone_is_the_position_after_the_last_turn(record_file, capsys):
    path, turns = record_file
    code, out, err = run_cli(capsys, "show", str(path), "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["game"]["turn"] == turns + 1 and shown["game"]["over"]
    code, out, err = run_cli(capsys, "show", str(path), "--turn", "3")
    assert code == 0, err
    assert "turn 3 of" in out and "unseen" in out and "bag" in out


def test_a_saved_game_in_progress_ends_with_the_player_to_move_and_both_racks(capsys):
    code, out, err = run_cli(capsys, "show", str(EXAMPLES / "saved-game.gcg"), "--json")
    assert code == 0, err
    shown = json.loads(out)
    state = json.loads(next(line for line in (EXAMPLES / "saved-game.gcg").read_text(encoding="utf-8").splitlines()
                            if line.startswith("#literaki-state")).split(" ", 1)[1])  # fmt: skip
    mover = state["current"]
    assert shown["position"]["racks"] == [state["racks"][mover].upper(), state["racks"][1 - mover].upper()]
    assert shown["game"]["over"] is False


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "{game}"], ["is a game record: give solve --turn N", "(1 to"]),
        (["score", "{game}", "8H", "KOT"], ["give score --turn N"]),
        (["solve", "{game}", "--turn", "0"], ["--turn '0': give a turn number"]),
        (["solve", "{game}", "--turn", "ostatni"], ["--turn 'ostatni': give a turn number (1 for the first) or last"]),
        (["solve", "{game}", "--turn", "999"], ["no turn 999: the game has"]),
        (["solve", "{game}", "--turn", "last"], ["the game is over after turn"]),
        (["score", "{game}", "--turn", "last", "8H", "KOT"], ["the game is over after turn"]),
        (["solve", "{board}", "--turn", "2"], ["--turn 2: only for a game record"]),
        (["solve", "--batch", "{board}", "--turn", "2"], ["--batch does not take --turn"]),
    ],
)
def test_bad_turns_are_one_line_errors(record_file, capsys, env_lexicon, args, words):
    path, _ = record_file
    args = [a.format(game=path, board=EXAMPLES / "board.txt") for a in args]
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith("literaki: error: "), err
    for word in words:
        assert word in err, err


def test_batch_lines_bring_a_record_and_a_turn(flowing_lexicon, record_file, capsys, tmp_path):
    path, _ = record_file
    text = path.read_text(encoding="utf-8")
    lines = tmp_path / "in.jsonl"
    lines.write_text("\n".join(json.dumps(obj, ensure_ascii=False) for obj in [
        {"id": "a", "position": text, "turn": 2},
        {"id": "b", "position": text},
        {"id": "c", "position": text, "turn": "last"},
        {"id": "d", "position": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOT/ 0/0 0", "turn": 1},
        {"id": "e", "position": text, "turn": -1},
    ]) + "\n", encoding="utf-8")  # fmt: skip
    code, out, err = run_cli(capsys, "solve", "--batch", str(lines), "--lexicon", str(flowing_lexicon.path))
    assert code == 4, err  # some lines failed
    answers = {a["id"]: a for a in map(json.loads, out.splitlines())}
    code, expected, _ = run_cli(capsys, "solve", str(path), "--turn", "2", "--json", "--lexicon",
                                str(flowing_lexicon.path))  # fmt: skip
    assert answers["a"]["moves"] == json.loads(expected)["moves"]
    assert 'a game record: give "turn": N for the position before turn N' in answers["b"]["error"]
    assert "the game is over after turn" in answers["c"]["error"]
    assert '"turn": only with a game record' in answers["d"]["error"]
    assert "give a turn number" in answers["e"]["error"]


# --------------------------------------------------------------------------- other programs' files

#: A kurnik/PlayOK export: numbered players, the Polish end of the game (the player who goes out
#: gains the leftover value once, and the opponent loses it).  Ż is 5, A and K 1... (green K is 2).
KURNIK = """#player1 1 kasia
#player2 2 tomek
>1: KOTAEIS 8H KOT +{kot} {kot}
>2: AEIOUYZ - +0 0
>1: AEIS 9H A +{a} {t1}
>2: AEIOUYZ (AEIOUYZ) -{left} -{left}
>1: (AEIOUYZ) +{gain} {t2}
"""


def _kurnik(english: bool = False) -> str:
    v = LITERAKI
    kot = None
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.move import parse_move
    from literaki_cli.engine.scoring import evaluate_placement

    board = Board.for_variant(v)
    first = evaluate_placement(board, v, parse_move("8H KOT", v), None, None)
    kot = first.total
    second = evaluate_placement(board.with_tiles(first.tiles), v, parse_move("9H A", v), None, None)
    left = v.rack_value("aeiouyz")
    text = KURNIK.format(kot=kot, a=second.total, t1=kot + second.total, left=left, gain=2 * left if english else left,
                         t2=kot + second.total + (2 * left if english else left))  # fmt: skip
    if english:  # the opponent loses nothing; the player out gains twice
        text = text.replace(f">2: AEIOUYZ (AEIOUYZ) -{left} -{left}\n", "")
    return text


def test_a_kurnik_export_is_read_with_its_names_and_its_polish_end(tmp_path):
    record = parse_gcg(_kurnik(), "kurnik.gcg")
    assert [p.label for p in record.players] == ["kasia", "tomek"]
    at = game_position(record, 2)
    assert at.nick == "tomek" and at.position.racks == ["aeiouyz", "aeis"]
    left = LITERAKI.rack_value("aeiouyz")
    totals = [t.total for t in record.turns if t.player == 0][-1:] + [-left]
    end = end_of_game(record, totals)
    assert end.convention == POLISH and end.leftover == left == end.gained and end.out == 0
    assert end.rules_totals == tuple(totals)


def test_the_english_end_is_named_and_the_results_kept_with_the_rules_beside_them():
    text = _kurnik(english=True)
    record = parse_gcg(text, "english.gcg")
    left = LITERAKI.rack_value("aeiouyz")
    final = [t.total for t in record.turns if t.player == 0][-1]
    end = end_of_game(record, [final, 0])
    assert end.convention == ENGLISH and end.gained == 2 * left
    assert end.totals == (final, 0) and end.rules_totals == (final - left, -left)
    assert "twice" in end.note and "the record's totals are kept" in end.note


def test_a_tournament_file_in_windows_1250_without_an_encoding_line(flowing_lexicon, tmp_path, capsys):
    text = "#player1 ala Ala Kowalska\n#player2 ola Ola Nowak\n>ala: ŻÓŁWIKA 8H ŻÓŁw +{s} {s}\n>ola: ĄĘŚĆŹŃY - +0 0\n"
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.move import parse_move
    from literaki_cli.engine.scoring import evaluate_placement

    score = evaluate_placement(Board.for_variant(LITERAKI), LITERAKI, parse_move("8H ŻÓŁw", LITERAKI), None, None)
    path = tmp_path / "turniej.gcg"
    path.write_bytes(text.format(s=score.total).encode("cp1250"))
    code, out, err = run_cli(capsys, "show", str(path), "--turn", "2", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["position"]["racks"][0] == "ĄĘŚĆŹŃY" and shown["game"]["player"] == "ola"
    code, out, err = run_cli(capsys, "analyze", str(path), "--json", "--lexicon", str(flowing_lexicon.path),
                             "--endgame-time", "0")  # fmt: skip
    assert code == 0, err
    review = json.loads(out)
    assert review["encoding"] == "cp1250" and review["turns"][0]["played"]["word"] == "ŻÓŁw"


def test_a_record_through_stdin_and_a_forced_format(record_file, capsys, monkeypatch):
    import io
    import sys

    path, _ = record_file
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes()), encoding="utf-8"))
    code, out, err = run_cli(capsys, "show", "-", "--turn", "2", "--to", "cgp")
    assert code == 0, err
    code, expected, _ = run_cli(capsys, "show", str(path), "--turn", "2", "--to", "cgp", "--format", "gcg")
    assert out == expected


def test_a_record_the_replay_loses_is_refused_at_the_later_turns():
    text = "#player1 a A\n#player2 b B\n>a: KOTAEIS 8H KOT +6 6\n>b: AEIOUYZ 8H ZA +2 2\n>a: AEIS - +0 6\n"
    record = parse_gcg(text, "bad.gcg")
    assert game_position(record, 2).position.rack == "aeiouyz"  # before the move that does not fit
    with pytest.raises(InputError, match=r"bad\.gcg: turn 3: the board is unknown: line 4's move 8H ZA"):
        game_position(record, 3)


def test_every_turn_of_the_example_game_leads_to_the_next_by_its_move():
    """examples/simulated-game.gcg: the move a turn's line plays, scored on that turn's position
    (``score``'s own path), lays the board of the next turn, scores what the file claims, and
    the scores and racks follow."""
    import numpy as np

    from literaki_cli.analysis.positionquery import score_placement
    from literaki_cli.engine.move import parse_move
    from literaki_cli.games.replay import move_text

    def every_word(words):
        return np.ones(len(words), dtype=bool)

    record = parse_gcg((EXAMPLES / "simulated-game.gcg").read_text(encoding="utf-8"), "simulated-game.gcg")
    turns = [event for event in record.turns if event.is_turn]
    for number, event in enumerate(turns, 1):
        here, after = game_position(record, number), game_position(record, number + 1)
        assert here.position.rack == event.rack and here.played == move_text(event)
        if event.kind == "place":
            placement = parse_move(f"{event.coord} {event.word}", LITERAKI)
            scored = score_placement(here.position, placement, here.position.rack, every_word)
            assert scored.result.total == event.score and scored.valid, number
            assert after.position.board.to_rows() == scored.board_after.to_rows(), number
        else:
            assert after.position.board.to_rows() == here.position.board.to_rows(), number
        if number < len(turns):
            assert after.position.scores[1] == event.total, number  # the mover of turn N is second at turn N + 1
            assert here.position.racks[1] == turns[number].rack, number  # the opponent's rack: their next line's


def test_solve_endgame_at_a_bag_empty_turn_of_a_record(flowing_lexicon, capsys):
    """Turn 28 of the example game is played with the bag empty: --endgame takes the record's
    racks (the mover's line and the opponent's next line) and solves it exactly."""
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "simulated-game.gcg"), "--turn", "28", "--endgame",
                             "--json", "--lexicon", str(flowing_lexicon.path), "--threads", "1")  # fmt: skip
    assert code == 0, err
    answer = json.loads(out)
    assert answer["endgame"]["exact"] and answer["bag"] == 0 and answer["game"]["turn"] == 28
    assert sum(answer["unseen"].values()) == 3  # the opponent's HNR


def test_a_record_naming_another_word_list_says_so(flowing_lexicon, record_file, capsys):
    path, _ = record_file
    code, out, err = run_cli(capsys, "analyze", str(path), "--json", "--lexicon", str(flowing_lexicon.path),
                             "--endgame-time", "0")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["notes"] == ["the record names the word list SJP; it is reviewed with w (a word the lists "
                                        "differ on is judged by w: the turn's notes say so)"]  # fmt: skip
    text = path.read_text(encoding="utf-8").replace("#lexicon SJP", "#lexicon sjp-20260201")
    from literaki_cli.review.game_review import lexicon_note

    assert lexicon_note("sjp-20260201", flowing_lexicon) is not None
    assert "#lexicon sjp-20260201" in text
