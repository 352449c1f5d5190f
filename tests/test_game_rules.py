"""The rules both game engines share or must both enforce: the word list and word lengths in
``Game.place``, player counts, nicknames, winners, the rank choice, the grid's letter draw."""

import random
from dataclasses import replace
from pathlib import Path

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.analysis.simulate import RunConfig, check_run_config, run_simulation
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Tile
from literaki_cli.engine.variant import ACROSS, load_variant
from literaki_cli.errors import InputError
from literaki_cli.games.common import seat_nicknames
from literaki_cli.games.game import PLACE, Game, IllegalMove, NotInWordList
from literaki_cli.games.grid5 import draw_grid, load_grid_rules
from literaki_cli.games.gridgame import GridComputer, GridGame, make_grid_players
from literaki_cli.games.players import Level, load_levels, make_players

V = load_variant()
START_ROW, START_COL = V.board.start
WORDS = ["ko", "kot", "kotka", "ala"]


class Seat:
    """A player the test moves by hand."""

    level = None

    def __init__(self, name: str) -> None:
        self.name = name


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rules")
    (folder / "w.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "r.lexicon", V).output)


def rules_with_word_lengths(tmp_path: Path, min_length: int, max_length: int):
    """The Literaki rules file with other word-length limits, loaded as a user's rules file."""
    text = (Path(__file__).resolve().parent.parent / "literaki_cli" / "variants" / "literaki.toml").read_text(
        encoding="utf-8"
    )
    assert "min_length = 2\n" in text and "max_length = 15\n" in text
    text = text.replace("min_length = 2\n", f"min_length = {min_length}\n")
    text = text.replace("max_length = 15\n", f"max_length = {max_length}\n")
    path = tmp_path / "short.toml"
    path.write_text(text, encoding="utf-8")
    return load_variant(rules_file=path)


def game_with_rack(variant, lexicon, rack: str) -> Game:
    game = Game(variant, [Seat("ola"), Seat("ela")], lexicon.words, seed=1)
    game.racks[0] = rack
    return game


def across(word: str) -> list[Tile]:
    return [Tile(START_ROW, START_COL + i, ch, False) for i, ch in enumerate(word)]


def snapshot(game: Game):
    return (game.board.copy(), list(game.racks), list(game.bag.tiles), list(game.scores), len(game.turns),
            game.current, game.passes_in_row, list(game.exchanges_left), game.over)  # fmt: skip


def same_board(a, b) -> bool:
    return sorted(a.tiles()) == sorted(b.tiles())


def assert_unchanged(before, after):
    assert same_board(before[0], after[0])
    assert before[1:] == after[1:]


def test_a_word_not_in_the_word_list_is_refused_and_nothing_changes(lexicon):
    game = game_with_rack(V, lexicon, "kotakzz")
    before = snapshot(game)
    with pytest.raises(NotInWordList, match="KOTA is not in the word list") as refused:
        game.place(across("kota"))
    assert refused.value.words == ["KOTA"]
    assert isinstance(refused.value, IllegalMove)
    assert_unchanged(before, snapshot(game))


def test_a_word_in_the_word_list_is_accepted(lexicon):
    game = game_with_rack(V, lexicon, "kotakzz")
    bag_before = len(game.bag)
    turn = game.place(across("kot"))
    assert turn.kind == PLACE and turn.words == ("KOT",) and turn.score > 0
    assert sorted((r, c, letter) for r, c, letter, _ in game.board.tiles()) == [
        (START_ROW, START_COL + i, ch) for i, ch in enumerate("kot")
    ]
    assert sorted(turn.leave) == sorted("akzz") and game.racks[0].startswith(turn.leave)
    assert len(game.racks[0]) == 7 and len(game.bag) == bag_before - 3
    assert game.scores[0] == turn.score and game.current == 1


def test_a_word_longer_than_the_rules_allow_is_refused_though_listed(lexicon, tmp_path):
    short = rules_with_word_lengths(tmp_path, 2, 4)
    assert short.max_word_length == 4
    game = game_with_rack(short, lexicon, "kotkazz")
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="KOTKA is longer than 4 letters"):
        game.place(across("kotka"))
    assert_unchanged(before, snapshot(game))
    # The same move under the standard limits is legal: the length limit refused it, not the list.
    assert game_with_rack(V, lexicon, "kotkazz").place(across("kotka")).words == ("KOTKA",)


def test_a_word_shorter_than_the_rules_allow_is_refused_though_listed(lexicon, tmp_path):
    game = game_with_rack(rules_with_word_lengths(tmp_path, 3, 15), lexicon, "kotkazz")
    before = snapshot(game)
    with pytest.raises(IllegalMove, match="KO is shorter than 3 letters"):
        game.place(across("ko"))
    assert_unchanged(before, snapshot(game))
    assert game_with_rack(V, lexicon, "kotkazz").place(across("ko")).words == ("KO",)


def test_a_cross_word_not_in_the_list_is_refused(lexicon):
    game = game_with_rack(V, lexicon, "kotalaz")
    game.place(across("kot"))
    game.current = 0
    game.racks[0] = "alazzzz"
    before = snapshot(game)
    # A below K makes KA down, which the list lacks (the new word ALA is listed).
    below = [Tile(START_ROW + 1, START_COL + i, ch, False) for i, ch in enumerate("ala")]
    with pytest.raises(NotInWordList) as refused:
        game.place(below, ACROSS)
    assert "KA" in refused.value.words and "ALA" not in refused.value.words
    assert_unchanged(before, snapshot(game))


