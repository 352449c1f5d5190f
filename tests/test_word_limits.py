"""Rules files that change the word-length limits: solve, simulate and play stay legal.

The generator enforces ``[words] min_length`` / ``max_length`` itself (issue 11); these tests
drive the commands and the games end to end with such rules and judge the outcome by the
word lengths alone (no engine code), and by ``score`` for the moves ``solve`` lists."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from literaki_cli.analysis.simulate import RunConfig, run_simulation
from literaki_cli.cli import main
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
BASE_RULES = (ROOT / "literaki_cli" / "variants" / "literaki.toml").read_text(encoding="utf-8")
LIMITS = [(2, 4), (3, 15)]
LEVELS = """
[mistrz]
vocabulary = "all"
quantile = [0, 0]
exchange_below = 3

[slaby]
vocabulary = "all"
quantile = [1.2, 2.5]
exchange_below = 0
"""


def rules_file(folder: Path, low: int, high: int) -> Path:
    text = re.sub(r"(?m)^min_length = \d+", f"min_length = {low}", BASE_RULES)
    text = re.sub(r"(?m)^max_length = \d+", f"max_length = {high}", text)
    assert f"min_length = {low}" in text and f"max_length = {high}" in text
    path = folder / f"limits-{low}-{high}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def long_lexicon(tmp_path_factory) -> Path:
    """Every 2-letter string of common letters, and seeded random 3..9-letter strings of them:
    games flow, and words longer than 4 letters are there to be (wrongly) played."""
    from lexicon_build.build import build_lexicon

    common = "aeiouyznrstwkcdlpm"
    rng = random.Random(11)
    words = {a + b for a in common for b in common}
    words |= {"".join(rng.choice(common) for _ in range(rng.randint(3, 9))) for _ in range(60_000)}
    folder = tmp_path_factory.mktemp("long")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return build_lexicon(folder / "w.txt", folder / "long.lexicon", load_variant()).output


def played_words(turns) -> list[str]:
    return [w for words in turns["words"].to_list() for w in (words or "").split()]


@pytest.mark.parametrize("low, high", LIMITS)
def test_simulate_keeps_to_the_limits(long_lexicon, tmp_path, low, high):
    levels = tmp_path / "levels.toml"
    levels.write_text(LEVELS, encoding="utf-8")
    rules = rules_file(tmp_path, low, high)
    config = RunConfig(players=["mistrz", "slaby"], games=4, seed=5, rules=str(rules), levels=str(levels),
                       lexicon=str(long_lexicon))  # fmt: skip
    result = run_simulation(config, 1, tmp_path / "run")
    import polars as pl

    turns = pl.read_parquet(tmp_path / "run" / "turns.parquet")
    words = played_words(turns)
    assert len(result.outputs) == 4 and len(words) > 20
    lengths = {len(w) for w in words}
    assert min(lengths) >= low and max(lengths) <= high
    # Without the limit the same games would play longer words: the limit is what stops them.
    if high == 4:
        config.rules = None
        free = run_simulation(config, 1, tmp_path / "free")
        assert (
            free.outputs and max(len(w) for w in played_words(pl.read_parquet(tmp_path / "free" / "turns.parquet"))) > 4
        )


@pytest.mark.parametrize("low, high", LIMITS)
@pytest.mark.slow
def test_solve_lists_only_moves_score_accepts(long_lexicon, tmp_path, capsys, low, high):
    rules = rules_file(tmp_path, low, high)
    position = "/".join(["15"] * 7 + ["5KOTEK5"] + ["15"] * 7) + " AEIOZN?/ 0/0 0"
    common = ["--rules", str(rules), "--lexicon", str(long_lexicon), "--json"]
    code = main(["solve", position, "--all", *common])
    out = capsys.readouterr().out
    assert code == 0, out
    moves = json.loads(out)["moves"]
    assert moves, "the position must have moves under these rules"
    for move in moves[:60]:
        assert all(low <= len(w["word"]) <= high for w in move["words"]), move
        code = main(["score", position, move["coord"], move["word"], *common])
        scored = json.loads(capsys.readouterr().out)
        assert code == 0 and scored["valid"] and scored["total"] == move["score"], (move, scored["problems"])


@pytest.mark.parametrize("low, high", LIMITS)
def test_play_hints_and_computer_keep_to_the_limits(long_lexicon, tmp_path, low, high):
    from literaki_cli.engine.movegen import LENGTH, record_tiles
    from literaki_cli.games.play import PlaySession

    variant = load_variant(rules_file=rules_file(tmp_path, low, high))
    session = PlaySession(variant, Lexicon.open(long_lexicon), "trudny", "en", read_line=lambda _: "", seed=3)
    session.new_game(first=1)  # the computer opens
    game = session.game
    while not game.over and len(game.turns) < 12:
        if game.current == 0:
            moves = session.hint_generator.generate(game.board, game.racks[0])
            if len(moves) == 0:
                game.pass_turn()
                continue
            lengths = moves.records[:, LENGTH]
            assert lengths.min() >= low and lengths.max() <= high  # every hint, not only the best
            best = moves.records[moves.ranked()[0]]
            tiles, direction = record_tiles(best)
            game.place(tiles, direction)  # the game judges it again: words, lengths, rack
        else:
            game.step()
    words = [w for t in game.turns for w in t.words]
    assert words and all(low <= len(w) <= high for w in words)
