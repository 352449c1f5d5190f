"""The grid game: round limit, reshuffle limit, early end, determinism; simulate --game grid5."""

import random

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.cli import main
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.variant import load_variant
from literaki_cli.errors import LiterakiError
from literaki_cli.games.grid5 import load_grid_rules
from literaki_cli.games.gridgame import PASS, RESHUFFLE, WORD, GridComputer, GridGame
from literaki_cli.games.players import load_levels

RULES = load_grid_rules()


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    rng = random.Random(5)
    letters = "aeiouykotrnszwmpd"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(2, 4))) for _ in range(3000)}
    folder = tmp_path_factory.mktemp("gg")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "g.lexicon", load_variant()).output)


def computers(lexicon, *specs, levels=None):
    levels = levels or load_levels()
    return [GridComputer(f"{s}{i}", levels[s], lexicon.words, RULES) for i, s in enumerate(specs)]


def test_rounds_reshuffles_and_scores(lexicon):
    for game_id in range(4):
        players = computers(lexicon, "trudny", "latwy", "normalny")
        game = GridGame(RULES, players, seed=1, game_id=game_id, first=game_id % 3).play()
        assert game.over and game.round <= RULES.rounds
        laid_or_passed = [t for t in game.turns if t.kind != RESHUFFLE]
        assert len(laid_or_passed) == game.round * 3  # every player acts once per round
        for p in range(3):
            assert sum(t.kind == RESHUFFLE and t.player == p for t in game.turns) <= RULES.reshuffles_per_player
            assert game.scores[p] == sum(t.score for t in game.turns if t.player == p)
        for t in game.turns:
            if t.kind == WORD:
                assert t.score >= len(t.word)


def test_same_seed_same_game(lexicon):
    a = GridGame(RULES, computers(lexicon, "trudny", "latwy"), seed=3, game_id=2).play()
    b = GridGame(RULES, computers(lexicon, "trudny", "latwy"), seed=3, game_id=2).play()
    assert [(t.word, t.path) for t in a.turns] == [(t.word, t.path) for t in b.turns]


def test_early_end_when_everyone_passes_two_rounds(tmp_path, lexicon):
    empty_folder = tmp_path
    (empty_folder / "w.txt").write_text("qq\n", encoding="utf-8")  # no playable word at all
    built = build_lexicon(empty_folder / "w.txt", empty_folder / "n.lexicon", load_variant(), allow_empty=True)
    nothing = Lexicon.open(built.output)
    players = [GridComputer(f"p{i}", load_levels()["trudny"], nothing.words, RULES) for i in range(2)]
    game = GridGame(RULES, players, seed=1).play()
    assert game.ended_by == "passes" and game.round == 2
    assert [t.kind for t in game.turns if t.kind != RESHUFFLE] == [PASS] * 4
    # Each reshuffled once per turn while it could: at most 3 each.
    assert sum(t.kind == RESHUFFLE for t in game.turns) <= 2 * RULES.reshuffles_per_player


def test_reshuffle_limit_is_enforced(lexicon):
    game = GridGame(RULES, computers(lexicon, "trudny", "latwy"), seed=1)
    for _ in range(RULES.reshuffles_per_player):
        game.reshuffle(0)
    with pytest.raises(LiterakiError, match="no reshuffle left"):
        game.reshuffle(0)


def test_simulate_grid5(lexicon, tmp_path, capsys):
    out = tmp_path / "g"
    code = main(["simulate", "--game", "grid5", "--games", "4", "--players", "trudny,latwy", "--workers", "1",
                 "--out", str(out), "--lexicon", str(lexicon.path)])  # fmt: skip
    assert code == 0 and (out / "report.md").is_file() and (out / "games.parquet").is_file()
    assert main(["simulate", "--game", "grid5", "--gcg", "--lexicon", str(lexicon.path)]) == 2
    assert main(["simulate", "--game", "chess", "--lexicon", str(lexicon.path)]) == 2
