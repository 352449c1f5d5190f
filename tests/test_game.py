"""The game engine, the computer players and simulate: rules, invariants, determinism."""

from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from literaki_cli.analysis.simulate import TURN_COLUMNS, TURN_EXTRAS, RunConfig, run_simulation
from literaki_cli.engine.move import Tile
from literaki_cli.engine.movegen import MoveGenerator, record_tiles
from literaki_cli.engine.variant import load_variant
from literaki_cli.errors import LiterakiError
from literaki_cli.games.bag import full_bag
from literaki_cli.games.game import EXCHANGE, Game
from literaki_cli.games.players import exchange_choice, load_levels, make_players

V = load_variant()


def players(lexicon, levels_file, specs=("mistrz", "mistrz")):
    return make_players(list(specs), lexicon, V, load_levels(levels_file))


def test_full_bag():
    bag = full_bag(V)
    assert len(bag) == 100 and bag.count("?") == 2 and Counter(bag)["a"] == 9


@pytest.mark.parametrize("specs", [("mistrz", "mistrz"), ("slaby", "mistrz", "slaby"), ("mistrz",) * 4])
def test_tiles_conserved_scores_add_up_and_games_end(game_lexicon, specs):
    lexicon, levels = game_lexicon
    for game_id in range(3):
        seats = players(lexicon, levels, specs)
        game = Game(V, seats, lexicon.words, seed=5, game_id=game_id, first=game_id % len(specs))
        full = Counter(full_bag(V))
        while not game.over:
            game.step()
            assert game.tile_count() == full  # bag + racks + board = the 100 tiles, letter by letter
            assert len(game.turns) < 400
        for p in range(len(specs)):
            moves = sum(t.score for t in game.turns if t.player == p)
            adjust = sum(a.points for a in game.adjustments if a.player == p)
            assert game.scores[p] == moves + adjust
        assert game.ended_by in ("out", "passes")
        assert all(t.kind != EXCHANGE or t.tiles_remaining >= V.exchange_min_bag for t in game.turns)
        for p in range(len(specs)):
            assert sum(t.kind == EXCHANGE and t.player == p for t in game.turns) <= V.exchange_max_per_player


def test_same_seed_same_game(game_lexicon):
    lexicon, levels = game_lexicon
    a = Game(V, players(lexicon, levels, ("slaby", "mistrz")), lexicon.words, seed=9, game_id=4).play()
    b = Game(V, players(lexicon, levels, ("slaby", "mistrz")), lexicon.words, seed=9, game_id=4).play()
    c = Game(V, players(lexicon, levels, ("slaby", "mistrz")), lexicon.words, seed=10, game_id=4).play()
    assert [t.play for t in a.turns] == [t.play for t in b.turns] and a.scores == b.scores
    assert [t.play for t in a.turns] != [t.play for t in c.turns]


def new_game(lexicon, levels):
    return Game(V, players(lexicon, levels), lexicon.words, seed=1, game_id=0)


def test_going_out_arithmetic(game_lexicon):
    game = new_game(*game_lexicon)
    game.bag.tiles = []
    game.racks = ["ka", "żźb?"]  # the mover goes out with KA; the other keeps Ż5 Ź5 B3 blank0 = 13
    game.scores = [100, 120]
    turn = game.place([Tile(7, 7, "k", False), Tile(7, 8, "a", False)])
    assert turn.score == 2 + 1 and game.over and game.ended_by == "out"
    assert game.scores == [100 + 3 + 13, 120 - 13]
    assert [(a.player, a.points) for a in game.adjustments] == [(0, 13), (1, -13)]


def test_passes_end_the_game_and_exchanges_do_not_count(game_lexicon):
    game = new_game(*game_lexicon)
    game.racks = ["ąę", "h"]
    game.scores = [50, 60]
    game.pass_turn()
    game.pass_turn()
    game.pass_turn()
    game.exchange("h")  # player 2 exchanges: that breaks the run of passes
    assert not game.over
    for _ in range(3):
        game.pass_turn()
    assert not game.over
    game.pass_turn()  # the fourth pass in a row: both players passed twice
    assert game.over and game.ended_by == "passes"
    leftovers = [sum(V.value_of(t) for t in rack if t != "?") for rack in game.racks]
    assert leftovers[0] == 10  # Ą 5 + Ę 5
    assert game.scores == [50 - leftovers[0], 60 - leftovers[1]]


