"""A level with ``leaves = "none"`` plays exactly as the levels did before leave values existed.

``tests/data/score_only_games.json`` holds the plays of six seeded games recorded with the code
of commit e7ff7e7 (score-only choices, the keep-list exchange rule); the same games played now,
with every level's ``leaves = "none"``, must repeat them turn for turn.
"""

from __future__ import annotations

import json
from pathlib import Path

from literaki_cli.engine.variant import load_variant
from literaki_cli.games.game import Game
from literaki_cli.games.players import load_levels, make_players

GOLDEN = Path(__file__).parent / "data" / "score_only_games.json"


def test_score_only_levels_repeat_the_recorded_games(flowing_lexicon, tmp_path):
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    levels_file = tmp_path / "levels.toml"
    levels_file.write_text(data["levels"], encoding="utf-8")
    levels = load_levels(levels_file)
    assert all(level.leaves == "none" for level in levels.values())
    variant = load_variant()
    for key, recorded in data["games"].items():
        pairing, seed = key.split("/")
        players = make_players(pairing.split("-"), flowing_lexicon, variant, levels)
        game = Game(variant, players, flowing_lexicon.words, seed=int(seed), game_id=int(seed)).play()
        assert [t.play for t in game.turns] == recorded, key


def test_the_recorded_games_exchange_and_pass():
    """The record exercises the exchange rule and the passes, not only placements."""
    plays = [p for game in json.loads(GOLDEN.read_text(encoding="utf-8"))["games"].values() for p in game]
    assert any(p.startswith("-") and p != "-" for p in plays)