@pytest.mark.parametrize("count", [1, 5])
def test_game_refuses_a_player_count_outside_the_rules(lexicon, count):
    with pytest.raises(InputError, match=f"played by 2 to 4 players, not {count}"):
        Game(V, [Seat(f"p{i}") for i in range(count)], lexicon.words)


@pytest.mark.parametrize("count", [1, 5])
def test_grid_game_refuses_a_player_count_outside_the_rules(lexicon, count):
    rules = load_grid_rules()
    players = [GridComputer(f"p{i}", load_levels()["trudny"], lexicon.words, rules) for i in range(count)]
    with pytest.raises(InputError, match=f"grid5 is played by 2 to 4 players, not {count}"):
        GridGame(rules, players)


def test_seat_nicknames_number_only_repeated_levels():
    assert seat_nicknames(["trudny", "latwy", "trudny"]) == ["trudny1", "latwy", "trudny2"]
    assert seat_nicknames(["mistrz", "latwy"]) == ["mistrz", "latwy"]


def test_both_engines_name_seats_alike(lexicon):
    specs = ["trudny", "latwy", "trudny"]
    board = make_players(specs, lexicon, V, load_levels())
    grid = make_grid_players(specs, lexicon, load_grid_rules(), load_levels())
    assert [p.name for p in board] == [p.name for p in grid] == ["trudny1", "latwy", "trudny2"]
    with pytest.raises(InputError, match="unknown player level 'wielkimistrz'"):
        make_grid_players(["wielkimistrz", "latwy"], lexicon, load_grid_rules(), load_levels())


def test_winners_of_both_engines(lexicon):
    game = Game(V, [Seat("a"), Seat("b"), Seat("c")], lexicon.words)
    game.scores = [10, 30, 30]
    assert game.winners() == [1, 2]
    rules = load_grid_rules()
    grid = GridGame(rules, make_grid_players(["latwy", "trudny"], lexicon, rules, load_levels()))
    grid.scores = [7, 3]
    assert grid.winners() == [0]


def test_pick_rank_follows_the_beta_quantile():
    level = Level("x", "x", "all", 2.0, 5.0, 0, "", 0)
    rng, oracle = random.Random(7), random.Random(7)
    for count in (1, 2, 10, 1000):
        q = oracle.betavariate(2.0, 5.0)
        assert level.pick_rank(count, rng) == min(count - 1, int(q * count))
    best = Level("b", "b", "all", 0.0, 0.0, 0, "", 0)
    rng = random.Random(3)
    state = rng.getstate()
    assert best.pick_rank(50, rng) == 0 and rng.getstate() == state  # draws nothing


def test_grid_letters_come_from_the_variant_the_rules_name(tmp_path):
    text = (Path(__file__).resolve().parent.parent / "literaki_cli" / "games" / "grid5.toml").read_text(
        encoding="utf-8"
    )
    assert 'frequencies_from = "literaki"' in text
    literki_rules = tmp_path / "g.toml"
    literki_rules.write_text(text.replace('frequencies_from = "literaki"', 'frequencies_from = "literki"'), "utf-8")
    rules = load_grid_rules(literki_rules)
    literki = load_variant("literki")
    assert rules.letter_frequencies == {t.letter: t.count for t in literki.tiles.values()}
    assert rules.letter_frequencies != load_grid_rules().letter_frequencies
    only_z = replace(rules, letter_frequencies={"z": 1, "a": 0})
    assert set(draw_grid(random.Random(1), only_z.letter_frequencies, 25)) == {"z"}
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('frequencies_from = "literaki"', 'frequencies_from = "chess"'), "utf-8")
    with pytest.raises(InputError, match=r"\[draw\]: key 'frequencies_from': unknown variant 'chess'"):
        load_grid_rules(bad)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["wielkimistrz", "latwy"]}, "unknown player level 'wielkimistrz'"),
        ({"game": "chess"}, "unknown game 'chess'; choose literaki or grid5"),
        ({"game": "grid5", "gcg": True}, "grid5 has no GCG"),
        ({"players": ["latwy"] * 5}, "literaki is played by 2 to 4 players, not 5"),
        ({"game": "grid5", "players": ["latwy"]}, "grid5 is played by 2 to 4 players, not 1"),
    ],
)
def test_a_run_that_cannot_be_played_is_refused_before_any_game(lexicon, tmp_path, change, message):
    config = RunConfig(**{"players": ["latwy", "trudny"], "games": 2, "seed": 1, "lexicon": str(lexicon.path),
                          **change})  # fmt: skip
    with pytest.raises(InputError, match=message):
        check_run_config(config)
    with pytest.raises(InputError, match=message):
        run_simulation(config, 1, tmp_path / "run")
    assert not (tmp_path / "run").exists()
    check_run_config(RunConfig(["latwy", "trudny"], 2, 1, lexicon=str(lexicon.path)))  # the unchanged run is fine
