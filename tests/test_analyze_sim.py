"""``analyze --sim N``: every analysable turn simulated with the move played among the candidates
(literaki_cli.montecarlo.turns)."""

from __future__ import annotations

import json

import pytest

from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.montecarlo.settings import SimSettings
from literaki_cli.montecarlo.simulation import simulate_candidates
from literaki_cli.montecarlo.turns import TurnSimulator
from literaki_cli.montecarlo.winmodel import open_win_model
from tests.conftest import run_cli
from tests.test_analyze import V, mistrz_game, review_of


@pytest.fixture(scope="module")
def short_game(flowing_lexicon):
    from literaki_cli.games.record import game_to_gcg

    game = mistrz_game(flowing_lexicon, seed=5).play()
    return game_to_gcg(game)


@pytest.mark.slow
def test_each_turn_simulated_with_the_move_played(short_game, flowing_lexicon, tmp_path, capsys):
    path = tmp_path / "g.gcg"
    path.write_text(short_game, encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--json",
                             "--sim", "8", "--candidates", "3", "--workers", "1")  # fmt: skip
    assert code == 0, err
    turns = json.loads(out)["turns"]
    simulated = [t for t in turns if t["best_sim"] is not None]
    assert simulated and len(simulated) == sum(1 for t in turns if t["best"] is not None)
    for t in simulated:
        assert t["sim_equity_loss"] >= 0
        assert t["sim_equity_loss"] == pytest.approx(max(0.0, t["best_sim"]["equity"] - t["played_sim_equity"]),
                                                     abs=2e-3)  # fmt: skip
    same = [t for t in simulated if t["best_sim"]["coord"] == t["played"]["coord"]
            and t["best_sim"]["word"] == t["played"]["word"]]  # fmt: skip
    assert all(t["sim_equity_loss"] == 0 for t in same)


def test_same_seed_same_simulated_review_and_ctrl_c_leaves_later_turns_unsimulated(short_game, flowing_lexicon,
                                                                                  monkeypatch):
    equity = Equity(open_leaves(), V)
    settings = SimSettings(iterations=8, candidates=2, workers=1, seed=4)
    first = review_of(short_game, flowing_lexicon, equity,
                      simulate=TurnSimulator(flowing_lexicon, equity, open_win_model(), settings))  # fmt: skip
    again = review_of(short_game, flowing_lexicon, equity,
                      simulate=TurnSimulator(flowing_lexicon, equity, open_win_model(), settings))  # fmt: skip
    assert first.as_dict() == again.as_dict()
    from literaki_cli.montecarlo import turns

    turns_started, rounds = [], []

    def interrupted_on_the_second_turn(*args, **kwargs):
        turns_started.append(1)
        if len(turns_started) == 2:  # Ctrl-C during this turn's second round: its first round is kept

            def progress(n):
                rounds.append(n)
                if len(rounds) == 2:
                    raise KeyboardInterrupt

            kwargs["progress"] = progress
        return simulate_candidates(*args, **kwargs)

    monkeypatch.setattr(turns, "simulate_candidates", interrupted_on_the_second_turn)
    hook = TurnSimulator(flowing_lexicon, equity, open_win_model(), SimSettings(iterations=96, candidates=2,
                          workers=1, seed=4))  # fmt: skip
    review = review_of(short_game, flowing_lexicon, equity, simulate=hook)
    assert hook.interrupted
    analysable = [t for t in review.turns if t.analysable]
    assert all(t.equity_loss is not None for t in analysable)  # the static review completed
    assert analysable[0].best_sim is not None and analysable[1].best_sim is not None
    assert any("interrupted (Ctrl-C) after 64 iterations" in n for n in analysable[1].notes)
    assert all(t.best_sim is None and any("interrupted" in n for n in t.notes) for t in analysable[2:])


def test_simulation_options_need_sim(short_game, flowing_lexicon, tmp_path, capsys):
    path = tmp_path / "g.gcg"
    path.write_text(short_game, encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--candidates", "3")
    assert code == 2 and "--candidates: only with --sim N" in err and "Traceback" not in err