def test_exchange_rules(game_lexicon):
    game = new_game(*game_lexicon)
    for _ in range(V.exchange_max_per_player):
        game.exchange(game.racks[game.current][:2])
        game.pass_turn()
    with pytest.raises(LiterakiError, match="0 exchanges left"):
        game.exchange(game.racks[0][:1])
    game = new_game(*game_lexicon)
    game.bag.tiles = game.bag.tiles[:6]
    with pytest.raises(LiterakiError, match="6 tiles in the bag"):
        game.exchange(game.racks[0][:1])
    with pytest.raises(LiterakiError, match="cannot exchange"):
        new_game(*game_lexicon).exchange("żżż")


def test_illegal_placements_are_refused(game_lexicon):
    game = new_game(*game_lexicon)
    rack = game.racks[0]
    with pytest.raises(LiterakiError, match="illegal move"):
        game.place([Tile(0, 0, rack[0], False), Tile(0, 1, rack[1], False)])  # off the start square
    with pytest.raises(LiterakiError, match="has no"):
        game.place([Tile(7, 7, "ż", False), Tile(7, 8, "ż", False)] if "ż" not in rack else [])


def test_exchange_choice_keeps_blanks_and_keepers():
    level = load_levels()["normalny"]
    assert sorted(exchange_choice("aa?żźqe", level)) == sorted("ażźq")
    assert exchange_choice("??", level) == ""


def test_levels_file_errors(tmp_path):
    bad = tmp_path / "l.toml"
    bad.write_text('[x]\nvocabulary = "all"\n', encoding="utf-8")
    with pytest.raises(LiterakiError, match=r"\[x\]: missing key 'quantile'"):
        load_levels(bad)
    bad.write_text('[x]\nvocabulary = "most"\nquantile = [1, 2]\nexchange_below = 1\n', encoding="utf-8")
    with pytest.raises(LiterakiError, match="vocabulary"):
        load_levels(bad)


GOOD_LEVEL = {"vocabulary": '"all"', "quantile": "[1.0, 2.0]", "exchange_below": "3", "keep": '"ae"',
              "keep_max": "2", "forced_exchange_bonus": "1.5"}  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("quantile", "[nan, 1]", r"key 'quantile': nan is not between 0 and 1e\+06"),
        ("quantile", "[1, inf]", "key 'quantile': inf is not between"),
        ("quantile", "[-0.5, 1]", "key 'quantile': -0.5 is not between"),
        ("quantile", "[1e300, 1]", "key 'quantile': 1e[+]300 is not between"),
        ("quantile", "[1e-300, 1]", "key 'quantile': 1e-300 is neither 0 nor at least"),
        ("quantile", "[1, 2, 3]", r"key 'quantile' must be \[alpha, beta\]"),
        ("quantile", '["a", 1]', "key 'quantile': 'a' is not a number"),
        ("quantile", "[true, 1]", "key 'quantile': True is not a number"),
        ("exchange_below", "3000000000", "key 'exchange_below': 3000000000 is not between"),
        ("exchange_below", "2.5", "key 'exchange_below': 2.5 is not a whole number"),
        ("keep_max", "-1", "key 'keep_max': -1 is not between 0 and"),
        ("keep_max", "10000000000", "key 'keep_max': 10000000000 is not between"),
        ("forced_exchange_bonus", "nan", "key 'forced_exchange_bonus': nan"),
        ("forced_exchange_bonus", "1e308", "key 'forced_exchange_bonus': 1e[+]308"),
        ("keep", '"AE"', "key 'keep' must be lower-case Polish letters"),
        ("keep", "5", "key 'keep' must be a string"),
        ("title", "[1]", "key 'title' must be a string"),
        ("quantil", "[1, 1]", "unknown key 'quantil'"),
    ],
)
def test_every_number_of_a_levels_file_is_checked(tmp_path, key, value, message):
    spec = {**GOOD_LEVEL, key: value}
    path = tmp_path / "levels.toml"
    path.write_text("[x]\n" + "".join(f"{k} = {v}\n" for k, v in spec.items()), encoding="utf-8")
    with pytest.raises(LiterakiError, match=rf"levels.toml \[x\]: {message}"):
        load_levels(path)
    path.write_text("[x]\n" + "".join(f"{k} = {v}\n" for k, v in GOOD_LEVEL.items()), encoding="utf-8")
    level = load_levels(path)["x"]  # the same file with good values loads
    assert (level.alpha, level.beta, level.exchange_below, level.keep, level.keep_max) == (1.0, 2.0, 3, "ae", 2)


