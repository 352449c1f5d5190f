"""The Literki variant: a data file plus general mechanisms (17 x 15, 2L/3L/2S/3S, directional
4S, WYM forced exchanges, 2-4 players)."""

from collections import Counter

import numpy as np
import pytest

from literaki_cli.cli import main
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import parse_square
from literaki_cli.engine.move import Tile
from literaki_cli.engine.scoring import score_tiles
from literaki_cli.engine.variant import ACROSS, DOWN, load_variant
from literaki_cli.games.bag import full_bag
from literaki_cli.games.game import Game
from literaki_cli.games.players import load_levels, make_players

L = load_variant("literki")
LR = {">": "<", "<": ">"}
TB = {"v": "^", "^": "v"}


def tiles(*specs):
    out = []
    for spec in specs:
        name, letter = spec[:-1], spec[-1]
        r, c = parse_square(name, 15, 17)
        out.append(Tile(r, c, letter.lower(), letter.islower()))
    return out


def score(board, *specs, direction=ACROSS):
    return score_tiles(board, L, tiles(*specs), direction)


def test_variant_facts():
    assert (L.board.rows, L.board.columns, L.board.start) == (15, 17, (7, 8))
    assert L.tile_count == 115 and L.blanks == 2 and L.rack_size == 7 and L.bingo_bonus == 50
    assert (L.min_players, L.max_players, L.exchange_min_bag, L.exchange_max_per_player) == (2, 4, 7, 3)
    literaki = load_variant()
    assert {t.value for t in L.tiles.values()} == {1, 2, 3, 5}
    assert all(L.tiles[c].colour == literaki.tiles[c].colour for c in L.tiles)
    # 113 letters keep Literaki's proportions: every count within one of the exact scaling.
    for c, t in L.tiles.items():
        assert abs(t.count - literaki.tiles[c].count * 113 / 98) < 1


def test_layout_symmetric_and_complete():
    grid = np.array([list(row) for row in L.board.layout])
    flipped_lr = np.vectorize(lambda ch: LR.get(ch, ch))(grid[:, ::-1])
    flipped_tb = np.vectorize(lambda ch: TB.get(ch, ch))(grid[::-1, :])
    assert (flipped_lr == grid).all() and (flipped_tb == grid).all()
    kinds = {L.board.kind_at(r, c).name for r in range(15) for c in range(17)}
    assert {"2L", "3L", "2S", "3S", "4S →", "4S ←", "4S ↓", "4S ↑", "WYM", "centre"} <= kinds
    premium = sum(not L.board.kind_at(r, c).is_plain for r in range(15) for c in range(17))
    assert 0.33 < premium / 255 < 0.45  # Literaki: 93 / 225 = 0.41


def test_letter_and_word_premiums():
    empty = Board.for_variant(L)
    # c8 3L, d8 plain, e8 2L, f8, g8, h8 2L, i8 centre: Ż 15 + Ó 5 + Ł 6 + W 1 + I 1 + A 2 + k 0
    move = score(empty, "c8Ż", "d8Ó", "e8Ł", "f8W", "g8I", "h8A", "i8k")
    assert move.words[0].letter_sum == 30 and move.total == 80
    # b2 2S: a word over it doubles; a3? a1 is 3S (corner)
    assert score(empty, "a1K", "b1O", "c1T").words[0].multiplier == 3
    assert score(empty, "b2K", "c2O").words[0].multiplier == 2
    # A blank on a letter premium stays 0; on a word premium it still multiplies.
    assert score(empty, "c8k", "d8O").total == 1
    assert score(empty, "b2k", "c2O").total == 2


@pytest.mark.parametrize(
    "specs, direction, multiplier",
    [
        (("a8K", "b8O", "c8T"), ACROSS, 4),  # starts on a8 (across-start): x4
        (("o8K", "p8O", "q8T"), ACROSS, 4),  # ends on q8 (across-end): x4
        (("i1K", "i2O", "i3T"), DOWN, 4),  # starts on i1 (down-start): x4
        (("i13K", "i14O", "i15T"), DOWN, 4),  # ends on i15 (down-end): x4
        (("a7K", "a8O", "a9T"), DOWN, 1),  # passes a8 down: the arrow is across
        (("g1K", "h1O", "i1T"), ACROSS, 1),  # ends on i1 across: the arrow is down
        (("i1K", "j1O"), ACROSS, 1),  # starts on i1 across: the arrow is down
        (("q6K", "q7O", "q8T"), DOWN, 1),  # ends on q8 down: the arrow is across
    ],
)
def test_directional_x4_in_all_four_cases(specs, direction, multiplier):
    word = score(Board.for_variant(L), *specs, direction=direction).words[0]
    assert word.multiplier == multiplier


