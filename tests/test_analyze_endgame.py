"""``analyze``: the turns played with the bag empty valued by the exact endgame search
(literaki_cli.review.endgame_review): marked "endgame", the best value never below the played
one, no loss for the endgame's own best, the end rules checked by hand on a move that goes out,
--endgame-time 0 and bad values, Ctrl-C, passes in a row, withdrawn and unlisted moves.

The game is examples/simulated-game.gcg (its last five turns are played with the bag empty).
Its 7- and 3-tile endgames take the search seconds to minutes, so most tests drop the racks of
those turns (they are then replayed, not analysed) and solve the last two turns only."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.engine.movegen import SCORE, TILES, MoveGenerator, record_tiles
from literaki_cli.engine.variant import DOWN
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.io.gcg import parse_gcg
from literaki_cli.review.endgame_review import DEFAULT_ENDGAME_SECONDS, EndgameReviewer, placement_record
from literaki_cli.review.game_review import ENDGAME, STATIC, analyze_game
from tests.conftest import ROOT, run_cli
from tests.test_analyze import V

GAME = ROOT / "examples" / "simulated-game.gcg"
#: Plenty for the endgames the tests solve (a fraction of a second each); never reached.
SECONDS = 120.0


def game_text(without_racks=(26, 27, 28), drop_after: int | None = None, replace: dict | None = None) -> str:
    """The example game, the racks of turns ``without_racks`` (1-based) left out, lines replaced
    (turn number -> line) and the turns after ``drop_after`` (and the end) dropped."""
    text = GAME.read_text(encoding="utf-8")
    game = parse_gcg(text, "game.gcg")
    lines = text.splitlines()
    turn_lines = [event.line for event in game.turns if event.is_turn]
    for number in without_racks:
        at = turn_lines[number - 1] - 1
        lines[at] = re.sub(r"^(>\S+: )\S+ ", r"\1", lines[at])
    for number, line in (replace or {}).items():
        lines[turn_lines[number - 1] - 1] = line
    if drop_after is not None:
        lines = lines[: turn_lines[drop_after - 1]]
    return "\n".join(lines) + "\n"


def line_of(number: int) -> str:
    text = GAME.read_text(encoding="utf-8")
    game = parse_gcg(text, "game.gcg")
    return text.splitlines()[[e.line for e in game.turns if e.is_turn][number - 1] - 1]


@pytest.fixture(scope="module")
def equity():
    return Equity(open_leaves(None), V)


def review(text, lexicon, equity, seconds=SECONDS, solver=None, **options):
    hook = EndgameReviewer(lexicon, V, seconds, solver=solver)
    return analyze_game(parse_gcg(text, "game.gcg"), lexicon, equity, endgame=hook, **options), hook


def check_endgame_turns(turns) -> list:
    """Every analysable turn with the bag empty is solved exactly; the others are static."""
    solved = []
    for turn in turns:
        if not turn.analysable:
            assert turn.method is None and turn.exact is None
        elif turn.bag == 0:
            assert turn.method == ENDGAME and turn.exact, (turn.turn, turn.notes)
            assert turn.best.equity >= turn.played.equity
            assert turn.equity_loss == pytest.approx(turn.best.equity - turn.played.equity)
            assert turn.played.leave_value is None and turn.endgame_nodes > 0 and turn.endgame_seconds >= 0
            solved.append(turn)
        else:
            assert turn.method == STATIC and turn.exact is False and turn.endgame_nodes is None
    return solved


@pytest.mark.slow
def test_bag_empty_turns_are_solved_and_the_end_rules_hold(flowing_lexicon, equity):
    result, hook = review(game_text(), flowing_lexicon, equity)
    solved = check_endgame_turns(result.turns)
    assert [t.turn for t in solved] == [29, 30] and not hook.interrupted
    last = solved[-1]  # one tile left: any placement goes out, the end rules give the value exactly
    left_over = V.rack_value("nr")
    assert last.rack == "i" and last.played.text == "K5 SI"
    assert last.played.equity == last.played.score + 2 * left_over  # its score, and the opponent's tiles twice
    static = analyze_game(parse_gcg(game_text(), "game.gcg"), flowing_lexicon, equity)
    best_score = static.turns[29].best.score  # one tile: the best static move is the highest score
    assert last.best.equity >= best_score + 2 * left_over  # going out with it is one choice
    mover = result.players[last.seat]
    assert mover.equity_lost == pytest.approx(sum(t.equity_loss for t in result.turns
                                                  if t.seat == last.seat and t.analysable))  # fmt: skip


def test_the_endgames_best_loses_nothing(flowing_lexicon, equity):
    first, _ = review(game_text(), flowing_lexicon, equity)
    turn = first.turns[29]
    best = turn.best
    assert best.kind == "place" and not best.same_as(turn.played)
    nick, total = line_of(30).split()[0], int(line_of(30).split()[-1]) - turn.played.score
    word = best.display.replace("(", "").replace(")", "")  # board tiles as letters: the GCG form
    replaced = f"{nick} I {best.coord} {word} +{best.score} {total + best.score}"
    again, _ = review(game_text(replace={30: replaced}, drop_after=30), flowing_lexicon, equity)
    played = again.turns[29]
    assert played.method == ENDGAME and played.exact and played.played.same_as(best)
    assert played.equity_loss == 0.0 and played.played.equity == played.best.equity == best.equity


class RecordingSolver(EndgameSolver):
    """The real solver, remembering the passes in a row each search started from."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.passes = []

    def solve(self, board, racks, passes=0, **kwargs):
        self.passes.append(passes)
        return super().solve(board, racks, passes, **kwargs)


