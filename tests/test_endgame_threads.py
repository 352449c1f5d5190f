"""Two search threads over one table (issue 27): the same answers as one thread.

The positions are the golden battery's (tests/data/golden/endgames.json, on the generated lexicon
of tests/data/make_golden.py), whose answers the code before any endgame change recorded; the
quick ones are solved here on two threads (Lazy SMP: EndgameSolver._iteration) and must give
the recorded value, best first moves and line.  A node budget is searched on one thread, so that
its move is the same on any machine and any number of threads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from literaki_cli.endgame.solver import EndgameSolver, all_cores
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.io.positionio import read_position
from tests.test_golden_answers import GOLDEN, check_all, make_golden

#: Battery positions the old code solved within this many seconds (the test stays quick).
QUICK_SECONDS = 2.0
BATTERY = [r for r in json.loads((GOLDEN / "endgames.json").read_text(encoding="utf-8"))
           if r.get("old_seconds", 0.0) <= QUICK_SECONDS]  # fmt: skip


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory) -> Path:
    return make_golden.build(tmp_path_factory.mktemp("threads") / "lex")


@pytest.fixture(scope="module")
def two_threads(lexicon):
    return EndgameSolver(Lexicon.open(lexicon), read_position(BATTERY[0]["position"], "t").variant, threads=2)


@pytest.mark.parametrize("recorded", BATTERY, ids=lambda r: r["id"])
def test_two_threads_give_the_recorded_answers(two_threads, recorded):
    """Depth aside: the depth at which an answer becomes exact may differ with the table's contents."""
    position = read_position(recorded["position"], "t")
    two_threads.forget()
    result = two_threads.solve(position.board, tuple(position.racks[:2]), position.zero_turns)
    answer = result.as_dict()["endgame"]
    for field in ("nodes", "seconds", "depth"):
        del answer[field]
    expected = {k: v for k, v in recorded["answer"].items() if k != "depth"}
    check_all([(f"endgame {recorded['id']} on two threads", expected, answer)], "solve --endgame --threads 2")


def test_a_node_budget_is_searched_on_one_thread(lexicon, two_threads):
    """The same nodes and the same move on one thread and on two: a level's endgame budget
    (mistrz) gives the same game on any machine."""
    biggest = max(BATTERY, key=lambda r: r.get("old_seconds", 0.0))
    position = read_position(biggest["position"], "t")
    one = EndgameSolver(Lexicon.open(lexicon), position.variant, threads=1)
    answers = []
    for solver in (one, two_threads):
        solver.forget()
        result = solver.solve(position.board, tuple(position.racks[:2]), position.zero_turns, nodes=3000)
        answers.append((result.nodes, result.value, result.best.word, result.exact))
    assert answers[0] == answers[1]


def test_threads_below_one_are_refused(lexicon):
    with pytest.raises(ValueError, match="threads must be at least 1"):
        EndgameSolver(Lexicon.open(lexicon), read_position(BATTERY[0]["position"], "t").variant, threads=0)
    assert all_cores() >= 1
