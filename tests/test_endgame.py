"""``solve --endgame``: the hard cases the issue names, checked against the brute force of
tests/test_endgame_bruteforce.py (a setup that beats the highest score now; both players stuck,
the game ending by passes), the command line (JSON, limits, refusals, Ctrl-C) and ``mistrz``
solving endgames in a game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.engine.movegen import SCORE, MoveGenerator, record_tiles
from literaki_cli.games.game import EXCHANGE, PASS, Game
from literaki_cli.games.players import load_levels, make_players
from tests.conftest import ROOT, TEST_LEVELS, run_cli
from tests.test_endgame_bruteforce import VARIANTS, lexicon, make_position, tiles_key  # noqa: F401 (a fixture)
from tests.test_game import V

EXAMPLE = ROOT / "examples" / "endgame.cgp"
#: A 7-against-7 endgame from self-play (the bag just emptied): far more than a few seconds.
LONG_ENDGAME = (
    "1ZET3ŻONA1F2/C1WYKPIEŃ1K1I2/H2CAR3NIDZKĄ/Ł1TIRzE3ARO2/ON1MAY5W3/PASIŁBY3SI3/UDY2Ó4Z4/1AT2JAŹ2E4/"
    "1Ć4G3W4/10C1s1M/7NADESZLI/10M1P1N/12I1U/12L1J/12E1Ę HOOWAOL/ZBGŚRES 350/340 0 var literaki;"
)


def brute_force_position(lexicon, seed: int):  # noqa: F811 (the fixture's value)
    name = "custom-7x9"
    position = make_position(name, seed, MoveGenerator(lexicon[0], VARIANTS[name][0]), lexicon[1])
    assert position is not None
    return position, EndgameSolver(lexicon[0], VARIANTS[name][0]).solve(position.board, position.racks,
                                                                        position.passes)  # fmt: skip


@pytest.mark.parametrize("seed", [5071, 5094])
def test_setting_up_an_out_play_beats_the_highest_score_now(lexicon, seed):  # noqa: F811
    """The best move scores less than the top score now, and is worth more: it sets up going out
    on the next turn.  Every value comes from the brute force too."""
    position, result = brute_force_position(lexicon, seed)
    records = MoveGenerator(lexicon[0], VARIANTS["custom-7x9"][0]).generate(position.board, position.racks[0]).records
    top = records[:, SCORE].max()
    top_moves = [tiles_key(record_tiles(r)[0]) for r in records if r[SCORE] == top]
    assert result.exact and result.value == position.value
    assert result.best.score < top and tiles_key(result.best.tiles) not in top_moves
    assert all(position.root_values[key] < result.value for key in top_moves)
    players = [m.player for m in result.pv]
    assert players == [1, 2, 1] and result.ended_by == "out" and result.end_points[0] > 0  # out on the next turn


@pytest.mark.parametrize("seed", [5126, 5002])
def test_both_players_stuck_the_game_ends_by_passes(lexicon, seed):  # noqa: F811
    """Both players keep tiles they cannot lay: the line ends with four passes in a row and each
    player loses their own leftovers (the brute force agrees on the value)."""
    position, result = brute_force_position(lexicon, seed)
    assert result.exact and result.value == position.value
    assert result.ended_by == "passes" and any(not m.is_pass for m in result.pv)
    assert [m.is_pass for m in result.pv[-4:]] == [True] * 4
    assert result.end_points[0] < 0 and result.end_points[1] < 0
    spread = sum(m.score if m.player == 1 else -m.score for m in result.pv)
    assert spread + result.end_points[0] - result.end_points[1] == result.value


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    "args, message",
    [
        (["examples/game.cgp", "--endgame"], "--endgame needs an empty bag, and 82 tiles are still in it"),
        (["examples/endgame.cgp", "--depth", "3"], "--depth: only with --endgame"),
        (["examples/endgame.cgp", "--time", "2"], "--time: only with --endgame"),
        (["examples/endgame.cgp", "--endgame", "--sim"], "--sim and --endgame: choose one"),
        (["examples/endgame.cgp", "--endgame", "--all", "--by", "score"], "--endgame does not take --all, --by score"),
        (["examples/endgame.cgp", "--endgame", "--depth", "0"], "--depth"),
        (["examples/endgame.cgp", "--endgame", "--time", "0"], "--time"),
        (["examples/endgame.cgp", "--threads", "2"], "--threads: only with --endgame"),
        (["examples/endgame.cgp", "--endgame", "--threads", "0"], "--threads"),
    ],
)
def test_refusals_exit_2_with_one_line(capsys, monkeypatch, args, message):
    monkeypatch.chdir(ROOT)
    code, out, err = run_cli(capsys, "solve", *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_game_that_is_over_is_refused(capsys, tmp_path):
    over = EXAMPLE.read_text(encoding="utf-8").replace(" 0 var", " 4 var")
    (tmp_path / "over.cgp").write_text(over, encoding="utf-8")
    code, _, err = run_cli(capsys, "solve", str(tmp_path / "over.cgp"), "--endgame")
    assert code == 2 and "the game is over: 4 zero-scoring turns in a row" in err


@pytest.mark.sjp
def test_endgame_json_and_table_on_the_example(capsys, sjp_build):
    option = ["--lexicon", str(sjp_build.output)]
    code, out, err = run_cli(capsys, "solve", str(EXAMPLE), "--endgame", "--json", *option)
    assert code == 0, err
    endgame = json.loads(out)["endgame"]
    assert set(endgame) >= {"exact", "value", "best", "pv", "moves", "nodes", "seconds"}
    assert endgame["exact"] is True and endgame["value"] == 6
    assert endgame["best"] == {"coord": "N5", "word": "EZY", "score": 4}
    assert [m["player"] for m in endgame["pv"]] == [1, 2, 1] and endgame["ended_by"] == "out"
    assert all(set(m) == {"player", "coord", "word", "score"} for m in endgame["pv"])
    values = [m["value"] for m in endgame["moves"]]
    assert len(values) == 5 and values == sorted(values, reverse=True) and values[0] == 6
    spread = sum(m["score"] if m["player"] == 1 else -m["score"] for m in endgame["pv"])
    assert spread + endgame["end_points"][0] - endgame["end_points"][1] == endgame["value"]
    code, out, _ = run_cli(capsys, "solve", str(EXAMPLE), "--endgame", "--depth", "1", "--json", *option)
    shallow = json.loads(out)["endgame"]
    assert code == 0 and shallow["exact"] is False and len(shallow["pv"]) == 1
    code, out, _ = run_cli(capsys, "solve", str(EXAMPLE), "--endgame", "--top", "2", *option)
    assert code == 0 and "exact" in out and "principal variation" in out
    assert "spread change for the player to move: +6" in out


def test_a_pass_in_the_line_is_shown_as_a_pass(lexicon):  # noqa: F811
    """In JSON a pass of the principal variation is coord null, word "-", score 0."""
    _, result = brute_force_position(lexicon, 5126)
    pv = result.as_dict()["endgame"]["pv"]
    passes = [m for m in pv if m["word"] == "-"]
    assert len(passes) == 4 and all(m["coord"] is None and m["score"] == 0 for m in passes)


@pytest.mark.sjp
@pytest.mark.slow
def test_ctrl_c_prints_the_best_so_far_and_exits_130(capsys, sjp_build, tmp_path):
    """A real SIGINT during a long search (some 8 s on one thread; the signal comes after 1.5 s):
    the answer of the last complete iteration, marked not exact, then exit 130."""
    position = tmp_path / "long.cgp"
    position.write_text(LONG_ENDGAME, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    process = subprocess.Popen([sys.executable, "-m", "literaki_cli", "solve", str(position), "--endgame", "--json",
                                "--threads", "1", "--lexicon", str(sjp_build.output)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    endgame = json.loads(out)["endgame"]
    assert endgame["exact"] is False and endgame["best"]["coord"] and "interrupted" in err


# --------------------------------------------------------------------------- mistrz


def test_a_level_with_an_endgame_budget_plays_the_searchs_best_once_the_bag_is_empty(flowing_lexicon, tmp_path,
                                                                                     monkeypatch):  # fmt: skip
    """With ``endgame_nodes`` a level asks the endgame search for every move once the bag is
    empty (and only then), and plays the move the search found."""
    levels = tmp_path / "levels.toml"
    levels.write_text(TEST_LEVELS.replace('leaves = "none"\n', 'leaves = "none"\nendgame_nodes = 3000\n', 1),
                      encoding="utf-8")  # fmt: skip
    assert load_levels(levels)["mistrz"].endgame_nodes == 3000
    asked = []
    solve = EndgameSolver.solve

    def recorded(self, board, racks, *args, **kwargs):
        result = solve(self, board, racks, *args, **kwargs)
        asked.append((racks[0], result.best.is_pass))
        return result

    monkeypatch.setattr(EndgameSolver, "solve", recorded)
    seats = make_players(["slaby", "mistrz"], flowing_lexicon, V, load_levels(levels))
    game = Game(V, seats, flowing_lexicon.words, seed=3, game_id=1).play()  # a game that empties the bag
    endgame_turns = [t for t in game.turns if t.player == 1 and t.tiles_remaining == 0 and t.kind != EXCHANGE]
    endgame_turns = [t for t in endgame_turns if not _bag_had_tiles_before(game, t)]
    assert asked and len(asked) == len(endgame_turns)
    for (rack, is_pass), turn in zip(asked, endgame_turns, strict=True):
        assert turn.rack == rack and (turn.kind == PASS) == is_pass


def _bag_had_tiles_before(game, turn) -> bool:
    """Whether the bag held tiles when ``turn`` began (the turn that empties it draws the last)."""
    earlier = [t for t in game.turns if t.turn < turn.turn]
    return not earlier or earlier[-1].tiles_remaining > 0


def test_a_levels_file_with_a_bad_endgame_key_is_refused(tmp_path):
    from literaki_cli.errors import InputError

    levels = tmp_path / "levels.toml"
    levels.write_text(TEST_LEVELS + "endgame_seconds = -1\n", encoding="utf-8")
    with pytest.raises(InputError, match="endgame_seconds"):
        load_levels(levels)


def test_a_node_budget_from_an_empty_table_gives_the_same_answer_whatever_came_before(lexicon):  # noqa: F811
    """What ``mistrz`` relies on for repeatable games: after ``forget`` a budgeted solve does
    not depend on the solves before it."""
    first, _ = brute_force_position(lexicon, 5071)
    other, _ = brute_force_position(lexicon, 5126)
    solver = EndgameSolver(lexicon[0], VARIANTS["custom-7x9"][0])

    def budgeted(position):
        solver.forget()
        result = solver.solve(position.board, position.racks, position.passes, nodes=40, line=False)
        return result.best.coord, result.best.word, result.value, result.nodes, result.exact

    alone = budgeted(first)
    solver.solve(other.board, other.racks, other.passes)  # fills the table
    assert budgeted(first) == alone