def test_a_pass_is_valued_and_counted_for_the_next_turn(flowing_lexicon, equity):
    pass_line = re.sub(r" 5B \S+ \+6 (\d+)$", lambda m: f" - +0 {int(m.group(1)) - 6}", line_of(29))
    assert pass_line != line_of(29)
    solver = RecordingSolver(flowing_lexicon, V)
    result, _ = review(game_text(replace={29: pass_line}, drop_after=30), flowing_lexicon, equity, solver=solver)
    passed, after = result.turns[28], result.turns[29]
    assert passed.played.kind == "pass" and passed.method == ENDGAME and passed.exact
    assert passed.played.equity <= passed.best.equity and passed.equity_loss >= 0
    assert solver.passes == [0, 1]  # the pass before turn 30 reached its search
    assert after.method == ENDGAME and after.exact


def test_a_move_the_lexicon_lacks_is_valued_as_laid(flowing_lexicon, small_lexicon, equity):
    """A reviewer on another lexicon (20 words) has none of the moves played: each is valued as
    it was laid; the last still goes out, so the end rules give its value exactly."""
    from literaki_cli.engine.lexicon import Lexicon

    small = Lexicon.open(small_lexicon)
    hook = EndgameReviewer(small, V, SECONDS)
    result = analyze_game(parse_gcg(game_text(), "game.gcg"), flowing_lexicon, equity, endgame=hook)
    last = result.turns[29]
    assert last.method == ENDGAME and last.exact
    assert "the move played is not among the legal moves: valued as it was laid" in last.notes
    assert last.played.equity == last.played.score + 2 * V.rack_value("nr")


