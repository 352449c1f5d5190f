"""The look-ahead answers of ``solve`` under Ctrl-C and a time budget: ``solve --sim`` interrupted
before its first round of iterations finished (it shows the static ranking of the candidates,
marked not simulated, and says so), and ``solve --peg --time S`` keeping its time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.io.positionio import read_position
from literaki_cli.montecarlo import simulation
from literaki_cli.montecarlo.settings import SimSettings
from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates, static_candidates
from literaki_cli.montecarlo.winmodel import open_win_model
from tests.conftest import ROOT, run_cli, time_limit

GAME = ROOT / "examples" / "game.cgp"
PEG = ROOT / "examples" / "peg.cgp"
#: What stderr says when Ctrl-C came before a round of the simulation finished.
NO_ROUND = "interrupted before the first round of the simulation: no simulated results"


def game_sim() -> SimPosition:
    position = read_position(GAME.read_text(encoding="utf-8"), str(GAME))
    return SimPosition.of(position, position.rack)


def static_words(lexicon, sim: SimPosition, count: int = 10) -> list[tuple[str | None, str, int]]:
    """The candidates ``solve --sim`` simulates, by static equity: (coord, word, score)."""
    equity = Equity(open_leaves(), sim.variant)
    return [(c.coord, c.word, c.score) for c in static_candidates(sim, lexicon, equity, count)]


def interrupt_at(monkeypatch, where: str) -> None:
    """Ctrl-C at one step of a simulation before its first round finished: while the candidates
    are ranked, while the simulator is made (its threads start), or during the first round."""

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    targets = {"ranking": ("static_candidates", ctrl_c), "simulator": ("Simulator", ctrl_c),
               "round": ("_run_round", ctrl_c)}  # fmt: skip
    name, value = targets[where]
    monkeypatch.setattr(simulation, name, value)


# --------------------------------------------------------------------------- solve --sim: Ctrl-C early


@pytest.mark.parametrize("where, workers", [("simulator", 1), ("simulator", 2), ("round", 1), ("round", 2)])
def test_sim_ctrl_c_before_the_first_round_keeps_the_static_ranking(flowing_lexicon, monkeypatch, where, workers):
    """The library: Ctrl-C before a round finished ends the simulation with no iteration, the
    candidates in their static order, never a KeyboardInterrupt out of it."""
    sim = game_sim()
    expected = static_words(flowing_lexicon, sim, 5)
    interrupt_at(monkeypatch, where)
    settings = SimSettings(iterations=200, candidates=5, workers=workers)
    result = simulate_candidates(sim, flowing_lexicon, Equity(open_leaves(), sim.variant), open_win_model(), settings)
    assert result.interrupted and result.iterations == 0 and not result.stopped
    assert [(r.candidate.coord, r.candidate.word, r.candidate.score) for r in result.candidates] == expected
    record = result.as_dict()["sim"]
    assert record["interrupted"] is True and record["iterations"] == 0
    assert all(c["iterations"] == 0 and c["equity"] is None and c["win_pct"] is None for c in record["candidates"])


def test_sim_ctrl_c_while_the_candidates_are_ranked_says_none_were(flowing_lexicon, monkeypatch):
    """Ctrl-C before the candidates were ranked: no candidate is known (null in JSON, which an
    empty list would not tell from a rack with no move)."""
    interrupt_at(monkeypatch, "ranking")
    sim = game_sim()
    result = simulate_candidates(sim, flowing_lexicon, Equity(open_leaves(), sim.variant), open_win_model(),
                                 SimSettings(iterations=50, workers=1))  # fmt: skip
    assert result.interrupted and result.iterations == 0 and not result.ranked
    record = result.as_dict()["sim"]
    assert record["interrupted"] is True and record["iterations"] == 0 and record["candidates"] is None


@pytest.mark.parametrize("where, workers", [("simulator", "1"), ("simulator", "2"), ("round", "2")])
def test_solve_sim_ctrl_c_before_the_first_round_prints_the_static_candidates(capsys, flowing_lexicon, monkeypatch,
                                                                              where, workers):  # fmt: skip
    sim = game_sim()
    expected = static_words(flowing_lexicon, sim)
    interrupt_at(monkeypatch, where)
    args = ["solve", str(GAME), "--sim", "--workers", workers, "--lexicon", str(flowing_lexicon.path)]
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 130 and NO_ROUND in err and "Traceback" not in err
    answer = json.loads(out)
    assert answer["sim"]["interrupted"] is True and answer["sim"]["iterations"] == 0
    assert [(c["coord"], c["word"], c["score"]) for c in answer["sim"]["candidates"]] == expected
    assert answer["bag"] == 82 and answer["unseen"]  # the position's keys, as every solve --json answer has
    code, out, err = run_cli(capsys, *args)
    assert code == 130 and NO_ROUND in err
    assert "not simulated" in out and "static" in out and expected[0][1].upper() in out.upper()


def test_solve_sim_ctrl_c_while_loading_says_so_and_prints_json(capsys, flowing_lexicon, monkeypatch):
    """Ctrl-C before the candidates were ranked (here: while the position is read): one line
    saying so on stderr, and with --json still a JSON object, interrupted with 0 iterations."""
    import literaki_cli.commands.solve as solve_module

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_module, "load_position", ctrl_c)
    args = ["solve", str(GAME), "--sim", "--workers", "1", "--lexicon", str(flowing_lexicon.path)]
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 130 and NO_ROUND in err and "not ranked" in err
    record = json.loads(out)["sim"]
    assert record["interrupted"] is True and record["iterations"] == 0 and record["candidates"] is None
    code, out, err = run_cli(capsys, *args)
    assert code == 130 and NO_ROUND in err and "Traceback" not in err


#: Runs ``literaki ARGS`` with one step of ``solve --sim`` made to wait (``where``: the position
#: read, the simulator made, the first round) after touching the file READY, so that a real
#: SIGINT lands in that step whatever the machine's speed.
PAUSED_CLI = """
import signal, sys, time
from pathlib import Path

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, even if the tests run where it is ignored
ready, where, *args = sys.argv[1:]
import literaki_cli.commands.solve as solve_module
from literaki_cli.montecarlo import simulation