def test_a_levels_file_with_no_level_or_a_bare_value_is_refused(tmp_path):
    path = tmp_path / "levels.toml"
    for text, message in (("", "no level defined"), ("x = 1\n", r"\[x\]: a level is a table")):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(LiterakiError, match=message):
            load_levels(path)


def test_simulate_refuses_a_nan_levels_file_with_exit_2(game_lexicon, tmp_path, capsys):
    from literaki_cli.cli import main

    lexicon, _ = game_lexicon
    levels = tmp_path / "nan.toml"
    levels.write_text('[x]\nvocabulary = "all"\nquantile = [nan, 1]\nexchange_below = 0\n', encoding="utf-8")
    code = main(["simulate", "--games", "2", "--players", "x,x", "--workers", "1", "--out", str(tmp_path / "o"),
                 "--lexicon", str(lexicon.path), "--levels", str(levels)])  # fmt: skip
    assert code == 2
    assert "nan.toml [x]: key 'quantile': nan is not between" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def config_for(lexicon, levels, games=6, **kw):
    return RunConfig(players=["slaby", "mistrz"], games=games, seed=3, lexicon=str(lexicon.path),
                     levels=str(levels), **kw)  # fmt: skip


def read(folder: Path):
    return {name: pl.read_parquet(folder / f"{name}.parquet") for name in ("turns", "games", "players")}


def test_simulate_tables_and_worker_independence(game_lexicon, tmp_path):
    lexicon, levels = game_lexicon
    one = run_simulation(config_for(lexicon, levels, gcg=True), 1, tmp_path / "one")
    two = run_simulation(config_for(lexicon, levels), 2, tmp_path / "two")
    assert len(one.outputs) == len(two.outputs) == 6
    a, b = read(tmp_path / "one"), read(tmp_path / "two")
    for name in a:
        assert a[name].equals(b[name]), name
    turns, games = a["turns"], a["games"]
    assert set(TURN_COLUMNS + TURN_EXTRAS) <= set(turns.columns)
    for col in ("gameID", "slaby_score", "mistrz_score", "slaby_bingos", "mistrz_bingos", "slaby_turns",
                "mistrz_turns", "first"):  # fmt: skip
        assert col in games.columns
    assert games["first"].to_list() == ["slaby", "mistrz"] * 3  # the starting player alternates
    assert (tmp_path / "one" / "turns.csv").is_file() and len(list((tmp_path / "one" / "gcg").glob("*.gcg"))) == 6
    gcg = (tmp_path / "one" / "gcg" / "game-000000.gcg").read_text(encoding="utf-8")
    assert gcg.startswith("#character-encoding UTF-8\n#player1 slaby")


def test_interrupt_keeps_games_and_resume_completes(game_lexicon, tmp_path):
    lexicon, levels = game_lexicon
    seen = []

    def stop_after_three(output):
        seen.append(output.game_id)
        if len(seen) == 3:
            raise KeyboardInterrupt

    part = run_simulation(config_for(lexicon, levels), 1, tmp_path / "run", on_game=stop_after_three)
    assert part.interrupted and len(part.outputs) == 3
    assert read(tmp_path / "run")["games"].height == 3
    rest = run_simulation(config_for(lexicon, levels), 1, tmp_path / "run", resume=True)
    assert not rest.interrupted and len(rest.outputs) == 6
    whole = run_simulation(config_for(lexicon, levels), 1, tmp_path / "whole")
    assert len(whole.outputs) == 6
    assert read(tmp_path / "run")["games"].equals(read(tmp_path / "whole")["games"])
    with pytest.raises(LiterakiError, match="seed"):
        run_simulation(RunConfig(["slaby", "mistrz"], 6, 99, lexicon=str(lexicon.path), levels=str(levels)), 1,
                       tmp_path / "run", resume=True)  # fmt: skip