def test_directional_square_counts_only_for_a_new_tile():
    board = Board.for_variant(L).with_tiles(tiles("a8K"))
    assert score(board, "b8O", "c8T").words[0].multiplier == 1


def wym_game(flowing_lexicon, bag_size):
    players = make_players(["mistrz", "mistrz"], flowing_lexicon, L, load_levels())
    game = Game(L, players, flowing_lexicon.words, seed=1, game_id=0)
    game.board = Board.for_variant(L).with_tiles(tiles("g2A"))  # a tile below the WYM square g1
    if bag_size < len(game.bag):
        game.bag.tiles = game.bag.tiles[:bag_size]
    game.racks[0] = "kaaaaaa"
    return game


def test_wym_forces_the_next_players_exchange(flowing_lexicon):
    game = wym_game(flowing_lexicon, 60)
    before = game.racks[1]
    counts = game.tile_count()
    turn = game.place(tiles("g1K"), DOWN)  # K on g1 (WYM) makes KA down
    assert turn.forced_exchange == game.players[1].name
    assert len(game.racks[1]) == len(before) and game.exchanges_left[1] == L.exchange_max_per_player
    assert game.tile_count() == counts


def test_wym_does_not_fire_with_fewer_than_7_tiles_in_the_bag(flowing_lexicon):
    game = wym_game(flowing_lexicon, 7)  # the mover draws 1 after the move: 6 remain
    before = game.racks[1]
    turn = game.place(tiles("g1K"), DOWN)
    assert turn.forced_exchange == "" and game.racks[1] == before


def test_four_player_game_invariants(flowing_lexicon):
    for game_id in range(2):
        players = make_players(["mistrz", "trudny", "normalny", "latwy"], flowing_lexicon, L, load_levels())
        game = Game(L, players, flowing_lexicon.words, seed=3, game_id=game_id, first=game_id % 4)
        full = Counter(full_bag(L))
        while not game.over:
            game.step()
            assert game.tile_count() == full and sum(full.values()) == 115
            assert len(game.turns) < 600
        for p in range(4):
            assert game.scores[p] == sum(t.score for t in game.turns if t.player == p) + sum(
                a.points for a in game.adjustments if a.player == p
            )


def test_commands_with_17_columns(flowing_lexicon, tmp_path, capsys):
    lex = str(flowing_lexicon.path)
    empty = "17/" * 14 + "17"
    assert main(["solve", f"{empty} KOT/ 0/0 0", "--lexicon", lex, "--json", "--top", "1"]) == 0
    best = __import__("json").loads(capsys.readouterr().out)["moves"][0]
    assert any((p["row"], p["col"]) == (7, 8) for p in best["placed"])
    board = tmp_path / "b.txt"
    rows = ["." * 17] * 15
    rows[7] = "........KOT......"
    board.write_text("\n".join(rows), encoding="utf-8")
    # A on i9 (plain) under the K of i8 makes KA down, a word of the flowing lexicon: 2 + 1.
    assert main(["score", str(board), "9I", "A", "--lexicon", lex, "--json"]) == 0
    scored = __import__("json").loads(capsys.readouterr().out)
    assert scored["valid"] and scored["total"] == 3 and [w["word"] for w in scored["words"]] == ["KA"]
    assert main(["show", str(board), "--to", "cgp"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("17/17/17/17/17/17/17/8KOT6/")
    assert main(["score", str(board), "8R", "A", "--lexicon", lex, "--variant", "literki"]) == 2  # off the board
    out = tmp_path / "sim"
    assert main(["simulate", "--variant", "literki", "--players", "mistrz,trudny,normalny,latwy", "--games", "2",
                 "--workers", "1", "--out", str(out), "--lexicon", lex, "--gcg"]) == 0  # fmt: skip
    assert (out / "report.md").is_file() and len(list((out / "gcg").glob("*.gcg"))) == 2