def test_placement_records_match_the_generator(flowing_lexicon, equity):
    """The record built for a move the generator does not make is the generator's own record
    for one it does (across, down, single tiles, words through board tiles)."""
    positions = []
    analyze_game(parse_gcg(game_text(), "game.gcg"), flowing_lexicon, equity,
                 simulate=lambda position, turn: positions.append(position))  # fmt: skip
    generator = MoveGenerator(flowing_lexicon, V)
    checked, singles, down = 0, 0, 0
    for position in positions[10::6]:
        records = generator.generate(position.board, position.rack).records
        assert len(records)
        for row in np.concatenate([records[:: max(1, len(records) // 40)], records[records[:, TILES] == 1][:20]]):
            tiles, direction = record_tiles(row)
            assert (placement_record(position.board, frozenset(tiles), int(row[SCORE])) == row).all(), (row, tiles)
            checked, singles, down = checked + 1, singles + (len(tiles) == 1), down + (direction == DOWN)
    assert checked > 100 and singles > 10 and down > 10


def test_a_withdrawn_endgame_placement_is_valued_as_a_pass(flowing_lexicon, equity):
    withdrawn_line = re.sub(r" K5 \S+ \+4 (\d+)$", lambda m: f" -- -4 {int(m.group(1)) - 4}", line_of(30))
    text = game_text(drop_after=30)
    text = text.replace(line_of(30) + "\n", line_of(30) + "\n" + withdrawn_line + "\n")
    result, _ = review(text, flowing_lexicon, equity)
    turn = result.turns[29]
    assert turn.withdrawn and turn.method == ENDGAME and turn.exact
    pass_line = re.sub(r" K5 \S+ \+4 (\d+)$", lambda m: f" - +0 {int(m.group(1)) - 4}", line_of(30))
    as_pass, _ = review(game_text(replace={30: pass_line}, drop_after=30), flowing_lexicon, equity)
    assert turn.played.equity == as_pass.turns[29].played.equity
    assert turn.equity_loss == pytest.approx(turn.best.equity - turn.played.equity) and turn.played.leave_value is None


def test_endgame_turns_are_not_simulated(flowing_lexicon, equity):
    result, _ = review(game_text(), flowing_lexicon, equity, simulate=lambda position, turn: turn.best)
    for turn in result.turns:
        if turn.method == ENDGAME:
            assert turn.best_sim is None and "not simulated: the endgame search valued this turn" in turn.notes
        elif turn.analysable:
            assert turn.method == "sim" and turn.best_sim is turn.best


def test_a_limited_search_is_marked_not_exact(flowing_lexicon, equity, monkeypatch, tmp_path, capsys):
    solve = EndgameSolver.solve
    monkeypatch.setattr(
        EndgameSolver, "solve", lambda self, *args, **kwargs: solve(self, *args, **{**kwargs, "depth": 1})
    )
    result, _ = review(game_text(), flowing_lexicon, equity)
    turn = result.turns[28]  # three tiles against one: one ply does not reach the end
    assert turn.method == ENDGAME and turn.exact is False and turn.equity_loss >= 0
    assert any("not exact" in note for note in turn.notes)
    path = tmp_path / "g.gcg"
    path.write_text(game_text(), encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path))
    assert code == 0, err
    assert "endgame~" in out and "by endgame" in out


def cli(capsys, tmp_path, lexicon, *options, text=None):
    path = tmp_path / "g.gcg"
    path.write_text(text or game_text(), encoding="utf-8")
    return run_cli(capsys, "analyze", str(path), "--lexicon", str(lexicon.path), *options)


def test_json_and_tables_mark_the_method(flowing_lexicon, tmp_path, capsys):
    out_dir = tmp_path / "review"
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--json", "--endgame-time", "120", "--out", str(out_dir))
    assert code == 0, err
    report = json.loads(out)
    for turn in report["turns"]:
        assert {"method", "exact", "endgame_nodes", "endgame_seconds"} <= set(turn)
    solved = [t for t in report["turns"] if t["method"] == "endgame"]
    assert [t["turn"] for t in solved] == [29, 30]
    for turn in solved:
        assert turn["bag"] == 0 and turn["exact"] is True and turn["endgame_nodes"] > 0
        assert turn["best"]["equity"] >= turn["played"]["equity"] and turn["played"]["leave_value"] is None
        assert turn["equity_loss"] == pytest.approx(turn["best"]["equity"] - turn["played"]["equity"], abs=1e-3)
        assert turn["best"]["equity"] == int(turn["best"]["equity"])  # points of spread
    others = [t for t in report["turns"] if t["method"] not in ("endgame", None)]
    assert others and all(t["method"] == "static" and t["exact"] is False and t["bag"] > 0 for t in others)
    mistakes = [m for p in report["players"] for m in p["mistakes"]]
    assert mistakes and all("method" in m for m in mistakes)
    table = pl.read_parquet(out_dir / "turns.parquet")
    csv = pl.read_csv(out_dir / "turns.csv")
    for frame in (table, csv):
        assert {"method", "exact", "endgame_nodes", "endgame_seconds"} <= set(frame.columns)
        assert frame.filter(pl.col("method") == "endgame")["turn"].to_list() == [29, 30]
    assert table.schema["exact"] == pl.Boolean and table.schema["endgame_nodes"] == pl.Int64
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--endgame-time", "120")
    assert code == 0 and "by endgame" in out and "endgame~" not in out


def test_endgame_time_0_is_the_static_review(flowing_lexicon, equity, tmp_path, capsys, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("no endgame search with --endgame-time 0")

    monkeypatch.setattr(EndgameSolver, "solve", never)
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--json", "--endgame-time", "0")
    assert code == 0, err
    turns = json.loads(out)["turns"]
    assert all(t["method"] in ("static", None) and not t["exact"] and t["endgame_nodes"] is None for t in turns)
    library = analyze_game(parse_gcg(game_text(), "game.gcg"), flowing_lexicon, equity)  # the library's default
    assert [t["equity_loss"] for t in turns] == [None if t.equity_loss is None else round(t.equity_loss, 3)
                                                 for t in library.turns]  # fmt: skip
    code, out, _ = cli(capsys, tmp_path, flowing_lexicon, "--endgame-time", "0")
    assert code == 0 and "by endgame" not in out


def test_threads_search_the_endgame_turns_with_the_same_answers(flowing_lexicon, tmp_path, capsys):
    """--threads 2 reviews the bag-empty turns as one thread does (their answers are exact), and
    --threads without an endgame search, or below 1, is refused."""
    answers = []
    for threads in ("1", "2"):
        code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--json", "--endgame-time", "120", "--threads", threads)
        assert code == 0, err
        turns = json.loads(out)["turns"]
        answers.append([{k: v for k, v in t.items() if k not in ("endgame_nodes", "endgame_seconds")} for t in turns])
    assert answers[0] == answers[1]
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--endgame-time", "0", "--threads", "2")
    assert code == 2 and "--threads: only with an endgame search" in err and out == ""
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--threads", "0")
    assert code == 2 and "--threads" in err and out == ""


@pytest.mark.parametrize("value", ["-1", "abc", "nan", "inf", "1e9", "", "-0.5"])
def test_bad_endgame_time_exits_2(flowing_lexicon, tmp_path, capsys, value):
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--endgame-time", value)
    assert code == 2 and out == ""
    assert err.startswith(f"literaki: error: --endgame-time {value!r}: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_the_command_default_is_the_librarys():
    import inspect

    from literaki_cli.commands.analyze import analyze_command

    assert float(inspect.signature(analyze_command).parameters["endgame_time"].default) == DEFAULT_ENDGAME_SECONDS


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_keeps_the_review_whole(flowing_lexicon, equity, tmp_path, capsys, monkeypatch):
    calls = []

    def interrupted(self, *args, **kwargs):
        calls.append(1)
        raise KeyboardInterrupt

    monkeypatch.setattr(EndgameSolver, "solve", interrupted)
    result, hook = review(game_text(), flowing_lexicon, equity)
    assert hook.interrupted and len(calls) == 1  # no search after the Ctrl-C
    first, second = result.turns[28], result.turns[29]
    assert first.method == second.method == STATIC and first.equity_loss is not None and second.equity_loss is not None
    assert any("interrupted (Ctrl-C)" in note for note in first.notes)
    assert any("the endgame search was interrupted" in note for note in second.notes)
    code, out, err = cli(capsys, tmp_path, flowing_lexicon, "--json")
    assert code == 130 and "interrupted: the later endgame turns were not solved (the static review is whole)" in err
    turns = json.loads(out)["turns"]
    assert len(turns) == 30 and all(t["method"] != "endgame" for t in turns)


def test_a_search_the_solver_reports_interrupted_stops_the_endgame_review(flowing_lexicon, equity, monkeypatch):
    """The solver turns a Ctrl-C inside its compiled search into an early answer marked
    interrupted: the review keeps the static values from there on."""
    solve = EndgameSolver.solve

    def stopped(self, *args, **kwargs):
        result = solve(self, *args, **kwargs)
        result.interrupted = True
        return result

    monkeypatch.setattr(EndgameSolver, "solve", stopped)
    result, hook = review(game_text(), flowing_lexicon, equity)
    assert hook.interrupted and all(t.method != ENDGAME for t in result.turns)


def test_a_ctrl_c_while_valuing_a_withdrawn_move_restores_the_static_review(flowing_lexicon, equity, monkeypatch):
    withdrawn_line = re.sub(r" K5 \S+ \+4 (\d+)$", lambda m: f" -- -4 {int(m.group(1)) - 4}", line_of(30))
    text = game_text(drop_after=30)
    text = text.replace(line_of(30) + "\n", line_of(30) + "\n" + withdrawn_line + "\n")
    static = analyze_game(parse_gcg(text, "game.gcg"), flowing_lexicon, equity)
    value_of = EndgameSolver.value_of

    def interrupted_on_the_pass(self, board, racks, record, *args, **kwargs):
        if record is None:
            raise KeyboardInterrupt
        return value_of(self, board, racks, record, *args, **kwargs)

    monkeypatch.setattr(EndgameSolver, "value_of", interrupted_on_the_pass)
    result, hook = review(text, flowing_lexicon, equity)
    turn, expected = result.turns[29], static.turns[29]
    assert hook.interrupted and turn.withdrawn and turn.method == STATIC
    assert turn.best.text == expected.best.text and turn.equity_loss == pytest.approx(expected.equity_loss)
    assert turn.played.equity == pytest.approx(expected.played.equity)


# --------------------------------------------------------------------------- the real lexicon


@pytest.mark.sjp
def test_the_example_games_endgame_with_the_real_lexicon(sjp_build, tmp_path, capsys):
    """examples/simulated-game.gcg on SJP: turns 28-30 solved exactly (turns 26-27, a 7-tile and
    a 3-tile endgame against 7 tiles, take the search far longer: their racks are left out);
    the last turn goes out, so its values follow from the end rules and the static best score."""
    path = tmp_path / "g.gcg"
    path.write_text(game_text(without_racks=(26, 27)), encoding="utf-8")
    lexicon = str(sjp_build.output)
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", lexicon, "--json", "--endgame-time", "120")
    assert code == 0, err
    turns = json.loads(out)["turns"]
    solved = [t for t in turns if t["method"] == "endgame"]
    assert [t["turn"] for t in solved] == [28, 29, 30] and all(t["exact"] for t in solved)
    assert all(t["best"]["equity"] >= t["played"]["equity"] and t["equity_loss"] >= 0 for t in solved)
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", lexicon, "--json", "--endgame-time", "0")
    static = json.loads(out)["turns"]
    last, static_last = solved[-1], static[29]
    left_over = V.rack_value("nr")
    assert last["played"]["equity"] == last["played"]["score"] + 2 * left_over
    assert last["best"]["equity"] == static_last["best"]["score"] + 2 * left_over  # the highest score goes out
    assert last["equity_loss"] == static_last["best"]["score"] - last["played"]["score"]
