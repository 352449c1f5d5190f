"""``unload_last_rounds``: in the last rounds a level lays the most tile value it can."""

from __future__ import annotations

from pathlib import Path

from literaki_cli.engine.board import Board
from literaki_cli.engine.movegen import MoveGenerator, record_tiles
from literaki_cli.games.game import PLACE, Game
from literaki_cli.games.players import load_levels, make_players, tile_values_laid


def test_in_the_last_rounds_a_level_that_picks_at_random_lays_its_costliest_tiles(game_lexicon, variant, tmp_path):
    lexicon, levels_file = game_lexicon
    unloading = tmp_path / "levels.toml"
    unloading.write_text(Path(levels_file).read_text(encoding="utf-8") + "unload_last_rounds = true\n", "utf-8")
    levels = load_levels(unloading)
    assert levels["slaby"].unload_last_rounds and not load_levels(levels_file)["slaby"].unload_last_rounds
    players = make_players(["slaby", "slaby"], lexicon, variant, levels)
    checked = 0
    for game_id in range(3):
        game = Game(variant, players, lexicon.words, seed=3, game_id=game_id, first=0)
        while not game.over:
            if len(game.bag) < game.n_players * variant.rack_size:
                player, rack = players[game.current], game.racks[game.current]
                moves = player.generator.generate(game.board, rack)
                action = player.choose(game)
                if len(moves) and action.kind == PLACE:
                    laid = sum(0 if t.blank else variant.value_of(t.letter) for t in action.tiles)
                    best = max(sum(0 if t.blank else variant.value_of(t.letter) for t in record_tiles(r)[0])
                               for r in moves.records)  # fmt: skip
                    assert laid == best
                    checked += 1
            game.step()
    assert checked > 5


def test_tile_values_laid_counts_only_new_tiles_and_no_blank(flowing_lexicon, variant):
    generator = MoveGenerator(flowing_lexicon, variant)
    moves = generator.generate(Board.for_variant(variant), "źa?")
    values = tile_values_laid(moves.records, variant)
    for record, value in zip(moves.records, values, strict=True):
        tiles, _ = record_tiles(record)
        assert value == sum(0 if t.blank else variant.value_of(t.letter) for t in tiles)


def test_unload_last_rounds_must_be_true_or_false(tmp_path):
    import pytest

    from literaki_cli.errors import InputError

    bad = tmp_path / "levels.toml"
    bad.write_text('[x]\nvocabulary = "all"\nquantile = [0, 0]\nexchange_below = 0\nunload_last_rounds = "yes"\n')
    with pytest.raises(InputError, match="unload_last_rounds.*true or false"):
        load_levels(bad)
