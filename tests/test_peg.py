"""``solve --peg``, ``analyze --peg-time`` and the level ``arcymistrz`` (issue 30): the command
line (JSON, table, refusals, Ctrl-C), the review of a turn with 1 tile in the bag, and a game of
arcymistrz repeating exactly whatever the number of workers.  The search's values themselves are
checked against a brute force in tests/test_peg_bruteforce.py."""

from __future__ import annotations

import json

import polars as pl
import pytest

from literaki_cli.analysis.lookahead import Lookahead, level_lookahead
from literaki_cli.analysis.simulate import RunConfig, run_simulation
from literaki_cli.endgame import peg as peg_module
from literaki_cli.games.game import Game
from literaki_cli.games.players import load_levels, make_players
from literaki_cli.games.record import game_to_gcg
from literaki_cli.io.gcg import parse_gcg
from tests.conftest import ROOT, TEST_LEVELS, run_cli
from tests.test_game import V

PEG = ROOT / "examples" / "peg.cgp"
#: arcymistrz with small budgets, so that a test game takes seconds (the same code paths).
SMALL_ARCYMISTRZ = """
[arcymistrz]
vocabulary = "all"
quantile = [0, 0]
exchange_below = 3
keep = "aeio"
keep_max = 2
leaves = "default"
sim_iterations = 6
sim_candidates = 3
sim_plies = 1
peg_nodes = 300
peg_candidates = 3
peg_replies = 2
peg_splits = 4
endgame_nodes = 2000
""" + TEST_LEVELS.replace('leaves = "none"\n', 'leaves = "none"\nendgame_nodes = 2000\n', 1)  # mistrz: the endgame too


@pytest.fixture(scope="module")
def open_lexicon(tmp_path_factory):
    """Every string of 2 and 3 letters and the 4-letter strings of common letters: a board
    seldom closes, so that games reach the last tiles of the bag (built in seconds)."""
    import itertools

    from lexicon_build.build import build_lexicon
    from literaki_cli.engine import alphabet
    from literaki_cli.engine.lexicon import Lexicon

    words = {"".join(p) for n in (2, 3) for p in itertools.product(alphabet.POLISH_LETTERS, repeat=n)}
    words |= {"".join(p) for p in itertools.product("aeiouyznrstwkc", repeat=4)}
    folder = tmp_path_factory.mktemp("open")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "o.lexicon", V).output)


@pytest.fixture(scope="module")
def small_levels(tmp_path_factory):
    levels = tmp_path_factory.mktemp("levels") / "levels.toml"
    levels.write_text(SMALL_ARCYMISTRZ, encoding="utf-8")
    return levels


def solve(capsys, lexicon, *args):
    return run_cli(capsys, "solve", *map(str, args), "--lexicon", str(lexicon.path))


# --------------------------------------------------------------------------- solve --peg


@pytest.mark.parametrize(
    "args, message",
    [
        (["examples/game.cgp", "--peg"], "--peg needs 1 or 2 tiles in the bag, and 82 are in it: use --sim"),
        (["examples/endgame.cgp", "--peg"], "--peg needs 1 or 2 tiles in the bag, and the bag is empty: use --endgame"),
        (["examples/peg.cgp", "--peg", "--sim"], "--peg does not take --sim"),
        (["examples/peg.cgp", "--peg", "--endgame"], "--peg does not take --endgame"),
        (["examples/peg.cgp", "--peg", "--depth", "2"], "--peg does not take --depth"),
        (["examples/peg.cgp", "--peg", "--iterations", "50"], "--peg does not take --iterations"),
        (["examples/peg.cgp", "--peg", "--all"], "--peg does not take --all"),
        (["examples/peg.cgp", "--splits", "3"], "--splits: only with --peg"),
        (["examples/peg.cgp", "--peg", "--splits", "0"], "--splits"),
        (["examples/peg.cgp", "--peg", "--time", "0"], "--time"),
        (["examples/peg.cgp", "--peg", "--rack", "QQ"], "rack"),
    ],
)
def test_refusals_exit_2_with_one_line(capsys, monkeypatch, small_lexicon, args, message):
    monkeypatch.chdir(ROOT)
    code, out, err = run_cli(capsys, "solve", *args, "--lexicon", str(small_lexicon))
    assert code == 2 and message in err and "Traceback" not in err and out == ""
    assert len([line for line in err.splitlines() if line.strip()]) <= 3  # one line (Typer's usage errors: three)