def test_report_and_cli(game_lexicon, tmp_path, capsys):
    from literaki_cli.cli import main

    lexicon, levels = game_lexicon
    out = tmp_path / "sim"
    code = main(["simulate", "--games", "6", "--players", "slaby,mistrz", "--workers", "1", "--out", str(out),
                 "--lexicon", str(lexicon.path), "--levels", str(levels), "--seed", "3"])  # fmt: skip
    assert code == 0
    for name in ("report.md", "report.json", "score_distribution.png", "points_per_turn.png", "games.csv"):
        assert (out / name).is_file(), name
    capsys.readouterr()
    assert main(["report", str(out), "--json"]) == 0
    report = __import__("json").loads(capsys.readouterr().out)
    assert report["games"] == 6 and {p["player"] for p in report["players"]} == {"slaby", "mistrz"}
    assert sum(p["wins"] + 0.5 * p["draws"] for p in report["players"]) == 6
    assert main(["report", str(tmp_path)]) == 2
    assert main(["simulate", "--players", "wielkimistrz,latwy", "--lexicon", str(lexicon.path)]) == 2


def test_mistrz_with_leave_values_plays_the_best_equity(game_lexicon, tmp_path):
    """With a leave file worth ``per_tile`` points per kept tile, the player's choice is the best
    of score + per_tile x kept tiles over every placement and every exchange, computed here
    from the game's own scorer; a score-only player plays the top score."""
    import numpy as np

    from literaki_cli.equity.leaves import F_TILE, N_FEATURES, N_SLOTS, LeaveTable, tile_classes

    lexicon, levels = game_lexicon
    per_tile = 5.0
    coef = np.zeros(N_FEATURES)
    coef[F_TILE : F_TILE + N_SLOTS] = per_tile
    leaves = tmp_path / "flat.leaves"
    LeaveTable(np.zeros(0, dtype=np.int64), np.zeros(0), coef, *tile_classes(V)).save(leaves)
    with_leaves = tmp_path / "levels.toml"
    with_leaves.write_text(Path(levels).read_text(encoding="utf-8") + '\n[keeper]\nvocabulary = "all"\n'
                           'quantile = [0, 0]\nexchange_below = -1000\nleaves = "flat.leaves"\n', encoding="utf-8")
    plain = make_players(["mistrz", "mistrz"], lexicon, V, load_levels(levels))
    keeper = make_players(["keeper", "mistrz"], lexicon, V, load_levels(with_leaves))
    a = Game(V, plain, lexicon.words, seed=5, game_id=0)  # a deal whose top-scoring move lays 3 tiles
    b = Game(V, keeper, lexicon.words, seed=5, game_id=0)
    assert a.racks == b.racks  # the same deal: only the leave values differ
    move_a = a.players[0].choose(a)
    move_b = b.players[0].choose(b)
    rack = b.racks[b.current]
    moves = MoveGenerator(lexicon, V).generate(b.board, rack)
    scored = []
    for record in moves.records:
        tiles, direction = record_tiles(record)
        scored.append((b.judge(tiles, direction).total, len(rack) - len(tiles), len(tiles)))
    # The plain player's equity is the score, and it plays a top-scoring move.
    assert move_a.equity == a.judge(list(move_a.tiles), move_a.direction).total == max(s for s, _, _ in scored)
    best_placement = max(s + per_tile * kept for s, kept, _ in scored)
    best_exchange = per_tile * (len(rack) - 1)  # keep all but one tile
    if best_exchange > best_placement:
        assert move_b.kind == EXCHANGE and len(move_b.exchange) == 1 and move_b.equity == best_exchange
    else:
        kept_b = len(rack) - len(move_b.tiles)
        assert move_b.equity == b.judge(list(move_b.tiles), move_b.direction).total + per_tile * kept_b
        assert move_b.equity == best_placement
        # Kept tiles count here, so the choice is not the top-scoring move.
        assert len(move_b.tiles) < len(move_a.tiles)