module, name = {"position": (solve_module, "load_position"), "simulator": (simulation, "Simulator"),
                "round": (simulation, "_run_round")}[where]
original = getattr(module, name)

def paused(*a, **k):
    Path(ready).touch()
    time.sleep(120)  # the test's SIGINT ends it
    return original(*a, **k)

setattr(module, name, paused)
from literaki_cli.commands import main
sys.exit(main(args))
"""


@pytest.mark.parametrize("where, workers, json_out", [("position", "2", True), ("simulator", "1", False),
                                                      ("round", "2", True), ("round", "1", False)])  # fmt: skip
def test_a_real_sigint_before_the_first_round(flowing_lexicon, tmp_path, where, workers, json_out):
    """A real SIGINT to the process group (as a terminal sends it), the worker processes
    included, in a step before the first round finished: exit 130, a line on stderr, and the
    answer so far on stdout (valid JSON with --json)."""
    script, ready = tmp_path / "paused.py", tmp_path / "ready"
    script.write_text(PAUSED_CLI, encoding="utf-8")
    args = ["solve", str(GAME), "--sim", "--workers", workers, "--lexicon", str(flowing_lexicon.path)]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"}
    process = subprocess.Popen([sys.executable, str(script), str(ready), where, *args, *(["--json"] * json_out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env,
                               cwd=tmp_path, start_new_session=True)  # fmt: skip
    try:
        with time_limit(240):
            while not ready.exists() and process.poll() is None:
                time.sleep(0.05)
        assert process.poll() is None, process.communicate()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert NO_ROUND in err and "Traceback" not in err
    if json_out:
        record = json.loads(out)["sim"]
        assert record["interrupted"] is True and record["iterations"] == 0
        assert (record["candidates"] is None) == (where == "position")
    else:
        assert "not simulated" in out


# --------------------------------------------------------------------------- solve --peg --time

#: The budget a test gives, and what its search may take: the budget plus 10 % (what the search
#: promises: the endgame cut at the deadline, the step in progress then finished) plus 0.15 s for a
#: loaded test machine (another process on the core, a slow first clock read), so that a busy CI
#: does not flake.  Without the deadline the same answer has taken from 1.0 s (in CI) to 38 s.
PEG_BUDGET = 0.4
PEG_ALLOWED = 1.1 * PEG_BUDGET + 0.15


def test_solve_peg_time_keeps_the_budget(capsys, flowing_lexicon):
    """``solve --peg --time 0.4`` on a position whose endings on the flowing lexicon (every
    two-letter word: thousands of moves) take far longer than that: the search stops at the
    budget, as the JSON's ``seconds`` (the search's own clock, after the kernels load) says,
    with the candidates judged before the deadline, best first, and says it ran out of time."""
    code, out, err = run_cli(capsys, "solve", str(PEG), "--peg", "--time", str(PEG_BUDGET), "--json", "--lexicon",
                             str(flowing_lexicon.path))  # fmt: skip
    assert code == 0, err
    peg = json.loads(out)["peg"]
    assert peg["seconds"] <= PEG_ALLOWED, peg["seconds"]
    seen = {k: peg[k] for k in ("interrupted", "out_of_time", "judged", "seconds")}
    assert peg["out_of_time"] is True and peg["judged"] < peg["considered"] == 11, seen
    assert peg["judged"] == len(peg["candidates"])
    ranks = [(c["win_pct"], c["value"]) for c in peg["candidates"]]
    assert ranks == sorted(ranks, reverse=True)
    assert all(c["splits"] == peg["splits"] == 7 for c in peg["candidates"])  # a candidate is judged whole or not


def test_solve_peg_time_says_which_candidates_it_judged(capsys, flowing_lexicon):
    code, out, err = run_cli(capsys, "solve", str(PEG), "--peg", "--time", "0.5", "--lexicon",
                             str(flowing_lexicon.path))  # fmt: skip
    assert code == 0, err
    assert "out of time" in out and "of 11 candidates judged within 0.5 s" in out
    code, out, err = run_cli(capsys, "solve", str(PEG), "--peg", "--time", "0.001", "--lexicon",
                             str(flowing_lexicon.path))  # fmt: skip
    assert code == 0, err
    assert "out of time: 0 of 11 candidates judged within 0.001 s (--time): give it more time" in out


def test_the_pre_endgame_keeps_a_deadline_across_its_endgames(flowing_lexicon):
    """The library: with ``strict_time`` every endgame search shares one deadline (its first
    iteration too: no ending is searched to one ply whatever the clock), and a candidate
    whose endings are not all valued by then is left out."""
    from literaki_cli.analysis.positionquery import peg_start
    from literaki_cli.endgame.peg import PegSettings, PreEndgameSolver
    from literaki_cli.endgame.solver import EndgameSolver

    position = read_position(PEG.read_text(encoding="utf-8"), str(PEG))
    start = peg_start(position, position.rack)
    solver = PreEndgameSolver(EndgameSolver(flowing_lexicon, position.variant, threads=1))
    for budget in (0.3, 0.05):
        solver.endgame.forget()
        began = time.perf_counter()
        result = solver.solve(start, PegSettings(candidates=4, nodes=None, seconds=budget, strict_time=True))
        took = time.perf_counter() - began
        assert result.seconds <= 1.1 * budget + 0.15 and result.out_of_time, (budget, result.seconds)
        assert took - result.seconds < 0.5  # before the clock: the candidates generated
        assert len(result.candidates) < result.considered == 5
        assert result.as_dict()["peg"]["out_of_time"] is True