def test_a_game_of_three_and_a_game_that_is_over_are_refused(capsys, tmp_path, small_lexicon):
    text = PEG.read_text(encoding="utf-8")
    (tmp_path / "three.cgp").write_text(text.replace("293/242", "293/242/100"), encoding="utf-8")
    code, _, err = run_cli(capsys, "solve", str(tmp_path / "three.cgp"), "--peg", "--lexicon", str(small_lexicon))
    assert code == 2 and "--peg solves two-player games" in err
    (tmp_path / "over.cgp").write_text(text.replace(" 0 var", " 4 var"), encoding="utf-8")
    code, _, err = run_cli(capsys, "solve", str(tmp_path / "over.cgp"), "--peg", "--lexicon", str(small_lexicon))
    assert code == 2 and "the game is over: 4 zero-scoring turns in a row" in err


@pytest.mark.slow
def test_peg_json_and_table(capsys, flowing_lexicon):
    code, out, err = solve(capsys, flowing_lexicon, PEG, "--peg", "--json", "--candidates", "4")
    assert code == 0, err
    answer = json.loads(out)
    peg = answer["peg"]
    assert peg["bag"] == 1 and peg["sampled"] is False and peg["splits"] == peg["all_splits"] == 7  # AAE S D M F ?
    assert peg["considered"] == peg["judged"] == 5 and not peg["interrupted"]  # 4 candidates and the pass
    candidates = peg["candidates"]
    assert sum(c["word"] == "-" for c in candidates) == 1
    ranks = [(c["win_pct"], c["value"]) for c in candidates]
    assert ranks == sorted(ranks, reverse=True)
    for c in candidates:
        assert 0 <= c["win_pct"] <= 100 and 0 <= c["exact_splits"] <= c["splits"] == 7
        assert c["spread"] == pytest.approx(51 + c["value"], abs=0.002)  # 293 - 242
    assert answer["bag"] == 1 and len(answer["unseen"]) >= 1
    code, out, err = solve(capsys, flowing_lexicon, PEG, "--peg", "--candidates", "2")
    assert code == 0, err
    assert "pre-endgame: rack PMŚGENŹ to move, 1 in the bag, spread +51; 3 candidates over all 7 splits" in out
    assert "win %" in out and "pass" in out


@pytest.mark.slow
def test_the_same_answer_on_every_run_without_a_time(capsys, flowing_lexicon):
    """Without --time the endgames have a node budget: the answer is the same every time."""
    answers = [json.loads(solve(capsys, flowing_lexicon, PEG, "--peg", "--json", "--candidates", "3")[1])["peg"]
               for _ in range(2)]  # fmt: skip
    for answer in answers:
        answer.pop("seconds")
    assert answers[0] == answers[1]


@pytest.mark.slow
def test_two_tiles_in_the_bag_sample_the_splits(capsys, flowing_lexicon, tmp_path):
    """With 2 tiles in the bag (a rack of 6 given), --splits N samples N splits, said so."""
    text = PEG.read_text(encoding="utf-8").replace("PMŚGENŹ ", "PMŚGEN ")
    (tmp_path / "two.cgp").write_text(text, encoding="utf-8")
    code, out, err = solve(capsys, flowing_lexicon, tmp_path / "two.cgp", "--peg", "--json", "--candidates", "2",
                           "--splits", "5")  # fmt: skip
    assert code == 0, err
    peg = json.loads(out)["peg"]
    assert peg["bag"] == 2 and peg["sampled"] is True and peg["splits"] <= 5 < peg["all_splits"]
    code, out, err = solve(capsys, flowing_lexicon, tmp_path / "two.cgp", "--peg", "--candidates", "2", "--splits",
                           "5")  # fmt: skip
    assert code == 0 and "splits, sampled" in out


