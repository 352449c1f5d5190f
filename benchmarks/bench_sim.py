"""Simulation throughput: candidate-iterations per second of ``solve --sim`` on the mid-game
example positions (examples/positions/*-middle-*), full SJP lexicon and shipped leaves.

    python benchmarks/bench_sim.py [--lexicon FILE] [--iterations 64] [--candidates 10] [--plies 2]
                                   [--runs 3] [--workers 1,2] [--positions middle]

For each worker count: per position the median over ``--runs`` of candidate-iterations / s
(the simulation alone, in-process, after warm-up), then the median and the total over the
positions; the scaling of N workers (threads of the Rust core) against one; and where one
worker's time goes (the rollouts in the core, whose plies are best-move searches, against the
Python around them: the futures drawn, the win model).  Targets: >= 1,000 candidate-iterations/s
per core at 2 plies, near-linear with --workers (issue 14); >= 4x the numba rollouts on one core
and two workers >= 1.8x one (issue 40; benchmarks/bench_search.py compares two revisions).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import ROOT, machine  # noqa: E402

from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.equity.equity import Equity  # noqa: E402
from literaki_cli.equity.leaves import open_leaves  # noqa: E402
from literaki_cli.io.positionio import load_position  # noqa: E402
from literaki_cli.montecarlo.settings import SimSettings  # noqa: E402
from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates  # noqa: E402
from literaki_cli.montecarlo.winmodel import open_win_model  # noqa: E402


def rate(position, lexicon, equity, model, iterations, candidates, plies, workers, seed) -> tuple[float, float]:
    """(candidate-iterations per second, seconds) of one simulation."""
    sim = SimPosition.of(position, position.rack)
    settings = SimSettings(iterations, candidates, plies, seed, workers)
    result = simulate_candidates(sim, lexicon, equity, model, settings)
    return result.candidate_iterations / result.seconds, result.seconds


def search_share(position, lexicon, equity, model, iterations, candidates, plies) -> float:
    """The share of one worker's simulation time spent in the core's rollouts (the plies'
    best-move searches and the bookkeeping around them), timed by wrapping the calls into it."""
    from literaki_cli.montecarlo.simulation import Simulator

    spent = [0.0]
    original = Simulator.answers

    def timed(self, *args):
        started = time.perf_counter()
        try:
            return original(self, *args)
        finally:
            spent[0] += time.perf_counter() - started

    Simulator.answers = timed
    try:
        _, seconds = rate(position, lexicon, equity, model, iterations, candidates, plies, 1, 99)
    finally:
        Simulator.answers = original
    return spent[0] / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--positions", default="middle", help="a part of the example positions' file names")
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = Lexicon.open(ensure_lexicon(args.lexicon, Path(tmp)))
        paths = sorted((ROOT / "examples" / "positions").glob(f"*{args.positions}*.cgp"))
        positions = [load_position(str(p)) for p in paths]
        equity = Equity(open_leaves(), positions[0].variant)
        model = open_win_model()
        rate(positions[0], lexicon, equity, model, 4, 2, args.plies, 1, 0)  # warm up (the graph's words, the caches)
        print(f"{len(paths)} positions, {args.candidates} candidates x {args.iterations} iterations, "
              f"{args.plies} plies, median of {args.runs} runs")  # fmt: skip
        medians: dict[int, list[float]] = {}
        for workers in [int(w) for w in args.workers.split(",")]:
            per_position = []
            for path, position in zip(paths, positions, strict=True):
                rates = [rate(position, lexicon, equity, model, args.iterations, args.candidates, args.plies,
                              workers, seed)[0] for seed in range(args.runs)]  # fmt: skip
                per_position.append(statistics.median(rates))
                print(f"  workers {workers}  {path.name:34} {per_position[-1]:8.0f} candidate-iterations/s", flush=True)
            medians[workers] = per_position
            print(f"workers {workers}: median {statistics.median(per_position):.0f}, "
                  f"min {min(per_position):.0f}, max {max(per_position):.0f} candidate-iterations/s")  # fmt: skip
        if 1 in medians:
            for workers, per_position in medians.items():
                if workers != 1:
                    ratios = [n / one for n, one in zip(per_position, medians[1], strict=True)]
                    print(f"scaling with {workers} workers: median x{statistics.median(ratios):.2f}")
            shares = [search_share(p, lexicon, equity, model, args.iterations, args.candidates, args.plies)
                      for p in positions]  # fmt: skip
            print(f"one worker's time in the core's rollouts: median {100 * statistics.median(shares):.0f} %")


if __name__ == "__main__":
    main()