def test_ctrl_c_keeps_the_candidates_judged(capsys, flowing_lexicon, monkeypatch):
    """Ctrl-C while the third candidate is judged: the first two are printed, exit 130."""
    judge = peg_module.PreEndgameSolver._judge
    calls = []

    def judge_then_stop(self, *args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return judge(self, *args)

    monkeypatch.setattr(peg_module.PreEndgameSolver, "_judge", judge_then_stop)
    code, out, err = solve(capsys, flowing_lexicon, PEG, "--peg", "--json", "--candidates", "4")
    assert code == 130 and "interrupted: the 2 of 5 candidates judged before it" in err
    peg = json.loads(out)["peg"]
    assert peg["interrupted"] is True and peg["judged"] == 2


# --------------------------------------------------------------------------- analyze --peg-time


def game_with_one_tile_in_the_bag(lexicon, levels):
    """A self-play game (mistrz against itself) with a turn played with 1 tile in the bag."""
    players = make_players(["mistrz", "mistrz"], lexicon, V, levels)
    for game_id in range(40):
        game = Game(V, players, lexicon.words, seed=11, game_id=game_id)
        seen = False
        while not game.over:
            seen |= len(game.bag) == 1
            game.step()
        if seen:
            return game
    pytest.fail("no game of 40 had a turn with 1 tile in the bag")


@pytest.fixture(scope="module")
def peg_game(open_lexicon, small_levels, tmp_path_factory):
    game = game_with_one_tile_in_the_bag(open_lexicon, load_levels(small_levels))
    path = tmp_path_factory.mktemp("peg-game") / "game.gcg"
    path.write_text(game_to_gcg(game), encoding="utf-8")
    return path


@pytest.mark.slow
def test_analyze_values_the_pre_endgame_turns_by_the_search(capsys, open_lexicon, peg_game):
    code, out, err = run_cli(capsys, "analyze", str(peg_game), "--peg-time", "2", "--endgame-time", "0", "--json",
                             "--lexicon", str(open_lexicon.path))  # fmt: skip
    assert code == 0, err
    turns = json.loads(out)["turns"]
    searched = [t for t in turns if t["method"] == "peg"]
    assert searched and all(t["bag"] in (1, 2) for t in searched)
    assert all(t["method"] != "peg" for t in turns if t["bag"] not in (1, 2))
    for t in searched:
        assert 0 <= t["win_played"] <= t["win_best"] + 1e-9 <= 1 + 1e-9 or t["played"]["equity"] > t["best"]["equity"]
        assert t["equity_loss"] == pytest.approx(max(0.0, t["best"]["equity"] - t["played"]["equity"]), abs=0.002)
        assert t["played"]["leave_value"] is None and "pre-endgame" in t["note"]
    code, out, _ = run_cli(capsys, "analyze", str(peg_game), "--peg-time", "2", "--endgame-time", "0", "--lexicon",
                           str(open_lexicon.path))  # fmt: skip
    assert code == 0 and "by peg: the pre-endgame search" in out
    code, out, _ = run_cli(capsys, "analyze", str(peg_game), "--endgame-time", "0", "--json", "--lexicon",
                           str(open_lexicon.path))  # fmt: skip
    assert all(t["method"] != "peg" for t in json.loads(out)["turns"])  # off unless asked


@pytest.mark.slow
def test_the_pre_endgame_turn_of_a_review_is_solve_pegs_answer(capsys, open_lexicon, peg_game):
    """The review's pre-endgame turn is the search of the position ``show GAME --turn N`` gives
    (spread, passes, unseen tiles), with the move played judged first: the same best move, win
    chances and values, with a node budget (the same answer on every machine)."""
    from literaki_cli.analysis.positionquery import peg_start
    from literaki_cli.endgame.peg import PegSettings, PreEndgameSolver, move_key, pass_record
    from literaki_cli.endgame.solver import EndgameSolver
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.io.gcg import read_gcg
    from literaki_cli.io.positionio import read_position
    from literaki_cli.review.endgame_review import played_record
    from literaki_cli.review.game_review import PEG, analyze_game
    from literaki_cli.review.peg_review import REVIEW_SPLITS, PegReviewer

    equity = Equity(open_leaves(None), V)
    solver = PreEndgameSolver(EndgameSolver(open_lexicon, V))
    reviewer = PegReviewer(open_lexicon, V, None, equity, solver=solver, nodes=400)
    positions = []

    def remembered(position, review):
        searched = reviewer(position, review)
        if searched:
            positions.append(position)
        return searched

    review = analyze_game(read_gcg(peg_game), open_lexicon, equity, pre_endgame=remembered)
    turns = [t for t in review.turns if t.method == PEG]
    assert turns and len(turns) == len(positions)
    for turn, seen in zip(turns, positions, strict=True):
        code, out, err = run_cli(capsys, "show", str(peg_game), "--turn", str(turn.turn), "--to", "cgp")
        assert code == 0, err
        position = read_position(out.strip(), "turn.cgp")
        position.racks = position.racks[:1]  # what the mover saw: the opponent's rack unknown
        start = peg_start(position, position.rack)
        assert start.spread == seen.scores[0] - seen.scores[1] and start.bag == turn.bag
        record, _ = played_record(solver.generator, seen, turn.played)
        solver.endgame.forget()
        result = solver.solve(start, PegSettings(nodes=400, splits=REVIEW_SPLITS, seed=turn.turn), equity,
                              also=pass_record() if record is None else record)  # fmt: skip
        best = result.best
        assert turn.win_best == best.win and turn.best.equity == best.value
        assert turn.best.coord == best.move.coord and turn.best.word == best.move.word
        played = next(c for c in result.candidates
                      if move_key(c.move.record) == move_key(pass_record() if record is None else record))  # fmt: skip
        assert turn.win_played == played.win and turn.played.equity == played.value


@pytest.mark.parametrize("value", ["-1", "abc", "nan", "4000"])
def test_a_bad_peg_time_exits_2(capsys, open_lexicon, peg_game, value):
    code, out, err = run_cli(capsys, "analyze", str(peg_game), "--peg-time", value, "--lexicon",
                             str(open_lexicon.path))  # fmt: skip
    assert code == 2 and f"--peg-time {value!r}: seconds from 0 to 3600" in err and out == ""


@pytest.mark.slow
def test_many_games_take_peg_time_too(capsys, open_lexicon, peg_game, tmp_path):
    second = tmp_path / "again.gcg"
    second.write_bytes(peg_game.read_bytes())
    code, out, err = run_cli(capsys, "analyze", str(peg_game), str(second), "--peg-time", "1", "--endgame-time", "0",
                             "--json", "--lexicon", str(open_lexicon.path))  # fmt: skip
    assert code == 0, err
    for game in json.loads(out)["games"]:
        assert any(t["method"] == "peg" for t in game["review"]["turns"])


# --------------------------------------------------------------------------- arcymistrz


def test_arcymistrz_simulates_solves_pre_endgames_and_endgames(open_lexicon, small_levels, monkeypatch):
    used = {"sim": 0, "peg": 0}
    for name, method in (("sim", "simulated_move"), ("peg", "pre_endgame_move")):
        original = getattr(Lookahead, method)

        def counted(self, game, *args, _original=original, _name=name):
            assert game.players[game.current].level.name == "arcymistrz"
            used[_name] += 1
            return _original(self, game, *args)

        monkeypatch.setattr(Lookahead, method, counted)
    players = make_players(["arcymistrz", "mistrz"], open_lexicon, V, load_levels(small_levels),
                           lookahead_factory=level_lookahead)  # fmt: skip
    assert players[0].lookahead is not None and players[1].lookahead is None
    for game_id in range(6):
        game = Game(V, players, open_lexicon.words, seed=4, game_id=game_id)
        game.play()
    assert used["sim"] > 0 and used["peg"] > 0


@pytest.mark.slow
def test_a_game_of_arcymistrz_repeats_whatever_the_workers(open_lexicon, small_levels, tmp_path):
    config = RunConfig(players=["arcymistrz", "mistrz"], games=6, seed=4, lexicon=str(open_lexicon.path),
                       levels=str(small_levels), gcg=True)  # fmt: skip
    run_simulation(config, 1, tmp_path / "one")
    run_simulation(config, 2, tmp_path / "two")
    for name in ("turns", "games", "players"):
        assert pl.read_parquet(tmp_path / "one" / f"{name}.parquet").equals(
            pl.read_parquet(tmp_path / "two" / f"{name}.parquet")), name  # fmt: skip
    for path in sorted((tmp_path / "one" / "gcg").glob("*.gcg")):
        assert path.read_bytes() == (tmp_path / "two" / "gcg" / path.name).read_bytes()
        parse_gcg(path.read_text(encoding="utf-8"), path.name)


def test_the_shipped_arcymistrz_looks_ahead_with_fixed_budgets():
    level = load_levels()["arcymistrz"]
    assert level.vocabulary == "all" and level.simulates and level.solves_pre_endgames and level.solves_endgames
    assert level.sim_iterations > 0 and level.peg_nodes > 0 and level.endgame_nodes > 0
    assert level.endgame_seconds == 0  # a count, never a time: the same game on every machine


def test_play_offers_arcymistrz_with_everything_it_looks_ahead_with(open_lexicon):
    from literaki_cli.games.play import PlaySession

    session = PlaySession(V, open_lexicon, "Arcymistrz", "en", read_line=lambda _: "", seed=3,
                          lookahead_factory=level_lookahead)  # fmt: skip
    computer = session.computer
    assert computer.level.name == "arcymistrz" and computer.name == "Arcymistrz"
    assert computer.lookahead is not None and computer.lookahead.pre_endgame is not None
    assert computer.endgame is not None  # one computer of two at the table: the endgame search too
    mistrz = PlaySession(V, open_lexicon, "mistrz", "en", read_line=lambda _: "", seed=3).computer
    assert mistrz.endgame is not None and mistrz.lookahead is None
